/**
 * The report model: everything the report says, as typed numbers and labels, computed once from a
 * loaded run and its study. Pure (no I/O, no clock, no locale). Renderers format; they do not compute.
 *
 * Generic over studies: rows per (variant, level) with the bounds of each cell's executor
 * (src/compute/theory/bounds.ts), comparisons for the study's (baseline, candidate) pairs, the study's
 * published figures with verdicts, flags, pinning, thread dumps, resources. What is particular to
 * one study (its comparability gate, how it measures a figure the engine does not know, its
 * conclusion rules and follow-ups) comes from the study's report hook (src/report/types.ts).
 */
import { openLoopModel } from './open-loop.ts';
import { queueGrowthPerS } from '../compute/theory/open-loop.ts';
import type { CellResult, CompactRequests, RunManifest, SummaryRow, ThreadDumpSummary, VariantId } from '../types/run.ts';
import { executorInfo, type ExecutorSpec, type PublishedRow as PublishedFigure, type Study, type Variant } from '../types/study.ts';
import { groupPinnedReasons } from '../compute/analysis/pinned-kind.ts';
import {
  littleThroughputRps, plannedRequestsPerRepeat, queueWaitMeanSpreadMs, queueWaitP95WavesMs,
  rampWholeRunFraction, servers, waves, wavesWholeRunRps,
} from '../compute/theory/bounds.ts';
import type { LoadedRun } from './load.ts';
import { driverOf, type DriverLevel } from '../load/driver.ts';
import { EXIT, VtbenchError } from '../types/errors.ts';
import { agg, maxOf, meanOf, medianOf } from './stats.ts';
import { successfulColumns } from '../compute/analysis/summary.ts';
import { pushAll } from '../compute/stats/extremes.ts';
import { downsampleMinMax } from './downsample.ts';
import { quantileSorted } from 'simple-statistics';
import { warmupPlan } from '../plan/plan.ts';
import { deriveUpstream } from './upstream.ts';
import { schedulerDelayThresholdMs, SUT_CPU_SATURATED as PIPELINE_SUT_CPU_SATURATED, SUT_CPU_SATURATED_SHARE, sutCpuSaturation, upgradeLegacyFlag } from '../compute/analysis/flags.ts';
import type { BaseModel, FigureCheck, StudyReportHook, Verdict } from './types.ts';
import { genericAnswer } from './answer.ts';
import { cellFile, rowProvenance, type Provenance, type RowMetric, type RowSource } from './provenance.ts';
export type { Reason, Outcome, Tolerance, RowModel, UpstreamRow, LevelComparison, PairComparison, Saturation, PublishedVerdict, ThreadDumpEvidence, PinRule, PinningRow, SeriesPoint, JvmBlocks, ReportModel } from './types.ts';
import type { Reason, Outcome, Tolerance, RowModel, UpstreamRow, LevelComparison, PairComparison, Saturation, PublishedVerdict, ThreadDumpEvidence, PinRule, PinningRow, SeriesPoint, JvmBlocks, ReportModel } from './types.ts';

export type { ConclusionRow, FollowUp, Verdict } from './types.ts';
/** relative band inside which two measurements count as a tie */
export const TIE_BAND = 0.05;
export const MIB = 1024 * 1024;
/** tolerance of a latency comparison: the larger of 5 % and 20 ms ("the same" checks) */
export const LAT_TOL: Tolerance = { rel: 0.05, abs: 20 };
/** two latencies count as the same when they differ by at most max(rel × the first, abs) */
export function sameLatency(a: number, b: number, tol = LAT_TOL): boolean {
  return Math.abs(b - a) <= Math.max(tol.abs, Math.abs(a) * tol.rel) + 1e-9;
}
/** MiB rounded to one decimal, as every table shows it */
export const mib1 = (bytes: number): number => Math.round((bytes / MIB) * 10) / 10;
/** candidate − baseline peak RSS in MiB, from the rounded values the report prints (so the text adds up) */
export function rssDeltaMiB(baselineBytes: number | null, candidateBytes: number | null): number | null {
  return baselineBytes === null || candidateBytes === null ? null : Math.round((mib1(candidateBytes) - mib1(baselineBytes)) * 10) / 10;
}
/** the executor runs each task on a virtual thread of its own (EXECUTOR_KIND_INFO tasksOnVirtualThreads: no queue, no pool) */
export const perTask = (e: ExecutorSpec): boolean => executorInfo(e).tasksOnVirtualThreads;

/** A cell's mock statistics as the run format has them; `scope: 'cell'` marks per-cell figures (optional, absent in schema-1 runs before it). */
type CellMock = CellResult['mock'] & { scope?: 'cell' };
/** The mock's statistics when they describe this cell alone, else null (cumulative figures are never used per cell). */
export function cellMockStats(x: CellResult): CellResult['mock']['after'] {
  const mock = x.mock as CellMock;
  return mock.scope === 'cell' ? mock.after : null;
}

/**
 * Upstream concurrency of the cells of one (variant, level): the mock's per-cell peak when every cell
 * has per-cell statistics, else bounds derived from the per-request timings, else none.
 */
export function upstreamRow(exec: ExecutorSpec, c: number, cells: readonly CellResult[], requests: ReadonlyMap<string, CompactRequests>): UpstreamRow {
  const allowed = servers(exec, c);
  const scoped = cells.map(cellMockStats);
  if (cells.length > 0 && scoped.every((x) => x !== null)) {
    return { source: 'mock', peak: agg(scoped.map((x) => x?.peakInFlight ?? null)), atMost: null, allowed };
  }
  const derived = cells.map((x) => { const r = requests.get(x.cellId); return r ? deriveUpstream(r) : null; });
  if (derived.some((x) => x !== null)) {
    // one upstream call per executor task, so no more calls run at once than the executor runs tasks:
    // the timing-derived upper bound is capped at `allowed` (it overshoots at wave edges, where one
    // thread's finish and its next task's start are too close to tell apart in the timings)
    const cap = (x: number | null | undefined): number | null => (x === null || x === undefined ? null : Math.min(x, allowed));
    return { source: 'derived', peak: agg(derived.map((x) => cap(x?.atLeast))), atMost: agg(derived.map((x) => cap(x?.atMost))), allowed };
  }
  return { source: 'none', peak: agg(cells.map(() => null)), atMost: null, allowed };
}

/** SUT process CPU (0..1 of the machine) at or above which a sample counts as saturated */
export const SUT_CPU_SATURATED = PIPELINE_SUT_CPU_SATURATED;
/** the pipeline's `scheduler-delay` threshold: max(10 ms, 5 % of L) */
export { schedulerDelayThresholdMs };

function dumpEvidence(x: CellResult, prefix: string): ThreadDumpEvidence {
  const dump = x.threadDump as ThreadDumpSummary;
  const isBench = (g: ThreadDumpSummary['groups'][number]) => g.namePrefix.startsWith(prefix);
  const benchmarkThreads = dump.groups.filter(isBench).reduce((a, g) => a + g.count, 0);
  const other = new Map<string, number>();
  for (const g of dump.groups) if (g.virtual && !isBench(g)) other.set(g.namePrefix, (other.get(g.namePrefix) ?? 0) + g.count);
  const nonEmpty = dump.containers.filter((c) => c.threadCount > 0);
  // the benchmark executor: the one container of the executor's type whose thread count equals the benchmark's threads
  const kind = executorInfo(x.executor).dumpContainer;
  const match = benchmarkThreads > 0 ? nonEmpty.filter((c) => kind.test(c.name) && c.threadCount === benchmarkThreads) : [];
  return {
    cellId: x.cellId, variant: x.variant, executor: x.executor, concurrency: x.concurrency, dump,
    peakExecutorActive: maxOf(x.samples.map((s) => s.executorActive)), peakQueue: maxOf(x.samples.map((s) => s.queueSize)),
    benchmarkPrefix: prefix, benchmarkThreads,
    otherVirtual: [...other.entries()].map(([namePrefix, count]) => ({ namePrefix, count })).sort((a, b) => b.count - a.count || (a.namePrefix < b.namePrefix ? -1 : 1)),
    containers: nonEmpty.map((c) => ({ name: c.name, threadCount: c.threadCount, benchmark: match.length === 1 && match[0] === c })),
    emptyContainers: dump.containers.length - nonEmpty.length,
  };
}

/**
 * The one pinning rule of the report: "no notable pinning" when the one-thread-per-task (virtual)
 * cells saw at most 1 pinned event per 100 requests.
 */
export const PIN_EVENTS_PER_REQUEST = 0.01;
/**
 * points per cell and metric of the time-series chart, and per variant of the latency scatter: a
 * panel is about 330–520 px wide, so 300 points (min/max of 150 buckets) are still a point per 2 px
 * or closer, and a report with several variants keeps its figures within the folder budget (issue 31:
 * whole report folder ≤ 4 MB); each bucket's extremes survive (downsampleMinMax)
 */
export const SERIES_MAX_POINTS = 300;
export const SCATTER_MAX_POINTS = 240;
/**
 * points of one chart over all its variants (per metric for the time series): a run of 5 variants
 * gets 160 per variant instead of the cap, so a chart's size does not grow with the variants
 * (pointsPerVariant)
 */
export const CHART_TOTAL_POINTS = 800;
/** The points per variant of a chart: the cap, or an equal share of CHART_TOTAL_POINTS when the variants are many; at least 20 (an even count for min/max pairs). */
export function pointsPerVariant(cap: number, variants: number): number {
  const share = Math.floor(CHART_TOTAL_POINTS / Math.max(1, variants));
  return Math.max(20, Math.min(cap, share - (share % 2)));
}
/** the share of a cell's send span the latency scatter also shows zoomed in */
export const SCATTER_EARLY_SHARE = 0.1;
/** the percentiles of the percentile chart (HdrHistogram style), as fractions */
export const SPECTRUM_PERCENTILES: readonly number[] = [0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 0.9999];

/** Blocks (`<variant>-r<repeat>`) and those served by more than one JVM; null without `sutPid` in every cell. */
export function jvmBlocks(cells: readonly CellResult[]): JvmBlocks | null {
  if (cells.length === 0 || cells.some((x) => x.sutPid === undefined)) return null;
  const pids = new Map<string, Set<number>>();
  for (const x of cells) {
    const id = `${x.variant}-r${x.repeat}`;
    if (!pids.has(id)) pids.set(id, new Set());
    pids.get(id)!.add(x.sutPid as number);
  }
  const blocks = [...pids.keys()].sort();
  return { blocks, split: blocks.filter((b) => pids.get(b)!.size > 1).map((blockId) => ({ blockId, jvms: pids.get(blockId)!.size })) };
}

/** A model row by (variant, level), or null. */
export function rowOf(model: Pick<ReportModel, 'rows'>, variant: VariantId, c: number): RowModel | null {
  return model.rows.find((r) => r.variant === variant && r.concurrency === c) ?? null;
}

/** The study's first comparison with results (the one a study's headline reads), or null. */
export function primaryPair(model: Pick<ReportModel, 'pairs'>): PairComparison | null {
  return model.pairs[0] ?? null;
}

function outcomeHigherBetter(cand: number | null, base: number | null): Outcome | null {
  if (cand === null || base === null || base <= 0) return null;
  const r = cand / base;
  return r > 1 + TIE_BAND ? 'wins' : r < 1 - TIE_BAND ? 'loses' : 'ties';
}
function outcomeLowerBetter(cand: number | null, base: number | null, absTieMs = 0): Outcome | null {
  if (cand === null || base === null) return null;
  if (Math.abs(cand - base) <= absTieMs) return 'ties';
  if (base <= 0) return cand <= 0 ? 'ties' : 'loses';
  const r = cand / base;
  return r < 1 - TIE_BAND ? 'wins' : r > 1 + TIE_BAND ? 'loses' : 'ties';
}

function cellResources(c: CellResult) {
  const s = c.samples;
  return {
    peakRssBytes: maxOf(s.map((x) => x.rssBytes)),
    peakHeapUsedBytes: maxOf(s.map((x) => x.heapUsedBytes)),
    meanCpuPct: (() => { const m = meanOf(s.map((x) => x.processCpuLoad)); return m === null ? null : m * 100; })(),
    peakPlatformThreads: maxOf(s.map((x) => x.platformThreads)),
    peakInFlight: maxOf(s.map((x) => x.inFlight)),
    peakQueue: maxOf(s.map((x) => x.queueSize)),
    peakExecutorActive: maxOf(s.map((x) => x.executorActive)),
  };
}

/**
 * Whether cells were loaded at an arrival rate (open loop): their scenario's driver in `study` has
 * `level` `rate` (src/load/driver-plan.ts DriverLevel), or (a scenario the study no longer defines) their load summary carries the
 * open-loop block that driver writes (src/load/open-loop.ts). Cells of one row share a scenario, so
 * one such cell decides.
 */
export function isOpenLoopCells(cells: readonly CellResult[], study: Pick<Study, 'scenarios'>): boolean {
  return cells.some((x) => driverLevel(study, x.scenario) === 'rate' || x.load.openLoop !== undefined);
}

/** The `level` of the driver of `study`'s scenario `scenarioId` (src/load/driver-plan.ts DriverLevel); null for a scenario the study no longer defines. */
export function driverLevel(study: Pick<Study, 'scenarios'>, scenarioId: string): DriverLevel | null {
  const sc = study.scenarios.find((x) => x.id === scenarioId);
  return sc ? driverOf(sc).level : null;
}

function buildRow(sr: SummaryRow, exec: ExecutorSpec, L: number, cells: CellResult[], m: RunManifest, requests: ReadonlyMap<string, CompactRequests>, study: Pick<Study, 'scenarios'>, source: RowSource, pdef: string): RowModel {
  const { requestsPerWorker: n, start } = m.options;
  const c = sr.concurrency;
  // an open-loop row: its level is an arrival rate, so no closed-loop theory is computed for it
  const ol = isOpenLoopCells(cells, study);
  const wb = !ol && start === 'together' ? wavesWholeRunRps(exec, c, L, n) : null;
  const pooled = sr.pooled;
  const means = pooled.e2eMs && pooled.queueMs && pooled.execMs
    ? { e2eMs: pooled.e2eMs.mean, queueMs: pooled.queueMs.mean, execMs: pooled.execMs.mean, overheadMs: pooled.e2eMs.mean - pooled.queueMs.mean - pooled.execMs.mean, n: pooled.e2eMs.n }
    : null;
  const steady = sr.throughput.steadyStateRps.median;
  const whole = sr.throughput.wholeRunRps.median;
  const measured = whole ?? steady;
  const predicted = ol ? null : littleThroughputRps(c, means?.e2eMs ?? null);
  const res = cells.map(cellResources);
  const qAgg = (k: keyof ReturnType<typeof cellResources>) => agg(res.map((r) => r[k]));
  const row: Omit<RowModel, 'prov'> = {
    variant: sr.variant,
    executor: exec,
    concurrency: c,
    repeats: sr.repeats,
    boundRps: sr.boundRps,
    openLoop: ol,
    queueGrowthPerS: ol ? queueGrowthPerS(exec, c, L) : null,
    wavesWholeRunRps: wb,
    waves: ol ? null : waves(exec, c),
    wholeRunRps: sr.throughput.wholeRunRps,
    steadyRps: sr.throughput.steadyStateRps,
    pctOfBound: whole === null ? null : (whole / sr.boundRps) * 100,
    pctOfWavesBound: whole === null || wb === null ? null : (whole / wb) * 100,
    e2eP50Ms: sr.e2eMs.p50,
    e2eP95Ms: sr.e2eMs.p95,
    e2eP99Ms: sr.e2eMs.p99,
    queueP95Ms: sr.queueMs.p95,
    execP95Ms: sr.execMs.p95,
    execP99Ms: sr.execMs.p99,
    theoryQueueP95Ms: ol ? null : queueWaitP95WavesMs(exec, c, L),
    theoryQueueMeanMs: ol ? null : queueWaitMeanSpreadMs(exec, c, L),
    theoryE2eP95Ms: ol ? null : queueWaitP95WavesMs(exec, c, L) + L,
    errorCount: sr.errors.count,
    errorRate: sr.errors.rate,
    means,
    little: predicted !== null && measured !== null
      ? { predictedRps: predicted, measuredRps: measured, measuredDefinition: whole !== null ? 'whole-run' : 'steady-state', ratio: measured / predicted }
      : null,
    pinnedTotal: sr.pinnedTotal,
    resources: {
      peakRssBytes: qAgg('peakRssBytes'), peakHeapUsedBytes: qAgg('peakHeapUsedBytes'), meanCpuPct: qAgg('meanCpuPct'),
      peakPlatformThreads: qAgg('peakPlatformThreads'), peakInFlight: qAgg('peakInFlight'), peakQueue: qAgg('peakQueue'),
      peakExecutorActive: qAgg('peakExecutorActive'), samples: cells.reduce((s, x) => s + x.samples.length, 0),
    },
    upstream: upstreamRow(exec, c, cells, requests),
    source,
  };
  return { ...row, prov: rowProvenance(row, source, { latencyMs: L, requestsPerWorker: n, levels: m.options.levels, percentileDefinition: pdef }) };
}

function compareLevel(c: number, b: RowModel, v: RowModel, L: number): LevelComparison {
  const bt = b.wholeRunRps.median;
  const vt = v.wholeRunRps.median;
  const be = b.e2eP95Ms.median;
  const ve = v.e2eP95Ms.median;
  const bx = b.execP95Ms.median;
  const vx = v.execP95Ms.median;
  return {
    concurrency: c, baseline: b, candidate: v,
    throughputRatio: bt && vt !== null ? vt / bt : null,
    throughput: outcomeHigherBetter(vt, bt),
    e2eP95Ratio: be && ve !== null ? ve / be : null,
    e2eP95: outcomeLowerBetter(ve, be),
    queueP95: outcomeLowerBetter(v.queueP95Ms.median, b.queueP95Ms.median, 10),
    execP95RelDiff: bx && vx !== null ? (vx - bx) / bx : null,
    execSame: bx !== null && vx !== null ? sameLatency(bx, vx) : null,
    execSlowerCandidate: bx !== null && vx !== null && !sameLatency(bx, vx) && vx > bx,
    candidateQueueDelayed: perTask(v.executor) && v.queueP95Ms.median !== null && v.queueP95Ms.median > schedulerDelayThresholdMs(L),
  };
}

// ---------------------------------------------------------------- published vs measured

/**
 * Same JDK release? Compares the version numbers only: "Temurin 25.0.3" (published) and
 * "25.0.3+9-LTS" (java.version of an Eclipse Adoptium = Temurin build) are the same release.
 */
export function sameJdkVersion(published: string, measured: string): boolean {
  const num = (x: string) => /(\d+(?:\.\d+)*)/.exec(x)?.[1] ?? null;
  const a = num(published);
  const b = num(measured);
  return a !== null && a === b;
}

/** The metrics every study's figures may use without a hook: a value of the (variant, level) row. */
export const GENERIC_METRICS: Readonly<Record<string, (r: RowModel) => number | null>> = {
  throughputRps: (r) => r.wholeRunRps.median,
  e2eP95Ms: (r) => r.e2eP95Ms.median,
  e2eP99Ms: (r) => r.e2eP99Ms.median,
  queueWaitP95Ms: (r) => r.queueP95Ms.median,
  executionP95Ms: (r) => r.execP95Ms.median,
  errorRate: (r) => r.errorRate.median,
};

/** the RowModel provenance of each engine metric (GENERIC_METRICS) */
const GENERIC_METRIC_KEYS: Readonly<Record<string, RowMetric>> = {
  throughputRps: 'wholeRunRps', e2eP95Ms: 'e2eP95Ms', e2eP99Ms: 'e2eP99Ms', queueWaitP95Ms: 'queueP95Ms', executionP95Ms: 'execP95Ms', errorRate: 'errorRate',
};

/**
 * The largest share of |published| an absolute floor may admit (issue 31): a tolerance is relative to
 * the published value; an absolute floor (timer and sampling resolution of small values) may widen it,
 * but never beyond this share, so a 10 ms floor cannot call 10.64 ms a reproduction of 3.65 ms. A
 * published 0 therefore admits no difference.
 */
export const ABS_FLOOR_MAX_SHARE = 0.25;

/**
 * The tolerance applied to a published figure: the stated relative band and the stated absolute floor
 * capped at ABS_FLOOR_MAX_SHARE × |published| (`statedAbs` keeps the stated floor when the cap lowers it).
 */
export function figureTolerance(stated: Tolerance, published: number): Tolerance {
  const cap = ABS_FLOOR_MAX_SHARE * Math.abs(published);
  return stated.abs > cap + 1e-12 ? { rel: stated.rel, abs: cap, statedAbs: stated.abs } : { rel: stated.rel, abs: stated.abs };
}

/** Measured against published under `tol` (already capped, figureTolerance): the difference and the verdict. */
export function verdictOf(published: number, measured: number | null, tol: Tolerance): { diff: number | null; diffPct: number | null; verdict: Verdict } {
  if (measured === null) return { diff: null, diffPct: null, verdict: 'not testable here' };
  const diff = measured - published;
  const diffPct = published !== 0 ? (diff / published) * 100 : null;
  const allowed = Math.max(tol.abs, Math.abs(published) * tol.rel);
  return { diff, diffPct, verdict: Math.abs(diff) <= allowed + 1e-9 ? 'reproduced' : 'not reproduced' };
}

/** A verdict decided before the figure is compared: the source's own (inconsistent, untestable), then the gates; null = compare. */
function preVerdict(p: PublishedFigure, chk: FigureCheck, gate: readonly Reason[], runScenarios: ReadonlySet<string>, m: RunManifest): { verdict: Verdict; reasons: Reason[]; measure: boolean } | null {
  if (chk.inconsistent?.length) return { verdict: 'inconsistent as published', reasons: chk.inconsistent, measure: true };
  if (p.untestable !== undefined) return { verdict: 'not testable here', reasons: [{ key: p.untestable }], measure: true };
  if (p.scenario !== null && !runScenarios.has(p.scenario)) return { verdict: 'not testable here', reasons: [{ key: 'otherScenario', v: { measured: m.options.scenario, published: p.scenario } }], measure: false };
  if (chk.ownGate !== undefined) return chk.ownGate.length ? { verdict: 'not testable here', reasons: chk.ownGate, measure: true } : null;
  if (gate.length) return { verdict: 'not testable here', reasons: [{ key: 'notComparable', parts: [...gate] }], measure: false };
  return null;
}

/**
 * The study's published figures beside this run: one verdict per numeric figure with a tolerance
 * (setup facts, tolerance null, are not compared). Generic over rows; the study's hook supplies
 * its comparability gate and how it measures and explains a figure (src/report/types.ts).
 * Order of the rules: a figure its source contradicts (FigureCheck.inconsistent) is "inconsistent as
 * published"; one no run can test (PublishedRow.untestable: a recommendation, a value the source did
 * not measure) is "not testable here"; so is a figure for another scenario than the run's
 * (`PublishedRow.scenario` set and neither `manifest.options.scenario` nor the scenario of a variant
 * of the run; reason `otherScenario`), one its own gate or the study's gate rules out, and one whose
 * cells are missing. Every other figure is compared under its tolerance (figureTolerance: relative to
 * the published value, an absolute floor capped at ABS_FLOOR_MAX_SHARE of it).
 */
export function evaluatePublished(model: BaseModel, hook: StudyReportHook | undefined, cells: readonly CellResult[]): PublishedVerdict[] {
  const m = model.manifest;
  const gate = hook?.gate?.(model) ?? [];
  const out: PublishedVerdict[] = [];
  // the run's scenario, and those its variants carry (Variant.scenario: a run over several scenarios)
  const runScenarios = new Set([m.options.scenario, ...(m.options.variantSpecs ?? []).flatMap((v) => (v.scenario !== undefined ? [v.scenario] : []))]);
  for (const p of model.study.published) {
    if (p.tolerance === null || typeof p.value !== 'number') continue;
    const chk: FigureCheck = hook?.figure?.(p, model, cells) ?? {};
    const tol = figureTolerance(chk.tolerance ?? { rel: p.tolerance, abs: 0 }, p.value);
    const row = p.variant !== null && p.level !== null ? rowOf(model, p.variant, p.level) : null;
    const published: Provenance = { def: 'published', v: { id: p.id }, formula: null, sources: [{ file: model.study.source, pointer: p.id }, { file: `src/studies/${model.study.id}/published.ts`, pointer: p.id }] };
    const metricKey = GENERIC_METRIC_KEYS[p.metric];
    const measuredProv: Provenance = !chk.measured && metricKey && row ? row.prov[metricKey]
      : chk.prov ?? { def: 'studyMeasure', v: { figure: p.metric, study: model.study.id }, formula: null,
        sources: cells.filter((x) => x.variant === p.variant && x.concurrency === p.level).map((x) => ({ file: cellFile(x.cellId), pointer: '' })) };
    const base = { id: p.id, metric: p.metric, variant: p.variant, concurrency: p.level, unit: p.unit, published: p.value, tolerance: tol, identity: p.setupIdentity, prov: { published, measured: measuredProv } };
    const generic = GENERIC_METRICS[p.metric];
    const measure = chk.measured ?? (generic ? (r: RowModel | null) => (r ? generic(r) : null) : () => null);
    const pre = preVerdict(p, chk, gate, runScenarios, m);
    if (pre) {
      const value = pre.measure ? measure(row) : null;
      const diff = value === null ? null : value - p.value;
      out.push({ ...base, measured: value, diff, diffPct: diff !== null && p.value !== 0 ? (diff / p.value) * 100 : null, verdict: pre.verdict, reasons: pre.reasons });
      continue;
    }
    if (chk.ownGate !== undefined) {
      const value = measure(row);
      out.push({ ...base, measured: value, ...verdictOf(p.value, value, tol), reasons: [] });
      continue;
    }
    if (p.variant !== null && p.level !== null && !row) {
      const planned = m.options.levels.includes(p.level) && m.options.variants.includes(p.variant);
      out.push({ ...base, measured: null, diff: null, diffPct: null, verdict: 'not testable here', reasons: [{ key: planned ? 'missingCells' : 'notInPlan', v: { variant: p.variant, c: p.level } }] });
      continue;
    }
    const value = measure(row);
    const v = verdictOf(p.value, value, tol);
    const reasons: Reason[] = [];
    if (value === null) reasons.push({ key: 'noData' });
    reasons.push(...(chk.always ?? []));
    if (v.verdict === 'not reproduced') reasons.push(...(chk.expected ?? []));
    out.push({ ...base, measured: value, ...v, reasons });
  }
  return out;
}

// ---------------------------------------------------------------- the model

/** Variants in run order (manifest.options.variants), then any other variant with results, by id. */
function variantOrder(m: RunManifest, present: Iterable<VariantId>): VariantId[] {
  const planned = m.options.variants;
  const extra = [...new Set(present)].filter((v) => !planned.includes(v)).sort();
  return [...planned, ...extra];
}

/** A run's cells of one (variant, level), in repeat order. */
type CellsOf = (variant: VariantId, c: number) => CellResult[];

/** The cells of one (variant, level) of `cells`, in repeat order. */
const cellsOfRun = (cells: readonly CellResult[]): CellsOf => (variant, c) => cells.filter((x) => x.variant === variant && x.concurrency === c).sort((a, b) => a.repeat - b.repeat);

/**
 * The run's effective variants by id: the manifest's, and the study's definition only for a variant
 * with results the manifest lacks.
 */
function runVariantSpecs(run: LoadedRun): Map<VariantId, Variant> {
  const specs = new Map<VariantId, Variant>(run.manifest.options.variantSpecs.map((v) => [v.id, v] as const));
  const withResults = new Set<VariantId>([...run.summary.rows.map((r) => r.variant), ...run.cells.map((c) => c.variant)]);
  for (const v of run.study.variants) if (!specs.has(v.id) && withResults.has(v.id)) specs.set(v.id, v);
  return specs;
}

/**
 * One RowModel per summary row, in run variant order then ascending level.
 * @throws VtbenchError(EXIT.runData) when a row's variant has no executor anywhere (see buildModel)
 */
function modelRows(run: LoadedRun, specs: ReadonlyMap<VariantId, Variant>, order: readonly VariantId[], L: number, cellsOf: CellsOf): RowModel[] {
  const { manifest: m, study, summary } = run;
  const execOf = (variant: VariantId, cs: readonly CellResult[]): ExecutorSpec => {
    const e = cs[0]?.executor ?? specs.get(variant)?.executor ?? study.variants.find((v) => v.id === variant)?.executor;
    if (!e) {
      throw new VtbenchError(`${run.runDir}: summary.json has results for variant ${variant}, which has no executor in the run (cells, manifest options.variantSpecs) nor in study ${study.id}`,
        'the summary does not belong to this manifest: re-render from the run\'s own files, or re-run the benchmark', EXIT.runData);
    }
    return e;
  };
  return summary.rows
    .slice()
    .sort((a, b) => order.indexOf(a.variant) - order.indexOf(b.variant) || a.concurrency - b.concurrency)
    .map((sr) => {
      const cs = cellsOf(sr.variant, sr.concurrency);
      const source: RowSource = { summaryIndex: run.summarySource === 'file' ? summary.rows.indexOf(sr) : null, cellIds: cs.map((x) => x.cellId) };
      return buildRow(sr, execOf(sr.variant, cs), cs[0]?.latencyMs ?? L, cs, m, run.requests, study, source, summary.percentileDefinition);
    });
}

/** The study's comparisons whose two variants both have results, at every level both have. */
function modelPairs(study: Pick<Study, 'comparisons'>, rows: readonly RowModel[], levels: readonly number[], variants: readonly VariantId[], L: number): PairComparison[] {
  const pairs: PairComparison[] = [];
  for (const cmp of study.comparisons) {
    if (!variants.includes(cmp.baseline) || !variants.includes(cmp.candidate)) continue;
    const lv: LevelComparison[] = [];
    for (const c of levels) {
      const b = rows.find((r) => r.variant === cmp.baseline && r.concurrency === c);
      const v = rows.find((r) => r.variant === cmp.candidate && r.concurrency === c);
      if (b && v) lv.push(compareLevel(c, b, v, L));
    }
    pairs.push({ baseline: cmp.baseline, candidate: cmp.candidate, levels: lv, highest: lv[lv.length - 1] ?? null, lowest: lv[0] ?? null });
  }
  return pairs;
}

/**
 * Requests planned and sent: an open-loop run plans its schedules, Σ ⌈λ × durationS⌉ over the rates
 * (src/plan/plan.ts). Only the cells whose driver sends requests (DriverLevel `workers`, `rate`; a
 * scenario the study no longer defines counts when its cell is neither a job nor a WebSocket cell) count
 * as requests; a job's one call and a WebSocket cell's handshakes are counted apart (`jobCells`, `held`).
 */
function modelTotals(m: RunManifest, cells: readonly CellResult[], study: Pick<Study, 'scenarios'>): ReportModel['totals'] {
  const kind = (x: CellResult): 'requests' | 'job' | 'held' => {
    const lv = driverLevel(study, x.scenario);
    if (lv === 'connections' || (lv === null && x.load.websocket !== undefined)) return 'held';
    if (lv === 'job' || (lv === null && x.job !== undefined)) return 'job';
    return 'requests';
  };
  const req = cells.filter((x) => kind(x) === 'requests');
  const count = req.reduce((s, x) => s + x.load.count, 0);
  const ok = req.reduce((s, x) => s + x.load.ok, 0);
  const openLoopRun = cells.some((x) => x.load.openLoop !== undefined);
  const perRepeat = openLoopRun
    ? m.options.levels.reduce((t, rate) => t + Math.ceil(rate * (m.options.durationS ?? cells.find((x) => x.load.openLoop)!.load.openLoop!.durationS)), 0)
    : plannedRequestsPerRepeat(m.options.levels, m.options.requestsPerWorker);
  const held = cells.filter((x) => kind(x) === 'held' && x.load.websocket !== undefined);
  const top = maxOf(held.map((x) => x.concurrency));
  const topShares = held.filter((x) => x.concurrency === top).map((x) => x.load.websocket!.deliveredShare);
  return {
    plannedPerRepeatPerVariant: perRepeat,
    plannedTotal: perRepeat * m.options.repeats * m.options.variants.length,
    plannedCells: m.cellOrder.length,
    presentCells: cells.length,
    count, ok, failed: count - ok,
    errorRate: count > 0 ? (count - ok) / count : null,
    jobCells: cells.filter((x) => kind(x) === 'job').length,
    held: held.length === 0 || top === null ? null : {
      cells: held.length, asked: held.reduce((s, x) => s + x.load.websocket!.connections, 0), opened: held.reduce((s, x) => s + x.load.websocket!.opened, 0),
      topLevel: top, deliveredMin: Math.min(...topShares), deliveredMax: Math.max(...topShares),
    },
  };
}

/** Pinned events per row and per (variant, reason kind), and the pinning rule over the one-thread-per-task cells. */
function modelPinning(rows: readonly RowModel[], cells: readonly CellResult[], order: readonly VariantId[], cellsOf: CellsOf): Pick<ReportModel, 'pinning' | 'pinningReasons' | 'pinRule' | 'pinReads'> {
  const pinning: PinningRow[] = rows.map((r) => {
    const cs = cellsOf(r.variant, r.concurrency);
    const withData = cs.filter((x) => x.pinned !== null);
    const byReason: Record<string, number> = {};
    for (const x of withData) for (const [k, n] of Object.entries(x.pinned?.byReason ?? {})) byReason[k] = (byReason[k] ?? 0) + n;
    return {
      variant: r.variant, concurrency: r.concurrency,
      thresholdMs: withData[0]?.pinned?.thresholdMs ?? null,
      total: withData.length ? withData.reduce((s, x) => s + (x.pinned?.total ?? 0), 0) : null,
      byReason, cells: cs.length, cellsWithData: withData.length,
    };
  });
  const pinningReasons = order.flatMap((variant) => {
    const byReason: Record<string, number> = {};
    for (const p of pinning) if (p.variant === variant) for (const [k, n] of Object.entries(p.byReason)) byReason[k] = (byReason[k] ?? 0) + n;
    return groupPinnedReasons(byReason).map((g) => ({ variant, kind: g.kind, count: g.count, reasons: g.reasons }));
  });
  const vtCells = cells.filter((x) => perTask(x.executor));
  const vtRequests = vtCells.reduce((s, x) => s + x.load.count, 0);
  const pinEvents = vtCells.length === 0 || vtCells.some((x) => x.pinned === null) ? null : vtCells.reduce((s, x) => s + (x.pinned?.total ?? 0), 0);
  const pinAllowed = PIN_EVENTS_PER_REQUEST * vtRequests;
  const pinRule: PinRule = {
    events: pinEvents, requests: vtRequests, thresholdMs: vtCells.find((x) => x.pinned !== null)?.pinned?.thresholdMs ?? null, allowed: pinAllowed,
    notable: pinEvents === null || vtRequests === 0 ? null : pinEvents > pinAllowed + 1e-9,
  };
  const pinReads = { cellsWithData: cells.filter((x) => x.pinned !== null).length, flushed: cells.filter((x) => x.pinned?.flushed === true).length };
  return { pinning, pinningReasons, pinRule, pinReads };
}

/** The run's flags (legacy `host-cpu` read as `sut-cpu`: one unit per code) and the saturation evidence (see Saturation). */
function modelSaturation(m: RunManifest, cells: readonly CellResult[], L: number): Pick<ReportModel, 'flags' | 'saturation'> {
  const qThr = schedulerDelayThresholdMs(L);
  const flags = cells.flatMap((x) => x.flags.map((flag) => ({ cellId: x.cellId, flag: upgradeLegacyFlag(flag) })));
  const schedulerDelay = cells.filter((x) => perTask(x.executor) && x.load.queueMs !== null && x.load.queueMs.p95 > qThr)
    .map((x) => ({ cellId: x.cellId, concurrency: x.concurrency, queueP95Ms: x.load.queueMs?.p95 as number }));
  // the pipeline's rule (src/compute/analysis/flags.ts sutCpuSaturation), so the report and the `sut-cpu` flag agree
  const sutCpu = cells.flatMap((x) => {
    const cpu = sutCpuSaturation(x.samples, x.t0EpochMs);
    return cpu.saturated ? [{ cellId: x.cellId, variant: x.variant, concurrency: x.concurrency, peakCpu: cpu.peak ?? 0, samplesAbove: cpu.samplesAbove, share: cpu.share ?? 0 }] : [];
  });
  const hostFlags = flags.filter((f) => f.flag.code !== 'errors-above-threshold');
  const firstInfo = Object.keys(m.sut).sort().map((k) => m.sut[k]).find((x) => x !== undefined);
  const saturation: Saturation = {
    carriers: firstInfo?.vtSchedulerParallelism ?? firstInfo?.availableProcessors ?? m.host.cores,
    queueThresholdMs: qThr, cpuThreshold: SUT_CPU_SATURATED, cpuShareThreshold: SUT_CPU_SATURATED_SHARE,
    schedulerDelay, sutCpu, hostFlags,
    saturated: schedulerDelay.length > 0 || sutCpu.length > 0 || hostFlags.length > 0,
  };
  return { flags, saturation };
}

/** E2E percentiles of every row over its pooled successful requests (SPECTRUM_PERCENTILES, each only with enough requests). */
function spectrumOf(rows: readonly RowModel[], requests: ReadonlyMap<string, CompactRequests>, cellsOf: CellsOf): ReportModel['charts']['percentiles'] {
  const spectrum: ReportModel['charts']['percentiles'] = [];
  for (const r of rows) {
    const e2e: number[] = [];
    for (const x of cellsOf(r.variant, r.concurrency)) { const req = requests.get(x.cellId); if (req) pushAll(e2e, successfulColumns(req).e2eMs); }
    if (e2e.length === 0) continue;
    e2e.sort((a, b) => a - b);
    for (const p of SPECTRUM_PERCENTILES) {
      if (e2e.length < 1 / (1 - p) - 1e-9) continue;
      spectrum.push({ variant: r.variant, concurrency: r.concurrency, p, e2eMs: Math.round(quantileSorted(e2e, p) * 1000) / 1000, n: e2e.length });
    }
  }
  return spectrum;
}

/** One cell's SUT samples as chart series, at most `maxPoints` per metric (each bucket's lowest and highest: peaks survive). */
function seriesOf(cell: CellResult, variant: VariantId, maxPoints: number): SeriesPoint[] {
  const per = new Map<SeriesPoint['metric'], SeriesPoint[]>();
  const add = (p: SeriesPoint) => { const g = per.get(p.metric) ?? []; g.push(p); per.set(p.metric, g); };
  for (const s of cell.samples) {
    const tS = Math.round((s.tEpochMs - cell.t0EpochMs) / 10) / 100;
    add({ cellId: cell.cellId, variant, tS, metric: 'inFlight', value: s.inFlight });
    add({ cellId: cell.cellId, variant, tS, metric: 'queue', value: s.queueSize });
    add({ cellId: cell.cellId, variant, tS, metric: 'platformThreads', value: s.platformThreads });
    add({ cellId: cell.cellId, variant, tS, metric: 'heapMiB', value: Math.round((s.heapUsedBytes / MIB) * 10) / 10 });
    if (s.rssBytes !== null) add({ cellId: cell.cellId, variant, tS, metric: 'rssMiB', value: Math.round((s.rssBytes / MIB) * 10) / 10 });
    if (s.processCpuLoad !== null) add({ cellId: cell.cellId, variant, tS, metric: 'cpuPct', value: Math.round(s.processCpuLoad * 10000) / 100 });
  }
  const series: SeriesPoint[] = [];
  for (const g of per.values()) pushAll(series, downsampleMinMax(g, (p) => p.value, maxPoints));
  return series;
}

/** One cell's successful requests, E2E against send time (see ReportModel.charts.scatter), at most `maxPoints` of the whole cell and half as many of its start. */
function scatterOf(cell: CellResult, req: CompactRequests, variant: VariantId, top: number, maxPoints: number): ReportModel['charts']['scatter'][number] {
  const pts: { sendS: number; e2eMs: number }[] = [];
  for (let i = 0; i < req.e2eMs.length; i++) {
    if ((req.error[i] ?? 'other') !== '') continue;
    pts.push({ sendS: Math.round((req.startMs[i] ?? 0) / 10) / 100, e2eMs: Math.round((req.e2eMs[i] ?? 0) * 10) / 10 });
  }
  pts.sort((a, b) => a.sendS - b.sendS);
  const earlyS = Math.round((pts.length ? (pts[pts.length - 1] as { sendS: number }).sendS * SCATTER_EARLY_SHARE : 0) * 100) / 100;
  const early = pts.filter((p) => p.sendS <= earlyS);
  return {
    variant, concurrency: top, cellId: cell.cellId, points: downsampleMinMax(pts, (p) => p.e2eMs, maxPoints), total: pts.length,
    early: downsampleMinMax(early, (p) => p.e2eMs, maxPoints / 2), earlyS, earlyTotal: early.length,
  };
}

/** The charts' data: the spectrum of every row; series, scatter and E2E distribution of each variant's highest level (first repeat present for series and scatter). */
function modelCharts(rows: readonly RowModel[], variants: readonly VariantId[], requests: ReadonlyMap<string, CompactRequests>, cellsOf: CellsOf): ReportModel['charts'] {
  const series: SeriesPoint[] = [];
  const distribution: ReportModel['charts']['distribution'] = [];
  const scatter: ReportModel['charts']['scatter'] = [];
  const spectrum = spectrumOf(rows, requests, cellsOf);
  for (const variant of variants) {
    const top = maxOf(rows.filter((r) => r.variant === variant).map((r) => r.concurrency));
    if (top === null) continue;
    const cs = cellsOf(variant, top);
    const cell = cs[0];
    if (cell) {
      pushAll(series, seriesOf(cell, variant, pointsPerVariant(SERIES_MAX_POINTS, variants.length)));
      const req = requests.get(cell.cellId);
      if (req) scatter.push(scatterOf(cell, req, variant, top, pointsPerVariant(SCATTER_MAX_POINTS, variants.length)));
    }
    const e2e: number[] = [];
    for (const x of cs) {
      const req: CompactRequests | undefined = requests.get(x.cellId);
      if (req) pushAll(e2e, successfulColumns(req).e2eMs); // no push(...xs): a cell can hold >125k requests
    }
    if (e2e.length) {
      e2e.sort((a, b) => a - b);
      const ps = [...Array.from({ length: 100 }, (_, i) => i), 99.5, 99.9, 100];
      for (const p of ps) distribution.push({ variant, concurrency: top, pct: p, e2eMs: Math.round(quantileSorted(e2e, p / 100) * 1000) / 1000 });
    }
  }
  return { series, distribution, scatter, percentiles: spectrum };
}

/** Gaps the model adds: one variant only, or none of the study's comparisons in the run. */
function comparisonGaps(study: Pick<Study, 'comparisons'>, variants: readonly VariantId[], pairs: readonly PairComparison[]): string[] {
  if (variants.length < 2) return [`only one variant (${variants.join(', ')}) has results; comparisons between variants are omitted`];
  if (study.comparisons.length > 0 && pairs.length === 0) return [`none of the study's comparisons (${study.comparisons.map((c) => `${c.baseline} vs ${c.candidate}`).join(', ')}) has both variants in this run`];
  return [];
}

/**
 * The report model of a loaded run: everything the renderers format, computed once and pure (no
 * I/O). Input: a run as src/report/load.ts returns it (manifest and files already upgraded to the
 * current schema, summary from the file or recomputed). Output: one RowModel per summary row
 * (variant × level, in run variant order then ascending level) with its medians over repeats, bounds
 * and flags; the study's comparisons (baseline, candidate) at the levels both variants have;
 * request totals; chart series; and the study's published figures beside this run with a verdict
 * each (evaluatePublished). Units: latencies and durations in ms, throughput in requests/s, memory
 * in bytes (MiB where the field says so), rates as fractions 0–1.
 * @throws VtbenchError(EXIT.runData) when a summary row names a variant that has neither cells with
 *   an executor, nor an entry in manifest.options.variantSpecs, nor one in the study (a summary.json
 *   that does not belong to its manifest)
 */
export function buildModel(run: LoadedRun): ReportModel {
  const m = run.manifest;
  const { study, cells, summary } = run;
  const hook = study.report;
  const specs = runVariantSpecs(run);
  const cellsOf = cellsOfRun(cells);
  const order = variantOrder(m, summary.rows.map((r) => r.variant));
  const L = cells[0]?.latencyMs ?? m.options.latencyMs;
  const rows = modelRows(run, specs, order, L, cellsOf);
  const levels = [...new Set(rows.map((r) => r.concurrency))].sort((a, b) => a - b);
  const variants = order.filter((v) => rows.some((r) => r.variant === v));
  const pairs = modelPairs(study, rows, levels, variants, L);
  const firstSut = Object.keys(m.sut).sort()[0];
  const prefixOf = (variant: VariantId): string => specs.get(variant)?.threadNamePrefix ?? '';
  const base: BaseModel = {
    runId: m.runId,
    study,
    jvmBlocks: jvmBlocks(cells),
    isFixture: m.options.profile === 'fixture',
    manifest: m,
    sutInfo: firstSut !== undefined ? (m.sut[firstSut] ?? null) : null,
    mockModel: cells.map((x) => x.mock.after?.config['model'] ?? x.mock.before?.config['model']).find((x): x is string => typeof x === 'string') ?? null,
    percentileDefinition: summary.percentileDefinition,
    summarySource: run.summarySource,
    gaps: run.gaps,
    levels, variants,
    variantSpecs: specs,
    latencyMs: L,
    requestsPerWorker: m.options.requestsPerWorker,
    totals: modelTotals(m, cells, study),
    warmups: m.options.warmupS > 0
      ? m.options.variants.flatMap((v) => { const spec = specs.get(v); const w = spec ? warmupPlan(spec.executor, m.options, L) : null; return w ? [{ variant: v, ...w }] : []; })
      : null,
    rows,
    pairs,
    rampFraction: rampWholeRunFraction(m.options.requestsPerWorker),
    published: [],
    threadDumps: cells.filter((x) => x.threadDump !== null).map((x) => dumpEvidence(x, prefixOf(x.variant)))
      .sort((a, b) => order.indexOf(a.variant) - order.indexOf(b.variant) || a.concurrency - b.concurrency || (a.cellId < b.cellId ? -1 : 1)),
    ...modelPinning(rows, cells, order, cellsOf),
    ...modelSaturation(m, cells, L),
    charts: modelCharts(rows, variants, run.requests, cellsOf),
    openLoop: openLoopModel(cells, order),
    cells,
    requests: run.requests,
    derived: null,
  };
  // the study's derived data first: its gate, figures, analysis, sections and charts read it
  base.derived = hook?.derive?.(base) ?? null;
  base.published = evaluatePublished(base, hook, cells);
  base.gaps.push(...comparisonGaps(study, variants, pairs));
  const analysis = hook?.analyse?.(base) ?? { conclusions: [], followUps: [] };
  const generic = genericAnswer(base);
  const answer = hook?.answer ? hook.answer(base, generic) : generic;
  return { ...base, conclusions: analysis.conclusions, followUps: analysis.followUps, answer };
}

export { medianOf };
