/**
 * Downsampling for charts that must stay small without hiding what matters: the points are split
 * into consecutive buckets of (nearly) equal count, in their given order, and each bucket keeps its
 * lowest and its highest value (in their original order). So the overall minimum and maximum are
 * always kept, as is every bucket's range; only points strictly inside a bucket's range go.
 * Pure and deterministic (ties: the first point wins).
 */

/**
 * @param points in the order they are drawn (e.g. by send time)
 * @param value the value whose extremes must survive (e.g. E2E ms)
 * @param maxPoints at most this many points are returned (≥ 2); fewer points are returned unchanged
 * @returns a subsequence of `points`
 * @throws RangeError when maxPoints < 2
 */
export function downsampleMinMax<T>(points: readonly T[], value: (p: T) => number, maxPoints: number): T[] {
  if (!(maxPoints >= 2)) throw new RangeError(`downsampleMinMax: maxPoints must be at least 2, got ${maxPoints}`);
  if (points.length <= maxPoints) return [...points];
  const buckets = Math.floor(maxPoints / 2);
  const out: T[] = [];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * points.length) / buckets);
    const to = Math.floor(((b + 1) * points.length) / buckets);
    let lo = from;
    let hi = from;
    for (let i = from + 1; i < to; i++) {
      const v = value(points[i] as T);
      if (v < value(points[lo] as T)) lo = i;
      if (v > value(points[hi] as T)) hi = i;
    }
    if (lo === hi) out.push(points[lo] as T);
    else if (lo < hi) out.push(points[lo] as T, points[hi] as T);
    else out.push(points[hi] as T, points[lo] as T);
  }
  return out;
}
