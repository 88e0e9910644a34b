package dev.vtbench.sut.jobs.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class VtSweepTest {

    @Test
    void histogramQuantilesAreWithinOnePercentOnKnownValues() {
        LatencyHistogram h = new LatencyHistogram();
        for (int i = 1; i <= 100; i++) {
            h.recordNanos(i * 1_000_000L); // 1..100 ms
        }
        assertEquals(100, h.count());
        assertEquals(50.5, h.meanMs(), 1e-9);
        assertEquals(50.0, h.quantileMs(0.5), 0.5);
        assertEquals(99.0, h.quantileMs(0.99), 0.99);
        assertEquals(100.0, h.maxMs(), 1e-9);
        assertEquals(Math.sqrt((100.0 * 100 - 1) / 12), h.stdDevMs(), 1e-6);
        assertNull(new LatencyHistogram().quantileMs(0.5));
    }

    @Test
    void pauseCollectorsExcludeConcurrentWork() {
        assertTrue(VtSweep.isPauseCollector("G1 Young Generation"));
        assertTrue(VtSweep.isPauseCollector("ZGC Major Pauses"));
        assertTrue(!VtSweep.isPauseCollector("G1 Concurrent GC"));
        assertTrue(!VtSweep.isPauseCollector("ZGC Major Cycles"));
    }

    @Test
    void socketHostLimitIsTheSmallerOfFdsAndPorts() {
        assertEquals((20_000 - 100 - VtSweep.FD_RESERVE) / 2, VtSweep.socketHostLimit(20_000L, 100L, 28_232));
        assertEquals(1000, VtSweep.socketHostLimit(1_000_000L, 100L, 1000));
        assertNull(VtSweep.socketHostLimit(null, null, null));
    }

    @Test
    void sleepLevelCountsEveryThreadsOperations() throws InterruptedException {
        VtSweep.Result r = VtSweep.run(new VtSweep.Params(VtSweep.Op.SLEEP, 200, 500, 20, 30_000, 50));
        assertEquals("ok", r.outcome(), r.reason());
        assertEquals(200, r.startedThreads());
        // each thread sleeps 20 ms back to back for 500 ms: at most 25 ops per thread end within the window
        assertTrue(r.opsInWindow() <= 200 * 25, "ops " + r.opsInWindow());
        assertTrue(r.opsInWindow() >= 200 * 5, "ops " + r.opsInWindow());
        assertTrue(r.latencyP50Ms() >= 20.0 * 0.99, "a sleep never ends before L: " + r.latencyP50Ms());
        assertTrue(r.overshootP50Ms() >= -0.2);
        assertNotNull(r.throughputOpsPerS());
        assertTrue(!r.samples().isEmpty());
        assertEquals(0, r.opErrors());
    }

    @Test
    void socketLevelRoundTripsThroughTheEchoServer() throws InterruptedException {
        VtSweep.Result r = VtSweep.run(new VtSweep.Params(VtSweep.Op.SOCKET, 50, 400, 10, 30_000, 50));
        assertEquals("ok", r.outcome(), r.reason());
        assertTrue(r.opsInWindow() >= 50 * 5, "ops " + r.opsInWindow());
        assertTrue(r.latencyP50Ms() >= 10.0 * 0.99);
        assertNotNull(r.hostLimitThreads());
    }

    @Test
    void socketLevelBeyondTheHostLimitIsAnOutcomeNotAnException() throws InterruptedException {
        VtSweep.Result r = VtSweep.run(new VtSweep.Params(VtSweep.Op.SOCKET, (int) dev.vtbench.sut.jobs.BenchLimits.of(VtSweepJob.JOB, "threads").max(), 100, 10, 1000, 50));
        assertEquals("host-limit", r.outcome());
        assertEquals(0, r.startedThreads());
        assertNull(r.throughputOpsPerS());
        assertTrue(r.reason().contains("file descriptors"));
    }
}
