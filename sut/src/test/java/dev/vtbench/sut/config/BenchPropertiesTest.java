package dev.vtbench.sut.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.mock.env.MockEnvironment;

import dev.vtbench.sut.SutApplication;
import dev.vtbench.sut.executors.ExecutorKinds;
import dev.vtbench.sut.scenarios.llm.PinningMode;

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
    void defaults_variantDefault_virtualPerTaskWithItsPrefix_noThreads_queue10000() {
        BenchProperties p = bind(Map.of());
        assertEquals("default", p.variant());
        assertEquals("virtual-per-task", p.executor().kind());
        assertEquals("virtual-per-task", p.executor().executorKind().name());
        assertNull(p.executor().threads());
        assertEquals(10_000, p.executor().queueCapacity());
        assertEquals("vt-", p.executor().threadNamePrefix());
        assertEquals(PinningMode.NONE, p.pinningMode());
        assertEquals(250, p.sampler().intervalMs());
        assertEquals(20, p.pinned().thresholdMs());
        assertTrue(p.okhttp().maxIdleConnections() >= 2000);
    }

    @Test
    void kebabCasePropertiesBind() {
        BenchProperties p = bind(Map.of("bench.variant", "fixed-8", "bench.executor.kind", "platform-pool",
                "bench.executor.threads", "8", "bench.executor.queue-capacity", "0",
                "bench.executor.thread-name-prefix", "llm-fixed-", "bench.pinning", "synchronized",
                "bench.sampler.interval-ms", "100", "bench.pinned.threshold-ms", "0", "bench.okhttp.keep-alive", "30s"));
        assertEquals("fixed-8", p.variant());
        assertEquals("platform-pool", p.executor().kind());
        assertEquals(8, p.executor().threads());
        assertEquals(0, p.executor().queueCapacity());
        assertEquals("llm-fixed-", p.executor().threadNamePrefix());
        assertEquals(PinningMode.SYNCHRONIZED, p.pinningMode());
        assertEquals(100, p.sampler().intervalMs());
        assertEquals(0, p.pinned().thresholdMs());
        assertEquals(Duration.ofSeconds(30), p.okhttp().keepAlive());
    }

    @Test
    void kindIsTrimmedAndCaseInsensitive_storedAsTheRegisteredName() {
        BenchProperties p = bind(Map.of("bench.executor.kind", " Platform-Pool ", "bench.executor.threads", "2"));
        assertEquals("platform-pool", p.executor().kind());
    }

    @Test
    void threadNamePrefixDefaultsPerKind_fromTheRegistry() {
        assertEquals("pool-", bind(Map.of("bench.executor.kind", "platform-pool", "bench.executor.threads", "2"))
                .executor().threadNamePrefix());
        assertEquals("vt-", bind(Map.of("bench.executor.kind", "virtual-per-task")).executor().threadNamePrefix());
        assertEquals("llm-vt-", bind(Map.of("bench.executor.kind", "virtual-per-task",
                "bench.executor.thread-name-prefix", "llm-vt-")).executor().threadNamePrefix());
    }

    @Test
    void unknownExecutorKindIsRefusedNamingTheKindPropertyAndListingTheRegisteredKinds() {
        InvalidBenchPropertyException bad = refused(Map.of("bench.executor.kind", "forkjoin"));
        assertEquals("bench.executor.kind", bad.property());
        assertEquals("bench.executor.kind=forkjoin is invalid: expected one of platform-pool|virtual-per-task|spring-boot-auto",
                bad.getMessage());
        assertEquals(List.of("platform-pool", "virtual-per-task", "spring-boot-auto"), ExecutorKinds.names());
    }

    @Test
    void platformPoolWithoutThreadsIsRefusedNamingTheThreadsProperty() {
        InvalidBenchPropertyException absent = refused(Map.of("bench.executor.kind", "platform-pool"));
        assertEquals("bench.executor.threads", absent.property());
        assertTrue(absent.getMessage().contains("platform-pool"), absent.getMessage());
        assertEquals("bench.executor.threads",
                refused(Map.of("bench.executor.kind", "platform-pool", "bench.executor.threads", "0")).property());
        assertEquals("bench.executor.threads",
                refused(Map.of("bench.executor.kind", "platform-pool", "bench.executor.threads", "-3")).property());
    }

    @Test
    void virtualPerTaskIgnoresThreads() {
        BenchProperties p = bind(Map.of("bench.executor.kind", "virtual-per-task", "bench.executor.threads", "0"));
        assertEquals(0, p.executor().threads());
    }

    @Test
    void negativeQueueCapacityIsRefusedNamingTheQueueProperty() {
        assertEquals("bench.executor.queue-capacity", refused(Map.of("bench.executor.kind", "platform-pool",
                "bench.executor.threads", "2", "bench.executor.queue-capacity", "-1")).property());
    }

    @Test
    void blankVariantOrThreadNamePrefixIsRefused() {
        assertEquals("bench.variant", refused(Map.of("bench.variant", " ")).property());
        assertEquals("bench.executor.thread-name-prefix",
                refused(Map.of("bench.executor.thread-name-prefix", " ")).property());
    }

    @EnableConfigurationProperties(BenchProperties.class)
    static class BindsBench {
    }

    /** As the application binds it (ignoreUnknownFields = false): a misspelt or removed name fails the start. */
    @Test
    void unknownOrRemovedBenchNamesFailTheStartNamingThem() {
        new ApplicationContextRunner().withUserConfiguration(BindsBench.class)
                .withPropertyValues("bench.fixed.pool-size=32", "bench.executor.thread=2")
                .run(ctx -> {
                    assertNotNull(ctx.getStartupFailure());
                    assertEquals("[bench.executor.thread, bench.fixed.pool-size]",
                            SutApplication.unknownBenchProperties(ctx.getStartupFailure()));
                });
        new ApplicationContextRunner().withUserConfiguration(BindsBench.class)
                .withPropertyValues("bench.executor.kind=platform-pool", "bench.executor.threads=2")
                .run(ctx -> assertNull(ctx.getStartupFailure()));
    }

    /** The binder would ignore a scalar bench.executor next to bench.executor.*; it is refused explicitly. */
    @Test
    void theRemovedScalarBenchExecutorIsRefusedPointingToTheKindProperty() {
        InvalidBenchPropertyException bad = assertThrows(InvalidBenchPropertyException.class,
                () -> BenchProperties.refuseRemoved(new MockEnvironment().withProperty("bench.executor", "fixed")));
        assertEquals("bench.executor", bad.property());
        assertTrue(bad.getMessage().contains("bench.executor.kind=platform-pool|virtual-per-task|spring-boot-auto"), bad.getMessage());
        BenchProperties.refuseRemoved(new MockEnvironment().withProperty("bench.executor.kind", "platform-pool"));
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

    @Test
    void bulkheadPermitsDefaultToNoneAndANegativeCountIsRefused() {
        assertEquals(0, bind(Map.of()).bulkhead().permits());
        assertEquals(8, bind(Map.of("bench.bulkhead.permits", "8")).bulkhead().permits());
        InvalidBenchPropertyException bad = refused(Map.of("bench.bulkhead.permits", "-1"));
        assertEquals("bench.bulkhead.permits", bad.property());
    }

    @Test
    void parentPid_unsetByDefault_boundWhenGiven_refusedWhenNotPositive() {
        assertNull(bind(Map.of()).parentPid());
        assertEquals(4242L, bind(Map.of("bench.parent-pid", "4242")).parentPid());
        assertEquals("bench.parent-pid", refused(Map.of("bench.parent-pid", "0")).property());
    }
}
