/**
 * The report hook of a study (Study.report): what the generic report engine cannot know about one
 * study. The engine builds the model over any variants and the study's comparisons (rows, bounds,
 * comparisons, published-vs-measured verdicts, flags, pinning, thread dumps, resources); the hook
 * adds the study's own analysis (conclusion rules, follow-ups) once, in the pure model stage, and
 * renders the study's own template sections from the model. A study without a hook renders with
 * the generic placeholders only (templates/README.md).
 */
import type { TopLevelSpec } from 'vega-lite';
import type { ExecutorSpec, PublishedRow as PublishedFigure, Study, Variant } from '../types/study.ts';
import type { Agg, CellFlag, CellResult, CompactRequests, RunManifest, RunSummary, ThreadDumpSummary, VariantId } from '../types/run.ts';
import type { SutInfo } from '../types/sut-api.ts';
import type { Raw } from './format.ts';
import type { OpenLoopCellModel } from './open-loop.ts';
import type { Provenance, RowProv, RowSource } from './provenance.ts';
import type { AnswerBlock } from './answer-types.ts';

/**
 * How one published figure is measured and explained in this run. Every field is optional; the
 * engine's defaults: the generic metric of the row (`throughputRps`, `e2eP95Ms`, `e2eP99Ms`,
 * `queueWaitP95Ms`, `executionP95Ms`, `errorRate` of the (variant, level) row), the row's tolerance.
 */
export interface FigureCheck {
  /** the measured value; `row` is the model row of the figure's (variant, level), null when the figure has none */
  measured?: (row: RowModel | null) => number | null;
  tolerance?: Tolerance;
  /** reasons shown whatever the verdict */
  always?: Reason[];
  /** reasons that may explain a miss: shown only when the verdict is "not reproduced" */
  expected?: Reason[];
  /**
   * the figure has its own comparability rule instead of the study's gate (e.g. run totals: only
   * comparable when the plan is the study's). Non-empty: "not testable here" with these reasons, the
   * measured value and its difference still shown; empty: compared.
   */
  ownGate?: Reason[];
  /**
   * the source contradicts itself on this figure: non-empty, the verdict is "inconsistent as
   * published" with these reasons, before any gate (no run can reproduce a figure its own source
   * rules out). Each reason must rest on what the source states, or name the assumption it adds.
   */
  inconsistent?: Reason[];
  /** how `measured` is computed (src/report/provenance.ts); default: the engine metric's, else the cells of the figure's (variant, level) */
  prov?: import('./provenance.ts').Provenance;
}

/** Analysis of a study over the generic model (pure; computed once, in the model stage). */
export interface StudyAnalysis {
  conclusions: ConclusionRow[];
  followUps: FollowUp[];
}

/**
 * The four verdicts of a published figure or a study's statement (issue 31): `reproduced` (close to
 * the published value under its stated relative tolerance), `not reproduced`, `inconsistent as
 * published` (the source's own statements rule the figure out, with the arithmetic), `not testable
 * here` (not comparable in this run, or a recommendation / a figure the source did not measure).
 */
export type Verdict = 'reproduced' | 'not reproduced' | 'inconsistent as published' | 'not testable here';

/** The verdicts in the order reports count them. */
export const VERDICTS: readonly Verdict[] = ['reproduced', 'not reproduced', 'inconsistent as published', 'not testable here'];

export interface ConclusionRow {
  id: string;
  kind: 'proven' | 'not-proven';
  verdict: Verdict;
  /** evidence values, named; renderers phrase them */
  evidence: Record<string, number | string | null>;
  /**
   * set when the statement holds by construction of the setup (e.g. a makespan against its own
   * ⌈T/N⌉ × S): its verdict checks the setup and is never counted as a reproduction of the study
   */
  identity?: string;
}

/** A follow-up experiment of the study: phrase `fu.<id>`, and the command that runs it (null = not runnable by this tool yet). */
export interface FollowUp { id: string; command: string | null }

/**
 * The report hook of one study. `D` is the type of the study's derived data (hook `derive`): the
 * model's `derived` field, which the study's other hooks read instead of recomputing it.
 */
export interface StudyReportHook<D = unknown> {
  /**
   * the study's own data derived from the generic model (its rows, bounds…), computed once in the
   * model stage (src/report/model.ts buildModel) before `gate`, `figure` and `analyse`, and kept as
   * `model.derived` for every later hook (sections, charts). Pure. Absent: `derived` is null.
   */
  derive?(model: DeriveInput): D;
  /**
   * Reasons why this run cannot be compared with the study's published figures at all (a
   * different service time, pool size…). Non-empty: every figure without `ownGate` is "not testable
   * here" with reason `notComparable` listing these.
   */
  gate?(model: BaseModel<D>): Reason[];
  /** how one published figure is measured and explained (see FigureCheck); `cells` = the run's cells */
  figure?(row: PublishedFigure, model: BaseModel<D>, cells: readonly CellResult[]): FigureCheck;
  /** the study's own analysis: conclusion rules and follow-ups */
  analyse?(model: BaseModel<D>): StudyAnalysis;
  /**
   * the study's own template placeholders, rendered from the model (values may override a generic
   * placeholder of the same name). Pure: model + phrases in, Markdown out.
   */
  sections?(model: ReportModel<D>, ctx: RenderContext): Record<string, string | Raw>;
  /**
   * the study's own charts (vega-lite specs), appended to the engine's; each fills `{{fig:<name>}}`
   * and is written to `figures/<name>.svg`. `t` are the report's chart labels (its language), `phrases`
   * the report's phrases (engine and study, its language: a chart's own titles). Pure.
   */
  charts?(model: ReportModel<D>, t: ChartLabels, phrases: Readonly<Record<string, string>>): ChartSpec[];
  /**
   * the study's answer block (src/report/answer-types.ts), computed once in the model stage after
   * `analyse`; `generic` is the engine's (src/report/answer.ts, from the study's comparisons) that
   * the study may refine or replace. Pure. Absent: the generic block.
   */
  answer?(model: BaseModel<D>, generic: AnswerBlock): AnswerBlock;
}

/** The model before the study's analysis (what `gate`, `figure` and `analyse` see); `D` = the study's derived data. */
export type BaseModel<D = unknown> = Omit<ReportModel<D>, 'conclusions' | 'followUps' | 'answer'>;

/** What a study's `derive` sees: the generic model before the published figures are evaluated. */
export type DeriveInput = Omit<BaseModel, 'published' | 'derived'>;

/**
 * A study as the report engine sees it: its definition (src/types/study.ts, all the engine below
 * the report needs) and its part of the report. `report` is the comparability gate and the
 * measurement of its published figures, its conclusion rules, follow-ups and own template sections;
 * absent, the report uses the generic placeholders only (templates/README.md). The study registry
 * (src/studies/index.ts) holds these; the layers below the report take them as plain `Study`.
 */
export interface StudyPlugin extends Study {
  report?: StudyReportHook;
}

/** A reason or expected difference, phrased by the renderer from templates (`reason.<key>`). */
export interface Reason { key: string; v?: Record<string, string | number>; parts?: Reason[] }

export type Outcome = 'wins' | 'ties' | 'loses';

/**
 * relative and absolute tolerance: a value is within it when |diff| <= max(abs, rel × |reference|).
 * For a published figure the engine caps `abs` at ABS_FLOOR_MAX_SHARE × |published| (src/report/model.ts
 * figureTolerance): `statedAbs` then keeps the floor the study stated, `abs` the one applied.
 */
export interface Tolerance { rel: number; abs: number; statedAbs?: number }

export interface RowModel {
  variant: VariantId;
  /** the variant's executor as run (bounds are computed from it) */
  executor: ExecutorSpec;
  concurrency: number;
  repeats: number;
  /**
   * the cell's throughput bound, req/s: closed loop min(c, N)/L or c/L; open loop (the level is an
   * arrival rate λ) min(λ, N/L) or λ (src/compute/theory/open-loop.ts), as src/compute/analysis/summary.ts computed it
   */
  boundRps: number;
  /**
   * true when the level is an arrival rate λ in req/s (the cells' scenario is driven by
   * `open-loop-http`): the closed-loop theory below (waves, queue-wait theory with c, Little's law
   * with c) is then null, never computed
   */
  openLoop: boolean;
  /** open loop only: the executor queue's growth max(0, λ − N/L), tasks/s (0 for virtual threads); null in closed loop */
  queueGrowthPerS: number | null;
  /** lock-step waves bound for this plan's n and start (null for ramp start, and for an open-loop row) */
  wavesWholeRunRps: number | null;
  /** ⌈c/N⌉ (1 for virtual threads); null for an open-loop row */
  waves: number | null;
  wholeRunRps: Agg;
  steadyRps: Agg;
  pctOfBound: number | null;
  pctOfWavesBound: number | null;
  e2eP50Ms: Agg;
  e2eP95Ms: Agg;
  e2eP99Ms: Agg;
  queueP95Ms: Agg;
  execP95Ms: Agg;
  execP99Ms: Agg;
  /** closed-loop queue-wait theory (lock-step waves, spread arrivals), ms; null for an open-loop row */
  theoryQueueP95Ms: number | null;
  theoryQueueMeanMs: number | null;
  theoryE2eP95Ms: number | null;
  errorCount: Agg;
  errorRate: Agg;
  /** pooled means over all successful requests of all repeats; overhead = e2e - queue - exec */
  means: { e2eMs: number; queueMs: number; execMs: number; overheadMs: number; n: number } | null;
  /** Little's law: X = c / mean(E2E) vs the measured throughput (steady-state if known) */
  little: { predictedRps: number; measuredRps: number; measuredDefinition: 'steady-state' | 'whole-run'; ratio: number } | null;
  pinnedTotal: Agg;
  /** resources: per-cell peak/mean from the sampler, median over repeats */
  resources: {
    peakRssBytes: Agg; peakHeapUsedBytes: Agg; meanCpuPct: Agg; peakPlatformThreads: Agg;
    peakInFlight: Agg; peakQueue: Agg; peakExecutorActive: Agg; samples: number;
  };
  /** concurrent calls that reached the upstream (the mock), per cell, median over repeats; see {@link UpstreamRow} */
  upstream: UpstreamRow;
  /** where the row's numbers come from: its summary.json row (null when recomputed) and its cells in repeat order */
  source: RowSource;
  /** how each printed value of the row was computed (src/report/provenance.ts) */
  prov: RowProv;
}

/**
 * Upstream concurrency of one (variant, level): never the mock's cumulative gauge.
 * - `mock`: every cell has per-cell mock statistics (`mock.scope === 'cell'`: the pipeline reset the
 *   mock's statistics right before the cell's load), so `peak` is the mock's own peak in flight.
 * - `derived`: legacy cells (mock statistics cumulative since the mock started); `peak` is the lower
 *   bound and `atMost` the upper bound of concurrent executions derived from the per-request
 *   timings (src/report/upstream.ts), not measured at the mock; both capped at `allowed` (one
 *   upstream call per executor task).
 * - `none`: neither is available (no per-cell statistics and no per-request data).
 */
export interface UpstreamRow {
  source: 'mock' | 'derived' | 'none';
  /** measured peak (mock) or derived lower bound (derived), median over repeats */
  peak: Agg;
  /** derived upper bound, median over repeats; null unless source = derived */
  atMost: Agg | null;
  /** what the executor allows at once: min(c, N) on a pool of N, c with one thread per task */
  allowed: number;
}

/** One level of one (baseline, candidate) comparison of the study. Outcomes are the candidate's. */
export interface LevelComparison {
  concurrency: number;
  baseline: RowModel;
  candidate: RowModel;
  throughputRatio: number | null;
  throughput: Outcome | null;
  e2eP95Ratio: number | null;
  e2eP95: Outcome | null;
  queueP95: Outcome | null;
  execP95RelDiff: number | null;
  /** execution P95 the same on both sides within LAT_TOL */
  execSame: boolean | null;
  /** candidate execution P95 above the baseline's by more than LAT_TOL */
  execSlowerCandidate: boolean;
  /** the candidate runs one thread per task and its queue-wait P95 (median of repeats) is above the scheduler-delay threshold */
  candidateQueueDelayed: boolean;
}

/** A (baseline, candidate) pair of the study (Study.comparisons) over the levels both have. */
export interface PairComparison {
  baseline: VariantId;
  candidate: VariantId;
  levels: LevelComparison[];
  highest: LevelComparison | null;
  lowest: LevelComparison | null;
}

/**
 * Evidence that the host CPU, not the code under test, set a limit: one-thread-per-task cells whose
 * queue-wait P95 exceeds max(10 ms, 5 % of L) (theory: 0; the carrier threads were busy), cells
 * whose SUT process CPU was at or above 0.9 of the machine in at least 10 % of their samples
 * (sutCpuSaturation, the rule of the pipeline's `sut-cpu` flag), and flags of the run other than
 * errors (any code, including ones this version does not know).
 */
export interface Saturation {
  /** virtual-thread scheduler parallelism = carrier threads (the SUT's report, else the host's cores) */
  carriers: number;
  queueThresholdMs: number;
  cpuThreshold: number;
  /** share of a cell's samples at or above cpuThreshold that makes it CPU-saturated (0..1) */
  cpuShareThreshold: number;
  schedulerDelay: { cellId: string; concurrency: number; queueP95Ms: number }[];
  /** CPU-saturated cells: peak processCpuLoad (0..1), samples at or above cpuThreshold and their share (0..1) */
  sutCpu: { cellId: string; variant: VariantId; concurrency: number; peakCpu: number; samplesAbove: number; share: number }[];
  hostFlags: { cellId: string; flag: CellFlag }[];
  /** any of the three */
  saturated: boolean;
}

/** A published figure of the study (Study.published) beside this run's value, with its verdict. */
export interface PublishedVerdict {
  id: string;
  /** the figure's metric (phrase `fig.<metric>`) */
  metric: string;
  /** null = not one variant's figure (totals, all cells of a kind) */
  variant: VariantId | null;
  concurrency: number | null;
  unit: string;
  published: number;
  measured: number | null;
  diff: number | null;
  diffPct: number | null;
  tolerance: Tolerance;
  verdict: Verdict;
  reasons: Reason[];
  /**
   * Set when the figure holds by construction of the setup (PublishedRow.setupIdentity, phrase
   * `identity.<kind>`): its verdict checks the setup, it is shown apart and never counted as a reproduction.
   */
  identity: string | null;
  /**
   * where the published and the measured value come from: the study's published row (its source
   * document and src/studies/<id>/published.ts), and the measured value's provenance (the row's
   * metric for an engine metric, the hook's FigureCheck.prov, else the cells of the figure's
   * (variant, level) as the study's hook reads them); null measured = nothing measured
   */
  prov: { published: Provenance; measured: Provenance | null };
}

export interface ThreadDumpEvidence {
  cellId: string; variant: VariantId; executor: ExecutorSpec; concurrency: number; dump: ThreadDumpSummary; peakExecutorActive: number | null; peakQueue: number | null;
  /** the benchmark executor's thread-name prefix (the variant's, from the run's variantSpecs) */
  benchmarkPrefix: string;
  /** threads of the benchmark executor in the dump (groups with that prefix) */
  benchmarkThreads: number;
  /** virtual threads that are not the benchmark's (JDK pollers and the like), by name prefix */
  otherVirtual: { namePrefix: string; count: number }[];
  /** containers holding at least one thread; `benchmark` marks the executor holding the benchmark's threads */
  containers: { name: string; threadCount: number; benchmark: boolean }[];
  /** containers with no thread, left out of the table */
  emptyContainers: number;
}

export interface PinRule { events: number | null; requests: number; thresholdMs: number | null; allowed: number; notable: boolean | null }

export interface PinningRow { variant: VariantId; concurrency: number; thresholdMs: number | null; total: number | null; byReason: Record<string, number>; cells: number; cellsWithData: number }

export interface SeriesPoint { cellId: string; variant: VariantId; tS: number; metric: 'inFlight' | 'queue' | 'platformThreads' | 'heapMiB' | 'rssMiB' | 'cpuPct'; value: number }

/**
 * The SUT JVMs that served each block (variant, repeat), from the cells' `sutPid`: a block is split when
 * a resume started a new JVM part-way. Null when the run's cells do not record it (older runs).
 */
export interface JvmBlocks { blocks: string[]; split: { blockId: string; jvms: number }[] }

/** The report's model; `D` = the study's derived data (its hook's `derive`, null without one). */
export interface ReportModel<D = unknown> {
  runId: string;
  /** the run's study (its id, title, variants, published figures, report hook) */
  study: StudyPlugin;
  /** JVMs per block, see {@link jvmBlocks} */
  jvmBlocks: JvmBlocks | null;
  isFixture: boolean;
  manifest: RunManifest;
  sutInfo: SutInfo | null;
  mockModel: string | null;
  percentileDefinition: string;
  summarySource: 'file' | 'recomputed';
  gaps: string[];
  levels: number[];
  /** variants with results, in run order (manifest.options.variants), others after by id */
  variants: VariantId[];
  /** the run's effective variants by id (manifest.options.variantSpecs; the study's definition only for a variant with results the manifest lacks) */
  variantSpecs: ReadonlyMap<VariantId, Variant>;
  /** L: the scenario's service time per call, ms (the cells' `latencyMs`) */
  latencyMs: number;
  requestsPerWorker: number;
  totals: {
    plannedPerRepeatPerVariant: number; plannedTotal: number; plannedCells: number; presentCells: number;
    /** requests of the cells whose driver sends requests (closed and open loop); a job call or a connection's handshake is not one */
    count: number; ok: number; failed: number; errorRate: number | null;
    /** cells that ran a job in the SUT (one call each, not counted as requests) */
    jobCells: number;
    /**
     * cells that held WebSocket connections (their handshakes are not counted as requests): connections
     * asked for and opened, and the share of the expected messages delivered in the window (0..1, min and
     * max over the cells of the largest level); null without such cells
     */
    held: { cells: number; asked: number; opened: number; topLevel: number; deliveredMin: number; deliveredMax: number } | null;
  };
  /** the warm-up of each SUT JVM (once per variant and repeat, at the highest level, not recorded); null when warmupS = 0 */
  warmups: { variant: VariantId; workers: number; requestsPerWorker: number; theoreticalS: number }[] | null;
  rows: RowModel[];
  /** the study's comparisons whose two variants both have results, in the study's order */
  pairs: PairComparison[];
  rampFraction: number;
  published: PublishedVerdict[];
  threadDumps: ThreadDumpEvidence[];
  pinning: PinningRow[];
  /**
   * pinned events per variant and reason kind (src/compute/analysis/pinned-kind.ts: JDK 25 puts class names in
   * `pinnedReason`, the kind has `<class>` instead); `reasons` = the raw texts, as recorded
   */
  pinningReasons: { variant: VariantId; kind: string; count: number; reasons: string[] }[];
  pinRule: PinRule;
  /**
   * how the cells' pinned counts were read: `flushed` cells read both counts after the SUT's JFR
   * stream had delivered everything committed before the read (PinnedDelta.flushed); the others
   * (runs recorded before the SUT waited, or a wait that timed out) may have a pin of about the
   * last second of a cell counted in the next cell, or lost after a JVM's last cell
   */
  pinReads: { cellsWithData: number; flushed: number };
  flags: { cellId: string; flag: CellFlag }[];
  saturation: Saturation;
  /** the study's conclusion rules applied to this run (hook `analyse`; empty without one) */
  conclusions: ConclusionRow[];
  followUps: FollowUp[];
  charts: {
    /** SUT samples of the highest level of each variant (first repeat), at most pointsPerVariant(SERIES_MAX_POINTS, variants) per cell and metric (downsampleMinMax) */
    series: SeriesPoint[];
    distribution: { variant: VariantId; concurrency: number; pct: number; e2eMs: number }[];
    /**
     * E2E of the requests of the highest level of each variant (first repeat present) against their
     * send time, s after the cell's t0; at most pointsPerVariant(SCATTER_MAX_POINTS, variants) per variant (downsampleMinMax over
     * send order: each bucket's fastest and slowest request, so the extremes are never dropped);
     * `total` is the cell's successful requests
     */
    scatter: {
      variant: VariantId; concurrency: number; cellId: string; points: { sendS: number; e2eMs: number }[]; total: number;
      /** the requests sent in the cell's first SCATTER_EARLY_SHARE of its send span (where a pool's waves build up), downsampled the same way; `earlyS` is that span's end */
      early: { sendS: number; e2eMs: number }[]; earlyS: number; earlyTotal: number;
    }[];
    /**
     * E2E percentiles per variant and level over the pooled successful requests of all repeats
     * (R type 7); a percentile p is given only when the pool has at least 1 / (1 − p) requests
     */
    percentiles: { variant: VariantId; concurrency: number; p: number; e2eMs: number; n: number }[];
  };
  /** the run's open-loop (arrival-rate) cells (src/report/open-loop.ts); null when it has none */
  openLoop: OpenLoopCellModel[] | null;
  /**
   * the run's cells as loaded (valid ones only), for a study hook's own analysis of what the
   * generic rows do not carry (e.g. an in-process cell's `job`, study 004)
   */
  cells: readonly CellResult[];
  /** the cells' per-request columns by cell id (as loaded), for a study hook's own per-request figures (study 000's bulkhead permit wait) */
  requests: ReadonlyMap<string, CompactRequests>;
  /** the study's derived data (StudyReportHook.derive), computed once in the model stage; null when the study has none */
  derived: D;
  /**
   * the answer block (src/report/answer-types.ts): the study's hook `answer` over the engine's
   * (src/report/answer.ts genericAnswer), computed once in the model stage after `analyse`
   */
  answer: AnswerBlock;
}

export interface LoadedRun {
  runDir: string;
  /** the run's study: `manifest.options.study` among the registered studies, or the one the caller passed */
  study: StudyPlugin;
  manifest: RunManifest;
  /** cells in planned order (cellOrder), unplanned ones after, by id */
  cells: CellResult[];
  requests: Map<string, CompactRequests>;
  summary: RunSummary;
  summarySource: 'file' | 'recomputed';
  gaps: string[];
  /** the schema version the run was written in when it was read through a study's upgrade reader (src/adapters/store/migrate.ts); absent or null when current */
  upgradedFrom?: number | null;
}

export interface Templates {
  lang: 'en' | 'zh';
  report: string;
  phrases: Record<string, string>;
}

export interface FigureRef { name: string; title: string }

/** What a study's `sections` hook gets to phrase its own placeholders the way the engine does. */
export interface RenderContext {
  t: Templates;
  /** phrase `key` filled with `v` (Raw) */
  P: (key: string, v?: Record<string, string | Raw>) => Raw;
  /** phrase `key` filled with `v`, as Markdown text */
  s: (key: string, v?: Record<string, string | Raw>) => string;
  /** a variant's name: phrase `variant.<id>`, else the variant's label */
  variantName: (id: VariantId) => string;
  verdict: (v: Verdict) => Raw;
  /** sentences after each other: a space in English, nothing after a Chinese full stop */
  sentenceSep: string;
  join: (parts: (string | Raw)[]) => Raw;
  statusText: (status: string) => string;
  /** a theoretical value: an exact zero is written "0", not "0.000 ms" */
  msT: (x: number | null | undefined) => string;
  /** one value when the range is a single value as printed, else "a–b" */
  span: (a: number, b: number, f: (x: number) => string) => string;
  /** the latency tolerance as printed ("5 % / 20 ms") */
  latTol: string;
  reasonText: (r: Reason) => Raw;
  /** baseline vs candidate at one level: throughput, E2E P95/P99, queue wait, execution, errors, with theory */
  cmpTable: (cmp: LevelComparison | null) => Raw;
  /** phrase `edge.note` for this plan */
  edgeNote: () => string;
  /** a generic placeholder's value by name (a study may reuse one inside its own), undefined for an unknown name */
  generic: (name: string) => string | Raw | undefined;
  /**
   * a printed value with its provenance (src/report/provenance.ts): the escaped text and its footnote
   * reference; a text without a digit has none
   */
  pv: (text: string, prov: Provenance | null | undefined) => Raw;
}

export interface ChartSpec { name: string; title: string; spec: TopLevelSpec }

export interface ChartLabels {
  throughput: string; e2e: string; phases: string; timeseries: string; distribution: string;
  concurrency: string; rps: string; latencyMs: string; ms: string; timeS: string; percentile: string; mode: string;
  series: string; measured: string; bound: string; wavesBound: string; theoryP95: string; phase: string;
  queue: string; exec: string; overhead: string; metric: string; value: string;
  inFlight: string; queueSize: string; platformThreads: string; heapMiB: string; rssMiB: string; cpuPct: string;
  /** subtitle when values ≤ 0 were left out of a log scale; `{{n}}` = how many */
  droppedLog: string;
  /** the open-loop queue chart (only for runs with open-loop cells) */
  openLoopQueue: string; queueTasks: string; arrivalRate: string; queueTheory: string;
  /** the latency scatter: title, x axis, subtitle (`{{shown}}`, `{{total}}`, `{{c}}`) */
  scatter: string; sendTimeS: string; scatterNote: string; scatterWhole: string; scatterEarly: string;
  /** the percentile spectrum: title, x axis */
  spectrum: string; percentileLog: string;
  /** the phases chart's subtitle (bars = means, ticks = P95) and the tick series */
  phasesNote: string; p95: string;
}
