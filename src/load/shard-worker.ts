/**
 * One load shard's process (src/load/shards.ts). Protocol on stdin/stdout, one line each:
 *   stdin  1: the shard's spec as JSON: { load: LoadOptions without signal, outFile, shard, shards, workerOffset }
 *   stdout  : `ready` once loaded
 *   stdin  2: `go <epochMs>`: start the measured phase at that wall-clock time (at once if past)
 * Then it runs `runClosedLoop` with its share of the workers and writes a ShardFile to `outFile`
 * atomically (raw per-request records + summary). SIGTERM stops the load: the requests finished by
 * then are written, with `aborted` true. Exit 0 when the file is written, 1 otherwise.
 */
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { runClosedLoop } from './run.ts';
import { writeJsonAtomic } from '../adapters/store/fsio.ts';
import type { LoadOptions } from '../types/load.ts';
import type { ShardFile } from './shards.ts';

interface ShardSpec {
  load: Omit<LoadOptions, 'signal'>;
  outFile: string;
  shard: number;
  shards: number;
  workerOffset: number;
}

const abort = new AbortController();
process.on('SIGTERM', () => abort.abort());

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
try {
  const spec = JSON.parse(String((await lines.next()).value)) as ShardSpec;
  process.stdout.write('ready\n');
  const go = String((await lines.next()).value ?? '');
  const m = /^go (\d+)$/.exec(go.trim());
  if (!m) throw new Error(`expected 'go <epochMs>', got '${go}'`);
  const wait = Number(m[1]) - Date.now();
  if (wait > 0) await sleep(wait, undefined, { signal: abort.signal }).catch(() => {});
  const result = await runClosedLoop({ ...spec.load, signal: abort.signal });
  const file: ShardFile = { format: 'vtbench-shard/1', shard: spec.shard, shards: spec.shards, workerOffset: spec.workerOffset, result };
  writeJsonAtomic(spec.outFile, file);
  process.exit(0);
} catch (e) {
  process.stderr.write(`shard worker: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
}
