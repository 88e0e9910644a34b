/**
 * Study 004's part of its report (Study.report, src/report/types.ts): experiment 1 from the
 * in-process cells' job answers (CellResult.job: makespan, submit time, peaks, thread kinds, RSS),
 * experiment 2 from the closed-loop rows (min, P50, P90, P95, P99, max; thread and CPU bounds, and
 * which limited), Boot's executors as the SUT read them back (manifest `sut.<block>.boot`), and the
 * study's statements ("above 150 ms", "below 100 ms") judged as the bounds they are. Values across
 * repeats are the median of the per-repeat values (min–max and n beside them), never an average.
 * This file holds the model stage (rows, derive004, figures, conclusions); the sections are under
 * ./sections/ and the hook that joins them is ./hook.ts.
 */
import type { PublishedRow } from '../../types/study.ts';
import type { CellResult, InProcessJobResult } from '../../types/run.ts';
import type { BaseModel, ConclusionRow, DeriveInput, FigureCheck, Verdict } from '../../report/types.ts';
import { int, num } from '../../report/format.ts';
import { aggregate } from '../../compute/stats/aggregate.ts';
import { isolatedSutCores } from '../../compute/theory/cell-bounds.ts';
import type { Agg } from '../../types/run.ts';
import { asyncMakespanTheoryMs, asyncThreads, httpBounds, httpQueueWaitMeanMs } from './theory.ts';

/** the study's published scenarios */
export const ASYNC = 'async-burst';
export const HTTP = 'servlet-sleep';
/** the acceptance band of a makespan against its theory (issue 14: ±5 %) */
export const MAKESPAN_THEORY_TOL = 0.05;

/** The in-process cells of one variant, by repeat. */
function jobsOf(cells: readonly CellResult[], variant: string): InProcessJobResult[] {
  return cells.filter((c) => c.variant === variant && c.job !== undefined).sort((a, b) => a.repeat - b.repeat).map((c) => c.job as InProcessJobResult);
}

const aggOf = (xs: readonly (number | null)[]): Agg => aggregate(xs);

/** Experiment 1 of one variant: medians over repeats, theory, and the thread kinds seen. */
export interface AsyncRow {
  variant: string;
  tasks: number;
  sleepMs: number;
  makespanMs: Agg;
  submitMs: Agg;
  submitRatePerS: Agg;
  firstStartMs: Agg;
  /** ⌈T/N⌉ × S, or S with one virtual thread per task (no submission time) */
  theoryMs: number;
  /** virtual: S + the median submit time (the tasks cannot end before the last one was submitted) */
  theoryWithSubmitMs: number | null;
  /** makespan median / theory − 1 */
  vsTheory: number | null;
  peakPoolThreads: Agg;
  peakQueue: Agg;
  peakRunningTasks: Agg;
  peakPlatformThreads: Agg;
  virtualTasks: number;
  platformTasks: number;
  prefixes: string[];
  executorClass: string;
  rssBeforeBytes: Agg;
  rssAfterBytes: Agg;
}

/** Experiment 1 per variant (pure). */
export function asyncRows(model: Pick<BaseModel, 'cells' | 'variants' | 'variantSpecs'>): AsyncRow[] {
  return model.variants.flatMap((v) => {
    const js = jobsOf(model.cells, v);
    const exec = model.variantSpecs.get(v)?.executor;
    if (js.length === 0 || !exec) return [];
    const j0 = js[0] as InProcessJobResult;
    const makespanMs = aggOf(js.map((j) => j.makespanMs));
    const submitMs = aggOf(js.map((j) => j.submitMs));
    const theoryMs = asyncMakespanTheoryMs(exec, j0.tasks, j0.sleepMs);
    const perTask = asyncThreads(exec) === null;
    return [{
      variant: v, tasks: j0.tasks, sleepMs: j0.sleepMs, makespanMs, submitMs,
      submitRatePerS: aggOf(js.map((j) => j.submitRatePerS)), firstStartMs: aggOf(js.map((j) => j.firstStartMs)),
      theoryMs, theoryWithSubmitMs: perTask && submitMs.median !== null ? theoryMs + submitMs.median : null,
      vsTheory: makespanMs.median === null ? null : makespanMs.median / theoryMs - 1,
      peakPoolThreads: aggOf(js.map((j) => j.peakPoolThreads)), peakQueue: aggOf(js.map((j) => j.peakQueue)),
      peakRunningTasks: aggOf(js.map((j) => j.peakRunningTasks)), peakPlatformThreads: aggOf(js.map((j) => j.peakPlatformThreads)),
      virtualTasks: js.reduce((s, j) => s + j.virtualTasks, 0), platformTasks: js.reduce((s, j) => s + j.platformTasks, 0),
      prefixes: [...new Set(js.flatMap((j) => Object.keys(j.tasksByThreadNamePrefix)))].sort(),
      executorClass: j0.executorClass,
      rssBeforeBytes: aggOf(js.map((j) => j.rssBeforeBytes)), rssAfterBytes: aggOf(js.map((j) => j.rssAfterBytes)),
    }];
  });
}

/** Experiment 2 of one variant at its level: latency percentiles (medians over repeats) and bounds. */
export interface HttpRow {
  variant: string;
  clients: number;
  minMs: Agg; p50Ms: Agg; p90Ms: Agg; p95Ms: Agg; p99Ms: Agg; maxMs: Agg;
  throughputRps: Agg;
  /** SUT CPU + load generator CPU per successful request, ms (service demand); null when unknown */
  cpuMsPerRequest: number | null;
  threadBoundRps: number;
  cpuBoundRps: number | null;
  /** the smaller of the two bounds (httpBounds) */
  smaller: 'threads' | 'cpu';
  /** throughput median ÷ the smaller bound; null without a throughput */
  shareOfSmaller: number | null;
  /**
   * what limited the variant: the smaller bound when the throughput keeps it (≤ LIMIT_BAND above it);
   * `none` when the throughput exceeds it (a cell is never said to be limited by a bound it exceeded:
   * the CPU estimate is then no bound here)
   */
  limit: 'threads' | 'cpu' | 'none';
  /** mean E2E by theory in a steady closed loop: L + (c/N − 1) × L */
  theoryMeanE2eMs: number;
  meanE2eMs: Agg;
}

/**
 * CPU per successful request of one cell, ms: SUT process CPU (first→last sample) + generator CPU
 * (the SUT's alone with `withGenerator` false: a run with --isolate-cpus, whose generator has CPUs
 * of its own). Null when unknown.
 */
export function cellCpuMsPerRequest(c: CellResult, withGenerator = true): number | null {
  const s = c.samples.filter((x) => x.processCpuTimeNs !== null);
  const first = s[0]?.processCpuTimeNs;
  const last = s[s.length - 1]?.processCpuTimeNs;
  if (first == null || last == null || c.load.ok === 0) return null;
  const genMs = !withGenerator || c.loadgen.cpuPct === null ? 0 : (c.loadgen.cpuPct / 100) * c.durationMs;
  return ((last - first) / 1e6 + genMs) / c.load.ok;
}

/**
 * Experiment 2 per variant (pure). `cores`: the host's, or the SUT's own with --isolate-cpus, when
 * `withGenerator` is false and the CPU per request is the SUT's alone (cpuBoundInputs).
 */
export function httpRows(model: Pick<BaseModel, 'cells' | 'variants' | 'variantSpecs' | 'latencyMs'>, cores: number, withGenerator = true): HttpRow[] {
  return model.variants.flatMap((v) => {
    const cs = model.cells.filter((c) => c.variant === v && c.scenario === HTTP && c.load.e2eMs !== null).sort((a, b) => a.repeat - b.repeat);
    const exec = model.variantSpecs.get(v)?.executor;
    if (cs.length === 0 || !exec) return [];
    const c = cs[0]!.concurrency;
    const L = cs[0]!.latencyMs;
    const p = (f: (x: NonNullable<CellResult['load']['e2eMs']>) => number) => aggOf(cs.map((x) => (x.load.e2eMs ? f(x.load.e2eMs) : null)));
    const cpu = aggOf(cs.map((x) => cellCpuMsPerRequest(x, withGenerator))).median;
    const b = httpBounds(exec, c, L, cores, cpu);
    const throughputRps = aggOf(cs.map((x) => x.load.wholeRunThroughputRps));
    const smallerRps = b.limit === 'cpu' ? (b.cpuBoundRps as number) : b.threadBoundRps;
    const shareOfSmaller = throughputRps.median === null ? null : throughputRps.median / smallerRps;
    return [{
      variant: v, clients: c,
      minMs: p((e) => e.min), p50Ms: p((e) => e.p50), p90Ms: p((e) => e.p90), p95Ms: p((e) => e.p95), p99Ms: p((e) => e.p99), maxMs: p((e) => e.max),
      meanE2eMs: p((e) => e.mean),
      throughputRps,
      cpuMsPerRequest: cpu, threadBoundRps: b.threadBoundRps, cpuBoundRps: b.cpuBoundRps,
      smaller: b.limit, shareOfSmaller, limit: shareOfSmaller !== null && shareOfSmaller > 1 + LIMIT_BAND ? 'none' : b.limit,
      theoryMeanE2eMs: L + httpQueueWaitMeanMs(exec, c, L),
    }];
  });
}

/** How far above a bound a throughput may lie and still count as limited by it (the acceptance band of study 002's cells, ≤ 102 %). */
export const LIMIT_BAND = 0.02;

/** A statement of the study ("above", "below") against the run's median, as a verdict. */
function claimVerdict(measured: number | null, bound: number, kind: 'above' | 'below'): Verdict {
  if (measured === null) return 'not testable here';
  return (kind === 'above' ? measured > bound : measured < bound) ? 'reproduced' : 'not reproduced';
}

/**
 * One of the study's experiment-2 statements, judged. The study attributes platform threads' "above
 * 150 ms" to Tomcat's 200 threads, against virtual threads' "below 100 ms": a platform percentile above
 * 150 ms shows that only when virtual threads (no thread limit) stay at or below 150 ms at the same
 * percentile; when they are above it too, something else (this host's CPU) set the latency, so the
 * statement is not testable here. Virtual threads' "maximum below 100 ms" assumes no other limit: not
 * testable when the CPU limited the virtual variant.
 */
function httpClaim(id: string, pl: HttpRow | undefined, vt: HttpRow | undefined, pick: (r: HttpRow) => number | null, bound: number, kind: 'above' | 'below'): ConclusionRow {
  const own = kind === 'above' ? pl : vt;
  const m = own ? pick(own) : null;
  const control = kind === 'above' && vt ? pick(vt) : null;
  const evidence = { measuredMs: m, boundMs: bound, kind, controlMs: control };
  if (kind === 'above' && m !== null && control !== null && control > bound) return { id, kind: 'proven', verdict: 'not testable here', evidence: { ...evidence, why: 'controlAbove' } };
  if (kind === 'below' && m !== null && vt?.limit === 'cpu') return { id, kind: 'proven', verdict: 'not testable here', evidence: { ...evidence, why: 'cpuLimited', sharePct: vt.shareOfSmaller === null ? null : vt.shareOfSmaller * 100 } };
  return { id, kind: 'proven', verdict: claimVerdict(m, bound, kind), evidence };
}

/** Study 004's derived data (hook `derive`, ReportModel.derived): each experiment's rows, computed once per report. */
export interface Derived004 {
  /** experiment 1 per variant (asyncRows) */
  async: AsyncRow[];
  /** experiment 2 per variant (httpRows, with the host's cores) */
  http: HttpRow[];
}

/** The hook's `derive`: both experiments' rows, once (pure). */
export function derive004(model: DeriveInput): Derived004 {
  // --isolate-cpus: the SUT's CPUs over the SUT's own CPU per request (the generator has CPUs of its own)
  const sutCores = isolatedSutCores(model.manifest.options);
  return { async: asyncRows(model), http: httpRows(model, sutCores ?? model.manifest.host.cores, sutCores === null) };
}

/** The study's statements of experiment 2 that are bounds, and experiment 1's check against theory. */
export function conclusions(model: BaseModel<Derived004>): ConclusionRow[] {
  const out: ConclusionRow[] = [];
  const scenario = model.manifest.options.scenario;
  if (scenario === ASYNC) {
    for (const r of model.derived.async) {
      const within = r.vsTheory === null ? null : Math.abs(r.vsTheory) <= MAKESPAN_THEORY_TOL;
      // the makespan against its own ⌈T/N⌉ × S: a check of the setup (a setup identity), never a reproduction of the study
      out.push({
        id: `${r.variant}.makespanVsTheory`, kind: 'proven',
        verdict: r.theoryWithSubmitMs !== null || within === null ? 'not testable here' : within ? 'reproduced' : 'not reproduced',
        evidence: { variant: r.variant, measuredMs: r.makespanMs.median, theoryMs: r.theoryMs, vsTheory: r.vsTheory },
        identity: 'wavesOfPool',
      });
    }
  }
  if (scenario === HTTP) {
    const rows = model.derived.http;
    const pl = rows.find((r) => r.variant === 'platform');
    const vt = rows.find((r) => r.variant === 'virtual');
    const claims: [string, (r: HttpRow) => number | null, number, 'above' | 'below'][] = [
      ['platform.p50Above150', (r) => r.p50Ms.median, 150, 'above'],
      ['platform.p90Above150', (r) => r.p90Ms.median, 150, 'above'],
      ['platform.p95Above150', (r) => r.p95Ms.median, 150, 'above'],
      ['platform.p99Above150', (r) => r.p99Ms.median, 150, 'above'],
      ['virtual.maxBelow100', (r) => r.maxMs.median, 100, 'below'],
    ];
    for (const [id, pick, bound, kind] of claims) out.push(httpClaim(id, pl, vt, pick, bound, kind));
  }
  return out;
}

/** How the 004 figures are measured: makespan (ms) from the jobs' answers; min E2E from the row's cells. */
export function figure(row: PublishedRow, model: BaseModel<Derived004>): FigureCheck {
  if (row.metric === 'asyncMakespanMs') {
    const r = model.derived.async.find((x) => x.variant === row.variant);
    const theoryS = r ? r.theoryMs / 1000 : null;
    return {
      measured: () => r?.makespanMs.median ?? null,
      always: r && theoryS !== null ? [{ key: 'theory004', v: { theory: num(theoryS, 1), tasks: int(r.tasks), sleep: int(r.sleepMs) } }] : [],
      ...(r && r.tasks !== 100_000 ? { ownGate: [{ key: 'tasks004', v: { tasks: int(r.tasks) } }] } : {}),
    };
  }
  if (row.metric === 'e2eMinMs') {
    const r = model.derived.http.find((x) => x.variant === row.variant);
    return { measured: () => r?.minMs.median ?? null, tolerance: { rel: row.tolerance ?? 0, abs: 5 } };
  }
  return {};
}

