package dev.vtbench.sut.executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.vtbench.sut.StubOpenAiServer;
import dev.vtbench.sut.StubbedSutIT;
import dev.vtbench.sut.SutHttp;

/** {@code /api/scenario/{id}} on a platform pool of 2 with the kind's default thread names. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.variant=pool-2", "bench.executor.kind=platform-pool", "bench.executor.threads=2",
                "bench.executor.queue-capacity=100"})
@DirtiesContext
class ScenarioPlatformPoolIT extends StubbedSutIT {

    SutHttp http;

    @BeforeEach
    void warmUp() {
        http = new SutHttp(port);
        concurrentSleeps(4, 0); // class loading, and four kept-alive client connections for the test proper
    }

    private List<SutHttp.Result> concurrentSleeps(int n, long ms) {
        List<java.util.concurrent.CompletableFuture<SutHttp.Result>> fs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            fs.add(http.scenarioAsync("sleep?ms=" + ms));
        }
        return fs.stream().map(java.util.concurrent.CompletableFuture::join).toList();
    }

    /**
     * Two threads, four 300 ms sleeps at once: two start at once, the other two wait for a thread,
     * i.e. about one sleep. Loose bounds: the four submits are up to tens of ms apart on a loaded host.
     */
    @Test
    void fourConcurrentSleepsOnTwoThreads_twoQueueAboutOneSleep_allExecOneSleep() {
        List<SutHttp.Result> rs = concurrentSleeps(4, 300).stream()
                .sorted(Comparator.comparingDouble(SutHttp.Result::queueMs)).toList();
        for (SutHttp.Result r : rs) {
            assertEquals(200, r.status(), r.body());
            assertTrue(r.execMs() >= 295 && r.execMs() < 2_000, "exec is the sleep: " + rs);
            JsonNode j = r.json();
            assertEquals("pool-2", j.get("variant").asText());
            assertEquals("sleep", j.get("scenario").asText());
            assertEquals(300, j.at("/result/sleptMs").asLong());
            assertEquals(r.queueMs(), j.get("queueMs").asDouble(), 0.0011, "body and Server-Timing agree");
            assertEquals(r.execMs(), j.get("execMs").asDouble(), 0.0011, "body and Server-Timing agree");
            assertEquals(5, j.size(), "variant, scenario, result, queueMs, execMs: " + r.body());
        }
        assertTrue(rs.get(0).queueMs() < 150 && rs.get(1).queueMs() < 150, "two found a free thread: " + rs);
        assertTrue(rs.get(2).queueMs() >= 150 && rs.get(2).queueMs() < 1_500, "third waited ~300 ms: " + rs);
        assertTrue(rs.get(3).queueMs() >= 150 && rs.get(3).queueMs() < 1_500, "fourth waited ~300 ms: " + rs);
    }

    @Test
    void poolThreadsAreNamedWithTheKindsDefaultPrefix() {
        Set<String> names = new TreeSet<>();
        for (JsonNode container : http.getJson("/bench/threaddump").at("/threadDump/threadContainers")) {
            for (JsonNode t : container.get("threads")) {
                String name = t.get("name").asText();
                if (name.matches("pool-\\d+")) {
                    names.add(name);
                }
            }
        }
        assertEquals(Set.of("pool-0", "pool-1"), names);
    }

    @Test
    void getIsAcceptedToo() {
        SutHttp.Result r = http.sendAsync("GET", "/api/scenario/sleep?ms=1", null).join();
        assertEquals(200, r.status(), r.body());
        assertEquals(1, r.json().at("/result/sleptMs").asLong());
    }

    @Test
    void unknownScenario_404NamingTheKnownIds() {
        SutHttp.Result r = http.scenario("nope?ms=1");
        assertEquals(404, r.status(), r.body());
        assertEquals("unknown_scenario", r.json().get("error").asText());
        String msg = r.json().get("message").asText();
        assertTrue(msg.contains("'nope'") && msg.endsWith("known: cpu-fib, db-small, db-small-synchronized, io-http, llm, llm-stream, mixed, mixed-structured, sleep"), msg);
        assertNull(r.serverTiming(), "nothing was run");
    }

    @Test
    void badOrMissingMs_400NamingMs() {
        for (String query : List.of("sleep?ms=abc", "sleep?ms=-1", "sleep?ms=1.5", "sleep?ms=600001", "sleep",
                "sleep?ms=99999999999999999999")) {
            SutHttp.Result r = http.scenario(query);
            assertEquals(400, r.status(), query + ": " + r.body());
            assertEquals("bad_scenario_parameter", r.json().get("error").asText(), r.body());
            assertTrue(r.json().get("message").asText().contains("'ms'"), r.body());
        }
        assertEquals(200, http.scenario("sleep?ms=0").status(), "0 is allowed");
    }

    @Test
    void llmScenario_promptFromTheBody_resultIsTheContent() {
        SutHttp.Result r = http.sendAsync("POST", "/api/scenario/llm", "{\"prompt\":\"hi\"}").join();
        assertEquals(200, r.status(), r.body());
        assertTrue(SutHttp.SERVER_TIMING.matcher(r.serverTiming()).matches(), r.serverTiming());
        JsonNode j = r.json();
        assertEquals("llm", j.get("scenario").asText());
        assertEquals("pool-2", j.get("variant").asText());
        assertEquals(StubOpenAiServer.CONTENT, j.at("/result/content").asText());
        assertEquals(200, http.scenario("llm").status(), "no body: the default prompt");
    }

    @Test
    void llmScenario_badBody_400NamingBodyOrPrompt() {
        SutHttp.Result notJson = http.sendAsync("POST", "/api/scenario/llm", "{\"prompt\":").join();
        assertEquals(400, notJson.status(), notJson.body());
        assertEquals("bad_scenario_parameter", notJson.json().get("error").asText());
        assertTrue(notJson.json().get("message").asText().startsWith("body is not valid JSON"), notJson.body());

        SutHttp.Result notObject = http.sendAsync("POST", "/api/scenario/llm", "[1]").join();
        assertEquals(400, notObject.status(), notObject.body());
        assertTrue(notObject.json().get("message").asText().startsWith("body must be a JSON object"), notObject.body());

        SutHttp.Result numberPrompt = http.sendAsync("POST", "/api/scenario/llm", "{\"prompt\":5}").join();
        assertEquals(400, numberPrompt.status(), numberPrompt.body());
        assertTrue(numberPrompt.json().get("message").asText().contains("'prompt'"), numberPrompt.body());
    }

    @Test
    void infoNamesVariantKindSizesPrefixAndTheScenarios() {
        JsonNode info = http.getJson("/bench/info");
        JsonNode ex = info.get("executor");
        assertEquals("pool-2", ex.get("variant").asText());
        assertEquals("platform-pool", ex.get("kind").asText());
        assertEquals(2, ex.get("threads").asInt());
        assertEquals(100, ex.get("queueCapacity").asInt());
        assertEquals("pool-", ex.get("threadNamePrefix").asText());
        assertEquals("none", ex.get("pinning").asText());
        assertEquals(6, ex.size(), ex.toString());
        assertEquals("[\"cpu-fib\",\"db-small\",\"db-small-synchronized\",\"io-http\",\"llm\",\"llm-stream\",\"mixed\",\"mixed-structured\",\"sleep\"]",
                info.get("scenarios").toString());
    }
}
