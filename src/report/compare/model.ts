/**
 * Run-versus-run comparison: cells of two runs matched by (study, scenario, variant, level); for
 * whole-run throughput and E2E P50/P95/P99 the difference B − A of the per-repeat means with a 95 %
 * Welch interval over the per-repeat values (src/compute/stats/welch.ts), the noise of each run (the
 * coefficient of variation of its repeats), and one of three verdicts per metric: faster, slower or
 * inconclusive (issue 33 item 4). Runs that differ in what changes the bounds or the host
 * (guard.ts) are "not comparable" unless the user allowed those differences (issue 33 item 3).
 * Pure: two loaded runs in, a serialisable Comparison out.
 *
 * The method, stated in every output (COMPARE_METHOD): each repeat of a cell gives one value of
 * each metric (its throughput, its P95, ...); the repeats of A and of B are two independent
 * samples; Welch's t with Satterthwaite df gives the interval of the difference of their means.
 * No bootstrap over per-request data: requests within a repeat are not independent (a closed loop
 * serialises each worker's requests, and a fixed pool's queue couples them all), so the repeat is
 * the unit of replication.
 */
import type { LoadedRun } from '../load.ts';
import type { CellResult } from '../../types/run.ts';
import { welch } from '../../compute/stats/welch.ts';
import { EXIT, VtbenchError } from '../../types/errors.ts';
import { guardDifferences, type GuardDifference, type GuardKind } from './guard.ts';

/** Metrics compared, with the names threshold rules use. */
export const COMPARE_METRICS = ['throughput', 'e2e_p50', 'e2e_p95', 'e2e_p99'] as const;
export type CompareMetric = (typeof COMPARE_METRICS)[number];

/** Label, unit and which direction is better for each metric. */
export const METRIC_INFO: Record<CompareMetric, { label: string; unit: 'req/s' | 'ms'; better: 'higher' | 'lower'; of: (c: CellResult) => number | null }> = {
  throughput: { label: 'throughput (whole run)', unit: 'req/s', better: 'higher', of: (c) => c.load.wholeRunThroughputRps },
  e2e_p50: { label: 'E2E P50', unit: 'ms', better: 'lower', of: (c) => c.load.e2eMs?.p50 ?? null },
  e2e_p95: { label: 'E2E P95', unit: 'ms', better: 'lower', of: (c) => c.load.e2eMs?.p95 ?? null },
  e2e_p99: { label: 'E2E P99', unit: 'ms', better: 'lower', of: (c) => c.load.e2eMs?.p99 ?? null },
};

export const CONFIDENCE = 0.95;

/** The default `--min-effect`, % of A's mean: the noise between repeats a verdict tolerates. */
export const DEFAULT_MIN_EFFECT_PCT = 5;

/** The method as stated in every output, with the minimum effect in force. */
export function compareMethod(minEffectPct: number = DEFAULT_MIN_EFFECT_PCT): string {
  return "Welch's two-sample t interval (Satterthwaite degrees of freedom), 95 %, over the per-repeat values of each cell " +
    '(one value per repeat: its whole-run throughput, its E2E P50/P95/P99); difference = mean of B − mean of A. ' +
    'The noise of a run is the coefficient of variation of its repeats (SD ÷ mean). ' +
    `A verdict is "faster" or "slower" when the interval excludes 0 and the noise of both runs is at most the minimum effect (${minEffectPct} %, --min-effect); ` +
    'else "inconclusive" (the interval includes 0, or the repeats of a run spread more than the effect asked for); ' +
    'with fewer than 2 repeats in a run it is "not computable" (the raw difference and ratio are still shown); ' +
    'runs that differ in what changes the bounds or the host are "not comparable" unless --allow-diff names those differences. Each metric of each cell is its own test: ' +
    'over many cells about 1 in 20 shows a difference by chance when there is none.';
}

export const COMPARE_METHOD = compareMethod();

export type Verdict = 'faster' | 'slower' | 'inconclusive' | 'not computable' | 'not comparable';

/** The verdicts in the order they are counted and listed. */
export const VERDICTS: readonly Verdict[] = ['faster', 'slower', 'inconclusive', 'not computable', 'not comparable'];

/** One run's side of a metric: the per-repeat values (nulls left out), their mean and SD. */
export interface Side {
  n: number;
  /** repeats whose value was not computable (null), left out of n */
  missing: number;
  mean: number | null;
  /** sample SD (n − 1); null for n < 2 */
  sd: number | null;
  /** the run's noise: coefficient of variation of its repeats, SD ÷ |mean| × 100 (%); null for n < 2 or mean 0 */
  cvPct: number | null;
  values: number[];
}

export interface MetricComparison {
  metric: CompareMetric;
  label: string;
  unit: 'req/s' | 'ms';
  better: 'higher' | 'lower';
  a: Side;
  b: Side;
  /** mean(B) − mean(A), shown even when no verdict is computable (one repeat); null when a run has no value */
  diff: number | null;
  /** diff / mean(A) × 100; null when either mean is missing or mean(A) = 0 */
  diffPct: number | null;
  /** mean(B) / mean(A); null when either mean is missing or mean(A) = 0 */
  ratio: number | null;
  /** 95 % interval of diff */
  ci: [number, number] | null;
  /** the interval relative to mean(A), % (A's mean taken as exact) */
  ciPct: [number, number] | null;
  df: number | null;
  t: number | null;
  p: number | null;
  /** the larger noise of the two runs (Side.cvPct), %; null when not computable */
  noisePct: number | null;
  /** the minimum effect the verdict was judged against, % of A's mean (--min-effect) */
  minEffectPct: number;
  verdict: Verdict;
  /** why the verdict is inconclusive (the interval includes 0; the noise exceeds the minimum effect); null otherwise */
  reason: string | null;
  /**
   * B is shown not slower by the minimum effect or more: the verdict is "faster", or it is
   * "inconclusive" only because the interval includes 0 while its slow end stays below the minimum
   * effect (relative to A's mean) and neither run's noise exceeds it — what a `not slower` gate
   * passes on (a non-inferiority test with the minimum effect as its margin). False otherwise.
   */
  notSlower: boolean;
  /** why not computable, or a note (e.g. no spread in either run) */
  note: string | null;
}

/** A cell key: what two runs must share for their cells to be compared. */
export interface CellKey {
  study: string;
  scenario: string;
  variant: string;
  level: number;
}

export interface CellComparison extends CellKey {
  /** cell ids of the repeats in A and in B */
  cellsA: string[];
  cellsB: string[];
  metrics: MetricComparison[];
}

export interface RunRef {
  runDir: string;
  runId: string;
  study: string;
  profile: string;
  status: string;
  /** the loader's gaps (missing cells, invalid files): what the comparison could not use */
  gaps: string[];
}

export interface Comparison {
  kind: 'vtbench-compare';
  /** 2: three verdicts, the noise and the environment guard (issue 33) */
  version: 2;
  method: string;
  confidence: number;
  /** the minimum effect, % of A's mean (--min-effect) */
  minEffectPct: number;
  /** false when the runs differ in a guarded setting not allowed by --allow-diff: every verdict is then "not comparable" */
  comparable: boolean;
  /** the guarded differences (guard.ts), each marked allowed or not */
  guard: GuardDifference[];
  /** the kinds --allow-diff named */
  allowDiff: GuardKind[];
  a: RunRef;
  b: RunRef;
  /** cells present in both runs, A's order */
  cells: CellComparison[];
  /** cells of one run without a counterpart in the other (never dropped silently) */
  onlyInA: CellKey[];
  onlyInB: CellKey[];
  /**
   * settings and host facts that differ between the runs (e.g. `requestsPerWorker: A 40, B 8`):
   * a difference found may come from them rather than from the change under test
   */
  differences: string[];
}

/** What a cell is matched on: all four, or without study / scenario when --allow-diff allows them to differ. */
interface MatchOn { study: boolean; scenario: boolean }

function keyOf(k: CellKey, on: MatchOn): string {
  return JSON.stringify([on.study ? k.study : '*', on.scenario ? k.scenario : '*', k.variant, k.level]);
}

/** The cells of a run grouped by key, in the run's order (the loader's: planned order). */
function groups(run: LoadedRun, on: MatchOn): Map<string, { key: CellKey; cells: CellResult[] }> {
  const out = new Map<string, { key: CellKey; cells: CellResult[] }>();
  for (const c of run.cells) {
    const key: CellKey = { study: run.manifest.options.study, scenario: c.scenario, variant: c.variant, level: c.concurrency };
    const k = keyOf(key, on);
    const g = out.get(k) ?? { key, cells: [] };
    g.cells.push(c);
    out.set(k, g);
  }
  for (const g of out.values()) g.cells.sort((x, y) => x.repeat - y.repeat);
  return out;
}

function side(cells: readonly CellResult[], of: (c: CellResult) => number | null): Side {
  return sideOf(cells.map(of));
}

/** One run's side of a metric from its per-repeat values (null or not finite: a repeat without a value). Pure. */
export function sideOf(perRepeat: readonly (number | null | undefined)[]): Side {
  const values: number[] = [];
  let missing = 0;
  for (const v of perRepeat) {
    if (v === null || v === undefined || !Number.isFinite(v)) missing++;
    else values.push(v);
  }
  const n = values.length;
  const mean = n > 0 ? values.reduce((s, x) => s + x, 0) / n : null;
  const sd = n > 1 && mean !== null ? Math.sqrt(values.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1)) : null;
  const cvPct = sd !== null && mean !== null && mean !== 0 ? (sd / Math.abs(mean)) * 100 : null;
  return { n, missing, mean, sd, cvPct, values };
}

/**
 * `--min-effect`: a percentage of A's mean, `5%` or `5`.
 * @throws VtbenchError(EXIT.usage) naming the option when it is not a number above 0 and below 100
 */
export function parseMinEffect(text: string): number {
  const m = /^\s*(\d+(?:\.\d*)?|\.\d+)\s*%?\s*$/.exec(text);
  const v = m ? Number(m[1]) : NaN;
  if (!(v > 0 && v < 100)) throw new VtbenchError(`--min-effect: '${text}' is not a percentage above 0 and below 100`, `give the minimum effect, % of the baseline's mean (the noise between repeats a verdict tolerates), e.g. --min-effect 5% (the default ${DEFAULT_MIN_EFFECT_PCT} %)`, EXIT.usage);
  return v;
}

/**
 * Why a computable comparison is inconclusive (empty: it is not): the interval holds 0, or a run's
 * noise (CV of its repeats, %) exceeds the minimum effect AND reaches the interval's near end (its
 * end closest to 0, % of A's mean). A noisy run cannot hide an effect whose whole interval lies
 * further from 0 than the noise (a 50 % slowdown with 21 % CV stays "slower").
 * @param ciPct the interval in % of A's mean (null when A's mean is 0 or missing: noise alone decides)
 */
function inconclusiveReasons(ci: [number, number], ciPct: [number, number] | null, A: Side, B: Side, minEffectPct: number): string[] {
  const out: string[] = [];
  const holdsZero = ci[0] <= 0 && ci[1] >= 0;
  if (holdsZero) out.push('the interval includes 0');
  const nearEndPct = holdsZero || ciPct === null ? 0 : Math.min(Math.abs(ciPct[0]), Math.abs(ciPct[1]));
  const noisy = ([['A', A], ['B', B]] as const).filter(([, s]) => s.cvPct !== null && s.cvPct > minEffectPct && s.cvPct >= nearEndPct);
  if (noisy.length > 0) out.push(`the noise between repeats (${noisy.map(([w, s]) => `CV ${s.cvPct!.toFixed(1)} % in ${w}`).join(', ')}) exceeds the minimum effect ${minEffectPct} %${holdsZero ? '' : ` and reaches the interval's near end (${nearEndPct.toFixed(1)} %)`}`);
  return out;
}

/**
 * Compare one metric of a matched cell.
 * @param minEffectPct the minimum effect, % of A's mean: a run whose repeats spread more (CV) makes the verdict inconclusive
 */
export function compareMetric(metric: CompareMetric, a: readonly CellResult[], b: readonly CellResult[], minEffectPct: number = DEFAULT_MIN_EFFECT_PCT): MetricComparison {
  const info = METRIC_INFO[metric];
  return compareSides(metric, side(a, info.of), side(b, info.of), minEffectPct);
}

/**
 * Compare one metric given each run's side (sideOf): Welch's interval, the verdict and the noise, as
 * compareMetric does for a study's cells; used for target runs too (src/report/compare/target.ts).
 * @param minEffectPct the minimum effect, % of A's mean
 */
export function compareSides(metric: CompareMetric, A: Side, B: Side, minEffectPct: number = DEFAULT_MIN_EFFECT_PCT): MetricComparison {
  const info = METRIC_INFO[metric];
  const noisePct = A.cvPct !== null || B.cvPct !== null ? Math.max(A.cvPct ?? 0, B.cvPct ?? 0) : null;
  const base = { metric, label: info.label, unit: info.unit, better: info.better, a: A, b: B, minEffectPct };
  const w = welch(A.values, B.values, CONFIDENCE);
  const rel = (x: number) => (A.mean !== null && A.mean !== 0 ? (x / A.mean) * 100 : null);
  const ratio = A.mean !== null && B.mean !== null && A.mean !== 0 ? B.mean / A.mean : null;
  if (!w.computable) {
    const missing = A.missing + B.missing > 0 ? `; ${A.missing + B.missing} repeat(s) without a value` : '';
    const raw = A.mean !== null && B.mean !== null ? B.mean - A.mean : null;
    const how = raw !== null ? '; the raw difference is shown without a verdict: give both runs --repeats 3 (or more) for one' : '';
    return { ...base, diff: raw, diffPct: raw !== null ? rel(raw) : null, ratio, ci: null, ciPct: null, df: null, t: null, p: null, noisePct: null, verdict: 'not computable', reason: null, notSlower: false, note: `${w.reason}${missing}${how}` };
  }
  const [lo, hi] = w.ci;
  const ciPctIn = rel(lo) !== null && rel(hi) !== null ? [rel(lo)!, rel(hi)!] as [number, number] : null;
  const reasons = inconclusiveReasons(w.ci, ciPctIn, A, B, minEffectPct);
  const verdict: Verdict = reasons.length > 0 ? 'inconclusive'
    : (lo > 0) === (info.better === 'higher') ? 'faster' : 'slower';
  const loPct = rel(lo);
  const hiPct = rel(hi);
  // the slow end of the interval, % of A's mean: a latency's upper end, a throughput's lower end (negated)
  const slowEnd = loPct === null || hiPct === null ? null : info.better === 'lower' ? hiPct : -loPct;
  const quiet = noisePct === null || noisePct <= minEffectPct;
  const notSlower = verdict === 'faster' || (verdict === 'inconclusive' && quiet && slowEnd !== null && slowEnd < minEffectPct);
  return {
    ...base,
    diff: w.diff,
    diffPct: rel(w.diff),
    ratio,
    ci: [lo, hi],
    ciPct: loPct !== null && hiPct !== null ? [loPct, hiPct] : null,
    df: w.df,
    t: w.t,
    p: w.p,
    noisePct,
    verdict,
    reason: reasons.length > 0 ? reasons.join('; ') : null,
    notSlower,
    note: w.se === 0 ? 'no spread between repeats in either run: the difference is exact, the interval a point' : null,
  };
}

/** Run options that describe the measurement (not where or how often it ran). */
// poolSize and queueCapacity are overrides (null = the variant's own); the effective executors are
// compared through variantSpecs below, so a recorded 32 and a null that means 32 are not a difference
const SETTING_KEYS = ['scenario', 'requestsPerWorker', 'warmupS', 'latencyMs', 'start', 'rampMs', 'jvmFlags', 'bindAddress', 'errorFlagThreshold', 'headersTimeoutMs', 'bodyTimeoutMs', 'connectTimeoutMs'] as const;

/**
 * Settings, variant definitions, host and versions that differ between two runs, one line each.
 * Levels, variants and repeats are left out (their effect is the matching itself).
 */
export function settingDifferences(a: LoadedRun, b: LoadedRun): string[] {
  const out: string[] = [];
  const show = (v: unknown) => (v === undefined ? '(not recorded)' : JSON.stringify(v));
  const oa = a.manifest.options as unknown as Record<string, unknown>;
  const ob = b.manifest.options as unknown as Record<string, unknown>;
  for (const k of SETTING_KEYS) {
    if (JSON.stringify(oa[k]) !== JSON.stringify(ob[k])) out.push(`${k}: A ${show(oa[k])}, B ${show(ob[k])}`);
  }
  for (const va of a.manifest.options.variantSpecs ?? []) {
    const vb = (b.manifest.options.variantSpecs ?? []).find((x) => x.id === va.id);
    if (vb && JSON.stringify(va) !== JSON.stringify(vb)) out.push(`variant ${va.id}: A ${JSON.stringify(va.executor)}, B ${JSON.stringify(vb.executor)}${JSON.stringify(va.sutProperties ?? null) !== JSON.stringify(vb.sutProperties ?? null) ? ' (SUT properties differ too)' : ''}`);
  }
  const ha = a.manifest.host;
  const hb = b.manifest.host;
  for (const k of ['cpuModel', 'cores', 'kernel', 'arch'] as const) {
    if (ha[k] !== hb[k]) out.push(`host ${k}: A ${show(ha[k])}, B ${show(hb[k])}`);
  }
  // the memory a host reports moves by a few hundred KiB between boots; more than 1 % is a different host
  if (Math.abs(ha.memoryBytes - hb.memoryBytes) > 0.01 * Math.max(ha.memoryBytes, hb.memoryBytes)) out.push(`host memoryBytes: A ${ha.memoryBytes}, B ${hb.memoryBytes}`);
  for (const k of ['node', 'undici', 'jdk', 'springBoot', 'springAi'] as const) {
    if (a.manifest.versions[k] !== b.manifest.versions[k]) out.push(`${k} version: A ${show(a.manifest.versions[k])}, B ${show(b.manifest.versions[k])}`);
  }
  if (a.manifest.tool.gitCommit !== b.manifest.tool.gitCommit) out.push(`vtbench commit: A ${show(a.manifest.tool.gitCommit)}, B ${show(b.manifest.tool.gitCommit)}`);
  return out;
}

/** A run's cells grouped by key (the match), each group's repeats in order. */
export type CellGroups<C> = Map<string, { key: CellKey; cells: C[] }>;

/**
 * Match two runs' cell groups by key (A's order): the matched cells with their metrics (every
 * verdict "not comparable" when the runs are not), and the groups of each run without a counterpart.
 */
export function matchGroups<C>(ga: CellGroups<C>, gb: CellGroups<C>, metricsOf: (a: C[], b: C[]) => MetricComparison[], idOf: (c: C) => string, comparable: boolean): { cells: CellComparison[]; onlyInA: CellKey[]; onlyInB: CellKey[] } {
  const cells: CellComparison[] = [];
  const onlyInA: CellKey[] = [];
  for (const [k, ca] of ga) {
    const cb = gb.get(k);
    if (!cb) {
      onlyInA.push(ca.key);
      continue;
    }
    const metrics = metricsOf(ca.cells, cb.cells);
    cells.push({ ...ca.key, cellsA: ca.cells.map(idOf), cellsB: cb.cells.map(idOf), metrics: comparable ? metrics : metrics.map(notComparable) });
  }
  const onlyInB = [...gb.entries()].filter(([k]) => !ga.has(k)).map(([, g]) => g.key);
  return { cells, onlyInA, onlyInB };
}

/** The verdict every metric of a cell gets when the runs are not comparable. */
export function notComparable(m: MetricComparison): MetricComparison {
  return { ...m, verdict: 'not comparable', notSlower: false, reason: 'the runs differ in a setting that changes the bounds or the host (listed under "Not comparable")' };
}

function ref(run: LoadedRun): RunRef {
  return { runDir: run.runDir, runId: run.manifest.runId, study: run.manifest.options.study, profile: run.manifest.options.profile, status: run.manifest.status, gaps: [...run.gaps] };
}

/** How to compare: the kinds of guarded difference allowed (--allow-diff) and the minimum effect (--min-effect), %. */
export interface CompareOptions {
  allowDiff?: readonly GuardKind[];
  minEffectPct?: number;
}

/**
 * Compare run B against run A (A is the baseline). When the runs differ in a guarded setting
 * (guard.ts) not named in `allowDiff`, the comparison is not comparable: the figures are computed
 * and kept, but every verdict is "not comparable". A study or scenario allowed to differ is left
 * out of the cell match (cells then match on variant and level).
 * @returns every matched cell with its four metrics, and the unmatched cells of each run
 */
export function compareRuns(a: LoadedRun, b: LoadedRun, opts: CompareOptions = {}): Comparison {
  const allowDiff = [...(opts.allowDiff ?? [])];
  const minEffectPct = opts.minEffectPct ?? DEFAULT_MIN_EFFECT_PCT;
  const guard = guardDifferences(a.manifest, b.manifest, allowDiff);
  const comparable = guard.every((d) => d.allowed);
  const on: MatchOn = { study: !allowDiff.includes('study'), scenario: !allowDiff.includes('scenario') };
  const { cells, onlyInA, onlyInB } = matchGroups(groups(a, on), groups(b, on), (ca, cb) => COMPARE_METRICS.map((m) => compareMetric(m, ca, cb, minEffectPct)), (c) => c.cellId, comparable);
  return {
    kind: 'vtbench-compare', version: 2, method: compareMethod(minEffectPct), confidence: CONFIDENCE, minEffectPct, comparable, guard, allowDiff,
    a: ref(a), b: ref(b), cells, onlyInA, onlyInB, differences: settingDifferences(a, b),
  };
}
