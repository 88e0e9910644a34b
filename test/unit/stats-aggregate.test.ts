import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregate, countsDelta } from '../../src/compute/stats/aggregate.ts';

test('aggregate: odd n — the middle value of the numerically sorted values; min, max, n, values in repeat order', () => {
  // finite values 10, 9, 2, 100, 7 → sorted 2, 7, 9, 10, 100 (a string sort would give 10, 100, 2, 7, 9)
  const input = [10, 9, 2, 100, 7];
  const r = aggregate(input);
  assert.deepEqual(r, { median: 9, min: 2, max: 100, n: 5, values: [10, 9, 2, 100, 7] });
  assert.notEqual(r.values, input, 'values is a copy');
  assert.deepEqual(input, [10, 9, 2, 100, 7], 'the input is not sorted in place');
});

test('aggregate: even n — the mean of the two middle values', () => {
  // 10, 9, 2, 100 → sorted 2, 9, 10, 100: median (9 + 10) / 2 = 9.5, max 100
  assert.deepEqual(aggregate([10, 9, 2, 100]), { median: 9.5, min: 2, max: 100, n: 4, values: [10, 9, 2, 100] });
  // two values: (3 + 5) / 2 = 4
  assert.deepEqual(aggregate([5, 3]), { median: 4, min: 3, max: 5, n: 2, values: [5, 3] });
});

test('aggregate: null and non-finite values are left out of n but kept in values', () => {
  // finite: 4, 1, 3 → median 3
  assert.deepEqual(aggregate([4, null, 1, Number.NaN, 3, Infinity, -Infinity]), {
    median: 3, min: 1, max: 4, n: 3, values: [4, null, 1, Number.NaN, 3, Infinity, -Infinity],
  });
  // one value: it is median, min and max
  assert.deepEqual(aggregate([null, 7]), { median: 7, min: 7, max: 7, n: 1, values: [null, 7] });
});

test('aggregate: n = 0 gives null median, min and max', () => {
  assert.deepEqual(aggregate([]), { median: null, min: null, max: null, n: 0, values: [] });
  assert.deepEqual(aggregate([null, Number.NaN]), { median: null, min: null, max: null, n: 0, values: [null, Number.NaN] });
});

test('countsDelta: after − before per key, an absent key counts from 0, only keys that grew', () => {
  // a: 4 − 1 = 3; b: 5 − 5 = 0 (dropped); c: 2 − 0 = 2; d: 0 − 0 (dropped); e: 1 − 3 < 0 (dropped)
  assert.deepEqual(countsDelta({ a: 1, b: 5, e: 3 }, { a: 4, b: 5, c: 2, d: 0, e: 1 }), { a: 3, c: 2 });
  assert.deepEqual(countsDelta({}, {}), {});
});
