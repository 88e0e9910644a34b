/**
 * The on-disk run format (`runs/<runId>/`), schema version 3. The report stage reads only these.
 * Version 1 (study 000 before the study engine: `mode` fixed|virtual instead of `variant`, one pool
 * size for the run) is read through src/adapters/store/migrate.ts and study 000's reader; version 2 (before
 * open-loop load: no intended start time per request) through the engine's reader (migrate.ts V2_READER).
 * Version 3 adds: `CompactRequests.intendedStartMs` (every request's intended send time),
 * `CompactRequests.unsent` (scheduled requests never sent), `LoadSummary.openLoop`, and the open-loop
 * options (`durationS`, `arrival`, `arrivalSeed`, `maxInFlight`).
 *
 * runs/<runId>/
 *   manifest.json                     RunManifest
 *   cells/<cellId>.json               CellFile: CellResult without `samples` (cellId = `${variant}-c${concurrency}-r${repeat}`)
 *   cells/<cellId>.samples.json.gz    SutSample[] (gzip of JSON; a long fixed-pool cell has thousands)
 *   cells/<cellId>.requests.json.gz   CompactRequests (gzip of JSON), written in the encoded layout
 *                                     vtbench-requests/2 (src/adapters/store/requests-codec.ts); older plain files are read as they are
 *   threaddumps/<cellId>.summary.json ThreadDumpSummary
 *   threaddumps/<cellId>.json.gz      raw HotSpot JSON thread dump
 *   logs/*.log                        child process output
 *   summary.json                      RunSummary (rebuilt from the cells after each cell)
 *
 * Rules: units in names; "not computable" is null, never 0; every write is atomic.
 */
import type { LoadSummary, Percentiles, ErrorClass, ShardStat, StudyJobAnswer, InProcessJobResult, CompactWs } from './load.ts';
export type { StudyJobAnswer, InProcessJobResult, CompactWs } from './load.ts';
import type { SutSample, SutInfo } from './sut-api.ts';
import type { MockStats } from './mock.ts';
import type { ExecutorSpec, Variant } from './variant.ts';

export const SCHEMA_VERSION = 3;

/** A variant id of the run's study (src/types/study.ts Variant.id). */
export type VariantId = string;
export type StartMode = 'together' | 'ramp';

/** Resolved, frozen options of a run (profile + overrides). */
export interface ResolvedOptions {
  /** the study (src/studies/<id>) */
  study: string;
  profile: string;
  /** the scenario of the study every cell measures (a variant with its own `scenario` measures that one instead) */
  scenario: string;
  levels: number[];
  requestsPerWorker: number;
  /**
   * levels and requests per worker of the cells of one scenario, by scenario id, for a run whose
   * variants carry their own scenarios (Variant.scenario, study 002): a CPU scenario holds far fewer
   * requests per second than an I/O one. A scenario without an entry uses `levels` and
   * `requestsPerWorker`. `--levels` or `--requests-per-worker` on the command line drop this map
   * (the flags then apply to every cell). Absent in runs of one scenario.
   */
  scenarioLevels?: Record<string, ScenarioLevels>;
  repeats: number;
  warmupS: number;
  /** the mock LLM's fixed latency per call, ms */
  latencyMs: number;
  /** variant ids to run, in run order (a subset of the study's) */
  variants: VariantId[];
  /** threads of the one platform-pool variant selected (`--pool-size`); null = the variant's own (the study's) */
  poolSize: number | null;
  /** queue capacity of the one platform-pool variant selected (`--queue-capacity`); null = the variant's own */
  queueCapacity: number | null;
  /** the effective variants (overrides applied), same order as `variants`: a run describes itself */
  variantSpecs: Variant[];
  start: StartMode;
  /** ramp length, ms (only used when start = ramp) */
  rampMs: number;
  jvmFlags: string[];
  mockPort: number;
  sutPort: number;
  /**
   * address the SUT (`server.address`) and the mock listen on, e.g. `127.0.0.1`. Absent in runs
   * recorded before the option existed (their SUT listened on every interface, the mock on 127.0.0.1).
   */
  bindAddress?: string;
  samplerIntervalMs: number;
  pinnedThresholdMs: number;
  /** error rate above which a cell is flagged, 0..1 */
  errorFlagThreshold: number;
  /** client timeouts, ms */
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  connectTimeoutMs: number;
  /**
   * open-loop scenarios (driver `open-loop-http`): the measured phase of every cell, s; the cell's
   * level is then its arrival rate λ (req/s), not a worker count. Absent in closed-loop runs and in
   * runs before schema version 3.
   */
  durationS?: number;
  /** open loop: `constant` (every 1/λ s) or `poisson` (exponential gaps, seeded by `arrivalSeed`) */
  arrival?: 'constant' | 'poisson';
  /** open loop, `poisson`: seed of the arrival schedule (the same seed gives the same schedule) */
  arrivalSeed?: number;
  /** open loop: most requests in flight at once (one connection each); a send beyond it is refused and counted */
  maxInFlight?: number;
  /**
   * faults the mock injects (its flags `--error-rate`, `--error-status`, `--reset-rate`, `--seed`;
   * mock/src/config.ts), set by a profile (study 000's `faults`); absent: none. Each rate is a
   * probability 0..1 per call.
   */
  mockFaults?: MockFaults;
  /**
   * when the mock sends a stream's response headers (its `--stream-headers`, mock/src/config.ts): at
   * once (`arrival`, the mock's default; absent = that) or with the first token (`first-token`). A
   * profile value (study 000's streaming follow-up): OkHttp's dispatcher holds a streaming call only
   * until its response headers arrive.
   */
  mockStreamHeaders?: 'arrival' | 'first-token';
  /**
   * `--sut-url`: the SUT is external, started by someone else at this origin (e.g.
   * `http://10.0.0.2:19080`); the run neither starts nor stops it and reads every SUT figure over
   * HTTP (`/bench/*`). Absent: the run starts a SUT JVM per block (src/pipeline/external.ts).
   */
  sutUrl?: string;
  /**
   * `--shards K`: each closed-loop cell's workers split over K generator processes on this host
   * (src/load/shards.ts); absent or 1: one generator process, as before.
   */
  shards?: number;
  /**
   * `--mock-url`: the mock LLM is external at this origin (without `/v1`); the run reads its
   * figures over HTTP (`/stats`) only. Absent: the run starts the mock itself.
   */
  mockUrl?: string;
  /**
   * `--isolate-cpus`: the SUT JVM runs on `sutCpus` and the harness (this process: the load
   * generator and its shards; the mock and PostgreSQL, which inherit its CPUs) on `harnessCpus`, two
   * disjoint sets (kernel cpulist format, e.g. `1` and `0`), set with `taskset`. The bounds then use
   * the SUT's CPUs. Absent: no isolation (every process may run on every CPU), as in every run before it.
   */
  cpuIsolation?: CpuIsolation;
}

/** Disjoint CPU sets of the SUT and of the harness (ResolvedOptions.cpuIsolation), cpulist strings. */
export interface CpuIsolation {
  sutCpus: string;
  harnessCpus: string;
}

/** The cells of one scenario (ResolvedOptions.scenarioLevels). */
export interface ScenarioLevels {
  /** closed-loop workers per cell, ascending */
  levels: number[];
  requestsPerWorker: number;
}

/** The mock's injected faults of a run (ResolvedOptions.mockFaults). */
export interface MockFaults {
  /** probability of an error answer with `errorStatus`, at once */
  errorRate: number;
  /** HTTP status of the error answers: one the mock accepts (mock/src/faults.ts ERROR_STATUSES; the mock refuses another at start) */
  errorStatus: number;
  /** probability of a TCP reset after the drawn latency */
  resetRate: number;
  /**
   * probability the call is never answered (the mock holds it until the client gives up); absent = 0
   * (runs before hangs were driven from a profile). Only with a client timeout on every variant: a hung
   * call otherwise holds its worker for the 600 s timeouts.
   */
  hangRate?: number;
  /** seed of the mock's fault draws (the same seed gives the same sequence of faults) */
  seed: number;
}

/**
 * The host a run measured on (RunManifest.host). `os` holds the kernel release (`uname -r`, e.g.
 * `Linux 6.8.0-45-generic`), `kernel` its build string (`uname -v`). The fields after `memoryBytes`
 * are absent in runs before they were recorded (issue 33).
 */
export interface HostInfo {
  os: string;
  kernel: string;
  arch: string;
  cpuModel: string;
  /** logical CPUs the OS lists (os.cpus().length) */
  cores: number;
  memoryBytes: number;
  /** the cgroup limits the harness (and every process it starts, which inherit them) ran under */
  cgroup?: CgroupLimits;
  /** the kernel's clock source (/sys/devices/system/clocksource/clocksource0/current_clocksource, e.g. `tsc`); null when unreadable */
  clockSource?: string | null;
}

/**
 * CPU quota and memory limit of the harness's cgroup (HostInfo.cgroup): cgroup v2 `cpu.max` and
 * `memory.max`, or v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us` and `memory.limit_in_bytes`, as
 * mounted at /sys/fs/cgroup (a container sees its own). Null: no limit (or unreadable: `version` null).
 */
export interface CgroupLimits {
  version: 1 | 2 | null;
  /** quota / period: the CPUs' worth of time the cgroup may use per period; null = no quota */
  cpuQuotaCores: number | null;
  /** the quota and period as read, µs; null = no quota */
  cpuQuotaUs: number | null;
  cpuPeriodUs: number | null;
  /** bytes; null = no limit */
  memoryLimitBytes: number | null;
}

/** The CPUs one process the run started (or the harness itself) may run on (RunManifest.affinity). */
export interface ProcessAffinity {
  pid: number;
  /** `Cpus_allowed_list` of /proc/<pid>/status as read right after the start, e.g. `0-1` or `1`; null when unreadable */
  cpus: string | null;
}

export interface RunManifest {
  schemaVersion: number;
  runId: string;
  tool: { name: 'vtbench'; version: string; gitCommit: string | null; gitDirty: boolean | null };
  options: ResolvedOptions;
  startedAt: string;
  endedAt: string | null;
  status: 'running' | 'complete' | 'interrupted' | 'failed';
  /** last error message when status = failed */
  error: string | null;
  host: HostInfo;
  versions: { node: string; undici: string; jdk: string | null; jdkVendor: string | null; springBoot: string | null; springAi: string | null };
  /**
   * the PostgreSQL the run's database scenarios used (Scenario.usesDb): own server or `--db-url`, its
   * version and settings. Absent in runs without a database scenario.
   */
  db?: DbInfo;
  /** /bench/info of each SUT JVM block, keyed `${variant}-r${repeat}` */
  sut: Record<string, SutInfo>;
  /** planned cell order (ids) */
  cellOrder: string[];
  /** planned theoretical duration, s */
  plannedDurationS: number;
  /** what was done to the run after it was measured (e.g. summaries re-derived), oldest first */
  notes?: string[];
  /**
   * cells that could not be measured (a component died during them, or their result was unusable),
   * oldest first. Such a cell has no `cells/<id>.json` (its partial evidence may be in
   * `cells/<id>.failed.json`, never read as a result); `--resume` measures it anew and removes its
   * entry (with a line in `notes`).
   */
  failedCells?: { cellId: string; cause: string; atIso: string }[];
  /**
   * the components someone else started (`--sut-url`, `--mock-url`): their origins. The run did not
   * start, stop or signal them; nothing about them was read from /proc (no pid, no process CPU of
   * theirs on this host), only what they answered over HTTP. Absent: every component was local.
   */
  external?: ExternalComponents;
  /**
   * a shard folder of a multi-host run (`run.mjs shard`, one pod of the Kubernetes Indexed Job that
   * `run.mjs k8s` writes): this generator ran shard `index` of `of` of every cell's workers against the
   * external SUT (src/pipeline/pod-shard.ts). Such a folder is an input of `run.mjs merge`, not a result on
   * its own. Absent in every other run.
   */
  shard?: ShardOfRun;
  /**
   * a run merged from shard folders (`run.mjs merge`, src/pipeline/merge-shards.ts): each shard
   * folder it was built from, by shard index. Absent in every other run.
   */
  mergedShards?: MergedShard[];
  /**
   * per SUT JVM block (keyed as `sut`): one request at a time, after the block's warm-up and before
   * its cells (Scenario.aloneProbe). Absent in runs whose scenarios have no probe, and in every run
   * recorded before the probe existed.
   */
  aloneProbes?: Record<string, AloneProbe>;
  /**
   * the CPUs each local process of the run may run on, by role (`harness`: this process, which runs
   * the load generator; `mock`; `postgres`; `sut-<block>`), read from /proc right after it started.
   * Absent in runs before it was recorded.
   */
  affinity?: Record<string, ProcessAffinity>;
}

/**
 * What one request of a block's scenario cost with no other request in the system: one closed-loop
 * worker, `requests` back to back, after the warm-up (RunManifest.aloneProbes). The response time at
 * N = 1 is the total service demand D of the asymptotic bounds of a closed system, X(N) ≤ N / D
 * (Lazowska et al., "Quantitative System Performance", 1984, ch. 5); the execution and the
 * Server-Timing steps are how long one request holds its thread, its DB connection, its lock.
 * Means over the successes, ms; null when there were none (or the SUT sent no such header).
 */
export interface AloneProbe {
  /** planned */
  requests: number;
  /** sent (fewer when the probe's send deadline cut it short); absent in runs before it was recorded (= requests there) */
  sent?: number;
  ok: number;
  e2eMeanMs: number | null;
  e2eP50Ms: number | null;
  execMeanMs: number | null;
  /** Server-Timing steps other than queue and exec (e.g. `db`, `user`, `logistics`), mean, ms */
  stepMeanMs: Record<string, number>;
  /** ISO time the probe ended */
  atIso: string;
}

/** Which shard of a multi-host run a shard folder holds (RunManifest.shard). */
export interface ShardOfRun {
  /** 0..of-1 (the pod's `JOB_COMPLETION_INDEX`) */
  index: number;
  /** K: the shards of the run (`--shards`) */
  of: number;
  /** the generator's host name (a pod's name) */
  hostname: string;
}

/** One shard folder a merged run was built from (RunManifest.mergedShards). */
export interface MergedShard {
  index: number;
  /** the shard folder's own run id and status */
  runId: string;
  status: 'running' | 'complete' | 'interrupted' | 'failed';
  hostname: string;
  host: HostInfo;
  startedAt: string;
  endedAt: string | null;
}

/** Origins of the external components of a run (RunManifest.external); a local component is absent. */
export interface ExternalComponents {
  sut?: string;
  mock?: string;
}

/**
 * A flag raised when the host, not the code under test, may have set the limit. One unit per code
 * for `value` and `threshold` (listed in src/compute/analysis/flags.ts). Runs written before `sut-cpu`
 * existed carry that share under `host-cpu` with a threshold ≤ 1 (read as `sut-cpu`: upgradeLegacyFlag).
 */
export interface CellFlag {
  code: 'loadgen-lag' | 'loadgen-late-sends' | 'loadgen-cpu' | 'host-cpu' | 'host-other-cpu' | 'sut-cpu' | 'scheduler-delay' | 'concurrency-below-target' | 'errors-above-threshold' | 'component-disagrees';
  message: string;
  value: number;
  threshold: number;
}

export interface PinnedDelta {
  thresholdMs: number;
  total: number;
  /** raw JFR `pinnedReason` texts; group them by kind with src/compute/analysis/pinned-kind.ts */
  byReason: Record<string, number>;
  submitFailed: number;
  /**
   * both reads (before and after the cell) were taken after the SUT's JFR stream had delivered
   * everything committed before them, so late-delivered pins are in the right cell. Absent in
   * runs recorded before the SUT waited for delivery (their counts may lag by up to ~1 s of events).
   */
  flushed?: boolean;
}

export interface CellResult {
  schemaVersion: number;
  cellId: string;
  variant: VariantId;
  scenario: string;
  /** the variant's executor as run (bounds are computed from it) */
  executor: ExecutorSpec;
  concurrency: number;
  repeat: number;
  requestsPerWorker: number;
  /** L: the scenario's service time per call, ms (Scenario.serviceTimeMs) */
  latencyMs: number;
  start: StartMode;
  startedAt: string;
  /** epoch ms of the load generator's t0 */
  t0EpochMs: number;
  durationMs: number;
  load: LoadSummary;
  /** SUT samples taken during the cell */
  samples: SutSample[];
  /**
   * the mock's `/stats`. With `scope: 'cell'` the pipeline reset them (`POST /stats/reset`) right
   * before the cell's load, `before` is the snapshot just after that reset and `after` describes the
   * cell alone. Without `scope` (older runs) both are cumulative since the mock started: the peak is
   * then not a per-cell figure.
   */
  mock: { before: MockStats | null; after: MockStats | null; scope?: 'cell' };
  pinned: PinnedDelta | null;
  /** `--shards K` > 1: each generator shard's figures (workers, requests, send rate, start skew, its CPU and lag) */
  shards?: ShardStat[];
  /** the SUT JVM that served the cell (optional, absent in runs before it): a resumed block can span JVMs */
  sutPid?: number;
  /**
   * CPU time the other processes of the host used during the cell's load, ms, from /proc
   * (src/adapters/process/proc-cpu.ts): the mock (`mock`) and the PostgreSQL server with its backends
   * (`db`); null where unreadable. Recorded for scenarios that call the mock's delay route or a
   * database (Scenario.usesDelayRoute, usesDb), so the CPU bound can count every process that works
   * for a request; absent otherwise and in runs before it.
   */
  componentCpuMs?: { mock: number | null; db: number | null };
  /**
   * the same components' cumulative CPU, ms, sampled about every 250 ms during the load, with one
   * sample right before it starts and one right after it ends (src/adapters/process/cpu-sampler.ts), so the
   * CPU bound takes them over the same window as the SUT's `samples` (cellCpu). Recorded with
   * `componentCpuMs`, plus the load generator's own process CPU (null with `--shards K` > 1).
   * Absent in runs before it.
   */
  componentCpuSamples?: ComponentCpuSample[];
  loadgen: { eventLoopLagP99Ms: number | null; eventLoopLagMaxMs: number | null; cpuPct: number | null; hostCpuPct: number | null };
  flags: CellFlag[];
  threadDump: ThreadDumpSummary | null;
  /**
   * in-process cells only (scenario driver `in-process`, src/load/in-process.ts): what the SUT's job
   * measured inside its JVM, as it answered. Absent in every other cell and in runs before it.
   */
  job?: InProcessJobResult;
  /**
   * in-process cells whose job has a study's own answer (InProcessJob.answer): that answer as the
   * SUT gave it and the study's check accepted it (LoadResult.jobAnswer), opaque to the engine; the
   * study reads it with its own type (study 003's sweep level: src/studies/003/sweep.ts, whatever its
   * `outcome`). The slot keeps the name `sweep` because the runs already stored (study 003, its first
   * user) name it so: a rename would need a schema version and a reader of the old one. Absent in
   * every other cell.
   */
  sweep?: StudyJobAnswer;
  /**
   * HdrHistograms of the cell's successful requests (src/compute/stats/hdr.ts): a compact, mergeable
   * summary beside the per-request records, which stay the contract. Absent in runs before it.
   */
  hdr?: CellHistograms;
  /**
   * share of the whole machine's CPU (0..1, all cores) that processes other than this run's used during
   * the cell's load: /proc/stat busy time less the CPU of this harness and every process it started
   * (src/compute/analysis/other-cpu.ts). Null when /proc was unreadable; absent in runs before it and
   * when a component was external (`--sut-url`, `--mock-url`, `--db-url`: it would count as "other").
   */
  otherCpuShare?: number | null;
}

/**
 * A cell's HdrHistograms (CellResult.hdr): each the V2 compressed base64 encoding of one histogram
 * (whole µs, `significantDigits` significant decimal digits); null when no successful request carried
 * that value (e.g. no `Server-Timing` queue entry).
 */
export interface CellHistograms {
  unit: 'us';
  significantDigits: number;
  e2e: string | null;
  queue: string | null;
  exec: string | null;
}

/**
 * Cumulative CPU of the processes beside the SUT at one instant, ms (differences only are meaningful):
 * the load generator's process (`process.cpuUsage()` user + system; null when it runs in shard child
 * processes), the mock's and the own PostgreSQL's process trees (src/adapters/process/proc-cpu.ts; null for
 * an external, absent or unreadable one).
 */
export interface ComponentCpuSample {
  tEpochMs: number;
  loadgenMs: number | null;
  mockMs: number | null;
  dbMs: number | null;
}

/** The samples file of a cell. */
export type SutSamples = SutSample[];

/** A cell as stored on disk: the samples live in `samplesFile` (gzip), read back by RunStore.readCell. */
export interface CellFile extends Omit<CellResult, 'samples'> {
  /** path relative to the run folder, e.g. `cells/fixed-c500-r1.samples.json.gz` */
  samplesFile: string;
  samplesCount: number;
}

/** Why a scheduled open-loop request was never sent: the in-flight cap (`maxInFlight`) was reached. */
export type UnsentReason = 'in-flight-cap';

/** Per-request data in columns (same index = same request); ms rounded to 3 decimals. */
export interface CompactRequests {
  /** closed loop: the worker; open loop: 0 (one arrival process) */
  worker: number[];
  /** closed loop: index within the worker; open loop: index in the arrival schedule */
  seq: number[];
  /**
   * when the request was meant to be sent, ms after t0 (closed loop: its worker's start slot, then
   * its previous answer; open loop: its arrival time). Absent in runs before schema version 3.
   */
  intendedStartMs?: number[];
  /** when it was actually handed to the HTTP client, ms after t0 */
  startMs: number[];
  e2eMs: number[];
  /** 0 when no response */
  status: number[];
  /** '' for success */
  error: (ErrorClass | '')[];
  /** null when the server sent no Server-Timing */
  queueMs: (number | null)[];
  execMs: (number | null)[];
  /**
   * the SUT's `Server-Timing` `permit` entry: ms the call waited for a bulkhead permit
   * (`bench.bulkhead.permits` > 0, part of execMs); null for a request without one. Present only in
   * cells where at least one request carried it (study 000's bulkhead follow-up, issue 16).
   */
  permitMs?: (number | null)[];
  /**
   * a stream's timings from the SUT's `Server-Timing` (scenario `llm-stream`, sut/…/LlmStreamService.java),
   * ms from the call to the first token (`ttft`), and the mean and largest gap between consecutive tokens
   * (`gapmean`, `gapmax`); null for a request without them (failed, or fewer than two tokens for the gaps).
   * Present only in cells where at least one request carried them (study 000's streaming follow-up).
   */
  ttftMs?: (number | null)[];
  gapMeanMs?: (number | null)[];
  gapMaxMs?: (number | null)[];
  /**
   * the other `Server-Timing` entries (beyond queue, exec, permit, ttft, gapmean, gapmax) by name, ms, one column each
   * (null for a request without that entry), e.g. study 002's `db`, `user`, `logistics`. Present
   * only in cells where some request carried one.
   */
  timingMs?: Record<string, (number | null)[]>;
  /** error answers' own codes (RequestRecord.errorKind), null for the rest; present only when some answer had one */
  errorKind?: (string | null)[];
  /**
   * the index of the request of the cell's mix each request sent (RequestRecord.req; a target run's
   * request file, issue 32); present only in cells measured with a mix
   */
  req?: number[];
  /**
   * open loop: the scheduled requests that were never sent (same index = same request), with their
   * intended send time and why; sent + unsent = scheduled. Absent for closed-loop cells.
   */
  unsent?: { seq: number[]; intendedStartMs: number[]; reason: UnsentReason[] };
  /**
   * WebSocket cells (driver `websocket`): every message received (the requests above are the
   * connections' handshakes) and every connection that dropped; ms after t0, 3 decimals. Absent otherwise.
   */
  ws?: CompactWs;
}

export interface ThreadDumpSummary {
  file: string;
  takenAtMs: number;
  threadCount: number;
  /** groups by name prefix (digits stripped), state and top frame */
  groups: { namePrefix: string; virtual: boolean; state: string; topFrame: string; count: number }[];
  /**
   * threads whose stack contains a socket read: platform threads named with the cell's variant's
   * thread-name prefix (its pool), virtual threads, all others
   */
  inSocketRead: { poolThreads: number; virtual: number; other: number };
  containers: { name: string; threadCount: number }[];
}

/** median / min / max / n over the repeats of one (variant, level). */
export interface Agg {
  median: number | null;
  min: number | null;
  max: number | null;
  n: number;
  values: (number | null)[];
}

export interface SummaryRow {
  variant: VariantId;
  concurrency: number;
  repeats: number;
  boundRps: number;
  throughput: { wholeRunRps: Agg; steadyStateRps: Agg };
  e2eMs: { p50: Agg; p95: Agg; p99: Agg };
  queueMs: { p50: Agg; p95: Agg; p99: Agg };
  execMs: { p50: Agg; p95: Agg; p99: Agg };
  errors: { count: Agg; rate: Agg };
  /** percentiles over all requests of all repeats together */
  pooled: { e2eMs: Percentiles | null; queueMs: Percentiles | null; execMs: Percentiles | null };
  pinnedTotal: Agg;
  flags: CellFlag[];
}

export interface RunSummary {
  schemaVersion: number;
  runId: string;
  aggregate: 'median of repeats';
  percentileDefinition: string;
  rows: SummaryRow[];
  missingCells: string[];
}

/** What the manifest records of the database (`RunManifest.db`). */
export interface DbInfo {
  /** `own`: started by the harness for this run; `external`: `--db-url` */
  kind: 'own' | 'external';
  /** JDBC URL without credentials */
  url: string;
  user: string;
  /** `SHOW server_version` */
  serverVersion: string;
  /** the settings that bound the study's figures, as the server reports them (`SHOW …`) */
  settings: Record<string, string>;
  /** own server: the binaries' folder; external: null */
  binDir: string | null;
  /** rows of `orders` after seeding */
  ordersRows: number;
}
