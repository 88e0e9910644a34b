package dev.vtbench.sut.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.vtbench.sut.StubbedSutIT;
import dev.vtbench.sut.SutHttp;
import dev.vtbench.sut.scenarios.UpstreamException;

/**
 * A client timeout ({@code bench.okhttp.read-timeout=1s}, retries 0) against an upstream that never answers
 * (the stub holds the request, as the mock's {@code hang} fault does): the call ends after about 1 s with
 * HTTP 504 {@code upstream_timeout}, told apart from the 502 of other upstream failures, and the upstream
 * saw the call once (no hidden retry). {@code spring.ai.openai.timeout=1s} is set too and does not apply:
 * Spring AI 2.0.1 gives every call OpenAiChatOptions' own 60 s ({@link OkHttpReadTimeout}); without the
 * read timeout this test waits for the stub's 60 s hold and fails.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.variant=virtual-timeout", "bench.executor.kind=virtual-per-task",
                "bench.executor.thread-name-prefix=llm-vt-", "spring.ai.openai.timeout=1s",
                "bench.okhttp.read-timeout=1s"})
@DirtiesContext
class ClientTimeoutIT extends StubbedSutIT {

    @AfterEach
    void releaseStub() {
        STUB.release();
    }

    @Test
    void hungUpstream_504UpstreamTimeoutAfterTheTimeout() {
        SutHttp http = new SutHttp(port);
        STUB.latencyMs = 50;
        assertEquals(200, http.llm().status()); // warm: class loading stays out of the timed call
        STUB.holdAll();
        int before = STUB.requestsSeen();
        SutHttp.Result r = http.llm();
        assertEquals(504, r.status(), r.body());
        assertEquals(UpstreamException.TIMEOUT, r.json().get("error").asText(), r.body());
        assertTrue(r.execMs() >= 990 && r.execMs() < 5000, "ended by the 1 s timeout: " + r);
        assertEquals(1, STUB.requestsSeen() - before, "one call reached the upstream");
    }
}
