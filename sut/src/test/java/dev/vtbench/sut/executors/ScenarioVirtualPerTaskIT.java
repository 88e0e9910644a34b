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

/** {@code /api/scenario/sleep} on a virtual thread per task with a configured thread-name prefix. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.variant=vt", "bench.executor.kind=virtual-per-task",
                "bench.executor.thread-name-prefix=sleep-vt-", "bench.executor.threads=7"})
@DirtiesContext
class ScenarioVirtualPerTaskIT extends StubbedSutIT {

    SutHttp http;

    @BeforeEach
    void warmUp() {
        http = new SutHttp(port);
        for (int i = 0; i < 3; i++) {
            concurrentSleeps(4, 0);
        }
    }

    private List<CompletableFuture<SutHttp.Result>> startSleeps(int n, long ms) {
        List<CompletableFuture<SutHttp.Result>> fs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            fs.add(http.scenarioAsync("sleep?ms=" + ms));
        }
        return fs;
    }

    private List<SutHttp.Result> concurrentSleeps(int n, long ms) {
        return startSleeps(n, ms).stream().map(CompletableFuture::join).toList();
    }

    /** Nobody waits for another sleep: every queue wait is far below one sleep (it is a carrier's start-up, ~0). */
    @Test
    void fourConcurrentSleeps_noQueueWait_allExecOneSleep() {
        List<SutHttp.Result> rs = concurrentSleeps(4, 300);
        for (SutHttp.Result r : rs) {
            assertEquals(200, r.status(), r.body());
            assertEquals("vt", r.json().get("variant").asText());
            assertTrue(r.queueMs() < 150, "no queue wait: " + rs);
            assertTrue(r.execMs() >= 295 && r.execMs() < 2_000, "exec is the sleep: " + rs);
        }
    }

    /** Thread dumps until all four sleeps are seen (not after a fixed delay a loaded host can outrun). */
    @Test
    void sleepingThreadsAreVirtualAndNamedWithTheConfiguredPrefix() throws Exception {
        List<CompletableFuture<SutHttp.Result>> sleeps = startSleeps(4, 2_000);
        int seen = 0;
        String last = "";
        long deadline = System.currentTimeMillis() + 10_000;
        while (seen < 4 && System.currentTimeMillis() < deadline) {
            JsonNode dump = http.getJson("/bench/threaddump");
            last = dump.toString();
            seen = 0;
            for (JsonNode container : dump.at("/threadDump/threadContainers")) {
                for (JsonNode t : container.get("threads")) {
                    if (t.get("name").asText().matches("sleep-vt-\\d+") && t.get("stack").toString().contains("Thread.sleep")
                            && t.has("virtual") && t.get("virtual").asBoolean()) {
                        seen++;
                    }
                }
            }
            if (seen < 4) {
                Thread.sleep(50);
            }
        }
        sleeps.forEach(CompletableFuture::join);
        assertEquals(4, seen, "four virtual sleep-vt-N threads in Thread.sleep: " + last.substring(0, Math.min(4000, last.length())));
    }

    @Test
    void infoHasNoThreadsOrQueueForVirtualPerTask_evenWhenThreadsIsGiven() {
        JsonNode ex = http.getJson("/bench/info").get("executor");
        assertEquals("vt", ex.get("variant").asText());
        assertEquals("virtual-per-task", ex.get("kind").asText());
        assertTrue(ex.get("threads").isNull(), ex.toString());
        assertTrue(ex.get("queueCapacity").isNull(), ex.toString());
        assertEquals("sleep-vt-", ex.get("threadNamePrefix").asText());
    }
}
