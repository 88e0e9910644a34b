/**
 * Liveness of the children a run depends on (the SUT JVM, the mock LLM, any later database).
 *
 * A component is dead when its process is gone (no /proc/<pid> whose command line holds its
 * marker; a zombie has an empty command line, so it counts as gone), or when it is alive but did
 * not answer its health probe `failuresToDeath` times in a row. The pipeline polls every
 * component during a cell (and during a warm-up) and checks again right after, so a cell during
 * which a component died is recorded as failed, never as a measurement.
 */
import { existsSync } from 'node:fs';
import { isOurs } from './children.ts';

/**
 * Default pid check: /proc/<pid>/cmdline holds the marker (a zombie's is empty). Where there is no
 * /proc (not Linux), only whether a signal can be sent to the pid.
 */
export function pidAliveDefault(pid: number, marker: string): boolean {
  if (existsSync('/proc/self')) return isOurs(pid, marker);
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A child the run depends on, as the liveness check sees it. */
export interface Watched {
  /** human name used in messages, e.g. `SUT (<variant>-r1)`, `mock LLM` */
  role: string;
  /**
   * its process on this host; null for an external component (`--sut-url`, `--mock-url`): it is
   * then judged by its health probe alone, never through /proc
   */
  pid: number | null;
  /** substring of /proc/<pid>/cmdline that identifies it (see children.ts); unused when pid is null */
  marker: string;
  /** its log file, named in the hint when it dies */
  logFile: string;
  /**
   * One bounded health request (`GET /bench/info` of the SUT, `GET /health` of the mock);
   * resolves true when it answered 2xx within `timeoutMs`, false otherwise; never rejects.
   */
  probe(timeoutMs: number): Promise<boolean>;
}

/** A component found dead. */
export interface Death {
  role: string;
  /** null for an external component */
  pid: number | null;
  logFile: string;
  /** one line, e.g. `process 1234 is gone` or `did not answer its health probe 3 times in a row (timeout 5000 ms each)` */
  cause: string;
  atIso: string;
}

/**
 * Polling policy. Defaults: every 1 s, probe timeout 5 s, dead after 10 failed probes in a row (about a
 * minute without an answer; a process that is gone is dead at the next poll). It was 3 (about 18 s):
 * in the seed-002 run 20261201-175344 the io-pool-500 SUT, just started and taking 5,000 warm-up
 * connections at once on 2 cores, missed 3 probes in a row while it was still answering its load (its
 * log shows responses completing when the harness cut the connections), and the run stopped. A busy
 * SUT's slow answers are the load's to record; the liveness check is for a process that died or hung.
 */
export interface LivenessOptions {
  intervalMs: number;
  probeTimeoutMs: number;
  failuresToDeath: number;
  /** pid check; injectable for tests. Default: /proc/<pid>/cmdline contains the marker. */
  pidAlive?: (pid: number, marker: string) => boolean;
}

export const DEFAULT_LIVENESS: Readonly<LivenessOptions> = Object.freeze({ intervalMs: 1000, probeTimeoutMs: 5000, failuresToDeath: 10 });

const pidGone = (w: Watched): string => `process ${w.pid} is gone`;
const unansweredExternal = (n: number, o: LivenessOptions): string =>
  `the external component did not answer its health probe ${n} time(s) in a row (timeout ${o.probeTimeoutMs} ms each)`;
const unanswered = (n: number, o: LivenessOptions): string =>
  `its process is alive but did not answer its health probe ${n} time(s) in a row (timeout ${o.probeTimeoutMs} ms each)`;

/**
 * Poll `components()` every `intervalMs` until stopped; call `onDeath` once, with the first
 * component found dead, then stop polling. A poll round is never started while the previous one
 * is still running (a probe can take up to `probeTimeoutMs`).
 */
export class LivenessWatch {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  /** consecutive failed probes, by role (external components have no pid) */
  private readonly failures = new Map<string, number>();
  private death: Death | null = null;
  private readonly o: LivenessOptions;

  constructor(private readonly components: () => readonly Watched[], options: Partial<LivenessOptions> = {}) {
    this.o = { ...DEFAULT_LIVENESS, ...options };
  }

  /** The first death seen, or null. */
  get dead(): Death | null {
    return this.death;
  }

  /** Start polling; `onDeath` is called at most once. */
  start(onDeath: (d: Death) => void): this {
    const tick = () => {
      this.running = this.round().then((d) => {
        if (d && !this.stopped) {
          this.stopped = true;
          onDeath(d);
        }
        if (!this.stopped) this.timer = setTimeout(tick, this.o.intervalMs);
      });
    };
    this.timer = setTimeout(tick, this.o.intervalMs);
    return this;
  }

  /** Stop polling; resolves after a round in progress has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** One poll round: pid checks first (cheap, decisive), then one probe each. */
  private async round(): Promise<Death | null> {
    const pidAlive = this.o.pidAlive ?? pidAliveDefault;
    const list = this.components();
    for (const w of list) if (!alive(pidAlive, w)) return (this.death = deathOf(w, pidGone(w)));
    const answers = await Promise.all(list.map((w) => w.probe(this.o.probeTimeoutMs).catch(() => false)));
    for (let i = 0; i < list.length; i++) {
      const w = list[i]!;
      // a probe that failed because the process died meanwhile is reported as the process gone
      if (!alive(pidAlive, w)) return (this.death = deathOf(w, pidGone(w)));
      const n = answers[i] ? 0 : (this.failures.get(w.role) ?? 0) + 1;
      this.failures.set(w.role, n);
      if (n >= this.o.failuresToDeath) return (this.death = deathOf(w, w.pid === null ? unansweredExternal(n, this.o) : unanswered(n, this.o)));
    }
    return null;
  }
}

/**
 * Check every component now: the pid, then up to `failuresToDeath` probes (`intervalMs` apart)
 * until one answers. Resolves with the first component found dead, or null when all are alive
 * and answering.
 */
export async function checkNow(components: readonly Watched[], options: Partial<LivenessOptions> = {}): Promise<Death | null> {
  const o = { ...DEFAULT_LIVENESS, ...options };
  const pidAlive = o.pidAlive ?? pidAliveDefault;
  for (const w of components) if (!alive(pidAlive, w)) return deathOf(w, pidGone(w));
  for (const w of components) {
    let ok = false;
    for (let k = 0; k < o.failuresToDeath && !ok; k++) {
      if (k > 0) await new Promise((r) => setTimeout(r, o.intervalMs));
      ok = await w.probe(o.probeTimeoutMs).catch(() => false);
      if (!alive(pidAlive, w)) return deathOf(w, pidGone(w));
    }
    if (!ok) return deathOf(w, w.pid === null ? unansweredExternal(o.failuresToDeath, o) : unanswered(o.failuresToDeath, o));
  }
  return null;
}

/** The pid check of one component; an external one (pid null) has no process here and passes. */
function alive(pidAlive: (pid: number, marker: string) => boolean, w: Watched): boolean {
  return w.pid === null || pidAlive(w.pid, w.marker);
}

function deathOf(w: Watched, cause: string): Death {
  return { role: w.role, pid: w.pid, logFile: w.logFile, cause, atIso: new Date().toISOString() };
}

/**
 * GET `url` once with a timeout; true for a 2xx answer, false for anything else (never rejects).
 * Used as the `probe` of the SUT (`/bench/info`) and the mock (`/health`).
 */
export async function httpProbe(url: string, timeoutMs: number): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}
