/**
 * Load shards (src/load/shards.ts, `--shards K`): the split of workers, the merge of raw records
 * (totals are the sums of the shards; percentiles come from the merged raw data, never averaged),
 * two real shard processes against the real mock, and a whole run with `--shards 2` through `main`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shareOf, mergeShards, runClosedLoopSharded, type ShardFile } from '../../src/load/shards.ts';
import { summarize } from '../../src/load/summarize.ts';
import { percentiles } from '../../src/compute/stats/percentiles.ts';
import { startMockProcess } from '../../src/adapters/process/mock-process.ts';
import type { RequestRecord } from '../../src/types/load.ts';
import { main, type Io } from '../../src/cli/main.ts';
import { realDeps } from '../../src/cli/deps.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { validate } from '../../src/adapters/store/schema.ts';
import { freePort } from '../fixtures/ports.ts';
import { startFakeSutByHand } from '../fixtures/fake-sut.ts';

// an external mock is started with a control token; the harness takes the same from its environment (src/adapters/process/control-token.ts)
const TOKEN = 'external-test-token';
process.env['VTBENCH_CONTROL_TOKEN'] = TOKEN;

test('shareOf: workers split as evenly as possible, the first shards one more; fewer workers than shards refused', () => {
  assert.deepEqual(shareOf(10, 3), [4, 3, 3]);
  assert.deepEqual(shareOf(4, 2), [2, 2]);
  assert.deepEqual(shareOf(7, 1), [7]);
  assert.throws(() => shareOf(2, 3), /2 workers cannot be split over 3 shards/);
});

/** A shard file around records (as a shard process writes it). */
function shardOf(shard: number, workerOffset: number, t0EpochMs: number, e2e: number[]): ShardFile {
  const records: RequestRecord[] = e2e.map((ms, i) => ({ worker: i, seq: 0, intendedStartMs: 0, startMs: 0, endMs: ms, e2eMs: ms, status: 200, errorClass: null, serverTiming: {} }));
  return { format: 'vtbench-shard/1', shard, shards: 2, workerOffset, result: { t0EpochMs, aborted: false, records, summary: summarize(records, e2e.length, 1), warmup: { count: 0, errors: 0 }, loadgen: { eventLoopLagP99Ms: 1, eventLoopLagMaxMs: 2, cpuPct: shard === 0 ? 30 : 70 } } };
}

test('mergeShards: totals are the sums, percentiles from the merged raw records (R type 7), not the mean of the shards', () => {
  // shard 0: three requests of 10 ms; shard 1 (started 5 ms later): one of 100 ms
  const m = mergeShards([shardOf(1, 3, 1_000_005, [100]), shardOf(0, 0, 1_000_000, [10, 10, 10])], 1);
  assert.equal(m.summary.count, 4);
  assert.equal(m.summary.ok, 4);
  assert.equal(m.summary.concurrency, 4);
  assert.equal(m.t0EpochMs, 1_000_000);
  // [10, 10, 10, 100]: h = 3 × 0.95 = 2.85 -> 10 + 0.85 × 90 = 86.5 (the mean of the shards' P95s would be 55)
  assert.ok(Math.abs(m.summary.e2eMs!.p95 - 86.5) < 1e-9, String(m.summary.e2eMs!.p95));
  assert.deepEqual(m.records.map((r) => r.worker).sort(), [0, 1, 2, 3]);
  assert.deepEqual(m.records.filter((r) => r.worker === 3).map((r) => [r.startMs, r.endMs]), [[5, 105]], 'moved onto the earliest t0');
  assert.deepEqual(m.shards.map((s) => [s.shard, s.workers, s.workerOffset, s.t0OffsetMs, s.count]), [[0, 3, 0, 0, 3], [1, 1, 3, 5, 1]]);
  assert.equal(m.loadgen.cpuPct, 70, 'the busiest shard process');
  assert.throws(() => mergeShards([shardOf(0, 0, 0, [1, 1]), shardOf(1, 1, 0, [1])], 1), /shard 1 repeats worker 1/);
});

test('runClosedLoopSharded: two shard processes against the real mock; merged totals = sum of shards, percentiles of the merged raw data', { timeout: 120_000 }, async () => {
  const mock = await startMockProcess({ port: await freePort(), latencyMs: 100, logFile: '/dev/null', controlToken: TOKEN });
  try {
    const r = await runClosedLoopSharded({
      url: mock.url, path: '/v1/chat/completions', method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      concurrency: 5, requestsPerWorker: 4, start: 'together', rampMs: 0, connectTimeoutMs: 5000, headersTimeoutMs: 10_000, bodyTimeoutMs: 10_000, lateSendThresholdMs: 20,
    }, 2);
    assert.equal(r.aborted, false);
    assert.deepEqual(r.shards.map((s) => s.workers), [3, 2]);
    assert.equal(r.summary.count, 20);
    assert.equal(r.summary.count, r.shards.reduce((s, x) => s + x.count, 0));
    assert.equal(r.summary.ok, r.shards.reduce((s, x) => s + x.ok, 0));
    assert.deepEqual(r.summary.e2eMs, percentiles(r.records.map((x) => x.e2eMs)));
    assert.deepEqual(new Set(r.records.map((x) => x.worker)), new Set([0, 1, 2, 3, 4]));
    for (const s of r.shards) {
      assert.ok(s.sendRatePerS !== null && s.sendRatePerS > 0, `shard ${s.shard} send rate`);
      assert.ok(Math.abs(s.t0OffsetMs) < 500, `shard ${s.shard} started with the others (${s.t0OffsetMs} ms)`);
      assert.ok(s.loadgen.cpuPct !== null);
    }
    assert.ok(r.summary.e2eMs!.p50 >= 100 && r.summary.e2eMs!.p50 < 200, `E2E ≈ L (${r.summary.e2eMs!.p50})`);
  } finally {
    await mock.stop();
  }
});

test('a run with --shards 2: every cell keeps its shards, whose requests add up to the cell', { timeout: 180_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-shards-'));
  const mock = await startMockProcess({ port: await freePort(), latencyMs: 200, logFile: '/dev/null', controlToken: TOKEN });
  const sut = await startFakeSutByHand(['--variant', 'fixed', '--kind', 'platform-pool', '--threads', '8', '--prefix', 'llm-fixed-', '--mock', `${mock.url}/v1`]);
  try {
    let buf = '';
    const sink = { write: (s: string) => { buf += s; return true; } } as unknown as NodeJS.WriteStream;
    const io: Io = { stdout: sink, stderr: sink };
    const runsDir = join(tmp, 'runs');
    const code = await main(['--study', '000', '--profile', 'smoke', '--variants', 'fixed', '--shards', '2', '--sut-url', sut.url, '--mock-url', mock.url, '--runs-dir', runsDir, '--report-dir', join(tmp, 'report')], io, realDeps());
    assert.equal(code, 0, buf);
    const store = new RunStore(join(runsDir, readdirSync(runsDir)[0]!));
    const m = store.readManifest();
    assert.equal(m.options.shards, 2);
    for (const id of m.cellOrder) {
      const cell = store.readCell(id);
      assert.equal(cell.shards?.length, 2, id);
      assert.equal(cell.shards!.reduce((s, x) => s + x.count, 0), cell.load.count, id);
      assert.equal(cell.load.count, cell.concurrency * 3, id);
      assert.equal(cell.mock.after?.served, cell.load.count, `${id}: the mock saw every shard's requests`);
      assert.deepEqual(validate('CellFile', store.readCellFile(id)), [], id);
    }
    // the report shows each shard's send rate, from the cells
    const md = readFileSync(join(tmp, 'report', m.runId, 'report.md'), 'utf8');
    assert.match(md, /Per-shard load/);
    for (const id of m.cellOrder) for (const x of store.readCell(id).shards!) assert.ok(md.includes(`| ${id} | ${x.shard} | ${x.workers} | ${x.count} |`), `${id} shard ${x.shard} in the report`);
  } finally {
    sut.child.kill('SIGTERM');
    await mock.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});
