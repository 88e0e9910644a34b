/**
 * Run-versus-run comparison: cells of two runs matched by (study, scenario, variant, level); for
 * whole-run throughput and E2E P50/P95/P99 the difference B − A of the per-repeat means with a 95 %
 * Welch interval over the per-repeat values (src/compute/stats/welch.ts), and a verdict per metric.
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

export const COMPARE_METHOD =
  "Welch's two-sample t interval (Satterthwaite degrees of freedom), 95 %, over the per-repeat values of each cell " +
  '(one value per repeat: its whole-run throughput, its E2E P50/P95/P99); difference = mean of B − mean of A. ' +
  'A verdict is "faster" or "slower" when the interval excludes 0, else "no significant difference"; ' +
  'with fewer than 2 repeats in a run it is "not computable" (the raw difference and ratio are still shown). Each metric of each cell is its own test: ' +
  'over many cells about 1 in 20 shows a difference by chance when there is none.';

export type Verdict = 'faster' | 'slower' | 'no significant difference' | 'not computable';

/** One run's side of a metric: the per-repeat values (nulls left out), their mean and SD. */
export interface Side {
  n: number;
  /** repeats whose value was not computable (null), left out of n */
  missing: number;
  mean: number | null;
  /** sample SD (n − 1); null for n < 2 */
  sd: number | null;
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
  verdict: Verdict;
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
  version: 1;
  method: string;
  confidence: number;
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

function keyOf(k: CellKey): string {
  return JSON.stringify([k.study, k.scenario, k.variant, k.level]);
}

/** The cells of a run grouped by key, in the run's order (the loader's: planned order). */
function groups(run: LoadedRun): Map<string, { key: CellKey; cells: CellResult[] }> {
  const out = new Map<string, { key: CellKey; cells: CellResult[] }>();
  for (const c of run.cells) {
    const key: CellKey = { study: run.manifest.options.study, scenario: c.scenario, variant: c.variant, level: c.concurrency };
    const k = keyOf(key);
    const g = out.get(k) ?? { key, cells: [] };
    g.cells.push(c);
    out.set(k, g);
  }
  for (const g of out.values()) g.cells.sort((x, y) => x.repeat - y.repeat);
  return out;
}

function side(cells: readonly CellResult[], of: (c: CellResult) => number | null): Side {
  const values: number[] = [];
  let missing = 0;
  for (const c of cells) {
    const v = of(c);
    if (v === null || !Number.isFinite(v)) missing++;
    else values.push(v);
  }
  const n = values.length;
  const mean = n > 0 ? values.reduce((s, x) => s + x, 0) / n : null;
  const sd = n > 1 && mean !== null ? Math.sqrt(values.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1)) : null;
  return { n, missing, mean, sd, values };
}

/** Compare one metric of a matched cell. */
export function compareMetric(metric: CompareMetric, a: readonly CellResult[], b: readonly CellResult[]): MetricComparison {
  const info = METRIC_INFO[metric];
  const A = side(a, info.of);
  const B = side(b, info.of);
  const base = { metric, label: info.label, unit: info.unit, better: info.better, a: A, b: B };
  const w = welch(A.values, B.values, CONFIDENCE);
  const rel = (x: number) => (A.mean !== null && A.mean !== 0 ? (x / A.mean) * 100 : null);
  const ratio = A.mean !== null && B.mean !== null && A.mean !== 0 ? B.mean / A.mean : null;
  if (!w.computable) {
    const missing = A.missing + B.missing > 0 ? `; ${A.missing + B.missing} repeat(s) without a value` : '';
    const raw = A.mean !== null && B.mean !== null ? B.mean - A.mean : null;
    const how = raw !== null ? '; the raw difference is shown without a verdict: give both runs --repeats 3 (or more) for one' : '';
    return { ...base, diff: raw, diffPct: raw !== null ? rel(raw) : null, ratio, ci: null, ciPct: null, df: null, t: null, p: null, verdict: 'not computable', note: `${w.reason}${missing}${how}` };
  }
  const [lo, hi] = w.ci;
  const up = lo > 0 ? 'up' : hi < 0 ? 'down' : null;
  const verdict: Verdict = up === null ? 'no significant difference'
    : (up === 'up') === (info.better === 'higher') ? 'faster' : 'slower';
  const loPct = rel(lo);
  const hiPct = rel(hi);
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
    verdict,
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

function ref(run: LoadedRun): RunRef {
  return { runDir: run.runDir, runId: run.manifest.runId, study: run.manifest.options.study, profile: run.manifest.options.profile, status: run.manifest.status, gaps: [...run.gaps] };
}

/**
 * Compare run B against run A (A is the baseline).
 * @returns every matched cell with its four metrics, and the unmatched cells of each run
 */
export function compareRuns(a: LoadedRun, b: LoadedRun): Comparison {
  const ga = groups(a);
  const gb = groups(b);
  const cells: CellComparison[] = [];
  const onlyInA: CellKey[] = [];
  for (const [k, ca] of ga) {
    const cb = gb.get(k);
    if (!cb) {
      onlyInA.push(ca.key);
      continue;
    }
    cells.push({
      ...ca.key,
      cellsA: ca.cells.map((c) => c.cellId),
      cellsB: cb.cells.map((c) => c.cellId),
      metrics: COMPARE_METRICS.map((m) => compareMetric(m, ca.cells, cb.cells)),
    });
  }
  const onlyInB = [...gb.entries()].filter(([k]) => !ga.has(k)).map(([, g]) => g.key);
  return { kind: 'vtbench-compare', version: 1, method: COMPARE_METHOD, confidence: CONFIDENCE, a: ref(a), b: ref(b), cells, onlyInA, onlyInB, differences: settingDifferences(a, b) };
}
