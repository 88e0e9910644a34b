package dev.vtbench.agent;

import dev.vtbench.agent.boot.Recorder;
import java.util.concurrent.CountDownLatch;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The child JVM of {@link AgentTest}, run with the agent. Scenarios (ids in the records):
 * <ul>
 *   <li>"tpe": on a 1-thread ThreadPoolExecutor, a task sleeping 50 ms, then a trivial task queued behind it;
 *   <li>"vt": on a virtual-thread-per-task executor, a task sleeping 50 ms submitted with submit(), one with
 *       execute(), and from inside the first a nested task (inherits the id);
 *   <li>"spring": Spring's SimpleAsyncTaskExecutor (virtual threads, concurrency limit 1), a 50 ms task and one behind it.
 * </ul>
 * Prints READY when done and sleeps until killed.
 */
public final class AgentTarget {
  public static void main(String[] args) throws Exception {
    if (Recorder.class.getClassLoader() != null) throw new IllegalStateException("Recorder not on the bootstrap loader");
    ThreadPoolExecutor one = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());

    // a task without a request (counted in tasks, recorded nowhere)
    one.submit(() -> { }).get();

    // the sleeper starts its 50 ms only once the second task is queued, so that task's wait covers all of them
    // (without the latch the worker could start the sleeper before the second submit and the wait fall short)
    CountDownLatch queued = new CountDownLatch(1);
    Object scope = Recorder.testBegin("tpe");
    Future<?> sleeper = one.submit(() -> {
      await(queued);
      sleep(50);
    });
    Future<?> behind = one.submit(() -> { });
    queued.countDown();
    Recorder.testEnd(scope);
    sleeper.get();
    behind.get();

    try (ExecutorService vts = Executors.newVirtualThreadPerTaskExecutor()) {
      CountDownLatch nestedDone = new CountDownLatch(1);
      scope = Recorder.testBegin("vt");
      Future<?> f = vts.submit(() -> {
        vts.execute(nestedDone::countDown);
        sleep(50);
      });
      CountDownLatch executed = new CountDownLatch(1);
      vts.execute(executed::countDown);
      Recorder.testEnd(scope);
      f.get();
      executed.await();
      nestedDone.await();
    }

    // Spring's SimpleAsyncTaskExecutor on virtual threads with a concurrency limit of 1: the limit blocks the
    // caller in execute(), so the second task's wait (from the call to execute) covers the first one's 50 ms.
    // The first task starts its 50 ms only once the caller waits inside the second execute(), so the second
    // call is known to have begun (without that, the first could sleep part of its 50 ms before it).
    SimpleAsyncTaskExecutor spring = new SimpleAsyncTaskExecutor("spring-");
    spring.setVirtualThreads(true);
    spring.setConcurrencyLimit(1);
    CountDownLatch springDone = new CountDownLatch(2);
    scope = Recorder.testBegin("spring");
    Thread caller = Thread.currentThread();
    spring.execute(() -> {
      try {
        untilThrottled(caller);
        sleep(50);
      } finally {
        springDone.countDown(); // also when the wait above gave up: main then ends instead of hanging
      }
    });
    spring.execute(springDone::countDown);
    Recorder.testEnd(scope);
    if (!springDone.await(30, TimeUnit.SECONDS)) throw new IllegalStateException("the Spring tasks did not end in 30 s");

    one.shutdown();
    System.out.println("READY");
    System.out.flush();
    Thread.sleep(60_000);
  }

  static void await(CountDownLatch latch) {
    try {
      if (!latch.await(10, TimeUnit.SECONDS)) throw new IllegalStateException("latch not released in 10 s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Returns once {@code t} waits in Spring's concurrency throttle (WAITING with a ConcurrencyThrottleSupport
   * frame: spring-core parks the caller in Condition.await() there), or throws after 10 s.
   */
  static void untilThrottled(Thread t) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (t.getState() != Thread.State.WAITING
        || java.util.Arrays.stream(t.getStackTrace()).noneMatch(f -> f.getClassName().contains("ConcurrencyThrottle"))) {
      if (System.nanoTime() > deadline) throw new IllegalStateException(t + " did not wait in 10 s: " + t.getState());
      sleep(1);
    }
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
