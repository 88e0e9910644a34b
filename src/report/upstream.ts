/**
 * Upstream concurrency of a cell — how many LLM calls were under way at the same moment — derived
 * from the per-request timings, for cells whose mock statistics cannot say it (schema-1 runs
 * before per-cell mock statistics: the mock's peak gauge counted from the mock's start, so a
 * cell's "peak" could be an earlier cell's). Pure.
 *
 * Method. For request i the load generator recorded its send time `send` and its end-to-end time
 * `e2e` on one clock; the SUT reported its queue wait `q` and its execution `x` (task start →
 * finish, which wraps the one LLM call) in `Server-Timing`. The rest, `o = e2e − q − x` (network
 * and servlet time), splits into d₁ before the task was submitted and d₂ after it finished, in an
 * unknown way (d₁, d₂ ≥ 0, d₁ + d₂ = o). So the execution started at `send + d₁ + q` for some
 * d₁ ∈ [0, o]:
 *   - it CERTAINLY ran during [send + q + o, send + q + x] (true for every split), and
 *   - it POSSIBLY ran during [send + q, send + e2e] (the union over every split).
 * The largest number of certain intervals that overlap is a lower bound of the true peak of
 * concurrent executions (at every instant, the certainly-running requests are a subset of the
 * running ones); the largest overlap of the possible intervals is an upper bound. Anchoring every
 * execution at one end instead (d₁ = 0 or d₂ = 0) is not a bound either way and overshoots by one
 * at the edges of the fixed pool's waves, where one thread's finish and its next start lie
 * microseconds apart. Intervals are half-open, and the certain ones are narrowed by the stored
 * rounding (3 decimals per value, so at most 1.5 µs per end), so touching intervals never count
 * as overlapping. A request without `Server-Timing` (an error) counts only toward the upper bound,
 * over [send, send + e2e].
 */
import type { CompactRequests } from '../types/run.ts';

/** rounding of the stored ms values (3 decimals): ± 0.0005 ms on each of three summed values */
export const STORED_ROUNDING_MS = 0.0015;

export interface DerivedUpstream {
  /** the most requests whose execution certainly overlapped: a lower bound of the true peak */
  atLeast: number;
  /** the most requests whose execution possibly overlapped: an upper bound of the true peak */
  atMost: number;
  /** requests with Server-Timing queue and exec (used for both bounds) */
  timed: number;
  /** requests without them (used for the upper bound only) */
  untimed: number;
}

/** Largest number of half-open intervals [start, end) covering one instant; ends sort before starts at equal times. */
export function maxOverlap(starts: readonly number[], ends: readonly number[]): number {
  const ev: [number, number][] = [];
  for (let i = 0; i < starts.length; i++) {
    const s = starts[i] as number;
    const e = ends[i] as number;
    if (e > s) { ev.push([s, 1]); ev.push([e, -1]); }
  }
  ev.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let cur = 0;
  let best = 0;
  for (const [, d] of ev) {
    cur += d;
    if (cur > best) best = cur;
  }
  return best;
}

/**
 * Lower and upper bound of the peak number of concurrent executions in one cell (see the module
 * comment for the method). Returns null when the cell has no request with Server-Timing.
 */
export function deriveUpstream(req: CompactRequests): DerivedUpstream | null {
  const certainS: number[] = [];
  const certainE: number[] = [];
  const possibleS: number[] = [];
  const possibleE: number[] = [];
  let untimed = 0;
  for (let i = 0; i < req.startMs.length; i++) {
    const send = req.startMs[i] as number;
    const e2e = req.e2eMs[i] as number;
    const q = req.queueMs[i] ?? null;
    const x = req.execMs[i] ?? null;
    if (q === null || x === null) {
      untimed++;
      possibleS.push(send);
      possibleE.push(send + e2e);
      continue;
    }
    const o = Math.max(0, e2e - q - x);
    certainS.push(send + q + o + STORED_ROUNDING_MS);
    certainE.push(Math.min(send + q + x, send + e2e) - STORED_ROUNDING_MS);
    possibleS.push(send + q - STORED_ROUNDING_MS);
    possibleE.push(send + Math.max(e2e, q + x) + STORED_ROUNDING_MS);
  }
  if (certainS.length === 0) return null;
  return { atLeast: maxOverlap(certainS, certainE), atMost: maxOverlap(possibleS, possibleE), timed: certainS.length, untimed };
}
