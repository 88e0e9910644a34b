package dev.vtbench.agent.boot;

import java.lang.reflect.Method;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the advice calls. This package is loaded by the bootstrap class loader (the agent appends a jar of
 * it to the bootstrap search path before anything else loads it), so that advice inlined into
 * java.util.concurrent and into Tomcat/Spring classes resolves the same single copy.
 *
 * <p>Per thread: the request being served ({@link #CURRENT_REQUEST}, set for the duration of
 * CoyoteAdapter.service() when the request carries the id header, and inside any task submitted while it
 * was set) and the executor task running ({@link #CURRENT_TASK}).
 */
public final class Recorder {
  private Recorder() {}

  /** at most this many finished records are buffered; beyond, {@link #dropped} counts them */
  public static final int MAX_RECORDS = 1_000_000;

  static final ThreadLocal<TimedTask> CURRENT_TASK = new ThreadLocal<>();
  static final ThreadLocal<RequestRecord> CURRENT_REQUEST = new ThreadLocal<>();

  private static final ConcurrentLinkedQueue<RequestRecord> BUFFER = new ConcurrentLinkedQueue<>();
  private static final AtomicInteger BUFFERED = new AtomicInteger();
  private static final LongAdder REQUESTS = new LongAdder();
  private static final LongAdder RECORDED = new LongAdder();
  private static final LongAdder TASKS = new LongAdder();
  private static final LongAdder DROPPED = new LongAdder();

  private static volatile String header = "x-vtbench-id";

  /** Sets the request header that carries the request id (agent argument header=). */
  public static void setHeader(String name) {
    header = name;
  }

  // ---- executors ----

  /**
   * Wraps a Runnable handed to an executor (advice on execute/start/doExecute). An already wrapped task is
   * returned as is (an executor's execute calling another instrumented one). A RunnableFuture stays a
   * RunnableFuture ({@link TimedRunnableFuture}). null is returned as null (the executor throws its NPE).
   *
   * @param executor the executor instance (its class names the executor in records)
   */
  public static Runnable wrap(Runnable task, Object executor) {
    if (task == null || task instanceof TimedTask) return task;
    TASKS.increment();
    RequestRecord req = CURRENT_REQUEST.get();
    Class<?> ec = executor.getClass();
    boolean track = TRACK.get(ec);
    TimedRunnable t = task instanceof RunnableFuture<?> f
        ? new TimedRunnableFuture(f, ec, req, track)
        : new TimedRunnable(task, ec, req, track);
    if (req != null) req.add(t);
    return t;
  }

  /** Like {@link #wrap(Runnable, Object)} for a Callable (ThreadPerTaskExecutor.submit(Callable)). */
  public static <V> Callable<V> wrapCallable(Callable<V> task, Object executor) {
    if (task == null || task instanceof TimedTask) return task;
    TASKS.increment();
    RequestRecord req = CURRENT_REQUEST.get();
    Class<?> ec = executor.getClass();
    TimedCallable<V> t = new TimedCallable<>(task, ec, req, TRACK.get(ec));
    if (req != null) req.add(t);
    return t;
  }

  /**
   * Whether tasks of an executor class become their thread's current task (see TimedTask.track): every
   * executor but the JDK's ThreadPerTaskExecutor and Spring's SimpleAsyncTaskExecutor (and subclasses),
   * which start a new thread per task; Tomcat's VirtualThreadExecutor does too but serves requests, so it tracks.
   */
  private static final ClassValue<Boolean> TRACK = new ClassValue<>() {
    @Override
    protected Boolean computeValue(Class<?> type) {
      for (Class<?> c = type; c != null; c = c.getSuperclass()) {
        String n = c.getName();
        if (n.equals("java.util.concurrent.ThreadPerTaskExecutor") || n.equals("org.springframework.core.task.SimpleAsyncTaskExecutor")) {
          return Boolean.FALSE;
        }
      }
      return Boolean.TRUE;
    }
  };

  // ---- requests ----

  /** What {@link #beginService} returns and {@link #endService} takes: the state to restore and the record to finish. */
  public static final class Scope {
    final RequestRecord previous;
    final RequestRecord record;

    Scope(RequestRecord previous, RequestRecord record) {
      this.previous = previous;
      this.record = record;
    }
  }

  private static final ClassValue<Method> GET_HEADER = new ClassValue<>() {
    @Override
    protected Method computeValue(Class<?> type) {
      try {
        return type.getMethod("getHeader", String.class);
      } catch (ReflectiveOperationException | RuntimeException e) {
        return null;
      }
    }
  };

  /**
   * Start of CoyoteAdapter.service(req, res): counts the request; when req.getHeader(header) (called
   * reflectively, the Method cached per class) is non-empty, creates its record and makes it the thread's
   * current request. Never throws.
   *
   * @return a Scope for {@link #endService}, or null when the thread's state is unchanged
   */
  public static Object beginService(Object coyoteRequest) {
    long now = System.nanoTime();
    REQUESTS.increment();
    String id = null;
    try {
      Method m = coyoteRequest == null ? null : GET_HEADER.get(coyoteRequest.getClass());
      if (m != null) id = (String) m.invoke(coyoteRequest, header);
    } catch (Throwable ignored) {
      id = null;
    }
    if (id == null || id.isEmpty()) {
      RequestRecord prev = CURRENT_REQUEST.get();
      if (prev == null) return null;
      CURRENT_REQUEST.remove(); // a request without the id does not inherit another one's
      return new Scope(prev, null);
    }
    TimedTask task = CURRENT_TASK.get();
    long webWait = -1;
    if (task != null && task.startNs != 0) webWait = task.startNs - task.submitNs;
    RequestRecord rec = new RequestRecord(id, webWait, now);
    RequestRecord prev = CURRENT_REQUEST.get();
    CURRENT_REQUEST.set(rec);
    return new Scope(prev, rec);
  }

  /** End of CoyoteAdapter.service (normal or by exception): finishes and buffers the record, restores the thread. Never throws. */
  public static void endService(Object scope) {
    if (!(scope instanceof Scope s)) return;
    if (s.previous == null) CURRENT_REQUEST.remove();
    else CURRENT_REQUEST.set(s.previous);
    if (s.record != null) {
      s.record.serviceEndNs = System.nanoTime();
      offer(s.record);
    }
  }

  private static void offer(RequestRecord r) {
    if (BUFFERED.incrementAndGet() > MAX_RECORDS) {
      BUFFERED.decrementAndGet();
      DROPPED.increment();
      return;
    }
    RECORDED.increment();
    BUFFER.add(r);
  }

  /** Removes and returns the next buffered record, or null. */
  public static RequestRecord poll() {
    RequestRecord r = BUFFER.poll();
    if (r != null) BUFFERED.decrementAndGet();
    return r;
  }

  public static long requests() {
    return REQUESTS.sum();
  }

  public static long recorded() {
    return RECORDED.sum();
  }

  public static long tasks() {
    return TASKS.sum();
  }

  public static long dropped() {
    return DROPPED.sum();
  }

  public static int buffered() {
    return BUFFERED.get();
  }

  // ---- test hooks (a program without Tomcat simulates a request) ----

  /** Makes `id` the thread's current request, as service() would (webWaitNs from the current task). Pair with {@link #testEnd}. */
  public static Object testBegin(String id) {
    return beginService(new TestRequest(id));
  }

  /** Stands in for org.apache.coyote.Request in {@link #testBegin}: any header reads as the id. */
  public static final class TestRequest {
    private final String id;

    public TestRequest(String id) {
      this.id = id;
    }

    public String getHeader(String name) {
      return id;
    }
  }

  public static void testEnd(Object scope) {
    endService(scope);
  }

  // ---- JSON helpers ----

  private static final ClassValue<String> SIMPLE_NAME = new ClassValue<>() {
    @Override
    protected String computeValue(Class<?> type) {
      String s = type.getSimpleName();
      return s.isEmpty() ? type.getName() : s;
    }
  };

  static String simpleName(Class<?> c) {
    return c == null ? null : SIMPLE_NAME.get(c);
  }

  static void jsonString(StringBuilder sb, String s) {
    if (s == null) {
      sb.append("null");
      return;
    }
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') sb.append('\\').append(c);
      else if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
      else sb.append(c);
    }
    sb.append('"');
  }
}
