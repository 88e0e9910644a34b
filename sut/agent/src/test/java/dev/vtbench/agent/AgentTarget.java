package dev.vtbench.agent;

import dev.vtbench.agent.boot.Recorder;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.connector.CoyoteAdapter;
import org.apache.coyote.Request;
import org.apache.coyote.Response;

/**
 * The child JVM of {@link AgentTest}, run with the agent. Scenarios (ids in the records):
 * <ul>
 *   <li>"tpe": on a 1-thread ThreadPoolExecutor, a task sleeping 50 ms, then a trivial task queued behind it;
 *   <li>"vt": on a virtual-thread-per-task executor, a task sleeping 50 ms submitted with submit(), one with
 *       execute(), and from inside the first a nested task (inherits the id);
 *   <li>"web": a request served through the (stand-in) CoyoteAdapter.service on a 1-thread pool task that
 *       waited behind a 60 ms task: webWaitNs ≥ 60 ms; plus one request without the header (counted, not recorded).
 * </ul>
 * Prints READY when done and sleeps until killed.
 */
public final class AgentTarget {
  public static void main(String[] args) throws Exception {
    if (Recorder.class.getClassLoader() != null) throw new IllegalStateException("Recorder not on the bootstrap loader");
    ThreadPoolExecutor one = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());

    Object scope = Recorder.testBegin("tpe");
    Future<?> sleeper = one.submit(() -> sleep(50));
    Future<?> behind = one.submit(() -> { });
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

    ThreadPoolExecutor web = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
    // created (classes loaded and transformed, which takes tens of ms) before the 60 ms task starts
    CoyoteAdapter adapter = new CoyoteAdapter(() -> sleep(20));
    Request withId = new Request(Map.of("x-vtbench-id", "web"));
    Request withoutId = new Request(Map.of());
    Response res = new Response();
    web.execute(() -> sleep(60));
    Future<?> served = web.submit(() -> {
      adapter.service(withId, res);
      adapter.service(withoutId, res);
      return null;
    });
    served.get();

    one.shutdown();
    web.shutdown();
    System.out.println("READY");
    System.out.flush();
    Thread.sleep(60_000);
  }

  static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
