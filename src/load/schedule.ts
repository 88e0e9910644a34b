/** The closed loop's send schedule — pure, shared by the generator and by re-summarising stored runs. */

/**
 * Intended start of worker `worker`'s first measured request, ms after t0: 0 for `together`,
 * worker × rampMs / concurrency for `ramp`. Every later request of a worker is intended for the
 * moment its previous answer was read (closed loop).
 */
export function firstIntendedStartMs(start: 'together' | 'ramp', worker: number, concurrency: number, rampMs: number): number {
  return start === 'ramp' ? (worker * rampMs) / concurrency : 0;
}
