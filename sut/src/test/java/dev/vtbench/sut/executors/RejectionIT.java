package dev.vtbench.sut.executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.vtbench.sut.StubbedSutIT;
import dev.vtbench.sut.SutHttp;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.executor.kind=platform-pool", "bench.executor.threads=1", "bench.executor.queue-capacity=1",
                "bench.sampler.interval-ms=50"})
@DirtiesContext
class RejectionIT extends StubbedSutIT {

    @BeforeAll
    static void slowerStub() {
        STUB.latencyMs = 300;
    }

    /**
     * The stub holds the running call until the end. The third request finds the thread and the queue taken
     * by the first two, which were sent in turn (see {@link #occupyThreadThenQueue}).
     */
    @Test
    void poolOneQueueOneThreeInTurn_thirdGets503NamingThreadsAndQueueSizes() throws Exception {
        STUB.holdAll();
        SutHttp http = new SutHttp(port);
        SutHttp.Result third;
        List<CompletableFuture<SutHttp.Result>> accepted;
        try {
            accepted = occupyThreadThenQueue(http, http::llmAsync);
            third = http.llm();
        } finally {
            STUB.release();
        }
        List<SutHttp.Result> first = accepted.stream().map(CompletableFuture::join).toList();
        assertEquals(503, third.status(), third + " after " + first);
        assertTrue(first.stream().allMatch(r -> r.status() == 200), first.toString());
        JsonNode err = third.json();
        assertEquals("rejected", err.get("error").asText());
        String msg = err.get("message").asText();
        assertTrue(msg.contains("threads=1") && msg.contains("queue-capacity=1") && msg.contains("queued=1"), msg);
    }

    /** The scenario route refuses the same way: two sleeps take the thread and the queue, the third gets 503 at once. */
    @Test
    void scenarioRoute_threadAndQueueTakenBySleeps_thirdGets503Rejected() throws Exception {
        SutHttp http = new SutHttp(port);
        List<CompletableFuture<SutHttp.Result>> sleeps = occupyThreadThenQueue(http,
                () -> http.scenarioAsync("sleep?ms=1500"));
        SutHttp.Result third = http.scenario("sleep?ms=0");
        List<SutHttp.Result> first = sleeps.stream().map(CompletableFuture::join).toList();
        assertEquals(503, third.status(), third + " after " + first);
        assertEquals("rejected", third.json().get("error").asText());
        assertTrue(first.stream().allMatch(r -> r.status() == 200), first.toString());
    }

    /**
     * Sends one call and waits until the sampler shows it running (active 1, queue 0), then a second and waits
     * until it is queued (queue 1). Sent at once they would race: a pool thread that already exists (from the
     * other test) takes its tasks through the queue, so a burst of three can find the queue full twice before
     * the thread dequeues the first, and two of three are refused (seen in CI, stop 23).
     */
    private static List<CompletableFuture<SutHttp.Result>> occupyThreadThenQueue(SutHttp http,
            Supplier<CompletableFuture<SutHttp.Result>> call) throws InterruptedException {
        CompletableFuture<SutHttp.Result> running = call.get();
        awaitSample(http, s -> s.get("executorActive").asInt() == 1 && s.get("queueSize").asInt() == 0,
                "the first call running");
        CompletableFuture<SutHttp.Result> queued = call.get();
        awaitSample(http, s -> s.get("queueSize").asInt() == 1, "the second call queued");
        return List.of(running, queued);
    }

    private static void awaitSample(SutHttp http, Predicate<JsonNode> seen, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < deadline) {
            JsonNode samples = http.getJson("/bench/samples?since=" + (System.currentTimeMillis() - 1000))
                    .get("samples");
            if (!samples.isEmpty() && seen.test(samples.get(samples.size() - 1))) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("never saw " + what + " in /bench/samples within 10 s");
    }
}
