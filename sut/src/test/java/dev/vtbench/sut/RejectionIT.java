package dev.vtbench.sut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.executor.kind=platform-pool", "bench.executor.threads=1", "bench.executor.queue-capacity=1",
                "bench.sampler.interval-ms=50"})
@DirtiesContext
class RejectionIT extends StubbedSutIT {

    @BeforeAll
    static void slowerStub() {
        STUB.latencyMs = 300;
    }

    /** The stub holds the running call until the end, so the third request is refused however late it arrives. */
    @Test
    void poolOneQueueOneThreeConcurrent_oneGets503NamingThreadsAndQueueSizes() {
        STUB.holdAll();
        List<SutHttp.Result> rs;
        try {
            SutHttp http = new SutHttp(port);
            List<CompletableFuture<SutHttp.Result>> calls = List.of(http.llmAsync(), http.llmAsync(), http.llmAsync());
            CompletableFuture.anyOf(calls.toArray(CompletableFuture[]::new)).join(); // the refusal answers at once
            STUB.release();
            rs = calls.stream().map(CompletableFuture::join).toList();
        } finally {
            STUB.release();
        }
        List<SutHttp.Result> rejected = rs.stream().filter(r -> r.status() == 503).toList();
        assertEquals(1, rejected.size(), rs.toString());
        assertEquals(2, rs.stream().filter(r -> r.status() == 200).count(), rs.toString());
        JsonNode err = rejected.get(0).json();
        assertEquals("rejected", err.get("error").asText());
        String msg = err.get("message").asText();
        assertTrue(msg.contains("threads=1") && msg.contains("queue-capacity=1"), msg);
    }

    /**
     * The scenario route refuses the same way: two sleeps occupy the thread and the queue (seen in the
     * sampler's in-flight count before the third is sent), the third gets 503 at once.
     */
    @Test
    void scenarioRoute_threadAndQueueTakenBySleeps_thirdGets503Rejected() throws Exception {
        SutHttp http = new SutHttp(port);
        List<CompletableFuture<SutHttp.Result>> sleeps = List.of(http.scenarioAsync("sleep?ms=1500"),
                http.scenarioAsync("sleep?ms=1500"));
        long deadline = System.currentTimeMillis() + 10_000;
        while (latestInFlight(http) < 2 && System.currentTimeMillis() < deadline) {
            Thread.sleep(20);
        }
        SutHttp.Result third = http.scenario("sleep?ms=0");
        List<SutHttp.Result> first = sleeps.stream().map(CompletableFuture::join).toList();
        assertEquals(503, third.status(), third + " after " + first);
        assertEquals("rejected", third.json().get("error").asText());
        assertTrue(first.stream().allMatch(r -> r.status() == 200), first.toString());
    }

    private static int latestInFlight(SutHttp http) {
        JsonNode samples = http.getJson("/bench/samples?since=" + (System.currentTimeMillis() - 1000)).get("samples");
        return samples.isEmpty() ? -1 : samples.get(samples.size() - 1).get("inFlight").asInt();
    }
}
