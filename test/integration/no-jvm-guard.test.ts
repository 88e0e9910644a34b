/**
 * The no-JVM guards of the unit and integration tiers (test/support/tier.mjs, docs/architecture.md
 * "Tests in tiers"): VTBENCH_NO_JVM makes the SUT build and start refuse before they spawn anything,
 * and the fake JDK of test/support/no-jvm/jdk is what findJdk takes when the tier sets JAVA_HOME to it,
 * so a SUT start by the absolute path of the JDK found runs a `java` that exits 97.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findJdk, findJdkOfMajor, NO_JVM_ENV, refuseJvmInTestTiers, SUT_MIN_JDK } from '../../src/adapters/jvm/jdk.ts';
import { startSut } from '../../src/adapters/jvm/sut-process.ts';
import { buildSut } from '../../src/adapters/jvm/build.ts';
import { EXIT, VtbenchError } from '../../src/types/errors.ts';
import type { Variant } from '../../src/types/study.ts';

const FAKE_JDK = resolve('test/support/no-jvm/jdk');
const VT: Variant = { id: 'vt-x', label: 'vt', executor: { kind: 'virtual-per-task' }, threadNamePrefix: 'x-vt-' };

/** Runs `fn` with process.env[NO_JVM_ENV] set to `value` (undefined: unset), restoring it after. */
async function withNoJvm<T>(value: string | undefined, fn: () => Promise<T>): Promise<T> {
  const was = process.env[NO_JVM_ENV];
  if (value === undefined) delete process.env[NO_JVM_ENV];
  else process.env[NO_JVM_ENV] = value;
  try {
    return await fn();
  } finally {
    if (was === undefined) delete process.env[NO_JVM_ENV];
    else process.env[NO_JVM_ENV] = was;
  }
}

const refused = (what: RegExp) => (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.prerequisite && what.test(e.message) && /VTBENCH_NO_JVM=1/.test(e.message) && /test\/e2e/.test(e.hint);

test('refuseJvmInTestTiers: refuses when VTBENCH_NO_JVM is set (not empty, not 0), naming the tiers and test/e2e', () => {
  assert.throws(() => refuseJvmInTestTiers('starting the SUT JVM', { [NO_JVM_ENV]: '1' }), refused(/^starting the SUT JVM refused/));
  for (const env of [{}, { [NO_JVM_ENV]: '' }, { [NO_JVM_ENV]: '0' }]) refuseJvmInTestTiers('x', env);
});

test('startSut and buildSut refuse under VTBENCH_NO_JVM=1 before they spawn anything (no log file, no Maven)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-nojvm-'));
  try {
    // a real-looking JDK and jar: only the guard stands between these calls and a JVM
    const jdk = { home: FAKE_JDK, major: 25, version: '25', vendor: 'test' };
    const logFile = join(dir, 'logs', 'sut.log');
    await withNoJvm('1', async () => {
      await assert.rejects(startSut({ jdk, jarPath: join(dir, 'sut.jar'), port: 1, mockBaseUrl: 'http://127.0.0.1:2/v1', variant: VT, jvmFlags: [], samplerIntervalMs: 250, pinnedThresholdMs: 20, logFile, readyTimeoutMs: 1_000 }), refused(/^starting the SUT JVM refused/));
      await assert.rejects(buildSut({ jdk, sutDir: dir, force: true, mvn: '/bin/false', logFile: join(dir, 'build.log') }), refused(/^building the SUT refused/));
    });
    assert.equal(existsSync(logFile), false, 'startSut opened no log file: it stopped before the spawn');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the fake JDK of the tiers qualifies for findJdk as JAVA_HOME, ahead of /usr/lib/jvm, and its java exits 97 saying why', () => {
  const jdk = findJdk(SUT_MIN_JDK, { env: { JAVA_HOME: FAKE_JDK } });
  assert.equal(jdk.home, FAKE_JDK);
  assert.equal(jdk.major, 25);
  assert.equal(findJdkOfMajor(25, { env: { JAVA_HOME: FAKE_JDK } })?.home, FAKE_JDK);
  const r = spawnSync(join(jdk.home, 'bin', 'java'), ['-version'], { encoding: 'utf8' });
  assert.equal(r.status, 97, r.stderr);
  assert.match(r.stderr, /must not start a JVM .*test\/e2e\//);
});
