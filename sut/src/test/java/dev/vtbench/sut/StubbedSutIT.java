package dev.vtbench.sut;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Base of the SUT's integration tests that call a stub OpenAI server: each test class gets its own
 * stub (started before the class, closed after it; 200 ms latency unless the class changes
 * {@code STUB.latencyMs} in its own {@code @BeforeAll}), and the SUT, started by
 * {@code @SpringBootTest(webEnvironment = RANDOM_PORT)} on the subclass, points Spring AI at it.
 * Surefire runs the test classes one after another, so one static field serves them all.
 */
public abstract class StubbedSutIT {

    /** The stub LLM of the test class that is running. */
    protected static StubOpenAiServer STUB;

    /** The SUT's HTTP port. */
    @Value("${local.server.port}")
    protected int port;

    @BeforeAll
    protected static void startStub() {
        STUB = Stubs.start(200);
    }

    /** Read when the Spring context starts, i.e. after {@link #startStub()}. */
    @DynamicPropertySource
    protected static void pointSpringAiAtStub(DynamicPropertyRegistry r) {
        r.add("spring.ai.openai.base-url", () -> STUB.baseUrl());
    }

    @AfterAll
    protected static void stopStub() {
        STUB.close();
    }
}
