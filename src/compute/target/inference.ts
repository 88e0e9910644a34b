/**
 * What the client side of a target run says about the service (issue 32, tier 1 and up): per arm,
 * the alone response time R(1), the highest throughput X_max, the concurrency the service allows
 * N ≈ X_max × R(1) (Little's law), and the level where latency leaves R(1) (the knee). Pure.
 *
 * Little's law, L = λW (Little 1961, "A proof for the queuing formula L = λW", Operations Research
 * 9(3)): the mean number of requests inside the service equals its throughput times the mean time a
 * request spends in it. At the throughput plateau X_max, with each request served in about R(1) when
 * it has the service to itself, the service holds about X_max × R(1) requests at once: the
 * concurrency it allows. A closed loop of c workers with no think time offers at most c / R(1) req/s
 * (the same law with W ≥ R(1)): the offered-load bound of a level.
 */
import type { LoadSummary } from '../../types/load.ts';
import type { TargetCell, TargetProbe } from '../../types/target.ts';

/**
 * The knee's slack: the knee is the lowest level whose mean E2E P50 exceeds R(1) × (1 + KNEE_SLACK).
 * 20 %: well above the repeat-to-repeat spread of a median on a quiet host (a few %), and small
 * enough that queueing in front of a full pool (which adds a whole R(1) per wave) is caught at once.
 */
export const KNEE_SLACK = 0.2;

/**
 * The throughput of one cell, req/s: the whole-run rate (completed ÷ (last end − first start)), else
 * the steady-state rate; null when neither. Whole-run, not steady-state: a target cell sends few
 * requests per worker at high concurrency, and a service that serves its workers unevenly makes the
 * sum of per-worker rates over their own spans over-count (seen in the PetClinic run: virtual threads
 * at 400 workers, steady-state 459.5 req/s against a CPU bound of 415.4, whole-run 348.6). The
 * whole-run rate includes the ramp and the drain, so it sits about n/(n+1) below the plateau: a
 * conservative figure.
 */
export function cellThroughputRps(s: Pick<LoadSummary, 'steadyStateThroughputRps' | 'wholeRunThroughputRps'>): number | null {
  const x = s.wholeRunThroughputRps ?? s.steadyStateThroughputRps;
  return x !== null && Number.isFinite(x) ? x : null;
}

/** Arithmetic mean of the finite values; null when none. */
export function meanOf(xs: readonly (number | null | undefined)[]): number | null {
  const v = xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
  return v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length;
}

/** Median of the finite values (mean of the two middle ones when even); null when none. */
export function medianOf(xs: readonly (number | null | undefined)[]): number | null {
  const v = xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const m = Math.floor(v.length / 2);
  return v.length % 2 === 1 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
}

/**
 * R(1) of an arm, ms: the median over the arm's probes (one per repeat) of their E2E P50. Null when
 * no probe of the arm has a success.
 */
export function r1Ms(probes: readonly TargetProbe[], arm: string): number | null {
  return medianOf(probes.filter((p) => p.arm === arm).map((p) => p.e2eMs?.p50 ?? null));
}

/**
 * The mean alone response time of an arm, ms: the median over the arm's probes of their E2E mean.
 * Little's law is about means (L = λW with W the mean time in the system), so N ≈ X_max × R(1), the
 * offered-load bound c ÷ R(1) and a cap's k ÷ R(1) use this one; the knee, which compares medians,
 * uses r1Ms. Null when no probe of the arm has a success.
 */
export function r1MeanMs(probes: readonly TargetProbe[], arm: string): number | null {
  return medianOf(probes.filter((p) => p.arm === arm).map((p) => p.e2eMs?.mean ?? null));
}

/** One level of one arm, over its repeats. Rates in req/s, times in ms. */
export interface TargetLevelStat {
  level: number;
  /** the level's cells (repeats), in repeat order */
  cellIds: string[];
  /** mean over the repeats of cellThroughputRps */
  throughputRps: number | null;
  /** means over the repeats of the cells' E2E percentiles (labelled so in the report) */
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  /** requests and errors summed over the repeats */
  requests: number;
  errors: number;
  /**
   * the offered-load bound: closed loop level / R(1) (c workers, no think time; null without R(1));
   * open loop the arrival rate itself
   */
  offeredBoundRps: number | null;
}

/** What the client side says about one arm. */
export interface ArmInference {
  arm: string;
  /** R(1), ms: the probes' median (r1Ms), what the knee compares with */
  r1Ms: number | null;
  /** R(1), ms: the probes' mean (r1MeanMs), what Little's law takes (N, the offered-load bound, the caps' bounds) */
  r1MeanMs: number | null;
  /** probes of the arm with a success */
  probes: number;
  /** the highest level mean throughput, req/s, and its level */
  xMaxRps: number | null;
  xMaxLevel: number | null;
  /** N ≈ X_max × mean R(1) (Little's law), requests in the service at once; null without both */
  concurrencyN: number | null;
  /** the lowest level whose mean E2E P50 exceeds R(1) × (1 + KNEE_SLACK); null when none (or no R(1)) */
  kneeLevel: number | null;
  /** per level, ascending */
  levels: TargetLevelStat[];
}

/**
 * The levels of one arm from its cells (failed cells are never cells, so they are not here).
 * @param r1 the mean R(1), ms (r1MeanMs): the offered-load bound's denominator
 * @param mode the run's load model: the offered-load bound is level / R(1) in a closed loop, the level in an open one
 */
export function levelStats(cells: readonly TargetCell[], arm: string, r1: number | null, mode: TargetCell['mode']): TargetLevelStat[] {
  const mine = cells.filter((c) => c.arm === arm);
  const levels = [...new Set(mine.map((c) => c.level))].sort((a, b) => a - b);
  return levels.map((level) => {
    const cs = mine.filter((c) => c.level === level).sort((a, b) => a.repeat - b.repeat);
    const errs = (s: LoadSummary) => Object.values(s.errors).reduce((a, b) => a + b, 0);
    return {
      level,
      cellIds: cs.map((c) => c.id),
      throughputRps: meanOf(cs.map((c) => cellThroughputRps(c.summary))),
      p50Ms: meanOf(cs.map((c) => c.summary.e2eMs?.p50)),
      p95Ms: meanOf(cs.map((c) => c.summary.e2eMs?.p95)),
      p99Ms: meanOf(cs.map((c) => c.summary.e2eMs?.p99)),
      requests: cs.reduce((a, c) => a + c.summary.count, 0),
      errors: cs.reduce((a, c) => a + errs(c.summary), 0),
      offeredBoundRps: mode === 'open-loop' ? level : r1 !== null && r1 > 0 ? level / (r1 / 1000) : null,
    };
  });
}

/**
 * The inference of one arm: R(1) from its probes (median and mean), its levels, X_max (the highest
 * level mean throughput), N = X_max × mean R(1) s and the knee (median R(1), KNEE_SLACK). Pure.
 */
export function inferArm(arm: string, probes: readonly TargetProbe[], cells: readonly TargetCell[], mode: TargetCell['mode']): ArmInference {
  const r1 = r1Ms(probes, arm);
  const r1Mean = r1MeanMs(probes, arm);
  const levels = levelStats(cells, arm, r1Mean, mode);
  let best: TargetLevelStat | null = null;
  for (const l of levels) if (l.throughputRps !== null && (best === null || l.throughputRps > (best.throughputRps as number))) best = l;
  const xMax = best?.throughputRps ?? null;
  const knee = r1 === null ? null : levels.find((l) => l.p50Ms !== null && l.p50Ms > r1 * (1 + KNEE_SLACK))?.level ?? null;
  return {
    arm,
    r1Ms: r1,
    r1MeanMs: r1Mean,
    probes: probes.filter((p) => p.arm === arm && p.e2eMs !== null).length,
    xMaxRps: xMax,
    xMaxLevel: best?.level ?? null,
    concurrencyN: xMax !== null && r1Mean !== null ? xMax * (r1Mean / 1000) : null,
    kneeLevel: knee,
    levels,
  };
}
