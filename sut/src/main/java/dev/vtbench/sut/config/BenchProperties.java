package dev.vtbench.sut.config;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.env.Environment;

import dev.vtbench.sut.executors.ExecutorKind;
import dev.vtbench.sut.executors.ExecutorKinds;
import dev.vtbench.sut.lifecycle.ParentWatch;
import dev.vtbench.sut.scenarios.DelayHttpClient;
import dev.vtbench.sut.scenarios.FibCalibration;
import dev.vtbench.sut.scenarios.db.DbPool;
import dev.vtbench.sut.scenarios.llm.LlmBulkhead;
import dev.vtbench.sut.scenarios.llm.PinningMode;
import dev.vtbench.sut.scenarios.ws.WsPushService;

/**
 * All {@code bench.*} settings, validated once at bind time. Kinds and modes are bound as strings and
 * parsed here so that a bad value fails with one message naming the property. Unknown {@code bench.*}
 * names (typos, the removed {@code bench.fixed.*}) are refused too, so a setting is never silently
 * ignored; the removed scalar {@code bench.executor=fixed|virtual} is refused by {@link #refuseRemoved}.
 *
 * @param variant   the harness's id of what runs (free text, non-blank), echoed in {@code /bench/info}
 *                  and in every scenario response
 * @param parentPid {@code bench.parent-pid}: the pid of the process that started this JVM (the harness
 *                  passes its own); when that process is gone the SUT stops ({@link ParentWatch}).
 *                  Unset (null) = the SUT runs until it is stopped. Must be &gt; 0.
 */
@ConfigurationProperties(prefix = "bench", ignoreUnknownFields = false)
public record BenchProperties(
        @DefaultValue("default") String variant,
        @DefaultValue Executor executor,
        @DefaultValue("none") String pinning,
        @DefaultValue Sampler sampler,
        @DefaultValue Pinned pinned,
        @DefaultValue Okhttp okhttp,
        @DefaultValue Bulkhead bulkhead,
        @DefaultValue Http http,
        @DefaultValue Db db,
        @DefaultValue Fib fib,
        @DefaultValue Ws ws,
        Long parentPid) {

    public BenchProperties {
        if (variant == null || variant.isBlank()) {
            throw new InvalidBenchPropertyException("bench.variant", variant, "must not be blank");
        }
        if (parentPid != null && parentPid <= 0) {
            throw new InvalidBenchPropertyException("bench.parent-pid", parentPid, "must be a pid > 0 (leave it unset to run without a parent watch)");
        }
        executor.executorKind().validate(executor);
        PinningMode.parse("bench.pinning", pinning);
    }

    /**
     * The binder cannot see a scalar {@code bench.executor} next to the {@code bench.executor.*} object
     * and would ignore it: refuse it here, so a harness still passing the old property fails instead of
     * silently running the default kind.
     */
    public static void refuseRemoved(Environment env) {
        String old = env.getProperty("bench.executor");
        if (old != null) {
            throw new InvalidBenchPropertyException("bench.executor", old, "bench.executor is no longer a value: use "
                    + "bench.executor.kind=" + String.join("|", ExecutorKinds.names())
                    + " (platform-pool also needs bench.executor.threads)");
        }
    }

    public PinningMode pinningMode() {
        return PinningMode.parse("bench.pinning", pinning);
    }

    /**
     * {@code bench.executor.*}: which {@link ExecutorKind} runs the scenario calls, and its sizes.
     * After construction {@code kind} is the registered name (default {@link ExecutorKinds#DEFAULT_KIND})
     * and {@code threadNamePrefix} is resolved (default: the kind's, from {@link ExecutorKinds}).
     *
     * @param threads       platform-pool: core = max threads, required and > 0; ignored by virtual-per-task
     * @param queueCapacity platform-pool: bounded queue (0 = hand-off only); ignored by virtual-per-task
     */
    public record Executor(String kind, Integer threads, @DefaultValue("10000") int queueCapacity,
            String threadNamePrefix) {

        public Executor {
            ExecutorKind k = ExecutorKinds.lookup(kind == null ? ExecutorKinds.DEFAULT_KIND : kind);
            kind = k.name();
            if (queueCapacity < 0) {
                throw new InvalidBenchPropertyException("bench.executor.queue-capacity", queueCapacity, "must be >= 0");
            }
            if (threadNamePrefix == null) {
                threadNamePrefix = k.defaultThreadNamePrefix();
            } else if (threadNamePrefix.isBlank()) {
                throw new InvalidBenchPropertyException("bench.executor.thread-name-prefix", "'" + threadNamePrefix + "'",
                        "must not be blank (leave it unset for the kind's default)");
            }
        }

        public ExecutorKind executorKind() {
            return ExecutorKinds.lookup(kind);
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

    /**
     * OkHttp of the OpenAI client: idle connections kept and for how long, and the dispatcher's limit
     * on asynchronous calls (Spring AI 2 runs streaming calls through it).
     *
     * @param dispatcherMaxRequests 0 = leave the limit as Spring AI 2.0 sets it (64 in flight, 64 per
     *                              host; OkHttp's own default per host is 5); N > 0 = N in flight and N
     *                              per host ({@link OkHttpDispatcherLimits})
     * @param readTimeout           0 = as Spring AI 2.0 sets it (60 s per call, whatever
     *                              {@code spring.ai.openai.timeout} says); t > 0 = OkHttp's read timeout of every
     *                              call ({@link OkHttpReadTimeout}), the client timeout of study 000's timeout variants
     */
    public record Okhttp(@DefaultValue("4096") int maxIdleConnections, @DefaultValue("10m") Duration keepAlive,
            @DefaultValue("0") int dispatcherMaxRequests, @DefaultValue("0s") Duration readTimeout) {
        public Okhttp {
            if (readTimeout.isNegative()) {
                throw new InvalidBenchPropertyException("bench.okhttp.read-timeout", readTimeout, "must be >= 0 (0 = Spring AI's 60 s)");
            }
            if (dispatcherMaxRequests < 0) {
                throw new InvalidBenchPropertyException("bench.okhttp.dispatcher-max-requests", dispatcherMaxRequests,
                        "must be >= 0 (0 = Spring AI's 64)");
            }
            if (maxIdleConnections <= 0) {
                throw new InvalidBenchPropertyException("bench.okhttp.max-idle-connections", maxIdleConnections, "must be > 0");
            }
            if (keepAlive.isNegative() || keepAlive.isZero()) {
                throw new InvalidBenchPropertyException("bench.okhttp.keep-alive", keepAlive, "must be > 0");
            }
        }
    }

    /**
     * {@code bench.bulkhead.permits}: a fair {@link java.util.concurrent.Semaphore} of this many permits in
     * front of the LLM call ({@link LlmBulkhead}); 0 = none (the default). Study 000's §13/§17 bulkhead:
     * with K permits at most K calls reach the upstream at once, so throughput caps at K / L whatever the
     * executor, and the wait moves from the executor's queue to the permit ({@code Server-Timing: permit}).
     */
    public record Bulkhead(@DefaultValue("0") int permits) {
        public Bulkhead {
            if (permits < 0) {
                throw new InvalidBenchPropertyException("bench.bulkhead.permits", permits, "must be >= 0 (0 = no bulkhead)");
            }
        }
    }

    /**
     * {@code bench.http.*}: the blocking HTTP client of the {@code io-http} and {@code mixed*} scenarios
     * ({@link DelayHttpClient}), which call {@code GET <baseUrl>/delay?ms=<ms>} on the mock.
     *
     * @param baseUrl        the mock's origin, e.g. {@code http://127.0.0.1:9000} (no trailing {@code /});
     *                       unset = {@code spring.ai.openai.base-url} without its {@code /v1} (the same mock
     *                       process), resolved by {@link DelayHttpClient} and shown in {@code /bench/info}
     * @param maxConnections OkHttp {@code ConnectionPool} max idle connections (OkHttp's default is 5; its
     *                       synchronous calls have no cap on open connections, so this only decides how many
     *                       are kept for reuse): keep it above the highest concurrency so the client is never
     *                       the limit
     * @param keepAlive      how long an idle connection is kept
     * @param timeout        OkHttp connect, read and write timeout each (a request slower than this is a 502)
     */
    public record Http(String baseUrl, @DefaultValue("20000") int maxConnections,
            @DefaultValue("10m") Duration keepAlive, @DefaultValue("600s") Duration timeout) {
        public Http {
            if (baseUrl != null && !baseUrl.matches("https?://[^/?#]+(/[^?#]*)?")) {
                throw new InvalidBenchPropertyException("bench.http.base-url", baseUrl,
                        "must be an http(s) URL such as http://127.0.0.1:9000 (or unset: the mock of spring.ai.openai.base-url)");
            }
            if (maxConnections <= 0) {
                throw new InvalidBenchPropertyException("bench.http.max-connections", maxConnections, "must be > 0");
            }
            if (keepAlive.isNegative() || keepAlive.isZero()) {
                throw new InvalidBenchPropertyException("bench.http.keep-alive", keepAlive, "must be > 0");
            }
            if (timeout.isNegative() || timeout.isZero()) {
                throw new InvalidBenchPropertyException("bench.http.timeout", timeout, "must be > 0");
            }
        }
    }

    /**
     * {@code bench.db.*}: the PostgreSQL pool of the DB scenarios ({@link DbPool}). Without {@code url}
     * there is no pool: the SUT starts, and the DB scenarios answer 503 {@code db_not_configured}.
     *
     * @param url                 {@code jdbc:postgresql://127.0.0.1:<port>/<db>}; null = no database
     * @param user                database user (null = the driver's default)
     * @param password            may be empty; never shown in {@code /bench/info}
     * @param poolSize            HikariCP {@code maximumPoolSize} (Hikari's default 10, as in study 002);
     *                            {@code minimumIdle} is left at Hikari's default (= maximumPoolSize: a fixed pool)
     * @param connectionTimeoutMs HikariCP {@code connectionTimeout}: the longest wait for a pooled connection
     *                            before {@code SQLTransientConnectionException} (Hikari's default 30000; its
     *                            minimum is 250)
     */
    public record Db(String url, String user, String password, @DefaultValue("10") int poolSize,
            @DefaultValue("30000") long connectionTimeoutMs) {
        public Db {
            if (url != null && url.isBlank()) {
                url = null;
            }
            if (url != null && !url.startsWith("jdbc:postgresql:")) {
                throw new InvalidBenchPropertyException("bench.db.url", url,
                        "must be a PostgreSQL JDBC URL: jdbc:postgresql://127.0.0.1:<port>/<db> (or unset: no database)");
            }
            if (poolSize <= 0) {
                throw new InvalidBenchPropertyException("bench.db.pool-size", poolSize, "must be > 0 (HikariCP maximumPoolSize)");
            }
            if (connectionTimeoutMs < 250) {
                throw new InvalidBenchPropertyException("bench.db.connection-timeout-ms", connectionTimeoutMs,
                        "must be >= 250 (HikariCP's minimum connectionTimeout)");
            }
        }

        public boolean configured() {
            return url != null;
        }

        /** Hides the password in {@code toString} (Spring may log bound properties). */
        @Override
        public String toString() {
            return "Db[url=" + url + ", user=" + user + ", password=" + (password == null ? "null" : "***")
                    + ", poolSize=" + poolSize + ", connectionTimeoutMs=" + connectionTimeoutMs + "]";
        }
    }

    /**
     * {@code bench.fib.target-cpu-ms}: the thread CPU time one {@code cpu-fib} call should cost; the n of
     * fib(n) is calibrated to it at SUT start ({@link FibCalibration}). {@code bench.fib.n}: 0 (default)
     * calibrates n; 1..{@value FibCalibration#MAX_N} takes that n (the harness passes the n of its run's
     * first JVM, so every variant of a run computes the same fib) and only measures its CPU per call.
     */
    public record Fib(@DefaultValue("100") long targetCpuMs, @DefaultValue("0") int n) {
        public Fib {
            if (targetCpuMs < 1 || targetCpuMs > 10_000) {
                throw new InvalidBenchPropertyException("bench.fib.target-cpu-ms", targetCpuMs, "must be in 1..10000");
            }
            if (n < 0 || n > FibCalibration.MAX_N) {
                throw new InvalidBenchPropertyException("bench.fib.n", n, "must be in 0..45 (0: calibrate n to bench.fib.target-cpu-ms)");
            }
        }
    }

    /**
     * {@code bench.ws.*}: the WebSocket push scenario of study 002 (scenario 5, issue 13), served at
     * {@code /ws/push} by {@link WsPushService}. Every open connection gets one message every
     * {@code intervalMs}; producing each costs {@code workMs} of blocking work (a sleep) on the
     * {@code bench.executor.*} executor. Sends go through Spring's {@code ConcurrentWebSocketSessionDecorator}
     * with {@code sendTimeLimitMs} and {@code bufferSizeLimitBytes}: a session past either is closed
     * by the SUT and counted by cause ({@code GET /bench/ws}).
     */
    public record Ws(@DefaultValue("10") long workMs, @DefaultValue("1000") long intervalMs,
            @DefaultValue("10000") int sendTimeLimitMs, @DefaultValue("524288") int bufferSizeLimitBytes) {
        public Ws {
            if (workMs < 0) {
                throw new InvalidBenchPropertyException("bench.ws.work-ms", workMs, "must be >= 0");
            }
            if (intervalMs <= 0) {
                throw new InvalidBenchPropertyException("bench.ws.interval-ms", intervalMs, "must be > 0");
            }
            if (sendTimeLimitMs <= 0) {
                throw new InvalidBenchPropertyException("bench.ws.send-time-limit-ms", sendTimeLimitMs, "must be > 0");
            }
            if (bufferSizeLimitBytes <= 0) {
                throw new InvalidBenchPropertyException("bench.ws.buffer-size-limit-bytes", bufferSizeLimitBytes, "must be > 0");
            }
        }
    }
}
