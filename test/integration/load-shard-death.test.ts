/**
 * A load shard process (`--shards K`, src/load/shard-worker.ts) that dies mid-cell is a failed cell,
 * as a dead SUT or mock is: exit 6, the cause names the shard and the signal, `cells/<id>.failed.json`
 * is written, the cell is listed in `manifest.failedCells`, and `--resume` measures it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { main, type Io } from '../../src/cli/main.ts';
import { realDeps } from '../../src/cli/deps.ts';
import { runClosedLoopSharded } from '../../src/load/shards.ts';
import { FsBarrier } from '../../src/pipeline/pod-shard.ts';
import { ComponentDiedError } from '../../src/load/component-died.ts';
import { startMockProcess, getMockStats } from '../../src/adapters/process/mock-process.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { freePort } from '../fixtures/ports.ts';
import { startFakeSutByHand } from '../fixtures/fake-sut.ts';

// a mock started by hand (as external components are) gets the run's control token in its environment, and the
// harness takes the same from its own (src/adapters/process/control-token.ts)
const TOKEN = 'external-test-token';
process.env['VTBENCH_CONTROL_TOKEN'] = TOKEN;

/** Pids of this process's shard workers (children whose command line names shard-worker.ts). */
function shardPids(): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('shard-worker.ts')) out.push(Number(d));
    } catch { /* gone */ }
  }
  return out.sort((a, b) => a - b);
}

/**
 * SIGKILL the first shard worker `afterMs` after two are running and the mock has served requests
 * since (the load is under way); resolves with its pid.
 */
let killedAt = 0;
async function killFirstShard(mockUrl: string, afterMs: number): Promise<number> {
  const served = async () => (await getMockStats(mockUrl))?.served ?? 0;
  while (shardPids().length < 2) await sleep(50);
  const before = await served(); // an external mock may have served the run's own checks already
  while ((await served()) < before + 2) await sleep(50);
  await sleep(afterMs);
  const pid = shardPids()[0]!;
  process.kill(pid, 'SIGKILL');
  killedAt = Date.now();
  return pid;
}

test('runClosedLoopSharded: a shard SIGKILLed mid-load rejects with a ComponentDiedError naming the shard, its pid and SIGKILL; the other shard is stopped', { timeout: 120_000 }, async () => {
  const mock = await startMockProcess({ port: await freePort(), latencyMs: 200, logFile: '/dev/null', controlToken: TOKEN });
  try {
    const killed = killFirstShard(mock.url, 500);
    const err = await runClosedLoopSharded({
      url: mock.url, path: '/v1/chat/completions', method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      concurrency: 4, requestsPerWorker: 60, start: 'together', rampMs: 0, connectTimeoutMs: 5000, headersTimeoutMs: 10_000, bodyTimeoutMs: 10_000, lateSendThresholdMs: 20,
    }, 2).then(() => null, (e: unknown) => e);
    const pid = await killed;
    assert.ok(err instanceof ComponentDiedError, `a ComponentDiedError: ${String(err)}`);
    assert.equal(err.exitCode, 6);
    assert.equal(err.death.pid, pid);
    assert.match(err.death.role, /load shard 0 of 2/);
    assert.match(err.death.cause, new RegExp(`process ${pid} was killed by SIGKILL`));
    assert.ok(Date.now() - killedAt < 6000, `the other shard was stopped at once, not left to finish its 12 s of load (${Date.now() - killedAt} ms after the kill)`);
    await sleep(300);
    assert.deepEqual(shardPids(), [], 'no shard process left');
  } finally {
    await mock.stop();
  }
});

test('a run with --shards 2 whose shard is SIGKILLed mid-cell: exit 6 naming the signal, the cell failed with its evidence, --resume measures it', { timeout: 180_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-shard-death-'));
  const mock = await startMockProcess({ port: await freePort(), latencyMs: 200, logFile: '/dev/null', controlToken: TOKEN });
  const sut = await startFakeSutByHand(['--variant', 'fixed', '--kind', 'platform-pool', '--threads', '8', '--prefix', 'llm-fixed-', '--mock', `${mock.url}/v1`]);
  try {
    let buf = '';
    const sink = { write: (s: string) => { buf += s; return true; } } as unknown as NodeJS.WriteStream;
    const io: Io = { stdout: sink, stderr: sink };
    const runsDir = join(tmp, 'runs');
    const killed = killFirstShard(mock.url, 300);
    const code = await main(['--study', '000', '--profile', 'smoke', '--variants', 'fixed', '--levels', '2', '--requests-per-worker', '15', '--warmup-s', '0', '--shards', '2',
      '--sut-url', sut.url, '--mock-url', mock.url, '--runs-dir', runsDir, '--report-dir', join(tmp, 'report')], io, realDeps());
    const pid = await killed;
    assert.equal(code, 6, buf);
    assert.match(buf, new RegExp(`load shard 0 of 2 died during cell fixed-c2-r1 \\(process ${pid} was killed by SIGKILL\\)`), buf);
    assert.match(buf, /--resume/);
    const runId = readdirSync(runsDir)[0]!;
    const store = new RunStore(join(runsDir, runId));
    const m = store.readManifest();
    assert.deepEqual(m.failedCells?.map((f) => f.cellId), ['fixed-c2-r1']);
    assert.match(m.failedCells![0]!.cause, /SIGKILL/);
    assert.ok(existsSync(join(store.dir, 'cells', 'fixed-c2-r1.failed.json')));
    const evidence = JSON.parse(readFileSync(join(store.dir, 'cells', 'fixed-c2-r1.failed.json'), 'utf8'));
    assert.equal(evidence.component.pid, pid);

    buf = '';
    const again = await main(['--resume', runId, '--runs-dir', runsDir, '--report-dir', join(tmp, 'report')], io, realDeps());
    assert.equal(again, 0, buf);
    const after = store.readManifest();
    assert.equal(after.failedCells, undefined);
    assert.equal(store.readCell('fixed-c2-r1').load.ok, 2 * 15);
  } finally {
    sut.child.kill('SIGTERM');
    await mock.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('FsBarrier (multi-host shards): another shard that failed or never arrived rejects with a ComponentDiedError, so the pod records its cell as failed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-barrier-'));
  try {
    const a = new FsBarrier(join(dir, 'one'), 0, 2);
    const e1 = await a.wait('0-start', 'x', 300).then(() => null, (e: unknown) => e);
    assert.ok(e1 instanceof ComponentDiedError, String(e1));
    assert.equal(e1.exitCode, 6);
    assert.match(e1.death.cause, /shard\(s\) 1 of 2 did not reach 0-start/);
    new FsBarrier(join(dir, 'two'), 1, 2).fail('the SUT did not answer');
    const e2 = await new FsBarrier(join(dir, 'two'), 0, 2).wait('0-end', 'x', 5000).then(() => null, (e: unknown) => e);
    assert.ok(e2 instanceof ComponentDiedError, String(e2));
    assert.equal(e2.death.role, 'load shard 1 of 2 (multi-host)');
    assert.match(e2.death.cause, /it failed: the SUT did not answer/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
