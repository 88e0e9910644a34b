/** The answer rules the studies' hooks share (src/studies/answer-common.ts): repeats that disagree, a bound exceeded, ratios and the verdict. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verdictOf as blockVerdict } from '../../src/report/answer.ts';
import { disagree, exceeded, pctOfBound, repeatsIfDisagree, rowRatio } from '../../src/studies/answer-common.ts';

test('repeats disagree above max / min − 1 = 10 %, and are then listed in repeat order', () => {
  assert.equal(disagree([100, 110]), false);
  assert.equal(disagree([100, 110.1]), true);
  assert.equal(disagree([154_913, 242_715]), true);
  assert.equal(disagree([100, null]), false, 'one value has nothing to disagree with');
  assert.deepEqual(repeatsIfDisagree([242_715, null, 154_913]), [242_715, null, 154_913]);
  assert.deepEqual(repeatsIfDisagree([100, 105]), []);
});

test('a rate exceeds its bound above × 1.02; a makespan below × 0.98', () => {
  assert.equal(exceeded(1801.73, 1621.06), true);
  assert.equal(exceeded(1653, 1621.06), false);
  assert.equal(exceeded(1654, 1621.06), true);
  assert.equal(exceeded(612_000, 625_000, true), true);
  assert.equal(exceeded(629_176, 625_000, true), false);
  assert.equal(exceeded(null, 1), false);
  assert.equal(pctOfBound(1801.73, 1621.06)!.toFixed(1), '111.1');
  assert.equal(pctOfBound(2500, 50, true), 2);
});

test('ratio: candidate ÷ baseline (baseline ÷ candidate for a makespan); per repeat when they disagree', () => {
  const base = { median: 100, values: [100, 100] };
  assert.deepEqual(rowRatio(base, { median: 150, values: [145, 155] }), { ratio: 1.5, ratioRepeats: [] });
  assert.deepEqual(rowRatio(base, { median: 150, values: [100, 200] }), { ratio: 1.5, ratioRepeats: [1, 2] });
  assert.deepEqual(rowRatio({ median: 600, values: [600] }, { median: 3, values: [3] }, true), { ratio: 200, ratioRepeats: [] });
  assert.equal(rowRatio(base, { median: null, values: [null] }).ratio, null);
});

test('verdict: faster, slower, same within ±5 %, mixed, none', () => {
  assert.deepEqual(blockVerdict([{ ratio: 1.2 }, { ratio: 1.06 }]), { verdict: 'faster', ratioRange: [1.06, 1.2] });
  assert.equal(blockVerdict([{ ratio: 1.2 }, { ratio: 1.04 }]).verdict, 'depends');
  assert.equal(blockVerdict([{ ratio: 0.9 }, { ratio: 0.5 }]).verdict, 'slower');
  assert.equal(blockVerdict([{ ratio: 0.96 }, { ratio: 1.04 }, { ratio: null }]).verdict, 'same');
  assert.equal(blockVerdict([{ ratio: 1.26 }, { ratio: 0.79 }]).verdict, 'depends');
  assert.deepEqual(blockVerdict([{ ratio: null }]), { verdict: 'none', ratioRange: null });
});
