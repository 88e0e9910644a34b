/**
 * `npm run bench:mock [-- --json] [--n 10000] [--latency-ms 1000] [--ramp-ms 900] [--rounds 3]`
 *
 * Two servers, in the same run, each in its own child process, one after the other (the order
 * alternates between rounds): the mock LLM, and a reference — the plainest fastify route that
 * answers the same bytes (the mock's own answer, read once) after the same delay with a per-request
 * timer (bench/lib/plain-fastify.ts). For each it reports the CPU the server process used per
 * answered request in the held round (/proc/<pid>/stat, 10 ms ticks), and the ratio mock /
 * reference (median over rounds; target <= 1.2). Three rounds by default, so a median is one
 * round's figure rather than the mean of two: on this shared 2-core host one round's P99 lateness
 * ranged from 7 to 90 ms with the same code (issue 20, 2026-12-02).
 *
 * Against each server it opens N persistent connections
 * (one undici Client each), warms the chat path up, then sends N delayed chat requests at once so
 * all N are held together, and reports:
 *   - lateness (mock-measured: response written − arrival − latency) P50/P99/max, from /stats
 *   - client E2E − latency P50/P99/max (undici, this process)
 *   - mock RSS (peak VmRSS sampled every 100 ms, and VmHWM) from /proc/<pid>/status
 *   - whether P99 lateness <= 5 ms (the target)
 *   - CPU used by the server and by this client in the held round, the server's CPU share of one
 *     core (its utilisation: when it nears 1, answers queue behind each other and lateness grows,
 *     whatever the code), and the host's load average, so a busy host (load above the core count)
 *     is flagged rather than blamed on the mock
 *   - the CPU the whole host spent in the held round (/proc/stat) and, after taking away the server's
 *     and this client's, what other processes took (in cores): when server + client + others near
 *     the core count, answers wait for a CPU, and that share — not the server's code — sets the
 *     lateness; a round where the host used >= 90% of its cores is flagged, and the result gives the
 *     best round's P99 beside the median
 * The N requests are spread over --ramp-ms (default 900 < latency, so all N are held at once;
 * peak in flight proves it; the mock's peak in flight is reported); --ramp-ms 0 sends them all at once.
 *   - the server's GC stops in the held round (both children run with `--trace-gc`; only the main
 *     thread's isolate counts, found by bench/lib/gc-probe.cjs): count, total, P99 and the longest
 *     — a stop holds back every answer due meanwhile, so when the P99 lateness is close to the
 *     longest stop, GC, not the wheel, sets it. The stops in the answer window (after the first
 *     answer was due) give a lower bound on the share of answers GC alone makes later than the
 *     target (gcLateShareOf); above 1% the P99 target cannot be met with those stops, and the
 *     result says so (`limits`)
 *   - the answer window (the first answer's due time to the last one's, read by two timers): the
 *     server's main-thread CPU share there (/proc/<pid>/task/<pid>/schedstat), the same without its
 *     GC time (the answering's share), how much in the kernel, how long the thread waited for a CPU,
 *     the host's busy cores and this client's; and, counting the queue the GC stops leave behind
 *     (it drains at 1 − the answering's share), the share of answers the stops make later than the
 *     target (queueLateShareOf, a fluid-queue estimate)
 *   - the reference's own lateness, measured the same way (bench/lib/plain-fastify.ts): what the
 *     plainest fastify route with a timer per request reaches on this host in the same rounds
 * Both server children run with the mock's Node flags (src/adapters/process/node-flags.ts), as a run starts
 * the mock. Diagnostics: BENCH_NODE_ARGS="--max-semi-space-size=16" adds node flags to both server
 * children after them (a later V8 flag wins, so this one restores V8's default)
 * (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`); BENCH_CHILD_STDOUT=1
 * copies its stdout to stderr.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { quantileSorted } from 'simple-statistics';
import { Client, type Dispatcher } from 'undici';
import type { MockStats } from '../src/types/mock.ts';
import { MOCK_NODE_FLAGS } from '../src/adapters/process/node-flags.ts';
import { CONTROL_TOKEN_ENV, CONTROL_TOKEN_HEADER, newControlToken } from '../src/adapters/process/control-token.ts';

/** this bench's control token for the mock it starts */
const BENCH_CONTROL_TOKEN = newControlToken();

const TARGET_P99_LATENESS_MS = 5;
/** mock CPU per answered request over the plain fastify reference's, in one run (issue 20) */
const TARGET_CPU_RATIO = 1.2;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Preloaded into both server children: finds their main thread's GC lines (bench/lib/gc-probe.cjs). */
const GC_PROBE = fileURLToPath(new URL('./lib/gc-probe.cjs', import.meta.url));

interface Options {
  n: number;
  latencyMs: number;
  warmup: number;
  /** the N requests are sent spread evenly over this many ms (0 = all at once); < latency, so all N are held together */
  rampMs: number;
  rounds: number;
  json: boolean;
}

type Percentiles = { n: number; p50: number; p99: number; max: number };

/** What the held round's answer window cost (HeldRound.answerWindow). */
export interface AnswerWindow {
  /** between the window's two meter readings (the first timer's firing; the second's, or the round's end when the last answer came first), ms */
  wallMs: number;
  /**
   * the server's main-thread CPU in the window / wallMs (/proc/<pid>/task/<pid>/schedstat on-CPU
   * ns, else stat's 10 ms ticks): the utilisation of the one thread its JavaScript runs on, GC
   * pauses included (GC helper threads not counted)
   */
  serverCpuShare: number;
  /**
   * serverCpuShare without the main thread's GC time in the window (the stops' totals, placed as
   * in queueLateShareOf), clamped at 0: the answering work's own utilisation, rho of queueLateShareOf
   */
  answeringShare: number;
  /** the main thread's system (kernel) CPU / its user + system CPU in the window, from stat's ticks (null when they counted none) */
  serverSystemShare: number | null;
  /** ms the main thread was runnable but waited for a CPU in the window (/proc/<pid>/task/<pid>/schedstat; null without it) */
  runQueueWaitMs: number | null;
  /** the whole host's busy CPU in the window (/proc/stat), in cores */
  hostBusyCores: number;
  /** this (client) process's CPU in the window (process.cpuUsage), in cores */
  clientCores: number;
  /**
   * queueLateShareOf of the round's GC stops at `answeringShare`: the share of answers later than
   * the target once the queue the stops leave behind is counted (a fluid-queue estimate)
   */
  queueLateShareEstimate: number | null;
}

/** One held round against one server. */
export interface HeldRound {
  server: 'mock' | 'reference';
  ok: number;
  failed: number;
  emptyBodies: number;
  /** bytes of the first answer's body (both servers must send the same) */
  bodyBytes: number | null;
  clientOverheadMs: Percentiles | null;
  rssPeakBytes: number | null;
  rssHwmBytes: number | null;
  heldWallMs: number;
  /** CPU (user + system) the server process used during the held round, ms (10 ms ticks); null without /proc */
  serverCpuMs: number | null;
  /** serverCpuMs × 1000 / ok: CPU µs per answered request (the held round includes receiving it) */
  serverCpuUsPerAnswer: number | null;
  /** serverCpuMs / heldWallMs: the server's utilisation of its one core */
  serverCpuShare: number | null;
  /** CPU this (client) process used during the held round, ms */
  clientCpuMs: number;
  /**
   * the server's main-thread garbage collections that ended during the held round (its
   * `--trace-gc` lines of the main isolate, placed on the wall clock by bench/lib/gc-probe.cjs;
   * gcLineOf): how many, their main-thread time summed (final pauses and incremental marking
   * steps), the P99 and the longest single stop (per collection: its pause or its biggest marking
   * step), ms. Nothing else runs during a stop, so answers due then are late by up to `maxMs`
   */
  gcPauses: { count: number; totalMs: number; p99Ms: number | null; maxMs: number };
  /**
   * the stops above that ended in the answer window (from the first answer's due time, round start
   * + latency, to the last one's, + ramp), and gcLateShareOf of them: at least this share of the
   * answers was made later than the P99 target by GC alone (null with --ramp-ms 0)
   */
  gcAnswerWindow: { count: number; totalMs: number; maxMs: number; lateShareLowerBound: number | null };
  /** CPU the whole host spent (all cores, /proc/stat, 10 ms ticks) during the held round, in cores (CPU ms / wall ms); null without /proc */
  hostBusyCores: number | null;
  /** hostBusyCores minus the server's and this client's CPU: what other processes took, in cores (clamped at 0; tick rounding); null without /proc */
  otherProcessesCores: number | null;
  loadAvg1Before: number | null;
  loadAvg1After: number | null;
  /**
   * the answer window (from the first answer's due time, round start + latency, to the last one's,
   * + ramp; read by two timers of this process, so its edges are where they fired, or the second
   * at the round's end when the last answer came before it): the server's main-thread CPU share
   * there (its utilisation while answering: 1 − it is the spare capacity that drains the queue a
   * stop leaves), the part of that CPU spent in the kernel, how long the thread waited for a CPU,
   * the whole host's busy cores, and queueLateShareOf of the GC stops. Null without /proc, with
   * --ramp-ms 0, or when the first timer had not fired by the round's end
   */
  answerWindow: AnswerWindow | null;
  /** answers written − arrival − latency, server-measured (the mock's /stats; the reference's /lateness, same definition) */
  latenessMs: Percentiles | null;
  peakInFlight: number | null;
  connectionsOpened: number | null;
}

export interface MockBenchResult {
  schemaVersion: 5;
  concurrency: number;
  latencyMs: number;
  rampMs: number;
  cores: number;
  rounds: { round: number; order: string; mock: HeldRound; reference: HeldRound; cpuRatio: number | null }[];
  /** median over rounds of mock CPU per answer / reference CPU per answer; target <= 1.2 */
  cpuRatio: number | null;
  cpuRatioMin: number | null;
  cpuRatioMax: number | null;
  targetCpuRatio: number;
  /** median over rounds of the mock's own P99 lateness, ms */
  latenessP99Ms: number | null;
  /** the best (lowest) round's P99 lateness, ms: the best figure this host gave in this run */
  latenessP99BestMs: number | null;
  /** rounds whose mock held round had the host's CPU saturated (hostBusyCores >= 90% of the cores): there, waiting for a CPU, not the mock's code, sets the lateness */
  hostSaturatedRounds: number;
  targetP99LatenessMs: number;
  targetP99Met: boolean;
  /** median over rounds of the mock's gcAnswerWindow.lateShareLowerBound: above 0.01 its GC stops alone rule out the P99 target */
  gcLateShareLowerBound: number | null;
  /** median over rounds of the mock's answerWindow.queueLateShareEstimate: the share of answers its GC stops make later than the target once the queue they leave is counted (a fluid-queue estimate; above 0.01 the P99 target is out of reach with such stops) */
  queueLateShareEstimate: number | null;
  /** median over rounds of the mock's main-thread CPU share in the answer window (answerWindow.serverCpuShare) */
  answerWindowCpuShare: number | null;
  /** median over rounds of the same without its GC time (answerWindow.answeringShare) */
  answeringShare: number | null;
  /** median over rounds of the reference's (plain fastify, a timer per request) own P99 lateness, ms: what the plainest route reaches on this host in the same run */
  referenceLatenessP99Ms: number | null;
  /** the reference's best round, ms */
  referenceLatenessP99BestMs: number | null;
  /** why the P99 target was not met, one sentence each, from this run's figures (host saturation, GC stops, the server's CPU share); empty when met */
  limits: string[];
  targetCpuRatioMet: boolean;
  percentileDefinition: string;
}

class BenchError extends Error {}

function parseOptions(argv: string[]): Options {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        n: { type: 'string', default: '10000' },
        'latency-ms': { type: 'string', default: '1000' },
        warmup: { type: 'string', default: '2000' },
        'ramp-ms': { type: 'string', default: '900' },
        rounds: { type: 'string', default: '3' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (err) {
    throw new BenchError(`${(err as Error).message.split('\n')[0]} (fix: options are --n <count> --latency-ms <ms> --ramp-ms <ms> --warmup <count> --rounds <count> --json)`);
  }
  const int = (flag: string, raw: string, min: number) => {
    const v = Number(raw);
    if (!Number.isInteger(v) || v < min) throw new BenchError(`--${flag} ${JSON.stringify(raw)} is invalid (fix: give an integer >= ${min})`);
    return v;
  };
  const o: Options = {
    n: int('n', values.n, 1),
    latencyMs: int('latency-ms', values['latency-ms'], 0),
    warmup: int('warmup', values.warmup, 0),
    rampMs: int('ramp-ms', values['ramp-ms'], 0),
    rounds: int('rounds', values.rounds, 1),
    json: values.json,
  };
  if (o.rampMs >= o.latencyMs && o.rampMs > 0) {
    throw new BenchError(`--ramp-ms ${o.rampMs} is not below --latency-ms ${o.latencyMs} (fix: a ramp shorter than the latency, so all --n requests are held at once)`);
  }
  return o;
}

function fdLimit(): number {
  const out = execFileSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
  return out === 'unlimited' ? Number.POSITIVE_INFINITY : Number(out);
}

/** VmRSS / VmHWM of a process in bytes, or null when /proc is not readable. */
function procMemory(pid: number): { rss: number; hwm: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

/**
 * user and system CPU time of a process, ms (from /proc/<pid>/stat, clock ticks of 10 ms), or null;
 * with `mainThread`, of its main thread alone (/proc/<pid>/task/<pid>/stat: the thread whose id is
 * the pid; without V8's GC helper threads and libuv's pool).
 */
function procCpuSplitMs(pid: number, mainThread = false): { user: number; system: number } | null {
  try {
    const stat = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 }; // utime, stime (fields 14, 15)
  } catch {
    return null;
  }
}

/** user + system CPU time of a process, ms (procCpuSplitMs), or null. */
function procCpuMs(pid: number): number | null {
  const c = procCpuSplitMs(pid);
  return c === null ? null : c.user + c.system;
}

/** One reading of the meters the answer window is measured with (AnswerWindow). */
export interface Meters {
  /** performance.now() of this process, ms */
  atMs: number;
  /** the server's main thread's CPU so far, ms (/proc/<pid>/task/<pid>/stat, 10 ms ticks), or null */
  server: { user: number; system: number } | null;
  /** the server's main thread's on-CPU and run-queue wait time so far, ns (/proc/<pid>/task/<pid>/schedstat), or null */
  sched: { runNs: number; waitNs: number } | null;
  /** the host's busy CPU so far, ms (hostBusyMs), or null */
  hostMs: number | null;
  /** this process's user + system CPU so far, ms (process.cpuUsage) */
  clientMs: number;
}

/** The main thread's on-CPU and run-queue wait time, ns, from /proc/<pid>/task/<pid>/schedstat (`run_ns wait_ns slices`), or null. */
function procSchedNs(pid: number): { runNs: number; waitNs: number } | null {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    return run !== undefined && wait !== undefined && Number.isFinite(run) && Number.isFinite(wait) ? { runNs: run, waitNs: wait } : null;
  } catch {
    return null;
  }
}

/** Reads every meter of the answer window now: the server `pid`'s main thread, the host, this process (Meters). */
function readMeters(pid: number): Meters {
  const c = process.cpuUsage();
  return { atMs: performance.now(), server: procCpuSplitMs(pid, true), sched: procSchedNs(pid), hostMs: hostBusyMs(), clientMs: (c.user + c.system) / 1000 };
}

/** CPU time the whole host spent busy (all cores: user, nice, system, irq, softirq, steal), ms from /proc/stat's ticks of 10 ms, or null. */
function hostBusyMs(): number | null {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = cpu;
    return (user + nice + system + irq + softirq + steal) * 10;
  } catch {
    return null;
  }
}

/** 1-minute load average, or null. */
function loadAvg1(): number | null {
  try {
    return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    return null;
  }
}

/** One garbage collection as a `node --trace-gc` line reports it (gcLineOf). */
export interface GcLine {
  /** the isolate that collected (`[pid:0x…]`): the main thread's or a worker thread's */
  isolate: string;
  /** when V8 printed the line (the collection's end), ms since that isolate started */
  sinceStartMs: number;
  /** main-thread time: the final pause plus the incremental marking steps, ms */
  totalMs: number;
  /** the longest single stop: the pause or the biggest marking step, ms */
  longestMs: number;
  /** a collection forced by gc() (reason `testing`): bench/lib/gc-probe.cjs's */
  forced: boolean;
}

/**
 * One garbage collection from a `node --trace-gc` line, or null for any other line. V8 prints
 * `[pid:0xISOLATE]  5605 ms: Mark-Compact 40.8 (69.8) -> 30.4 (72.6) MB, 5.29 / 0.01 ms (+ 13.5
 * ms in 102 steps since start of marking, biggest step 1.1 ms, …) … <reason>`: the time since the
 * isolate started, the final pause (5.29; the second figure is the part spent in embedder
 * callbacks) and, for a major GC, the incremental marking steps run on the main thread before it
 * (13.5 ms in all, the longest 1.1 ms). `totalMs` = pause + steps; `longestMs` = the longest
 * single stop (pause or step).
 */
export function gcLineOf(line: string): GcLine | null {
  const m = /^\[\d+:(0x[0-9a-f]+)\]\s+([\d.]+) ms: (?:Scavenge|Minor Mark-Sweep|Mark-Compact|Mark-Sweep)\b.*? MB, ([\d.]+) \/ [\d.]+ ms(?:\s+\(\+ ([\d.]+) ms in \d+ steps[^,]*, biggest step ([\d.]+) ms)?/.exec(line);
  if (m?.[1] === undefined || m[2] === undefined || m[3] === undefined) return null;
  const pause = Number(m[3]);
  const steps = m[4] === undefined ? 0 : Number(m[4]);
  const biggest = m[5] === undefined ? 0 : Number(m[5]);
  return { isolate: m[1], sinceStartMs: Number(m[2]), totalMs: pause + steps, longestMs: Math.max(pause, biggest), forced: /\) testing;/.test(line) };
}

/**
 * A server child's main-thread GC clock (bench/lib/gc-probe.cjs): the isolate of its forced GC
 * and the epoch of that isolate's start, from the forced GC's line and the probe's
 * `vtbench-gc-probe epochMs=` line (in either order); every GC line seen, to be placed later.
 */
export class GcTrace {
  private isolate: string | null = null;
  private forcedSinceStartMs: number | null = null;
  private probeEpochMs: number | null = null;
  private readonly lines: GcLine[] = [];

  /** Takes one stdout line of the child (GC lines and the probe line; others are ignored). */
  see(line: string): void {
    const g = gcLineOf(line);
    if (g !== null) {
      if (g.forced && this.isolate === null) {
        this.isolate = g.isolate;
        this.forcedSinceStartMs = g.sinceStartMs;
      } else {
        this.lines.push(g);
      }
      return;
    }
    const p = /^vtbench-gc-probe epochMs=(\d+)/.exec(line);
    if (p?.[1] !== undefined) this.probeEpochMs = Number(p[1]);
  }

  /**
   * The main thread's GC stops that ended in [fromEpochMs, toEpochMs], each as its end on the
   * wall clock (epoch ms) and its longest stop and total (ms).
   * @throws BenchError when the probe's lines were not seen (the child ran without gc-probe.cjs)
   */
  stopsBetween(fromEpochMs: number, toEpochMs: number): { endEpochMs: number; longestMs: number; totalMs: number }[] {
    if (this.isolate === null || this.forcedSinceStartMs === null || this.probeEpochMs === null) {
      throw new BenchError('a server child printed no forced GC line and vtbench-gc-probe line, so its main thread is unknown (fix: start it with --trace-gc --require bench/lib/gc-probe.cjs)');
    }
    const startEpochMs = this.probeEpochMs - this.forcedSinceStartMs;
    const out: { endEpochMs: number; longestMs: number; totalMs: number }[] = [];
    for (const g of this.lines) {
      if (g.isolate !== this.isolate) continue; // another thread's isolate: it does not stop the main thread
      const end = startEpochMs + g.sinceStartMs;
      if (end >= fromEpochMs && end <= toEpochMs) out.push({ endEpochMs: end, longestMs: g.longestMs, totalMs: g.totalMs });
    }
    return out;
  }
}

/**
 * A lower bound on the share of answers that GC stops alone make later than `targetMs`, when the
 * answers fall due evenly over `spreadMs` (bench:mock's ramp with a fixed latency): a stop of L ms
 * holds back every answer due in its first L − targetMs ms by more than the target, that is
 * (L − target) / spread of them. Summed over the stops (they do not overlap: each stops the one
 * thread); answers delayed by the queue a stop leaves behind come on top, so the true share is
 * higher. Null when spreadMs is 0 (all due at once). Capped at 1.
 */
export function gcLateShareOf(stopsMs: readonly number[], targetMs: number, spreadMs: number): number | null {
  if (spreadMs <= 0) return null;
  let late = 0;
  for (const l of stopsMs) late += Math.max(0, l - targetMs);
  return Math.min(1, late / spreadMs);
}

/** A GC stop of the main thread on a clock in ms: it ended at `endMs` and lasted `longestMs` (its longest single stop); `totalMs` is its main-thread time in all (pause plus marking steps). */
export interface PlacedStop {
  endMs: number;
  longestMs: number;
  totalMs: number;
}

/** Grid step of queueLateShareOf's fluid queue, ms. */
const FLUID_STEP_MS = 0.05;

/**
 * The share of answers later than `targetMs` once the queue the GC stops leave behind is counted:
 * a fluid-queue estimate (the deterministic fluid approximation of a single-server queue:
 * Kleinrock, *Queueing Systems* vol. 2, ch. 2). Answers fall due evenly over the window
 * [fromMs, fromMs + spreadMs], none before it; their work arrives as a fluid at the rate `rho` (ms
 * of work per ms: the answering's own utilisation of the thread) and is served first in, first
 * out at rate 1, except during a stop (placed at [endMs − longestMs, endMs]; V8 prints the line
 * when the collection ends), when nothing is served. An answer due at t waits for the work queued
 * ahead of it, W(t), and for every stop before that work is done: its lateness is the smallest τ
 * with more than W(t) ms of service available in [t, t + τ]. So a lone stop of g ms makes the
 * answers due in its first (g − target) / (1 − rho) ms later than the target (the queue it leaves
 * drains only at the spare rate 1 − rho), and a stop in the queue of another adds to it. Computed
 * on a 0.05 ms grid. It takes every answer's cost as the same and nothing but these stops as
 * delays, so other delays (waiting for a CPU, timers) come on top. With rho >= 1 the queue never
 * drains. Null when spreadMs is 0 (all due at once); 0 with no stop longer than the target.
 */
export function queueLateShareOf(stops: readonly PlacedStop[], targetMs: number, fromMs: number, spreadMs: number, rho: number): number | null {
  if (spreadMs <= 0) return null;
  const toMs = fromMs + spreadMs;
  const relevant = stops.filter((g) => g.longestMs > 0 && g.endMs > fromMs).map((g) => [g.endMs - g.longestMs, g.endMs] as const);
  if (relevant.length === 0 && rho < 1) return 0; // no stop and spare capacity: nothing waits
  {
    const dt = FLUID_STEP_MS;
    // the grid runs past the window until every answer's work could be served (rho·spread of work, plus the stops)
    const stopMs = relevant.reduce((a, [x, y]) => a + (y - x), 0);
    const n = Math.ceil((spreadMs + Math.max(rho, 0) * spreadMs + stopMs + targetMs + 1) / dt) + 1;
    const inStop = new Uint8Array(n);
    for (const [a, b] of relevant) {
      const i0 = Math.max(0, Math.floor((a - fromMs) / dt));
      const i1 = Math.min(n, Math.ceil((b - fromMs) / dt));
      for (let i = i0; i < i1; i++) inStop[i] = 1;
    }
    // capacity served before grid point i (C), and the work queued at i (W), for answers due at i
    const cap = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) cap[i + 1] = (cap[i] as number) + (inStop[i] === 1 ? 0 : dt);
    const windowSteps = Math.round(spreadMs / dt);
    let w = 0;
    let late = 0;
    let j = 0; // the first grid point whose capacity since i exceeds W (moves forward only: C(i) + W(i) never decreases)
    for (let i = 0; i < windowSteps; i++) {
      const need = (cap[i] as number) + w;
      if (j < i) j = i;
      while (j < n && (cap[j + 1] as number) <= need) j++;
      // the answer due at i is served at the end of step j
      const latenessMs = (j + 1 - i) * dt;
      if (latenessMs > targetMs) late++;
      // step i: work arrives at rho, served at 1 unless stopped
      w = Math.max(0, w + rho * dt - (inStop[i] === 1 ? 0 : dt));
    }
    return Math.min(1, late / windowSteps);
  }
}

/** A server child: its process, URL, and its GC trace (every line it prints to stdout goes through it). */
interface ServerChild {
  child: ChildProcess;
  url: string;
  gc: GcTrace;
}

/**
 * Starts `script` (run with tsx, with `--trace-gc` and bench/lib/gc-probe.cjs so the held round
 * can count the main thread's GC stops) and waits for its `listening on <url>` line. Both servers
 * run with the mock's Node flags (MOCK_NODE_FLAGS, as a run starts the mock): the same runtime, so
 * the comparison is of their code.
 */
async function startChild(script: string, args: string[]): Promise<ServerChild> {
  const child = spawn(process.execPath, [...MOCK_NODE_FLAGS, '--trace-gc', '--require', GC_PROBE, ...(process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : []), '--import', 'tsx', script, ...args], {
    cwd: ROOT,
    // the mock's control calls (POST /stats/reset) need a token, given in its environment (src/adapters/process/control-token.ts)
    env: { ...process.env, [CONTROL_TOKEN_ENV]: BENCH_CONTROL_TOKEN },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const server: ServerChild = { child, url: '', gc: new GcTrace() };
  let partial = '';
  server.url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new BenchError(`${script} did not print its start line within 20 s`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      if (process.env.BENCH_CHILD_STDOUT) process.stderr.write(d);
      const lines = (partial + d.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const m = /listening on (http:\/\/\S+)/.exec(line);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1]);
        }
        server.gc.see(line);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new BenchError(`${script} exited with code ${code} before listening`));
    });
  });
  return server;
}

const CHAT_BODY = JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'Hello from bench:mock' }] });
/** The held round's request, built once (undici would turn a string body into a Buffer per request). */
const HELD_REQUEST: Dispatcher.DispatchOptions = Object.freeze({
  method: 'POST',
  path: '/v1/chat/completions',
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(CHAT_BODY),
});

/**
 * One held chat request through undici's dispatch API: its status and body bytes only, no response
 * stream, promise or BigInt. The bench's own client shares the host's cores with the server it
 * measures, so in the held round it does as little per request as it can.
 */
class HeldRequest implements Dispatcher.DispatchHandler {
  status = 0;
  bytes = 0;
  startMs = 0;
  constructor(private readonly done: (h: HeldRequest, failed: boolean) => void) {}
  onConnect(): void {}
  onHeaders(statusCode: number): boolean {
    this.status = statusCode;
    return true;
  }
  onData(chunk: Buffer): boolean {
    this.bytes += chunk.length;
    return true;
  }
  onComplete(): void {
    this.done(this, false);
  }
  onError(): void {
    this.done(this, true);
  }
}

async function chat(client: Client): Promise<{ status: number; body: string }> {
  const res = await client.request({
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json' },
    body: CHAT_BODY,
  });
  return { status: res.statusCode, body: await res.body.text() };
}

function summary(values: number[]): Percentiles | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  return { n: s.length, p50: quantileSorted(s, 0.5), p99: quantileSorted(s, 0.99), max: s[s.length - 1] ?? 0 };
}

function median(xs: number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** The median of the figures a round has (rounds without one, null or undefined, are left out); null when none has. */
function medianOf(xs: readonly (number | null | undefined)[]): number | null {
  return median(xs.filter((x): x is number => x !== null && x !== undefined));
}

/** The mock's answer to the bench's chat body, fetched once from a short-latency mock: the reference answers these bytes. */
async function mockAnswerBytes(): Promise<string> {
  const { child, url } = await startChild('mock/src/cli.ts', ['--port', '0', '--latency-ms', '0', '--parent-pid', String(process.pid)]);
  const c = new Client(url);
  try {
    const r = await chat(c);
    if (r.status !== 200) throw new BenchError(`the mock answered the bench's chat body with ${r.status}`);
    return r.body;
  } finally {
    await c.destroy();
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

/** Opens N connections to `url`, warms up, then holds N chat requests (ramped) and measures the server process `pid`. */
async function heldRound(server: HeldRound['server'], sc: ServerChild, o: Options, progress: (line: string) => void): Promise<HeldRound> {
  const { child, url } = sc;
  const pid = child.pid!;
  const clients: Client[] = [];
  const isMock = server === 'mock';
  try {
    await openAndWarm(server, clients, sc, o, progress);
    progress(`${server}: holding ${o.n} chat requests of ${o.latencyMs} ms ...`);
    const m = await holdRequests(clients, pid, o);
    // GC lines of stops that ended in the round may still be in the pipe: read them before placing them
    await new Promise((r) => setTimeout(r, 200));
    const stops = sc.gc.stopsBetween(m.t0EpochMs, m.endEpochMs);
    let stats: MockStats | null = null;
    let latenessMs: Percentiles | null;
    if (isMock) {
      stats = (await (await clients[0]!.request({ method: 'GET', path: '/stats' })).body.json()) as MockStats;
      const l = stats.latenessMs;
      latenessMs = l ? { n: l.n, p50: l.p50, p99: l.p99, max: l.max } : null;
    } else {
      latenessMs = summary((await (await clients[0]!.request({ method: 'GET', path: '/lateness' })).body.json()) as number[]);
    }
    return heldRoundOf(server, m, stops, o, latenessMs, stats);
  } finally {
    await Promise.allSettled(clients.map((c) => c.destroy()));
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

/**
 * The held round's setup: N clients (one connection each, pushed onto `clients`) opened with a
 * `GET /health` each, 1000 at a time; `o.warmup` unrecorded chat requests; then the server's
 * lateness figures reset (with the run's control token).
 */
async function openAndWarm(server: HeldRound['server'], clients: Client[], sc: ServerChild, o: Options, progress: (line: string) => void): Promise<void> {
  const url = sc.url;
  const timeouts = { connectTimeout: 60_000, headersTimeout: o.latencyMs + 120_000, bodyTimeout: o.latencyMs + 120_000, keepAliveTimeout: 600_000, pipelining: 1 };
  for (let i = 0; i < o.n; i++) clients.push(new Client(url, timeouts));

  progress(`${server}: opening ${o.n} connections to ${url} (pid ${sc.child.pid!}) ...`);
  for (let i = 0; i < o.n; i += 1000) {
    await Promise.all(clients.slice(i, i + 1000).map(async (c) => (await c.request({ method: 'GET', path: '/health' })).body.text()));
  }
  if (o.warmup > 0) {
    progress(`${server}: warm-up: ${Math.min(o.warmup, o.n)} chat requests ...`);
    await Promise.all(clients.slice(0, Math.min(o.warmup, o.n)).map((c) => chat(c)));
  }
  await (await clients[0]!.request({ method: 'POST', path: server === 'mock' ? '/stats/reset' : '/lateness/reset', headers: { [CONTROL_TOKEN_HEADER]: BENCH_CONTROL_TOKEN } })).body.text();
}

/** What the held requests measured: the answers, and the meters read before and after (see holdRequests). */
interface HeldMeasure {
  ok: number;
  failed: number;
  empty: number;
  bodyBytes: number | null;
  /** per answer: E2E from its actual send − latency, ms */
  overheads: number[];
  rssPeak: number;
  mem: ReturnType<typeof procMemory>;
  heldWallMs: number;
  t0EpochMs: number;
  t0Ms: number;
  endEpochMs: number;
  cpuBefore: number | null;
  cpuAfter: number | null;
  hostBefore: number | null;
  hostAfter: number | null;
  clientCpu: NodeJS.CpuUsage;
  loadBefore: number | null;
  loadAfter: number | null;
  /** the meters at the answer window's two edges (none without a ramp) */
  windowMeters: Meters[];
}

/**
 * The measured part of the held round: sends request i on client i at i × ramp / (N − 1) (one 1 ms
 * timer sends every request whose offset has passed), waits for every answer, and reads the meters
 * around it — the server's RSS every 100 ms, its CPU, the host's, this process's, the load average,
 * and the meters at the answer window's edges (latency and latency + ramp after t0).
 */
async function holdRequests(clients: readonly Client[], pid: number, o: Options): Promise<HeldMeasure> {
  let rssPeak = 0;
  const sampler = setInterval(() => {
    const m = procMemory(pid);
    if (m && m.rss > rssPeak) rssPeak = m.rss;
  }, 100);
  const overheads: number[] = [];
  let ok = 0;
  let failed = 0;
  let empty = 0;
  let bodyBytes: number | null = null;
  const loadBefore = loadAvg1();
  const cpuBefore = procCpuMs(pid);
  const hostBefore = hostBusyMs();
  const clientCpuBefore = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const t0EpochMs = Date.now();
  const t0Ms = performance.now();
  const at = (i: number) => (o.n > 1 ? (o.rampMs * i) / (o.n - 1) : 0);
  // the answer window's edges: the first answer falls due at latency, the last at latency + ramp
  const windowMeters: Meters[] = [];
  const windowTimers =
    o.rampMs > 0
      ? [o.latencyMs, o.latencyMs + o.rampMs].map((ms) =>
          setTimeout(() => {
            windowMeters.push(readMeters(pid));
          }, ms),
        )
      : [];
  await new Promise<void>((resolve) => {
    let left = o.n;
    const onDone = (h: HeldRequest, error: boolean) => {
      if (error) failed++;
      else {
        if (h.status === 200) ok++;
        else failed++;
        if (h.bytes === 0) empty++;
        bodyBytes ??= h.bytes;
        overheads.push(performance.now() - h.startMs - o.latencyMs);
      }
      if (--left === 0) resolve();
    };
    // ramp: one timer sends every request whose offset has passed, then waits a millisecond (no
    // timer per request); each E2E counts from its actual send
    let next = 0;
    const tick = () => {
      const now = performance.now() - t0Ms;
      while (next < o.n && at(next) <= now) {
        const h = new HeldRequest(onDone);
        h.startMs = performance.now();
        try {
          (clients[next] as Client).dispatch(HELD_REQUEST, h);
        } catch {
          onDone(h, true);
        }
        next++;
      }
      if (next < o.n) setTimeout(tick, 1);
    };
    tick();
  });
  const heldWallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  for (const t of windowTimers) clearTimeout(t);
  // the last answer came before the window's second timer fired (this process was busy): the window ends here
  if (windowMeters.length === 1) windowMeters.push(readMeters(pid));
  const endEpochMs = Date.now();
  const cpuAfter = procCpuMs(pid);
  const hostAfter = hostBusyMs();
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const loadAfter = loadAvg1();
  clearInterval(sampler);
  const mem = procMemory(pid);
  if (mem && mem.rss > rssPeak) rssPeak = mem.rss;
  return { ok, failed, empty, bodyBytes, overheads, rssPeak, mem, heldWallMs, t0EpochMs, t0Ms, endEpochMs, cpuBefore, cpuAfter, hostBefore, hostAfter, clientCpu, loadBefore, loadAfter, windowMeters };
}

/**
 * The held round's figures from what was measured: GC pauses over the round and in the answer
 * window (`stops`: the server's GC stops between t0 and the end), CPU per answer and shares of the
 * held wall time, the answer window, the server's lateness and (the mock's) statistics. Pure.
 */
function heldRoundOf(server: HeldRound['server'], m: HeldMeasure, stops: ReturnType<ServerChild['gc']['stopsBetween']>, o: Options, latenessMs: Percentiles | null, stats: MockStats | null): HeldRound {
  const longest = stops.map((g) => g.longestMs).sort((a, b) => a - b);
  const dueFrom = m.t0EpochMs + o.latencyMs;
  const inWindow = stops.filter((g) => g.endEpochMs >= dueFrom && g.endEpochMs <= dueFrom + o.rampMs);
  const gcPauses = {
    count: stops.length,
    totalMs: stops.reduce((a, g) => a + g.totalMs, 0),
    p99Ms: longest.length > 0 ? quantileSorted(longest, 0.99) : null,
    maxMs: longest.length > 0 ? (longest[longest.length - 1] as number) : 0,
  };
  const gcAnswerWindow = {
    count: inWindow.length,
    totalMs: inWindow.reduce((a, g) => a + g.totalMs, 0),
    maxMs: inWindow.reduce((a, g) => Math.max(a, g.longestMs), 0),
    lateShareLowerBound: gcLateShareOf(inWindow.map((g) => g.longestMs), TARGET_P99_LATENESS_MS, o.rampMs),
  };
  const answerWindow = answerWindowOf(m.windowMeters, placedStops(stops, m.t0EpochMs, m.t0Ms), m.t0Ms + o.latencyMs, o.rampMs);
  const { ok, heldWallMs, mem } = m;
  const serverCpuMs = m.cpuBefore !== null && m.cpuAfter !== null ? m.cpuAfter - m.cpuBefore : null;
  const clientCpuMs = (m.clientCpu.user + m.clientCpu.system) / 1000;
  const hostMs = m.hostBefore !== null && m.hostAfter !== null ? m.hostAfter - m.hostBefore : null;
  return {
    server,
    ok,
    failed: m.failed,
    emptyBodies: m.empty,
    bodyBytes: m.bodyBytes,
    clientOverheadMs: summary(m.overheads),
    rssPeakBytes: m.rssPeak > 0 ? m.rssPeak : null,
    rssHwmBytes: mem ? mem.hwm : null,
    heldWallMs,
    serverCpuMs,
    serverCpuUsPerAnswer: serverCpuMs !== null && ok > 0 ? (serverCpuMs * 1000) / ok : null,
    serverCpuShare: serverCpuMs !== null && heldWallMs > 0 ? serverCpuMs / heldWallMs : null,
    clientCpuMs,
    gcPauses,
    gcAnswerWindow,
    hostBusyCores: hostMs !== null && heldWallMs > 0 ? hostMs / heldWallMs : null,
    otherProcessesCores: hostMs !== null && serverCpuMs !== null && heldWallMs > 0 ? Math.max(0, hostMs - serverCpuMs - clientCpuMs) / heldWallMs : null,
    loadAvg1Before: m.loadBefore,
    loadAvg1After: m.loadAfter,
    answerWindow,
    latenessMs,
    peakInFlight: stats?.peakInFlight ?? null,
    connectionsOpened: stats?.connectionsOpened ?? null,
  };
}

/**
 * The held round's GC stops on this process's performance.now() clock (the window's meters use
 * it): a stop's epoch end minus the round's epoch start, plus the round's performance.now() start.
 * Every stop of the round: queueLateShareOf ignores those that ended before the window.
 */
function placedStops(stops: readonly { endEpochMs: number; longestMs: number; totalMs: number }[], t0EpochMs: number, t0Ms: number): PlacedStop[] {
  return stops.map((g) => ({ endMs: t0Ms + (g.endEpochMs - t0EpochMs), longestMs: g.longestMs, totalMs: g.totalMs }));
}

/**
 * AnswerWindow from the meters read at the window's two edges (null unless both were read and
 * /proc gave the server's and the host's CPU). `stops`, and `fromMs` (when the first answer fell
 * due), on the meters' clock; `spreadMs` the ramp. The main thread's CPU comes from schedstat's ns
 * when both readings have it, else from stat's ticks; its GC time in the window (each stop's
 * totalMs, counted when the stop ended between the readings) is taken away for answeringShare.
 */
export function answerWindowOf(meters: readonly Meters[], stops: readonly PlacedStop[], fromMs: number, spreadMs: number): AnswerWindow | null {
  const [a, b] = meters;
  if (a === undefined || b === undefined || a.server === null || b.server === null || a.hostMs === null || b.hostMs === null) return null;
  const wallMs = b.atMs - a.atMs;
  if (!(wallMs > 0)) return null;
  const user = b.server.user - a.server.user;
  const system = b.server.system - a.server.system;
  const sched = a.sched !== null && b.sched !== null ? { runMs: (b.sched.runNs - a.sched.runNs) / 1e6, waitMs: (b.sched.waitNs - a.sched.waitNs) / 1e6 } : null;
  const cpuMs = sched !== null ? sched.runMs : user + system;
  const gcMs = stops.filter((g) => g.endMs > a.atMs && g.endMs <= b.atMs).reduce((x, g) => x + g.totalMs, 0);
  const answeringShare = Math.max(0, cpuMs - gcMs) / wallMs;
  return {
    wallMs,
    serverCpuShare: cpuMs / wallMs,
    answeringShare,
    serverSystemShare: user + system > 0 ? system / (user + system) : null,
    runQueueWaitMs: sched !== null ? sched.waitMs : null,
    hostBusyCores: (b.hostMs - a.hostMs) / wallMs,
    clientCores: (b.clientMs - a.clientMs) / wallMs,
    queueLateShareEstimate: queueLateShareOf(stops, TARGET_P99_LATENESS_MS, fromMs, spreadMs, answeringShare),
  };
}

/** Runs `o.rounds` rounds of (mock, reference), alternating who goes first. */
export async function runMockBench(o: Options, progress: (line: string) => void): Promise<MockBenchResult> {
  const limit = fdLimit();
  const need = o.n + 256;
  if (limit < need) {
    throw new BenchError(`the open-files limit is ${limit}, below the ${need} needed for --n ${o.n} (fix: raise it with \`ulimit -n ${need}\` in this shell, or lower --n)`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-mock-'));
  try {
    const bodyFile = join(dir, 'answer.json');
    writeFileSync(bodyFile, await mockAnswerBytes());
    const runMock = async () => {
      return heldRound('mock', await startChild('mock/src/cli.ts', ['--port', '0', '--latency-ms', String(o.latencyMs), '--parent-pid', String(process.pid)]), o, progress);
    };
    const runReference = async () => {
      return heldRound('reference', await startChild('bench/lib/plain-fastify.ts', ['--latency-ms', String(o.latencyMs), '--body-file', bodyFile]), o, progress);
    };
    const rounds: MockBenchResult['rounds'] = [];
    for (let round = 1; round <= o.rounds; round++) {
      const mockFirst = round % 2 === 1;
      let mock: HeldRound;
      let reference: HeldRound;
      if (mockFirst) {
        mock = await runMock();
        reference = await runReference();
      } else {
        reference = await runReference();
        mock = await runMock();
      }
      const a = mock.serverCpuUsPerAnswer;
      const b = reference.serverCpuUsPerAnswer;
      rounds.push({ round, order: mockFirst ? 'mock,reference' : 'reference,mock', mock, reference, cpuRatio: a !== null && b !== null && b > 0 ? a / b : null });
    }
    const ratios = rounds.map((r) => r.cpuRatio).filter((x): x is number => x !== null);
    const cpuRatio = median(ratios);
    const p99s = rounds.map((r) => r.mock.latenessMs?.p99).filter((x): x is number => x !== undefined);
    const latenessP99Ms = median(p99s);
    const clean = rounds.every((r) => r.mock.failed === 0 && r.mock.emptyBodies === 0 && r.mock.ok === o.n);
    const targetP99Met = clean && latenessP99Ms !== null && latenessP99Ms <= TARGET_P99_LATENESS_MS;
    const gcLateShareLowerBound = medianOf(rounds.map((r) => r.mock.gcAnswerWindow.lateShareLowerBound));
    const refP99s = rounds.map((r) => r.reference.latenessMs?.p99).filter((x): x is number => x !== undefined);
    return {
      schemaVersion: 5,
      concurrency: o.n,
      latencyMs: o.latencyMs,
      rampMs: o.rampMs,
      cores: availableParallelism(),
      rounds,
      cpuRatio,
      cpuRatioMin: ratios.length > 0 ? Math.min(...ratios) : null,
      cpuRatioMax: ratios.length > 0 ? Math.max(...ratios) : null,
      targetCpuRatio: TARGET_CPU_RATIO,
      latenessP99Ms,
      latenessP99BestMs: p99s.length > 0 ? Math.min(...p99s) : null,
      hostSaturatedRounds: rounds.filter((r) => saturated(r.mock, availableParallelism())).length,
      targetP99LatenessMs: TARGET_P99_LATENESS_MS,
      targetP99Met,
      gcLateShareLowerBound,
      queueLateShareEstimate: medianOf(rounds.map((r) => r.mock.answerWindow?.queueLateShareEstimate)),
      answerWindowCpuShare: medianOf(rounds.map((r) => r.mock.answerWindow?.serverCpuShare)),
      answeringShare: medianOf(rounds.map((r) => r.mock.answerWindow?.answeringShare)),
      referenceLatenessP99Ms: median(refP99s),
      referenceLatenessP99BestMs: refP99s.length > 0 ? Math.min(...refP99s) : null,
      limits: targetP99Met ? [] : limitsOf(rounds.map((r) => r.mock), availableParallelism(), o),
      targetCpuRatioMet: clean && cpuRatio !== null && cpuRatio <= TARGET_CPU_RATIO,
      percentileDefinition: 'linear interpolation (R type 7, simple-statistics quantileSorted)',
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Share of the answer window from which the main thread's run-queue wait is named as a limit: as many answers as the P99 may leave late. */
const RUN_QUEUE_WAIT_SHARE = 0.01;

/** Host CPU use from which a held round counts as saturated: at 90% of the cores, runnable work queues for a CPU (utilisation law). */
const SATURATED_SHARE = 0.9;

/** True when the whole host was busy >= 90% of its cores during the held round (/proc/stat): answers then wait for a CPU. */
export function saturated(r: HeldRound, cores: number): boolean {
  return r.hostBusyCores !== null && r.hostBusyCores >= SATURATED_SHARE * cores;
}

/**
 * Why the mock's P99 lateness missed the target, from the mock's held rounds: one sentence per
 * limit found (every round where it applied is counted): the host's CPU saturated (over the held
 * round, or in the answer window alone); GC stops in the answer window that by themselves make more
 * than 1% of the answers later than the target (gcLateShareOf), or do so once the queue they leave
 * behind is counted (queueLateShareOf at the answering's share of the main thread); the main
 * thread runnable but waiting for a CPU for 1% of the answer window or more (schedstat); the mock's own CPU share of one core at 0.9 or more (answers queue behind each
 * other); fewer than n requests in flight at the peak (the bench's client sent late, so arrivals
 * overlapped the answers). Empty when none of these applied (then the cause is not one this bench
 * can name).
 */
export function limitsOf(mockRounds: readonly HeldRound[], cores: number, o: Pick<Options, 'latencyMs' | 'rampMs' | 'n'>): string[] {
  const out: string[] = [];
  const n = mockRounds.length;
  const sat = mockRounds.filter((h) => saturated(h, cores));
  if (sat.length > 0) {
    out.push(`host CPU saturated in ${sat.length} of ${n} round(s) (${sat.map((h) => (h.hostBusyCores ?? 0).toFixed(2)).join(', ')} of ${cores} cores busy): answers waited for a CPU`);
  }
  const gcBound = mockRounds.filter((h) => (h.gcAnswerWindow.lateShareLowerBound ?? 0) > 0.01);
  if (gcBound.length > 0) {
    const w = gcBound.map((h) => `${h.gcAnswerWindow.count} stops, longest ${h.gcAnswerWindow.maxMs.toFixed(1)} ms, ≥ ${((h.gcAnswerWindow.lateShareLowerBound ?? 0) * 100).toFixed(1)}% of answers`).join('; ');
    out.push(
      `GC stops of the mock's main thread in the answer window make more than 1% of the answers later than ${TARGET_P99_LATENESS_MS} ms by themselves in ${gcBound.length} of ${n} round(s) (${w}): with ${o.rampMs} ms of answers at a ${o.latencyMs} ms delay, P99 ≤ ${TARGET_P99_LATENESS_MS} ms needs their excess over ${TARGET_P99_LATENESS_MS} ms to sum below ${(o.rampMs * 0.01).toFixed(0)} ms`,
    );
  }
  const satWindow = mockRounds.filter((h) => h.answerWindow != null && h.answerWindow.hostBusyCores >= SATURATED_SHARE * cores && !saturated(h, cores));
  if (satWindow.length > 0) {
    out.push(`host CPU saturated in the answer window in ${satWindow.length} of ${n} round(s) (${satWindow.map((h) => h.answerWindow!.hostBusyCores.toFixed(2)).join(', ')} of ${cores} cores busy; this client ${satWindow.map((h) => h.answerWindow!.clientCores.toFixed(2)).join(', ')}): answers waited for a CPU`);
  }
  const waited = mockRounds.filter((h) => h.answerWindow?.runQueueWaitMs != null && h.answerWindow.runQueueWaitMs >= RUN_QUEUE_WAIT_SHARE * h.answerWindow.wallMs);
  if (waited.length > 0) {
    const w = waited.map((h) => `${h.answerWindow!.runQueueWaitMs!.toFixed(0)} ms, ${((h.answerWindow!.runQueueWaitMs! / h.answerWindow!.wallMs) * 100).toFixed(1)}% of it; host ${h.answerWindow!.hostBusyCores.toFixed(2)} cores busy, this client ${h.answerWindow!.clientCores.toFixed(2)}`).join('; ');
    out.push(`the mock's main thread was runnable but waited for a CPU in the answer window in ${waited.length} of ${n} round(s) (${w}; /proc schedstat): answers due meanwhile waited for a core of the ${cores} this client, the servers' GC threads and the kernel share, not for the mock's code`);
  }
  const queued = mockRounds.filter((h) => (h.answerWindow?.queueLateShareEstimate ?? 0) > 0.01);
  if (queued.length > 0) {
    const w = queued.map((h) => `answering ${(h.answerWindow!.answeringShare * 100).toFixed(0)}% of the main thread, estimate ${((h.answerWindow!.queueLateShareEstimate ?? 0) * 100).toFixed(1)}% of answers`).join('; ');
    out.push(
      `counting the queue the GC stops leave behind, which drains only at the mock's spare capacity (1 − the answering's share of its main thread in the answer window, ${((o.n / Math.max(1, o.rampMs)) * 1000).toFixed(0)} answers/s), the stops would make more than 1% of the answers later than ${TARGET_P99_LATENESS_MS} ms in ${queued.length} of ${n} round(s) (${w}; a fluid-queue estimate, queueLateShareOf)`,
    );
  }
  const busyServer = mockRounds.filter((h) => (h.serverCpuShare ?? 0) >= 0.9);
  if (busyServer.length > 0) out.push(`the mock used >= 90% of one core in ${busyServer.length} of ${n} round(s): answers queued behind each other`);
  const notHeld = mockRounds.filter((h) => h.peakInFlight !== null && h.peakInFlight < o.n);
  if (notHeld.length > 0) {
    out.push(`not all ${o.n} requests were held at once in ${notHeld.length} of ${n} round(s) (peak ${notHeld.map((h) => h.peakInFlight).join(', ')}): the bench's client sent late, so arrivals overlapped the answers`);
  }
  return out;
}

/** True when the host's load average exceeded its cores around a held round (lateness then says more about the host). */
export function busy(r: HeldRound, cores: number): boolean {
  return Math.max(r.loadAvg1Before ?? 0, r.loadAvg1After ?? 0) > cores;
}

/** The default table (a string; the caller prints it). */
export function renderTable(r: MockBenchResult): string {
  const f = (x: number | undefined | null, d = 2) => (x === undefined || x === null ? 'n/a' : x.toFixed(d));
  const mb = (b: number | null) => (b === null ? 'n/a' : `${(b / 1048576).toFixed(1)} MiB`);
  const lines = [`bench:mock — ${r.concurrency} concurrent requests sent over ${r.rampMs} ms, latency ${r.latencyMs} ms, ${r.rounds.length} round(s) (percentiles: ${r.percentileDefinition})`];
  for (const round of r.rounds) {
    lines.push(`round ${round.round} (${round.order}): CPU per answer mock / reference = ${f(round.cpuRatio, 3)}`);
    for (const h of [round.mock, round.reference]) {
      const rows: [string, string][] = [
        ['held concurrently (mock peak in flight)', h.peakInFlight === null ? 'n/a (the reference keeps no peak)' : `${h.peakInFlight} of ${r.concurrency}`],
        ['answers ok / failed / empty bodies (body bytes)', `${h.ok} / ${h.failed} / ${h.emptyBodies} (${h.bodyBytes ?? 'n/a'})`],
        ['lateness P50 / P99 / max (ms, server-measured)', h.latenessMs ? `${f(h.latenessMs.p50)} / ${f(h.latenessMs.p99)} / ${f(h.latenessMs.max)}` : 'n/a'],
        ['client E2E − latency P50 / P99 / max (ms)', `${f(h.clientOverheadMs?.p50)} / ${f(h.clientOverheadMs?.p99)} / ${f(h.clientOverheadMs?.max)}`],
        ['server GC stops (main thread) in the held round: count / total / P99 / longest (ms)', `${h.gcPauses.count} / ${f(h.gcPauses.totalMs, 1)} / ${f(h.gcPauses.p99Ms, 1)} / ${f(h.gcPauses.maxMs, 1)}`],
        [
          `  of them in the answer window: count / longest (ms); answers GC alone makes > ${r.targetP99LatenessMs} ms late`,
          `${h.gcAnswerWindow.count} / ${f(h.gcAnswerWindow.maxMs, 1)}; ${h.gcAnswerWindow.lateShareLowerBound === null ? 'n/a' : `≥ ${(h.gcAnswerWindow.lateShareLowerBound * 100).toFixed(1)}%`}`,
        ],
        ['server CPU per answer (µs) / share of one core', `${f(h.serverCpuUsPerAnswer, 1)} / ${f(h.serverCpuShare, 3)}`],
        [
          'answer window: main-thread CPU share / without GC / in the kernel / waited for a CPU (ms) / host busy cores / this client (cores)',
          h.answerWindow == null
            ? 'n/a'
            : `${f(h.answerWindow.serverCpuShare, 3)} / ${f(h.answerWindow.answeringShare, 3)} / ${f(h.answerWindow.serverSystemShare, 3)} / ${f(h.answerWindow.runQueueWaitMs, 1)} / ${f(h.answerWindow.hostBusyCores)} / ${f(h.answerWindow.clientCores)}`,
        ],
        [
          `  answers the GC stops make > ${r.targetP99LatenessMs} ms late, with the queue they leave (fluid estimate)`,
          h.answerWindow?.queueLateShareEstimate == null ? 'n/a' : `${(h.answerWindow.queueLateShareEstimate * 100).toFixed(1)}%`,
        ],
        ['CPU in the held round: server / client (ms)', `${f(h.serverCpuMs, 0)} / ${f(h.clientCpuMs, 0)}`],
        [
          `host CPU in the held round: all / other processes (cores of ${r.cores})`,
          `${f(h.hostBusyCores)} / ${f(h.otherProcessesCores)}${saturated(h, r.cores) ? `  ← host CPU saturated (>= ${SATURATED_SHARE * 100}% of the cores): answers waited for a CPU` : ''}`,
        ],
        ['server RSS peak sampled / VmHWM', `${mb(h.rssPeakBytes)} / ${mb(h.rssHwmBytes)}`],
        ['wall time of the held round (ms)', f(h.heldWallMs, 0)],
        [`host load average (1 min) before / after, ${r.cores} cores`, `${f(h.loadAvg1Before)} / ${f(h.loadAvg1After)}${busy(h, r.cores) ? '  ← host busy: other processes competed for the CPU' : ''}`],
      ];
      const w = Math.max(...rows.map(([k]) => k.length));
      lines.push(`  ${h.server}`, ...rows.map(([k, v]) => `    ${k.padEnd(w)}  ${v}`));
    }
  }
  lines.push(
    `CPU per answer, mock / plain fastify reference: ${f(r.cpuRatio, 3)} (median; range ${f(r.cpuRatioMin, 3)}..${f(r.cpuRatioMax, 3)}; target ≤ ${r.targetCpuRatio}): ${r.targetCpuRatioMet ? 'met' : 'NOT met'}`,
    `mock P99 lateness: ${f(r.latenessP99Ms)} ms (median; best round ${f(r.latenessP99BestMs)} ms; target ≤ ${r.targetP99LatenessMs} ms): ${r.targetP99Met ? 'met' : 'NOT met'}${
      r.hostSaturatedRounds > 0 ? ` — in ${r.hostSaturatedRounds} of ${r.rounds.length} round(s) the host's CPU was saturated during the mock's held round, so the host, not the mock, set the lateness there` : ''
    }`,
    `the plain fastify reference's own P99 lateness (a timer per request, same host, same rounds): ${f(r.referenceLatenessP99Ms)} ms (median; best round ${f(r.referenceLatenessP99BestMs)} ms)`,
    ...r.limits.map((l) => `  limit: ${l}`),
    ...(!r.targetP99Met && r.limits.length === 0 ? ['  limit: none found by this bench (host CPU below 90% of the cores, GC stops in the answer window under 1% of the answers, the mock under 90% of one core, every request held at once)'] : []),
  );
  return lines.join('\n');
}

async function main() {
  const o = parseOptions(process.argv.slice(2));
  const r = await runMockBench(o, (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(o.json ? `${JSON.stringify(r, null, 2)}\n` : `${renderTable(r)}\n`);
}

// run only as a script (tests import the pure helpers)
if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err: unknown) => {
    process.stderr.write(`bench:mock: error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(err instanceof BenchError ? 2 : 1);
  });
}
