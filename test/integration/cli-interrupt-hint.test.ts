/**
 * Ctrl-C on a new run (src/cli/commands/run-session.ts): the `--resume` hint is printed only for a
 * run folder that stays. A run stopped before it measured or logged anything is removed, and then
 * neither the stop line nor the error names `--resume`; a run whose folder keeps a log gets the hint.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type Io, type MainDeps } from '../../src/cli/main.ts';
import { EXIT } from '../../src/types/errors.ts';
import { interruptedError } from '../../src/adapters/jvm/build.ts';
import { freePort } from '../fixtures/ports.ts';

/** MainDeps whose build is stopped by Ctrl-C: prepare sends SIGINT to this process, waits for the run's abort, then fails as an interrupted build does. */
function interruptedBuild(writeLog: boolean): MainDeps {
  return {
    async prepare(_o, logsDir, extra) {
      if (writeLog) {
        mkdirSync(logsDir, { recursive: true });
        writeFileSync(join(logsDir, 'sut-x.log'), 'something the user should read\n');
      }
      process.emit('SIGINT', 'SIGINT');
      const signal = extra!.signal!;
      if (!signal.aborted) await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
      throw interruptedError('the SUT build');
    },
    checkJdk: () => 'fake JDK',
    checkMaven: () => 'fake Maven',
    report: async () => { throw new Error('no report'); },
  };
}

async function runInterrupted(writeLog: boolean): Promise<{ code: number; out: string; runsDir: string; tmp: string }> {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-int-hint-'));
  const runsDir = join(tmp, 'runs');
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } } as unknown as NodeJS.WriteStream;
  const io: Io = { stdout: sink, stderr: sink };
  const code = await main(['--profile', 'smoke', '--runs-dir', runsDir, '--no-report', '--mock-port', String(await freePort()), '--sut-port', String(await freePort())], io, interruptedBuild(writeLog));
  return { code, out, runsDir, tmp };
}

test('Ctrl-C before anything was measured or logged: the folder is removed and no --resume hint names it', { timeout: 60_000 }, async () => {
  const r = await runInterrupted(false);
  try {
    assert.equal(r.code, EXIT.interrupted, r.out);
    assert.match(r.out, /SIGINT: stopping \(finished cells are kept\)\n/);
    assert.match(r.out, /nothing was measured; removed the run folder /);
    assert.doesNotMatch(r.out, /--resume/, r.out);
    assert.match(r.out, /hint: nothing was measured and the run folder is removed: start the run again/);
    assert.deepEqual(existsSync(r.runsDir) ? readdirSync(r.runsDir) : [], [], 'no run folder left');
  } finally {
    rmSync(r.tmp, { recursive: true, force: true });
  }
});

test('Ctrl-C on a run whose folder keeps a log: the stop line names --resume with the run folder, and the folder is there', { timeout: 60_000 }, async () => {
  const r = await runInterrupted(true);
  try {
    assert.equal(r.code, EXIT.interrupted, r.out);
    const ids = readdirSync(r.runsDir);
    assert.equal(ids.length, 1, 'the run folder is kept');
    // a run under --runs-dir is named by its folder, which --resume reads as the folder (a bare id would be looked up under out/runs/)
    assert.ok(r.out.includes(`SIGINT: stopping (finished cells are kept; continue with --resume ${join(r.runsDir, ids[0]!)})\n`), r.out);
    assert.doesNotMatch(r.out, /removed the run folder/);
  } finally {
    rmSync(r.tmp, { recursive: true, force: true });
  }
});
