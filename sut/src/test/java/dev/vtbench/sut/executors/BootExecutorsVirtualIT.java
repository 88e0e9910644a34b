package dev.vtbench.sut.executors;

import static dev.vtbench.sut.executors.BootExecutorsPlatformIT.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.vtbench.sut.StubbedSutIT;

/**
 * Study 004's virtual variant as the harness starts it: {@code spring.threads.virtual.enabled=true}
 * and nothing else. Proves Boot then runs {@code @Async} on a {@code SimpleAsyncTaskExecutor} with a
 * new virtual thread per task (named {@code task-N}, no pool limit: far more than 8 at once) and
 * Tomcat's requests on virtual threads, whose maxThreads reads −1 (reported as null).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.variant=virtual", "bench.executor.kind=spring-boot-auto",
                "server.tomcat.threads.max=200", "vtbench.control.token=" + BootExecutorsPlatformIT.TOKEN, "spring.threads.virtual.enabled=true"})
@DirtiesContext
class BootExecutorsVirtualIT extends StubbedSutIT {

    @Test
    void asyncBurst_runsOnBootsSimpleAsyncTaskExecutor_oneVirtualThreadPerTask() throws Exception {
        // 200 tasks of 300 ms: a pool of 8 could never hold more than 8 at once
        JsonNode r = call(port, "POST", "/bench/job/async-burst?tasks=200&sleepMs=300&timeoutMs=30000");
        assertEquals("org.springframework.core.task.SimpleAsyncTaskExecutor", r.get("executorClass").asText());
        assertEquals(200, r.get("completed").asInt());
        assertEquals(200, r.get("virtualTasks").asInt(), r.toString());
        assertEquals(0, r.get("platformTasks").asInt(), r.toString());
        assertEquals(200, r.get("tasksByThreadNamePrefix").get("task-").asInt(), r.toString());
        assertTrue(r.get("peakRunningTasks").asInt() > 8, "no pool limit of 8: " + r);
        assertTrue(r.get("peakPoolThreads").isNull() && r.get("peakQueue").isNull(), "no pool, no queue: " + r);
    }

    @Test
    void benchInfo_readsBootsExecutorsBack_virtualAsync_tomcatMaxThreadsNotStale() throws Exception {
        JsonNode b = call(port, "GET", "/bench/info").get("boot");
        assertTrue(b.get("asyncProbeVirtual").asBoolean(), b.toString());
        assertEquals(-1, b.get("asyncConcurrencyLimit").asInt(), "unbounded: " + b);
        assertTrue(b.get("tomcatVirtualThreads").asBoolean(), b.toString());
        assertTrue(b.get("tomcatMaxThreads").isNull(), "Tomcat's maxThreads reads -1 on virtual threads, not 200: " + b);
        assertTrue(b.get("springThreadsVirtual").asBoolean());
    }

    @Test
    void servletSleep_runsOnAVirtualThread() throws Exception {
        JsonNode r = call(port, "GET", "/api/servlet/sleep?ms=5");
        assertTrue(r.get("virtual").asBoolean(), r.toString());
    }

    @Test
    void scenarioRoutes_areRefusedUnderSpringBootAuto_notRunOnAnotherExecutor() throws Exception {
        var http = java.net.http.HttpClient.newHttpClient();
        var res = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/api/scenario/sleep?ms=1"))
                .POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(503, res.statusCode(), res.body());
        assertFalse(res.body().isEmpty());
    }
}
