package dev.vtbench.sut.executors;

import dev.vtbench.sut.web.ControlTokenFilter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.vtbench.sut.StubbedSutIT;

/**
 * Study 004's platform variant as the harness starts it: Boot's own executors, Tomcat's default 200
 * threads. Proves which executor and which thread kind ran each {@code @Async} task: Boot's
 * {@code ThreadPoolTaskExecutor} (8 core threads, unbounded queue), platform threads named
 * {@code task-N}, never more than 8 at once, the rest queued.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.variant=platform", "bench.executor.kind=spring-boot-auto",
                "server.tomcat.threads.max=200", "vtbench.control.token=" + BootExecutorsPlatformIT.TOKEN, "spring.threads.virtual.enabled=false"})
@DirtiesContext
class BootExecutorsPlatformIT extends StubbedSutIT {

    static final ObjectMapper JSON = new ObjectMapper();
    /** the run's control token these tests start the SUT with; {@link #call} sends it (ControlTokenFilter) */
    static final String TOKEN = "it-control-token";

    static JsonNode call(int port, String method, String path) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).header(ControlTokenFilter.HEADER, TOKEN);
        b = method.equals("POST") ? b.POST(HttpRequest.BodyPublishers.noBody()) : b.GET();
        HttpResponse<String> r = HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + " answered " + r.statusCode() + ": " + r.body());
        return JSON.readTree(r.body());
    }

    @Test
    void asyncBurst_runsOnBootsThreadPoolTaskExecutor_eightPlatformThreadsNamedTask_restQueued() throws Exception {
        // 40 tasks of 50 ms on 8 threads: 5 waves, so at least 4 × 50 ms by construction
        JsonNode r = call(port, "POST", "/bench/job/async-burst?tasks=40&sleepMs=50&timeoutMs=30000");
        assertEquals("org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor", r.get("executorClass").asText());
        assertEquals(40, r.get("completed").asInt());
        assertFalse(r.get("timedOut").asBoolean());
        assertEquals(0, r.get("virtualTasks").asInt(), r.toString());
        assertEquals(40, r.get("platformTasks").asInt(), r.toString());
        assertEquals(40, r.get("tasksByThreadNamePrefix").get("task-").asInt(), r.toString());
        assertEquals(8, r.get("peakRunningTasks").asInt(), "never more than the 8 core threads at once: " + r);
        assertEquals(8, r.get("distinctPlatformThreads").asInt(), r.toString());
        assertEquals(8, r.get("peakPoolThreads").asInt(), "the pool never grows past its core size: " + r);
        assertTrue(r.get("peakQueue").asInt() > 0, "tasks beyond 8 waited in the queue: " + r);
        assertTrue(r.get("makespanMs").asDouble() >= 5 * 50 - 5, "5 waves of 50 ms: " + r);
    }

    @Test
    void benchInfo_readsBootsExecutorsBack_pool8Unbounded_tomcat200PlatformThreads() throws Exception {
        JsonNode b = call(port, "GET", "/bench/info").get("boot");
        assertNotNull(b);
        assertEquals(8, b.get("asyncCorePoolSize").asInt());
        assertEquals(Integer.MAX_VALUE, b.get("asyncMaxPoolSize").asInt());
        assertEquals(Integer.MAX_VALUE, b.get("asyncQueueCapacity").asInt());
        assertFalse(b.get("asyncProbeVirtual").asBoolean());
        assertTrue(b.get("asyncProbeThreadName").asText().startsWith("task-"), b.toString());
        assertEquals(200, b.get("tomcatMaxThreads").asInt(), b.toString());
        assertFalse(b.get("tomcatVirtualThreads").asBoolean(), b.toString());
        assertEquals("spring-boot-auto", call(port, "GET", "/bench/info").get("executor").get("kind").asText());
    }

    @Test
    void servletSleep_runsOnATomcatPlatformThread() throws Exception {
        JsonNode r = call(port, "GET", "/api/servlet/sleep?ms=5");
        assertFalse(r.get("virtual").asBoolean());
        assertTrue(r.get("thread").asText().contains("exec-"), r.toString());
    }
}
