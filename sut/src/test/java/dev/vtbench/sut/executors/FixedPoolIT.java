package dev.vtbench.sut.executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.vtbench.sut.StubOpenAiServer;
import dev.vtbench.sut.StubbedSutIT;
import dev.vtbench.sut.SutHttp;

/**
 * A platform pool of 2 against a stub with 200 ms latency, configured as the harness configures study
 * 000's fixed variant (variant id and thread-name prefix).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.variant=fixed", "bench.executor.kind=platform-pool", "bench.executor.threads=2",
                "bench.executor.queue-capacity=100", "bench.executor.thread-name-prefix=llm-fixed-",
                "bench.sampler.interval-ms=50"})
@DirtiesContext
class FixedPoolIT extends StubbedSutIT {

    SutHttp http;

    @BeforeEach
    void warmUp() {
        http = new SutHttp(port);
        http.concurrent(2); // first calls pay for class loading and JIT
    }

    /**
     * Structural, not timing: the stub holds the calls that reach it until the SUT's sampler shows
     * the other two queued, so those two were submitted before the release and cannot start before
     * a held call has then taken its full latency: their queue wait is at least one latency on any
     * host. The pool never lets more than 2 calls into the upstream; every execution holds the
     * whole upstream call.
     */
    @Test
    void fourConcurrentOnAPoolOfTwo_atMostTwoUpstream_twoQueueAtLeastOneLatency_allExecAtLeastOneLatency() throws Exception {
        long latencyMs = STUB.latencyMs;
        STUB.takePeakInFlight();
        STUB.holdAll();
        List<SutHttp.Result> rs;
        try {
            List<CompletableFuture<SutHttp.Result>> calls = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                calls.add(http.llmAsync());
            }
            long deadline = System.currentTimeMillis() + 20_000;
            while (!(STUB.inFlightNow() == 2 && latestQueueSize() == 2) && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(2, STUB.inFlightNow(), "two calls held upstream");
            assertEquals(2, latestQueueSize(), "two calls queued in the SUT");
            STUB.release();
            rs = calls.stream().map(CompletableFuture::join)
                    .sorted(Comparator.comparingDouble(SutHttp.Result::queueMs)).toList();
        } finally {
            STUB.release();
        }
        assertEquals(2, STUB.takePeakInFlight(), "pool of 2: exactly 2 calls in the upstream at the peak: " + rs);
        for (SutHttp.Result r : rs) {
            assertEquals(200, r.status(), r.body());
            assertTrue(r.execMs() >= latencyMs - 1, "exec holds the whole upstream call: " + r);
        }
        assertTrue(rs.get(2).queueMs() >= latencyMs - 1, "third waits at least one latency for a thread: " + rs);
        assertTrue(rs.get(3).queueMs() >= latencyMs - 1, "fourth waits at least one latency for a thread: " + rs);
    }

    private int latestQueueSize() {
        JsonNode samples = http.getJson("/bench/samples?since=" + (System.currentTimeMillis() - 1000)).get("samples");
        return samples.isEmpty() ? -1 : samples.get(samples.size() - 1).get("queueSize").asInt();
    }

    @Test
    void responseBodyAndServerTimingHeaderFollowTheContract() {
        SutHttp.Result r = http.llm();
        assertEquals(200, r.status());
        assertNotNull(r.serverTiming());
        assertTrue(SutHttp.SERVER_TIMING.matcher(r.serverTiming()).matches(), r.serverTiming());
        JsonNode j = r.json();
        assertEquals(StubOpenAiServer.CONTENT, j.get("content").asText());
        assertEquals("fixed", j.get("variant").asText());
        assertEquals(4, j.size(), "content, variant, queueMs, execMs: " + r.body());
        assertEquals(r.queueMs(), j.get("queueMs").asDouble(), 0.0011);
        assertEquals(r.execMs(), j.get("execMs").asDouble(), 0.0011);
    }

    @Test
    void infoReportsExecutorWebTierAndOkHttpLimits() {
        JsonNode info = http.getJson("/bench/info");
        assertEquals("fixed", info.at("/executor/variant").asText());
        assertEquals("platform-pool", info.at("/executor/kind").asText());
        assertEquals(2, info.at("/executor/threads").asInt());
        assertEquals(100, info.at("/executor/queueCapacity").asInt());
        assertEquals("llm-fixed-", info.at("/executor/threadNamePrefix").asText());
        assertEquals("none", info.at("/executor/pinning").asText());
        assertEquals(-1, info.at("/tomcat/maxKeepAliveRequests").asInt());
        assertTrue(info.at("/tomcat/asyncRequestTimeoutMs").asLong() >= 300_000);
        assertTrue(info.at("/okhttp/maxIdleConnections").asInt() >= 2000);
        assertEquals(STUB.baseUrl(), info.get("mockBaseUrl").asText());
        assertTrue(info.get("springBootVersion").asText().startsWith("4."));
        assertTrue(info.get("springAiVersion").asText().startsWith("2."), info.toString());
        assertTrue(info.get("jvmFlags").isArray());
        assertTrue(info.get("jdkVersion").asText().length() > 0);
    }

    @Test
    void samplesSinceReturnOnlyNewerTicksWithExecutorCounters() throws Exception {
        long t0 = System.currentTimeMillis();
        Thread.sleep(200);
        JsonNode s = http.getJson("/bench/samples?since=" + t0);
        assertEquals(50, s.get("intervalMs").asInt());
        assertTrue(s.get("samples").size() >= 2, s.toString());
        for (JsonNode sample : s.get("samples")) {
            assertTrue(sample.get("tEpochMs").asLong() > t0);
            assertTrue(sample.get("platformThreads").asInt() > 0);
            assertTrue(sample.get("heapUsedBytes").asLong() > 0);
            assertTrue(sample.has("rssBytes") && sample.has("vtMounted") && sample.has("upstreamErrorsTotal"));
        }
        assertTrue(s.get("samples").get(0).get("completed").asLong() >= 2, "warm-up calls counted");
    }

    @Test
    void prometheusIsExposed() {
        assertEquals(200, http.get("/actuator/prometheus").statusCode());
    }
}
