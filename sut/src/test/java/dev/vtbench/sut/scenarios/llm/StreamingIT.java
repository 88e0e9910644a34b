package dev.vtbench.sut.scenarios.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.vtbench.sut.SutHttp;

/**
 * The {@code llm-stream} scenario on virtual threads with Spring AI's dispatcher as it comes: the stream's
 * timings reach {@code Server-Timing}, and with the upstream holding every request before its response
 * headers, only 64 of 80 streams reach it (OkHttp's dispatcher, 64 async calls and 64 per host as Spring AI
 * 2.0 sets it, counting a call until its headers arrive): a queue that no executor metric shows.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.variant=virtual-stream", "bench.executor.kind=virtual-per-task",
                "bench.executor.thread-name-prefix=llm-vt-", "bench.sampler.interval-ms=50"})
@DirtiesContext
class StreamingIT extends StreamingSutIT {

    static final Pattern ENTRY = Pattern.compile("([a-z]+);dur=(\\d+\\.\\d{3})");

    /** Server-Timing entries by name, ms. */
    static Map<String, Double> timings(SutHttp.Result r) {
        Map<String, Double> out = new LinkedHashMap<>();
        assertTrue(r.serverTiming() != null, "Server-Timing present: " + r);
        Matcher m = ENTRY.matcher(r.serverTiming());
        while (m.find()) {
            out.put(m.group(1), Double.parseDouble(m.group(2)));
        }
        return out;
    }

    /**
     * One stream of 5 tokens, the first after 200 ms, then one every 50 ms: the content is all tokens, and
     * ttft ≥ 200 ms, the gaps ≈ 50 ms (≥ 45: the stub sleeps 50 ms between writes), exec ≥ 200 + 4 × 50 ms.
     */
    @Test
    void oneStream_timingsOfFirstTokenGapsAndTotal() {
        SutHttp.Result r = stream().join();
        assertEquals(200, r.status(), r.body());
        assertEquals("t0 t1 t2 t3 t4", r.json().at("/result/content").asText());
        assertEquals(5, r.json().at("/result/tokens").asInt());
        Map<String, Double> t = timings(r);
        assertEquals(List.of("queue", "exec", "ttft", "gapmean", "gapmax"), List.copyOf(t.keySet()), r.serverTiming());
        assertTrue(t.get("ttft") >= 199 && t.get("ttft") < 1000, "ttft ≥ the stub's latency: " + t);
        assertTrue(t.get("gapmean") >= 45 && t.get("gapmean") < 500, "mean gap ≈ 50 ms: " + t);
        assertTrue(t.get("gapmax") >= t.get("gapmean"), "max gap ≥ mean gap: " + t);
        assertTrue(t.get("exec") >= 200 + 4 * 45, "exec holds the whole stream: " + t);
        assertEquals(r.json().at("/result/ttftMs").asDouble(), t.get("ttft"), 0.0011);
    }

    /**
     * 80 streams at once while the stub holds every request: exactly 64 reach it (Spring AI 2.0's dispatcher
     * limit), the other 16 wait inside the SUT's HTTP client; once released, all 80 complete.
     */
    @Test
    void eightyStreamsAtOnce_only64ReachTheUpstream() throws Exception {
        STUB.holdAll();
        int before = STUB.streamRequestsSeen();
        List<CompletableFuture<SutHttp.Result>> fs = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            fs.add(stream());
        }
        int seen = awaitStable(() -> STUB.streamRequestsSeen() - before);
        assertEquals(64, seen, "streams that reached the upstream while 80 were running");
        assertEquals(64, STUB.inFlightNow());
        STUB.release();
        for (CompletableFuture<SutHttp.Result> f : fs) {
            assertEquals(200, f.join().status());
        }
        assertEquals(80, STUB.streamRequestsSeen() - before);
    }
}
