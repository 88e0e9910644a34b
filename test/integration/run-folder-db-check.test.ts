/**
 * Issue 34, defect 9: a study 002 run that failed its database check before any load left a run
 * folder, although the README says a new run that fails before it measured anything leaves none.
 * The folder held only the mock's start line and the (successful) build's warnings. Here the run
 * goes through `main` with the real `--db-url` check (psql against a port nothing listens on);
 * the mock and the build are stand-ins that write their logs as the real ones do.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/main.ts';
import type { RunDeps } from '../../src/pipeline/run.ts';
import { findPgBinaries, useExternalPostgres } from '../../src/adapters/db/postgres.ts';
import { EXIT } from '../../src/types/errors.ts';
import { fakeMainDeps, fakeRunDeps } from '../fixtures/fake-run.ts';
import { freePort } from '../fixtures/ports.ts';
import { capture } from '../fixtures/capture-io.ts';

const hasPsql = (() => { try { findPgBinaries(process.env, undefined, 'client'); return true; } catch { return false; } })();

test('study 002 with a --db-url that does not answer: exit 6 naming it, and no run folder left', { timeout: 120_000, skip: hasPsql ? false : 'needs psql' }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-dbcheck-'));
  const marker = 'vtbench-test-dbcheck';
  const kids: { pid: number; stop: () => Promise<void> }[] = [];
  const base = fakeRunDeps({ marker, children: kids });
  try {
    const dbUrl = `postgresql://bench:pw@127.0.0.1:${await freePort()}/bench`;
    const run: RunDeps = {
      ...base,
      startMock: async (o) => {
        writeFileSync(o.logFile, 'vtbench-mock listening on http://127.0.0.1:9 pid=1 config={}\n'); // the real mock's start line
        return base.startMock(o);
      },
      startSut: async () => { throw new Error('no SUT is started before the database answers'); },
      startDb: async () => useExternalPostgres(findPgBinaries(process.env, undefined, 'client'), dbUrl),
    };
    const deps = fakeMainDeps(run, {
      prepare: async (_o, logsDir) => {
        mkdirSync(logsDir, { recursive: true });
        writeFileSync(join(logsDir, 'build.log'), 'WARNING: A terminally deprecated method in sun.misc.Unsafe has been called\n'); // a build that succeeded
        return { deps: run, jdk: null };
      },
    });
    const runsDir = join(tmp, 'runs');
    const out = capture();
    const code = await main(['--study', '002', '--profile', 'smoke', '--variants', 'db10-virtual', '--db-url', dbUrl, '--mock-port', String(await freePort()), '--sut-port', String(await freePort()), '--runs-dir', runsDir, '--no-report'], out.io, deps);
    assert.equal(code, EXIT.notReady, out.text());
    assert.match(out.text(), /--db-url: PostgreSQL at jdbc:postgresql:\/\/127\.0\.0\.1:\d+\/bench does not answer/);
    assert.doesNotMatch(out.text(), /pw/, 'no password in the output');
    assert.deepEqual(existsSync(runsDir) ? readdirSync(runsDir) : [], [], 'no run folder left');
    assert.match(out.text(), /nothing was measured; removed the run folder/);
    // --db-url starts no server: no "starting PostgreSQL … (≈ 4 s)" line before the connection attempt
    assert.doesNotMatch(out.text(), /starting PostgreSQL|PostgreSQL ready after/);
  } finally {
    for (const k of kids) await k.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});
