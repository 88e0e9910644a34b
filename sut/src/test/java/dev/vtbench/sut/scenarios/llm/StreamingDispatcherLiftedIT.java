package dev.vtbench.sut.scenarios.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.vtbench.sut.SutHttp;
import dev.vtbench.sut.config.OkHttpDispatcherLimits;

/**
 * {@code bench.okhttp.dispatcher-max-requests=128} ({@link OkHttpDispatcherLimits}): the same 80 streams
 * at once as in {@link StreamingIT} all reach the upstream, and {@code /bench/info} reports the limit.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.variant=virtual-stream-128", "bench.executor.kind=virtual-per-task",
                "bench.executor.thread-name-prefix=llm-vt-", "bench.okhttp.dispatcher-max-requests=128"})
@DirtiesContext
class StreamingDispatcherLiftedIT extends StreamingSutIT {

    @Test
    void eightyStreamsAtOnce_allReachTheUpstream() throws Exception {
        STUB.holdAll();
        int before = STUB.streamRequestsSeen();
        List<CompletableFuture<SutHttp.Result>> fs = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            fs.add(stream());
        }
        assertEquals(80, awaitStable(() -> STUB.streamRequestsSeen() - before));
        STUB.release();
        for (CompletableFuture<SutHttp.Result> f : fs) {
            assertEquals(200, f.join().status());
        }
    }

    @Test
    void benchInfoReportsTheLimit() {
        assertEquals(128, http.getJson("/bench/info").at("/okhttp/dispatcherMaxRequests").asInt());
    }
}
