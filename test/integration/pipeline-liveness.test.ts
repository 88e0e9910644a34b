import { test } from 'node:test';
import { FIXTURE_DIR } from '../fixtures/upgrade-run.ts';
import { upgradeManifest } from '../../src/adapters/store/migrate.ts';
import { STUDIES } from '../../src/studies/index.ts';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LivenessWatch, checkNow, type Watched, type Death } from '../../src/adapters/process/liveness.ts';
import { unusableLoad, recordFailedCell, clearFailedCell } from '../../src/pipeline/failed-cells.ts';
import { launcherChain, goneReason, watchLaunchers, isShellWrapper, readProc, type ProcInfo } from '../../src/adapters/process/parent-watch.ts';
import { summarize } from '../../src/load/summarize.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import type { RequestRecord } from '../../src/types/load.ts';
import type { RunManifest } from '../../src/types/run.ts';

const fast = { intervalMs: 10, probeTimeoutMs: 50, failuresToDeath: 3 };

function watched(over: Partial<Watched> & { answers?: boolean[] } = {}): Watched & { probes: number } {
  const answers = over.answers ?? [];
  const w: Watched & { probes: number } = {
    role: 'SUT (fixed-r1)', pid: 4242, marker: 'x', logFile: '/tmp/sut.log', probes: 0,
    probe: async (): Promise<boolean> => answers[w.probes++] ?? true,
    ...over,
  };
  return w;
}

function waitDeath(w: Watched[], pidAlive: (pid: number) => boolean): Promise<Death> {
  return new Promise((resolve) => {
    new LivenessWatch(() => w, { ...fast, pidAlive }).start(resolve);
  });
}

test('LivenessWatch: a pid that is gone is a death at the next poll, naming the pid', async () => {
  let alive = true;
  const w = watched();
  const death = waitDeath([watched({ role: 'mock LLM', pid: 7 }), w], (pid) => pid !== 4242 || alive);
  setTimeout(() => { alive = false; }, 30);
  const d = await death;
  assert.equal(d.role, 'SUT (fixed-r1)');
  assert.equal(d.cause, 'process 4242 is gone');
  assert.equal(d.logFile, '/tmp/sut.log');
});

test('LivenessWatch: a live process that does not answer dies only after failuresToDeath failed probes in a row', async () => {
  // fail, fail, ok (resets the count), fail, fail, fail -> death at the 6th probe
  const w = watched({ answers: [false, false, true, false, false, false] });
  const d = await waitDeath([w], () => true);
  assert.equal(w.probes, 6);
  assert.match(d.cause, /alive but did not answer its health probe 3 time\(s\) in a row \(timeout 50 ms each\)/);
});

test('LivenessWatch: stop() before a death means no callback', async () => {
  let called = false;
  const watch = new LivenessWatch(() => [watched()], { ...fast, pidAlive: () => false }).start(() => { called = true; });
  await watch.stop();
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(called, false);
  assert.equal(watch.dead, null);
});

test('checkNow: alive and answering -> null; gone -> the pid; answering on a retry -> null', async () => {
  assert.equal(await checkNow([watched()], { ...fast, pidAlive: () => true }), null);
  assert.equal((await checkNow([watched()], { ...fast, pidAlive: () => false }))?.cause, 'process 4242 is gone');
  assert.equal(await checkNow([watched({ answers: [false, true] })], { ...fast, pidAlive: () => true }), null);
  assert.match((await checkNow([watched({ answers: [false, false, false] })], { ...fast, pidAlive: () => true }))!.cause, /did not answer/);
});

test('LivenessWatch with the real pid check: a SIGKILLed child is seen as gone', async () => {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'liveness-marker-x1']);
  await new Promise((r) => child.once('spawn', r));
  const w = watched({ pid: child.pid!, marker: 'liveness-marker-x1' });
  const death = new Promise<Death>((resolve) => new LivenessWatch(() => [w], fast).start(resolve));
  assert.equal(await checkNow([w], fast), null, 'alive at first');
  child.kill('SIGKILL');
  assert.equal((await death).cause, `process ${child.pid} is gone`);
});

function rec(ok: boolean, errorClass: RequestRecord['errorClass'] = null): RequestRecord {
  return { worker: 0, seq: 0, intendedStartMs: 0, startMs: 0, endMs: 1, e2eMs: 1, status: ok ? 200 : errorClass === 'http' ? 502 : null, errorClass: ok ? null : errorClass, serverTiming: {} };
}

test('unusableLoad: no success at all is unusable, naming the error classes; one success is a measurement', () => {
  assert.equal(unusableLoad(summarize([rec(true), rec(false, 'connect')], 2, 1)), null);
  assert.equal(unusableLoad(summarize([rec(false, 'connect'), rec(false, 'reset')], 2, 1)), 'no request succeeded: all 2 failed with connection errors (connect 1, reset 1)');
  assert.equal(unusableLoad(summarize([rec(false, 'http'), rec(false, 'connect')], 2, 1)), 'no request succeeded: all 2 failed (connect 1, http 1)');
  assert.equal(unusableLoad(summarize([], 2, 1)), 'no request was recorded');
});

test('recordFailedCell / clearFailedCell: manifest entry, evidence file, note on re-measure', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-failed-'));
  try {
    const store = new RunStore(dir);
    store.init();
    // a real manifest (the store validates it on read), from the fixture run
    const manifest = { ...(upgradeManifest(JSON.parse(readFileSync(join(FIXTURE_DIR, 'manifest.json'), 'utf8')), STUDIES).manifest as RunManifest), notes: ['earlier'] };
    delete manifest.failedCells;
    const ev = { cellId: 'fixed-c4-r1', cause: 'process 9 is gone', atIso: '2026-11-30T10:00:00.000Z', component: { role: 'SUT (fixed-r1)', pid: 9 }, startedAt: '2026-11-30T09:59:59.000Z', durationMs: 1000, load: null, mock: null };
    recordFailedCell(store, manifest, ev);
    recordFailedCell(store, manifest, { ...ev, cause: 'again' }); // the same cell again: replaced, not duplicated
    assert.deepEqual(store.readManifest().failedCells, [{ cellId: 'fixed-c4-r1', cause: 'again', atIso: ev.atIso }]);
    assert.equal(JSON.parse(readFileSync(join(dir, 'cells', 'fixed-c4-r1.failed.json'), 'utf8')).cause, 'again');
    assert.deepEqual(store.doneCellIds(), new Set(), 'evidence is not a done cell');
    clearFailedCell(store, manifest, 'virtual-c4-r1'); // never failed: nothing changes
    assert.equal(store.readManifest().failedCells?.length, 1);
    clearFailedCell(store, manifest, 'fixed-c4-r1', new Date('2026-11-30T11:00:00Z'));
    const m = store.readManifest();
    assert.equal(m.failedCells, undefined);
    assert.deepEqual(m.notes, ['earlier', '2026-11-30T11:00:00.000Z: cell fixed-c4-r1 measured anew on --resume; it had failed at 2026-11-30T10:00:00.000Z: again (evidence: cells/fixed-c4-r1.failed.json)']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---- parent watch ------------------------------------------------------------------------------

const proc = (pid: number, ppid: number, argv: string[], state = 'S', startTicks = pid * 10): ProcInfo => ({ pid, ppid, state, startTicks, argv });

test('launcherChain: npx -> sh -c -> harness watches the wrapper and npx, not the shell that ran npx', () => {
  const table = new Map<number, ProcInfo>([
    [50, proc(50, 40, ['node', '/x/node_modules/.bin/zx', 'run.mjs'])],
    [40, proc(40, 30, ['sh', '-c', 'zx', 'run.mjs'])],
    [30, proc(30, 20, ['npm exec zx run.mjs'])],
    [20, proc(20, 1, ['bash'])],
  ]);
  assert.deepEqual(launcherChain(50, (p) => table.get(p) ?? null).map((p) => p.pid), [40, 30]);
  // started directly by a test runner: only the parent
  const direct = new Map<number, ProcInfo>([[50, proc(50, 20, ['node', 'zx', 'run.mjs'])], [20, proc(20, 1, ['node', '--test'])]]);
  assert.deepEqual(launcherChain(50, (p) => direct.get(p) ?? null).map((p) => p.pid), [20]);
  assert.equal(isShellWrapper(proc(1, 0, ['/bin/sh', '-c', 'x'])), true);
  assert.equal(isShellWrapper(proc(1, 0, ['bash'])), false);
});

test('goneReason: exited, a zombie, or its pid reused by another process', () => {
  const was = proc(30, 20, ['npm exec zx run.mjs']);
  assert.equal(goneReason(was, was), null);
  assert.match(goneReason(was, null)!, /process 30 \(npm exec zx run.mjs\) exited/);
  assert.match(goneReason(was, { ...was, state: 'Z' })!, /exited/);
  assert.match(goneReason(was, { ...was, startTicks: 1 })!, /pid now belongs to another process/);
});

test('watchLaunchers: fires once when npx goes away (its sh wrapper and the harness live on)', async () => {
  const table = new Map<number, ProcInfo>([
    [50, proc(50, 40, ['node', 'zx', 'run.mjs'])],
    [40, proc(40, 30, ['sh', '-c', 'zx'])],
    [30, proc(30, 20, ['npm exec zx run.mjs'])],
  ]);
  const reasons: string[] = [];
  const stop = watchLaunchers((r) => reasons.push(r), { intervalMs: 5, selfPid: 50, read: (p) => table.get(p) ?? null });
  await new Promise((r) => setTimeout(r, 30));
  assert.deepEqual(reasons, []);
  table.delete(30); // SIGKILL of npx: sh is re-parented, the harness's parent is unchanged
  await new Promise((r) => setTimeout(r, 40));
  stop();
  assert.equal(reasons.length, 1);
  assert.match(reasons[0]!, /process 30 .* exited/);
});

test('watchLaunchers: fires when this process is re-parented (its parent died)', async () => {
  const table = new Map<number, ProcInfo>([[50, proc(50, 20, ['node', 'zx', 'run.mjs'])], [20, proc(20, 1, ['node', '--test'])]]);
  const reasons: string[] = [];
  const stop = watchLaunchers((r) => reasons.push(r), { intervalMs: 5, selfPid: 50, read: (p) => table.get(p) ?? null });
  table.set(50, proc(50, 1, ['node', 'zx', 'run.mjs']));
  await new Promise((r) => setTimeout(r, 40));
  stop();
  assert.match(reasons[0] ?? '', /parent process 20 went away \(re-parented to 1\)/);
});

test('readProc reads this process (pid, parent, argv) and null for no process', () => {
  const me = readProc(process.pid)!;
  assert.equal(me.ppid, process.ppid);
  assert.ok(me.argv[0]!.includes('node'));
  assert.ok(Number.isFinite(me.startTicks) && me.startTicks > 0);
  assert.equal(readProc(2 ** 22 + 12345), null);
});
