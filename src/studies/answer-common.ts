/**
 * What the studies' answer hooks (StudyReportHook.answer; src/studies/002|003|004/answer.ts) share:
 * the honesty rules of the answer block (src/report/answer-types.ts) applied to plain numbers. Pure.
 *
 * - repeats disagree when max / min − 1 > REPEATS_DISAGREE: then each repeat's value is listed;
 * - a value above its bound by more than BOUND_EXCEEDED_TOL exceeded it (for a makespan, lower is
 *   better: a makespan below bound × (1 − tol) beat its theory), and the bound cannot be what
 *   limited it;
 * The block's verdict over the rows' ratios is the engine's (src/report/answer.ts verdictOf).
 */
import { BOUND_EXCEEDED_TOL, REPEATS_DISAGREE, type AnswerLimit, type AnswerRow } from '../report/answer-types.ts';

/** A cap saturated: an arm at or above this share of a bound reached it (the acceptance rule of cell-bounds.ts, BOUND_LOWER_SHARE). */
export const REACHED_SHARE = 0.95;

const finite = (xs: readonly (number | null)[]): number[] => xs.filter((x): x is number => x !== null && Number.isFinite(x));

/** True when the repeats' finite values disagree: max / min − 1 > REPEATS_DISAGREE (needs two values, min > 0). */
export function disagree(values: readonly (number | null)[]): boolean {
  const xs = finite(values);
  if (xs.length < 2) return false;
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return lo > 0 ? hi > lo * (1 + REPEATS_DISAGREE) : hi !== lo;
}

/** Each repeat's value (in repeat order) when they disagree, else [] (AnswerArm.repeats). */
export function repeatsIfDisagree(values: readonly (number | null)[]): (number | null)[] {
  return disagree(values) ? [...values] : [];
}

/**
 * True when `value` exceeded `bound` by more than BOUND_EXCEEDED_TOL: above bound × (1 + tol) for a
 * rate, below bound × (1 − tol) for a makespan (`lowerIsBetter`). False when either is unknown.
 */
export function exceeded(value: number | null, bound: number | null, lowerIsBetter = false): boolean {
  if (value === null || bound === null || !(bound > 0)) return false;
  return lowerIsBetter ? value < bound * (1 - BOUND_EXCEEDED_TOL) : value > bound * (1 + BOUND_EXCEEDED_TOL);
}

/** value ÷ bound × 100, bound ÷ value × 100 for a makespan; null when either is unknown or zero. */
export function pctOfBound(value: number | null, bound: number | null, lowerIsBetter = false): number | null {
  if (value === null || bound === null || !(bound > 0) || !(value > 0)) return null;
  return lowerIsBetter ? (bound / value) * 100 : (value / bound) * 100;
}

/**
 * A row's ratio (candidate ÷ baseline; baseline ÷ candidate for a makespan, so > 1 means the candidate
 * is better) from the two arms' medians, and per repeat (paired by repeat index) when the per-repeat
 * ratios or either arm's repeats disagree.
 */
export function rowRatio(baseline: { median: number | null; values: readonly (number | null)[] }, candidate: { median: number | null; values: readonly (number | null)[] }, lowerIsBetter = false): Pick<AnswerRow, 'ratio' | 'ratioRepeats'> {
  const r = (b: number | null | undefined, c: number | null | undefined): number | null => {
    if (b === null || b === undefined || c === null || c === undefined || !(b > 0) || !(c > 0)) return null;
    return lowerIsBetter ? b / c : c / b;
  };
  const n = Math.max(baseline.values.length, candidate.values.length);
  const per = Array.from({ length: n }, (_, i) => r(baseline.values[i], candidate.values[i]));
  const list = n > 1 && (disagree(per) || disagree(baseline.values) || disagree(candidate.values));
  return { ratio: r(baseline.median, candidate.median), ratioRepeats: list ? per : [] };
}

/** The limit of an arm that exceeded the bound that was its candidate: 'unknown', note 'bound-exceeded'. */
export const BOUND_EXCEEDED_LIMIT: AnswerLimit = { kind: 'unknown', cap: null, used: null, unit: '', source: 'measured', note: 'bound-exceeded' };

/** The limit of an arm whose data show no saturated cap: 'unknown' with `note` (phrase `limit.note.<note>`). */
export function unknownLimit(note: string): AnswerLimit {
  return { kind: 'unknown', cap: null, used: null, unit: '', source: 'measured', note };
}

/** A value rounded to `d` decimals (utilisations shown with the cap), null kept. */
export function round(x: number | null, d = 2): number | null {
  if (x === null || !Number.isFinite(x)) return null;
  const f = 10 ** d;
  return Math.round(x * f) / f;
}
