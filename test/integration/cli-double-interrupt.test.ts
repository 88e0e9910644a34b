/**
 * Ctrl-C twice (src/cli/commands/run-session.ts, RunSession.onSignal): the first stops the run gracefully, the second kills the
 * children and exits at once. Either way the run's manifest says `interrupted` (with its end time),
 * never `running`, and the lock is gone, so `--resume` and `report` see an interrupted run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startMockProcess } from '../../src/adapters/process/mock-process.ts';
import { freePort } from '../fixtures/ports.ts';
import { startFakeSutByHand } from '../fixtures/fake-sut.ts';

// a mock started by hand (as external components are) gets the run's control token in its environment, and the
// harness takes the same from its own (src/adapters/process/control-token.ts)
const TOKEN = 'external-test-token';
process.env['VTBENCH_CONTROL_TOKEN'] = TOKEN;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

test('a second SIGINT during the graceful stop exits 130 at once and leaves the manifest interrupted (not running), with endedAt, and no lock', { timeout: 120_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-double-int-'));
  const mock = await startMockProcess({ port: await freePort(), latencyMs: 1000, logFile: '/dev/null', controlToken: TOKEN });
  const sut = await startFakeSutByHand(['--variant', 'fixed', '--kind', 'platform-pool', '--threads', '8', '--prefix', 'llm-fixed-', '--mock', `${mock.url}/v1`, '--info-delay-ms', '1500']);
  try {
    const runsDir = join(tmp, 'runs');
    const child = spawn(process.execPath, ['run.mjs', '--study', '000', '--profile', 'smoke', '--variants', 'fixed', '--levels', '2,3', '--requests-per-worker', '3', '--warmup-s', '0', '--latency-ms', '1000',
      '--sut-url', sut.url, '--mock-url', mock.url, '--runs-dir', runsDir, '--no-report'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => { err += d; });
    child.stdout.resume();
    const exit = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    let sutOut = '';
    sut.child.stdout!.on('data', (d) => { sutOut += d; });
    while (!/fixed-c3-r1/.test(err)) {
      if (child.exitCode !== null) assert.fail(`the run ended before its second cell: ${err}`);
      await sleep(50);
    }
    // stop while a health probe is in flight (the SUT answers it 1.5 s late): the graceful stop after
    // the first SIGINT waits for that probe, so the second arrives while the first is being handled.
    // Probes start every 1 s + 1.5 s; the second cell lasts 3 requests × 1 s, so one starts inside it
    const probes = sutOut.split('info-delayed').length;
    while (sutOut.split('info-delayed').length === probes) await sleep(10);
    child.kill('SIGINT');
    await sleep(300);
    child.kill('SIGINT');
    const code = await exit;
    assert.equal(code, 130, err);
    assert.match(err, /SIGINT again: killing every child and exiting/, 'the second-signal branch ran');
    const runDir = join(runsDir, readdirSync(runsDir)[0]!);
    const m = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8'));
    assert.equal(m.status, 'interrupted');
    assert.ok(m.endedAt !== null && !Number.isNaN(Date.parse(m.endedAt)), `endedAt ${m.endedAt}`);
    assert.ok(!existsSync(join(runDir, 'lock.json')), 'no lock left');
    assert.ok(existsSync(join(runDir, 'cells', 'fixed-c2-r1.json')), 'the finished cell is kept');
  } finally {
    sut.child.kill('SIGTERM');
    await mock.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});
