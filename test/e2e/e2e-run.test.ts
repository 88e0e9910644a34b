/**
 * End to end: `npx zx run.mjs` against the real mock and the real SUT JVM.
 * - the smoke profile runs to completion and every file validates against schema/;
 * - a run SIGKILLed mid-cell, then resumed, holds every cell exactly once;
 * - the mock's figures stored with each cell describe that cell alone (fixed-pool upstream peak
 *   <= min(c, N), virtual close to c);
 * - the SUT or the mock killed mid-cell: exit 6, that cell recorded as failed with the cause and not
 *   as a result; `--resume` measures exactly that cell and completes the run;
 * - through `npx zx run.mjs` (the README's command): Ctrl-C to the process group, SIGTERM to npx,
 *   and SIGKILL of npx each stop the run with finished cells kept and no child left alive.
 * Slow (JVM starts); run by `npm test` and .ci/run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from '../../src/adapters/store/schema.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import type { RunManifest } from '../../src/types/run.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ZX = join(ROOT, 'node_modules', '.bin', 'zx');

function startRun(args: string[], via: 'zx' | 'npx' = 'zx'): { child: ChildProcess; out: () => string; done: Promise<number | null> } {
  let buf = '';
  const [cmd, pre] = via === 'npx' ? ['npx', ['zx']] : [ZX, []];
  // npx in its own process group, so a test can signal the group as a terminal's Ctrl-C does
  const child = spawn(cmd, [...pre, 'run.mjs', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' }, detached: via === 'npx' });
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
    // the mock's figures are this cell's alone: reset before its load
    assert.equal(cell.mock.scope, 'cell', id);
    assert.equal(cell.mock.after?.served, cell.concurrency * cell.requestsPerWorker, `${id}: mock served this cell's requests only`);
    const peak = cell.mock.after!.peakInFlight;
    if (cell.executor.kind === 'platform-pool') assert.ok(peak <= Math.min(cell.concurrency, cell.executor.threads), `${id}: platform-pool upstream peak ${peak} <= min(c, N)`);
    else assert.ok(peak <= cell.concurrency && peak >= Math.ceil(0.75 * cell.concurrency), `${id}: virtual-per-task upstream peak ${peak} close to c = ${cell.concurrency}`);
    assert.ok(cell.samples.length > 0, `${id}: SUT samples recorded`);
    // every request took at least the mock's latency
    assert.ok(Math.min(...req.e2eMs) >= manifest.options.latencyMs, id);
  }
  const summary = JSON.parse(readFileSync(store.summaryPath, 'utf8'));
  assert.deepEqual(validate('RunSummary', summary), []);
  assert.equal(summary.missingCells.length, 0);
  assert.equal(manifest.failedCells, undefined);
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

/** The pid of the role (`mock`, `sut-…`) in the run's pids.json, or null. */
function childPid(runsDir: string, role: RegExp): number | null {
  const dir = onlyRunOrNull(runsDir);
  if (!dir) return null;
  try {
    const list = JSON.parse(readFileSync(join(dir, 'pids.json'), 'utf8')) as { pid: number; role: string }[];
    return list.find((p) => role.test(p.role))?.pid ?? null;
  } catch {
    return null;
  }
}

// Two short fixed-pool cells (4 and 8 workers × 6 requests of 400 ms, about 2.4 s each); the
// victim is SIGKILLed 700 ms into the second cell.
for (const victim of [{ name: 'SUT', role: /^sut-/, base: 19312 }, { name: 'mock', role: /^mock$/, base: 19314 }] as const) {
  test(`the ${victim.name} killed mid-cell: exit 6, the cell recorded as failed with the cause; --resume measures it anew`, { timeout: 600_000 }, async () => {
    const tmp = mkdtempSync(join(tmpdir(), `vtbench-kill-${victim.name}-`));
    const runsDir = join(tmp, 'runs');
    const reportDir = join(tmp, 'report');
    const args = ['--profile', 'smoke', '--variants', 'fixed', '--levels', '4,8', '--requests-per-worker', '6', '--latency-ms', '400', '--warmup-s', '0', '--runs-dir', runsDir, '--report-dir', reportDir, ...PORTS(victim.base)];
    const first = startRun(args);
    assert.ok(await waitUntil(() => /c8-r1 /.test(first.out()), 300_000), first.out());
    await new Promise((r) => setTimeout(r, 700));
    const pid = childPid(runsDir, victim.role);
    assert.ok(pid, `${victim.name} pid recorded`);
    process.kill(pid, 'SIGKILL');
    const code = await first.done;
    assert.equal(code, 6, first.out());
    const victimText = victim.name === 'SUT' ? 'SUT \\(fixed-r1\\)' : 'mock LLM';
    assert.match(first.out(), new RegExp(`error: the ${victimText} died during cell fixed-c8-r1 \\(process ${pid} is gone\\)`));
    assert.match(first.out(), /hint: see .*\.log; continue with --resume /);
    const dir = onlyRun(runsDir);
    const store = new RunStore(dir);
    const failed = store.readManifest();
    assert.equal(failed.status, 'failed');
    assert.match(failed.error ?? '', /died during cell fixed-c8-r1/);
    assert.deepEqual(failed.failedCells?.map((f) => f.cellId), ['fixed-c8-r1']);
    assert.match(failed.failedCells![0]!.cause, new RegExp(`process ${pid} is gone`));
    assert.deepEqual(validate('RunManifest', failed), []);
    assert.deepEqual([...store.doneCellIds()], ['fixed-c4-r1'], 'the failed cell is not a result');
    assert.ok(!existsSync(store.cellPath('fixed-c8-r1')));
    assert.ok(existsSync(join(dir, 'cells', 'fixed-c8-r1.failed.json')), 'partial evidence kept aside');
    const firstCell = readFileSync(store.cellPath('fixed-c4-r1'), 'utf8');
    assert.deepEqual(JSON.parse(readFileSync(store.summaryPath, 'utf8')).missingCells, ['fixed-c8-r1'], 'summary.json: the failed cell is missing, not a row');
    // the report of the failed run renders from the finished cells; the evidence file is not read as a cell
    const partial = startRun(['report', dir, '--report-dir', join(tmp, 'partial-report')]);
    assert.equal(await partial.done, 0, partial.out());

    const second = startRun(['--resume', failed.runId, '--runs-dir', runsDir, '--report-dir', reportDir]);
    assert.equal(await second.done, 0, second.out());
    const m = store.readManifest();
    assert.equal(m.status, 'complete');
    assert.equal(m.failedCells, undefined);
    assert.match(m.notes?.join('\n') ?? '', /cell fixed-c8-r1 measured anew on --resume; it had failed at /);
    assert.equal(readFileSync(store.cellPath('fixed-c4-r1'), 'utf8'), firstCell, 'only the failed cell was measured again');
    for (const id of m.cellOrder) {
      const cell = store.readCell(id);
      assert.equal(cell.load.ok, cell.load.count, `${id}: every request succeeded`);
    }
    const report = readFileSync(join(reportDir, m.runId, 'report.md'), 'utf8');
    assert.ok(report.length > 0);
  });
}

/**
 * Through `npx zx run.mjs`: once the first cell is done and the second runs, `stop` is applied;
 * the harness (the pid in lock.json) must end, keep the finished cell, mark the run interrupted and
 * leave no child alive.
 */
const SIGNAL_CASES = [
  { name: 'Ctrl-C (SIGINT to the process group of npx)', base: 19320, stop: (npxPid: number) => process.kill(-npxPid, 'SIGINT') },
  { name: 'SIGTERM to the npx process', base: 19322, stop: (npxPid: number) => process.kill(npxPid, 'SIGTERM') },
  { name: 'SIGKILL of the npx process (the parent goes away)', base: 19324, stop: (npxPid: number) => process.kill(npxPid, 'SIGKILL') },
] as const;

for (const c of SIGNAL_CASES) {
  test(`npx zx run.mjs: ${c.name} stops the run, keeps finished cells, leaves no child alive`, { timeout: 600_000 }, async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'vtbench-signal-'));
    const runsDir = join(tmp, 'runs');
    const watch = watchPids(runsDir);
    const r = startRun(['--profile', 'smoke', '--variants', 'fixed', '--levels', '4,8', '--requests-per-worker', '6', '--latency-ms', '400', '--warmup-s', '0', '--runs-dir', runsDir, '--no-report', ...PORTS(c.base)], 'npx');
    const started = await waitUntil(() => /c8-r1 /.test(r.out()), 300_000);
    assert.ok(started, r.out());
    const dir = onlyRun(runsDir);
    const harness = (JSON.parse(readFileSync(join(dir, 'lock.json'), 'utf8')) as { pid: number }).pid;
    c.stop(r.child.pid!);
    await r.done; // npx itself
    assert.equal(await waitUntil(() => !alive(harness), 60_000), true, `harness ${harness} ended:\n${r.out()}`);
    watch.stop();
    assert.ok(watch.seen.size >= 2, `mock and SUT were recorded: ${[...watch.seen].join(', ')}`);
    for (const pid of watch.seen) assert.equal(await waitUntil(() => !alive(pid), 10_000), true, `pid ${pid} still alive`);
    const store = new RunStore(dir);
    assert.equal(store.readManifest().status, 'interrupted', r.out());
    assert.ok(store.doneCellIds().has('fixed-c4-r1'), 'the finished cell is kept');
    assert.ok(!existsSync(join(dir, 'lock.json')), 'lock released');
  });
}
