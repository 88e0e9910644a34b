package dev.vtbench.sut.scenarios.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.vtbench.sut.SutHttp;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {"bench.executor.kind=virtual-per-task"})
@DirtiesContext
class UnreachableUpstreamIT {

    @DynamicPropertySource
    static void closedPort(DynamicPropertyRegistry r) throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again before the SUT connects: connection refused
        }
        r.add("spring.ai.openai.base-url", () -> "http://127.0.0.1:" + port + "/v1");
    }

    @Value("${local.server.port}")
    int port;

    @Test
    void mockUnreachable_502WithTheCauseAndNoStackTrace() {
        SutHttp http = new SutHttp(port);
        SutHttp.Result r = http.llm();
        assertEquals(502, r.status(), r.body());
        JsonNode err = r.json();
        assertEquals("upstream_unreachable", err.get("error").asText());
        String msg = err.get("message").asText();
        assertTrue(msg.toLowerCase().contains("connect") || msg.toLowerCase().contains("refused"), msg);
        assertFalse(r.body().contains("\tat ") || r.body().contains("at org.") || r.body().contains("at java."),
                r.body());
        assertEquals(2, err.size(), "only error and message: " + r.body());
    }

    @Test
    void llmScenarioRoute_mockUnreachable_502WithServerTiming() {
        SutHttp.Result r = new SutHttp(port).sendAsync("POST", "/api/scenario/llm", "{\"prompt\":\"hi\"}").join();
        assertEquals(502, r.status(), r.body());
        assertEquals("upstream_unreachable", r.json().get("error").asText());
        assertTrue(r.serverTiming() != null && SutHttp.SERVER_TIMING.matcher(r.serverTiming()).matches(),
                "the failed call was timed: " + r);
    }
}
