/**
 * Percentiles of one sample — pure, no I/O.
 *
 * Definition: linear interpolation between order statistics, Hyndman & Fan (1996) type 7, the
 * default of R's `quantile()` and numpy's `percentile(method='linear')`. For sorted x[0..n-1] and
 * p in [0, 1]: h = (n - 1) p, Q(p) = x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]).
 * Computed by simple-statistics `quantileSorted` (node_modules/simple-statistics/src/quantile_sorted.js,
 * "linear interpolation method (type=7 in R/numpy)"). simple-statistics changed its quantile
 * definition in a patch release (7.8.9), so package.json pins it exactly (7.12.1) and
 * test/unit/stats-percentiles.test.ts pins the definition with golden values.
 */
import { quantileSorted } from 'simple-statistics';
import type { Percentiles } from '../../types/load.ts';

export type { Percentiles };

/** Human-readable statement of the definition, for reports and JSON output. */
export const PERCENTILE_DEFINITION =
  'linear interpolation between order statistics (Hyndman & Fan type 7, R/numpy default): ' +
  'h = (n - 1) p, Q = x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]); ' +
  'simple-statistics 7.12.1 quantileSorted; n = 1 gives that value for every percentile';

/** The quantile levels reported, as fractions. */
export const PERCENTILE_LEVELS = { p50: 0.5, p90: 0.9, p95: 0.95, p99: 0.99, p999: 0.999 } as const;

/**
 * P50/P90/P95/P99/P99.9, min, mean and max of `values` (any unit; the caller names it).
 * Returns null for an empty sample; n = 1 yields that value everywhere. Does not modify `values`.
 * Throws RangeError on a non-finite value (NaN would sort unpredictably and poison every field).
 */
export function percentiles(values: ArrayLike<number>): Percentiles | null {
  const n = values.length;
  if (n === 0) return null;
  const typed = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    if (!Number.isFinite(v)) throw new RangeError(`percentiles: value at index ${i} is not finite (${v})`);
    typed[i] = v;
    sum += v;
  }
  typed.sort(); // numeric ascending for typed arrays
  // quantileSorted only reads x.length and x[i], so the sorted typed array is read as it is (no copy
  // into an Array: the same float64 values, the same results)
  const sorted = typed as unknown as number[];
  return {
    n,
    min: sorted[0] as number,
    mean: sum / n,
    p50: quantileSorted(sorted, PERCENTILE_LEVELS.p50),
    p90: quantileSorted(sorted, PERCENTILE_LEVELS.p90),
    p95: quantileSorted(sorted, PERCENTILE_LEVELS.p95),
    p99: quantileSorted(sorted, PERCENTILE_LEVELS.p99),
    p999: quantileSorted(sorted, PERCENTILE_LEVELS.p999),
    max: sorted[n - 1] as number,
  };
}
