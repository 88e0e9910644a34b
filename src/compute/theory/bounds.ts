/**
 * Theoretical bounds of a closed-loop benchmark against a service whose every call takes a fixed
 * latency L behind an executor. Pure functions; all inputs validated by the caller.
 *
 * Sources: the source study (shared/seeds/000, §3: 32 / 1.5 s = 21.33 req/s) and queueing basics:
 * with c closed-loop workers and N servers of constant service time L, at most min(c, N) calls are
 * in service at once, so X <= min(c, N) / L (operational laws, Denning & Buzen 1978); Little's law
 * L_q = X * W gives c = X * mean(E2E) for a closed loop with no think time.
 */

import { executorInfo, type ExecutorSpec } from '../../types/study.ts';

/**
 * The thread limit N a request meets, or null when there is none (one thread per task): the pool's
 * threads for `platform-pool`; for `spring-boot-auto` Tomcat's worker threads (a request holds one
 * throughout; null on virtual threads).
 */
export function threadLimit(exec: ExecutorSpec): number | null {
  return executorInfo(exec).threadLimit(exec);
}

/** Threads that can run calls at once: min(c, N) for a thread limit N (threadLimit), c for one thread per task. */
export function servers(exec: ExecutorSpec, concurrency: number): number {
  const n = threadLimit(exec);
  return n === null ? concurrency : Math.min(concurrency, n);
}

/**
 * Throughput bound, req/s: servers / L, i.e. min(c, N) / L on a platform pool of N threads and
 * c / L with one thread per task.
 * @param exec the variant's executor
 * @param concurrency c, closed-loop workers (> 0)
 * @param latencyMs L, ms (> 0)
 */
export function throughputBoundRps(exec: ExecutorSpec, concurrency: number, latencyMs: number): number {
  return servers(exec, concurrency) / (latencyMs / 1000);
}

/**
 * Number of lock-step waves for c workers on N threads: ceil(c / N) (1 with one thread per task).
 */
export function waves(exec: ExecutorSpec, concurrency: number): number {
  const n = threadLimit(exec);
  return n === null ? 1 : Math.ceil(concurrency / n);
}

/**
 * Platform-pool queue-wait P95 when all workers start together and requests move in lock-step waves:
 * (ceil(c/N) - 1) * L, ms. With c <= N nobody waits: 0. One thread per task: 0 (no queue).
 * This is the largest wait, which P95 equals once more than 5 % of requests sit in the last wave.
 */
export function queueWaitP95WavesMs(exec: ExecutorSpec, concurrency: number, latencyMs: number): number {
  return (waves(exec, concurrency) - 1) * latencyMs;
}

/**
 * Platform-pool mean queue wait when arrivals are spread (steady closed loop): (c/N - 1) * L, ms,
 * floored at 0. Follows from Little's law: E2E = c / X = c * L / N, queue = E2E - L. 0 with one
 * thread per task.
 */
export function queueWaitMeanSpreadMs(exec: ExecutorSpec, concurrency: number, latencyMs: number): number {
  const n = threadLimit(exec);
  if (n === null) return 0;
  return Math.max(0, (concurrency / n - 1) * latencyMs);
}

/**
 * Little's law for a closed loop without think time: X = c / mean(E2E). Returns req/s, or null
 * when the mean is not positive.
 */
export function littleThroughputRps(concurrency: number, meanE2eMs: number | null): number | null {
  if (meanE2eMs === null || !(meanE2eMs > 0)) return null;
  return concurrency / (meanE2eMs / 1000);
}

/**
 * Minimum elapsed time of one cell, s: every worker sends n requests in sequence, each at least L,
 * and at most min(c, N) run at once, so elapsed >= max(n * L, c * n / bound).
 */
export function cellMinDurationS(exec: ExecutorSpec, concurrency: number, latencyMs: number, requestsPerWorker: number): number {
  const bound = throughputBoundRps(exec, concurrency, latencyMs);
  return Math.max((requestsPerWorker * latencyMs) / 1000, (concurrency * requestsPerWorker) / bound);
}

/**
 * Ramp edge effect: with workers spread over one latency L, the whole-run throughput
 * (completed / (last end - first start)) is at most n / (n + 1) of the bound, because the run
 * lasts (n + 1) * L for n * c requests. Returns the fraction (0..1).
 */
export function rampWholeRunFraction(requestsPerWorker: number): number {
  return requestsPerWorker / (requestsPerWorker + 1);
}

/**
 * Whole-run throughput when all c workers start together and each sends n requests, req/s:
 * the c * n requests pass the executor in lock-step waves of min(c, N) on a pool of N (c with one
 * thread per task), so the run lasts ceil(c * n / min(c, N)) * L and X = c * n / that. Overheads
 * are ignored, so this is an upper bound for the "together" start; it tends to throughputBoundRps
 * as n grows. e.g. a pool, c = 50, N = 32, L = 1500, n = 4: 200 / (7 * 1.5) = 19.05 req/s.
 */
export function wavesWholeRunRps(exec: ExecutorSpec, concurrency: number, latencyMs: number, requestsPerWorker: number): number {
  const total = concurrency * requestsPerWorker;
  return total / ((Math.ceil(total / servers(exec, concurrency)) * latencyMs) / 1000);
}

/** Requests one variant sends in one repeat of a plan: sum(levels) * n. */
export function plannedRequestsPerRepeat(levels: readonly number[], requestsPerWorker: number): number {
  return levels.reduce((s, c) => s + c, 0) * requestsPerWorker;
}
