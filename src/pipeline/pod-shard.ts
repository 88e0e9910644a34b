/**
 * One shard of a multi-host run: the load of `run.mjs shard`, which each pod of the Kubernetes
 * Indexed Job written by `run.mjs k8s` runs (src/plan/k8s-manifests.ts). Where `--shards K` on one host
 * (src/load/shards.ts) starts K child processes and tells them one start time over a pipe, the K
 * shards of a multi-host run are separate processes on separate hosts that share only a folder (the
 * Job's volume). They meet there at a barrier (`FsBarrier`) before and after every load:
 *
 * - before: each shard writes `<n>-start.<index>.json` (its clock, what it is about to run) and waits
 *   until all K have; every shard then starts at the same instant, the latest arrival + START_LEAD_MS
 *   (each computes it from the same files). Wall clocks must agree across hosts (NTP, as on any
 *   Kubernetes node); the skew that remains shows in each cell's per-shard start offsets.
 * - after: `<n>-end.<index>.json`; no shard goes on (reads the SUT's and the mock's figures, resets
 *   the mock for the next cell) until every shard's load is over.
 *
 * `n` counts the loads of the run (warm-ups and cells, in plan order): the shards run the same plan,
 * and each arrival names its load (`c × n`), so shards that do not agree stop with an error instead
 * of measuring different things. A shard that fails writes `failed.<index>.json`; the others stop at
 * their next wait. Shard 0 is the coordinator: only it resets the mock's statistics and takes thread
 * dumps (`podShardDeps`); `run.mjs merge` (src/pipeline/merge-shards.ts) takes the SUT's and the
 * mock's figures from it and merges the load from every shard's raw records.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readJson, writeJsonAtomic } from '../adapters/store/fsio.ts';
import { VtbenchError, EXIT } from '../types/errors.ts';
import { runClosedLoop } from '../load/run.ts';
import { ComponentDiedError } from '../load/component-died.ts';
import { closedLoopOptionsOf, type Driver } from '../load/driver.ts';
import { mergeShards, shareOf } from '../load/shards.ts';
import type { RunDeps } from './deps.ts';

/** The start instant is this far after the latest arrival, so every shard has seen the files in time (a shared volume may show a new file late). */
export const POD_START_LEAD_MS = 2000;
/** How often a waiting shard looks at the shared folder. */
const POLL_MS = 100;

/** One shard's arrival at a barrier point (`<point>.<index>.json`). */
interface Arrival {
  index: number;
  /** the shard's wall clock when it arrived, ms since the epoch */
  atEpochMs: number;
  /** what the shard is about to run / has run; must be the same for every shard */
  what: string;
  hostname: string;
}

/**
 * A barrier among K processes that share a folder (a ReadWriteMany volume, or any folder on one
 * host). Each arrival is a file written atomically (temp + rename); waiting is polling the folder.
 */
export class FsBarrier {
  /**
   * @param dir the shared folder (created when missing)
   * @param index this shard, 0..of-1
   * @param of K, the number of shards
   */
  constructor(readonly dir: string, readonly index: number, readonly of: number) {}

  /**
   * Refuse to start in a folder that already holds this shard's arrivals or failure (a pod restarted,
   * or a second Job run into the same folder): the barriers would pass on stale files.
   * @throws VtbenchError(EXIT.usage) naming the folder and the fix
   */
  checkFresh(): void {
    if (!existsSync(this.dir)) return;
    const mine = readdirSync(this.dir).filter((f) => f.endsWith(`.${this.index}.json`));
    if (mine.length > 0) {
      throw new VtbenchError(`shard ${this.index}: the sync folder ${this.dir} already holds this shard's files (${mine.slice(0, 3).join(', ')}${mine.length > 3 ? ', …' : ''}) from an earlier attempt`,
        'every attempt needs a fresh shared folder: delete it, or give the Job another --name (run.mjs k8s) / the shard another --out', EXIT.usage);
    }
  }

  /**
   * Arrive at `point` and wait until all K shards have.
   * @param what what this shard runs at this point (e.g. `40 workers x 3`); every shard must say the same
   * @returns every shard's arrival time (ms since the epoch, by index)
   * @throws ComponentDiedError (EXIT.notReady) when a shard failed or not all arrived within `timeoutMs`
   *   (the pipeline records the cell as failed);
   *   EXIT.usage when a shard arrived with another `what` (the shards do not run the same plan)
   */
  async wait(point: string, what: string, timeoutMs: number, signal?: AbortSignal): Promise<number[]> {
    mkdirSync(this.dir, { recursive: true });
    const mine: Arrival = { index: this.index, atEpochMs: Date.now(), what, hostname: hostname() };
    writeJsonAtomic(join(this.dir, `${point}.${this.index}.json`), mine);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const files = readdirSync(this.dir);
      const failed = files.filter((f) => /^failed\.\d+\.json$/.test(f));
      if (failed.length > 0) {
        const f = readJson<{ index: number; message: string }>(join(this.dir, failed[0]!));
        // another shard's failure fails this shard's cell too (ComponentDiedError: recorded as a failed cell)
        throw new ComponentDiedError({ role: `load shard ${f.index} of ${this.of} (multi-host)`, pid: null, cause: `it failed: ${f.message}`, atIso: new Date().toISOString() },
          `see shard ${f.index}'s log (kubectl logs); start the Job again in a fresh folder`, `shard ${f.index} failed (${f.message}); shard ${this.index} stops at ${point}`);
      }
      const arrived = files.filter((f) => f.startsWith(`${point}.`) && /\.\d+\.json$/.test(f)).map((f) => readJson<Arrival>(join(this.dir, f)));
      const other = arrived.find((a) => a.what !== what);
      if (other) {
        throw new VtbenchError(`shard ${other.index} arrived at ${point} running ${other.what}, shard ${this.index} running ${what}: the shards do not run the same plan`,
          'start every shard with the same options (the Job that run.mjs k8s writes does); the merge would refuse them', EXIT.usage);
      }
      if (new Set(arrived.map((a) => a.index)).size >= this.of) {
        const at = new Array<number>(this.of).fill(0);
        for (const a of arrived) at[a.index] = a.atEpochMs;
        return at;
      }
      if (Date.now() > deadline) {
        const missing = Array.from({ length: this.of }, (_, i) => i).filter((i) => !arrived.some((a) => a.index === i));
        const cause = `shard(s) ${missing.join(', ')} of ${this.of} did not reach ${point} within ${Math.round(timeoutMs / 1000)} s`;
        throw new ComponentDiedError({ role: `load shard ${missing.join(', ')} of ${this.of} (multi-host)`, pid: null, cause, atIso: new Date().toISOString() },
          'check that every pod of the Job runs (kubectl get pods) and mounts the same volume; raise --sync-timeout-s when pods start slowly', `shard ${this.index}: ${cause}`);
      }
      await sleep(POLL_MS, undefined, signal ? { signal } : {});
    }
  }

  /** Tell the other shards this one failed (`failed.<index>.json`); never throws. */
  fail(message: string): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      writeJsonAtomic(join(this.dir, `failed.${this.index}.json`), { index: this.index, message, atEpochMs: Date.now(), hostname: hostname() });
    } catch {
      /* the shard's own exit code and log still say it */
    }
  }
}

/** This process's place in a multi-host run (RunContext.pod). */
export interface PodShard {
  index: number;
  of: number;
  barrier: FsBarrier;
  /** how long a shard waits for the others at a start barrier, ms (`--sync-timeout-s`) */
  syncTimeoutMs: number;
}

/**
 * `driver` running shard `pod.index` of K of every load: its share of the workers (`shareOf`, the
 * split `--shards K` uses on one host), started with the other shards through the barrier, and the
 * end barrier after. The result holds this shard's raw records (worker indices 0..share-1) and one
 * `shards` entry with its worker offset, which `run.mjs merge` uses.
 * @throws VtbenchError(EXIT.usage) for a driver other than closed-loop HTTP (only it shards)
 */
export function withPodShard(driver: Driver, pod: PodShard): Driver {
  if (driver.kind !== 'closed-loop-http') {
    throw new VtbenchError(`shard ${pod.index} of ${pod.of}: the ${driver.kind} driver does not shard`, 'run that scenario on one host without --shards', EXIT.usage);
  }
  let n = 0;
  return {
    ...driver,
    async run(p, events) {
      const point = n++;
      const shares = shareOf(p.concurrency, pod.of);
      const workerOffset = shares.slice(0, pod.index).reduce((s, x) => s + x, 0);
      const what = `${p.concurrency} workers x ${p.requestsPerWorker}`;
      const arrivals = await pod.barrier.wait(`${point}-start`, what, pod.syncTimeoutMs, p.signal);
      const wait = Math.max(...arrivals) + POD_START_LEAD_MS - Date.now();
      if (wait > 0) await sleep(wait, undefined, { signal: p.signal }).catch(() => {});
      const result = await runClosedLoop({ ...closedLoopOptionsOf(p), concurrency: shares[pod.index]! }, events);
      if (result.aborted || p.signal.aborted) return result;
      // every shard's load of this point is over before any reads the SUT's figures or goes on
      const o = p.options;
      const longest = p.requestsPerWorker * (o.connectTimeoutMs + o.headersTimeoutMs + o.bodyTimeoutMs);
      await pod.barrier.wait(`${point}-end`, what, longest + pod.syncTimeoutMs, p.signal);
      const one = mergeShards([{ format: 'vtbench-shard/1', shard: pod.index, shards: pod.of, workerOffset, result }], p.requestsPerWorker, { lateSendThresholdMs: p.lateSendThresholdMs });
      return { ...result, shards: one.shards };
    },
  };
}

/**
 * The run's dependencies for shard `index`: shard 0 (the coordinator) uses them as they are; any
 * other shard never resets the mock's statistics (that would cut shard 0's per-cell figures) and
 * takes no thread dump (one per cell is enough; the merge takes shard 0's).
 */
export function podShardDeps(deps: RunDeps, index: number): RunDeps {
  if (index === 0) return deps;
  return {
    ...deps,
    resetMockStats: async () => null,
    getThreadDump: () => Promise.reject(new Error(`shard ${index} takes no thread dump (shard 0 does)`)),
  };
}
