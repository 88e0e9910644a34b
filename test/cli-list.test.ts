/**
 * `run.mjs list`: every study's profiles with the plan a run would make (cells, requests,
 * theoretical duration), as text and as one JSON line; figures come from makePlan, not from text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { main, type Io, type MainDeps } from '../src/cli/main.ts';
import { PROFILES, resolveOptions } from '../src/config/profiles.ts';
import { makePlan, formatDuration } from '../src/config/plan.ts';

async function run(argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } } as unknown as NodeJS.WriteStream;
  const io: Io = { stdout: sink, stderr: sink };
  const code = await main(argv, io, {} as MainDeps);
  return { code, out };
}

test('list prints each profile with the planned cells, requests and duration of its plan', async () => {
  const { code, out } = await run(['list']);
  assert.equal(code, 0);
  for (const p of PROFILES) {
    const plan = makePlan(resolveOptions(p.name, {}));
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
  const ev = JSON.parse(out.trim()) as { type: string; profiles: { profile: string; cells: number; requests: number; plannedS: number; isDefault: boolean }[] };
  assert.equal(ev.type, 'list');
  assert.deepEqual(ev.profiles.map((x) => x.profile), PROFILES.map((p) => p.name));
  assert.equal(ev.profiles.filter((x) => x.isDefault).length, 1);
  for (const r of ev.profiles) {
    const plan = makePlan(resolveOptions(r.profile, {}));
    assert.deepEqual([r.cells, r.requests, r.plannedS], [plan.cells.length, plan.totalRequests, plan.theoreticalS]);
  }
});
