/**
 * The real SUT JVM does not outlive the harness that started it: a stand-in harness (a node process
 * calling `startSut` as the run does, so `--bench.parent-pid` is its own pid) is killed with
 * SIGKILL, and the JVM must exit within a few seconds, its log naming why
 * (sut/…/ParentExitStopper.java). Needs a JDK >= 21 and the SUT jar (Maven builds it when its
 * sources changed): run it under the heavy lock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SUT_MIN_JDK } from '../../src/adapters/jvm/jdk.ts';
import { buildSut } from '../../src/adapters/jvm/build.ts';
import { processRunning } from '../../src/adapters/process/parent-watch.ts';
import { killIfOurs } from '../../src/adapters/process/children.ts';
import { freePort } from '../fixtures/ports.ts';
import { startStandInHarness, sutJdkOrNull } from '../fixtures/stand-in-harness.ts';


const jdk = sutJdkOrNull();

test('a harness killed with SIGKILL leaves no SUT: the JVM sees bench.parent-pid gone and exits within a few seconds', {
  skip: jdk === null ? `no JDK ${SUT_MIN_JDK}` : false,
  timeout: 300_000,
}, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-sut-parent-'));
  const logFile = join(dir, 'sut.log');
  const jarPath = await buildSut({ jdk: jdk!, logFile: join(dir, 'build.log') });
  const port = await freePort();
  const o = {
    jdk, jarPath, port, mockBaseUrl: 'http://127.0.0.1:9/v1', jvmFlags: ['-Xmx256m'], samplerIntervalMs: 250, pinnedThresholdMs: 20,
    logFile, readyTimeoutMs: 120_000, variant: { id: 'vt', label: 'vt', executor: { kind: 'virtual-per-task' }, threadNamePrefix: 'vt-' },
  };
  let harness: ChildProcess | null = null;
  let sutPid = 0;
  try {
    // a stand-in harness: starts the SUT as the run does, prints its pid, then idles
    const h = await startStandInHarness(`import { startSut } from './src/adapters/jvm/sut-process.ts';
const s = await startSut(${JSON.stringify(o)});
process.stdout.write(s.pid + '\\n');
setInterval(() => {}, 1 << 30);`);
    harness = h.child;
    sutPid = Number(h.firstLine);
    const harnessPid = h.child.pid!;
    assert.equal((await fetch(`http://127.0.0.1:${port}/bench/info`)).status, 200);
    assert.match(readFileSync(logFile, 'utf8'), new RegExp(`stopping when parent process ${harnessPid} is gone`));
    await new Promise((r) => setTimeout(r, 2_000));
    assert.equal(processRunning(sutPid), true, 'the SUT runs while its harness does');
    harness.kill('SIGKILL');
    const t0 = Date.now();
    while (processRunning(sutPid) && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 50));
    const ms = Date.now() - t0;
    t.diagnostic(`the SUT exited ${ms} ms after its harness was killed`);
    assert.equal(processRunning(sutPid), false, `the SUT still runs ${ms} ms after its harness was killed`);
    assert.ok(ms < 5_000, `the SUT exited ${ms} ms after its harness was killed (watch: every 1 s, then the context closes)`);
    assert.match(readFileSync(logFile, 'utf8'), new RegExp(`vtbench-sut: parent process ${harnessPid} (exited|went away)[^\\n]*; stopping`));
    await assert.rejects(fetch(`http://127.0.0.1:${port}/bench/info`), 'the port is free again');
  } finally {
    harness?.kill('SIGKILL');
    if (sutPid > 0) killIfOurs(sutPid, 'vtbench-sut', 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
