package dev.vtbench.sut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class BenchPropertiesTest {

    private static BenchProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate("bench", BenchProperties.class);
    }

    private static InvalidBenchPropertyException refused(Map<String, String> values) {
        BindException e = assertThrows(BindException.class, () -> bind(values));
        InvalidBenchPropertyException bad = InvalidBenchPropertyException.findIn(e);
        assertNotNull(bad, "cause chain should hold the named property: " + e);
        return bad;
    }

    @Test
    void defaultsMatchTheSourceStudy() {
        BenchProperties p = bind(Map.of());
        assertEquals(ExecutorMode.FIXED, p.executorMode());
        assertEquals(32, p.fixed().poolSize());
        assertEquals(10_000, p.fixed().queueCapacity());
        assertEquals(PinningMode.NONE, p.pinningMode());
        assertEquals(250, p.sampler().intervalMs());
        assertEquals(20, p.pinned().thresholdMs());
        assertTrue(p.okhttp().maxIdleConnections() >= 2000);
    }

    @Test
    void kebabCasePropertiesBind() {
        BenchProperties p = bind(Map.of("bench.executor", "virtual", "bench.fixed.pool-size", "8",
                "bench.fixed.queue-capacity", "0", "bench.pinning", "synchronized", "bench.sampler.interval-ms", "100",
                "bench.pinned.threshold-ms", "0", "bench.okhttp.keep-alive", "30s"));
        assertEquals(ExecutorMode.VIRTUAL, p.executorMode());
        assertEquals(8, p.fixed().poolSize());
        assertEquals(0, p.fixed().queueCapacity());
        assertEquals(PinningMode.SYNCHRONIZED, p.pinningMode());
        assertEquals(100, p.sampler().intervalMs());
        assertEquals(0, p.pinned().thresholdMs());
        assertEquals(Duration.ofSeconds(30), p.okhttp().keepAlive());
    }

    @Test
    void unknownExecutorModeIsRefusedNamingBenchExecutor() {
        InvalidBenchPropertyException bad = refused(Map.of("bench.executor", "forkjoin"));
        assertEquals("bench.executor", bad.property());
        assertEquals("bench.executor=forkjoin is invalid: expected one of fixed|virtual", bad.getMessage());
    }

    @Test
    void poolSizeZeroIsRefusedNamingThePoolSizeProperty() {
        assertEquals("bench.fixed.pool-size", refused(Map.of("bench.fixed.pool-size", "0")).property());
    }

    @Test
    void negativeQueueCapacityIsRefusedNamingTheQueueProperty() {
        assertEquals("bench.fixed.queue-capacity", refused(Map.of("bench.fixed.queue-capacity", "-1")).property());
    }

    @Test
    void unknownPinningModeIsRefusedListingTheModes() {
        InvalidBenchPropertyException bad = refused(Map.of("bench.pinning", "always"));
        assertEquals("bench.pinning", bad.property());
        assertEquals("bench.pinning=always is invalid: expected one of none|synchronized|class-init", bad.getMessage());
    }

    @Test
    void classInitPinningModeBinds() {
        assertEquals(PinningMode.CLASS_INIT, bind(Map.of("bench.pinning", "class-init")).pinningMode());
        assertEquals("class-init", PinningMode.CLASS_INIT.wireName());
    }

    @Test
    void nonPositiveSamplerIntervalIsRefused() {
        assertEquals("bench.sampler.interval-ms", refused(Map.of("bench.sampler.interval-ms", "0")).property());
    }
}
