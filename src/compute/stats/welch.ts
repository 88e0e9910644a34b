/**
 * Welch's two-sample t interval for a difference of means (unequal variances, Satterthwaite
 * degrees of freedom) — R's `t.test(b, a)` default and scipy's
 * `ttest_ind(b, a, equal_var=False)` with `.confidence_interval()`. Pure; n < 2 on a side is
 * "not computable" (a result with a reason), never an exception.
 *
 * Source: B. L. Welch (1947), Biometrika 34, 28–35; F. E. Satterthwaite (1946), Biometrics
 * Bulletin 2, 110–114: df = (sA²/nA + sB²/nB)² / ((sA²/nA)²/(nA−1) + (sB²/nB)²/(nB−1)).
 */
import { tQuantile, tTwoSidedP } from './tdist.ts';

/** The difference B − A of two samples' means with its interval, or why it is not computable. */
export type WelchResult =
  | {
    computable: true;
    /** mean(B) − mean(A), in the samples' unit */
    diff: number;
    /** the `confidence` interval of mean(B) − mean(A) */
    ci: [number, number];
    /** standard error of the difference: √(sA²/nA + sB²/nB) */
    se: number;
    /** Welch–Satterthwaite degrees of freedom; null when both samples have zero variance */
    df: number | null;
    /** t = diff / se; null when se = 0 */
    t: number | null;
    /** two-sided p-value; 1 when both samples are constant and equal, 0 when constant and unequal */
    p: number;
  }
  | { computable: false; reason: string };

/** Sample mean and variance (n − 1 denominator). */
function meanVar(xs: readonly number[]): { mean: number; variance: number } {
  let s = 0;
  for (const x of xs) s += x;
  const mean = s / xs.length;
  let ss = 0;
  for (const x of xs) ss += (x - mean) * (x - mean);
  return { mean, variance: xs.length > 1 ? ss / (xs.length - 1) : NaN };
}

/**
 * Welch's t interval of mean(b) − mean(a).
 * @param a values of run A (e.g. one per repeat), finite numbers
 * @param b values of run B
 * @param confidence two-sided level in (0, 1), default 0.95
 * @returns not computable when a side has fewer than 2 values
 */
export function welch(a: readonly number[], b: readonly number[], confidence = 0.95): WelchResult {
  if (a.length < 2 || b.length < 2) {
    const which = [a.length < 2 ? `A has n = ${a.length}` : null, b.length < 2 ? `B has n = ${b.length}` : null].filter((x) => x !== null).join(', ');
    return { computable: false, reason: `needs at least 2 values per run (${which})` };
  }
  const A = meanVar(a);
  const B = meanVar(b);
  const va = A.variance / a.length;
  const vb = B.variance / b.length;
  const se = Math.sqrt(va + vb);
  const diff = B.mean - A.mean;
  if (se === 0) {
    // both samples constant: no spread to form an interval from; the difference is exact
    return { computable: true, diff, ci: [diff, diff], se: 0, df: null, t: null, p: diff === 0 ? 1 : 0 };
  }
  const df = (va + vb) ** 2 / ((va * va) / (a.length - 1) + (vb * vb) / (b.length - 1));
  const q = tQuantile(1 - (1 - confidence) / 2, df);
  const t = diff / se;
  return { computable: true, diff, ci: [diff - q * se, diff + q * se], se, df, t, p: tTwoSidedP(t, df) };
}
