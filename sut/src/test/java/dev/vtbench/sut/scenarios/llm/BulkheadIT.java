package dev.vtbench.sut.scenarios.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.vtbench.sut.StubbedSutIT;
import dev.vtbench.sut.SutHttp;

/**
 * Virtual threads behind a bulkhead of K = 4 permits ({@code bench.bulkhead.permits=4}, study 000's
 * §13/§17 follow-up): however many calls run at once, at most K are inside the upstream, so the wait
 * reappears in front of the permit ({@code Server-Timing: permit;dur=}) instead of the executor's queue.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.variant=virtual-bulkhead", "bench.executor.kind=virtual-per-task",
                "bench.executor.thread-name-prefix=llm-vt-", "bench.bulkhead.permits=4", "bench.sampler.interval-ms=50"})
@DirtiesContext
class BulkheadIT extends StubbedSutIT {

    static final int K = 4;
    static final Pattern PERMIT = Pattern.compile(", permit;dur=(\\d+\\.\\d{3})$");

    SutHttp http;

    @BeforeEach
    void warmUp() {
        STUB.latencyMs = 300;
        STUB.malformed = false;
        http = new SutHttp(port);
        http.concurrent(K); // class loading and JIT
    }

    static double permitMs(SutHttp.Result r) {
        assertNotNull(r.serverTiming(), "Server-Timing present: " + r);
        Matcher m = PERMIT.matcher(r.serverTiming());
        assertTrue(m.find(), "Server-Timing has a permit entry: " + r.serverTiming());
        return Double.parseDouble(m.group(1));
    }

    /**
     * 12 calls at once with K = 4: the upstream never holds more than 4 (the stub's own peak, 4 exactly),
     * the executor queue stays below one latency (virtual threads start at once), and at least 8 calls
     * waited for a permit, each at least half a latency (only a finished call frees one: the 5th call
     * onwards waits for one of the first 4). The whole batch takes at least ⌈12/4⌉ = 3 latencies.
     */
    @Test
    void twelveAtOnce_upstreamNeverAboveK_theWaitMovesToThePermit() {
        long latencyMs = STUB.latencyMs;
        STUB.takePeakInFlight();
        long t0 = System.nanoTime();
        List<SutHttp.Result> rs = http.concurrent(12);
        double elapsedMs = (System.nanoTime() - t0) / 1e6;
        assertEquals(K, STUB.takePeakInFlight(), "the upstream held exactly K calls at its peak: " + rs);
        int waited = 0;
        for (SutHttp.Result r : rs) {
            assertEquals(200, r.status(), r.body());
            assertTrue(r.queueMs() < latencyMs, "executor queue below one latency: " + r);
            double permit = permitMs(r);
            assertTrue(r.execMs() >= permit + latencyMs - 1, "exec holds the permit wait and the whole upstream call: " + r);
            if (permit >= latencyMs / 2.0) {
                waited++;
            }
        }
        assertTrue(waited >= 12 - K, "at least 8 calls waited ≥ half a latency for a permit: " + rs.stream().map(BulkheadIT::permitMs).toList());
        assertTrue(elapsedMs >= 3 * latencyMs - 1, "12 calls through 4 permits take ≥ 3 latencies: " + elapsedMs + " ms");
    }

    @Test
    void oneCallAlone_waitsNoLongerThanAFewMillisecondsForItsPermit() {
        SutHttp.Result r = http.llm();
        assertEquals(200, r.status(), r.body());
        assertTrue(permitMs(r) < 50, "a free permit is taken at once: " + r.serverTiming());
    }
}
