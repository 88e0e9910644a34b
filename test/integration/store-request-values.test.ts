/**
 * Raw per-request records are validated for meaning on every read (src/adapters/store/schema.ts
 * requestValueProblems, part of checkCell): a requests file with a negative or infinite duration, an
 * HTTP status outside 100–599 or a request outside its cell is a gap naming the file, the column and
 * the row, in `merge`, `report`, `resummarize` and `--resume` (RunStore.setAsideDamaged) alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync, cpSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync, gunzipSync } from 'node:zlib';
import { requestsFromFile } from '../../src/adapters/store/requests-codec.ts';
import { main, type Io } from '../../src/cli/main.ts';
import { realDeps } from '../../src/cli/deps.ts';
import { requestValueProblems } from '../../src/adapters/store/schema.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { EXIT } from '../../src/types/errors.ts';
import { startMockProcess } from '../../src/adapters/process/mock-process.ts';
import type { CompactRequests } from '../../src/types/run.ts';
import { freePort } from '../fixtures/ports.ts';
import { startFakeSutByHand } from '../fixtures/fake-sut.ts';

// a mock started by hand (as external components are) gets the run's control token in its environment, and the
// harness takes the same from its own (src/adapters/process/control-token.ts)
const TOKEN = 'external-test-token';
process.env['VTBENCH_CONTROL_TOKEN'] = TOKEN;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function capture(): { io: Io; text: () => string } {
  let buf = '';
  const sink = { write: (s: string) => { buf += s; return true; } } as unknown as NodeJS.WriteStream;
  return { io: { stdout: sink, stderr: sink }, text: () => buf };
}

function shardProcess(index: number, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['run.mjs', 'shard', ...args], { cwd: ROOT, env: { ...process.env, JOB_COMPLETION_INDEX: String(index) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.once('exit', (code) => resolve({ code, out }));
  });
}

const req = (over: Partial<CompactRequests> = {}): CompactRequests => ({
  worker: [0, 0, 1], seq: [0, 1, 0], startMs: [0, 210, 0], e2eMs: [200, 200, 205], status: [200, 200, 200], error: ['', '', ''], queueMs: [0, null, 1], execMs: [199, null, 200], ...over,
});

test('requestValueProblems: negative, infinite, impossible and out-of-cell values, each naming the file, the column and the row', () => {
  const f = 'cells/x.requests.json.gz';
  assert.deepEqual(requestValueProblems(f, req(), 1000), []);
  assert.deepEqual(requestValueProblems(f, req({ e2eMs: [200, -5e9, 205] })), [`${f}: /e2eMs/1 is -5000000000 (a duration is finite and >= 0)`]);
  assert.deepEqual(requestValueProblems(f, req({ status: [200, 999, 0] })), [`${f}: /status/1 is 999 (an HTTP status is 100–599, or 0 for no answer)`]);
  assert.deepEqual(requestValueProblems(f, req({ execMs: [Infinity, null, 1] })), [`${f}: /execMs/0 is Infinity (a duration is finite and >= 0)`]);
  assert.deepEqual(requestValueProblems(f, req({ startMs: [-3, 210, 0] })), [`${f}: /startMs/0 is -3 (a duration is finite and >= 0)`]);
  assert.deepEqual(requestValueProblems(f, req({ startMs: [0, 5000, 0] }), 1000), [`${f}: /startMs/1 + /e2eMs/1 = 5200 ms after t0, after the cell ended (its durationMs is 1000)`]);
  assert.equal(requestValueProblems(f, req({ e2eMs: [-1, -1, -1], status: [1, 2, 3] })).length, 4, 'three named, then a count');
});

/** Put impossible values into a cell's requests file: E2E −5e9 ms in row 0, status 999 in row 1. */
function poison(runDir: string, cellId: string): void {
  const p = join(runDir, 'cells', `${cellId}.requests.json.gz`);
  // the run wrote it encoded (requests-codec.ts): poison the decoded columns, stored back in the plain layout every reader still reads
  const r = requestsFromFile(JSON.parse(gunzipSync(readFileSync(p)).toString('utf8'))) as CompactRequests;
  r.e2eMs[0] = -5e9;
  r.status[1] = 999;
  writeFileSync(p, gzipSync(JSON.stringify(r)));
}

test('merge, report, resummarize and --resume refuse a shard\'s requests file with E2E -5e9 ms and status 999, naming file, column and row', { timeout: 240_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-values-'));
  const mock = await startMockProcess({ port: await freePort(), latencyMs: 200, logFile: '/dev/null', controlToken: TOKEN });
  const sut = await startFakeSutByHand(['--variant', 'fixed', '--kind', 'platform-pool', '--threads', '8', '--prefix', 'llm-fixed-', '--mock', `${mock.url}/v1`]);
  try {
    const shared = join(tmp, 'shared');
    const args = ['--study', '000', '--profile', 'smoke', '--variants', 'fixed', '--levels', '4', '--shards', '2', '--sut-url', sut.url, '--mock-url', mock.url, '--out', shared, '--sync-timeout-s', '120'];
    const shards = await Promise.all([shardProcess(0, args), shardProcess(1, args)]);
    for (const [i, s] of shards.entries()) assert.equal(s.code, 0, `shard ${i}: ${s.out}`);
    const dirs = [join(shared, 'shard-0'), join(shared, 'shard-1')];
    poison(dirs[1]!, 'fixed-c4-r1');
    const named = /cells\/fixed-c4-r1\.requests\.json\.gz: \/e2eMs\/0 is -5000000000 \(a duration is finite and >= 0\); cells\/fixed-c4-r1\.requests\.json\.gz: \/status\/1 is 999/;

    // merge: the cell is a gap naming the file, column and row, not a mean of −52 million ms
    const m = capture();
    const merged = join(tmp, 'runs', 'merged');
    assert.equal(await main(['merge', ...dirs, '--out', merged], m.io, realDeps()), EXIT.runData, m.text());
    const mm = new RunStore(merged).readManifest();
    assert.deepEqual(mm.failedCells?.map((f) => f.cellId), ['fixed-c4-r1']);
    assert.match(mm.failedCells![0]!.cause, named);
    assert.ok(!existsSync(join(merged, 'cells', 'fixed-c4-r1.json')), 'not merged');

    // report: the shard's run renders with the gap named
    const rep = capture();
    await main(['report', dirs[1]!, '--report-dir', join(tmp, 'report')], rep.io, realDeps());
    const md = readFileSync(join(tmp, 'report', new RunStore(dirs[1]!).readManifest().runId, 'report.md'), 'utf8');
    assert.match(md, /cells\/fixed-c4-r1\.requests\.json\.gz: \/e2eMs\/0 is -5000000000/);

    // resummarize: the cell is skipped as damaged, not re-derived from impossible values
    const copy = join(tmp, 'copy-1');
    cpSync(dirs[1]!, copy, { recursive: true });
    const rs = capture();
    await main(['resummarize', copy], rs.io, realDeps());
    assert.match(rs.text(), /1 damaged cell\(s\) skipped/, rs.text());

    // --resume: the cell is not done; it is set aside (with the problems named) and measured again
    const store = new RunStore(copy);
    assert.deepEqual([...store.doneCellIds()], []);
    const aside = store.setAsideDamaged();
    assert.equal(aside.length, 1);
    assert.match(aside[0]!.problems.join('; '), named);
  } finally {
    sut.child.kill('SIGTERM');
    await mock.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});
