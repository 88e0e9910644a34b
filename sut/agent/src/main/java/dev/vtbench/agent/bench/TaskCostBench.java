package dev.vtbench.agent.bench;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The cost of handing a trivial task to an executor, to compare with and without the agent.
 *
 * <p>{@code java -cp vtbench-agent.jar [-javaagent:vtbench-agent.jar=port=0] dev.vtbench.agent.bench.TaskCostBench
 * [--tasks 200000] [--batch 1000] [--executors tpe,vt]}
 *
 * <p>For each executor ((a) a fixed ThreadPoolExecutor of 4 threads, (b) a virtual-thread-per-task
 * executor): a warm-up of --tasks tasks, then --tasks tasks timed; both in batches of --batch tasks
 * submitted with execute() by the main thread, each batch awaited (a CountDownLatch) before the next.
 * Prints one line per executor: {"executor":"..","tasks":N,"nsPerTask":<elapsed ns / N>}. The time
 * includes the submit, the hand-off, the run and the wake-up of the waiting main thread; the agent's
 * share is the difference between a run with and one without it.
 */
public final class TaskCostBench {
  private TaskCostBench() {}

  public static void main(String[] args) throws Exception {
    int tasks = 200_000;
    int batch = 1000;
    String only = "tpe,vt";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--tasks" -> tasks = Integer.parseInt(args[++i]);
        case "--batch" -> batch = Integer.parseInt(args[++i]);
        case "--executors" -> only = args[++i];
        default -> {
          System.err.println("usage: TaskCostBench [--tasks N] [--batch B] [--executors tpe,vt]");
          System.exit(1);
        }
      }
    }
    if (tasks <= 0 || batch <= 0) {
      System.err.println("--tasks and --batch must be positive");
      System.exit(1);
    }
    for (String e : only.split(",")) {
      switch (e.trim()) {
        case "tpe" -> run("ThreadPoolExecutor(4)", () -> Executors.newFixedThreadPool(4), tasks, batch);
        case "vt" -> run("VirtualThreadPerTaskExecutor", Executors::newVirtualThreadPerTaskExecutor, tasks, batch);
        default -> {
          System.err.println("unknown executor " + e + " (tpe, vt)");
          System.exit(1);
        }
      }
    }
  }

  static void run(String name, Supplier<ExecutorService> make, int tasks, int batch) throws Exception {
    try (ExecutorService ex = make.get()) {
      timed(ex, tasks, batch); // warm-up, same size
      long ns = timed(ex, tasks, batch);
      System.out.println("{\"executor\":\"" + name + "\",\"tasks\":" + tasks + ",\"nsPerTask\":" + Math.round(10.0 * ns / tasks) / 10.0 + "}");
      System.out.flush();
    }
  }

  /** Runs `tasks` trivial tasks in batches; returns the elapsed nanoseconds. */
  static long timed(ExecutorService ex, int tasks, int batch) throws InterruptedException {
    long t0 = System.nanoTime();
    int left = tasks;
    while (left > 0) {
      int n = Math.min(batch, left);
      CountDownLatch done = new CountDownLatch(n);
      Runnable task = done::countDown;
      for (int i = 0; i < n; i++) ex.execute(task);
      done.await();
      left -= n;
    }
    return System.nanoTime() - t0;
  }
}
