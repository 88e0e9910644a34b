package dev.vtbench.sut.scenarios.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import dev.vtbench.sut.StubbedSutIT;
import dev.vtbench.sut.SutHttp;
import dev.vtbench.sut.config.OkHttpDispatcherLimits;

/**
 * Base of the {@code llm-stream} ITs: the stub streams 5 tokens, the first after 200 ms, then one every
 * 50 ms; each test starts after one stream (class loading, and the first call through OkHttp's dispatcher,
 * which is when {@link OkHttpDispatcherLimits} sets its limits) and releases whatever the stub still holds.
 */
abstract class StreamingSutIT extends StubbedSutIT {

    SutHttp http;

    @BeforeEach
    void warmUpOneStream() {
        STUB.latencyMs = 200;
        STUB.streamTokens = 5;
        STUB.interTokenMs = 50;
        http = new SutHttp(port);
        assertEquals(200, stream().join().status());
    }

    @AfterEach
    void releaseStub() {
        STUB.release();
    }

    CompletableFuture<SutHttp.Result> stream() {
        return http.sendAsync("POST", "/api/scenario/llm-stream", "{\"prompt\":\"hi\"}");
    }

    /** Polls until the value has not changed for 1 s (at most 20 s), returns it. */
    static int awaitStable(java.util.function.IntSupplier v) throws InterruptedException {
        int last = -1;
        long stableSince = System.nanoTime();
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            int now = v.getAsInt();
            if (now != last) {
                last = now;
                stableSince = System.nanoTime();
            } else if (now > 0 && System.nanoTime() - stableSince > 1_000_000_000L) {
                return now;
            }
            Thread.sleep(50);
        }
        return last;
    }
}
