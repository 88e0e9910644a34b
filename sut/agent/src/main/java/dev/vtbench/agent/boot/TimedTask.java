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
  volatile long startNs;
  volatile long endNs;

  TimedTask(Class<?> executor, RequestRecord request) {
    this.executor = executor;
    this.request = request;
    this.submitNs = System.nanoTime();
  }

  /** Called by the wrappers around the delegate's run/call: the task and its request become the thread's current ones. */
  final Object[] enter() {
    Object prevTask = Recorder.CURRENT_TASK.get();
    RequestRecord prevReq = Recorder.CURRENT_REQUEST.get();
    Recorder.CURRENT_TASK.set(this);
    if (prevReq != request) Recorder.CURRENT_REQUEST.set(request);
    startNs = System.nanoTime();
    return prevTask == null && prevReq == null ? null : new Object[] {prevTask, prevReq};
  }

  final void exit(Object[] prev) {
    endNs = System.nanoTime();
    if (prev == null) {
      Recorder.CURRENT_TASK.remove();
      if (request != null) Recorder.CURRENT_REQUEST.remove();
    } else {
      Recorder.CURRENT_TASK.set((TimedTask) prev[0]);
      Recorder.CURRENT_REQUEST.set((RequestRecord) prev[1]);
    }
  }

  /** The wrapped task (for tests and for unwrapping). */
  public abstract Object delegate();
}
