/**
 * Aggregation over the repeats of one (mode, level): the median of the per-repeat values, with
 * min, max and n. Percentiles are never averaged; "median of the repeats' P95" is labelled so.
 */
import type { Agg } from '../../types/run.ts';

/**
 * @param values one value per repeat; null = not computable in that repeat (excluded from n)
 * @returns Agg with median (mean of the two middle values when n is even), min, max, n and the
 *   values in repeat order; median/min/max null when n = 0
 */
export function aggregate(values: readonly (number | null)[]): Agg {
  const xs = values.filter((v): v is number => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  const n = xs.length;
  if (n === 0) return { median: null, min: null, max: null, n: 0, values: [...values] };
  const mid = Math.floor(n / 2);
  const median = n % 2 === 1 ? xs[mid]! : (xs[mid - 1]! + xs[mid]!) / 2;
  return { median, min: xs[0]!, max: xs[n - 1]!, n, values: [...values] };
}

/**
 * The growth of cumulative counters between two reads, by key: after[k] − before[k] (a key absent
 * before counts from 0); only keys that grew are kept. Pure.
 */
export function countsDelta(before: Readonly<Record<string, number>>, after: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(after)) {
    const d = v - (before[k] ?? 0);
    if (d > 0) out[k] = d;
  }
  return out;
}
