import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  throughputBoundRps, waves, queueWaitP95WavesMs, queueWaitMeanSpreadMs, littleThroughputRps,
  wavesWholeRunRps, plannedRequestsPerRepeat, rampWholeRunFraction,
} from '../../src/compute/theory/bounds.ts';
import { percentiles } from '../../src/compute/stats/percentiles.ts';
import type { ExecutorSpec } from '../../src/types/study.ts';

const pool = (threads: number): ExecutorSpec => ({ kind: 'platform-pool', threads, queueCapacity: 10000 });
const VT: ExecutorSpec = { kind: 'virtual-per-task' };

const close = (a: number, b: number, eps = 0.005) => assert.ok(Math.abs(a - b) < eps, `${a} ≉ ${b}`);

test('throughput bound: fixed 32 threads at 1.5 s = 21.33 req/s; virtual 500 / 1.5 = 333.33', () => {
  close(throughputBoundRps(pool(32), 500, 1500), 21.333);
  close(throughputBoundRps(pool(32), 10, 1500), 6.667);
  close(throughputBoundRps(VT, 500, 1500), 333.333);
});

test('waves ⌈c/N⌉ and queue-wait P95 (⌈c/N⌉ − 1) × L: 1.5 / 4.5 / 9.0 / 22.5 s for c = 50 / 100 / 200 / 500', () => {
  assert.deepEqual([10, 32, 33, 50, 100, 200, 500].map((c) => waves(pool(32), c)), [1, 1, 2, 2, 4, 7, 16]);
  assert.equal(waves(VT, 500), 1);
  assert.deepEqual([50, 100, 200, 500].map((c) => queueWaitP95WavesMs(pool(32), c, 1500)), [1500, 4500, 9000, 22500]);
  assert.equal(queueWaitP95WavesMs(VT, 500, 1500), 0);
  assert.equal(queueWaitMeanSpreadMs(pool(32), 64, 1500), 1500);
  assert.equal(queueWaitMeanSpreadMs(pool(32), 10, 1500), 0);
});

test('lock-step waves bound for the whole run: c = 50, n = 4 → 200 / (7 × 1.5) = 19.05 req/s', () => {
  close(wavesWholeRunRps(pool(32), 50, 1500, 4), 19.048);
  close(wavesWholeRunRps(pool(32), 500, 1500, 40), 20000 / (625 * 1.5));
  close(wavesWholeRunRps(VT, 100, 1500, 4), 66.667);
});

test('planned requests: (10+50+100+200+500) × 40 = 34,400 per repeat and mode; × 3 × 2 = 206,400', () => {
  assert.equal(plannedRequestsPerRepeat([10, 50, 100, 200, 500], 40), 34400);
  assert.equal(plannedRequestsPerRepeat([10, 50, 100, 200, 500], 40) * 3 * 2, 206400);
  close(rampWholeRunFraction(40), 40 / 41, 1e-12);
});

test("Little's law: 500 workers at 1.536 s mean E2E → 325.52 req/s; null when not computable", () => {
  close(littleThroughputRps(500, 1536) as number, 325.52);
  assert.equal(littleThroughputRps(10, null), null);
  assert.equal(littleThroughputRps(10, 0), null);
});

test('percentiles use linear interpolation (R type 7): golden values', () => {
  const p = percentiles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.ok(p);
  assert.equal(p.p50, 5.5);
  close(p.p90, 9.1, 1e-9);
  close(p.p95, 9.55, 1e-9);
  close(p.p99, 9.91, 1e-9);
  assert.equal(p.mean, 5.5);
  assert.equal(percentiles([]), null);
  assert.equal(percentiles([7])?.p99, 7);
});
