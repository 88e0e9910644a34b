/**
 * A user's run and report go to the git-ignored `out/runs/` and `out/report/` of the repository
 * (src/cli/context.ts dirOption); the committed `runs/` and `report/` change only when named.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { dirOption } from '../../src/cli/context.ts';
import { ROOT } from '../../src/cli/common.ts';
import { main, type Io, type MainDeps } from '../../src/cli/main.ts';
import { freePort } from '../fixtures/ports.ts';
import { START_COST_S } from '../../src/plan/starts.ts';

/** Whether git ignores a path of the repository (`git check-ignore` exits 0 for an ignored path). */
function ignored(path: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: ROOT, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('without --runs-dir and --report-dir a run writes to out/runs and out/report of the repository, both ignored by git', () => {
  assert.equal(dirOption(undefined, 'runs'), join(ROOT, 'out', 'runs'));
  assert.equal(dirOption(undefined, 'report'), join(ROOT, 'out', 'report'));
  for (const p of ['out/runs/20261202-000000-000-smoke/manifest.json', 'out/report/20261202-000000-000-smoke/index.html']) assert.ok(ignored(p), `${p} is ignored by git`);
  for (const p of ['runs/20261202-000000-000-smoke/manifest.json', 'report/20261202-000000-000-smoke/index.html']) assert.ok(!ignored(p), `${p} (the committed folders) is not ignored`);
});

test('a given folder resolves against the current folder; an empty one is a usage error', () => {
  assert.equal(dirOption('runs', 'runs'), resolve(process.cwd(), 'runs'));
  assert.throws(() => dirOption('  ', 'report'), /--report-dir: an empty folder name/);
});

test('a dry run without --runs-dir plans its run folder under out/runs/ of the repository, and its planned duration adds the starts', async () => {
  let out = '';
  const sink = { write: (x: string) => { out += x; return true; } } as unknown as NodeJS.WriteStream;
  const io: Io = { stdout: sink, stderr: sink };
  const deps = { prepare: async () => { throw new Error('a dry run prepares nothing'); }, checkJdk: () => 'fake JDK', checkMaven: () => 'fake Maven', report: async () => { throw new Error('no report'); } } as MainDeps;
  const code = await main(['--profile', 'smoke', '--dry-run', '--json', '--no-report', '--mock-port', String(await freePort()), '--sut-port', String(await freePort())], io, deps);
  assert.equal(code, 0, out);
  const ev = out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { type: string; runDir?: string; theoreticalS?: number; plannedS?: number }).find((e) => e.type === 'dry-run');
  assert.ok(ev?.runDir?.startsWith(join(ROOT, 'out', 'runs') + '/'), `${ev?.runDir} is under out/runs/`);
  assert.ok(ev!.plannedS! >= ev!.theoreticalS! + START_COST_S.sutJvm, `the planned duration ${ev!.plannedS} s adds the SUT JVM starts to ${ev!.theoreticalS} s`);
  assert.match(out, /planned duration ≈ .* SUT JVM block/);
});

test('resumeArg: the bare id for a run under the default out/runs/, the folder itself for one anywhere else', async () => {
  const { resumeArg } = await import('../../src/adapters/store/resume-arg.ts');
  const { ROOT } = await import('../../src/cli/common.ts');
  const { join } = await import('node:path');
  assert.equal(resumeArg(join(ROOT, 'out', 'runs', '20261202-101010-000-quick'), '20261202-101010-000-quick'), '20261202-101010-000-quick');
  assert.equal(resumeArg('/tmp/elsewhere/20261202-101010-000-quick', '20261202-101010-000-quick'), '/tmp/elsewhere/20261202-101010-000-quick');
  assert.equal(resumeArg(join(ROOT, 'runs', '20261130-100102-seed-000'), '20261130-100102-seed-000'), join(ROOT, 'runs', '20261130-100102-seed-000'), 'the committed runs/ is not the default');
  assert.equal(resumeArg("/tmp/my runs/it's/r1", 'r1'), `'/tmp/my runs/it'\\''s/r1'`, 'a folder with a space or a quote is single-quoted for the shell');
});
