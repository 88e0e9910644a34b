import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PERCENTILE_DEFINITION, PERCENTILE_LEVELS, percentiles } from '../../src/compute/stats/percentiles.ts';

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${what}: ${actual} vs ${expected}`);

test('percentiles: type 7 on five values given out of order, worked by hand', () => {
  // sorted 10, 20, 30, 40, 50; h = (n − 1) p = 4p
  // p50: h = 2 → 30; p90: h = 3.6 → 40 + 0.6·10 = 46; p95: h = 3.8 → 48; p99: h = 3.96 → 49.6;
  // p99.9: h = 3.996 → 49.96; mean 150 / 5 = 30
  const input = [50, 10, 40, 20, 30];
  const r = percentiles(input)!;
  assert.equal(r.n, 5);
  assert.equal(r.min, 10);
  assert.equal(r.max, 50);
  assert.equal(r.mean, 30);
  assert.equal(r.p50, 30);
  close(r.p90, 46, 'p90');
  close(r.p95, 48, 'p95');
  close(r.p99, 49.6, 'p99');
  close(r.p999, 49.96, 'p999');
  assert.deepEqual(input, [50, 10, 40, 20, 30], 'input not modified');
});

test('percentiles: mean is sum / n with negative values; a typed array is read too', () => {
  // −4, 1, 9: sum 6, mean 2; p50 = 1; min −4, max 9
  const r = percentiles(new Float64Array([9, -4, 1]))!;
  assert.deepEqual([r.n, r.min, r.mean, r.p50, r.max], [3, -4, 2, 1, 9]);
});

test('percentiles: n = 1 gives that value everywhere; empty gives null', () => {
  assert.deepEqual(percentiles([7]), { n: 1, min: 7, mean: 7, p50: 7, p90: 7, p95: 7, p99: 7, p999: 7, max: 7 });
  assert.equal(percentiles([]), null);
});

test('percentiles: a non-finite value throws RangeError naming its index', () => {
  assert.throws(() => percentiles([1, 2, Number.NaN]), (e: unknown) => e instanceof RangeError && /index 2 is not finite \(NaN\)/.test(e.message));
  assert.throws(() => percentiles([Infinity]), (e: unknown) => e instanceof RangeError && /index 0 is not finite \(Infinity\)/.test(e.message));
});

test('the levels and the stated definition', () => {
  assert.deepEqual(PERCENTILE_LEVELS, { p50: 0.5, p90: 0.9, p95: 0.95, p99: 0.99, p999: 0.999 });
  assert.match(PERCENTILE_DEFINITION, /^linear interpolation between order statistics \(Hyndman & Fan type 7, R\/numpy default\): h = \(n - 1\) p, Q = x\[floor h\] \+ \(h - floor h\)\(x\[floor h \+ 1\] - x\[floor h\]\); simple-statistics 7\.12\.1 quantileSorted; n = 1 gives that value for every percentile$/);
});
