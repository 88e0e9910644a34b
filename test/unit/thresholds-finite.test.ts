/**
 * Issue 34, defect 9: a threshold limit of `1e400` reads as Infinity, and a rule with an infinite
 * limit can never break. Non-finite limits are refused (exit 2, naming the rule), in the text form
 * and in the structured form (JSON `1e400` parses to Infinity too).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readThresholds } from '../../src/report/thresholds/rules.ts';
import { EXIT, VtbenchError } from '../../src/types/errors.ts';

const refused = (doc: unknown, re: RegExp) => assert.throws(() => readThresholds(doc, 't.json'), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && re.test(e.message), JSON.stringify(doc));

test('a limit of 1e400 (Infinity) is refused in the text form, naming the rule', () => {
  refused({ rules: ['fixed@*: e2e_p95 <= 1e400ms'] }, /rules\/0 .*1e400.*not a finite number/);
  refused({ rules: ['*@*: throughput >= -1e999 req/s'] }, /rules\/0 .*not a finite number/);
});

test('a structured limit that JSON reads as Infinity is refused too', () => {
  refused(JSON.parse('{"rules":[{"cell":"*@*","metric":"e2e_p99","op":"<=","value":1e400}]}'), /rules\/0 .*not a finite number/);
});

test('finite limits, large or small, are taken', () => {
  const t = readThresholds({ rules: ['fixed@*: e2e_p95 <= 1e300ms', { cell: '*@*', metric: 'error_rate', op: '<=', value: 0 }] }, 't.json');
  assert.equal(t.rules.length, 2);
});
