/**
 * The measured growth of the executor's queue in an open-loop cell: a least-squares line through
 * the SUT's `queueSize` samples (every samplerIntervalMs, src/types/sut-api.ts SutSample) over the part
 * of the schedule where the theory's slope applies — from 2·L after t0 (the first L has no
 * departures yet; one more L lets the departures settle into their rate) to the end of the
 * schedule (durationS). Compared with λ − N/L (src/compute/theory/open-loop.ts). Pure.
 */
import { linearRegression, rSquared, linearRegressionLine } from 'simple-statistics';
import type { SutSample } from '../../types/sut-api.ts';

/** A fitted queue slope; null fields when fewer than 3 samples fall in the window. */
export interface QueueSlopeFit {
  /** window, ms after t0 */
  fromMs: number;
  toMs: number;
  /** samples in the window */
  n: number;
  /** tasks per second (least squares, simple-statistics linearRegression); null when n < 3 */
  slopePerS: number | null;
  /** coefficient of determination of the line; null when n < 3 or the queue is constant */
  r2: number | null;
  /** the largest queue seen in the window, tasks; null when n = 0 */
  maxQueue: number | null;
}

/** The fit window of a cell: [2·L, durationS·1000] ms after t0 (empty when the schedule is shorter than 2·L). */
export function slopeWindowMs(latencyMs: number, durationS: number): { fromMs: number; toMs: number } {
  return { fromMs: 2 * latencyMs, toMs: durationS * 1000 };
}

/**
 * Least-squares slope of `queueSize` against time (s) over samples with fromMs ≤ t − t0 ≤ toMs.
 * (A virtual-thread executor has no queue and reports 0.)
 */
export function fitQueueSlope(samples: readonly SutSample[], t0EpochMs: number, window: { fromMs: number; toMs: number }): QueueSlopeFit {
  const pts: [number, number][] = [];
  for (const s of samples) {
    const t = s.tEpochMs - t0EpochMs;
    if (t < window.fromMs || t > window.toMs) continue;
    const q = s.queueSize;
    if (typeof q !== 'number') continue; // a damaged sample
    pts.push([t / 1000, q]);
  }
  let maxQueue: number | null = null;
  for (const [, q] of pts) if (maxQueue === null || q > maxQueue) maxQueue = q;
  if (pts.length < 3) return { ...window, n: pts.length, slopePerS: null, r2: null, maxQueue };
  const line = linearRegression(pts);
  const constant = pts.every(([, q]) => q === pts[0]![1]);
  const r2 = constant ? null : rSquared(pts, linearRegressionLine(line));
  return { ...window, n: pts.length, slopePerS: line.m, r2, maxQueue };
}
