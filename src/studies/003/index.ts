/**
 * Study 003: "Inflection points of virtual threads, JDK 21" (shared/seeds/003_*.txt, largely
 * unreliable: see templates/003 for the claims that cannot be checked). What can be measured: how
 * many blocked virtual threads one JVM carries on this host, what each costs, and where the
 * throughput curve bends.
 *
 * One variant (`virtual`: the SUT's executor is irrelevant here; the sweep starts its own virtual
 * threads). Scenarios (driver `in-process`, a fresh SUT JVM per level: `freshJvmPerCell`):
 * - `sleep-sweep`: the SUT's `POST /bench/job/vt-sweep?op=sleep` (sut/…/sweep/VtSweep.java): N =
 *   the level virtual threads behind a start barrier, each looping `Thread.sleep(L)` for D s.
 * - `socket-sweep`: `op=socket`: each thread writes a byte to a loopback TCP connection and blocks
 *   reading the answer of an in-JVM echo server that answers after L ms. 2 descriptors and 1
 *   ephemeral port per thread: on this host (ulimit -n 20,000, hard limit too) the sweep stops near
 *   9,700 threads, and a level above that is recorded with outcome `host-limit`.
 * The level is N; L = `latencyMs`, D = `durationS`. A level that runs out of memory, hits the host's
 * limit or times out is stored with that outcome and the run goes on (src/load/in-process.ts).
 */
import { fileURLToPath } from 'node:url';
import type { Profile, ProfileValues, Scenario, Variant } from '../../types/study.ts';
import type { StudyPlugin } from '../../report/types.ts';
import type { ResolvedOptions } from '../../types/run.ts';
import { DEFAULT_BIND_ADDRESS } from '../../adapters/jvm/bind.ts';
import { PUBLISHED_003 } from './published.ts';
import { REPORT_003 } from './report.ts';
import { answer003 } from './answer.ts';
import { VT_SWEEP_ANSWER } from './sweep.ts';

export const VARIANTS_003: readonly Variant[] = [
  { id: 'virtual', label: 'virtual threads started by the sweep job (Thread.ofVirtual)', executor: { kind: 'virtual-per-task' }, threadNamePrefix: 'llm-vt-' },
];

/** Per-level deadline of the job: the window, L, the thread start (≤ 20 µs per thread, generous) twice over, plus a minute. */
export function sweepTimeoutMs(o: Pick<ResolvedOptions, 'durationS' | 'latencyMs'>, threads: number): number {
  const D = (o.durationS ?? 10) * 1000;
  return Math.round(2 * (D + o.latencyMs + threads * 0.02) + 60_000);
}

/** The level's planned time, s: thread start (≈ 5 µs per thread, measured here at 10k–100k) + D + L, and a JVM start of ≈ 8 s. */
export function sweepCellS(o: Pick<ResolvedOptions, 'durationS' | 'latencyMs'>, threads: number): number {
  return (o.durationS ?? 10) + o.latencyMs / 1000 + threads * 5e-6 + 8;
}

function sweepScenario(id: string, op: 'sleep' | 'socket', label: string): Scenario {
  return {
    id,
    label,
    driver: 'in-process',
    request: (o) => ({ method: 'POST', path: `/bench/job/vt-sweep?op=${op}&sleepMs=${o.latencyMs}` }),
    serviceTimeMs: (o) => o.latencyMs,
    usesMock: false,
    freshJvmPerCell: true,
    threadDump: false,
    job: (o, _v, level) => ({
      path: '/bench/job/vt-sweep',
      answer: VT_SWEEP_ANSWER,
      tasks: level,
      sleepMs: o.latencyMs,
      timeoutMs: sweepTimeoutMs(o, level),
      params: { op, threads: level, durationMs: (o.durationS ?? 10) * 1000, sleepMs: o.latencyMs, timeoutMs: sweepTimeoutMs(o, level), sampleMs: 200 },
    }),
    cellTheoreticalS: (_e, o, level) => sweepCellS(o, level),
  };
}

export const SCENARIOS_003: readonly Scenario[] = [
  sweepScenario('sleep-sweep', 'sleep', 'N virtual threads looping Thread.sleep(L) for D s (the scheduler and its timer alone)'),
  sweepScenario('socket-sweep', 'socket', 'N virtual threads blocking on a loopback socket read, an in-JVM echo server answering after L ms'),
];

const BASE: ProfileValues = {
  scenario: 'sleep-sweep',
  levels: [10_000, 50_000, 100_000, 200_000, 300_000, 500_000],
  requestsPerWorker: 1,
  repeats: 2,
  warmupS: 0,
  latencyMs: 1000,
  durationS: 20,
  variants: ['virtual'],
  poolSize: null,
  queueCapacity: null,
  start: 'together',
  rampMs: 0,
  jvmFlags: ['-Xms3g', '-Xmx3g', '-XX:+UseG1GC'],
  mockPort: 19003,
  sutPort: 19083,
  bindAddress: DEFAULT_BIND_ADDRESS,
  samplerIntervalMs: 250,
  pinnedThresholdMs: 20,
  errorFlagThreshold: 0.001,
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 60_000,
  bodyTimeoutMs: 60_000,
};

/** The socket op's levels: the host allows ≈ 9,700 (ulimit -n 20,000 / 2 less a reserve), so 16,000 records where it stops. */
const SOCKET: ProfileValues = { ...BASE, scenario: 'socket-sweep', levels: [1000, 2000, 4000, 8000, 16_000], jvmFlags: ['-Xms1g', '-Xmx1g', '-XX:+UseG1GC'] };

/** All profiles, default first. */
export const PROFILES_003: readonly Profile[] = [
  {
    name: 'seed-003',
    description: 'sleep sweep 10k, 50k, 100k, 200k, 300k, 500k virtual threads, L = 1 s, D = 20 s, 2 repeats, fresh JVM (heap 3 GiB) per level',
    values: BASE,
  },
  {
    name: 'seed-003-socket',
    description: 'socket sweep 1k–16k threads (the host stops near 9,700: 16k records the limit), L = 1 s, D = 20 s, 2 repeats',
    values: SOCKET,
  },
  {
    name: 'quick',
    description: 'sleep sweep 10k, 25k, 50k, 100k, L = 1 s, D = 10 s, 1 repeat, heap 1 GiB',
    values: { ...BASE, levels: [10_000, 25_000, 50_000, 100_000], repeats: 1, durationS: 10, jvmFlags: ['-Xms1g', '-Xmx1g', '-XX:+UseG1GC'] },
  },
  {
    name: 'quick-socket',
    description: 'socket sweep 1k, 2k, 4k, 8k, L = 1 s, D = 10 s, 1 repeat',
    values: { ...SOCKET, levels: [1000, 2000, 4000, 8000], repeats: 1, durationS: 10 },
  },
  {
    name: 'smoke',
    description: 'CI check: sleep sweep 200 and 1,000 threads, L = 50 ms, D = 1 s, heap 256 MiB',
    values: { ...BASE, levels: [200, 1000], repeats: 1, durationS: 1, latencyMs: 50, jvmFlags: ['-Xms256m', '-Xmx256m', '-XX:+UseSerialGC'] },
  },
];

export const STUDY_003: StudyPlugin = {
  id: '003',
  title: 'How far virtual threads scale on this host: a sweep of blocked virtual threads, GC share, scheduler lag and the knee',
  source: 'seeds/003_*.txt',
  sourceSummary: 'docs/studies/003.md',
  variants: VARIANTS_003,
  scenarios: SCENARIOS_003,
  profiles: PROFILES_003,
  comparisons: [],
  published: PUBLISHED_003,
  templateDir: fileURLToPath(new URL('../../../templates/003/', import.meta.url)),
  // its report hook, with the answer block (./answer.ts; kept out of report.ts, which it reads)
  report: { ...REPORT_003, answer: answer003 },
};
