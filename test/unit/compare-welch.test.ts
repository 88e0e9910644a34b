import { test } from 'node:test';
import assert from 'node:assert/strict';
import { welch } from '../../src/compute/stats/welch.ts';
import { tQuantile, tTwoSidedP } from '../../src/compute/stats/tdist.ts';

const close = (actual: number | null, expected: number, rel: number, what: string) =>
  assert.ok(actual !== null && Math.abs(actual - expected) <= rel * Math.max(1, Math.abs(expected)), `${what}: ${actual} vs ${expected}`);

test('n < 2 on either side, or both, is "not computable" with the reason — never an exception', () => {
  assert.deepEqual(welch([5], [1, 2, 3]), { computable: false, reason: 'needs at least 2 values per run (A has n = 1)' });
  assert.deepEqual(welch([1, 2, 3], [5]), { computable: false, reason: 'needs at least 2 values per run (B has n = 1)' });
  assert.deepEqual(welch([1, 2, 3], []), { computable: false, reason: 'needs at least 2 values per run (B has n = 0)' });
  // n = 2 is enough: only the short side is named
  assert.deepEqual(welch([1, 2], [5]), { computable: false, reason: 'needs at least 2 values per run (B has n = 1)' });
  assert.deepEqual(welch([5], [1, 2]), { computable: false, reason: 'needs at least 2 values per run (A has n = 1)' });
  assert.deepEqual(welch([], [1]), { computable: false, reason: 'needs at least 2 values per run (A has n = 0, B has n = 1)' });
});

test('worked by hand: A = 1, 2, 3 and B = 2, 4, 6', () => {
  // mean A 2, var A 1; mean B 4, var B 4; diff = 4 − 2 = 2 (B − A)
  // va = 1/3, vb = 4/3, se = √(5/3); df = (5/3)² / ((1/3)²/2 + (4/3)²/2) = (25/9) / (17/18) = 50/17
  // t = 2 / √(5/3) = 1.5491933384829668
  const w = welch([1, 2, 3], [2, 4, 6]);
  assert.ok(w.computable);
  assert.equal(w.diff, 2);
  close(w.se, Math.sqrt(5 / 3), 1e-15, 'se');
  close(w.df, 50 / 17, 1e-14, 'df');
  close(w.t, 2 / Math.sqrt(5 / 3), 1e-15, 't');
  close(w.p, tTwoSidedP(2 / Math.sqrt(5 / 3), 50 / 17), 1e-15, 'p');
  const q = tQuantile(0.975, 50 / 17);
  close(w.ci[0], 2 - q * Math.sqrt(5 / 3), 1e-14, 'ci low');
  close(w.ci[1], 2 + q * Math.sqrt(5 / 3), 1e-14, 'ci high');
  // the interval contains 0 (p > 0.05)
  assert.ok(w.ci[0] < 0 && w.ci[1] > 0 && w.p > 0.05);
});

test('the variance is taken about the mean (two passes): values near 1e8 with a spread of a few units lose nothing', () => {
  // A = 1e8 + (1, 2, 4), B = 1e8 + (2, 4, 6) (e.g. nanoseconds): var A = 7/3, var B = 4, so se = √(7/9 + 4/3) = √(19/9)
  // and diff = 4 − 7/3 = 5/3, as without the offset. mean A = 100000002.333… is rounded, so Σ(x − x̄) is not 0
  // in floating point: a sum of (x + x̄)(x − x̄) (= Σx² − n·x̄² in exact arithmetic) gives 7.65 for A's 14/3
  const w = welch([1e8 + 1, 1e8 + 2, 1e8 + 4], [1e8 + 2, 1e8 + 4, 1e8 + 6]);
  assert.ok(w.computable);
  close(w.diff, 5 / 3, 1e-8, 'diff');
  close(w.se, Math.sqrt(19 / 9), 1e-9, 'se');
  const unshifted = welch([1, 2, 4], [2, 4, 6]);
  assert.ok(unshifted.computable);
  close(unshifted.se, Math.sqrt(19 / 9), 1e-15, 'se without the offset');
  close(w.df, unshifted.df!, 1e-8, 'df');
});

test('B smaller than A gives a negative difference; the confidence level is a parameter', () => {
  const w = welch([2, 4, 6], [1, 2, 3], 0.9);
  assert.ok(w.computable);
  assert.equal(w.diff, -2);
  close(w.t, -2 / Math.sqrt(5 / 3), 1e-15, 't');
  // 90 %: the 0.95 quantile of t(50/17)
  const q = tQuantile(0.95, 50 / 17);
  close(w.ci[0], -2 - q * Math.sqrt(5 / 3), 1e-14, 'ci low');
  close(w.ci[1], -2 + q * Math.sqrt(5 / 3), 1e-14, 'ci high');
});

test("scipy's ttest_ind(b, a, equal_var=False) (golden values of test/unit/compare-stats.test.ts), unequal n", () => {
  const w = welch([10, 12], [30, 31, 29, 35, 40]);
  assert.ok(w.computable);
  close(w.t, 9.74176374094105, 1e-9, 't');
  close(w.df, 4.999519461797213, 1e-9, 'df');
  close(w.p, 0.0001938763633216873, 1e-10, 'p');
  close(w.ci[0], 16.1946410469886, 1e-9, 'ci low');
  close(w.ci[1], 27.8053589530114, 1e-9, 'ci high');
});

test('no spread on either side: exact difference, point interval, no df or t; p 1 when equal, 0 when not', () => {
  assert.deepEqual(welch([3, 3], [3, 3, 3]), { computable: true, diff: 0, ci: [0, 0], se: 0, df: null, t: null, p: 1 });
  assert.deepEqual(welch([3, 3], [4.5, 4.5]), { computable: true, diff: 1.5, ci: [1.5, 1.5], se: 0, df: null, t: null, p: 0 });
});

test('spread on one side only: df = n − 1 of that side', () => {
  // A constant: va = 0, df = vb² / (vb² / (nB − 1)) = nB − 1 = 2; B = 2, 4, 6: se = √(4/3), t = 2 / √(4/3)
  const w = welch([2, 2], [2, 4, 6]);
  assert.ok(w.computable);
  close(w.df, 2, 1e-15, 'df');
  close(w.se, Math.sqrt(4 / 3), 1e-15, 'se');
  // t(2) quantile in closed form: 0.95 / √(2 · 0.975 · 0.025)
  const q = 0.95 / Math.sqrt(2 * 0.975 * 0.025);
  close(w.ci[1], 2 + q * Math.sqrt(4 / 3), 1e-12, 'ci high');
});
