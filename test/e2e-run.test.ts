/**
 * End to end: `npx zx run.mjs` against the real mock and the real SUT JVM.
 * - the smoke profile runs to completion and every file validates against schema/;
 * - a run SIGKILLed mid-cell, then resumed, holds every cell exactly once;
 * - after SIGINT no process started by the run is alive.
 * Slow (JVM starts); run by `npm test` and .ci/run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from '../src/store/schema.ts';
import { RunStore } from '../src/store/run-store.ts';
import type { RunManifest } from '../src/store/types.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const ZX = join(ROOT, 'node_modules', '.bin', 'zx');

function startRun(args: string[]): { child: ChildProcess; out: () => string; done: Promise<number | null> } {
  let buf = '';
  const child = spawn(ZX, ['run.mjs', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
  child.stdout!.on('data', (d) => { buf += d; });
  child.stderr!.on('data', (d) => { buf += d; });
  const done = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, out: () => buf, done };
}

function onlyRun(runsDir: string): string {
  const ids = readdirSync(runsDir);
  assert.equal(ids.length, 1, `one run folder in ${runsDir}: ${ids.join(', ')}`);
  return join(runsDir, ids[0]!);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2]!.startsWith('Z');
  } catch {
    return false;
  }
}

async function waitUntil(pred: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (pred()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return pred();
}

/** Every child pid the run ever recorded (pids.json is rewritten as children come and go). */
function watchPids(runsDir: string): { seen: Set<number>; stop: () => void } {
  const seen = new Set<number>();
  const t = setInterval(() => {
    try {
      const dir = onlyRunOrNull(runsDir);
      if (!dir) return;
      const list = JSON.parse(readFileSync(join(dir, 'pids.json'), 'utf8')) as { pid: number }[];
      for (const p of list) seen.add(p.pid);
    } catch { /* not yet written */ }
  }, 100);
  return { seen, stop: () => clearInterval(t) };
}

function onlyRunOrNull(runsDir: string): string | null {
  const ids = existsSync(runsDir) ? readdirSync(runsDir) : [];
  return ids.length === 1 ? join(runsDir, ids[0]!) : null;
}

const PORTS = (base: number) => ['--mock-port', String(base), '--sut-port', String(base + 1)];

test('smoke profile runs end to end and writes a run that validates against the schema', { timeout: 600_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-smoke-'));
  const runsDir = join(tmp, 'runs');
  const r = startRun(['--profile', 'smoke', '--runs-dir', runsDir, '--report-dir', join(tmp, 'report'), ...PORTS(19300)]);
  const code = await r.done;
  assert.equal(code, 0, r.out());
  const dir = onlyRun(runsDir);
  const store = new RunStore(dir);
  const manifest = JSON.parse(readFileSync(store.manifestPath, 'utf8')) as RunManifest;
  assert.deepEqual(validate('RunManifest', manifest), []);
  assert.equal(manifest.status, 'complete');
  assert.equal(manifest.cellOrder.length, 4);
  for (const id of manifest.cellOrder) {
    const cell = store.readCell(id);
    assert.deepEqual(validate("CellFile", new RunStore(dir).readCellFile(id)), [], id);
    const req = store.readRequests(id);
    assert.deepEqual(validate('CompactRequests', req), [], id);
    assert.equal(req.e2eMs.length, cell.concurrency * cell.requestsPerWorker, id);
    assert.equal(cell.load.ok, cell.load.count, `${id}: no errors against the local mock`);
    assert.ok(cell.samples.length > 0, `${id}: SUT samples recorded`);
    // every request took at least the mock's latency
    assert.ok(Math.min(...req.e2eMs) >= manifest.options.latencyMs, id);
  }
  const summary = JSON.parse(readFileSync(store.summaryPath, 'utf8'));
  assert.deepEqual(validate('RunSummary', summary), []);
  assert.equal(summary.missingCells.length, 0);
  const top = manifest.cellOrder.filter((id) => id.includes(`-c${Math.max(...manifest.options.levels)}-`));
  for (const id of top) {
    const cell = store.readCell(id);
    assert.ok(cell.threadDump, `${id}: thread dump taken at the highest level`);
    assert.deepEqual(validate('ThreadDumpSummary', cell.threadDump), [], id);
  }
  assert.ok(existsSync(join(tmp, 'report', manifest.runId, 'index.html')), 'report written');
});

test('a run killed mid-cell resumes and holds every cell exactly once', { timeout: 900_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-resume-'));
  const runsDir = join(tmp, 'runs');
  // 4 cells; each lasts >= 3 × 400 ms; kill while the second cell is running
  const args = ['--profile', 'smoke', '--latency-ms', '400', '--runs-dir', runsDir, '--report-dir', join(tmp, 'report'), '--no-report', ...PORTS(19310)];
  const first = startRun(args);
  const ok = await waitUntil(() => {
    const dir = onlyRunOrNull(runsDir);
    return dir !== null && new RunStore(dir).doneCellIds().size >= 1 && /c32-r1 /.test(first.out());
  }, 300_000);
  assert.ok(ok, `first cell finished and second started:\n${first.out()}`);
  first.child.kill('SIGKILL');
  await first.done;
  const dir = onlyRun(runsDir);
  const before = new RunStore(dir).doneCellIds();
  assert.ok(before.size >= 1 && before.size < 4, `killed mid-run: ${[...before].join(', ')}`);

  const runId = dir.split('/').pop()!;
  const second = startRun(['--resume', runId, '--runs-dir', runsDir, '--no-report']);
  const code = await second.done;
  assert.equal(code, 0, second.out());
  const store = new RunStore(dir);
  const manifest = store.readManifest();
  const cellFiles = readdirSync(join(dir, 'cells')).filter((f) => f.endsWith('.json') && !f.startsWith('.'));
  assert.deepEqual(cellFiles.sort(), manifest.cellOrder.map((id) => `${id}.json`).sort(), 'every cell exactly once, no temp files');
  for (const id of manifest.cellOrder) {
    const req = store.readRequests(id);
    const cell = store.readCell(id);
    assert.equal(req.e2eMs.length, cell.concurrency * cell.requestsPerWorker, id);
  }
  assert.equal(manifest.status, 'complete');
});

test('after SIGINT no process started by the run is left alive', { timeout: 600_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-sigint-'));
  const runsDir = join(tmp, 'runs');
  const watch = watchPids(runsDir);
  const r = startRun(['--profile', 'smoke', '--latency-ms', '400', '--runs-dir', runsDir, '--no-report', ...PORTS(19320)]);
  const started = await waitUntil(() => /c4-r1 /.test(r.out()), 300_000);
  assert.ok(started, r.out());
  r.child.kill('SIGINT');
  const code = await r.done;
  watch.stop();
  assert.equal(code, 130, r.out());
  assert.ok(watch.seen.size >= 2, `mock and SUT were recorded: ${[...watch.seen].join(', ')}`);
  for (const pid of watch.seen) assert.equal(await waitUntil(() => !alive(pid), 10_000), true, `pid ${pid} still alive`);
  const manifest = new RunStore(onlyRun(runsDir)).readManifest();
  assert.equal(manifest.status, 'interrupted');
});
