/**
 * Study 004's theory (pure). Sources: the source study (shared/seeds/004: 100,000 `@Async` calls
 * sleeping 50 ms; `GET /get` sleeping 50 ms under 500 JMeter threads, 10,000 requests), Spring
 * Boot's task-execution defaults (`applicationTaskExecutor` = ThreadPoolTaskExecutor, core 8,
 * unbounded queue, so it never grows past 8: Boot reference, "Task Execution and Scheduling"),
 * Tomcat's default 200 worker threads (`server.tomcat.threads.max`), and the operational laws
 * (Denning & Buzen 1978): X ≤ servers / L, and the service-demand law X ≤ cores / D_cpu.
 */
import type { ExecutorSpec } from '../../types/study.ts';
import { queueWaitMeanSpreadMs, throughputBoundRps } from '../../compute/theory/bounds.ts';

/**
 * Threads the `@Async` tasks can run on at once: the pool's core size (Boot's pool never grows past
 * it, its queue being unbounded), or null for one virtual thread per task.
 */
export function asyncThreads(exec: ExecutorSpec): number | null {
  if (exec.kind === 'spring-boot-auto') return exec.virtualThreads ? null : exec.asyncCoreThreads;
  if (exec.kind === 'platform-pool') return exec.threads;
  return null;
}

/**
 * Makespan of T tasks of S ms, ms, not counting submission: ⌈T / N⌉ × S on N threads (the tasks
 * pass in ⌈T/N⌉ waves), S with one thread per task (all sleep at once).
 * e.g. T = 100,000, S = 50, N = 8: 12,500 × 50 ms = 625,000 ms = 625 s.
 */
export function asyncMakespanTheoryMs(exec: ExecutorSpec, tasks: number, sleepMs: number): number {
  const n = asyncThreads(exec);
  return n === null ? sleepMs : Math.ceil(tasks / n) * sleepMs;
}

/**
 * The job's deadline, ms: twice the theory plus a fixed margin (JVM warm-up of a cold job, thread
 * creation), so a job that runs more than twice as long as theory is a failed cell.
 */
export function asyncJobTimeoutMs(exec: ExecutorSpec, tasks: number, sleepMs: number): number {
  return 2 * asyncMakespanTheoryMs(exec, tasks, sleepMs) + JOB_MARGIN_MS;
}

/** The fixed margin of asyncJobTimeoutMs, ms. */
export const JOB_MARGIN_MS = 60_000;

/**
 * Experiment 2's bounds for c closed-loop clients on a request that holds its thread L ms, req/s:
 * the thread bound min(c, N)/L (N = Tomcat's threads; c/L on virtual threads) and the CPU bound
 * cores / CPU-seconds per request (null when the CPU per request is unknown). `limit` names the
 * smaller one.
 * e.g. c = 500, L = 50, N = 200: 4,000 req/s; virtual: 10,000 req/s.
 */
export function httpBounds(exec: ExecutorSpec, clients: number, latencyMs: number, cores: number, cpuMsPerRequest: number | null): { threadBoundRps: number; cpuBoundRps: number | null; limit: 'threads' | 'cpu' } {
  const threadBoundRps = throughputBoundRps(exec, clients, latencyMs);
  const cpuBoundRps = cpuMsPerRequest !== null && cpuMsPerRequest > 0 ? cores / (cpuMsPerRequest / 1000) : null;
  return { threadBoundRps, cpuBoundRps, limit: cpuBoundRps !== null && cpuBoundRps < threadBoundRps ? 'cpu' : 'threads' };
}

/**
 * Mean wait for a Tomcat thread in a steady closed loop of c clients over N threads, ms:
 * (c/N − 1) × L (Little's law; 0 on virtual threads). e.g. 500 over 200 at 50 ms: 75 ms = 1.5
 * service times, so a mean E2E of about 125 ms.
 */
export function httpQueueWaitMeanMs(exec: ExecutorSpec, clients: number, latencyMs: number): number {
  return queueWaitMeanSpreadMs(exec, clients, latencyMs);
}
