/**
 * The report model: everything the report says, as typed numbers and labels, computed from a
 * loaded run. Pure (no I/O, no clock, no locale). Renderers format; they do not compute.
 */
import type { Agg, CellFlag, CellResult, CompactRequests, Mode, RunManifest, SummaryRow, ThreadDumpSummary } from '../store/types.ts';
import type { SutInfo } from '../jvm/api.ts';
import { groupPinnedReasons } from '../jvm/pinned-kind.ts';
import {
  littleThroughputRps, plannedRequestsPerRepeat, queueWaitMeanSpreadMs, queueWaitP95WavesMs,
  rampWholeRunFraction, waves, wavesWholeRunRps,
} from '../theory/bounds.ts';
import type { LoadedRun } from './load.ts';
import { agg, maxOf, meanOf, medianOf } from './stats.ts';
import { successfulColumns } from '../analysis/summary.ts';
import { pushAll } from '../stats/extremes.ts';
import { quantileSorted } from 'simple-statistics';
import publishedJson from './published.json' with { type: 'json' };
import { warmupPlan } from '../config/plan.ts';
import { deriveUpstream } from './upstream.ts';
import { SCHEDULER_DELAY_MS, SUT_CPU_SATURATED as PIPELINE_SUT_CPU_SATURATED, SUT_CPU_SATURATED_SHARE, sutCpuSaturation, upgradeLegacyFlag } from '../pipeline/flags.ts';

export type Verdict = 'reproduced' | 'not reproduced' | 'not tested here';
/** A reason or expected difference, phrased by the renderer from templates (`reason.<key>`). */
export interface Reason { key: string; v?: Record<string, string | number>; parts?: Reason[] }
export type Outcome = 'wins' | 'ties' | 'loses';
/** relative band inside which two measurements count as a tie */
export const TIE_BAND = 0.05;
export const MIB = 1024 * 1024;
/** tolerance of a latency comparison: the larger of 5 % and 20 ms (§8.7 and "the same" checks) */
export const LAT_TOL = { rel: 0.05, abs: 20 };
/** two latencies count as the same when they differ by at most max(rel × the first, abs) */
export function sameLatency(a: number, b: number, tol = LAT_TOL): boolean {
  return Math.abs(b - a) <= Math.max(tol.abs, Math.abs(a) * tol.rel) + 1e-9;
}
/** MiB rounded to one decimal, as every table shows it */
export const mib1 = (bytes: number): number => Math.round((bytes / MIB) * 10) / 10;
/** virtual − fixed peak RSS in MiB, from the rounded values the report prints (so the text adds up) */
export function rssDeltaMiB(fixedBytes: number | null, virtualBytes: number | null): number | null {
  return fixedBytes === null || virtualBytes === null ? null : Math.round((mib1(virtualBytes) - mib1(fixedBytes)) * 10) / 10;
}

export interface RowModel {
  mode: Mode;
  concurrency: number;
  repeats: number;
  boundRps: number;
  /** lock-step waves bound for this plan's n and start (null for ramp start) */
  wavesWholeRunRps: number | null;
  waves: number;
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
  theoryQueueP95Ms: number;
  theoryQueueMeanMs: number;
  theoryE2eP95Ms: number;
  errorCount: Agg;
  errorRate: Agg;
  /** pooled means over all successful requests of all repeats; overhead = e2e - queue - exec */
  means: { e2eMs: number; queueMs: number; execMs: number; overheadMs: number; n: number } | null;
  /** Little's law: X = c / mean(E2E) vs the measured throughput (steady-state if known) */
  little: { predictedRps: number; measuredRps: number; measuredDefinition: 'steady-state' | 'whole-run'; ratio: number } | null;
  pinnedTotal: Agg;
  /** resources: per-cell peak/mean from the 250 ms samples, median over repeats */
  resources: {
    peakRssBytes: Agg; peakHeapUsedBytes: Agg; meanCpuPct: Agg; peakPlatformThreads: Agg;
    peakInFlight: Agg; peakQueue: Agg; peakExecutorActive: Agg; samples: number;
  };
  /** concurrent calls that reached the upstream (the mock), per cell, median over repeats; see {@link UpstreamRow} */
  upstream: UpstreamRow;
}

/**
 * Upstream concurrency of one (mode, level): never the mock's cumulative gauge.
 * - `mock`: every cell has per-cell mock statistics (`mock.scope === 'cell'`: the pipeline reset the
 *   mock's statistics right before the cell's load), so `peak` is the mock's own peak in flight.
 * - `derived`: legacy cells (mock statistics cumulative since the mock started); `peak` is the lower
 *   bound and `atMost` the upper bound of concurrent executions derived from the per-request
 *   timings (src/report/upstream.ts), not measured at the mock; both capped at `allowed` (one LLM
 *   call per executor task).
 * - `none`: neither is available (no per-cell statistics and no per-request data).
 */
export interface UpstreamRow {
  source: 'mock' | 'derived' | 'none';
  /** measured peak (mock) or derived lower bound (derived), median over repeats */
  peak: Agg;
  /** derived upper bound, median over repeats; null unless source = derived */
  atMost: Agg | null;
  /** what the executor allows at once: min(c, N) for the fixed pool, c for virtual threads */
  allowed: number;
}

/** A cell's mock statistics as the run format has them; `scope: 'cell'` marks per-cell figures (optional, absent in schema-1 runs before it). */
type CellMock = CellResult['mock'] & { scope?: 'cell' };
/** The mock's statistics when they describe this cell alone, else null (cumulative figures are never used per cell). */
export function cellMockStats(x: CellResult): CellResult['mock']['after'] {
  const mock = x.mock as CellMock;
  return mock.scope === 'cell' ? mock.after : null;
}

/**
 * Upstream concurrency of the cells of one (mode, level): the mock's per-cell peak when every cell
 * has per-cell statistics, else bounds derived from the per-request timings, else none.
 */
export function upstreamRow(mode: Mode, c: number, poolSize: number, cells: readonly CellResult[], requests: ReadonlyMap<string, CompactRequests>): UpstreamRow {
  const allowed = mode === 'fixed' ? Math.min(c, poolSize) : c;
  const scoped = cells.map(cellMockStats);
  if (cells.length > 0 && scoped.every((x) => x !== null)) {
    return { source: 'mock', peak: agg(scoped.map((x) => x?.peakInFlight ?? null)), atMost: null, allowed };
  }
  const derived = cells.map((x) => { const r = requests.get(x.cellId); return r ? deriveUpstream(r) : null; });
  if (derived.some((x) => x !== null)) {
    // one LLM call per executor task, so no more calls run at once than the executor runs tasks:
    // the timing-derived upper bound is capped at `allowed` (it overshoots at wave edges, where one
    // thread's finish and its next task's start are too close to tell apart in the timings)
    const cap = (x: number | null | undefined): number | null => (x === null || x === undefined ? null : Math.min(x, allowed));
    return { source: 'derived', peak: agg(derived.map((x) => cap(x?.atLeast))), atMost: agg(derived.map((x) => cap(x?.atMost))), allowed };
  }
  return { source: 'none', peak: agg(cells.map(() => null)), atMost: null, allowed };
}

export interface LevelComparison {
  concurrency: number;
  fixed: RowModel;
  virtual: RowModel;
  throughputRatio: number | null;
  throughput: Outcome | null;
  e2eP95Ratio: number | null;
  e2eP95: Outcome | null;
  queueP95: Outcome | null;
  execP95RelDiff: number | null;
  /** execution P95 the same in both modes within LAT_TOL (the §8.7 latency tolerance) */
  execSame: boolean | null;
  /** virtual execution P95 above the fixed one by more than LAT_TOL */
  execSlowerVirtual: boolean;
  /** virtual queue-wait P95 (median of repeats) above the scheduler-delay threshold */
  vtQueueDelayed: boolean;
}

/**
 * Evidence that the host CPU, not the code under test, set a limit: virtual-thread cells whose
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
  sutCpu: { cellId: string; mode: Mode; concurrency: number; peakCpu: number; samplesAbove: number; share: number }[];
  hostFlags: { cellId: string; flag: CellFlag }[];
  /** any of the three */
  saturated: boolean;
}
/** SUT process CPU (0..1 of the machine) at or above which a sample counts as saturated */
export const SUT_CPU_SATURATED = PIPELINE_SUT_CPU_SATURATED;
/** the pipeline's `scheduler-delay` threshold: max(10 ms, 5 % of L) */
export const schedulerDelayThresholdMs = (latencyMs: number): number => Math.max(SCHEDULER_DELAY_MS, 0.05 * latencyMs);

export interface PublishedRow {
  id: string;
  label: string;
  mode: Mode | 'both';
  concurrency: number | null;
  unit: 'req/s' | 'ms' | 'ratio' | 'threads' | 'tasks' | 'MiB' | 'events' | 'requests';
  published: number;
  measured: number | null;
  diff: number | null;
  diffPct: number | null;
  tolerance: { rel: number; abs: number };
  verdict: Verdict;
  reasons: Reason[];
  /**
   * Set when the figure holds by construction of the setup (published.json `setupIdentities`): its
   * verdict checks the setup, it is shown apart and never counted as a reproduction.
   */
  identity: SetupIdentity | null;
}

/** Why a figure holds by construction: the pool is full (c > N), the virtual executor has no queue, the planned number of requests. */
export type SetupIdentity = 'poolFull' | 'noQueue' | 'plannedTotal' | 'closedLoopQueue' | 'closedLoopInFlight';
const IDENTITY_KINDS: readonly SetupIdentity[] = ['poolFull', 'noQueue', 'plannedTotal', 'closedLoopQueue', 'closedLoopInFlight'];

export interface ConclusionRow {
  id: string;
  kind: 'proven' | 'not-proven';
  verdict: Verdict;
  /** evidence values, named; renderers phrase them */
  evidence: Record<string, number | string | null>;
}

export interface FollowUp { id: string; command: string | null }

export interface ThreadDumpEvidence {
  cellId: string; mode: Mode; concurrency: number; dump: ThreadDumpSummary; peakExecutorActive: number | null; peakQueue: number | null;
  /** the benchmark executor's thread-name prefix: `llm-fixed-` or `llm-vt-` */
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

export const BENCHMARK_PREFIX: Record<Mode, string> = { fixed: 'llm-fixed-', virtual: 'llm-vt-' };

function dumpEvidence(x: CellResult): ThreadDumpEvidence {
  const dump = x.threadDump as ThreadDumpSummary;
  const prefix = BENCHMARK_PREFIX[x.mode];
  const isBench = (g: ThreadDumpSummary['groups'][number]) => g.namePrefix.startsWith(prefix);
  const benchmarkThreads = dump.groups.filter(isBench).reduce((a, g) => a + g.count, 0);
  const other = new Map<string, number>();
  for (const g of dump.groups) if (g.virtual && !isBench(g)) other.set(g.namePrefix, (other.get(g.namePrefix) ?? 0) + g.count);
  const nonEmpty = dump.containers.filter((c) => c.threadCount > 0);
  // the benchmark executor: the one container of the executor's type whose thread count equals the benchmark's threads
  const kind = x.mode === 'virtual' ? /ThreadPerTaskExecutor@/ : /(^|\.)ThreadPoolExecutor@/;
  const match = benchmarkThreads > 0 ? nonEmpty.filter((c) => kind.test(c.name) && c.threadCount === benchmarkThreads) : [];
  return {
    cellId: x.cellId, mode: x.mode, concurrency: x.concurrency, dump,
    peakExecutorActive: maxOf(x.samples.map((s) => s.executorActive)), peakQueue: maxOf(x.samples.map((s) => s.queueSize)),
    benchmarkPrefix: prefix, benchmarkThreads,
    otherVirtual: [...other.entries()].map(([namePrefix, count]) => ({ namePrefix, count })).sort((a, b) => b.count - a.count || (a.namePrefix < b.namePrefix ? -1 : 1)),
    containers: nonEmpty.map((c) => ({ name: c.name, threadCount: c.threadCount, benchmark: match.length === 1 && match[0] === c })),
    emptyContainers: dump.containers.length - nonEmpty.length,
  };
}

/**
 * The one pinning rule of the report (§8.7 and §15): "no notable pinning" when the virtual-thread
 * cells saw at most 1 pinned event per 100 requests.
 */
export const PIN_EVENTS_PER_REQUEST = 0.01;
export interface PinRule { events: number | null; requests: number; thresholdMs: number | null; allowed: number; notable: boolean | null }

export interface PinningRow { mode: Mode; concurrency: number; thresholdMs: number | null; total: number | null; byReason: Record<string, number>; cells: number; cellsWithData: number }

export interface SeriesPoint { cellId: string; mode: Mode; tS: number; metric: 'inFlight' | 'queue' | 'platformThreads' | 'heapMiB' | 'rssMiB' | 'cpuPct'; value: number }

/**
 * The SUT JVMs that served each block (mode, repeat), from the cells' `sutPid`: a block is split when
 * a resume started a new JVM part-way. Null when the run's cells do not record it (older runs).
 */
export interface JvmBlocks { blocks: string[]; split: { blockId: string; jvms: number }[] }
/** Blocks (`<mode>-r<repeat>`) and those served by more than one JVM; null without `sutPid` in every cell. */
export function jvmBlocks(cells: readonly CellResult[]): JvmBlocks | null {
  if (cells.length === 0 || cells.some((x) => x.sutPid === undefined)) return null;
  const pids = new Map<string, Set<number>>();
  for (const x of cells) {
    const id = `${x.mode}-r${x.repeat}`;
    if (!pids.has(id)) pids.set(id, new Set());
    pids.get(id)!.add(x.sutPid as number);
  }
  const blocks = [...pids.keys()].sort();
  return { blocks, split: blocks.filter((b) => pids.get(b)!.size > 1).map((blockId) => ({ blockId, jvms: pids.get(blockId)!.size })) };
}

export interface ReportModel {
  runId: string;
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
  modes: Mode[];
  latencyMs: number;
  poolSize: number;
  requestsPerWorker: number;
  totals: {
    plannedPerRepeatPerMode: number; plannedTotal: number; plannedCells: number; presentCells: number;
    count: number; ok: number; failed: number; errorRate: number | null;
  };
  /** the warm-up of each SUT JVM (once per mode and repeat, at the highest level, not recorded); null when warmupS = 0 */
  warmups: { mode: Mode; workers: number; requestsPerWorker: number; theoreticalS: number }[] | null;
  rows: RowModel[];
  comparisons: LevelComparison[];
  highest: LevelComparison | null;
  lowest: LevelComparison | null;
  rampFraction: number;
  published: PublishedRow[];
  threadDumps: ThreadDumpEvidence[];
  pinning: PinningRow[];
  /**
   * pinned events per mode and reason kind (src/jvm/pinned-kind.ts: JDK 25 puts class names in
   * `pinnedReason`, the kind has `<class>` instead); `reasons` = the raw texts, as recorded
   */
  pinningReasons: { mode: Mode; kind: string; count: number; reasons: string[] }[];
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
  conclusions: ConclusionRow[];
  followUps: FollowUp[];
  charts: {
    series: SeriesPoint[];
    distribution: { mode: Mode; concurrency: number; pct: number; e2eMs: number }[];
  };
}

const MODE_ORDER: Mode[] = ['fixed', 'virtual'];

function outcomeHigherBetter(vt: number | null, fx: number | null): Outcome | null {
  if (vt === null || fx === null || fx <= 0) return null;
  const r = vt / fx;
  return r > 1 + TIE_BAND ? 'wins' : r < 1 - TIE_BAND ? 'loses' : 'ties';
}
function outcomeLowerBetter(vt: number | null, fx: number | null, absTieMs = 0): Outcome | null {
  if (vt === null || fx === null) return null;
  if (Math.abs(vt - fx) <= absTieMs) return 'ties';
  if (fx <= 0) return vt <= 0 ? 'ties' : 'loses';
  const r = vt / fx;
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

function buildRow(sr: SummaryRow, cells: CellResult[], m: RunManifest, requests: ReadonlyMap<string, CompactRequests>): RowModel {
  const { latencyMs: L, poolSize: N, requestsPerWorker: n, start } = m.options;
  const c = sr.concurrency;
  const wb = start === 'together' ? wavesWholeRunRps(sr.mode, c, N, L, n) : null;
  const pooled = sr.pooled;
  const means = pooled.e2eMs && pooled.queueMs && pooled.execMs
    ? { e2eMs: pooled.e2eMs.mean, queueMs: pooled.queueMs.mean, execMs: pooled.execMs.mean, overheadMs: pooled.e2eMs.mean - pooled.queueMs.mean - pooled.execMs.mean, n: pooled.e2eMs.n }
    : null;
  const steady = sr.throughput.steadyStateRps.median;
  const whole = sr.throughput.wholeRunRps.median;
  const measured = whole ?? steady;
  const predicted = littleThroughputRps(c, means?.e2eMs ?? null);
  const res = cells.map(cellResources);
  const qAgg = (k: keyof ReturnType<typeof cellResources>) => agg(res.map((r) => r[k]));
  return {
    mode: sr.mode,
    concurrency: c,
    repeats: sr.repeats,
    boundRps: sr.boundRps,
    wavesWholeRunRps: wb,
    waves: waves(sr.mode, c, N),
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
    theoryQueueP95Ms: queueWaitP95WavesMs(sr.mode, c, N, L),
    theoryQueueMeanMs: queueWaitMeanSpreadMs(sr.mode, c, N, L),
    theoryE2eP95Ms: queueWaitP95WavesMs(sr.mode, c, N, L) + L,
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
    upstream: upstreamRow(sr.mode, c, N, cells, requests),
  };
}

// ---------------------------------------------------------------- published vs measured

type Pub000 = typeof publishedJson['000'];
const PUB: Pub000 = publishedJson['000'];

/**
 * The setup identities of study 000 from published.json, figure id → kind.
 * @throws Error when published.json names a kind this version does not know (a data error)
 */
export const SETUP_IDENTITIES: ReadonlyMap<string, SetupIdentity> = (() => {
  const out = new Map<string, SetupIdentity>();
  for (const [id, kind] of Object.entries(PUB.setupIdentities)) {
    if (id === 'about') continue;
    if (!IDENTITY_KINDS.includes(kind as SetupIdentity)) throw new Error(`published.json 000.setupIdentities.${id}: unknown kind ${JSON.stringify(kind)}`);
    out.set(id, kind as SetupIdentity);
  }
  return out;
})();
const identityOf = (id: string): SetupIdentity | null => SETUP_IDENTITIES.get(id) ?? null;

type Diff = Reason | null;
function configDiffs(m: RunManifest): { host: Diff; jdk: Diff; n: Diff; repeats: Diff; latency: Diff; pool: Diff; levels: Diff } {
  const s = PUB.setup;
  const o = m.options;
  return {
    host: m.host.cpuModel.includes('Apple M4') ? null : { key: 'diff.host', v: { cpu: m.host.cpuModel, cores: m.host.cores, pub: s.host } },
    jdk: m.versions.jdk !== null && sameJdkVersion(s.jdk, m.versions.jdk) ? null : { key: 'diff.jdk', v: { jdk: m.versions.jdk ?? '?', pub: s.jdk } },
    n: o.requestsPerWorker === s.requestsPerWorker ? null : { key: 'diff.n', v: { n: o.requestsPerWorker, pub: s.requestsPerWorker } },
    repeats: o.repeats === s.repeats ? null : { key: 'diff.repeats', v: { repeats: o.repeats, pub: s.repeats } },
    latency: o.latencyMs === s.mockLatencyMs ? null : { key: 'diff.latency', v: { L: o.latencyMs, pub: s.mockLatencyMs } },
    pool: o.poolSize === s.fixedPoolSize ? null : { key: 'diff.pool', v: { N: o.poolSize, pub: s.fixedPoolSize } },
    levels: JSON.stringify(o.levels) === JSON.stringify(s.concurrencyLevels) ? null : { key: 'diff.levels', v: { levels: o.levels.join('/'), pub: s.concurrencyLevels.join('/') } },
  };
}
const present = (xs: (Reason | null)[]): Reason[] => xs.filter((x): x is Reason => x !== null);

function verdictOf(published: number, measured: number | null, tol: { rel: number; abs: number }): { diff: number | null; diffPct: number | null; verdict: Verdict } {
  if (measured === null) return { diff: null, diffPct: null, verdict: 'not tested here' };
  const diff = measured - published;
  const diffPct = published !== 0 ? (diff / published) * 100 : null;
  const allowed = Math.max(tol.abs, Math.abs(published) * tol.rel);
  return { diff, diffPct, verdict: Math.abs(diff) <= allowed + 1e-9 ? 'reproduced' : 'not reproduced' };
}

function buildPublished(m: RunManifest, rows: RowModel[], cells: CellResult[], totals: ReportModel['totals'], pin: PinRule): PublishedRow[] {
  const d = configDiffs(m);
  const out: PublishedRow[] = [];
  const rowOf = (mode: Mode, c: number) => rows.find((r) => r.mode === mode && r.concurrency === c) ?? null;
  const configBlock = present([d.latency, d.pool]);
  const sameReason = (a: Reason, b: Reason) => a.key === b.key;
  /** `always` reasons are shown whatever the verdict; `expected` ones explain a miss */
  const add = (id: string, label: string, mode: Mode | 'both', c: number | null, unit: PublishedRow['unit'], published: number,
    measured: (r: RowModel | null) => number | null, tol: { rel: number; abs: number }, expected: (Reason | null)[], always: Reason[] = []) => {
    const row = mode === 'both' || c === null ? null : rowOf(mode, c);
    const reasons: Reason[] = [];
    let v: ReturnType<typeof verdictOf>;
    let value: number | null = null;
    if (configBlock.length) {
      reasons.push({ key: 'notComparable', parts: configBlock });
      v = { diff: null, diffPct: null, verdict: 'not tested here' };
    } else if (mode !== 'both' && c !== null && !row) {
      reasons.push(m.options.levels.includes(c) && m.options.modes.includes(mode) ? { key: 'missingCells', v: { mode, c } } : { key: 'notInPlan', v: { mode, c } });
      v = { diff: null, diffPct: null, verdict: 'not tested here' };
    } else {
      value = measured(row);
      v = verdictOf(published, value, tol);
      if (value === null) reasons.push({ key: 'noData' });
      reasons.push(...always);
      const exp = present(expected);
      const hostSensitive = unit === 'ms' || unit === 'req/s' || unit === 'MiB';
      if (v.verdict === 'not reproduced') reasons.push(...exp, ...present(hostSensitive ? [d.host, d.jdk] : []).filter((x) => !exp.some((e) => sameReason(e, x))));
    }
    out.push({ id, label, mode, concurrency: c, unit, published, measured: value, ...v, tolerance: tol, reasons, identity: identityOf(id) });
  };
  const r = PUB.results;
  const T = { rel: 0.05, abs: 0 };
  for (const mode of MODE_ORDER) {
    const pm = r[mode] as Record<string, unknown>;
    const byLevel = (key: string) => Object.entries((pm[key] ?? {}) as Record<string, number>).sort((a, b) => Number(a[0]) - Number(b[0]));
    for (const [lv, val] of byLevel('throughputRps')) add(`${mode}.throughputRps.${lv}`, 'throughput (whole run)', mode, Number(lv), 'req/s', val, (x) => x?.wholeRunRps.median ?? null, T, [d.n]);
    for (const [lv, val] of byLevel('e2eP95Ms')) add(`${mode}.e2eP95Ms.${lv}`, 'E2E P95', mode, Number(lv), 'ms', val, (x) => x?.e2eP95Ms.median ?? null, LAT_TOL, [d.n]);
    for (const [lv, val] of byLevel('e2eP99Ms')) add(`${mode}.e2eP99Ms.${lv}`, 'E2E P99', mode, Number(lv), 'ms', val, (x) => x?.e2eP99Ms.median ?? null, { rel: 0.1, abs: 50 }, [{ key: 'p99Mock' }]);
    for (const [lv, val] of byLevel('queueWaitP95Ms')) add(`${mode}.queueWaitP95Ms.${lv}`, 'queue wait P95', mode, Number(lv), 'ms', val, (x) => x?.queueP95Ms.median ?? null, { rel: 0.05, abs: 10 }, [d.n]);
    for (const [lv, val] of byLevel('executionP95Ms')) add(`${mode}.executionP95Ms.${lv}`, 'execution P95', mode, Number(lv), 'ms', val, (x) => x?.execP95Ms.median ?? null, LAT_TOL, [{ key: 'execMock' }]);
    for (const [lv, val] of byLevel('errorRate')) add(`${mode}.errorRate.${lv}`, 'error rate', mode, Number(lv), 'ratio', val, (x) => x?.errorRate.median ?? null, { rel: 0, abs: 0.001 }, []);
    const td = pm['threadDumpAt500'] as Record<string, number> | undefined;
    const cellPeak = (mm: Mode, c: number, f: (cell: CellResult) => number | null) => maxOf(cells.filter((x) => x.mode === mm && x.concurrency === c).map(f));
    if (td) {
      const exact = { rel: 0, abs: 0 };
      const sampled: Reason = { key: 'sampled', v: { ms: m.options.samplerIntervalMs } };
      if (td['poolThreadsInSocketRead'] !== undefined) add(`${mode}.threadDump.poolThreadsInSocketRead.500`, 'thread dump: pool threads in socket read', mode, 500, 'threads', td['poolThreadsInSocketRead'], () => cellPeak(mode, 500, (x) => x.threadDump?.inSocketRead.fixedPool ?? null), exact, []);
      if (td['activeThreadsPeak'] !== undefined) add(`${mode}.threadDump.activeThreadsPeak.500`, 'executor active peak', mode, 500, 'threads', td['activeThreadsPeak'], () => cellPeak(mode, 500, (x) => maxOf(x.samples.map((s) => s.executorActive))), exact, []);
      if (td['activeVirtualTasksPeak'] !== undefined) add(`${mode}.threadDump.activeVirtualTasksPeak.500`, 'active virtual tasks peak', mode, 500, 'tasks', td['activeVirtualTasksPeak'], () => cellPeak(mode, 500, (x) => maxOf(x.samples.map((s) => s.executorActive))), { rel: 0.02, abs: 0 }, [sampled]);
      if (td['queuePeak'] !== undefined) add(`${mode}.threadDump.queuePeak.500`, 'executor queue peak', mode, 500, 'tasks', td['queuePeak'], () => cellPeak(mode, 500, (x) => maxOf(x.samples.map((s) => s.queueSize))), { rel: 0.02, abs: 0 }, [sampled]);
    }
    if (mode === 'virtual') {
      const vr = r.virtual;
      add('virtual.rssDeltaVsFixedAt500MiB', 'RSS peak, virtual − fixed', 'virtual', 500, 'MiB', vr.rssDeltaVsFixedAt500MiB,
        () => rssDeltaMiB(rowOf('fixed', 500)?.resources.peakRssBytes.median ?? null, rowOf('virtual', 500)?.resources.peakRssBytes.median ?? null),
        { rel: 0.5, abs: 0 }, [{ key: 'rssNotPerThread' }, d.host, d.jdk]);
      // the same rule as the §15 conclusion: at most 1 pinned event per 100 virtual-thread requests
      add('virtual.pinnedEvents', 'pinned events (all virtual cells)', 'both', null, 'events', vr.pinnedEvents,
        () => pin.events, { rel: 0, abs: pin.allowed }, [], [{ key: 'pinnedMethod', v: { thr: pin.thresholdMs ?? m.options.pinnedThresholdMs } }]);
    }
  }
  // setup totals: only comparable when the plan is the study's
  const planDiffs = present([d.n, d.repeats, d.levels]);
  // totals over the cells that have a result: incomplete when planned cells are missing (a gap, not a setup fault)
  const missingCells = m.cellOrder.filter((id) => !cells.some((x) => x.cellId === id)).length;
  const totalReasons: Reason[] = planDiffs.length ? [{ key: 'planDiffers', parts: planDiffs }] : missingCells > 0 ? [{ key: 'cellsMissing', v: { n: missingCells, of: m.cellOrder.length } }] : [];
  const pushTotal = (id: string, label: string, published: number, measured: number) => {
    if (totalReasons.length) {
      out.push({ id, label, mode: 'both', concurrency: null, unit: 'requests', published, measured, diff: measured - published, diffPct: published !== 0 ? ((measured - published) / published) * 100 : null, tolerance: { rel: 0, abs: 0 }, verdict: 'not tested here', reasons: totalReasons, identity: identityOf(id) });
      return;
    }
    const v = verdictOf(published, measured, { rel: 0, abs: 0 });
    out.push({ id, label, mode: 'both', concurrency: null, unit: 'requests', published, measured, ...v, tolerance: { rel: 0, abs: 0 }, reasons: [], identity: identityOf(id) });
  };
  pushTotal('setup.totalRequests', 'requests in total', PUB.setup.totalRequests, totals.count);
  pushTotal('setup.failedRequests', 'failed requests', PUB.setup.failedRequests, totals.failed);
  return out;
}

// ---------------------------------------------------------------- conclusions

function buildConclusions(model: Omit<ReportModel, 'conclusions' | 'followUps'>): ConclusionRow[] {
  const N = model.poolSize;
  const fixedAbove = model.rows.filter((r) => r.mode === 'fixed' && r.concurrency > N);
  const topFixed = fixedAbove[fixedAbove.length - 1] ?? null;
  const h = model.highest;
  const rows: ConclusionRow[] = [];
  const nt = (id: string, kind: ConclusionRow['kind'], evidence: ConclusionRow['evidence'] = {}): ConclusionRow => ({ id, kind, verdict: 'not tested here', evidence });
  // 1 fixed pool queues beyond its size
  if (topFixed && topFixed.queueP95Ms.median !== null) {
    rows.push({ id: 'fixedQueues', kind: 'proven', verdict: topFixed.queueP95Ms.median >= 0.5 * model.latencyMs ? 'reproduced' : 'not reproduced',
      evidence: { concurrency: topFixed.concurrency, queueP95Ms: topFixed.queueP95Ms.median, theoryMs: topFixed.theoryQueueP95Ms } });
  } else rows.push(nt('fixedQueues', 'proven', { reason: 'no fixed level above the pool size' }));
  // 2 fixed E2E mostly queue wait
  if (topFixed?.means) {
    const share = topFixed.means.queueMs / topFixed.means.e2eMs;
    rows.push({ id: 'fixedE2eIsQueue', kind: 'proven', verdict: share > 0.5 ? 'reproduced' : 'not reproduced', evidence: { concurrency: topFixed.concurrency, queueSharePct: share * 100 } });
  } else rows.push(nt('fixedE2eIsQueue', 'proven'));
  // 3 VT cuts queue wait
  if (h && h.concurrency > N && h.fixed.queueP95Ms.median !== null && h.virtual.queueP95Ms.median !== null) {
    rows.push({ id: 'vtCutsQueue', kind: 'proven', verdict: h.queueP95 === 'wins' ? 'reproduced' : 'not reproduced', evidence: { concurrency: h.concurrency, fixedMs: h.fixed.queueP95Ms.median, virtualMs: h.virtual.queueP95Ms.median } });
  } else rows.push(nt('vtCutsQueue', 'proven'));
  // 4 VT raises capacity
  if (h && h.concurrency > N && h.throughput) {
    rows.push({ id: 'vtRaisesCapacity', kind: 'proven', verdict: h.throughput === 'wins' ? 'reproduced' : 'not reproduced', evidence: { concurrency: h.concurrency, fixedRps: h.fixed.wholeRunRps.median, virtualRps: h.virtual.wholeRunRps.median } });
  } else rows.push(nt('vtRaisesCapacity', 'proven'));
  // 5, 6 the headline figures at 500
  const pub = (id: string) => model.published.find((p) => p.id === id);
  for (const [cid, a, b] of [['throughput500', 'fixed.throughputRps.500', 'virtual.throughputRps.500'], ['e2eP95500', 'fixed.e2eP95Ms.500', 'virtual.e2eP95Ms.500']] as const) {
    const pa = pub(a);
    const pb = pub(b);
    if (!pa || !pb || pa.verdict === 'not tested here' || pb.verdict === 'not tested here') rows.push(nt(cid, 'proven', { fixed: pa?.measured ?? null, virtual: pb?.measured ?? null }));
    else rows.push({ id: cid, kind: 'proven', verdict: pa.verdict === 'reproduced' && pb.verdict === 'reproduced' ? 'reproduced' : 'not reproduced', evidence: { fixed: pa.measured, virtual: pb.measured, publishedFixed: pa.published, publishedVirtual: pb.published } });
  }
  // 7 execution P95 equal
  if (h && h.execSame !== null) {
    rows.push({ id: 'execEqual', kind: 'proven', verdict: h.execSame ? 'reproduced' : 'not reproduced', evidence: { concurrency: h.concurrency, fixedMs: h.fixed.execP95Ms.median, virtualMs: h.virtual.execP95Ms.median } });
  } else rows.push(nt('execEqual', 'proven'));
  // 8 no notable pinning: the same rule as the §8.7 row (at most 1 event per 100 virtual-thread requests)
  const pr = model.pinRule;
  if (pr.notable !== null) {
    rows.push({ id: 'noPinning', kind: 'proven', verdict: pr.notable ? 'not reproduced' : 'reproduced', evidence: { events: pr.events, requests: pr.requests, thresholdMs: pr.thresholdMs } });
  } else rows.push(nt('noPinning', 'proven'));
  // 9 VT no substitute for limits: shown by the absence of back-pressure towards the upstream. Measured
  // at the mock only with per-cell statistics; otherwise derived from the per-request timings, where
  // "more" must hold between the virtual lower bound and the fixed upper bound.
  const up = h ? { f: h.fixed.upstream, v: h.virtual.upstream } : null;
  const fixedCeil = up === null ? null : up.f.source === 'mock' ? up.f.peak.median : up.f.source === 'derived' ? (up.f.atMost?.median ?? null) : null;
  const vtFloor = up === null || up.v.source === 'none' ? null : up.v.peak.median;
  if (h && up && up.f.source !== 'none' && up.v.source !== 'none' && fixedCeil !== null && vtFloor !== null) {
    const source = up.f.source === 'mock' && up.v.source === 'mock' ? 'mock' : 'derived';
    rows.push({ id: 'needLimits', kind: 'proven', verdict: vtFloor > fixedCeil ? 'reproduced' : 'not reproduced',
      evidence: { concurrency: h.concurrency, fixedUpstream: fixedCeil, virtualUpstream: vtFloor, upstreamSource: source } });
  } else rows.push(nt('needLimits', 'proven'));
  // not proven by the study, and not by this run either
  rows.push(nt('realProvider', 'not-proven'));
  rows.push(nt('pinningEverywhere', 'not-proven'));
  rows.push(nt('otherDeps', 'not-proven'));
  rows.push(nt('cpuBound', 'not-proven'));
  const jdk = model.manifest.versions.jdk;
  // running on JDK 21 is a setup identity, not evidence that the results equal a JDK 21 run: that
  // needs a second run to compare with, so this run never marks it reproduced
  rows.push(nt('jdk21', 'not-proven', { jdk: jdk ?? null }));
  const rssDelta = pub('virtual.rssDeltaVsFixedAt500MiB');
  const hr = h ? rssDeltaMiB(h.fixed.resources.peakRssBytes.median, h.virtual.resources.peakRssBytes.median) : null;
  rows.push(nt('vtCostNegligible', 'not-proven', { concurrency: h?.concurrency ?? null, rssDeltaMiB: hr, published: rssDelta?.published ?? null }));
  return rows;
}

const FOLLOW_UPS: FollowUp[] = [
  { id: 'jdk21', command: 'JAVA_HOME=/path/to/jdk-21 npx zx run.mjs --modes fixed,virtual --levels 50,200,500' },
  { id: 'fixed100', command: 'npx zx run.mjs --pool-size 100' },
  { id: 'fixed500', command: 'npx zx run.mjs --pool-size 500' },
  { id: 'realProvider', command: null },
  { id: 'latency100', command: 'npx zx run.mjs --latency-ms 100' },
  { id: 'latency500', command: 'npx zx run.mjs --latency-ms 500' },
  { id: 'latency3000', command: 'npx zx run.mjs --latency-ms 3000' },
  { id: 'latency10000', command: 'npx zx run.mjs --latency-ms 10000' },
  { id: 'connPool', command: null },
  { id: 'bulkhead', command: null },
  { id: 'faults', command: null },
  { id: 'resources', command: 'npx zx run.mjs --modes fixed,virtual --levels 50,200,500' },
  { id: 'pinningReal', command: 'npx zx run.mjs --pinned-threshold-ms 0' },
  { id: 'cpuBound', command: null },
];

// ---------------------------------------------------------------- the model

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

export function buildModel(run: LoadedRun): ReportModel {
  const m = run.manifest;
  const { cells, summary } = run;
  const cellsOf = (mode: Mode, c: number) => cells.filter((x) => x.mode === mode && x.concurrency === c).sort((a, b) => a.repeat - b.repeat);
  const rows = summary.rows
    .slice()
    .sort((a, b) => MODE_ORDER.indexOf(a.mode) - MODE_ORDER.indexOf(b.mode) || a.concurrency - b.concurrency)
    .map((sr) => buildRow(sr, cellsOf(sr.mode, sr.concurrency), m, run.requests));
  const levels = [...new Set(rows.map((r) => r.concurrency))].sort((a, b) => a - b);
  const modes = MODE_ORDER.filter((md) => rows.some((r) => r.mode === md));
  const comparisons: LevelComparison[] = [];
  for (const c of levels) {
    const f = rows.find((r) => r.mode === 'fixed' && r.concurrency === c);
    const v = rows.find((r) => r.mode === 'virtual' && r.concurrency === c);
    if (!f || !v) continue;
    const ft = f.wholeRunRps.median;
    const vt = v.wholeRunRps.median;
    const fe = f.e2eP95Ms.median;
    const ve = v.e2eP95Ms.median;
    const fx = f.execP95Ms.median;
    const vx = v.execP95Ms.median;
    comparisons.push({
      concurrency: c, fixed: f, virtual: v,
      throughputRatio: ft && vt !== null ? vt / ft : null,
      throughput: outcomeHigherBetter(vt, ft),
      e2eP95Ratio: fe && ve !== null ? ve / fe : null,
      e2eP95: outcomeLowerBetter(ve, fe),
      queueP95: outcomeLowerBetter(v.queueP95Ms.median, f.queueP95Ms.median, 10),
      execP95RelDiff: fx && vx !== null ? (vx - fx) / fx : null,
      execSame: fx !== null && vx !== null ? sameLatency(fx, vx) : null,
      execSlowerVirtual: fx !== null && vx !== null && !sameLatency(fx, vx) && vx > fx,
      vtQueueDelayed: v.queueP95Ms.median !== null && v.queueP95Ms.median > schedulerDelayThresholdMs(m.options.latencyMs),
    });
  }
  const count = cells.reduce((s, x) => s + x.load.count, 0);
  const ok = cells.reduce((s, x) => s + x.load.ok, 0);
  const perRepeat = plannedRequestsPerRepeat(m.options.levels, m.options.requestsPerWorker);
  const totals = {
    plannedPerRepeatPerMode: perRepeat,
    plannedTotal: perRepeat * m.options.repeats * m.options.modes.length,
    plannedCells: m.cellOrder.length,
    presentCells: cells.length,
    count, ok, failed: count - ok,
    errorRate: count > 0 ? (count - ok) / count : null,
  };
  const sutKeys = Object.keys(m.sut).sort();
  const firstSut = sutKeys[0];
  const mockModel = cells.map((x) => x.mock.after?.config['model'] ?? x.mock.before?.config['model']).find((x): x is string => typeof x === 'string') ?? null;

  const topLevelOf = (mode: Mode) => maxOf(rows.filter((r) => r.mode === mode).map((r) => r.concurrency));
  const threadDumps: ThreadDumpEvidence[] = cells.filter((x) => x.threadDump !== null).map(dumpEvidence).sort((a, b) => MODE_ORDER.indexOf(a.mode) - MODE_ORDER.indexOf(b.mode) || a.concurrency - b.concurrency || (a.cellId < b.cellId ? -1 : 1));

  const pinning: PinningRow[] = rows.map((r) => {
    const cs = cellsOf(r.mode, r.concurrency);
    const withData = cs.filter((x) => x.pinned !== null);
    const byReason: Record<string, number> = {};
    for (const x of withData) for (const [k, n] of Object.entries(x.pinned?.byReason ?? {})) byReason[k] = (byReason[k] ?? 0) + n;
    return {
      mode: r.mode, concurrency: r.concurrency,
      thresholdMs: withData[0]?.pinned?.thresholdMs ?? null,
      total: withData.length ? withData.reduce((s, x) => s + (x.pinned?.total ?? 0), 0) : null,
      byReason, cells: cs.length, cellsWithData: withData.length,
    };
  });
  const pinningReasons = MODE_ORDER.flatMap((mode) => {
    const byReason: Record<string, number> = {};
    for (const p of pinning) if (p.mode === mode) for (const [k, n] of Object.entries(p.byReason)) byReason[k] = (byReason[k] ?? 0) + n;
    return groupPinnedReasons(byReason).map((g) => ({ mode, kind: g.kind, count: g.count, reasons: g.reasons }));
  });

  const vtCells = cells.filter((x) => x.mode === 'virtual');
  const vtRequests = vtCells.reduce((s, x) => s + x.load.count, 0);
  const pinEvents = vtCells.length === 0 || vtCells.some((x) => x.pinned === null) ? null : vtCells.reduce((s, x) => s + (x.pinned?.total ?? 0), 0);
  const pinAllowed = PIN_EVENTS_PER_REQUEST * vtRequests;
  const pinRule: PinRule = {
    events: pinEvents, requests: vtRequests, thresholdMs: vtCells.find((x) => x.pinned !== null)?.pinned?.thresholdMs ?? null, allowed: pinAllowed,
    notable: pinEvents === null || vtRequests === 0 ? null : pinEvents > pinAllowed + 1e-9,
  };

  const qThr = schedulerDelayThresholdMs(m.options.latencyMs);
  // older runs carried the SUT-CPU share under `host-cpu`: read it as `sut-cpu` (one unit per code)
  const flags = cells.flatMap((x) => x.flags.map((flag) => ({ cellId: x.cellId, flag: upgradeLegacyFlag(flag) })));
  const schedulerDelay = cells.filter((x) => x.mode === 'virtual' && x.load.queueMs !== null && x.load.queueMs.p95 > qThr)
    .map((x) => ({ cellId: x.cellId, concurrency: x.concurrency, queueP95Ms: x.load.queueMs?.p95 as number }));
  // the pipeline's rule (src/pipeline/flags.ts sutCpuSaturation), so §14 and the `sut-cpu` flag agree
  const sutCpu = cells.flatMap((x) => {
    const cpu = sutCpuSaturation(x.samples, x.t0EpochMs);
    return cpu.saturated ? [{ cellId: x.cellId, mode: x.mode, concurrency: x.concurrency, peakCpu: cpu.peak ?? 0, samplesAbove: cpu.samplesAbove, share: cpu.share ?? 0 }] : [];
  });
  const hostFlags = flags.filter((f) => f.flag.code !== 'errors-above-threshold');
  const firstInfo = sutKeys.map((k) => m.sut[k]).find((x) => x !== undefined);
  const saturation: Saturation = {
    carriers: firstInfo?.vtSchedulerParallelism ?? firstInfo?.availableProcessors ?? m.host.cores,
    queueThresholdMs: qThr, cpuThreshold: SUT_CPU_SATURATED, cpuShareThreshold: SUT_CPU_SATURATED_SHARE,
    schedulerDelay, sutCpu, hostFlags,
    saturated: schedulerDelay.length > 0 || sutCpu.length > 0 || hostFlags.length > 0,
  };

  // charts: time series of the highest level of each mode (first repeat present)
  const series: SeriesPoint[] = [];
  const distribution: ReportModel['charts']['distribution'] = [];
  for (const mode of modes) {
    const top = topLevelOf(mode);
    if (top === null) continue;
    const cs = cellsOf(mode, top);
    const cell = cs[0];
    if (cell) {
      for (const s of cell.samples) {
        const tS = Math.round((s.tEpochMs - cell.t0EpochMs) / 10) / 100;
        series.push({ cellId: cell.cellId, mode, tS, metric: 'inFlight', value: s.inFlight });
        series.push({ cellId: cell.cellId, mode, tS, metric: 'queue', value: s.queueSize });
        series.push({ cellId: cell.cellId, mode, tS, metric: 'platformThreads', value: s.platformThreads });
        series.push({ cellId: cell.cellId, mode, tS, metric: 'heapMiB', value: Math.round((s.heapUsedBytes / MIB) * 10) / 10 });
        if (s.rssBytes !== null) series.push({ cellId: cell.cellId, mode, tS, metric: 'rssMiB', value: Math.round((s.rssBytes / MIB) * 10) / 10 });
        if (s.processCpuLoad !== null) series.push({ cellId: cell.cellId, mode, tS, metric: 'cpuPct', value: Math.round(s.processCpuLoad * 10000) / 100 });
      }
    }
    const e2e: number[] = [];
    for (const x of cs) {
      const req: CompactRequests | undefined = run.requests.get(x.cellId);
      if (req) pushAll(e2e, successfulColumns(req).e2eMs); // no push(...xs): a cell can hold >125k requests
    }
    if (e2e.length) {
      e2e.sort((a, b) => a - b);
      const ps = [...Array.from({ length: 100 }, (_, i) => i), 99.5, 99.9, 100];
      for (const p of ps) distribution.push({ mode, concurrency: top, pct: p, e2eMs: Math.round(quantileSorted(e2e, p / 100) * 1000) / 1000 });
    }
  }

  const base: Omit<ReportModel, 'conclusions' | 'followUps'> = {
    runId: m.runId,
    jvmBlocks: jvmBlocks(cells),
    isFixture: m.options.profile === 'fixture',
    manifest: m,
    sutInfo: firstSut !== undefined ? (m.sut[firstSut] ?? null) : null,
    mockModel,
    percentileDefinition: summary.percentileDefinition,
    summarySource: run.summarySource,
    gaps: run.gaps,
    levels, modes,
    latencyMs: m.options.latencyMs,
    poolSize: m.options.poolSize,
    requestsPerWorker: m.options.requestsPerWorker,
    totals,
    warmups: m.options.warmupS > 0 ? MODE_ORDER.filter((md) => m.options.modes.includes(md)).flatMap((md) => { const w = warmupPlan(md, m.options); return w ? [{ mode: md, ...w }] : []; }) : null,
    rows,
    comparisons,
    highest: comparisons[comparisons.length - 1] ?? null,
    lowest: comparisons[0] ?? null,
    rampFraction: rampWholeRunFraction(m.options.requestsPerWorker),
    published: [],
    threadDumps,
    pinning,
    pinningReasons,
    pinRule,
    pinReads: { cellsWithData: cells.filter((x) => x.pinned !== null).length, flushed: cells.filter((x) => x.pinned?.flushed === true).length },
    flags,
    saturation,
    charts: { series, distribution },
  };
  base.published = buildPublished(m, rows, cells, totals, pinRule);
  if (modes.length < 2) base.gaps.push(`only one mode (${modes.join(', ')}) has results; comparisons between modes are omitted`);
  return { ...base, conclusions: buildConclusions(base), followUps: FOLLOW_UPS };
}

export { medianOf };
