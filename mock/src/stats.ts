import { quantileSorted } from 'simple-statistics';
import { FAULT_KINDS, type FaultKind } from './faults.ts';
import type { MockStats } from '../../src/types/mock.ts';

/**
 * Counters behind `GET /stats`. Recording is O(1) (a growable Float64Array of lateness samples);
 * percentiles are computed only when asked, by linear interpolation (simple-statistics
 * `quantileSorted`, R type 7), the same definition the harness uses.
 */
export class StatsRecorder {
  served = 0;
  inFlight = 0;
  peakInFlight = 0;
  connectionsOpened = 0;
  /** epoch ms since which served, peak, lateness and faults count: the start, or the last reset */
  sinceEpochMs: number;
  readonly faults: Record<FaultKind, number>;
  /** the delay route's counters (`GET /delay`): null until it is first called */
  delay: { served: number; inFlight: number; peakInFlight: number } | null = null;
  private lateness = new Float64Array(1024);
  private latenessN = 0;

  constructor(
    private readonly config: Readonly<Record<string, unknown>>,
    readonly startedEpochMs: number = Date.now(),
  ) {
    this.faults = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
    this.sinceEpochMs = startedEpochMs;
  }

  enter(): void {
    this.inFlight++;
    if (this.inFlight > this.peakInFlight) this.peakInFlight = this.inFlight;
  }

  /** One chat request finished (answered, failed or abandoned). */
  leave(): void {
    this.inFlight--;
  }

  /** One `GET /delay` request arrived. */
  delayEnter(): void {
    const d = (this.delay ??= { served: 0, inFlight: 0, peakInFlight: 0 });
    d.inFlight++;
    if (d.inFlight > d.peakInFlight) d.peakInFlight = d.inFlight;
  }

  /** One `GET /delay` request closed; `answered`: its answer was written in full. */
  delayLeave(answered: boolean): void {
    const d = this.delay;
    if (d === null) return;
    d.inFlight--;
    if (answered) d.served++;
  }

  recordLatenessMs(ms: number): void {
    if (this.latenessN === this.lateness.length) {
      const grown = new Float64Array(this.lateness.length * 2);
      grown.set(this.lateness);
      this.lateness = grown;
    }
    this.lateness[this.latenessN++] = ms;
  }

  /**
   * Forget requests, lateness samples, faults and the peak (not the connection count or config);
   * the peak restarts at the requests in flight now. The harness calls this (`POST /stats/reset`)
   * right before each cell's load, so the figures it reads after the cell describe that cell alone.
   */
  reset(now: number = Date.now()): void {
    this.sinceEpochMs = now;
    this.served = 0;
    this.peakInFlight = this.inFlight;
    this.latenessN = 0;
    for (const k of FAULT_KINDS) this.faults[k] = 0;
    if (this.delay !== null) this.delay = { served: 0, inFlight: this.delay.inFlight, peakInFlight: this.delay.inFlight };
  }

  snapshot(): MockStats {
    return {
      served: this.served,
      inFlight: this.inFlight,
      peakInFlight: this.peakInFlight,
      connectionsOpened: this.connectionsOpened,
      latenessMs: latenessSummary(this.lateness.subarray(0, this.latenessN)),
      faults: { ...this.faults },
      config: { ...this.config },
      startedEpochMs: this.startedEpochMs,
      sinceEpochMs: this.sinceEpochMs,
      ...(this.delay !== null ? { delay: { ...this.delay } } : {}),
    };
  }
}

/** Percentiles of lateness samples (ms); null for no samples. Does not modify `samples`. */
export function latenessSummary(samples: Float64Array): MockStats['latenessMs'] {
  if (samples.length === 0) return null;
  const sorted = Array.from(samples).sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: quantileSorted(sorted, 0.5),
    p90: quantileSorted(sorted, 0.9),
    p99: quantileSorted(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? 0,
  };
}
