/**
 * Load shards: one closed-loop cell split over K generator processes (`--shards K`), so the
 * generator's own CPU and event loop are no longer one process's.
 *
 * Each shard is a child process (src/load/shard-worker.ts) running `runClosedLoop` with its share
 * of the workers (`shareOf`); every shard writes its raw per-request records to a shard file
 * (`ShardFile`, JSON, atomic). The shards start together: each says `ready` once loaded, then the
 * parent sends one start time to all. The cell's result is merged from the raw records
 * (`mergeShards`): times moved onto the earliest shard's t0, worker indices made unique, and the
 * summary computed by `summarize` over the merged records — percentiles are never averaged across
 * shards. Per-shard figures (`ShardStat`: workers, requests, send rate, start skew, the process's
 * CPU and event-loop lag) are kept so an uneven shard is visible; the generator figures the flags
 * read are the worst shard's (each is a per-process limit).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJson } from '../adapters/store/fsio.ts';
import { checkAnswer, MalformedAnswerError } from '../adapters/store/answers.ts';
import { summarize } from './summarize.ts';
import { ComponentDiedError } from './component-died.ts';
import type { LoadEvents, LoadOptions, LoadResult, LoadgenStats, RequestRecord, ShardStat } from '../types/load.ts';

export type { ShardStat } from '../types/load.ts';

/** The most shards of one cell (`--shards`): a stated maximum, each is a Node process of its own. */
export const MAX_SHARDS = 64;

/** What a shard process writes (src/load/shard-worker.ts) and `mergeShards` reads. */
export interface ShardFile {
  format: 'vtbench-shard/1';
  shard: number;
  shards: number;
  workerOffset: number;
  result: LoadResult;
}

/** Split c workers over k shards as evenly as possible (the first c mod k get one more). Pure. */
export function shareOf(c: number, k: number): number[] {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`shards must be a whole number >= 1 (got ${k})`);
  if (c < k) throw new RangeError(`${c} workers cannot be split over ${k} shards (each needs at least one)`);
  return Array.from({ length: k }, (_, i) => Math.floor(c / k) + (i < c % k ? 1 : 0));
}

/**
 * Merge shard files into one cell result. Pure. Records move onto the earliest t0 (every time field
 * + the shard's t0 offset) and get worker indices `workerOffset + worker`; the summary is
 * `summarize(merged records, Σ workers, n)`. Generator figures: the highest of the shards (CPU % of
 * one core, event-loop lag), each shard being its own process. `aborted` when any shard was.
 * @throws RangeError when no shard is given or the shards overlap in workers
 */
export function mergeShards(parts: readonly ShardFile[], requestsPerWorker: number, opts: { lateSendThresholdMs?: number } = {}): LoadResult & { shards: ShardStat[] } {
  if (parts.length === 0) throw new RangeError('mergeShards: no shard to merge');
  const sorted = [...parts].sort((a, b) => a.shard - b.shard);
  const t0 = Math.min(...sorted.map((p) => p.result.t0EpochMs));
  const records: RequestRecord[] = [];
  const stats: ShardStat[] = [];
  let workers = 0;
  const seen = new Set<number>();
  for (const p of sorted) {
    const r = p.result;
    const dt = r.t0EpochMs - t0;
    const c = r.summary.concurrency;
    for (let w = 0; w < c; w++) {
      if (seen.has(p.workerOffset + w)) throw new RangeError(`mergeShards: shard ${p.shard} repeats worker ${p.workerOffset + w}`);
      seen.add(p.workerOffset + w);
    }
    workers += c;
    let first = Infinity;
    let last = -Infinity;
    for (const x of r.records) {
      records.push({ ...x, worker: p.workerOffset + x.worker, intendedStartMs: x.intendedStartMs + dt, startMs: x.startMs + dt, endMs: x.endMs + dt });
      if (x.startMs < first) first = x.startMs;
      if (x.endMs > last) last = x.endMs;
    }
    const spanS = (last - first) / 1000;
    stats.push({
      shard: p.shard, workers: c, workerOffset: p.workerOffset, t0OffsetMs: dt, count: r.records.length, ok: r.summary.ok,
      sendRatePerS: r.records.length > 0 && spanS > 0 ? r.records.length / spanS : null,
      loadgen: r.loadgen,
    });
  }
  const worst = (f: (l: LoadgenStats) => number | null): number | null => {
    const xs = sorted.map((p) => f(p.result.loadgen)).filter((x): x is number => x !== null);
    return xs.length > 0 ? Math.max(...xs) : null;
  };
  return {
    t0EpochMs: t0,
    aborted: sorted.some((p) => p.result.aborted),
    records,
    summary: summarize(records, workers, requestsPerWorker, opts),
    warmup: { count: sorted.reduce((s, p) => s + p.result.warmup.count, 0), errors: sorted.reduce((s, p) => s + p.result.warmup.errors, 0) },
    loadgen: { eventLoopLagP99Ms: worst((l) => l.eventLoopLagP99Ms), eventLoopLagMaxMs: worst((l) => l.eventLoopLagMaxMs), cpuPct: worst((l) => l.cpuPct) },
    shards: stats,
  };
}

const WORKER = fileURLToPath(new URL('./shard-worker.ts', import.meta.url));
/** How long a shard process may take to load and say `ready`. */
const SHARD_READY_TIMEOUT_MS = 60_000;
/** The start time sent to the shards is this far ahead, so each has the line before it is due. */
const START_LEAD_MS = 200;

/** How a shard process ended. */
interface ShardExit { code: number | null; signal: NodeJS.Signals | null; atIso: string }

/** `process <pid> was killed by SIGKILL` / `process <pid> exited with code 1`. Pure. */
export function exitCause(pid: number | null, x: Pick<ShardExit, 'code' | 'signal'>): string {
  const who = pid === null ? 'the process' : `process ${pid}`;
  return x.signal !== null ? `${who} was killed by ${x.signal}` : `${who} exited with code ${x.code}`;
}

/** The error of a dead shard: its role, pid and cause, with the last line of its stderr when it wrote one. */
function shardDied(shard: number, k: number, pid: number | null, cause: string, atIso: string, stderr: string): ComponentDiedError {
  const last = stderr.trim().split('\n').filter((l) => l.trim() !== '' && !/^\s+at /.test(l)).at(-1);
  return new ComponentDiedError({ role: `load shard ${shard} of ${k}`, pid, cause: last ? `${cause}; its stderr: ${last.trim().slice(0, 300)}` : cause, atIso });
}

/**
 * Run one closed-loop cell over `k` shard processes on this host and merge their raw records.
 * `options.signal` stops every shard (SIGTERM: each writes what finished, `aborted` true).
 * `events.progress` is called once, at the end (the shards do not stream their records).
 * @throws ComponentDiedError (exit 6) when a shard process is killed, exits other than 0, is not
 *   ready in time or writes no shard file; the other shards are stopped at once
 */
export async function runClosedLoopSharded(options: LoadOptions, k: number, events: LoadEvents = {}): Promise<LoadResult & { shards: ShardStat[] }> {
  const shares = shareOf(options.concurrency, k);
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-shards-'));
  const { signal, ...plain } = options;
  try {
    let offset = 0;
    const procs = shares.map((workers, shard) => {
      const spec = { load: { ...plain, concurrency: workers, workerIndexOffset: offset }, outFile: join(dir, `shard-${shard}.json`), shard, shards: k, workerOffset: offset };
      offset += workers;
      const child = spawn(process.execPath, ['--import', 'tsx', WORKER], { stdio: ['pipe', 'pipe', 'pipe'] });
      child.stdin!.on('error', () => { /* it died first: its exit says why */ });
      child.stdin!.write(JSON.stringify(spec) + '\n');
      let err = '';
      child.stderr!.on('data', (d) => { err += d; });
      const exited = new Promise<ShardExit>((r) => child.once('exit', (code, sig) => r({ code, signal: sig, atIso: new Date().toISOString() })));
      const ready = new Promise<void>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(shardDied(shard, k, child.pid ?? null, `did not say ready within ${SHARD_READY_TIMEOUT_MS} ms`, new Date().toISOString(), err)), SHARD_READY_TIMEOUT_MS);
        child.stdout!.on('data', (d) => {
          out += d;
          if (out.includes('ready')) { clearTimeout(timer); resolve(); }
        });
        void exited.then((x) => { clearTimeout(timer); reject(shardDied(shard, k, child.pid ?? null, `${exitCause(child.pid ?? null, x)} before it was ready`, x.atIso, err)); });
      });
      return { child, spec, exited, ready, stderr: () => err };
    });
    const stop = () => { for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM'); };
    signal?.addEventListener('abort', stop, { once: true });
    try {
      try {
        await Promise.all(procs.map((p) => p.ready));
      } catch (e) {
        for (const p of procs) p.child.kill('SIGKILL');
        throw e;
      }
      const at = Date.now() + START_LEAD_MS;
      for (const p of procs) p.child.stdin!.write(`go ${at}\n`);
      // a shard that dies (a signal, or an exit other than 0) fails the cell: the others are stopped at once
      let dead = null as ComponentDiedError | null;
      const exits = await Promise.all(procs.map((p, i) => p.exited.then((x) => {
        if (dead === null && (x.signal !== null || x.code !== 0) && !signal?.aborted) {
          dead = shardDied(i, k, p.child.pid ?? null, exitCause(p.child.pid ?? null, x), x.atIso, p.stderr());
          stop();
        }
        return x;
      })));
      if (dead) throw dead;
      const parts = procs.map((p, i) => {
        if (!existsSync(p.spec.outFile)) throw shardDied(i, k, p.child.pid ?? null, `${exitCause(p.child.pid ?? null, exits[i]!)} without writing its shard file`, exits[i]!.atIso, p.stderr());
        let file: unknown;
        try {
          file = readJson<unknown>(p.spec.outFile);
        } catch (e) {
          throw new MalformedAnswerError({ component: `load shard ${i} of ${k}`, url: p.spec.outFile, endpoint: 'its shard file' }, [`not JSON (${(e as Error).message})`]);
        }
        return checkAnswer<ShardFile>('ShardFile', file, { component: `load shard ${i} of ${k}`, url: p.spec.outFile, endpoint: 'its shard file' });
      });
      const merged = mergeShards(parts, options.requestsPerWorker, options.lateSendThresholdMs === undefined ? {} : { lateSendThresholdMs: options.lateSendThresholdMs });
      events.progress?.(merged.records.length, options.concurrency * options.requestsPerWorker);
      return signal?.aborted ? { ...merged, aborted: true } : merged;
    } finally {
      signal?.removeEventListener('abort', stop);
      stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
