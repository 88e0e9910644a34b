package dev.vtbench.agent;

/** A child JVM for the sampler test: starts a few virtual threads (so the scheduler has a pool) and sleeps. */
public final class SleepyMain {
  public static void main(String[] args) throws Exception {
    for (int i = 0; i < 4; i++) {
      Thread.ofVirtual().start(() -> {
        long x = 0;
        for (long k = 0; k < 50_000_000L; k++) x += k;
        if (x == 42) System.out.println(x);
      });
    }
    Thread.sleep(Long.parseLong(args.length > 0 ? args[0] : "30000"));
  }
}
