import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pushAll } from '../../src/compute/stats/extremes.ts';

test('pushAll appends every element in order and returns the target itself', () => {
  const target = [0];
  const out = pushAll(target, [1, 2, 3]);
  assert.equal(out, target);
  assert.deepEqual(target, [0, 1, 2, 3]);
});

test('pushAll reads any array-like (a typed array) and an empty source leaves the target as it was', () => {
  assert.deepEqual(pushAll([9], new Float64Array([1.5, 2.5])), [9, 1.5, 2.5]);
  assert.deepEqual(pushAll([9], []), [9]);
});

test('pushAll has no argument limit: 300,000 elements, where push(...src) throws RangeError on Node 20', () => {
  const src = Array.from({ length: 300_000 }, (_, i) => i);
  const out = pushAll<number>([], src);
  assert.equal(out.length, 300_000);
  assert.equal(out[0], 0);
  assert.equal(out[299_999], 299_999);
});
