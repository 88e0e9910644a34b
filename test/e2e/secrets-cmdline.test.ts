/**
 * Issue 34, defect 4: no secret on a child's command line. A database password (`--db-url
 * …password=…`) reaches the SUT JVM through its environment (Spring's relaxed binding,
 * `BENCH_DB_PASSWORD`), never as `--bench.db.password=…` where `ps` shows it to every local user;
 * psql gets it as PGPASSWORD. Each test starts the child the way vtbench does and reads its
 * `/proc/<pid>/cmdline` (and `/proc/<pid>/environ`, readable by the same user only).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSut, sutLaunch, type StartSutOptions } from '../../src/adapters/jvm/sut-process.ts';
import { dbSutProperties, parseDbUrl, psql } from '../../src/adapters/db/postgres.ts';
import type { Variant } from '../../src/types/study.ts';
import { freePort } from '../fixtures/ports.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = 's3cr3t-Pw-4711';
const VT: Variant = { id: 'vt-x', label: 'vt', executor: { kind: 'virtual-per-task' }, threadNamePrefix: 'x-vt-' };

const cmdlineOf = (pid: number): string => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
const environOf = (pid: number): string[] => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'vtbench-secrets-'));
}

test('sutLaunch: a secret SUT property (password, secret, token) goes to the environment in Spring\'s relaxed form, never to the arguments', () => {
  const db = dbSutProperties(parseDbUrl(`postgresql://bench:${SECRET}@127.0.0.1:5432/bench`));
  const o = { jdk: { home: '/j', major: 25, version: '25', vendor: 'v' }, jarPath: '/x.jar', port: 1, mockBaseUrl: 'http://127.0.0.1:2/v1', variant: { ...VT, sutProperties: { ...db, 'bench.db.pool-size': '10', 'bench.api.secret-key': 'k1', 'bench.other.token': 't1' } }, jvmFlags: [], samplerIntervalMs: 250, pinnedThresholdMs: 20, logFile: '/tmp/x', readyTimeoutMs: 1 } satisfies StartSutOptions;
  const { args, env } = sutLaunch(o);
  const joined = args.join(' ');
  for (const s of [SECRET, 'k1', 't1']) assert.ok(!joined.includes(s), `${s} not in ${joined}`);
  assert.ok(args.includes('--bench.db.user=bench'));
  assert.ok(args.includes('--bench.db.pool-size=10'));
  assert.deepEqual(env, { BENCH_DB_PASSWORD: SECRET, BENCH_API_SECRETKEY: 'k1', BENCH_OTHER_TOKEN: 't1' });
});

test('startSut: the SUT process started with a database password has it in its environment, not in /proc/<pid>/cmdline', { timeout: 60_000 }, async () => {
  const dir = tmp();
  try {
    // a stand-in `java`: a shell that keeps vtbench's arguments as its own and runs the fake SUT beside it
    const home = join(dir, 'jdk');
    mkdirSync(join(home, 'bin'), { recursive: true });
    const java = join(home, 'bin', 'java');
    writeFileSync(java, [
      '#!/bin/sh',
      'port=0; for a in "$@"; do case "$a" in --server.port=*) port="${a#--server.port=}";; esac; done',
      `cd '${ROOT}' && '${process.execPath}' --import tsx test/fixtures/stand-in-sut.ts --variant vt-x --kind virtual-per-task --prefix x-vt- --mock http://127.0.0.1:9/v1 --port "$port" --parent-pid $$ &`,
      'trap \'kill $! 2>/dev/null; exit 0\' TERM',
      'wait $!',
      '',
    ].join('\n'));
    chmodSync(java, 0o755);
    const props = dbSutProperties(parseDbUrl(`jdbc:postgresql://127.0.0.1:5432/bench?user=bench&password=${SECRET}`));
    const s = await startSut({
      jdk: { home, major: 25, version: '25.0.3', vendor: 'test' }, jarPath: join(dir, 'sut.jar'), port: await freePort(),
      mockBaseUrl: 'http://127.0.0.1:9/v1', variant: { ...VT, sutProperties: props }, jvmFlags: [], samplerIntervalMs: 250,
      pinnedThresholdMs: 20, logFile: join(dir, 'sut.log'), readyTimeoutMs: 30_000,
    });
    try {
      const cmd = cmdlineOf(s.pid);
      assert.match(cmd, /--bench\.db\.user=bench/, 'the stand-in java got vtbench\'s arguments');
      assert.ok(!cmd.includes(SECRET), `the password is not on the command line: ${cmd}`);
      assert.ok(environOf(s.pid).includes(`BENCH_DB_PASSWORD=${SECRET}`), 'the password is in the environment');
    } finally {
      await s.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('psql: the password of --db-url goes as PGPASSWORD, not on the command line', { timeout: 30_000 }, async () => {
  const dir = tmp();
  try {
    const out = join(dir, 'seen');
    writeFileSync(join(dir, 'psql'), `#!/bin/sh\n{ tr '\\0' ' ' < /proc/$$/cmdline; echo; echo "PGPASSWORD=$PGPASSWORD"; } > '${out}'\n`);
    chmodSync(join(dir, 'psql'), 0o755);
    await psql({ dir, version: '16' }, parseDbUrl(`postgresql://bench:${SECRET}@127.0.0.1:5432/bench`), 'SELECT 1;');
    const [cmd, env] = readFileSync(out, 'utf8').split('\n');
    assert.ok(!cmd!.includes(SECRET), cmd);
    assert.equal(env, `PGPASSWORD=${SECRET}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
