package dev.vtbench.sut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.Test;

class MeasuringExecutorTest {

    @Test
    void fixedPoolOfOneWithQueueOfOneRejectsTheThirdConcurrentTaskNamingBothSizes() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (MeasuringExecutor ex = MeasuringExecutor.fixed(1, 1)) {
            CompletableFuture<MeasuringExecutor.Timed<String>> a = ex.submit(() -> await(release, "a"));
            CompletableFuture<MeasuringExecutor.Timed<String>> b = ex.submit(() -> await(release, "b"));
            MeasuringExecutor.Rejected r = assertThrows(MeasuringExecutor.Rejected.class, () -> ex.submit(() -> "c"));
            assertTrue(r.getMessage().contains("pool-size=1"), r.getMessage());
            assertTrue(r.getMessage().contains("queue-capacity=1"), r.getMessage());
            assertEquals(2, ex.inFlight());
            assertEquals(1, ex.rejectedTotal());
            release.countDown();
            assertEquals("a", a.get().value());
            assertEquals("b", b.get().value());
            assertEquals(0, ex.inFlight());
            assertEquals(2, ex.completed());
        }
    }

    @Test
    void fixedThreadsAreNamedLlmFixedN() throws Exception {
        try (MeasuringExecutor ex = MeasuringExecutor.fixed(2, 10)) {
            assertTrue(ex.submit(() -> Thread.currentThread().getName()).get().value().matches("llm-fixed-\\d+"));
        }
    }

    @Test
    void virtualThreadsAreNamedLlmVtNAndAreVirtual() throws Exception {
        try (MeasuringExecutor ex = MeasuringExecutor.virtual()) {
            Thread t = ex.submit(Thread::currentThread).get().value();
            assertTrue(t.isVirtual());
            assertTrue(t.getName().matches("llm-vt-\\d+"), t.getName());
        }
    }

    @Test
    void queueTimeIsSubmitToStartAndExecIsStartToEnd() throws Exception {
        try (MeasuringExecutor ex = MeasuringExecutor.fixed(1, 10)) {
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
        try (MeasuringExecutor ex = MeasuringExecutor.virtual()) {
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
