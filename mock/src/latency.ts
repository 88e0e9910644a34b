import type { Rng } from './prng.ts';

export type LatencyModel = 'fixed' | 'uniform' | 'normal' | 'lognormal';
export const LATENCY_MODELS: readonly LatencyModel[] = ['fixed', 'uniform', 'normal', 'lognormal'];

export interface LatencyParams {
  latencyModel: LatencyModel;
  /** fixed: the value; normal: the mean; lognormal: the median */
  latencyMs: number;
  /** uniform: lower bound */
  latencyMinMs: number;
  /** uniform: upper bound */
  latencyMaxMs: number;
  /** normal: standard deviation */
  latencySdMs: number;
  /** lognormal: sigma of the underlying normal (dimensionless) */
  latencySigma: number;
}

/** Standard normal draw (Box-Muller, one of the pair; two uniforms per draw keeps it reproducible). */
function gaussian(rng: Rng): number {
  const u1 = 1 - rng(); // (0, 1], log-safe
  const u2 = rng();
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/**
 * A sampler of latencies in ms (never negative) for the given model; the sequence is fully
 * determined by `rng`. `fixed` consumes no draws.
 */
export function latencySampler(p: LatencyParams, rng: Rng): () => number {
  switch (p.latencyModel) {
    case 'fixed':
      return () => p.latencyMs;
    case 'uniform':
      return () => p.latencyMinMs + (p.latencyMaxMs - p.latencyMinMs) * rng();
    case 'normal':
      return () => Math.max(0, p.latencyMs + p.latencySdMs * gaussian(rng));
    case 'lognormal': {
      const mu = Math.log(p.latencyMs);
      return () => Math.exp(mu + p.latencySigma * gaussian(rng));
    }
  }
}
