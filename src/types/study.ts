/**
 * A study as data: what one source document compares (variants), what it measures (scenarios and
 * the load driver of each), how long (profiles), what it published (typed rows) and how its report
 * reads (template folder + conclusion rules). The engine (config, pipeline, analysis, report) works
 * for any study; nothing outside a study's own folder (src/studies/<id>/, templates/<id>/) names a
 * study's variants, levels or figures.
 */
import type { ResolvedOptions } from './run.ts';

import type { ExecutorSpec, Variant } from './variant.ts';
export type { ExecutorSpec, Variant } from './variant.ts';
export { EXECUTOR_KINDS, EXECUTOR_KIND_INFO, executorInfo, type ExecutorKindInfo } from './variant.ts';

/**
 * The load driver kinds, one key per driver module: each module of src/load/drivers/ declares its
 * own (`declare module '../../types/study.ts' { interface DriverKinds { 'my-kind': true } }`), and
 * src/load/driver.ts DRIVERS must then register it, or the program does not compile. Built:
 * `closed-loop-http` (c workers, n requests each), `open-loop-http` (arrivals at a rate: the
 * scenario's levels are then arrival rates in req/s), `in-process` (a timed job the SUT runs
 * itself and reports on) and `websocket` (held connections, each pushed to at an interval).
 */
export interface DriverKinds {}
export type DriverKind = keyof DriverKinds;

/** The HTTP request each closed-loop worker sends, path relative to the SUT's origin. */
export interface ScenarioRequest {
  method: 'GET' | 'POST';
  path: string;
  /** JSON text (sent with content-type application/json), or absent */
  body?: string;
}

/**
 * What a cell measures. The SUT side is a bean behind `/api/scenario/{id}` (or the study's own route).
 */
export interface Scenario {
  id: string;
  label: string;
  driver: DriverKind;
  /** the request of every worker (closed-loop-http) or every arrival (open-loop-http) under these options */
  request(o: ResolvedOptions): ScenarioRequest;
  /**
   * L: how long one call holds an executor thread by construction, ms (the mock's fixed latency,
   * a sleep). The bounds of src/compute/theory/bounds.ts use it; recorded per cell as `latencyMs`.
   */
  serviceTimeMs(o: ResolvedOptions): number;
  /** the scenario calls the mock LLM (the pipeline starts the mock either way) */
  usesMock: boolean;
  /**
   * the scenario queries PostgreSQL: the pipeline starts one for the run (src/adapters/db/postgres.ts, or uses
   * `--db-url`), seeds its `orders` table and passes `bench.db.url`, `bench.db.user` and
   * `bench.db.password` to every SUT JVM of the run. Absent: no database.
   */
  usesDb?: boolean;
  /**
   * the scenario calls the mock's plain delay route (`GET /delay?ms=`): the pipeline passes the mock's
   * origin as `bench.http.base-url` to the SUT. Absent: not passed.
   */
  usesDelayRoute?: boolean;
  /**
   * the id of the SUT scenario bean the request reaches (sut/…/Scenario.java `id()`), checked
   * against `/bench/info` `scenarios` after each SUT start (src/pipeline/run.ts, sutMismatches);
   * absent: not checked
   */
  sutScenario?: string;
  /**
   * `in-process` scenarios only: the SUT job the driver starts once per cell of `variant` (the
   * block's effective variant; its deadline may depend on it) at the cell's `level`
   * (src/load/in-process.ts; study 003's sweep reads the level as its thread count).
   * In such a cell the level is the number of jobs at once (1), `requestsPerWorker` is the tasks the
   * job submits (T) and `serviceTimeMs` the blocking time of one task (S).
   */
  job?(o: ResolvedOptions, variant: Variant, level: number): InProcessJob;
  /**
   * The cell's minimum duration by theory, s, when the generic closed-loop one
   * (src/compute/theory/bounds.ts cellMinDurationS) does not describe the scenario (an in-process job).
   * The plan uses it for the cell's planned time and the mid-cell thread dump.
   */
  cellTheoreticalS?(exec: ExecutorSpec, o: ResolvedOptions, level: number): number;
  /**
   * true: every cell gets its own fresh SUT JVM (a block per cell, id `<variant>-c<level>-r<repeat>`),
   * so one level's heap, JIT and GC history never carry into the next (study 003's sweep, where a
   * level may run the JVM out of memory). Default: one JVM per (variant, repeat).
   */
  freshJvmPerCell?: boolean;
  /**
   * false: no thread dump at the highest level (a dump of 500,000 virtual threads is hundreds of MB
   * and stalls the level it measures). Default: dumped.
   */
  threadDump?: boolean;
  /**
   * `closed-loop-http` only: after each block's warm-up, one worker sends `requests` requests back to
   * back before the cells (the "alone probe", src/pipeline/run.ts), and the run records what one
   * request costs with no other request in the system (RunManifest.aloneProbes): the response time
   * at N = 1 that the asymptotic bounds of a closed system use (study 002's executor, DB-pool and
   * lock bounds). Absent: no probe.
   */
  aloneProbe?: { requests: number };
  /**
   * SUT properties this scenario's JVM takes from the JVMs of the run that started before it:
   * `sut` is the run's `manifest.sut` so far (block id → `/bench/info`, in the order the blocks
   * ran). The pipeline adds them to the block's JVM (src/pipeline/run.ts blockSutProperties; the
   * variant's own properties win on a clash). E.g. study 002's `cpu-fib` passes the fib n the
   * first JVM calibrated, so every JVM of the run runs the same work. Absent: none. Pure.
   */
  sutPropertiesFromRun?(sut: Readonly<Record<string, unknown>>): Readonly<Record<string, string>>;
}

/** A job the SUT runs itself (`POST <path>?tasks=…&sleepMs=…&timeoutMs=…`), see src/load/in-process.ts. */
export interface InProcessJob {
  /** the SUT's job route, e.g. `/bench/job/async-burst` */
  path: string;
  /** tasks the job submits (T) */
  tasks: number;
  /** how long each task blocks, ms (S) */
  sleepMs: number;
  /** the job's own deadline, ms (theory × 2 + a margin); a job past it is a failed cell */
  timeoutMs: number;
  /**
   * what the job answers. Absent: the engine's own job result (`async-burst`, src/types/run.ts
   * InProcessJobResult, checked by src/load/in-process.ts jobProblem, stored as CellResult.job).
   * Present: a study's own answer, which this check accepts or not; an accepted answer is stored
   * as it came (CellResult.sweep) and read only by the study (e.g. study 003's sweep level, stored
   * whatever its `outcome`: a level that ran out of memory is that level's outcome, and the run
   * goes on to the next level); a refused one is a failed request.
   */
  answer?: JobAnswerCheck;
  /** the query parameters sent instead of `tasks`/`sleepMs`/`timeoutMs` (a `vt-sweep` job: op, threads, durationMs…) */
  params?: Readonly<Record<string, string | number>>;
}

/** A study's check of its own job answer (InProcessJob.answer). */
export interface JobAnswerCheck {
  /** Why `body` (the parsed JSON of a 2xx answer to `job`) is not an answer to store, or null when it is one. Pure. */
  problem(job: InProcessJob, body: unknown): string | null;
  /**
   * The terminal's line for a cell with this answer (an answer `problem` accepted), shown at the
   * cell's end in place of the HTTP figures, which an in-process job does not have: e.g. study
   * 003's ops/s against its N/L bound. Absent: the generic HTTP line. Pure.
   */
  describe?(job: InProcessJob, answer: unknown): string;
}

/** Profile values: every option a run resolves, except the names of the study and the profile. */
export type ProfileValues = Omit<ResolvedOptions, 'study' | 'profile' | 'variantSpecs'>;

export interface Profile {
  name: string;
  description: string;
  values: ProfileValues;
  /**
   * the JDK major version this profile exists to test (e.g. 21 for study 000's `jdk21` follow-up);
   * absent: any JDK the SUT runs on. A run of the profile on a host without exactly this major
   * stops before anything starts with "not tested here" (src/adapters/jvm/jdk.ts requireProfileJdk, exit 3).
   */
  requiresJdkMajor?: number;
}

/**
 * One published figure, typed. `setupIdentity` names why the value holds by construction of the
 * setup (a phrase key `identity.<kind>`), so it is shown apart and never counted as a reproduction.
 */
export interface PublishedRow {
  /** stable id, used in the report and its tests, e.g. `<variant>.<metric>.<level>` */
  id: string;
  metric: string;
  scenario: string | null;
  variant: string | null;
  level: number | null;
  unit: string;
  value: number | string;
  /** relative tolerance for "reproduced", 0..1; null = not a comparison (setup facts) */
  tolerance: number | null;
  /** set when the figure holds by construction of the setup (phrase `identity.<kind>`): shown apart, never counted */
  setupIdentity: string | null;
  /**
   * set when no run can test the figure: a recommendation, or a value the source did not measure
   * (phrase `reason.<key>` says which): its verdict is "not testable here" whatever the run
   */
  untestable?: string;
}

/** A (baseline, candidate) pair the report compares, by variant id. */
export interface Comparison {
  baseline: string;
  candidate: string;
}

export interface Study {
  id: string;
  title: string;
  /** the source document, relative to the shared seeds folder, e.g. `seeds/000_*.txt` (cited by the report's provenance) */
  source: string;
  /** the page of this repository that summarises the source in our own words, e.g. `docs/studies/000.md` (shown by `list`); absent: `source` is shown */
  sourceSummary?: string;
  variants: readonly Variant[];
  scenarios: readonly Scenario[];
  /** first = default */
  profiles: readonly Profile[];
  comparisons: readonly Comparison[];
  published: readonly PublishedRow[];
  /** folder with report.{en,zh}.md and phrases.{en,zh}.json (absolute path) */
  templateDir: string;
  /** readers of older run formats this study wrote (see LegacyReader) */
  legacyReaders?: readonly LegacyReader[];
}

/**
 * Reads the files of a run written in an older schema version and returns them in the current
 * one (in memory; the files stay as they are). A study that wrote runs in an old format owns the
 * reader of that format (src/adapters/store/migrate.ts dispatches on `schemaVersion`). Inputs are the raw
 * parsed JSON; outputs must validate against the current schema.
 */
export interface LegacyReader {
  /** the schema version this reader reads */
  version: number;
  /**
   * true: this reader also reads runs whose manifest names no study (`options.study` absent: formats
   * written before studies existed). A run that names a study is read only by that study's readers.
   */
  forRunsWithoutStudy?: boolean;
  /**
   * set on a reader built by src/adapters/store/migrate.ts that runs `base` (a study's reader of an older
   * version) and then the engine's readers up to the current version; absent on a study's own readers
   */
  base?: LegacyReader;
  manifest(raw: Record<string, unknown>): unknown;
  /** a cell file (CellFile or CellResult form); `manifest` is the already upgraded manifest */
  cell(raw: Record<string, unknown>, manifest: import('./run.ts').RunManifest): unknown;
  summary(raw: Record<string, unknown>, manifest: import('./run.ts').RunManifest): unknown;
  /** a `threaddumps/<cellId>.summary.json` file */
  threadDump(raw: Record<string, unknown>, manifest: import('./run.ts').RunManifest): unknown;
}
