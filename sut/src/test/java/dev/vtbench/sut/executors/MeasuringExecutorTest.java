package dev.vtbench.sut.executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.Test;

import dev.vtbench.sut.config.BenchProperties;
import dev.vtbench.sut.scenarios.UpstreamException;

class MeasuringExecutorTest {

    private static MeasuringExecutor pool(int threads, int queueCapacity) {
        return MeasuringExecutor.create(new BenchProperties.Executor("platform-pool", threads, queueCapacity, null));
    }

    private static MeasuringExecutor virtualPerTask(String prefix) {
        return MeasuringExecutor.create(new BenchProperties.Executor("virtual-per-task", null, 0, prefix));
    }

    @Test
    void platformPoolOfOneWithQueueOfOneRejectsTheThirdConcurrentTaskNamingBothSizes() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (MeasuringExecutor ex = pool(1, 1)) {
            CompletableFuture<MeasuringExecutor.Timed<String>> a = ex.submit(() -> await(release, "a"));
            CompletableFuture<MeasuringExecutor.Timed<String>> b = ex.submit(() -> await(release, "b"));
            MeasuringExecutor.Rejected r = assertThrows(MeasuringExecutor.Rejected.class, () -> ex.submit(() -> "c"));
            assertTrue(r.getMessage().startsWith("platform-pool rejected the task: threads=1, queue-capacity=1,"),
                    r.getMessage());
            assertEquals(2, ex.inFlight());
            assertEquals(1, ex.queueSize(), "the kind's gauge: one task queued");
            assertEquals(1, ex.rejectedTotal());
            release.countDown();
            assertEquals("a", a.get().value());
            assertEquals("b", b.get().value());
            assertEquals(0, ex.inFlight());
            assertEquals(2, ex.completed());
        }
    }

    @Test
    void platformPoolThreadsAreNamedPrefixN_defaultPoolDash_orTheConfiguredPrefix() throws Exception {
        try (MeasuringExecutor ex = pool(2, 10)) {
            Thread t = ex.submit(Thread::currentThread).get().value();
            assertFalse(t.isVirtual());
            assertTrue(t.getName().matches("pool-\\d+"), t.getName());
            assertEquals(2, ex.threads());
            assertEquals(10, ex.queueCapacity());
            assertEquals("platform-pool", ex.kind().name());
        }
        try (MeasuringExecutor ex = MeasuringExecutor.create(
                new BenchProperties.Executor("platform-pool", 2, 10, "llm-fixed-"))) {
            assertEquals("llm-fixed-0", ex.submit(() -> Thread.currentThread().getName()).get().value());
        }
    }

    @Test
    void virtualPerTaskThreadsAreVirtualNamedPrefixN_noThreadsNoQueueReported() throws Exception {
        try (MeasuringExecutor ex = virtualPerTask(null)) {
            Thread t = ex.submit(Thread::currentThread).get().value();
            assertTrue(t.isVirtual());
            assertTrue(t.getName().matches("vt-\\d+"), t.getName());
            assertNull(ex.threads());
            assertNull(ex.queueCapacity());
            assertEquals(0, ex.queueSize());
        }
        try (MeasuringExecutor ex = virtualPerTask("llm-vt-")) {
            assertEquals("llm-vt-0", ex.submit(() -> Thread.currentThread().getName()).get().value());
        }
    }

    @Test
    void virtualPerTaskActiveGaugeCountsRunningTasks() throws Exception {
        CountDownLatch started = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        try (MeasuringExecutor ex = virtualPerTask(null)) {
            CompletableFuture<MeasuringExecutor.Timed<String>> a = ex.submit(() -> {
                started.countDown();
                return await(release, "a");
            });
            CompletableFuture<MeasuringExecutor.Timed<String>> b = ex.submit(() -> {
                started.countDown();
                return await(release, "b");
            });
            started.await();
            assertEquals(2, ex.active());
            release.countDown();
            a.get();
            b.get();
            assertEquals(0, ex.active());
        }
    }

    @Test
    void queueTimeIsSubmitToStartAndExecIsStartToEnd() throws Exception {
        try (MeasuringExecutor ex = pool(1, 10)) {
            CompletableFuture<MeasuringExecutor.Timed<Integer>> first = ex.submit(() -> sleep(100));
            CompletableFuture<MeasuringExecutor.Timed<Integer>> second = ex.submit(() -> sleep(100));
            MeasuringExecutor.Timed<Integer> t2 = second.get();
            // the second cannot start before the first's 100 ms sleep ends; only the gap between the two
            // submit calls (microseconds, more on a loaded host) comes off its wait
            assertTrue(t2.queueNanos() >= 50_000_000L, "second waited for the first: " + t2.queueNanos());
            assertTrue(t2.execNanos() >= 95_000_000L, "exec covers the 100 ms sleep: " + t2.execNanos());
            assertTrue(first.get().queueNanos() < t2.queueNanos(), "the first did not wait for a task");
        }
    }

    @Test
    void aFailingTaskCompletesExceptionallyWithItsTimings() {
        try (MeasuringExecutor ex = virtualPerTask(null)) {
            CompletableFuture<MeasuringExecutor.Timed<String>> f = ex.submit(() -> {
                throw new UpstreamException("upstream_bad_response", "boom");
            });
            ExecutionException e = assertThrows(ExecutionException.class, f::get);
            assertTrue(e.getCause() instanceof MeasuringExecutor.TimedFailure);
            assertTrue(e.getCause().getCause() instanceof UpstreamException);
            assertEquals(0, ex.inFlight());
        }
    }

    private static String await(CountDownLatch latch, String value) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return value;
    }

    private static int sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 1;
    }
}
