/**
 * Shapes of the system under test's HTTP API (sut/). The Java side must produce exactly these;
 * the harness reads them. Units are in the names; epoch values are ms since 1970.
 */
import type { ExecutorSpec } from './variant.ts';

/** `POST /api/benchmark/llm` with optional body `{"prompt": "..."}` -> 200 and this JSON, plus the
 * header `Server-Timing: queue;dur=<ms>, exec;dur=<ms>` (3 decimals, i.e. microseconds). It runs the
 * SUT's `llm` scenario (also served as `/api/scenario/llm`, with the scenario response shape). */
export interface LlmResponse {
  content: string;
  /** `bench.variant` of the SUT (the harness's variant id; default `default`) */
  variant: string;
  queueMs: number;
  execMs: number;
}

/**
 * `GET|POST /api/scenario/{id}` (query parameters per scenario, e.g. `sleep?ms=200`) -> 200 and
 * this JSON, with the same `Server-Timing` header as the LLM route. The scenario runs on the
 * variant's executor (sut/…/*Scenario.java). Some scenarios add named phases after queue and exec,
 * each part of exec (ms): study 002's DB scenarios `conn` (wait for a pooled connection) and `db`
 * (conn + the query), `db-small-synchronized` also `lock` (wait for its shared monitor), `mixed` and
 * `mixed-structured` also `user` and `logistics` (the two delay-route calls). Study 002's scenarios:
 * `io-http?ms=`, `cpu-fib[?n=]`, `mixed?dbMs=&userMs=&logisticsMs=`, `mixed-structured?…` (same),
 * `db-small?ms=`, `db-small-synchronized?ms=`.
 */
export interface ScenarioResponse {
  /** `bench.variant` of the SUT */
  variant: string;
  /** the scenario id */
  scenario: string;
  /** what the scenario returned, e.g. `{"sleptMs": 200}` or `{"content": "..."}` */
  result: unknown;
  queueMs: number;
  execMs: number;
}

/** Error body of the SUT. No stack trace. */
export interface SutError {
  /**
   * stable code: 'rejected' (503, the pool's queue is full) | 'db_not_configured' (503, no
   * `bench.db.url`) | 'db_pool_exhausted' (503, HikariCP timed out waiting for a connection) |
   * 'upstream_unreachable' | 'upstream_bad_response' (502) | 'unknown_scenario' (404) | 'bad_scenario_parameter' (400,
   * the message names the parameter) | 'internal' (500)
   */
  error: string;
  message: string;
}

/** One sampler tick (`GET /bench/samples?since=<epochMs>` returns those with tEpochMs > since). */
export interface SutSample {
  tEpochMs: number;
  /** ThreadPoolExecutor.getActiveCount() for a platform pool; running tasks for virtual-per-task */
  executorActive: number;
  /** queued tasks (platform pool); 0 for virtual-per-task */
  queueSize: number;
  /** tasks submitted and not finished (measuring wrapper) */
  inFlight: number;
  /** tasks finished since start (measuring wrapper) */
  completed: number;
  /** live platform threads (ThreadMXBean.getThreadCount) */
  platformThreads: number;
  heapUsedBytes: number;
  heapCommittedBytes: number;
  /** VmRSS from /proc/self/status; null where unavailable */
  rssBytes: number | null;
  /** OperatingSystemMXBean.getProcessCpuLoad, 0..1 of the whole machine; null if unknown */
  processCpuLoad: number | null;
  /** cumulative process CPU time, ns */
  processCpuTimeNs: number | null;
  /** jdk.management VirtualThreadSchedulerMXBean (JDK 24+); null where absent */
  vtSchedulerParallelism: number | null;
  vtSchedulerPoolSize: number | null;
  vtMounted: number | null;
  vtQueued: number | null;
  /** cumulative jdk.VirtualThreadPinned events since JVM start (at the configured threshold), as delivered so far: JFR delivers up to ~1 s late, so use GET /bench/pinned for per-cell counts */
  pinnedTotal: number;
  /** cumulative jdk.VirtualThreadSubmitFailed events */
  submitFailedTotal: number;
  /** cumulative upstream failures answered 502 */
  upstreamErrorsTotal: number;
  /** WebSocket push scenario (sut/…/WsPushService.java): sessions open now; absent in runs before it */
  wsSessionsOpen?: number;
  /** WebSocket push scenario: messages sent since JVM start; absent in runs before it */
  wsMessagesSent?: number;
}

export interface SamplesResponse {
  intervalMs: number;
  samples: SutSample[];
}

/**
 * `GET /bench/pinned`: cumulative JFR counts since JVM start. The SUT commits a marker event and
 * answers once its JFR stream has delivered it (at most 5 s), because JFR delivers events up to
 * about a second late: with `flushed` true the counts include every event committed before the
 * request. Group `byReason` by kind with src/compute/analysis/pinned-kind.ts (JDK 25 puts class names in it).
 */
export interface PinnedResponse {
  thresholdMs: number;
  total: number;
  byReason: Record<string, number>;
  submitFailedTotal: number;
  /** the marker was delivered before the counts were read; false on timeout or without a JFR stream */
  flushed: boolean;
  /** how long the SUT waited for the marker, ms */
  flushWaitMs: number;
}

/**
 * What the SUT wraps the LLM call in (`bench.pinning`): `synchronized` pins only before JDK 24
 * (JEP 491); `class-init` runs it in a fresh class initialiser, which still pins on JDK 25.
 */
export type PinningMode = 'none' | 'synchronized' | 'class-init';

/** `GET /bench/info` */
export interface SutInfo {
  jdkVendor: string;
  jdkVersion: string;
  springBootVersion: string;
  springAiVersion: string;
  jvmFlags: string[];
  availableProcessors: number;
  /**
   * `bench.executor.*` and `bench.variant`. `threads` / `queueCapacity`: the platform pool's core = max
   * threads and queue bound; null for `virtual-per-task`. Thread names are `<threadNamePrefix><n>`, n from 0
   * (default prefix per kind: `pool-` / `vt-`).
   */
  executor: {
    variant: string;
    kind: ExecutorSpec['kind'];
    threads: number | null;
    queueCapacity: number | null;
    threadNamePrefix: string;
    pinning: PinningMode;
  };
  /** ids served at `GET|POST /api/scenario/{id}`, sorted (e.g. `["llm", "sleep"]`) */
  scenarios: string[];
  vtSchedulerParallelism: number | null;
  tomcat: { maxThreads: number; maxConnections: number; maxKeepAliveRequests: number; keepAliveTimeoutMs: number; asyncRequestTimeoutMs: number };
  okhttp: { maxIdleConnections: number; keepAliveDurationMs: number; dispatcherMaxRequests: number | null };
  mockBaseUrl: string;
  samplerIntervalMs: number;
  pinnedThresholdMs: number;
  /** `server.address` the SUT listens on; null = every interface. Absent in runs before it was recorded. */
  serverAddress?: string | null;
  /**
   * Spring Boot's own executors as the SUT read them back from its live beans and the running Tomcat
   * (sut/…/BootExecutorsInfo.java; study 004). Absent in runs before it was recorded.
   */
  boot?: BootExecutorsInfo | null;
  /** The blocking HTTP client of study 002's `io-http` / `mixed*` scenarios (sut/…/DelayHttpClient.java). Absent in runs before it was recorded. */
  http?: SutHttpClientInfo;
  /** The PostgreSQL pool of study 002's DB scenarios (sut/…/DbPool.java). Absent in runs before it was recorded. */
  db?: SutDbInfo;
  /** `cpu-fib`'s calibration at SUT start (sut/…/FibCalibration.java). Absent in runs before it was recorded. */
  fib?: SutFibInfo;
}

/**
 * `GET <baseUrl>/delay?ms=<ms>` client: OkHttp synchronous calls (the calling thread blocks on the socket).
 * `baseUrlFrom`: `bench.http.base-url`, or `spring.ai.openai.base-url` without `/v1` when that is unset.
 * `maxIdleConnections`: the ConnectionPool's keep-alive cap (`bench.http.max-connections`);
 * `maxOpenConnections` null = no cap on open connections (synchronous OkHttp calls have none).
 * `timeoutMs`: connect, read and write timeout each (`bench.http.timeout`).
 */
export interface SutHttpClientInfo {
  client: string;
  clientVersion: string;
  baseUrl: string;
  baseUrlFrom: 'bench.http.base-url' | 'spring.ai.openai.base-url';
  maxIdleConnections: number;
  keepAliveMs: number;
  timeoutMs: number;
  maxOpenConnections: number | null;
  retryOnConnectionFailure: boolean;
}

/**
 * `bench.db.*` and what runs: `url` has any password masked (null = not configured: the DB scenarios
 * answer 503 `db_not_configured`); `poolSize` = Hikari maximumPoolSize (= minimumIdle);
 * `hikariYieldFix`: the HikariCP jar has PR 2402's fix of issue 2398 (Thread.yield() spinning under
 * virtual-thread waiters; 7.0.2 has not, 7.1.0 has); `serverVersion` from JDBC DatabaseMetaData, null
 * without a database.
 */
export interface SutDbInfo {
  configured: boolean;
  url: string | null;
  poolSize: number;
  connectionTimeoutMs: number;
  hikariVersion: string;
  hikariYieldFix: boolean;
  jdbcDriverVersion: string;
  serverVersion: string | null;
}

/**
 * fib(n) calibrated so one call costs about `targetCpuMs` of thread CPU; `cpuMsPerCall`: the median of
 * 3 measured calls of fib(n); `warmupCpuMs`: the CPU its JIT warm-up spent until the cost stopped
 * falling (absent in SUTs before that warm-up, whose calibration could run on not yet C2-compiled code).
 */
export interface SutFibInfo {
  n: number;
  targetCpuMs: number;
  cpuMsPerCall: number;
  warmupCpuMs?: number;
}

/**
 * What Boot's executors actually are in a SUT JVM. `async*`: the `applicationTaskExecutor` bean
 * (pool sizes for a ThreadPoolTaskExecutor, the concurrency limit, −1 = none, for a
 * SimpleAsyncTaskExecutor; null where the class has no such setting) and the thread a probe task ran
 * on. `tomcat*`: the connector's executor; `tomcatMaxThreads` null when Tomcat reads −1 (virtual
 * threads), never a configured value that is not in effect.
 */
export interface BootExecutorsInfo {
  asyncExecutorClass: string;
  asyncCorePoolSize: number | null;
  asyncMaxPoolSize: number | null;
  asyncQueueCapacity: number | null;
  asyncConcurrencyLimit: number | null;
  asyncProbeThreadName: string;
  asyncProbeVirtual: boolean;
  springThreadsVirtual: boolean;
  tomcatExecutorClass: string | null;
  tomcatVirtualThreads: boolean | null;
  tomcatMaxThreads: number | null;
}

/**
 * `GET /bench/ws` (sut/…/WsPushService.java Stats): the WebSocket push scenario's settings and
 * counters, cumulative since JVM start except `tickLagMaxMs` (the largest tick lag since the previous
 * read: the harness reads right before and right after a cell). `closesByCause`: `client-<code>`,
 * `send-time-limit`, `buffer-size-limit` (the session decorator's limits), `send-error`, `transport-error`.
 */
export interface WsPushStats {
  path: string;
  workMs: number;
  intervalMs: number;
  sendTimeLimitMs: number;
  bufferSizeLimitBytes: number;
  sessionsOpen: number;
  sessionsOpened: number;
  sessionsClosed: number;
  closesByCause: Record<string, number>;
  ticks: number;
  messagesSent: number;
  messagesRejected: number;
  messagesSkipped: number;
  tickLagOver100Ms: number;
  tickLagMaxMs: number;
}
