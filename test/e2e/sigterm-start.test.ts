/**
 * Issue 34, defect 9: SIGTERM waited 19–20 s for a Maven build or a JVM start before it stopped
 * them (neither watched the run's abort signal). Now the build's Maven, the SUT JVM being started
 * and the mock being started are stopped within a few seconds of the run's abort, and the call
 * rejects as interrupted (exit 130).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSut } from '../../src/adapters/jvm/build.ts';
import { startSut } from '../../src/adapters/jvm/sut-process.ts';
import { EXIT, VtbenchError } from '../../src/types/errors.ts';
import type { Variant } from '../../src/types/study.ts';
import { freePort } from '../fixtures/ports.ts';

const VT: Variant = { id: 'vt-x', label: 'vt', executor: { kind: 'virtual-per-task' }, threadNamePrefix: 'x-vt-' };
const JDK = { home: '/nonexistent-jdk', major: 25, version: '25.0.3', vendor: 'test' };

/** A script that writes its pid to `pidFile`, then sleeps `s` seconds (a build or a JVM that takes its time). */
function slowScript(path: string, pidFile: string, s: number): void {
  writeFileSync(path, `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep ${s}\n`);
  chmodSync(path, 0o755);
}

const alive = (pid: number): boolean => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));

test('an abort during the Maven build stops Maven within seconds and rejects as interrupted', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-sigbuild-'));
  try {
    const mvn = join(dir, 'mvn');
    const pidFile = join(dir, 'pid');
    slowScript(mvn, pidFile, 25);
    mkdirSync(join(dir, 'sut'));
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 500);
    const t0 = Date.now();
    await assert.rejects(buildSut({ jdk: JDK, sutDir: join(dir, 'sut'), force: true, mvn, signal: abort.signal }), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.interrupted);
    const took = Date.now() - t0;
    assert.ok(took < 5_000, `stopped after ${took} ms`);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    assert.equal(alive(pid), false, 'Maven is gone');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an abort during a SUT start stops the JVM within seconds and rejects as interrupted', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-sigsut-'));
  try {
    mkdirSync(join(dir, 'jdk', 'bin'), { recursive: true });
    const pidFile = join(dir, 'pid');
    slowScript(join(dir, 'jdk', 'bin', 'java'), pidFile, 25);
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 800);
    const t0 = Date.now();
    await assert.rejects(startSut({
      jdk: { ...JDK, home: join(dir, 'jdk') }, jarPath: join(dir, 'sut.jar'), port: await freePort(), mockBaseUrl: 'http://127.0.0.1:9/v1',
      variant: VT, jvmFlags: [], samplerIntervalMs: 250, pinnedThresholdMs: 20, logFile: join(dir, 'sut.log'), readyTimeoutMs: 60_000, signal: abort.signal,
    }), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.interrupted);
    const took = Date.now() - t0;
    assert.ok(took < 5_000, `stopped after ${took} ms`);
    assert.equal(alive(Number(readFileSync(pidFile, 'utf8'))), false, 'the JVM is gone');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
