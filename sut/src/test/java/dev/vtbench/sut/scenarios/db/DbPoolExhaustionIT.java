package dev.vtbench.sut.scenarios.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.vtbench.sut.SutHttp;

/**
 * HikariCP pool of 1 connection with a 250 ms connection timeout: of two concurrent 1.5 s queries, one
 * runs, the other gives up after 250 ms with 503 {@code db_pool_exhausted} carrying Hikari's message,
 * timed like any other call (Server-Timing), and the SUT goes on serving.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.executor.kind=virtual-per-task", "bench.db.pool-size=1", "bench.db.connection-timeout-ms=250"})
@DirtiesContext
class DbPoolExhaustionIT extends DbSutIT {

    @Test
    void twoConcurrentSlowQueriesOnAPoolOfOne_oneSucceeds_theOther503DbPoolExhaustedAfterTheTimeout() {
        SutHttp http = new SutHttp(port);
        assertEquals(200, http.sendAsync("GET", "/api/scenario/db-small?ms=0", null).join().status(), "warm-up");
        List<SutHttp.Result> rs = List.of(
                http.sendAsync("GET", "/api/scenario/db-small?ms=1500", null),
                http.sendAsync("GET", "/api/scenario/db-small?ms=1500", null))
                .stream().map(CompletableFuture::join).sorted(Comparator.comparingInt(SutHttp.Result::status)).toList();
        assertEquals(200, rs.get(0).status(), rs.toString());
        assertEquals(503, rs.get(1).status(), rs.toString());
        JsonNode err = rs.get(1).json();
        assertEquals("db_pool_exhausted", err.get("error").asText());
        assertTrue(err.get("message").asText().contains("Connection is not available, request timed out after"), err.toString());
        // the failed call waited for the connection timeout, not for the other query
        assertTrue(rs.get(1).execMs() >= 240 && rs.get(1).execMs() < 1_400, rs.get(1).serverTiming());
        assertTrue(rs.get(0).execMs() >= 1_500, rs.get(0).serverTiming());
        assertEquals(200, http.sendAsync("GET", "/api/scenario/db-small?ms=0", null).join().status(), "still serving");
        JsonNode rejected = http.getJson("/bench/info").get("db");
        assertEquals(1, rejected.get("poolSize").asInt());
        assertEquals(250, rejected.get("connectionTimeoutMs").asLong());
    }
}
