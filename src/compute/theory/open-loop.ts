/**
 * Theory of an open-loop (arrival-rate) cell: arrivals at λ req/s that do not wait for answers,
 * served by an executor whose calls each hold a thread for L.
 *
 * A platform pool of N threads is a D/D/N queue (deterministic arrivals every 1/λ, deterministic
 * service L, N servers; Kendall's notation): its service capacity is N/L req/s (Little's law: N
 * busy threads = throughput × L). Above it (λ > N/L) the queue is unstable and grows, after the
 * first L (while the first N calls run), at λ − N/L per second (arrivals minus departures, a fluid
 * approximation that is exact on average for deterministic arrivals and service); below it the
 * queue stays flat at 0. Virtual threads (one per task) have no executor queue and no executor
 * bound: every arrival runs at once (other limits — CPU, the mock, sockets — are not modelled here).
 * Pure.
 */
import { executorInfo, type ExecutorSpec } from '../../types/study.ts';

/** Service capacity of the executor, req/s: N/L for a platform pool, null (no executor bound) for virtual threads. */
export function executorCapacityRps(exec: ExecutorSpec, latencyMs: number): number | null {
  const pool = executorInfo(exec).pool(exec);
  return pool ? pool.threads / (latencyMs / 1000) : null;
}

/** Completions the executor can sustain at arrival rate λ, req/s: min(λ, N/L); λ for virtual threads. */
export function openLoopThroughputBoundRps(exec: ExecutorSpec, arrivalRatePerS: number, latencyMs: number): number {
  const cap = executorCapacityRps(exec, latencyMs);
  return cap === null ? arrivalRatePerS : Math.min(arrivalRatePerS, cap);
}

/**
 * Growth of the executor's queue, tasks per second: max(0, λ − N/L) for a platform pool (D/D/N
 * queue above capacity, see the module note), 0 for virtual threads (no queue).
 */
export function queueGrowthPerS(exec: ExecutorSpec, arrivalRatePerS: number, latencyMs: number): number {
  const cap = executorCapacityRps(exec, latencyMs);
  return cap === null ? 0 : Math.max(0, arrivalRatePerS - cap);
}

/**
 * The queue at the end of a schedule of `durationS`, tasks: (λ − N/L) × durationS above capacity
 * (λ·D arrivals, N running, N/L × (D − L) departed: λD − N − (N/L)(D − L) = (λ − N/L)·D), else 0.
 */
export function queueAtEnd(exec: ExecutorSpec, arrivalRatePerS: number, latencyMs: number, durationS: number): number {
  return queueGrowthPerS(exec, arrivalRatePerS, latencyMs) * durationS;
}

/**
 * The shortest time an open-loop cell takes, s: the schedule (durationS), then the backlog drains
 * at N/L (queueAtEnd / (N/L)), then the last call's L. The last request's queue wait is the drain
 * time, so that is also the worst E2E minus L.
 */
export function openLoopCellDurationS(exec: ExecutorSpec, arrivalRatePerS: number, latencyMs: number, durationS: number): number {
  const cap = executorCapacityRps(exec, latencyMs);
  const drainS = cap === null ? 0 : queueAtEnd(exec, arrivalRatePerS, latencyMs, durationS) / cap;
  return durationS + drainS + latencyMs / 1000;
}
