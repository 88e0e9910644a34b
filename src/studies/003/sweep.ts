/**
 * Study 003's job answer: one level of its sweep as the SUT's `POST /bench/job/vt-sweep` answers it
 * (sut/…/jobs/sweep/VtSweep.java), its type and the check that decides whether an answer is a stored
 * level (InProcessJob.answer, src/types/study.ts). The engine carries the answer unread
 * (LoadResult.jobAnswer → CellResult.sweep); this study reads it back with `sweepOf`.
 */
import type { InProcessJob, JobAnswerCheck } from '../../types/study.ts';
import type { CellResult } from '../../types/run.ts';

/** One scheduler/memory sample of a sweep level, `tMs` after the start barrier released. */
export interface VtSweepSample {
  tMs: number;
  /** VirtualThreadSchedulerMXBean (null where the bean is unavailable) */
  parallelism: number | null;
  poolSize: number | null;
  mountedVirtualThreads: number | null;
  queuedVirtualThreads: number | null;
  heapUsedBytes: number;
  rssBytes: number | null;
}

/**
 * The answer of the SUT's `POST /bench/job/vt-sweep` (sut/…/sweep/VtSweep.java): one level of study
 * 003's sweep, N virtual threads looping for `durationMs` over a blocking op of `sleepMs` (L).
 * `outcome`: `ok` (a measurement), `oom` (OutOfMemoryError while starting threads), `start-failed`,
 * `host-limit` (the socket op needs 2 fds + 1 ephemeral port per thread; `hostLimitThreads` says how
 * many this host allows; no thread was started), `timeout`, `op-errors`. Only `ok` levels are
 * measurements. `throughputOpsPerS` = `completedOps` / `windowMs` (barrier release → last thread
 * ended; no operation starts after `durationMs`); `opsInWindow` = operations that ended within
 * `durationMs`. Latency: 1 % log histogram, nearest rank; overshoot = latency − L; `jitterPct` = SD
 * of the latency / L × 100; `gcPauseSharePct` = stop-the-world GC time (GarbageCollectorMXBeans
 * whose name has neither "Concurrent" nor "Cycles") / window × 100; per-thread memory = (peak
 * sampled − before) / threads started.
 */
export interface VtSweepResult {
  job: string;
  op: string;
  threads: number;
  durationMs: number;
  sleepMs: number;
  timeoutMs: number;
  outcome: 'ok' | 'oom' | 'start-failed' | 'host-limit' | 'timeout' | 'op-errors';
  reason: string | null;
  startedThreads: number;
  startMs: number;
  startRatePerS: number | null;
  windowMs: number;
  completedOps: number;
  opsInWindow: number;
  throughputOpsPerS: number | null;
  latencyMeanMs: number | null;
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
  latencyMaxMs: number | null;
  latencySdMs: number | null;
  overshootP50Ms: number | null;
  overshootP99Ms: number | null;
  overshootMaxMs: number | null;
  jitterPct: number | null;
  opErrors: number;
  firstOpError: string | null;
  gcPauseMs: number;
  gcPauseSharePct: number | null;
  gcStartPhaseMs: number;
  gcTimeByCollectorMs: Record<string, number>;
  gcCountByCollector: Record<string, number>;
  heapUsedBeforeBytes: number;
  heapUsedPeakBytes: number | null;
  rssBeforeBytes: number | null;
  rssPeakBytes: number | null;
  heapPerThreadBytes: number | null;
  rssPerThreadBytes: number | null;
  availableProcessors: number;
  maxFileDescriptors: number | null;
  openFileDescriptorsBefore: number | null;
  ephemeralPorts: number | null;
  hostLimitThreads: number | null;
  sampleIntervalMs: number;
  samples: VtSweepSample[];
}

/** The fields a `vt-sweep` answer must carry as numbers. */
const SWEEP_NUMBER_FIELDS = ['threads', 'durationMs', 'sleepMs', 'timeoutMs', 'startedThreads', 'startMs', 'windowMs', 'completedOps', 'opsInWindow', 'opErrors', 'gcPauseMs', 'gcStartPhaseMs', 'heapUsedBeforeBytes', 'availableProcessors', 'sampleIntervalMs'] as const;
/** The outcomes a `vt-sweep` level may answer (sut/…/sweep/VtSweep.java). */
export const SWEEP_OUTCOMES: readonly VtSweepResult['outcome'][] = ['ok', 'oom', 'start-failed', 'host-limit', 'timeout', 'op-errors'];

/**
 * Why a `vt-sweep` answer is not a stored level, or null when it is one (any known `outcome`: a
 * failed level is stored as that level's outcome). An `ok` level must have its throughput and
 * latencies and the thread count asked for. Pure.
 */
export function sweepProblem(job: InProcessJob, body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return 'the answer is not a JSON object';
  const b = body as Record<string, unknown>;
  if (b['job'] !== 'vt-sweep') return `field job is ${JSON.stringify(b['job'] ?? null)}, expected "vt-sweep"`;
  for (const f of SWEEP_NUMBER_FIELDS) if (typeof b[f] !== 'number') return `field ${f} is ${JSON.stringify(b[f] ?? null)}, expected a number`;
  if (!SWEEP_OUTCOMES.includes(b['outcome'] as VtSweepResult['outcome'])) return `field outcome is ${JSON.stringify(b['outcome'] ?? null)}, expected one of ${SWEEP_OUTCOMES.join(', ')}`;
  if (b['threads'] !== job.tasks) return `the level ran ${String(b['threads'])} threads, ${job.tasks} were asked for`;
  if (!Array.isArray(b['samples'])) return 'samples missing';
  if (b['outcome'] === 'ok') {
    for (const f of ['throughputOpsPerS', 'latencyP50Ms', 'latencyP99Ms', 'latencyMaxMs'] as const) if (typeof b[f] !== 'number') return `an ok level has ${f} = ${JSON.stringify(b[f] ?? null)}`;
    if (b['startedThreads'] !== job.tasks) return `an ok level started ${String(b['startedThreads'])} of ${job.tasks} threads`;
  }
  return null;
}

/**
 * The terminal's line for a sweep level: an `ok` level's ops/s against its bound N / L (the
 * threads × 1000 / sleepMs ops/s that N threads blocking L ms each can complete), as a share, and
 * its op latency P99; another outcome by name, with its reason. Pure.
 */
export function sweepLine(job: InProcessJob, answer: unknown): string {
  const a = answer as VtSweepResult;
  const boundOps = (a.threads * 1000) / a.sleepMs;
  if (a.outcome !== 'ok' || a.throughputOpsPerS === null) return `sweep: ${a.threads.toLocaleString('en-US')} threads, outcome ${a.outcome}${a.reason ? ` (${a.reason})` : ''}`;
  const share = (100 * a.throughputOpsPerS) / boundOps;
  return `sweep: ${a.threads.toLocaleString('en-US')} threads (${job.params?.['op'] ?? 'op'}), ${a.throughputOpsPerS.toFixed(0)} ops/s = ${share.toFixed(1)} % of N/L ${boundOps.toFixed(0)} ops/s; op latency P99 ${a.latencyP99Ms === null ? '–' : a.latencyP99Ms.toFixed(0)} ms`;
}

/** The check the sweep scenarios' jobs carry (InProcessJob.answer), and their terminal line. */
export const VT_SWEEP_ANSWER: JobAnswerCheck = { problem: sweepProblem, describe: sweepLine };

/** A cell's sweep level (the answer `sweepProblem` accepted when the cell ran), or undefined in any other cell. */
export function sweepOf(c: Pick<CellResult, 'sweep'>): VtSweepResult | undefined {
  return c.sweep as VtSweepResult | undefined;
}
