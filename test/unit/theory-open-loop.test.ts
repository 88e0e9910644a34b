import { test } from 'node:test';
import assert from 'node:assert/strict';
import { executorCapacityRps, openLoopCellDurationS, openLoopThroughputBoundRps, queueAtEnd, queueGrowthPerS } from '../../src/compute/theory/open-loop.ts';
import type { ExecutorSpec } from '../../src/types/study.ts';

const pool = (threads: number): ExecutorSpec => ({ kind: 'platform-pool', threads, queueCapacity: 1000 });
const VT: ExecutorSpec = { kind: 'virtual-per-task' };
const BOOT: ExecutorSpec = { kind: 'spring-boot-auto', virtualThreads: false, asyncCoreThreads: null, tomcatMaxThreads: 200 };

test('executorCapacityRps = N / L for a pool; null for virtual threads and spring-boot-auto', () => {
  assert.equal(executorCapacityRps(pool(10), 1000), 10);
  assert.equal(executorCapacityRps(pool(30), 1500), 20); // 30 / 1.5 s
  assert.equal(executorCapacityRps(VT, 1000), null);
  assert.equal(executorCapacityRps(BOOT, 1000), null);
});

test('openLoopThroughputBoundRps = min(λ, N/L); λ with no executor bound', () => {
  assert.equal(openLoopThroughputBoundRps(pool(10), 15, 1000), 10);
  assert.equal(openLoopThroughputBoundRps(pool(10), 5, 1000), 5);
  assert.equal(openLoopThroughputBoundRps(VT, 15, 1000), 15);
});

test('queue growth λ − N/L above capacity, 0 below and for virtual threads; queue at end = growth · D', () => {
  // N 10, L 1 s: capacity 10/s; λ 15 → 5 tasks/s; over 60 s → 300 tasks
  assert.equal(queueGrowthPerS(pool(10), 15, 1000), 5);
  assert.equal(queueGrowthPerS(pool(10), 5, 1000), 0);
  assert.equal(queueGrowthPerS(VT, 15, 1000), 0);
  assert.equal(queueAtEnd(pool(10), 15, 1000, 60), 300);
  assert.equal(queueAtEnd(pool(10), 5, 1000, 60), 0);
});

test('openLoopCellDurationS = D + backlog / (N/L) + L', () => {
  // backlog 300 drains at 10/s = 30 s: 60 + 30 + 1 = 91 s
  assert.equal(openLoopCellDurationS(pool(10), 15, 1000, 60), 91);
  // below capacity: 60 + 0 + 0.5 = 60.5
  assert.equal(openLoopCellDurationS(pool(10), 5, 500, 60), 60.5);
  // virtual threads: no backlog
  assert.equal(openLoopCellDurationS(VT, 15, 1000, 60), 61);
});
