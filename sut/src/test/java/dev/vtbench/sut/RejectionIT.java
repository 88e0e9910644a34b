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
        properties = {"bench.executor=fixed", "bench.fixed.pool-size=1", "bench.fixed.queue-capacity=1"})
@DirtiesContext
class RejectionIT extends StubbedSutIT {

    @BeforeAll
    static void slowerStub() {
        STUB.latencyMs = 300;
    }

    /** The stub holds the running call until the end, so the third request is refused however late it arrives. */
    @Test
    void poolOneQueueOneThreeConcurrent_oneGets503NamingPoolAndQueueSizes() {
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
        assertTrue(msg.contains("pool-size=1") && msg.contains("queue-capacity=1"), msg);
    }
}
