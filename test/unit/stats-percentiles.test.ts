import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { quantileSorted } from 'simple-statistics';
import { percentiles, PERCENTILE_DEFINITION } from '../../src/compute/stats/percentiles.ts';

/** |a - b| <= 1e-12: hand-computed decimals vs binary floating point. */
function near(actual: number, expected: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= 1e-12, `${what}: ${actual} != ${expected}`);
}

test('golden: simple-statistics quantileSorted is linear interpolation (R type 7)', () => {
  // x = [1,2,3,4], h = (n-1)p = 3p, Q = x[floor h] + frac(h) * (x[floor h + 1] - x[floor h])
  const x = [1, 2, 3, 4];
  assert.equal(quantileSorted(x, 0.5), 2.5); // h = 1.5 -> 2 + 0.5
  near(quantileSorted(x, 0.9), 3.7, 'p90'); // h = 2.7 -> 3 + 0.7
  near(quantileSorted(x, 0.95), 3.85, 'p95'); // h = 2.85 -> 3 + 0.85 (nearest rank and type 6 would give 4)
  near(quantileSorted(x, 0.99), 3.97, 'p99');
  near(quantileSorted(x, 0.999), 3.997, 'p99.9');
  assert.equal(quantileSorted(x, 0.25), 1.75); // type 6 would give 1.25, type 1 gives 1
  assert.equal(quantileSorted(x, 0), 1);
  assert.equal(quantileSorted(x, 1), 4);
});

test('percentiles of [1..4] (unsorted input) give the hand-computed type-7 values', () => {
  const input = [4, 1, 3, 2];
  const p = percentiles(input);
  assert.ok(p);
  assert.equal(p.n, 4);
  assert.equal(p.min, 1);
  assert.equal(p.max, 4);
  assert.equal(p.mean, 2.5);
  assert.equal(p.p50, 2.5);
  near(p.p90, 3.7, 'p90');
  near(p.p95, 3.85, 'p95');
  near(p.p99, 3.97, 'p99');
  near(p.p999, 3.997, 'p99.9');
  assert.deepEqual(input, [4, 1, 3, 2], 'input is not modified');
});

test('percentiles of 1..100: p99 = 99.01, p99.9 = 99.901', () => {
  const values = Array.from({ length: 100 }, (_, i) => 100 - i);
  const p = percentiles(values);
  assert.ok(p);
  assert.equal(p.p50, 50.5); // h = 49.5
  near(p.p90, 90.1, 'p90'); // h = 89.1
  near(p.p95, 95.05, 'p95'); // h = 94.05
  near(p.p99, 99.01, 'p99'); // h = 98.01
  near(p.p999, 99.901, 'p99.9'); // h = 98.901
  assert.equal(p.mean, 50.5);
});

test('percentiles: empty sample -> null, n = 1 -> that value everywhere', () => {
  assert.equal(percentiles([]), null);
  assert.deepEqual(percentiles([7]), { n: 1, min: 7, mean: 7, p50: 7, p90: 7, p95: 7, p99: 7, p999: 7, max: 7 });
});

test('percentiles: a non-finite value is rejected', () => {
  assert.throws(() => percentiles([1, Number.NaN]), RangeError);
  assert.throws(() => percentiles([Infinity]), RangeError);
});

test('PERCENTILE_DEFINITION names type 7 and the pinned version', () => {
  assert.match(PERCENTILE_DEFINITION, /type 7/);
  assert.match(PERCENTILE_DEFINITION, /simple-statistics 7\.12\.1/);
  const installed = JSON.parse(readFileSync(new URL('../../node_modules/simple-statistics/package.json', import.meta.url), 'utf8')) as { version: string };
  const declared = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
  assert.equal(installed.version, '7.12.1');
  assert.equal(declared.dependencies['simple-statistics'], '7.12.1', 'pinned exactly, no range');
});
