import { test } from 'node:test';
import assert from 'node:assert/strict';
import { holds, isCompareRule, parseRuleText, readThresholds, ruleText, show, unitOf } from '../../src/report/thresholds/rules.ts';
import { EXIT, VtbenchError } from '../../src/types/errors.ts';

const HINT = 'see thresholds.example.json and docs/compare-and-thresholds.md, section "Thresholds", for the rule forms';
const NOT_A_RULE = 'is not a rule: a text rule, a run rule {cell, metric, op, value[, of]} or a compare rule {compare: "not-slower", metric[, cell]}';
/** readThresholds(doc) must throw a usage VtbenchError with exactly this message after the file name. */
const refuses = (doc: unknown, what: string) =>
  assert.throws(() => readThresholds(doc, 'f.json'), (e: unknown) => {
    assert.ok(e instanceof VtbenchError, String(e));
    assert.equal(e.message, `--thresholds f.json: ${what}`);
    assert.equal(e.hint, HINT);
    assert.equal(e.exitCode, EXIT.usage);
    return true;
  });

test('unitOf and isCompareRule', () => {
  assert.deepEqual(['throughput', 'e2e_p50', 'e2e_p95', 'e2e_p99', 'error_rate'].map((m) => unitOf(m as never)), ['req/s', 'ms', 'ms', 'ms', '']);
  assert.equal(isCompareRule({ compare: 'not-slower', metric: 'throughput' }), true);
  assert.equal(isCompareRule({ cell: '*@*', metric: 'throughput', op: '>=', value: 1 }), false);
});

test('holds: each operator at, below and above the limit; show: the value with its unit and decimals', () => {
  const at = (op: '>=' | '<=' | '>' | '<') => [holds(1, op, 2), holds(2, op, 2), holds(3, op, 2)];
  assert.deepEqual(at('>='), [false, true, true]);
  assert.deepEqual(at('<='), [true, true, false]);
  assert.deepEqual(at('>'), [false, false, true]);
  assert.deepEqual(at('<'), [true, false, false]);
  assert.deepEqual([show(1.23456, 'throughput'), show(1.23456, 'e2e_p95'), show(0.123456, 'error_rate'), show(2, 'e2e_p50')], ['1.23 req/s', '1.23 ms', '0.1235', '2 ms']);
});

test('ruleText: the short form of each kind of rule', () => {
  assert.equal(ruleText({ cell: 'a@1', metric: 'throughput', op: '>=', value: 20 }), 'a@1: throughput >= 20 req/s');
  assert.equal(ruleText({ cell: 'a@1', metric: 'e2e_p95', op: '<=', value: 100 }), 'a@1: e2e_p95 <= 100ms');
  assert.equal(ruleText({ cell: '*@*', metric: 'error_rate', op: '<', value: 0.01 }), '*@*: error_rate < 0.01');
  assert.equal(ruleText({ cell: 'a@*', metric: 'throughput', op: '>', value: 0.97, of: 'bound' }), 'a@*: throughput > 0.97 * bound');
  assert.equal(ruleText({ compare: 'not-slower', metric: 'e2e_p99' }), 'compare: e2e_p99 not slower than baseline');
  assert.equal(ruleText({ compare: 'not-slower', metric: 'e2e_p99', cell: '*@*' }), 'compare: e2e_p99 not slower than baseline');
  assert.equal(ruleText({ compare: 'not-slower', metric: 'e2e_p99', cell: 'a@5' }), 'compare a@5: e2e_p99 not slower than baseline');
  // a windowed rule: the window after ' over '; the text form reads back to the same rule
  const w = { cell: 'a@1', metric: 'e2e_p95', op: '<=', value: 100, window: 'last:10s' } as const;
  assert.equal(ruleText(w), 'a@1: e2e_p95 <= 100ms over last:10s');
  assert.deepEqual(parseRuleText(ruleText(w)), { rule: w });
  assert.deepEqual(parseRuleText('a@1: throughput >= 0.5 * bound  over  every:5s '), { rule: { cell: 'a@1', metric: 'throughput', op: '>=', value: 0.5, of: 'bound', window: 'every:5s' } });
});

test('parseRuleText: compare rules, with and without a cell', () => {
  assert.deepEqual(parseRuleText('compare: e2e_p95 not slower than baseline'), { rule: { compare: 'not-slower', metric: 'e2e_p95' } });
  assert.deepEqual(parseRuleText('  compare  fixed@500 :  throughput  not  slower  than  baseline  '), { rule: { compare: 'not-slower', metric: 'throughput', cell: 'fixed@500' } });
  assert.deepEqual(parseRuleText('compare *@*: throughput not slower than baseline'), { rule: { compare: 'not-slower', metric: 'throughput', cell: '*@*' } });
});

test('parseRuleText: run rules — every operator, number forms, units and the bound factor', () => {
  assert.deepEqual(parseRuleText('fixed@500: e2e_p95 <= 25000ms'), { rule: { cell: 'fixed@500', metric: 'e2e_p95', op: '<=', value: 25000 } });
  assert.deepEqual(parseRuleText('  v.1_x-y@12 :throughput>=20 req/s  '), { rule: { cell: 'v.1_x-y@12', metric: 'throughput', op: '>=', value: 20 } });
  assert.deepEqual(parseRuleText('*@*: error_rate < 0.01'), { rule: { cell: '*@*', metric: 'error_rate', op: '<', value: 0.01 } });
  assert.deepEqual(parseRuleText('a@1: throughput > 1.5e3'), { rule: { cell: 'a@1', metric: 'throughput', op: '>', value: 1500 } });
  assert.deepEqual(parseRuleText('a@1: e2e_p50 >= -.5'), { rule: { cell: 'a@1', metric: 'e2e_p50', op: '>=', value: -0.5 } });
  assert.deepEqual(parseRuleText('a@1: e2e_p50 >= +3.'), { rule: { cell: 'a@1', metric: 'e2e_p50', op: '>=', value: 3 } });
  assert.deepEqual(parseRuleText('virtual@500: throughput >= 0.97 * bound'), { rule: { cell: 'virtual@500', metric: 'throughput', op: '>=', value: 0.97, of: 'bound' } });
  assert.deepEqual(parseRuleText('virtual@500: throughput >= 0.97*bound'), { rule: { cell: 'virtual@500', metric: 'throughput', op: '>=', value: 0.97, of: 'bound' } });
  // an unknown metric parses (the schema check that follows names it)
  assert.deepEqual(parseRuleText('a@1: foo >= 5ms'), { rule: { cell: 'a@1', metric: 'foo', op: '>=', value: 5 } });
});

test('parseRuleText: a unit that is not the metric\'s is refused, never converted; neither form is refused', () => {
  assert.deepEqual(parseRuleText('a@1: throughput >= 5ms'), { problem: 'throughput is in req/s, not ms' });
  assert.deepEqual(parseRuleText('a@1: e2e_p50 <= 5 req/s'), { problem: 'e2e_p50 is in ms, not req/s' });
  assert.deepEqual(parseRuleText('a@1: error_rate <= 0.1ms'), { problem: 'error_rate is in no unit (a fraction 0..1), not ms' });
  const neither = "has neither form '<variant>@<level>: <metric> <op> <number>[ms|req/s| * bound][ over <window>]' nor 'compare[ <variant>@<level>]: <metric> not slower than baseline'";
  for (const t of ['nonsense', 'a@0: throughput >= 1', 'a: throughput >= 1', 'a@1: throughput = 1', 'a@1: throughput >= x', 'a@1: throughput >= 1 s', 'compare: throughput faster than baseline', 'a@1 throughput >= 1']) {
    assert.deepEqual(parseRuleText(t), { problem: neither }, t);
  }
});

test('readThresholds: the example file — text rules trimmed, structured rules shown in their short form', () => {
  const t = readThresholds({
    $schema: './schema/thresholds.schema.json',
    description: 'x',
    rules: [
      ' virtual@500: throughput >= 0.97 * bound ',
      'fixed@500: e2e_p95 <= 25000ms',
      { cell: '*@*', metric: 'error_rate', op: '<=', value: 0 },
      'compare: e2e_p95 not slower than baseline',
      { compare: 'not-slower', metric: 'throughput', cell: 'a@2' },
      { cell: 'a@1', metric: 'throughput', op: '>=', value: 0.9, of: 'bound' },
      '  a@1:e2e_p50<=5  ',
    ],
  }, 'f.json');
  assert.equal(t.file, 'f.json');
  assert.deepEqual(t.rules, [
    { index: 0, text: 'virtual@500: throughput >= 0.97 * bound', rule: { cell: 'virtual@500', metric: 'throughput', op: '>=', value: 0.97, of: 'bound' } },
    { index: 1, text: 'fixed@500: e2e_p95 <= 25000ms', rule: { cell: 'fixed@500', metric: 'e2e_p95', op: '<=', value: 25000 } },
    { index: 2, text: '*@*: error_rate <= 0', rule: { cell: '*@*', metric: 'error_rate', op: '<=', value: 0 } },
    { index: 3, text: 'compare: e2e_p95 not slower than baseline', rule: { compare: 'not-slower', metric: 'e2e_p95' } },
    { index: 4, text: 'compare a@2: throughput not slower than baseline', rule: { compare: 'not-slower', metric: 'throughput', cell: 'a@2' } },
    { index: 5, text: 'a@1: throughput >= 0.9 * bound', rule: { cell: 'a@1', metric: 'throughput', op: '>=', value: 0.9, of: 'bound' } },
    // a text rule is shown as written (trimmed), not re-rendered ('a@1: e2e_p50 <= 5ms')
    { index: 6, text: 'a@1:e2e_p50<=5', rule: { cell: 'a@1', metric: 'e2e_p50', op: '<=', value: 5 } },
  ]);
});

test('readThresholds: a document that is not one — the schema\'s words, with the extra property named', () => {
  refuses(5, '/ must be object');
  refuses({}, "/ must have required property 'rules'");
  refuses({ rules: [] }, '/rules must NOT have fewer than 1 items');
  refuses({ rules: ['a@1: throughput >= 5'], extra: 1 }, '/ must NOT have additional properties (extra)');
});

test('readThresholds: a rule that is no rule at all, each named by its index', () => {
  refuses({ rules: [5] }, `rules/0 5 ${NOT_A_RULE}`);
  refuses({ rules: ['a@1: throughput >= 1', null, [1]] }, `rules/1 null ${NOT_A_RULE}; rules/2 [1] ${NOT_A_RULE}`);
  refuses({ rules: [''] }, `rules/0 "" ${NOT_A_RULE}`);
});

test('readThresholds: a structured rule checked against the form it was meant to be, with the allowed values', () => {
  refuses({ rules: [{ cell: 'a@1', metric: 'foo', op: '>=', value: 1 }] },
    'rules/0/metric must be equal to one of the allowed values (throughput, e2e_p50, e2e_p95, e2e_p99, error_rate) in the run rule {"cell":"a@1","metric":"foo","op":">=","value":1}');
  refuses({ rules: [{ cell: 'a@1', metric: 'throughput', op: '>=', value: 1, foo: 2 }] },
    'rules/0 must NOT have additional properties (foo) in the run rule {"cell":"a@1","metric":"throughput","op":">=","value":1,"foo":2}');
  refuses({ rules: [{ cell: 'a@1', metric: 'throughput', op: '>=' }] },
    'rules/0 must have required property \'value\' in the run rule {"cell":"a@1","metric":"throughput","op":">="}');
  refuses({ rules: ['a@1: throughput >= 1', { compare: 'faster', metric: 'throughput' }] },
    'rules/1/compare must be equal to constant ("not-slower") in the compare rule {"compare":"faster","metric":"throughput"}');
  refuses({ rules: [{ compare: 'not-slower', metric: 'throughput', cell: 'bad' }] },
    'rules/0/cell must match pattern "^([A-Za-z0-9._-]+|\\*)@([1-9][0-9]*|\\*)$" in the compare rule {"compare":"not-slower","metric":"throughput","cell":"bad"}');
});

test('readThresholds: text rules — neither form, a unit mismatch, an unknown metric', () => {
  refuses({ rules: ['nonsense'] },
    "rules/0 \"nonsense\" has neither form '<variant>@<level>: <metric> <op> <number>[ms|req/s| * bound][ over <window>]' nor 'compare[ <variant>@<level>]: <metric> not slower than baseline'");
  refuses({ rules: ['a@1: throughput >= 1', 'a@1: throughput >= 5ms'] }, 'rules/1 "a@1: throughput >= 5ms" throughput is in req/s, not ms');
  const unknown = '(run rules: throughput, e2e_p50, e2e_p95, e2e_p99, error_rate; compare rules: throughput, e2e_p50, e2e_p95, e2e_p99)';
  refuses({ rules: ['a@1: foo >= 1'] }, `rules/0 "a@1: foo >= 1": unknown metric 'foo' ${unknown}`);
  refuses({ rules: ['compare: error_rate not slower than baseline'] }, `rules/0 "compare: error_rate not slower than baseline": unknown metric 'error_rate' ${unknown}`);
});

test("readThresholds: '* bound' applies to throughput only, in either form", () => {
  const what = (i: number) => `rules/${i}: '* bound' (of: "bound") applies to throughput only, not e2e_p95`;
  refuses({ rules: ['a@1: e2e_p95 <= 5 * bound'] }, what(0));
  refuses({ rules: ['a@1: throughput >= 1', { cell: 'a@1', metric: 'e2e_p95', op: '<=', value: 1, of: 'bound' }] }, what(1));
});
