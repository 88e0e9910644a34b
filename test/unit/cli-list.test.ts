/**
 * `run.mjs list`: every study's profiles with the plan a run would make (cells, requests,
 * theoretical duration), as text and as one JSON line; figures come from makePlan, not from text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { main, type Io, type MainDeps } from '../../src/cli/main.ts';
import { resolveOptions } from '../../src/plan/profiles.ts';
import { STUDIES } from '../../src/studies/index.ts';
import type { Study } from '../../src/types/study.ts';
import { TOY_STUDY } from '../fixtures/toy-study/study.ts';
import { makePlan, formatDuration } from '../../src/plan/plan.ts';
import { START_COST_S } from '../../src/plan/starts.ts';

async function run(argv: string[], studies?: readonly Study[]): Promise<{ code: number; out: string }> {
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } } as unknown as NodeJS.WriteStream;
  const io: Io = { stdout: sink, stderr: sink };
  const code = await main(argv, io, (studies ? { studies } : {}) as MainDeps);
  return { code, out };
}

test('list prints each profile with the planned cells, requests and duration of its plan', async () => {
  const { code, out } = await run(['list']);
  assert.equal(code, 0);
  const st = STUDIES[0]!;
  for (const p of st.profiles) {
    const plan = makePlan(resolveOptions(st, p.name, {}), st);
    const line = out.split('\n').find((l) => l.trimStart().startsWith(p.name));
    assert.ok(line, `a line for ${p.name}`);
    assert.match(line, new RegExp(`\\b${plan.cells.length}\\b`));
    assert.ok(line.includes(plan.totalRequests.toLocaleString('en-US')), `${p.name}: ${plan.totalRequests} requests`);
    assert.ok(line.includes(formatDuration(plan.theoreticalS)), `${p.name}: ${formatDuration(plan.theoreticalS)}`);
  }
  assert.match(out, /^study \S+: /m);
});

test('list --json gives one parseable line whose figures match the plans', async () => {
  const { code, out } = await run(['list', '--json']);
  assert.equal(code, 0);
  const ev = JSON.parse(out.trim()) as { type: string; profiles: { study: string; profile: string; cells: number; requests: number; plannedS: number; isDefault: boolean }[] };
  assert.equal(ev.type, 'list');
  assert.deepEqual(ev.profiles.map((x) => x.profile), STUDIES.flatMap((st) => st.profiles.map((p) => p.name)));
  assert.equal(ev.profiles.filter((x) => x.isDefault).length, STUDIES.length, 'one default per study');
  for (const r of ev.profiles) {
    const st = STUDIES.find((x) => x.id === r.study)!;
    const plan = makePlan(resolveOptions(st, r.profile, {}), st);
    assert.deepEqual([r.cells, r.requests, r.plannedS], [plan.cells.length, plan.totalRequests, plan.theoreticalS]);
  }
});

test('list covers every study it is given: a second study gets its own header and profile lines', async () => {
  const { code, out } = await run(['list'], [...STUDIES, TOY_STUDY]);
  assert.equal(code, 0, out);
  assert.match(out, /^study toy: toy: a platform pool of 2/m);
  const plan = makePlan(resolveOptions(TOY_STUDY, 'tiny', {}), TOY_STUDY);
  const line = out.split('\n').find((l) => l.trimStart().startsWith('tiny (default)'));
  assert.ok(line, out);
  assert.ok(line.includes(` ${plan.cells.length} `) && line.includes(formatDuration(plan.theoreticalS)), line);
  const json = await run(['list', '--json'], [...STUDIES, TOY_STUDY]);
  const ev = JSON.parse(json.out.trim()) as { profiles: { study: string; profile: string; isDefault: boolean }[] };
  assert.deepEqual(ev.profiles.filter((x) => x.study === 'toy'), [{ study: 'toy', profile: 'tiny', isDefault: true, description: TOY_STUDY.profiles[0]!.description, cells: plan.cells.length, requests: plan.totalRequests, plannedS: plan.theoreticalS, startsS: plan.blocks.length * START_COST_S.sutJvm }]);
});

test('--study: an unknown id is a usage error naming --study and the known ids; --help lists every study with its variants and profiles', async () => {
  const bad = await run(['--study', 'nope', '--dry-run'], [...STUDIES, TOY_STUDY]);
  assert.equal(bad.code, 2);
  assert.match(bad.out, /error: --study: unknown study 'nope'/);
  assert.ok(bad.out.includes(`use one of: ${[...STUDIES, TOY_STUDY].map((s) => s.id).join(', ')}`), bad.out);
  const wrongProfile = await run(['--study', 'toy', '--profile', STUDIES[0]!.profiles[0]!.name, '--dry-run'], [...STUDIES, TOY_STUDY]);
  assert.equal(wrongProfile.code, 2);
  assert.match(wrongProfile.out, /error: --profile: unknown profile .* of study toy\n  hint: use one of: tiny/);
  const wrongVariant = await run(['--study', 'toy', '--variants', 'pool-2,green', '--dry-run'], [...STUDIES, TOY_STUDY]);
  assert.equal(wrongVariant.code, 2);
  assert.match(wrongVariant.out, /error: --variants: unknown variant 'green' of study toy\n  hint: use one or more of: pool-2, vt/);
  const help = await run(['--help'], [...STUDIES, TOY_STUDY]);
  assert.equal(help.code, 0);
  assert.match(help.out, /--study <id>/);
  assert.match(help.out, /--variants <v1,v2>/);
  assert.match(help.out, /--scenario <id>/);
  assert.match(help.out, /--pool-size <N>[^\n]*\n(?:\s+[^-\s][^\n]*\n)*?[^\n]*each platform-pool\s+variant's own/);
  assert.match(help.out, /study toy: toy: a platform pool/);
  assert.match(help.out, /variants: pool-2 \(platform pool 2 threads, queue 100\), vt \(virtual thread per task\); scenarios: sleep/);
  assert.match(help.out, /tiny \(default\): levels 2,6/);
});
