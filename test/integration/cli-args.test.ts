/**
 * The command line's shape (src/cli/main.ts, src/cli/program.ts): run ids name the study, options given before a
 * subcommand that does not read them are refused, `list --study`, and the study / scenario /
 * variants in the JSON output of `list` and of a dry run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, newRunId, runStudy, type Io, type MainDeps } from '../../src/cli/main.ts';
import { STUDIES } from '../../src/studies/index.ts';
import type { Study } from '../../src/types/study.ts';
import { TOY_STUDY } from '../fixtures/toy-study/study.ts';
import { freePort } from '../fixtures/ports.ts';

function capture(): { io: Io; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const sink = (append: (s: string) => void) => ({ write: (s: string) => { append(String(s)); return true; }, isTTY: false }) as unknown as NodeJS.WriteStream;
  return { io: { stdout: sink((s) => { out += s; }), stderr: sink((s) => { err += s; }) }, out: () => out, err: () => err };
}

const NO_DEPS = {
  prepare: async () => { throw new Error('not prepared in this test'); },
  checkJdk: () => 'fake JDK', checkMaven: () => 'fake Maven',
  report: async () => { throw new Error('not rendered in this test'); },
} as unknown as MainDeps;

async function run(argv: string[], studies?: readonly Study[]): Promise<{ code: number; out: string; err: string }> {
  const c = capture();
  const code = await main(argv, c.io, { ...NO_DEPS, ...(studies ? { studies } : {}) });
  return { code, out: c.out(), err: c.err() };
}

test('run ids are <date>-<time>-<study>-<profile> in UTC', () => {
  assert.equal(newRunId('000', 'quick', new Date(Date.UTC(2026, 10, 30, 10, 15, 0))), '20261130-101500-000-quick');
  assert.equal(newRunId('toy', 'tiny', new Date(Date.UTC(2027, 0, 2, 3, 4, 5))), '20270102-030405-toy-tiny');
});

test('run options before a subcommand that does not read them are refused (exit 2), naming them', async () => {
  const a = await run(['--study', 'nope', 'report', 'runs/x']);
  assert.equal(a.code, 2, a.err);
  assert.match(a.err, /^error: --study does not apply to `report`\n  hint: drop it; `report` takes --runs-dir, --report-dir, --lang/);
  const b = await run(['--variants', 'nope', 'list']);
  assert.equal(b.code, 2, b.err);
  assert.match(b.err, /^error: --variants does not apply to `list`/);
  const c = await run(['--levels', '5', '--pool-size', '3', 'resummarize', 'runs/x']);
  assert.equal(c.code, 2, c.err);
  assert.match(c.err, /^error: --levels, --pool-size do not apply to `resummarize`\n  hint: drop them/);
  const d = await run(['--resume', 'x', '--no-report', 'list']);
  assert.equal(d.code, 2);
  assert.match(d.err, /--resume, --no-report do not apply to `list`/);
  // what a subcommand does read is still accepted before it
  const e = await run(['--json', 'list']);
  assert.equal(e.code, 0, e.err);
});

test('list --study <id> lists that study only (also given before list); an unknown id is exit 2', async () => {
  const studies = [...STUDIES, TOY_STUDY];
  for (const argv of [['list', '--study', 'toy'], ['--study', 'toy', 'list']]) {
    const r = await run(argv, studies);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^study toy: /);
    assert.doesNotMatch(r.out, /study 000/);
  }
  const bad = await run(['list', '--study', 'nope'], studies);
  assert.equal(bad.code, 2);
  assert.ok(bad.err.startsWith(`error: --study: unknown study 'nope'\n  hint: use one of: ${studies.map((s) => s.id).join(', ')}`), bad.err);
});

test('list --json carries each study with its variant ids and scenario ids', async () => {
  const r = await run(['list', '--json'], [...STUDIES, TOY_STUDY]);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out) as { type: string; studies: { id: string; variants: string[]; scenarios: string[] }[]; profiles: { study: string }[] };
  assert.equal(j.type, 'list');
  assert.deepEqual(j.studies.find((s) => s.id === 'toy'), { id: 'toy', title: TOY_STUDY.title, source: TOY_STUDY.source, variants: ['pool-2', 'vt'], scenarios: ['sleep'] });
  for (const st of STUDIES) assert.deepEqual(j.studies.find((s) => s.id === st.id)?.variants, st.variants.map((v) => v.id));
  assert.ok(j.profiles.some((p) => p.study === 'toy'));
});



test('--dry-run --json: the event names the study, profile, scenario and variants', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-cli-args-'));
  try {
    const c = capture();
    const code = await runStudy(TOY_STUDY, ['--profile', 'tiny', '--variants', 'vt', '--runs-dir', join(tmp, 'runs'), '--report-dir', join(tmp, 'report'), '--mock-port', String(await freePort()), '--sut-port', String(await freePort()), '--dry-run', '--json'], c.io, NO_DEPS);
    assert.equal(code, 0, c.err());
    const ev = JSON.parse(c.out().trim().split('\n').at(-1)!) as Record<string, unknown>;
    assert.equal(ev['type'], 'dry-run');
    assert.equal(ev['study'], 'toy');
    assert.equal(ev['profile'], 'tiny');
    assert.equal(ev['scenario'], 'sleep');
    assert.deepEqual(ev['variants'], ['vt']);
    assert.match(String(ev['runDir']), /\/\d{8}-\d{6}-toy-tiny$/);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('runStudy passes report and resummarize on without --study (they read the run\'s study), and lists its own study', async () => {
  const c = capture();
  assert.equal(await runStudy(TOY_STUDY, ['list'], c.io, NO_DEPS), 0, c.err());
  assert.match(c.out(), /^study toy: /);
  assert.doesNotMatch(c.out(), /study 000/);
  const r = capture();
  let reported: string | null = null;
  const deps = { ...NO_DEPS, report: async (dir: string) => { reported = dir; return { outDir: '/tmp/x', gaps: [], answerText: 'Virtual threads: 2.00× …\nTrust: …' }; } } as MainDeps;
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-cli-args-'));
  try {
    assert.equal(await runStudy(TOY_STUDY, ['report', join(tmp, 'run'), '--report-dir', join(tmp, 'report')], r.io, deps), 0, r.err());
    assert.equal(reported, join(tmp, 'run'));
    // `report` prints the run's answer block, then where the report is
    assert.equal(r.out(), 'Virtual threads: 2.00× …\nTrust: …\n\nreport written: /tmp/x/index.html\n');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a run on a host without a suitable JDK stops at the prerequisites (exit 3): no build line, no run folder', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-nojdk-'));
  try {
    const { VtbenchError, EXIT } = await import('../../src/types/errors.ts');
    const c = capture();
    const noJdk = { ...NO_DEPS, sutBuildNeeded: () => true, checkJdk: () => { throw new VtbenchError('no JDK >= 25 found', 'install one', EXIT.prerequisite); } } as MainDeps;
    const ports = ['--mock-port', String(await freePort()), '--sut-port', String(await freePort())];
    const code = await runStudy(TOY_STUDY, ['--profile', 'tiny', ...ports, '--runs-dir', join(tmp, 'runs'), '--report-dir', join(tmp, 'report')], c.io, noJdk);
    assert.equal(code, EXIT.prerequisite, c.err());
    assert.match(c.err(), /no JDK >= 25 found/);
    assert.doesNotMatch(c.err(), /building the SUT jar/);
    assert.equal(existsSync(join(tmp, 'runs')) && readdirSync(join(tmp, 'runs')).length > 0, false, 'no run folder left behind');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('--resume of a target run (the committed PetClinic run) says how a target run is continued, not a format version', async () => {
  const r = await run(['--resume', 'runs/20261202-193048-target-petclinic']);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /--resume: .*20261202-193048-target-petclinic is a run of `target` \(your own service\), not a study's run\n  hint: continue it with the same target command and --run-id 20261202-193048-target-petclinic/);
});
