/**
 * Small pure statistics for the report. Percentiles use simple-statistics `quantileSorted`
 * (linear interpolation between order statistics, R type 7), the project's one definition.
 */
import { aggregate } from '../compute/stats/aggregate.ts';

export { percentiles, PERCENTILE_DEFINITION } from '../compute/stats/percentiles.ts';
export { aggregate as agg } from '../compute/stats/aggregate.ts';

/** Median of the non-null values (mean of the two middle ones when n is even), or null. */
export function medianOf(values: readonly (number | null)[]): number | null {
  return aggregate(values).median;
}

/** Largest value, or null. */
export function maxOf(values: readonly (number | null | undefined)[]): number | null {
  let m: number | null = null;
  for (const v of values) if (v !== null && v !== undefined && Number.isFinite(v) && (m === null || v > m)) m = v;
  return m;
}

/** Arithmetic mean, or null. */
export function meanOf(values: readonly (number | null | undefined)[]): number | null {
  let s = 0;
  let n = 0;
  for (const v of values) if (v !== null && v !== undefined && Number.isFinite(v)) { s += v; n++; }
  return n === 0 ? null : s / n;
}
