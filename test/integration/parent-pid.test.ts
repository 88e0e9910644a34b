/**
 * Children that do not outlive their harness: the parent watch (src/adapters/process/parent-watch.ts
 * `watchProcess`), the mock's `--parent-pid`, and the harness passing its own pid to the mock and
 * the SUT (`startMockProcess`, `sutArgs`), and the watchdog of an own PostgreSQL (src/adapters/db/postgres.ts).
 * The real SUT's watch is tested in sut/…/ParentWatchTest.java and test/e2e/sut-parent-pid.test.ts, the
 * real PostgreSQL's in test/integration/db-postgres.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processRunning, watchProcess, type ProcInfo } from '../../src/adapters/process/parent-watch.ts';
import { parentPidArgs } from '../../src/adapters/process/mock-process.ts';
import { MOCK_NODE_FLAGS, nodeFlagsOf } from '../../src/adapters/process/node-flags.ts';
import { isOurs, killIfOurs } from '../../src/adapters/process/children.ts';
import { PG_WATCHDOG_SCRIPT, startPgWatchdog } from '../../src/adapters/db/postgres.ts';
import { sutArgs } from '../../src/adapters/jvm/sut-process.ts';
import { idleChild } from '../fixtures/idle-child.ts';
import { startStandInHarness, waitLine } from '../fixtures/stand-in-harness.ts';
import { freePort } from '../fixtures/ports.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const proc = (pid: number, ppid: number, state = 'S', startTicks = pid * 10): ProcInfo => ({ pid, ppid, state, startTicks, argv: ['node', 'x'] });

/** Wait until `pred` holds, polling every 50 ms; false after `timeoutMs`. */
async function until(pred: () => boolean, timeoutMs: number): Promise<boolean> {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > timeoutMs) return false;
    await sleep(50);
  }
  return true;
}

test('watchProcess: silent while the process lives, fires once when it exits', async () => {
  const table = new Map<number, ProcInfo>([[50, proc(50, 20)], [70, proc(70, 1)]]);
  const reasons: string[] = [];
  const stop = watchProcess(70, (r) => reasons.push(r), { intervalMs: 5, selfPid: 50, read: (p) => table.get(p) ?? null });
  await sleep(30);
  assert.deepEqual(reasons, []);
  table.delete(70);
  await sleep(40);
  stop();
  assert.equal(reasons.length, 1);
  assert.match(reasons[0]!, /process 70 \(node x\) exited/);
});

test('watchProcess: a reused pid or a zombie is gone; a process not running at the start is gone at once', async () => {
  for (const now of [proc(70, 1, 'S', 1), proc(70, 1, 'Z')]) {
    const table = new Map<number, ProcInfo>([[50, proc(50, 20)], [70, proc(70, 1)]]);
    const reasons: string[] = [];
    const stop = watchProcess(70, (r) => reasons.push(r), { intervalMs: 5, selfPid: 50, read: (p) => table.get(p) ?? null });
    table.set(70, now);
    await sleep(30);
    stop();
    assert.equal(reasons.length, 1, JSON.stringify(now));
  }
  const reasons: string[] = [];
  watchProcess(70, (r) => reasons.push(r), { intervalMs: 60_000, selfPid: 50, read: (p) => (p === 50 ? proc(50, 20) : null) });
  await sleep(20);
  assert.deepEqual(reasons, ['process 70 was not running when the watch started']);
});

test('watchProcess: re-parenting counts only when the watched process was this one\'s parent', async () => {
  const table = new Map<number, ProcInfo>([[50, proc(50, 20)], [20, proc(20, 1)], [70, proc(70, 1)]]);
  const fromParent: string[] = [];
  const fromOther: string[] = [];
  const stops = [
    watchProcess(20, (r) => fromParent.push(r), { intervalMs: 5, selfPid: 50, read: (p) => table.get(p) ?? null }),
    watchProcess(70, (r) => fromOther.push(r), { intervalMs: 5, selfPid: 50, read: (p) => table.get(p) ?? null }),
  ];
  table.set(50, proc(50, 1)); // re-parented, while 20 still shows (e.g. not reaped yet under a different view)
  await sleep(40);
  for (const s of stops) s();
  assert.deepEqual(fromParent, ['parent process 20 went away (re-parented to 1)']);
  assert.deepEqual(fromOther, []);
});

test('processRunning: this process yes, a pid above pid_max no', () => {
  assert.equal(processRunning(process.pid), true);
  assert.equal(processRunning(4_194_304), false);
});

test('the harness passes its own pid to the mock (--parent-pid) and the SUT (--bench.parent-pid), none when told null', () => {
  assert.deepEqual(parentPidArgs(undefined), ['--parent-pid', String(process.pid)]);
  assert.deepEqual(parentPidArgs(123), ['--parent-pid', '123']);
  assert.deepEqual(parentPidArgs(null), []);
  const base = {
    jdk: { home: '/j', major: 25, version: '25', vendor: 'v' }, jarPath: '/x.jar', port: 1, mockBaseUrl: 'http://m/v1', jvmFlags: [],
    samplerIntervalMs: 250, pinnedThresholdMs: 20, logFile: '/tmp/x.log', readyTimeoutMs: 1,
    variant: { id: 'vt', label: 'vt', executor: { kind: 'virtual-per-task' as const }, threadNamePrefix: 'vt-' },
  };
  assert.deepEqual(sutArgs(base).filter((a) => a.startsWith('--bench.parent-pid=')), [`--bench.parent-pid=${process.pid}`]);
  assert.deepEqual(sutArgs({ ...base, parentPid: 77 }).filter((a) => a.startsWith('--bench.parent-pid=')), ['--bench.parent-pid=77']);
  assert.deepEqual(sutArgs({ ...base, parentPid: null }).filter((a) => a.startsWith('--bench.parent-pid')), []);
});

test('the mock CLI with --parent-pid of a short-lived process exits 0 within a few seconds of that process being killed', { timeout: 60_000 }, async () => {
  const parent = idleChild('vtbench-parent-pid-test');
  const mock = spawn(process.execPath, ['--import', 'tsx', 'mock/src/cli.ts', '--port', '0', '--latency-ms', '10', '--parent-pid', String(parent.pid)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  mock.stderr!.on('data', (d: Buffer) => { stderr += d; });
  const exit = new Promise<number | null>((resolve) => mock.once('exit', (c) => resolve(c)));
  try {
    const [, url] = await waitLine(mock, /listening on (http:\/\/127\.0\.0\.1:\d+) /);
    assert.equal((await fetch(`${url}/health`)).status, 200);
    await sleep(1_500); // a few checks while the parent lives: the mock stays
    assert.equal(mock.exitCode, null, 'the mock runs while its parent does');
    const killedAt = Date.now();
    await parent.stop(); // SIGKILL
    const code = await Promise.race([exit, sleep(5_000).then(() => 'still running')]);
    assert.equal(code, 0, `exit within 5 s of the parent's death (${Date.now() - killedAt} ms); stderr: ${stderr}`);
    assert.match(stderr, new RegExp(`vtbench-mock: stopping: process ${parent.pid} \\(.*\\) exited \\(--parent-pid ${parent.pid}\\)`));
  } finally {
    mock.kill('SIGKILL');
    await parent.stop();
  }
});

test('a harness killed with SIGKILL leaves no mock: startMockProcess passes the harness\'s pid and the mock exits within a few seconds', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-parent-'));
  const port = await freePort();
  const logFile = join(dir, 'mock.log');
  let harness: ChildProcess | null = null;
  let mockPid = 0;
  try {
    // a stand-in harness: starts the mock as the run does, prints its pid, then idles
    const h = await startStandInHarness(`import { startMockProcess } from './src/adapters/process/mock-process.ts';
const m = await startMockProcess({ port: ${port}, latencyMs: 10, logFile: ${JSON.stringify(logFile)} });
process.stdout.write(m.pid + '\\n');
setInterval(() => {}, 1 << 30);`);
    harness = h.child;
    mockPid = Number(h.firstLine);
    assert.equal((await fetch(`http://127.0.0.1:${port}/health`)).status, 200);
    harness.kill('SIGKILL');
    const t0 = Date.now();
    assert.ok(await until(() => !processRunning(mockPid), 5_000), `the mock still runs ${Date.now() - t0} ms after the harness was killed`);
    assert.match(readFileSync(logFile, 'utf8'), /vtbench-mock: stopping: .*\(--parent-pid \d+\)/);
    // the run's mock runs with the mock's Node flags, and its start line (kept in the run's logs) says so
    assert.ok(readFileSync(logFile, 'utf8').includes(` node=${JSON.stringify([...MOCK_NODE_FLAGS])}\n`), 'the start line records the Node flags');
    await assert.rejects(fetch(`http://127.0.0.1:${port}/health`), 'the port is free again');
  } finally {
    harness?.kill('SIGKILL');
    if (mockPid > 0) killIfOurs(mockPid, 'mock/src/cli.ts', 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the PostgreSQL watchdog script: end of stdin stops the server named by its marker and removes the root; `keep` or another marker leaves them', { timeout: 60_000 }, async () => {
  const runCase = async (how: 'eof' | 'keep' | 'other-marker'): Promise<{ serverRuns: boolean; rootExists: boolean }> => {
    const root = mkdtempSync(join(tmpdir(), 'vtbench-pgwd-'));
    const data = join(root, 'data');
    const server = idleChild(data); // a stand-in postmaster: its argv holds the data directory, SIGINT ends it
    const wd = spawn('/bin/sh', ['-c', PG_WATCHDOG_SCRIPT, 'vtbench-pg-watchdog', String(server.pid), how === 'other-marker' ? `${data}-other` : data, root], { stdio: ['pipe', 'ignore', 'inherit'] });
    const wdExit = new Promise<number | null>((resolve) => wd.once('exit', resolve));
    try {
      await sleep(200);
      assert.equal(wd.exitCode, null, 'the watchdog waits while the harness holds the pipe');
      if (how === 'keep') wd.stdin!.end('keep\n');
      else wd.stdin!.end(); // what the harness's death does to the pipe
      assert.equal(await wdExit, 0);
      await sleep(100);
      return { serverRuns: isOurs(server.pid, data), rootExists: existsSync(root) };
    } finally {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    }
  };
  assert.deepEqual(await runCase('eof'), { serverRuns: false, rootExists: false });
  assert.deepEqual(await runCase('keep'), { serverRuns: true, rootExists: true });
  assert.deepEqual(await runCase('other-marker'), { serverRuns: true, rootExists: false }, 'a pid that is not our server is never signalled');
});

test('startPgWatchdog: disarm ends it without touching the server', { timeout: 30_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), 'vtbench-pgwd-'));
  const data = join(root, 'data');
  const server = idleChild(data);
  try {
    const wd = startPgWatchdog(server.pid, data, root);
    assert.ok(wd.pid > 0);
    assert.ok(await until(() => processRunning(wd.pid), 2_000));
    wd.disarm();
    assert.ok(await until(() => !processRunning(wd.pid), 5_000), 'the watchdog exits once disarmed');
    assert.ok(isOurs(server.pid, data) && existsSync(root));
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

test('nodeFlagsOf: the V8/Node flags of a command line, without the module loader and its value', () => {
  assert.deepEqual(nodeFlagsOf(['--max-semi-space-size=4', '--import', 'tsx', '--trace-gc', '--require', 'x.cjs', '--import=tsx']), ['--max-semi-space-size=4', '--trace-gc']);
  assert.deepEqual(nodeFlagsOf([]), []);
});
