/**
 * The report model of a run's open-loop (arrival-rate) cells: per cell, target vs achieved rate,
 * what was not sent, latency from the intended and from the actual send, and the executor queue's
 * growth measured (least-squares slope of the SUT's queue samples, src/compute/analysis/queue-growth.ts)
 * against the D/D/N theory λ − N/L (src/compute/theory/open-loop.ts). Pure.
 */
import type { CellResult, VariantId } from '../types/run.ts';
import type { ExecutorSpec } from '../types/study.ts';
import { fitQueueSlope, slopeWindowMs, type QueueSlopeFit } from '../compute/analysis/queue-growth.ts';
import { executorCapacityRps, queueGrowthPerS } from '../compute/theory/open-loop.ts';

/** Percentiles shown for the two latency definitions, ms. */
export interface P3 { p50: number; p95: number; p99: number }

export interface OpenLoopCellModel {
  cellId: string;
  variant: VariantId;
  executor: ExecutorSpec;
  repeat: number;
  targetRatePerS: number;
  achievedRatePerS: number;
  durationS: number;
  scheduled: number;
  sent: number;
  /** refused by the in-flight cap */
  refused: number;
  maxInFlight: number;
  /** sent later than `lateThresholdMs` after the intended time; null when the cell has no count */
  late: number | null;
  lateThresholdMs: number | null;
  errors: number;
  /** successes: from the intended send (no coordinated omission) */
  e2eFromIntendedMs: P3 | null;
  /** successes: from the actual send */
  e2eFromSendMs: P3 | null;
  /** N/L, req/s; null for an executor without a bound (virtual threads) */
  capacityRps: number | null;
  /** λ − N/L (≥ 0), tasks/s */
  theorySlopePerS: number;
  fit: QueueSlopeFit;
  /** measured / theory; null when the theory is 0 (below capacity, or no queue) or nothing was fitted */
  slopeRatio: number | null;
  /** the queue samples of the cell, [s after t0, tasks], for the chart */
  queueSeries: [number, number][];
}

const p3 = (p: { p50: number; p95: number; p99: number } | null | undefined): P3 | null => (p ? { p50: p.p50, p95: p.p95, p99: p.p99 } : null);

/**
 * The open-loop cells of a run, ordered by `variantOrder`, then rate, then repeat; null when the
 * run has none (the report's open-loop section is then left out).
 */
export function openLoopModel(cells: readonly CellResult[], variantOrder: readonly VariantId[]): OpenLoopCellModel[] | null {
  const ol = cells.filter((c) => c.load.openLoop !== undefined);
  if (ol.length === 0) return null;
  const rank = (v: VariantId) => { const i = variantOrder.indexOf(v); return i < 0 ? Number.MAX_SAFE_INTEGER : i; };
  return ol
    .slice()
    .sort((a, b) => rank(a.variant) - rank(b.variant) || (a.variant < b.variant ? -1 : a.variant > b.variant ? 1 : 0) || a.concurrency - b.concurrency || a.repeat - b.repeat)
    .map((c) => {
      const o = c.load.openLoop!;
      const L = c.latencyMs;
      const theory = queueGrowthPerS(c.executor, o.targetRatePerS, L);
      const fit = fitQueueSlope(c.samples, c.t0EpochMs, slopeWindowMs(L, o.durationS));
      const errors = Object.values(c.load.errors).reduce((s, x) => s + x, 0);
      return {
        cellId: c.cellId,
        variant: c.variant,
        executor: c.executor,
        repeat: c.repeat,
        targetRatePerS: o.targetRatePerS,
        achievedRatePerS: o.achievedRatePerS,
        durationS: o.durationS,
        scheduled: o.scheduled,
        sent: o.sent,
        refused: o.unsent.inFlightCap,
        maxInFlight: o.maxInFlight,
        late: c.load.lateSends ? c.load.lateSends.count : null,
        lateThresholdMs: c.load.lateSends ? c.load.lateSends.thresholdMs : null,
        errors,
        e2eFromIntendedMs: p3(o.e2eFromIntendedMs),
        e2eFromSendMs: p3(c.load.e2eMs),
        capacityRps: executorCapacityRps(c.executor, L),
        theorySlopePerS: theory,
        fit,
        slopeRatio: theory > 0 && fit.slopePerS !== null ? fit.slopePerS / theory : null,
        queueSeries: c.samples.map((s) => [Math.round((s.tEpochMs - c.t0EpochMs) / 10) / 100, s.queueSize] as [number, number]).filter(([t]) => t >= 0),
      };
    });
}
