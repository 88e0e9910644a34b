import type { Rng } from './prng.ts';

export type ErrorStatus = 429 | 500 | 503;
export const ERROR_STATUSES: readonly ErrorStatus[] = [429, 500, 503];

/** Keys of `MockStats.faults`. */
export const FAULT_KINDS = ['error429', 'error500', 'error503', 'hang', 'reset', 'overCapacity'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultParams {
  /** probability of an error answer with `errorStatus` */
  errorRate: number;
  errorStatus: ErrorStatus;
  /** probability the request is never answered */
  hangRate: number;
  /** probability the connection is reset (TCP RST) after the drawn latency */
  resetRate: number;
}

export type FaultDecision = 'none' | 'error' | 'hang' | 'reset';

/**
 * Decides the fault of each accepted request with exactly one draw, so the number of faults in the
 * first k requests depends only on the seed, not on timing. The bands are [0, error), then hang,
 * then reset. With every rate 0 no draw is taken.
 */
export function faultDecider(p: FaultParams, rng: Rng): () => FaultDecision {
  const e = p.errorRate;
  const h = e + p.hangRate;
  const r = h + p.resetRate;
  if (r === 0) return () => 'none';
  return () => {
    const u = rng();
    if (u < e) return 'error';
    if (u < h) return 'hang';
    if (u < r) return 'reset';
    return 'none';
  };
}
