/**
 * Threshold rules (src/report/thresholds/): the text form, the schema checks with their messages, the
 * outcome against the committed seed-000 run, and the exit codes of `report --thresholds` and
 * `compare --thresholds` through the real entry point (exit 9 = a broken rule, 2 = a bad file).
 */
import { loadRun } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRuleText, readThresholds, loadThresholds, ruleText } from '../../src/report/thresholds/rules.ts';
import { checkRun, cellMatches, formatOutcome } from '../../src/report/thresholds/check.ts';

import { main, type Io, type MainDeps } from '../../src/cli/main.ts';
import { EXIT, VtbenchError } from '../../src/types/errors.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COMMITTED = join(ROOT, 'runs/20261130-100102-seed-000');
const EXAMPLE = join(ROOT, 'thresholds.example.json');

function capture(): { io: Io; text: () => string } {
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; }, isTTY: false } as unknown as NodeJS.WriteStream;
  return { io: { stdout: sink, stderr: sink }, text: () => out };
}

test('the text form: run rules with a unit or a factor of the bound, compare rules with and without a cell', () => {
  assert.deepEqual(parseRuleText('virtual@500: throughput >= 0.97 * bound'), { rule: { cell: 'virtual@500', metric: 'throughput', op: '>=', value: 0.97, of: 'bound' } });
  assert.deepEqual(parseRuleText('fixed@500: e2e_p95 <= 25000ms'), { rule: { cell: 'fixed@500', metric: 'e2e_p95', op: '<=', value: 25000 } });
  assert.deepEqual(parseRuleText(' *@* : throughput > 1e1 req/s '), { rule: { cell: '*@*', metric: 'throughput', op: '>', value: 10 } });
  assert.deepEqual(parseRuleText('compare: e2e_p95 not slower than baseline'), { rule: { compare: 'not-slower', metric: 'e2e_p95' } });
  assert.deepEqual(parseRuleText('compare fixed@*: throughput not slower than baseline'), { rule: { compare: 'not-slower', metric: 'throughput', cell: 'fixed@*' } });
  assert.ok('problem' in parseRuleText('fixed@500: e2e_p95 <= 3 req/s'));
  assert.ok('problem' in parseRuleText('fixed: e2e_p95 <= 3ms'));
  assert.equal(ruleText({ cell: 'v@5', metric: 'throughput', op: '>=', value: 0.9, of: 'bound' }), 'v@5: throughput >= 0.9 * bound');
  assert.equal(ruleText({ compare: 'not-slower', metric: 'e2e_p99' }), 'compare: e2e_p99 not slower than baseline');
  assert.ok(cellMatches('*@500', 'fixed', 500) && cellMatches('fixed@*', 'fixed', 10) && !cellMatches('fixed@50', 'fixed', 500) && !cellMatches('virtual@*', 'fixed', 10));
});

test('a bad thresholds file is refused with exit 2, naming the file, the rule and what is wrong', () => {
  const cases: [unknown, RegExp][] = [
    [{ rules: [] }, /f\.json: \/rules must NOT have fewer than 1 items/],
    [{ rules: ['x'], extra: 1 }, /\/ must NOT have additional properties \(extra\)/],
    [{ rules: [{ cell: 'x@1', metric: 'e2e_p95', op: '=<', value: 1 }] }, /rules\/0\/op must be equal to one of the allowed values \(>=, <=, >, <\) in the run rule/],
    [{ rules: [{ cell: 'fixed@500', metric: 'e2e_p95', op: '<=' }] }, /rules\/0 must have required property 'value' in the run rule/],
    [{ rules: ['ok@1: e2e_p95 <= 1ms', { compare: 'not-slower', metric: 'e2e_p95', cel: '*@*' }] }, /rules\/1 must NOT have additional properties \(cel\) in the compare rule/],
    [{ rules: [5] }, /rules\/0 5 is not a rule/],
    [{ rules: ['fixed@500: e2e_p90 <= 3ms'] }, /rules\/0 "fixed@500: e2e_p90 <= 3ms": unknown metric 'e2e_p90'/],
    [{ rules: ['fixed@500: e2e_p95 <= 3 req/s'] }, /rules\/0 .*e2e_p95 is in ms, not req\/s/],
    [{ rules: ['fixed@500: e2e_p95 <= 3 * bound'] }, /rules\/0: '\* bound' \(of: "bound"\) applies to throughput only/],
    [{ rules: ['fixed@500 e2e_p95 <= 3ms'] }, /rules\/0 .* has neither form/],
  ];
  for (const [doc, re] of cases) {
    assert.throws(() => readThresholds(doc, 'f.json'), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && re.test(e.message) && /thresholds\.example\.json/.test(e.hint), `${JSON.stringify(doc)} → ${re}`);
  }
  assert.throws(() => loadThresholds('/nonexistent/t.json'), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && /cannot read it \(ENOENT\)/.test(e.message));
  assert.throws(() => loadThresholds('t.yaml'), (e: unknown) => e instanceof VtbenchError && /YAML is not read/.test(e.message));
});

test('run rules against the committed run: median of the repeats against the limit, every broken check named with cell, measured value and limit', async () => {
  const run = await loadRun(COMMITTED);
  const t = readThresholds({ rules: [
    'virtual@500: throughput >= 0.97 * bound', // 328.67 ≥ 323.33: holds
    'virtual@500: throughput >= 0.99 * bound', // 328.67 < 330: broken
    'fixed@*: e2e_p95 <= 20000ms', // only fixed@500 (24,061.4 ms) breaks
    { cell: '*@*', metric: 'error_rate', op: '<=', value: 0 },
    'nosuch@10: e2e_p50 < 1ms',
    'compare: e2e_p95 not slower than baseline',
  ] }, 'rules.json');
  const o = checkRun(t, run);
  const by = (i: number) => o.filter((x) => x.index === i);
  assert.deepEqual(by(0).map((x) => [x.cell, x.status]), [['virtual@500', 'held']]);
  assert.equal(by(0)[0]!.measured, 328.67169503684045);
  assert.ok(Math.abs(by(0)[0]!.limit! - 0.97 * 1000 / 3) < 1e-9);
  assert.deepEqual(by(1).map((x) => [x.cell, x.status]), [['virtual@500', 'broken']]);
  assert.deepEqual(by(2).map((x) => `${x.cell}:${x.status}`), ['fixed@10:held', 'fixed@50:held', 'fixed@100:held', 'fixed@200:held', 'fixed@500:broken']);
  assert.equal(by(3).length, 10);
  assert.ok(by(3).every((x) => x.status === 'held' && x.measured === 0));
  assert.deepEqual(by(4).map((x) => [x.cell, x.status]), [[null, 'broken']]);
  assert.deepEqual(by(5).map((x) => x.status), ['not checked']);
  const text = formatOutcome(t, o);
  assert.match(text, /threshold broken: rules\/1 "virtual@500: throughput >= 0.99 \* bound": virtual@500: measured 328.67 req\/s \(median of 3 repeat\(s\)\), limit >= 330 req\/s \(0.99 × bound 333.33 req\/s\)/);
  assert.match(text, /threshold broken: rules\/2 "fixed@\*: e2e_p95 <= 20000ms": fixed@500: measured 24061.42 ms .*limit <= 20000 ms/);
  assert.match(text, /threshold broken: rules\/4 "nosuch@10: e2e_p50 < 1ms": matches no cell of run 20261130-100102-seed-000 \(it has fixed@10, /);
  assert.match(text, /thresholds rules\.json: 15 of 18 check\(s\) held, 3 broken, 1 rule\(s\) not checked here\n$/);
});

test('report --thresholds: the example file holds for the committed run (exit 0); a broken rule exits 9 after the report is written; a bad file exits 2 before it', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-thr-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  let reported = 0;
  const deps = { report: async () => { reported++; return { outDir: join(tmp, 'r'), gaps: [] }; } } as unknown as MainDeps;
  let c = capture();
  assert.equal(await main(['report', COMMITTED, '--report-dir', tmp, '--thresholds', EXAMPLE], c.io, deps), EXIT.ok, c.text());
  assert.match(c.text(), /thresholds .*thresholds\.example\.json: 12 of 12 check\(s\) held, 1 rule\(s\) not checked here/);
  assert.equal(reported, 1);

  const strict = join(tmp, 'strict.json');
  writeFileSync(strict, JSON.stringify({ rules: ['fixed@500: e2e_p95 <= 20000ms'] }));
  c = capture();
  assert.equal(await main(['report', COMMITTED, '--report-dir', tmp, '--thresholds', strict], c.io, deps), EXIT.thresholds, c.text());
  assert.equal(EXIT.thresholds, 9);
  assert.equal(reported, 2, 'the report was written before the rule failed the command');
  assert.match(c.text(), /threshold broken: rules\/0 "fixed@500: e2e_p95 <= 20000ms": fixed@500: measured 24061.42 ms/);
  assert.match(c.text(), /error: 1 threshold check\(s\) of .*strict\.json broken/);

  const bad = join(tmp, 'bad.json');
  writeFileSync(bad, '{"rules": [');
  c = capture();
  assert.equal(await main(['report', COMMITTED, '--report-dir', tmp, '--thresholds', bad], c.io, deps), EXIT.usage, c.text());
  assert.match(c.text(), /error: --thresholds .*bad\.json: not valid JSON/);
  assert.equal(reported, 2, 'nothing rendered for a bad thresholds file');
});

test('the docs document exit code 9 (docs/exit-codes.md) and the example file docs/compare-and-thresholds.md shows is the committed one', () => {
  const exitCodes = readFileSync(join(ROOT, 'docs/exit-codes.md'), 'utf8');
  assert.match(exitCodes, /\| 9 \| a `--thresholds` rule is broken/);
  const doc = readFileSync(join(ROOT, 'docs/compare-and-thresholds.md'), 'utf8');
  const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { rules: unknown[] };
  const shown = /## Thresholds[\s\S]*?```json\n([\s\S]*?)```/.exec(doc);
  assert.ok(shown);
  assert.deepEqual((JSON.parse(shown[1]!) as { rules: unknown[] }).rules, example.rules);
});
