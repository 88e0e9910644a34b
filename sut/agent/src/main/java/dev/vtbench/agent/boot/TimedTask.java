package dev.vtbench.agent.boot;

/**
 * Timing of one task handed to an executor: submit, start and end as {@link System#nanoTime()}; 0 means
 * "not yet". Loaded by the bootstrap class loader (the agent appends this package to its search path), so
 * advice inlined into java.base and library classes can create it.
 */
public abstract class TimedTask {
  /** the executor's class (its simple name is reported) */
  final Class<?> executor;
  /** the request the submitting thread was serving, or null */
  final RequestRecord request;
  final long submitNs;
  // plain fields, not volatile: a volatile store costs a fence per store on x86 (two per task). They are read
  // by the thread that drains the records, after the fact; a value not yet visible reads as 0 (reported null).
  long startNs;
  long endNs;

  /**
   * whether the task becomes the thread's current task while it runs (for a request's web wait): true on
   * pool executors (their threads already have a ThreadLocal map, so this is cheap); false on thread-per-task
   * executors other than Tomcat's, where touching a ThreadLocal would allocate a map in every new thread
   */
  final boolean track;

  TimedTask(Class<?> executor, RequestRecord request, boolean track) {
    this.executor = executor;
    this.request = request;
    this.track = track;
    this.submitNs = System.nanoTime();
  }

  // the thread's current task and request before this one ran (a task runs once: kept here, no allocation)
  private TimedTask prevTask;
  private RequestRecord prevReq;

  /** Called by the wrappers around the delegate's run/call: the task and its request become the thread's current ones. */
  final void enter() {
    if (!track && request == null) {
      startNs = System.nanoTime();
      return;
    }
    prevTask = Recorder.CURRENT_TASK.get();
    RequestRecord pr = Recorder.CURRENT_REQUEST.get();
    prevReq = pr;
    Recorder.CURRENT_TASK.set(this);
    if (pr != request) Recorder.CURRENT_REQUEST.set(request);
    startNs = System.nanoTime();
  }

  /** Restores the thread's current task and request (set(null) rather than remove(): cheaper, and the entry is reused). */
  final void exit() {
    endNs = System.nanoTime();
    if (!track && request == null) return;
    Recorder.CURRENT_TASK.set(prevTask);
    if (prevReq != request) Recorder.CURRENT_REQUEST.set(prevReq);
    prevTask = null;
    prevReq = null;
  }

  /** The wrapped task (for tests and for unwrapping). */
  public abstract Object delegate();
}
