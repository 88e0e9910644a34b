package dev.vtbench.sut;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * All {@code bench.*} settings, validated once at bind time. Modes are bound as strings and parsed
 * here so that a bad value fails with one message naming the property.
 */
@ConfigurationProperties(prefix = "bench")
public record BenchProperties(
        @DefaultValue("fixed") String executor,
        @DefaultValue Fixed fixed,
        @DefaultValue("none") String pinning,
        @DefaultValue Sampler sampler,
        @DefaultValue Pinned pinned,
        @DefaultValue Okhttp okhttp) {

    public BenchProperties {
        ExecutorMode.parse("bench.executor", executor);
        PinningMode.parse("bench.pinning", pinning);
    }

    public ExecutorMode executorMode() {
        return ExecutorMode.parse("bench.executor", executor);
    }

    public PinningMode pinningMode() {
        return PinningMode.parse("bench.pinning", pinning);
    }

    public record Fixed(@DefaultValue("32") int poolSize, @DefaultValue("10000") int queueCapacity) {
        public Fixed {
            if (poolSize <= 0) {
                throw new InvalidBenchPropertyException("bench.fixed.pool-size", poolSize, "must be > 0");
            }
            if (queueCapacity < 0) {
                throw new InvalidBenchPropertyException("bench.fixed.queue-capacity", queueCapacity, "must be >= 0");
            }
        }
    }

    /** capacity 14400 ticks = one hour at 250 ms. */
    public record Sampler(@DefaultValue("250") long intervalMs, @DefaultValue("14400") int capacity) {
        public Sampler {
            if (intervalMs <= 0) {
                throw new InvalidBenchPropertyException("bench.sampler.interval-ms", intervalMs, "must be > 0");
            }
            if (capacity <= 0) {
                throw new InvalidBenchPropertyException("bench.sampler.capacity", capacity, "must be > 0");
            }
        }
    }

    /** JFR threshold for jdk.VirtualThreadPinned (the JDK default is 20 ms). */
    public record Pinned(@DefaultValue("20") long thresholdMs) {
        public Pinned {
            if (thresholdMs < 0) {
                throw new InvalidBenchPropertyException("bench.pinned.threshold-ms", thresholdMs, "must be >= 0");
            }
        }
    }

    /** OkHttp pool of the OpenAI client: idle connections kept and for how long. */
    public record Okhttp(@DefaultValue("4096") int maxIdleConnections, @DefaultValue("10m") Duration keepAlive) {
        public Okhttp {
            if (maxIdleConnections <= 0) {
                throw new InvalidBenchPropertyException("bench.okhttp.max-idle-connections", maxIdleConnections, "must be > 0");
            }
            if (keepAlive.isNegative() || keepAlive.isZero()) {
                throw new InvalidBenchPropertyException("bench.okhttp.keep-alive", keepAlive, "must be > 0");
            }
        }
    }
}
