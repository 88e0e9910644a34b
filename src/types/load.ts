/**
 * Contracts of the closed-loop load generator (src/load/). Times are numbers in the unit their
 * name carries; offsets are relative to the run's t0 (the moment `runClosedLoop` started its clock).
 */
import type { WsPushStats } from './sut-api.ts';

/** Error classes of one request. `http` = a response arrived with status >= 400. */
export type ErrorClass = 'connect' | 'reset' | 'timeout' | 'http' | 'other';

/** One measured request. */
export interface RequestRecord {
  /** worker index, 0..c-1 */
  worker: number;
  /** request index within the worker, 0..n-1 */
  seq: number;
  /** when the request was meant to start (start-mode schedule), ms after t0 */
  intendedStartMs: number;
  /** when it was actually sent, ms after t0 (hrtime based) */
  startMs: number;
  /** when the full response body was read (or the error surfaced), ms after t0 */
  endMs: number;
  /** end-to-end latency endMs - startMs, ms (ns precision kept as a fraction) */
  e2eMs: number;
  /** HTTP status, or null when no response arrived */
  status: number | null;
  /** null when the request succeeded (2xx) */
  errorClass: ErrorClass | null;
  /** parsed `Server-Timing` entries: name -> dur in ms, e.g. {queue: 0.012, exec: 1501.2} */
  serverTiming: Record<string, number>;
  /**
   * an error answer's own code: the `error` string of its JSON body (the SUT's 503s:
   * `db_pool_exhausted`, `db_not_configured`, `queue_full`…), read from the first 1 KiB of 4xx/5xx
   * bodies only; absent when none
   */
  errorKind?: string;
  /** the index in `LoadOptions.mix` / `OpenLoopOptions.mix` of the request sent; set only when a mix was given */
  req?: number;
}

/** A scheduled open-loop request that was never sent. */
export interface UnsentRecord {
  /** index in the arrival schedule */
  seq: number;
  /** its arrival time, ms after t0 */
  intendedStartMs: number;
  reason: 'in-flight-cap';
}

/** Percentile summary of one sample; every field ms; absent sample -> the whole object is null. */
export interface Percentiles {
  n: number;
  min: number;
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
  max: number;
}

/** Summary of one closed-loop run (one cell). */
export interface LoadSummary {
  concurrency: number;
  requestsPerWorker: number;
  /** records in total (successes + errors) */
  count: number;
  ok: number;
  errors: Record<ErrorClass, number>;
  /** whole run: completed / (last end - first start), req/s — the source study's definition */
  wholeRunThroughputRps: number | null;
  /** Σ over workers of (successes after its first answer) / (its last end − its first end), req/s (see summarize.ts) */
  steadyStateThroughputRps: number | null;
  /** for the record: [latest first end, earliest last end] over workers and the successes ending in it; null if empty */
  steadyWindow: { startMs: number; endMs: number; completions: number } | null;
  /** max number of requests observed in flight at once */
  peakInFlight: number;
  e2eMs: Percentiles | null;
  /** from Server-Timing `queue` (null when the server sent none) */
  queueMs: Percentiles | null;
  /** from Server-Timing `exec` */
  execMs: Percentiles | null;
  /**
   * How late the generator sent each request, over all records: startMs − intendedStartMs (ms).
   * Intended = the schedule for a worker's first request (t0, or its ramp slot), else the moment
   * the worker's previous answer was read (closed loop). Absent in runs written before this field.
   */
  sendDelayMs?: Percentiles | null;
  /**
   * Requests sent more than `thresholdMs` after their intended time, and their share of all
   * records (0..1). Absent when the caller gave no threshold (see `LoadOptions.lateSendThresholdMs`)
   * and in older runs; null when there are no records.
   */
  lateSends?: { thresholdMs: number; count: number; share: number } | null;
  /** open-loop cells only (src/load/open-loop.ts): the arrival process and what became of it */
  openLoop?: OpenLoopSummary;
  /**
   * error answers by their own code (RequestRecord.errorKind, e.g. `db_pool_exhausted`): a split of
   * `errors.http`. Present only when some error answer carried a code.
   */
  errorKinds?: Record<string, number>;
  /**
   * percentiles of the other `Server-Timing` entries of successful requests (beyond queue, exec and
   * permit), by name, e.g. study 002's `db`, `user`, `logistics`. Present only when some request
   * carried one.
   */
  timingMs?: Record<string, Percentiles>;
  /**
   * WebSocket cells only (src/load/websocket.ts): held connections and the pushes they received. In
   * such a cell the records above are the connections' opening handshakes (one per connection).
   */
  websocket?: WebSocketSummary;
}

/**
 * What a WebSocket cell (N connections held, the SUT pushing one message per interval on each,
 * study 002 scenario 5) established and received. Times are ms after t0 (the ramp's start).
 * The measurement window is [windowStartMs, windowEndMs): it opens one interval after the last
 * connection opened (every connection's schedule has begun) and lasts `holdS`; a message counts when
 * its scheduled time lies in the window. Expected = `connections` × holdS × 1000 / intervalMs
 * (every connection asked for, so one that failed to open or dropped counts its messages as missing).
 */
export interface WebSocketSummary {
  /** N: connections asked for */
  connections: number;
  /** connections whose opening handshake succeeded */
  opened: number;
  /** connections that failed to open, by cause (`connect`, `timeout`, `host-limit`, `other`) */
  failedToOpen: Record<string, number>;
  /** connections that closed before the driver closed them, by cause (`server-limit` = close 4500 of the SUT's decorator, `server-error` 1011, `abnormal` 1006, `code-<n>`) */
  dropped: Record<string, number>;
  /** connections still open when the driver closed them */
  heldToEnd: number;
  rampMs: number;
  holdS: number;
  /** the SUT's push interval, ms (`GET /bench/ws` intervalMs) */
  intervalMs: number;
  /** the SUT's blocking work per message, ms (`GET /bench/ws` workMs) */
  workMs: number;
  /** how long after the window the driver kept listening for late messages, ms */
  graceMs: number;
  windowStartMs: number;
  windowEndMs: number;
  /** N × holdS × 1000 / intervalMs */
  messagesExpected: number;
  /** messages received whose scheduled time lies in the window (each (connection, seq) once) */
  messagesInWindow: number;
  /** messagesInWindow / messagesExpected, 0..1 */
  deliveredShare: number;
  /** every message received, in the window or not */
  messagesReceived: number;
  /** receive − scheduled of the messages in the window, ms (includes the SUT's workMs by construction) */
  latenessMs: Percentiles | null;
  /** sequence numbers never received between a connection's first and last received one, summed */
  seqGaps: number;
  /** messages received with a seq not above the connection's previous one */
  outOfOrder: number;
  /** messages per producing thread's name prefix (trailing digits stripped), e.g. {"pool-": 12000}; counted as they arrived (not in the raw records) */
  byThreadPrefix: Record<string, number>;
  /** messages that were not the SUT's JSON (not in the raw records) */
  messagesUnparsed: number;
  /** the progress watchdog fired: no message for `afterMs` while connections were open; the cell was ended there */
  noProgress: { atMs: number; lastMessageMs: number | null; afterMs: number; openConnections: number } | null;
  /** the most connections this host lets the harness and the SUT hold (src/adapters/host/limits.ts maxWebSocketConnections) */
  hostMaxConnections: number;
  /** `GET /bench/ws` after the cell minus before it (the SUT's own counts); null when it did not answer */
  server: WsServerDelta | null;
}

/**
 * The SUT's WebSocket counters over one cell (src/types/sut-api.ts WsPushStats, after − before; its fields'
 * meanings there): `messagesRejected` never sent (a full bounded executor queue), `tickLagOver100Ms`
 * the ticker itself late, `tickLagMaxMs` the cell's own maximum; the limits as they were after the cell.
 */
export type WsServerDelta = Omit<WsPushStats, 'path' | 'workMs' | 'intervalMs' | 'sessionsOpen'>;

/**
 * The raw records of a WebSocket cell besides its handshakes: per message received (same index =
 * same message) its connection, seq, scheduled and receive times (ms after t0) and the SUT's queue
 * wait; per connection that closed before the driver closed it, when, its close code and cause.
 */
export type WsRawRecords = CompactWs;

/**
 * What an open-loop (arrival-rate) cell offered and achieved. Latency is given twice: from the
 * intended send time (`e2eFromIntendedMs`, free of coordinated omission: a stalled generator or a
 * refused send does not hide the wait) and from the actual send (`LoadSummary.e2eMs`).
 */
export interface OpenLoopSummary {
  arrival: 'constant' | 'poisson';
  /** the Poisson schedule's seed; null for constant */
  seed: number | null;
  /** λ, req/s */
  targetRatePerS: number;
  /** the measured phase (the schedule's length), s */
  durationS: number;
  /** requests in the schedule = sent + unsent */
  scheduled: number;
  sent: number;
  /** sent / durationS, req/s (the offered load that reached the wire) */
  achievedRatePerS: number;
  /** scheduled requests never sent, by reason (the in-flight cap refused them) */
  unsent: { inFlightCap: number };
  /** the cap on requests in flight (connections) */
  maxInFlight: number;
  /** successes: endMs − intendedStartMs, ms; null when none succeeded */
  e2eFromIntendedMs: Percentiles | null;
}

// ---- added with the implementation (additive; nothing above changed) ----------------------------

/**
 * HTTP methods the load drivers send: the same list as src/types/target.ts TARGET_METHODS (a type
 * test, test/unit/load-mix.test.ts, keeps the two equal; this file cannot import target.ts, which
 * imports it).
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

/**
 * One request of a weighted mix (issue 32; made from a request file by src/compute/target/mix.ts
 * loadMixOf). Sent exactly as given: `headers` are the final values (environment references already
 * resolved), no content-type is added, `body` is encoded to bytes once.
 */
export interface MixEntry {
  method: HttpMethod;
  /** path and query, starting with `/` */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** an integer >= 1: the entry's share of the requests (src/compute/target/mix.ts mixOrder) */
  weight: number;
}

/** Options of one closed-loop run. Timeouts are explicit: undici's 300 s defaults are never used. */
export interface LoadOptions {
  /** origin, e.g. `http://127.0.0.1:8080` (a path part is ignored; use `path`) */
  url: string;
  /** request path, e.g. `/api/benchmark/llm` */
  path: string;
  method: HttpMethod;
  /** request body, sent as-is (encoded to bytes once); absent = no body */
  body?: string;
  /** request headers; default `{ 'content-type': 'application/json' }` with a body, none without */
  headers?: Record<string, string>;
  /** number of workers (c), each with its own connection */
  concurrency: number;
  /** measured requests per worker (n) */
  requestsPerWorker: number;
  /** unrecorded requests per worker sent before t0 (all workers at once); default 0 */
  warmupRequestsPerWorker?: number;
  /** `together`: every worker's first measured request is meant for t0; `ramp`: worker i at t0 + i * rampMs / c */
  start: 'together' | 'ramp';
  /** ramp length, ms (ignored for `together`) */
  rampMs: number;
  connectTimeoutMs: number;
  /** max wait for the response headers after the request was sent, ms */
  headersTimeoutMs: number;
  /** max gap between body chunks, ms */
  bodyTimeoutMs: number;
  /** stops issuing requests, aborts those in flight and closes the connections */
  signal?: AbortSignal;
  /**
   * A send later than this after its intended time (ms) counts in `summary.lateSends`; absent →
   * not counted. The pipeline passes `generatorDelayThresholdMs(L)` from src/compute/analysis/flags.ts.
   */
  lateSendThresholdMs?: number;
  /**
   * No worker sends a request later than this, ms after the measured phase's t0 (requests in flight
   * finish normally; a worker may so send fewer than `requestsPerWorker`). Absent → no limit. Used by
   * warm-ups, which are not measured: a planned rate that the host's CPU cannot reach would otherwise
   * stretch them (seed-002: io-virtual's 5,000 × 50 at 50,000 req/s planned ran at about 1,500).
   */
  sendUntilMs?: number;
  /**
   * A weighted request mix (issue 32). When present it replaces `method`, `path`, `body` and
   * `headers`: request `seq` of worker `w` (measured or warm-up) sends `mix[order[(w + seq) % order.length]]`,
   * `order` = mixOrder(weights) (smooth weighted round-robin, src/compute/target/mix.ts), and its
   * record carries the index as `req`.
   */
  mix?: MixEntry[];
  /**
   * A header name (e.g. `x-vtbench-id`): every request carries it, `<worker>-<seq>` for a measured
   * request and `w<worker>-<i>` for warm-up request i, so the target (the vtbench Java agent) can key
   * its records to the generator's. A header of the same name (any case) in `headers` or a mix entry
   * is replaced.
   */
  idHeader?: string;
  /**
   * Prepended to every id the id header carries (measured and warm-up), e.g. `fixed-c100-r1.` gives `fixed-c100-r1.<worker>-<seq>`:
   * a caller that sends several cells to one process gives each its own, so a late record of an
   * earlier cell cannot be taken for one of this cell. Letters, digits, `.`, `_`, `-`; default ''.
   */
  idPrefix?: string;
  /**
   * The index of this generator's first worker in a cell split over shard processes (src/load/shards.ts
   * passes each shard its offset): a worker's id header and its place in the mix's order use
   * offset + its own index, so they are those of the merged cell; records keep the shard's own index
   * (mergeShards adds the offset). Default 0.
   */
  workerIndexOffset?: number;
}

/** Options of one open-loop (arrival-rate) cell (src/load/open-loop.ts). */
export interface OpenLoopOptions {
  url: string;
  path: string;
  method: HttpMethod;
  body?: string;
  headers?: Record<string, string>;
  /** λ, requests scheduled per second */
  arrivalRatePerS: number;
  /** the schedule's length, s (requests are scheduled in [0, durationS)) */
  durationS: number;
  /** `constant`: request i at i/λ; `poisson`: exponential gaps with mean 1/λ from a seeded generator */
  arrival: 'constant' | 'poisson';
  /** seed of the Poisson schedule (ignored for constant) */
  seed: number;
  /** most requests in flight at once (undici Pool connections); a send beyond it is refused and counted */
  maxInFlight: number;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** a send later than this after its intended time (ms) counts in `summary.lateSends` */
  lateSendThresholdMs?: number;
  signal?: AbortSignal;
  /** a weighted request mix, as LoadOptions.mix; arrival i sends `mix[order[i % order.length]]` */
  mix?: MixEntry[];
  /** as LoadOptions.idHeader; arrival i carries `o-<i>` */
  idHeader?: string;
  /** as LoadOptions.idPrefix: arrival i carries `<idPrefix>o-<i>` */
  idPrefix?: string;
}

/** Subscribers of a run (all optional; called synchronously on the hot path — keep them cheap). */
export interface LoadEvents {
  /** a measured request finished (success or error) */
  request?(record: RequestRecord): void;
  /** measured requests finished so far, of `total` = c * n */
  progress?(done: number, total: number): void;
}

/** Cost of the load generator itself during the measured phase (t0 .. last request). */
export interface LoadgenStats {
  /** event-loop delay beyond the sampling interval, P99 and max, ms; null when no sample */
  eventLoopLagP99Ms: number | null;
  eventLoopLagMaxMs: number | null;
  /** this process's CPU time (user + system) / wall time, percent of one core */
  cpuPct: number | null;
}

export interface LoadResult {
  /** epoch ms of t0 (the start of the measured phase, after warm-up) */
  t0EpochMs: number;
  /** true when `signal` stopped the run; records then hold only the requests that finished before */
  aborted: boolean;
  /** measured requests in completion order */
  records: RequestRecord[];
  /** open loop: scheduled requests never sent (refused by the in-flight cap), in schedule order */
  unsent?: UnsentRecord[];
  summary: LoadSummary;
  warmup: { count: number; errors: number };
  loadgen: LoadgenStats;
  /**
   * in-process driver only: the SUT refused the job (HTTP 4xx other than 408/409/429: a parameter out
   * of its range), with its reason; measuring it again cannot succeed (the pipeline stops the run
   * with it, and does not offer the cell for --resume)
   */
  refused?: { status: number; message: string };
  /** in-process driver only: the job's own measurements (src/load/in-process.ts); stored as CellResult.job */
  job?: InProcessJobResult;
  /**
   * in-process driver, a job with a study's own answer (InProcessJob.answer): the answer its check
   * accepted, not read by the engine; stored as CellResult.sweep
   */
  jobAnswer?: StudyJobAnswer;
  /** websocket driver: the messages and drops (stored in the requests file's `ws` block) */
  ws?: WsRawRecords;
  /** a thread dump the driver took itself (the websocket driver's progress watchdog), ms after t0; stored as the cell's thread dump */
  stallDump?: { raw: string; atMs: number };
  /** `--shards K` > 1: each shard process's figures (src/load/shards.ts); stored as CellResult.shards */
  shards?: ShardStat[];
}

/** One shard's figures in a cell (CellResult.shards). */
export interface ShardStat {
  /** 0..K-1 */
  shard: number;
  /** its workers, and the index of its first worker in the merged cell */
  workers: number;
  workerOffset: number;
  /** its t0 minus the cell's (the earliest shard's) t0, ms: how far apart the shards started */
  t0OffsetMs: number;
  /** its measured requests, and those that succeeded */
  count: number;
  ok: number;
  /** count / (its last end − its first start), req/s; null with fewer than one request or a zero span */
  sendRatePerS: number | null;
  /** the shard process's own generator figures */
  loadgen: LoadgenStats;
}

/**
 * A study's own answer of an in-process job (InProcessJob.answer, src/types/study.ts): a JSON object
 * the engine carries from the driver to the cell file without reading it. The study that asked for
 * it owns its type and its check (e.g. study 003's sweep level, src/studies/003/sweep.ts).
 */
export type StudyJobAnswer = { [field: string]: unknown };

/**
 * The answer of the SUT's `POST /bench/job/async-burst` (sut/…/AsyncBurstJob.java), study 004's
 * `@Async` burst: T calls of an `@Async` method sleeping S ms on Boot's `applicationTaskExecutor`.
 * Times are ms from the first submit (System.nanoTime in the SUT). `peakPoolThreads`/`peakQueue` are
 * null for an executor without a pool (SimpleAsyncTaskExecutor); `peakQueue` is sampled every
 * `queuePollIntervalMs` (a lower bound). A job stored here ended in time (`timedOut` false,
 * `completed` = `tasks`): any other answer is a failed cell, never stored as a result.
 */
export interface InProcessJobResult {
  job: string;
  tasks: number;
  sleepMs: number;
  timeoutMs: number;
  completed: number;
  timedOut: boolean;
  /** the bean the tasks were submitted to, by name, and its class */
  executorBean: string;
  executorClass: string;
  /** first submit → the loop's last submit returned, ms */
  submitMs: number;
  /** first submit → last task's end, ms */
  makespanMs: number | null;
  /** first submit → first task's start, ms */
  firstStartMs: number | null;
  /** tasks / submit time, per s */
  submitRatePerS: number;
  peakPoolThreads: number | null;
  peakQueue: number | null;
  queuePollIntervalMs: number;
  /** tasks running at once, counted by the tasks (exact) */
  peakRunningTasks: number;
  /** the JVM's peak live platform threads during the job */
  peakPlatformThreads: number;
  /** tasks that ran on a virtual / platform thread (Thread.isVirtual()) */
  virtualTasks: number;
  platformTasks: number;
  distinctPlatformThreads: number;
  /** tasks per thread-name prefix (trailing digits stripped), e.g. {"task-": 100000} */
  tasksByThreadNamePrefix: Record<string, number>;
  rssBeforeBytes: number | null;
  rssAfterBytes: number | null;
}

/** The raw WebSocket records of a cell (src/types/load.ts WsRawRecords), columns of one length each. */
export interface CompactWs {
  messages: { conn: number[]; seq: number[]; scheduledMs: number[]; receiveMs: number[]; queueMs: number[] };
  drops: { conn: number[]; atMs: number[]; code: number[]; cause: string[] };
}
