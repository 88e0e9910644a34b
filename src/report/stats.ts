/**
 * Small pure statistics for the report. Percentiles use simple-statistics `quantileSorted`
 * (linear interpolation between order statistics, R type 7), the project's one definition.
 */
import { quantileSorted } from 'simple-statistics';
import type { Percentiles } from '../load/types.ts';
import type { Agg } from '../store/types.ts';

export const PERCENTILE_DEFINITION = 'simple-statistics 7.12.1 quantileSorted: linear interpolation between order statistics (R type 7)';

/** Percentiles of a sample; null when the sample is empty. Does not mutate the input. */
export function percentiles(values: readonly number[]): Percentiles | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  let sum = 0;
  for (const v of s) sum += v;
  const q = (p: number): number => quantileSorted(s, p);
  return {
    n: s.length,
    min: s[0] as number,
    mean: sum / s.length,
    p50: q(0.5),
    p90: q(0.9),
    p95: q(0.95),
    p99: q(0.99),
    p999: q(0.999),
    max: s[s.length - 1] as number,
  };
}

/** Median of the non-null values (R type 7 at 0.5), or null if there are none. */
export function medianOf(values: readonly (number | null)[]): number | null {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  return xs.length === 0 ? null : quantileSorted(xs, 0.5);
}

/** median / min / max / n over the repeats; n counts the non-null values. */
export function agg(values: readonly (number | null)[]): Agg {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v));
  return {
    median: medianOf(xs),
    min: xs.length ? Math.min(...xs) : null,
    max: xs.length ? Math.max(...xs) : null,
    n: xs.length,
    values: [...values],
  };
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
