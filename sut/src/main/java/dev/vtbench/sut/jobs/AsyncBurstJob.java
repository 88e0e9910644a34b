package dev.vtbench.sut.jobs;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.vtbench.sut.executors.BootAsyncConfig;
import dev.vtbench.sut.executors.BootExecutorsInfo;
import dev.vtbench.sut.observability.Sampler;

/**
 * Study 004, experiment 1, run inside the SUT JVM (the harness's in-process driver,
 * src/load/in-process.ts): {@code POST /bench/job/async-burst?tasks=T&sleepMs=S&timeoutMs=X} calls
 * {@link AsyncSleeper#sleep} T times in a loop, exactly as the source study's test does
 * (shared/seeds/004: 100,000 calls of an {@code @Async} method sleeping 50 ms, waited on with a
 * latch), then waits for every task. The loop runs on the request's own (Tomcat) thread, never on
 * the executor being measured. One job at a time (409 otherwise).
 *
 * <p>Answers 200 with a {@link Result} when every task ended within {@code timeoutMs}, else 504 with
 * the partial result ({@code timedOut = true}); the harness records a 504 as a failed cell.
 * Times are {@link System#nanoTime()} differences in ms. Peak queue is sampled every
 * {@value #POLL_MS} ms (a lower bound of the true peak); peak pool threads is the executor's own
 * {@code largestPoolSize} (exact, since JVM start, so it includes the {@link BootExecutorsInfo}
 * probe's thread); peak running tasks is counted by the tasks themselves (exact).
 */
@RestController
public class AsyncBurstJob {

    /** the parameters' ranges: bench-limits.properties (the harness's plan check reads the same file) */
    static final String JOB = "async-burst";
    static final long POLL_MS = 5;

    /**
     * @param submitMs        first submit → the loop's last submit returned
     * @param makespanMs      first submit → last task's end (null when no task ended)
     * @param firstStartMs    first submit → first task's start (null when none started)
     * @param peakPoolThreads ThreadPoolTaskExecutor's largest pool size; null for other executors
     * @param peakQueue       ThreadPoolTaskExecutor's queue size, sampled; null for other executors
     * @param peakRunningTasks tasks running at once, counted by the tasks
     * @param peakPlatformThreads the JVM's peak live platform threads during the job (ThreadMXBean)
     */
    public record Result(String job, int tasks, long sleepMs, long timeoutMs, long completed, boolean timedOut,
            String executorBean, String executorClass, double submitMs, Double makespanMs, Double firstStartMs,
            double submitRatePerS, Integer peakPoolThreads, Integer peakQueue, long queuePollIntervalMs,
            int peakRunningTasks, int peakPlatformThreads, long virtualTasks, long platformTasks,
            int distinctPlatformThreads, Map<String, Long> tasksByThreadNamePrefix, Long rssBeforeBytes,
            Long rssAfterBytes) {
    }

    private final AsyncSleeper sleeper;
    private final BootExecutorsInfo boot;
    private final AtomicBoolean busy = new AtomicBoolean();

    public AsyncBurstJob(AsyncSleeper sleeper, BootExecutorsInfo boot) {
        this.sleeper = sleeper;
        this.boot = boot;
    }

    @PostMapping("/bench/job/async-burst")
    public ResponseEntity<Result> run(@RequestParam("tasks") int tasks, @RequestParam("sleepMs") long sleepMs,
            @RequestParam("timeoutMs") long timeoutMs) throws InterruptedException {
        BenchLimits.check(JOB, "tasks", tasks);
        BenchLimits.check(JOB, "sleepMs", sleepMs);
        BenchLimits.check(JOB, "timeoutMs", timeoutMs);
        if (!busy.compareAndSet(false, true)) {
            return ResponseEntity.status(HttpStatus.CONFLICT).build();
        }
        try {
            Result r = burst(tasks, sleepMs, timeoutMs);
            return ResponseEntity.status(r.timedOut() ? HttpStatus.GATEWAY_TIMEOUT : HttpStatus.OK).body(r);
        } finally {
            busy.set(false);
        }
    }

    /** Runs one burst on the calling thread; see the class comment. */
    Result burst(int tasks, long sleepMs, long timeoutMs) throws InterruptedException {
        Executor ex = boot.asyncExecutor();
        ThreadPoolTaskExecutor pool = ex instanceof ThreadPoolTaskExecutor t ? t : null;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Long rssBefore = Sampler.rssBytes();
        AsyncBurst burst = new AsyncBurst(tasks);
        AtomicInteger peakQueue = new AtomicInteger();
        AtomicBoolean polling = new AtomicBoolean(true);
        Thread poller = null;
        if (pool != null) {
            poller = Thread.ofPlatform().daemon().name("vtbench-job-poll").start(() -> {
                while (polling.get()) {
                    peakQueue.accumulateAndGet(pool.getQueueSize(), Math::max);
                    try {
                        Thread.sleep(POLL_MS);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }
        threads.resetPeakThreadCount();
        long t0 = System.nanoTime();
        for (int i = 0; i < tasks; i++) {
            sleeper.sleep(sleepMs, burst);
        }
        long submittedNs = System.nanoTime();
        boolean done = burst.await(timeoutMs - (submittedNs - t0) / 1_000_000L);
        polling.set(false);
        if (poller != null) {
            poller.join(1000);
            peakQueue.accumulateAndGet(pool.getQueueSize(), Math::max);
        }
        int peakPlatform = threads.getPeakThreadCount();
        Long first = burst.firstStartNs();
        Long last = burst.lastEndNs();
        double submitMs = (submittedNs - t0) / 1e6;
        return new Result("async-burst", tasks, sleepMs, timeoutMs, burst.completed(tasks), !done,
                BootAsyncConfig.APPLICATION_TASK_EXECUTOR, ex.getClass().getName(), submitMs,
                last == null ? null : (last - t0) / 1e6, first == null ? null : (first - t0) / 1e6,
                submitMs > 0 ? tasks / (submitMs / 1000) : 0,
                pool == null ? null : pool.getThreadPoolExecutor().getLargestPoolSize(),
                pool == null ? null : peakQueue.get(), POLL_MS, burst.peakRunning(), peakPlatform,
                burst.virtualTasks(), burst.platformTasks(), burst.distinctPlatformThreads(),
                burst.tasksByThreadNamePrefix(), rssBefore, Sampler.rssBytes());
    }
}
