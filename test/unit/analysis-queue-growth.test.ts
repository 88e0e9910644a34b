import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitQueueSlope, slopeWindowMs } from '../../src/compute/analysis/queue-growth.ts';
import type { SutSample } from '../../src/types/sut-api.ts';

const T0 = 1_000_000;
/** A sample `ms` after t0 with queue `q` (the other fields are not read). */
const s = (ms: number, q: unknown): SutSample => ({ tEpochMs: T0 + ms, queueSize: q } as unknown as SutSample);

test('slopeWindowMs: [2·L, D·1000] ms after t0', () => {
  assert.deepEqual(slopeWindowMs(1500, 60), { fromMs: 3000, toMs: 60_000 });
});

test('fitQueueSlope: window ends included, samples outside and damaged samples left out; exact line', () => {
  // window [2000, 5000]: the samples at 1999 and 5001 ms are outside, the one with queueSize null is damaged;
  // in it: (2 s, 10), (3 s, 12), (4 s, 14), (5 s, 16): slope 2 tasks/s, r² = 1, max 16
  const fit = fitQueueSlope([s(1999, 100), s(2000, 10), s(3000, 12), s(3500, null), s(4000, 14), s(5000, 16), s(5001, 100)], T0, { fromMs: 2000, toMs: 5000 });
  assert.equal(fit.fromMs, 2000);
  assert.equal(fit.toMs, 5000);
  assert.equal(fit.n, 4);
  assert.ok(Math.abs(fit.slopePerS! - 2) < 1e-12, String(fit.slopePerS));
  assert.ok(Math.abs(fit.r2! - 1) < 1e-12, String(fit.r2));
  assert.equal(fit.maxQueue, 16);
});

test('fitQueueSlope: a noisy line, worked by hand', () => {
  // (0 s, 0), (1 s, 2), (2 s, 1): x̄ = 1, ȳ = 1, Sxy = 1, Sxx = 2 → m = 0.5, b = ȳ − m·x̄ = 0.5; fitted 0.5, 1, 1.5:
  // SSres = 0.25 + 1 + 0.25 = 1.5, SStot = 1 + 1 + 0 = 2 → r² = 1 − 0.75 = 0.25; the largest queue 2 is not the last
  const fit = fitQueueSlope([s(0, 0), s(1000, 2), s(2000, 1)], T0, { fromMs: 0, toMs: 2000 });
  assert.equal(fit.n, 3);
  assert.ok(Math.abs(fit.slopePerS! - 0.5) < 1e-12, String(fit.slopePerS));
  assert.ok(Math.abs(fit.r2! - 0.25) < 1e-12, String(fit.r2));
  assert.equal(fit.maxQueue, 2);
});

test('fitQueueSlope: a constant queue has slope 0 and no r²', () => {
  const fit = fitQueueSlope([s(0, 3), s(1000, 3), s(2000, 3)], T0, { fromMs: 0, toMs: 10_000 });
  assert.deepEqual(fit, { fromMs: 0, toMs: 10_000, n: 3, slopePerS: 0, r2: null, maxQueue: 3 });
  // virtual threads report a queue of 0: its largest value is 0, not "none"
  assert.deepEqual(fitQueueSlope([s(0, 0), s(1000, 0), s(2000, 0)], T0, { fromMs: 0, toMs: 10_000 }), { fromMs: 0, toMs: 10_000, n: 3, slopePerS: 0, r2: null, maxQueue: 0 });
  assert.equal(fitQueueSlope([s(0, 0)], T0, { fromMs: 0, toMs: 10_000 }).maxQueue, 0);
});

test('fitQueueSlope: fewer than 3 samples in the window: no slope; none: no max either', () => {
  assert.deepEqual(fitQueueSlope([s(0, 5), s(1000, 9)], T0, { fromMs: 0, toMs: 1000 }), { fromMs: 0, toMs: 1000, n: 2, slopePerS: null, r2: null, maxQueue: 9 });
  assert.deepEqual(fitQueueSlope([s(0, 9), s(1000, 5)], T0, { fromMs: 0, toMs: 1000 }).maxQueue, 9);
  assert.deepEqual(fitQueueSlope([], T0, { fromMs: 0, toMs: 1000 }), { fromMs: 0, toMs: 1000, n: 0, slopePerS: null, r2: null, maxQueue: null });
});
