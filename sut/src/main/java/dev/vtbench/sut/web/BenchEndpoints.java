package dev.vtbench.sut.web;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.HotSpotDiagnosticMXBean.ThreadDumpFormat;
import jdk.management.VirtualThreadSchedulerMXBean;

import org.springframework.boot.SpringBootVersion;
import org.springframework.core.env.Environment;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.vtbench.sut.config.BenchProperties;
import dev.vtbench.sut.executors.BootExecutorsInfo;
import dev.vtbench.sut.executors.MeasuringExecutor;
import dev.vtbench.sut.observability.PinnedEventCounter;
import dev.vtbench.sut.observability.Sampler;
import dev.vtbench.sut.observability.SutSample;
import dev.vtbench.sut.observability.Versions;
import dev.vtbench.sut.scenarios.DelayHttpClient;
import dev.vtbench.sut.scenarios.FibCalibration;
import dev.vtbench.sut.scenarios.ScenarioRegistry;
import dev.vtbench.sut.scenarios.db.DbPool;

/** Measurement endpoints under {@code /bench}; shapes are in src/types/sut-api.ts. */
@RestController
public class BenchEndpoints {

    public record SamplesResponse(long intervalMs, List<SutSample> samples) {
    }

    /**
     * Cumulative JFR counts since JVM start. {@code flushed}: the counts were read after the JFR
     * stream delivered a marker committed at the start of this request (so every event committed
     * before the request is in them); {@code flushWaitMs}: how long that wait took.
     */
    public record PinnedResponse(long thresholdMs, long total, Map<String, Long> byReason, long submitFailedTotal,
            boolean flushed, long flushWaitMs) {
    }

    /** Longest wait of {@code GET /bench/pinned} for the JFR stream to deliver its marker. */
    static final Duration PINNED_FLUSH_TIMEOUT = Duration.ofSeconds(5);

    /** {@code threads} and {@code queueCapacity} are null for kinds without them (virtual-per-task). */
    public record ExecutorInfo(String variant, String kind, Integer threads, Integer queueCapacity,
            String threadNamePrefix, String pinning) {
    }

    public record TomcatInfo(int maxThreads, int maxConnections, int maxKeepAliveRequests, long keepAliveTimeoutMs,
            long asyncRequestTimeoutMs) {
    }

    public record OkhttpInfo(int maxIdleConnections, long keepAliveDurationMs, Integer dispatcherMaxRequests) {
    }

    public record SutInfo(String jdkVendor, String jdkVersion, String springBootVersion, String springAiVersion,
            List<String> jvmFlags, int availableProcessors, ExecutorInfo executor, List<String> scenarios,
            Integer vtSchedulerParallelism,
            TomcatInfo tomcat, OkhttpInfo okhttp, String mockBaseUrl, long samplerIntervalMs, long pinnedThresholdMs,
            String serverAddress, BootExecutorsInfo.Info boot, DelayHttpClient.Info http, DbPool.Info db,
            FibCalibration.Info fib) {

        /** This info with Boot's executors as read now (study 004's variants are checked against it). */
        SutInfo withBoot(BootExecutorsInfo.Info b) {
            return new SutInfo(jdkVendor, jdkVersion, springBootVersion, springAiVersion, jvmFlags, availableProcessors,
                    executor, scenarios, vtSchedulerParallelism, tomcat, okhttp, mockBaseUrl, samplerIntervalMs,
                    pinnedThresholdMs, serverAddress, b, http, db, fib);
        }
    }

    private final Sampler sampler;
    private final PinnedEventCounter pinned;
    private final SutInfo info;
    private final BootExecutorsInfo boot;

    public BenchEndpoints(Sampler sampler, PinnedEventCounter pinned, MeasuringExecutor executor,
            ScenarioRegistry scenarios, BenchProperties props, Environment env, BootExecutorsInfo boot,
            DelayHttpClient http, DbPool db, FibCalibration fib) {
        this.sampler = sampler;
        this.boot = boot;
        this.pinned = pinned;
        VirtualThreadSchedulerMXBean vt = Sampler.vtSchedulerBean();
        this.info = new SutInfo(
                System.getProperty("java.vendor"),
                System.getProperty("java.runtime.version", System.getProperty("java.version")),
                SpringBootVersion.getVersion(),
                springAiVersion(),
                ManagementFactory.getRuntimeMXBean().getInputArguments(),
                Runtime.getRuntime().availableProcessors(),
                new ExecutorInfo(props.variant(), executor.kind().name(), executor.threads(),
                        executor.queueCapacity(), executor.threadNamePrefix(), props.pinningMode().wireName()),
                scenarios.ids(),
                vt == null ? null : vt.getParallelism(),
                new TomcatInfo(
                        env.getProperty("server.tomcat.threads.max", Integer.class, 200),
                        env.getProperty("server.tomcat.max-connections", Integer.class, 8192),
                        env.getProperty("server.tomcat.max-keep-alive-requests", Integer.class, 100),
                        millis(env, "server.tomcat.keep-alive-timeout",
                                millis(env, "server.tomcat.connection-timeout", 60_000)),
                        millis(env, "spring.mvc.async.request-timeout", 30_000)),
                new OkhttpInfo(props.okhttp().maxIdleConnections(), props.okhttp().keepAlive().toMillis(),
                        // Spring AI 2.0 builds each client's Dispatcher with OkHttp's default limit (64,
                        // and 64 per host); it only applies to async/streaming calls. bench.okhttp.
                        // dispatcher-max-requests lifts it (OkHttpDispatcherLimits).
                        props.okhttp().dispatcherMaxRequests() > 0 ? props.okhttp().dispatcherMaxRequests()
                                : new okhttp3.Dispatcher().getMaxRequests()),
                env.getProperty("spring.ai.openai.base-url", ""),
                sampler.intervalMs(),
                pinned.thresholdMs(),
                // null = every interface (Spring's default when server.address is unset)
                env.getProperty("server.address"),
                null,
                http.info(),
                db.info(),
                fib.info());
    }

    private static long millis(Environment env, String key, long fallback) {
        String v = env.getProperty(key);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        v = v.trim();
        if (v.matches("-?\\d+")) {
            return Long.parseLong(v); // bare numbers are milliseconds for these properties
        }
        return org.springframework.boot.convert.DurationStyle.detectAndParse(v).toMillis();
    }

    static String springAiVersion() {
        return Versions.of("org.springframework.ai", "spring-ai-client-chat", org.springframework.ai.chat.client.ChatClient.class);
    }

    @GetMapping("/bench/info")
    public SutInfo info() {
        // Boot's executors are read back on the first request, once Tomcat runs (see BootExecutorsInfo)
        return info.withBoot(boot.read());
    }

    @GetMapping("/bench/samples")
    public SamplesResponse samples(@RequestParam(name = "since", defaultValue = "0") long sinceEpochMs) {
        return new SamplesResponse(sampler.intervalMs(), sampler.since(sinceEpochMs));
    }

    /** Waits (at most {@link #PINNED_FLUSH_TIMEOUT}) until JFR has delivered everything committed so far, then reads. */
    @GetMapping("/bench/pinned")
    public PinnedResponse pinned() {
        long t0 = System.nanoTime();
        boolean flushed = pinned.awaitDelivered(PINNED_FLUSH_TIMEOUT);
        long waitMs = (System.nanoTime() - t0) / 1_000_000L;
        return new PinnedResponse(pinned.thresholdMs(), pinned.total(), pinned.byReason(), pinned.submitFailedTotal(),
                flushed, waitMs);
    }

    /**
     * JSON thread dump including virtual threads (jstack, ThreadMXBean and the actuator endpoint
     * show platform threads only). Written to a temp file, returned, deleted.
     */
    @GetMapping("/bench/threaddump")
    public ResponseEntity<String> threadDump() throws IOException {
        Path dir = Files.createTempDirectory("vtbench-threaddump");
        Path file = dir.resolve("threads.json");
        try {
            HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            bean.dumpThreads(file.toAbsolutePath().toString(), ThreadDumpFormat.JSON);
            return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Files.readString(file));
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

}
