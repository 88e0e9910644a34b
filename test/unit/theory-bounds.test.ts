import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cellMinDurationS, littleThroughputRps, plannedRequestsPerRepeat, queueWaitMeanSpreadMs, queueWaitP95WavesMs,
  rampWholeRunFraction, servers, threadLimit, throughputBoundRps, waves, wavesWholeRunRps,
} from '../../src/compute/theory/bounds.ts';
import type { ExecutorSpec } from '../../src/types/study.ts';

const pool = (threads: number): ExecutorSpec => ({ kind: 'platform-pool', threads, queueCapacity: 1000 });
const VT: ExecutorSpec = { kind: 'virtual-per-task' };
const boot = (tomcatMaxThreads: number | null): ExecutorSpec => ({ kind: 'spring-boot-auto', virtualThreads: tomcatMaxThreads === null, asyncCoreThreads: null, tomcatMaxThreads });
const close = (a: number, e: number) => assert.ok(Math.abs(a - e) <= 1e-12 * Math.abs(e), `${a} vs ${e}`);

test('threadLimit and servers: N of a pool, Tomcat threads of spring-boot-auto, none for one thread per task', () => {
  assert.equal(threadLimit(pool(32)), 32);
  assert.equal(threadLimit(boot(200)), 200);
  assert.equal(threadLimit(boot(null)), null);
  assert.equal(threadLimit(VT), null);
  assert.equal(servers(pool(32), 50), 32); // min(50, 32)
  assert.equal(servers(pool(32), 10), 10); // min(10, 32)
  assert.equal(servers(boot(20), 50), 20);
  assert.equal(servers(VT, 50), 50);
});

test('throughputBoundRps = min(c, N) / L', () => {
  close(throughputBoundRps(pool(32), 50, 1500), 32 / 1.5); // 21.333 req/s (the source study's)
  close(throughputBoundRps(VT, 50, 1500), 50 / 1.5);
  assert.equal(throughputBoundRps(pool(32), 10, 500), 20); // 10 / 0.5
});

test('waves = ceil(c / N), 1 with one thread per task; the P95 wait is (waves − 1)·L', () => {
  assert.equal(waves(pool(32), 32), 1);
  assert.equal(waves(pool(32), 33), 2); // 33/32 rounds up
  assert.equal(waves(pool(32), 64), 2);
  assert.equal(waves(pool(32), 65), 3);
  assert.equal(waves(VT, 1000), 1);
  assert.equal(queueWaitP95WavesMs(pool(32), 50, 1500), 1500); // (2 − 1) · 1500
  assert.equal(queueWaitP95WavesMs(pool(32), 65, 100), 200); // (3 − 1) · 100
  assert.equal(queueWaitP95WavesMs(pool(32), 10, 1500), 0);
  assert.equal(queueWaitP95WavesMs(VT, 1000, 1500), 0);
});

test('queueWaitMeanSpreadMs = max(0, (c/N − 1)·L); 0 with one thread per task', () => {
  assert.equal(queueWaitMeanSpreadMs(pool(32), 64, 100), 100); // (2 − 1) · 100
  assert.equal(queueWaitMeanSpreadMs(pool(32), 48, 100), 50); // (1.5 − 1) · 100
  assert.equal(queueWaitMeanSpreadMs(pool(32), 16, 100), 0); // (0.5 − 1) · 100 = −50, floored
  assert.equal(queueWaitMeanSpreadMs(VT, 64, 100), 0);
});

test("littleThroughputRps = c / mean E2E; null for a mean that is null, 0, negative or NaN", () => {
  assert.equal(littleThroughputRps(10, 500), 20); // 10 / 0.5 s
  assert.equal(littleThroughputRps(10, null), null);
  assert.equal(littleThroughputRps(10, 0), null);
  assert.equal(littleThroughputRps(10, -5), null);
  assert.equal(littleThroughputRps(10, Number.NaN), null);
});

test('cellMinDurationS = max(n·L, c·n / bound)', () => {
  // pool 32, c 50, L 1.5 s, n 4: n·L = 6 s; c·n / bound = 200 / 21.333 = 9.375 s
  close(cellMinDurationS(pool(32), 50, 1500, 4), 9.375);
  // virtual, c 50: bound 33.33; 200 / 33.33 = 6 = n·L
  close(cellMinDurationS(VT, 50, 1500, 4), 6);
  // pool 2, c 1, L 100 ms, n 10: n·L = 1 s, c·n / bound = 10 / 10 = 1 s
  close(cellMinDurationS(pool(2), 1, 100, 10), 1);
});

test('rampWholeRunFraction = n / (n + 1)', () => {
  assert.equal(rampWholeRunFraction(4), 0.8);
  assert.equal(rampWholeRunFraction(1), 0.5);
});

test('wavesWholeRunRps = c·n / (ceil(c·n / min(c, N))·L)', () => {
  // the doc's example: 200 / (ceil(200 / 32) = 7 · 1.5 s) = 19.0476 req/s
  close(wavesWholeRunRps(pool(32), 50, 1500, 4), 200 / 10.5);
  // virtual, c 50: 200 / (4 · 1.5) = 33.33
  close(wavesWholeRunRps(VT, 50, 1500, 4), 200 / 6);
  // pool 3, c 5, n 1, L 1000: 5 / (ceil(5/3) = 2 · 1 s) = 2.5
  assert.equal(wavesWholeRunRps(pool(3), 5, 1000, 1), 2.5);
});

test('plannedRequestsPerRepeat = sum(levels) · n', () => {
  assert.equal(plannedRequestsPerRepeat([1, 10, 100], 4), 444);
  assert.equal(plannedRequestsPerRepeat([], 4), 0);
});
