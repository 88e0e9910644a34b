package dev.vtbench.sut.executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.vtbench.sut.StubbedSutIT;
import dev.vtbench.sut.SutHttp;

/**
 * Virtual thread per task against a stub with 200 ms latency, configured as the harness configures
 * study 000's virtual variant (variant id and thread-name prefix).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.variant=virtual", "bench.executor.kind=virtual-per-task",
                "bench.executor.thread-name-prefix=llm-vt-", "bench.sampler.interval-ms=50"})
@DirtiesContext
class VirtualThreadsIT extends StubbedSutIT {

    SutHttp http;

    @BeforeEach
    void warmUp() {
        STUB.latencyMs = 200;
        STUB.malformed = false;
        http = new SutHttp(port);
        for (int i = 0; i < 3; i++) {
            http.concurrent(20); // class loading and JIT on 2 cores would otherwise delay virtual-thread starts
        }
    }

    /**
     * Sends n calls at once; the stub answers none of them until all n are inside it, so they can only
     * complete if they ran concurrently. Asserts the stub saw n at once and returns the results.
     */
    private List<SutHttp.Result> allInsideTheUpstreamAtOnce(int n) {
        STUB.takePeakInFlight();
        STUB.holdUntil(n);
        List<SutHttp.Result> rs;
        try {
            rs = http.concurrent(n);
        } finally {
            STUB.release();
        }
        assertEquals(n, STUB.takePeakInFlight(), "all " + n + " calls were in the upstream at once: " + rs);
        return rs;
    }

    /**
     * What is true by construction, not how fast a loaded 2-core host is: the stub answers only once
     * all four calls are inside it at once, so four concurrent executions are proven by the calls
     * completing (a pool of fewer threads would hold them until the stub's 30 s gate gives up, and
     * the peak would stay below 4). Nobody waits for another call to finish: each queue wait is below
     * one latency. Each execution contains the whole upstream call: at least one latency.
     */
    @Test
    void fourConcurrent_allFourInsideTheUpstreamAtOnce_noQueueWaitForAnotherCall() {
        long latencyMs = STUB.latencyMs;
        List<SutHttp.Result> rs = allInsideTheUpstreamAtOnce(4);
        for (SutHttp.Result r : rs) {
            assertEquals(200, r.status(), r.body());
            assertEquals("virtual", r.json().get("variant").asText());
            assertTrue(r.queueMs() < latencyMs, "queue wait below one latency (no call waited for another): " + rs);
            assertTrue(r.execMs() >= latencyMs - 1, "exec holds the whole upstream call (>= " + latencyMs + " ms): " + rs);
        }
    }

    /**
     * With 20 at once on 2 cores, a virtual thread's start waits for a free carrier while the others
     * do their pre-I/O CPU work (tens of ms seen here), but never for another call to finish: all 20
     * are inside the upstream at once (the stub's gate), and every queue wait is below one latency.
     */
    @Test
    void twentyConcurrent_nobodyWaitsForAnotherCallToFinish() {
        long latencyMs = STUB.latencyMs;
        List<SutHttp.Result> rs = allInsideTheUpstreamAtOnce(20);
        for (SutHttp.Result r : rs) {
            assertEquals(200, r.status(), r.body());
            assertTrue(r.queueMs() < latencyMs, "queue below one latency: " + rs.stream().map(SutHttp.Result::queueMs).toList());
        }
    }

    @Test
    void threadDumpTakenMidFlightListsLlmVtVirtualThreadsInASocketRead() throws Exception {
        STUB.latencyMs = 1500;
        List<CompletableFuture<SutHttp.Result>> inFlight = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            inFlight.add(http.llmAsync());
        }
        // dump once all ten are inside the upstream call (not after a fixed sleep a loaded host can outrun)
        long deadline = System.currentTimeMillis() + 10_000;
        while (STUB.inFlightNow() < 10 && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(10, STUB.inFlightNow(), "ten calls held by the stub before the dump");
        JsonNode dump = http.getJson("/bench/threaddump");
        inFlight.forEach(CompletableFuture::join);

        int inSocketRead = 0;
        for (JsonNode container : dump.at("/threadDump/threadContainers")) {
            for (JsonNode t : container.get("threads")) {
                if (!t.get("name").asText().startsWith("llm-vt-")) {
                    continue;
                }
                String stack = t.get("stack").toString();
                if (stack.contains("NioSocketImpl.read") || stack.contains("SocketInputStream.read")) {
                    inSocketRead++;
                }
            }
        }
        assertTrue(inSocketRead >= 10, "10 llm-vt- threads blocked in a socket read, saw " + inSocketRead
                + " in " + dump.toString().substring(0, Math.min(4000, dump.toString().length())));
    }

    /**
     * OkHttp keeps 5 idle connections by default, so without the customizer every wide wave would
     * reconnect. The stub holds each wave until all {@code width} requests are in, so each wave
     * needs exactly {@code width} connections at once: wave 2 must find them all idle in the pool.
     */
    @Test
    void repeatedWavesReuseUpstreamConnections_secondWaveOpensAlmostNone() {
        int width = Integer.getInteger("vtbench.reuseWaveWidth", 500);
        STUB.latencyMs = 0;
        try {
            int before = STUB.connectionsSeen();
            STUB.holdUntil(width);
            http.concurrent(width);
            int afterFirst = STUB.connectionsSeen();
            STUB.holdUntil(width);
            List<SutHttp.Result> second = http.concurrent(width);
            int afterSecond = STUB.connectionsSeen();
            String seen = "width " + width + ": connections before " + before + ", after wave 1 " + afterFirst
                    + ", after wave 2 " + afterSecond;
            System.out.println("[connection reuse] " + seen);
            assertTrue(second.stream().allMatch(r -> r.status() == 200), seen);
            assertTrue(afterFirst - before >= width - before - 5, "wave 1 needs width connections: " + seen);
            assertTrue(afterSecond - afterFirst <= width / 50, "wave 2 reconnected: " + seen);
        } finally {
            STUB.release();
        }
    }

    @Test
    void malformedUpstreamJson_502BadResponse_countedInSamples() throws Exception {
        long before = latestSample().get("upstreamErrorsTotal").asLong();
        STUB.malformed = true;
        SutHttp.Result r = http.llm();
        STUB.malformed = false;
        assertEquals(502, r.status(), r.body());
        assertEquals("upstream_bad_response", r.json().get("error").asText(), r.body());
        long deadline = System.currentTimeMillis() + 5_000; // the next sampler tick (50 ms) records it
        while (latestSample().get("upstreamErrorsTotal").asLong() < before + 1 && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(before + 1, latestSample().get("upstreamErrorsTotal").asLong());
    }

    private JsonNode latestSample() {
        JsonNode samples = http.getJson("/bench/samples?since=" + (System.currentTimeMillis() - 1000)).get("samples");
        return samples.get(samples.size() - 1);
    }
}
