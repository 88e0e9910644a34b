/**
 * The generic answer block (issue 31; types in src/report/answer-types.ts): from the study's
 * comparisons (BaseModel.pairs), per pair the rows that matter — the highest level, and the lowest
 * level at which the baseline's pool is full (c > N; open loop: λ > N/L) when that is another level —
 * each arm's throughput beside its bound, E2E P95/P99, candidate ÷ baseline, what limited each arm
 * (from the sampler, the SUT CPU rule and the run's flags; never a bound the arm exceeded), and one
 * line on trust. A study refines or replaces it with its hook's `answer` (StudyReportHook.answer).
 * Pure: model in, numbers out; renderers (src/report/sections/answer.ts) phrase it.
 */
import type { Agg, CellFlag, VariantId } from '../types/run.ts';
import type { BaseModel, LevelComparison, PairComparison, RowModel } from './types.ts';
import { BOUND_EXCEEDED_TOL, REPEATS_DISAGREE, type AnswerArm, type AnswerBlock, type AnswerLimit, type AnswerRow, type AnswerTrust } from './answer-types.ts';
import { threadLimit } from '../compute/theory/bounds.ts';
import { driverOf } from '../load/driver.ts';

/** relative band of the verdict: a row's ratio within 1 ± 5 % is "the same" (the model's TIE_BAND) */
export const ANSWER_TIE_BAND = 0.05;
/** share of its offered-load bound (c/L, or λ) at which a one-thread-per-task arm is limited by the offered load */
export const OFFERED_LOAD_SHARE = 0.95;
/**
 * flag codes that say the host, not the code under test, set a limit: the load generator lagged or
 * was short of CPU, other processes took the host's CPU, the carrier threads were busy
 * (src/compute/analysis/flags.ts); `sut-cpu` is the SUT's own CPU (limit 'cpu')
 */
export const HOST_FLAG_CODES: readonly CellFlag['code'][] = ['host-cpu', 'loadgen-lag', 'loadgen-late-sends', 'loadgen-cpu', 'scheduler-delay', 'host-other-cpu'];
/** the headline chart of the generic block: the engine's throughput-against-level chart (src/report/charts.ts) */
export const GENERIC_CHART = 'throughput';

/** The model fields the generic block reads. */
type AnswerInput = Pick<BaseModel, 'pairs' | 'cells' | 'flags' | 'saturation' | 'totals' | 'gaps' | 'manifest' | 'latencyMs' | 'study'>;

/**
 * Whether the run's scenario runs one timed job per cell inside the SUT (driver level `job`,
 * src/load/driver.ts): its request rate is not a throughput, so the generic block has no rows and
 * no headline chart; the study's hook gives the answer.
 */
export function inProcessRun(m: Pick<BaseModel, 'study' | 'manifest'>): boolean {
  const sc = m.study.scenarios.find((x) => x.id === m.manifest.options.scenario);
  return sc !== undefined && driverOf(sc).level === 'job';
}

/** Whether the repeats of `a` disagree: max ÷ min − 1 above REPEATS_DISAGREE (needs two values, min > 0). */
export function repeatsDisagree(a: Agg): boolean {
  return a.n >= 2 && a.min !== null && a.max !== null && a.min > 0 && a.max / a.min - 1 > REPEATS_DISAGREE;
}

/** The cells of one (variant, level), by cell id. */
function cellIdsOf(m: AnswerInput, variant: VariantId, level: number): Set<string> {
  return new Set(m.cells.filter((x) => x.variant === variant && x.concurrency === level).map((x) => x.cellId));
}

/** Cell ids the host limited: a host flag (HOST_FLAG_CODES) or scheduler delay on the carriers (Saturation.schedulerDelay). */
export function hostLimitedCells(m: Pick<BaseModel, 'flags' | 'saturation'>): Set<string> {
  const ids = new Set(m.flags.filter((f) => HOST_FLAG_CODES.includes(f.flag.code)).map((f) => f.cellId));
  for (const d of m.saturation.schedulerDelay) ids.add(d.cellId);
  return ids;
}

/** Whether a pool row is full: c > N in closed loop, λ > N/L in open loop; false without a thread limit. */
function poolFull(row: RowModel, latencyMs: number): boolean {
  const n = threadLimit(row.executor);
  if (n === null) return false;
  return row.openLoop ? row.concurrency > n / (latencyMs / 1000) : row.concurrency > n;
}

/**
 * What limited one arm (see AnswerLimit and the honesty rules of answer-types.ts). `reached` =
 * throughput (whole-run, or steady-state when higher) ≥ OFFERED_LOAD_SHARE (95 %) of the row's bound; first match:
 * 1. no value → unknown 'no-data'; throughput above its bound by more than BOUND_EXCEEDED_TOL →
 *    unknown 'bound-exceeded' (the bound cannot be what limited it);
 * 2. a full pool (c > N; open loop λ > N/L) whose sampler shows active = N and a queue, when the arm
 *    reached its bound or the SUT CPU was not saturated → executor, used = peak active (measured);
 * 3. no full pool and `reached` → offered-load (c workers, used = peak in flight; open loop: λ);
 * 4. a full pool without sampler data and `reached` → executor, used null (inferred from theory);
 * 5. the SUT CPU saturated in one of its cells (Saturation.sutCpu) → cpu, used = peak CPU %;
 * 6. a host flag or scheduler delay in one of its cells (hostLimitedCells) → host, used = cells flagged of `cap` cells
 *    (an arm at ≥ 95 % of its bound is limited by that bound, flags or not: rules 2–4 come first);
 * 7. else unknown ('pool-not-full' when the sampler shows the full pool's active threads below N).
 */
export function limitOf(m: AnswerInput, row: RowModel, host: ReadonlySet<string> = hostLimitedCells(m)): AnswerLimit {
  const value = row.wholeRunRps.median;
  const unknown = (note?: string): AnswerLimit => ({ kind: 'unknown', cap: null, used: null, unit: '', source: 'measured', ...(note ? { note } : {}) });
  if (value === null) return unknown('no-data');
  if (value > row.boundRps * (1 + BOUND_EXCEEDED_TOL)) return unknown('bound-exceeded');
  // reached the bound: whole-run, or steady state (each worker's rate after its first answer, summed) — a
  // ramped start or an open loop's tail keeps the whole-run rate below c/L even when every worker ran at it
  const reached = Math.max(value, row.steadyRps.median ?? 0) >= OFFERED_LOAD_SHARE * row.boundRps;
  const ids = cellIdsOf(m, row.variant, row.concurrency);
  const cpu = m.saturation.sutCpu.filter((x) => ids.has(x.cellId));
  const n = threadLimit(row.executor);
  const full = n !== null && poolFull(row, m.latencyMs);
  const active = row.resources.peakExecutorActive.median;
  const queue = row.resources.peakQueue.median;
  if (full && active !== null && active >= n && queue !== null && queue > 0 && (reached || cpu.length === 0)) {
    return { kind: 'executor', cap: n, used: active, unit: 'threads', source: 'measured' };
  }
  if (!full && reached) {
    const inFlight = row.resources.peakInFlight.median;
    return row.openLoop
      ? { kind: 'offered-load', cap: row.concurrency, used: null, unit: 'req/s', source: 'inferred' }
      : { kind: 'offered-load', cap: row.concurrency, used: inFlight, unit: 'workers', source: inFlight === null ? 'inferred' : 'measured' };
  }
  if (full && active === null && reached) return { kind: 'executor', cap: n, used: null, unit: 'threads', source: 'inferred' };
  if (cpu.length > 0) return { kind: 'cpu', cap: 100, used: Math.max(...cpu.map((x) => x.peakCpu)) * 100, unit: '%', source: 'measured' };
  const flagged = [...ids].filter((id) => host.has(id)).length;
  // no cap of the service saturated, but the host was flagged in some cells: the host may have set the limit (not shown saturated)
  if (flagged > 0) return { kind: 'host', cap: ids.size, used: flagged, unit: 'cells', source: 'measured', note: 'host-flags' };
  return unknown(full && active !== null ? 'pool-not-full' : undefined);
}

/** One arm of a row: throughput (req/s) against its bound, E2E P95/P99, what limited it; each repeat's value when they disagree. */
function armOf(m: AnswerInput, row: RowModel, host: ReadonlySet<string>): AnswerArm {
  return {
    variant: row.variant, metric: 'throughput', unit: 'req/s',
    value: row.wholeRunRps.median,
    repeats: repeatsDisagree(row.wholeRunRps) ? [...row.wholeRunRps.values] : [],
    bound: row.boundRps, pctOfBound: row.pctOfBound,
    ...latencies(m, row),
    limitedBy: limitOf(m, row, host),
  };
}

/** the median of the non-null values (null when none) */
function medianOf(xs: readonly (number | null | undefined)[]): number | null {
  const v = xs.filter((x): x is number => typeof x === 'number').sort((a, b) => a - b);
  if (v.length === 0) return null;
  const h = Math.floor(v.length / 2);
  return v.length % 2 === 1 ? v[h]! : (v[h - 1]! + v[h]!) / 2;
}

/**
 * An arm's E2E P95/P99, ms: the row's (median over repeats); for an open-loop row, measured from each
 * request's INTENDED send (the cells' load.openLoop.e2eFromIntendedMs, median over repeats), so a late
 * send is not hidden (coordinated omission), as the report's open-loop section states them.
 */
function latencies(m: AnswerInput, row: RowModel): { p95Ms: number | null; p99Ms: number | null } {
  if (!row.openLoop) return { p95Ms: row.e2eP95Ms.median, p99Ms: row.e2eP99Ms.median };
  const own = m.cells.filter((c) => c.variant === row.variant && c.concurrency === row.concurrency && c.load.openLoop?.e2eFromIntendedMs);
  return {
    p95Ms: medianOf(own.map((c) => c.load.openLoop!.e2eFromIntendedMs!.p95)),
    p99Ms: medianOf(own.map((c) => c.load.openLoop!.e2eFromIntendedMs!.p99)),
  };
}

/** candidate ÷ baseline, null when either is missing or the baseline is not positive. */
const ratio = (cand: number | null | undefined, base: number | null | undefined): number | null =>
  cand === null || cand === undefined || base === null || base === undefined || base <= 0 ? null : cand / base;

/** One answer row from one level of a comparison; ratioRepeats per repeat index when either arm's repeats disagree. */
function rowOfLevel(m: AnswerInput, lc: LevelComparison, host: ReadonlySet<string>): AnswerRow {
  const base = armOf(m, lc.baseline, host);
  const cand = armOf(m, lc.candidate, host);
  const disagree = base.repeats.length > 0 || cand.repeats.length > 0;
  const bv = lc.baseline.wholeRunRps.values;
  const cv = lc.candidate.wholeRunRps.values;
  return {
    scenario: null, level: lc.concurrency,
    levelUnit: lc.baseline.openLoop ? 'req/s offered' : 'workers',
    arms: [base, cand],
    ratio: ratio(cand.value, base.value),
    ratioRepeats: disagree ? Array.from({ length: Math.max(bv.length, cv.length) }, (_, i) => ratio(cv[i], bv[i])) : [],
  };
}

/** The levels of a pair that matter: the lowest at which the baseline's pool is full (if another), then the highest. */
export function levelsThatMatter(p: PairComparison, latencyMs: number): LevelComparison[] {
  if (!p.highest) return [];
  const full = p.levels.find((lc) => poolFull(lc.baseline, latencyMs)) ?? null;
  return full && full.concurrency !== p.highest.concurrency ? [full, p.highest] : [p.highest];
}

/** The trust line: cells with a result of those planned, cells the host limited, flagged cells by code, gaps, repeats. */
export function trustOf(m: AnswerInput): AnswerTrust {
  const byKind = new Map<string, Set<string>>();
  for (const f of m.flags) {
    if (!byKind.has(f.flag.code)) byKind.set(f.flag.code, new Set());
    byKind.get(f.flag.code)!.add(f.cellId);
  }
  const flagsByKind: Record<string, number> = {};
  for (const code of [...byKind.keys()].sort()) flagsByKind[code] = byKind.get(code)!.size;
  return {
    cells: m.totals.presentCells, plannedCells: m.totals.plannedCells,
    hostLimited: hostLimitedCells(m).size,
    flagsByKind, gaps: m.gaps.length, repeats: m.manifest.options.repeats,
  };
}

/**
 * The verdict over the rows' ratios (candidate better when > 1): 'faster' when every ratio is above
 * 1 + ANSWER_TIE_BAND, 'slower' when every one is below 1 − the band, 'same' when all are within it,
 * 'depends' otherwise, 'none' without a ratio. Returns the smallest and largest ratio too.
 */
export function verdictOf(rows: readonly Pick<AnswerRow, 'ratio'>[]): Pick<AnswerBlock, 'verdict' | 'ratioRange'> {
  const rs = rows.map((r) => r.ratio).filter((x): x is number => x !== null && Number.isFinite(x));
  if (rs.length === 0) return { verdict: 'none', ratioRange: null };
  const range: [number, number] = [Math.min(...rs), Math.max(...rs)];
  // 1e-9: a ratio of exactly 1 ± 5 % in decimal is "the same" despite binary rounding
  const up = rs.every((x) => x > 1 + ANSWER_TIE_BAND + 1e-9);
  const down = rs.every((x) => x < 1 - ANSWER_TIE_BAND - 1e-9);
  const same = rs.every((x) => Math.abs(x - 1) <= ANSWER_TIE_BAND + 1e-9);
  return { verdict: up ? 'faster' : down ? 'slower' : same ? 'same' : 'depends', ratioRange: range };
}

/**
 * The engine's answer block of a run: per comparison of the study (model.pairs, in order) its rows
 * that matter (levelsThatMatter), the verdict over their ratios, the trust line, and the headline
 * chart `throughput`. Pure; a run without a comparison gives no rows and the verdict 'none'; an
 * in-process run (inProcessRun) no rows, no chart, and the lead `answer.lead.inProcess`.
 */
export function genericAnswer(model: AnswerInput): AnswerBlock {
  if (inProcessRun(model)) return { verdict: 'none', ratioRange: null, rows: [], trust: trustOf(model), chart: null, studyLine: { key: 'lead.inProcess', v: {} } };
  const host = hostLimitedCells(model);
  const rows = model.pairs.flatMap((p) => levelsThatMatter(p, model.latencyMs).map((lc) => rowOfLevel(model, lc, host)));
  return { ...verdictOf(rows), rows, trust: trustOf(model), chart: GENERIC_CHART };
}
