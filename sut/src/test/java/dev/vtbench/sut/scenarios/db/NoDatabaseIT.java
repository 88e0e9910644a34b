package dev.vtbench.sut.scenarios.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.vtbench.sut.StubbedSutIT;
import dev.vtbench.sut.SutHttp;
import dev.vtbench.sut.scenarios.FibCalibration;

/**
 * The SUT without {@code bench.db.url} (as every study but 002 starts it): it starts, the DB scenarios
 * answer 503 {@code db_not_configured}, and the scenarios that need no database work: {@code cpu-fib}
 * with its calibrated n, {@code io-http} (here against a closed port: 502).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.executor.kind=platform-pool", "bench.executor.threads=2", "bench.http.base-url=http://127.0.0.1:1",
                "bench.http.timeout=2s"})
@DirtiesContext
class NoDatabaseIT extends StubbedSutIT {

    @Test
    void dbScenarios_503DbNotConfigured_namingTheProperty() {
        SutHttp http = new SutHttp(port);
        for (String q : List.of("db-small?ms=1", "db-small-synchronized?ms=1", "mixed?dbMs=1&userMs=1&logisticsMs=1",
                "mixed-structured?dbMs=1&userMs=1&logisticsMs=1")) {
            SutHttp.Result r = http.sendAsync("GET", "/api/scenario/" + q, null).join();
            assertEquals(503, r.status(), q + ": " + r.body());
            assertEquals("db_not_configured", r.json().get("error").asText(), r.body());
            assertTrue(r.json().get("message").asText().contains("bench.db.url"), r.body());
            assertTrue(SutHttp.SERVER_TIMING_ANY.matcher(r.serverTiming()).matches(), "timed like any call: " + r.serverTiming());
        }
        JsonNode db = http.getJson("/bench/info").get("db");
        assertFalse(db.get("configured").asBoolean());
        assertTrue(db.get("url").isNull() && db.get("serverVersion").isNull(), db.toString());
        assertEquals(10, db.get("poolSize").asInt());
    }

    @Test
    void cpuFib_withoutN_runsTheCalibratedN_withN_thatN() {
        SutHttp http = new SutHttp(port);
        JsonNode fib = http.getJson("/bench/info").get("fib");
        assertEquals(100, fib.get("targetCpuMs").asLong());
        double cpuMs = fib.get("cpuMsPerCall").asDouble();
        // the nearest n on a φ grid is within √φ ≈ 1.27 of the target; 2× allows for noise on a shared host
        assertTrue(cpuMs >= 50 && cpuMs <= 200, fib.toString());
        int n = fib.get("n").asInt();

        SutHttp.Result r = http.sendAsync("GET", "/api/scenario/cpu-fib", null).join();
        assertEquals(200, r.status(), r.body());
        assertEquals(n, r.json().at("/result/n").asInt());
        assertEquals(FibCalibration.fib(n), r.json().at("/result/fib").asLong());
        assertTrue(r.execMs() >= cpuMs * 0.5, "exec is at least the CPU time, give or take noise: " + r.serverTiming() + " vs " + fib);

        SutHttp.Result ten = http.sendAsync("GET", "/api/scenario/cpu-fib?n=10", null).join();
        assertEquals(55, ten.json().at("/result/fib").asLong(), ten.body());
        SutHttp.Result tooBig = http.sendAsync("GET", "/api/scenario/cpu-fib?n=46", null).join();
        assertEquals(400, tooBig.status(), tooBig.body());
        assertTrue(tooBig.json().get("message").asText().contains("'n'"), tooBig.body());
    }

    @Test
    void ioHttp_unreachableDelayRoute_502UpstreamUnreachable_andHttpInfo() {
        SutHttp http = new SutHttp(port);
        SutHttp.Result r = http.sendAsync("GET", "/api/scenario/io-http?ms=1", null).join();
        assertEquals(502, r.status(), r.body());
        assertEquals("upstream_unreachable", r.json().get("error").asText(), r.body());
        JsonNode h = http.getJson("/bench/info").get("http");
        assertEquals("http://127.0.0.1:1", h.get("baseUrl").asText());
        assertEquals(2_000, h.get("timeoutMs").asLong());
    }
}
