/**
 * Open-loop theory (src/compute/theory/open-loop.ts), the queue-slope fit (src/compute/analysis/queue-growth.ts) and
 * the open-loop plan and its feasibility checks (src/plan/plan.ts, profiles.ts) — hand-checkable values.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { executorCapacityRps, openLoopCellDurationS, openLoopThroughputBoundRps, queueAtEnd, queueGrowthPerS } from '../../src/compute/theory/open-loop.ts';
import { fitQueueSlope, slopeWindowMs } from '../../src/compute/analysis/queue-growth.ts';
import { makePlan, formatPlan } from '../../src/plan/plan.ts';
import { resolveOptions } from '../../src/plan/profiles.ts';
import { STUDY_000 } from '../../src/studies/000/index.ts';
import { VtbenchError, EXIT } from '../../src/types/errors.ts';
import type { SutSample } from '../../src/types/sut-api.ts';

const FIXED = { kind: 'platform-pool', threads: 32, queueCapacity: 10_000 } as const;
const VT = { kind: 'virtual-per-task' } as const;
const HOST = { openFiles: 20_000, ephemeralPorts: 28_000, heapLimitBytes: 4 * 2 ** 30, cores: 2 } as never;

test('D/D/N theory: capacity N/L, queue growth λ − N/L above it and 0 below, backlog and drain', () => {
  assert.equal(executorCapacityRps(FIXED, 1500)!.toFixed(4), '21.3333');
  assert.equal(executorCapacityRps(VT, 1500), null);
  assert.equal(queueGrowthPerS(FIXED, 15, 1500), 0);
  assert.equal(queueGrowthPerS(FIXED, 25, 1500).toFixed(4), '3.6667');
  assert.equal(queueGrowthPerS(FIXED, 300, 1500).toFixed(4), '278.6667');
  assert.equal(queueGrowthPerS(VT, 300, 1500), 0);
  assert.equal(openLoopThroughputBoundRps(FIXED, 100, 1500).toFixed(4), '21.3333');
  assert.equal(openLoopThroughputBoundRps(FIXED, 15, 1500), 15);
  assert.equal(openLoopThroughputBoundRps(VT, 300, 1500), 300);
  assert.equal(queueAtEnd(FIXED, 300, 1500, 30), (300 - 64 / 3) * 30);
  // 30 s schedule + 8,360 tasks drained at 21.33/s (391.875 s) + L
  assert.equal(openLoopCellDurationS(FIXED, 300, 1500, 30), 30 + ((300 - 64 / 3) * 30) / (64 / 3) + 1.5);
  assert.equal(openLoopCellDurationS(VT, 300, 1500, 30), 31.5);
});

const sample = (tEpochMs: number, queueSize: number): SutSample => ({ tEpochMs, queueSize } as unknown as SutSample);

test('queue slope: least squares over [2L, D] only, exact for a line, null below 3 points', () => {
  const t0 = 1_000_000;
  // a queue at 0 for the first 3 s (outside the window), then 5 + 4/s: the slope is 4 exactly
  const s: SutSample[] = [];
  for (let ms = 0; ms <= 20_000; ms += 250) s.push(sample(t0 + ms, ms < 3000 ? 0 : 5 + (4 * ms) / 1000));
  s.push(sample(t0 + 25_000, 0)); // after the schedule (drain): outside the window
  const w = slopeWindowMs(1500, 20);
  assert.deepEqual(w, { fromMs: 3000, toMs: 20_000 });
  const f = fitQueueSlope(s, t0, w);
  assert.equal(f.n, 69);
  assert.ok(Math.abs(f.slopePerS! - 4) < 1e-9);
  assert.ok(Math.abs(f.r2! - 1) < 1e-9);
  assert.equal(f.maxQueue, 85);
  // a flat queue: slope 0, r² not computable
  const flat = fitQueueSlope([sample(t0 + 3000, 0), sample(t0 + 4000, 0), sample(t0 + 5000, 0)], t0, w);
  assert.equal(flat.slopePerS, 0);
  assert.equal(flat.r2, null);
  assert.deepEqual(fitQueueSlope([sample(t0 + 3000, 1)], t0, w), { ...w, n: 1, slopePerS: null, r2: null, maxQueue: 1 });
});

test('open-loop profiles: rate cell ids, scheduled requests, min(λ, N/L) bounds, durations with the backlog drain', () => {
  const o = resolveOptions(STUDY_000, 'open-loop', {}, HOST);
  const plan = makePlan(o, STUDY_000);
  assert.deepEqual(plan.cells.map((c) => c.cellId), ['fixed-rate15-r1', 'fixed-rate20-r1', 'fixed-rate25-r1', 'fixed-rate100-r1', 'fixed-rate300-r1', 'virtual-rate15-r1', 'virtual-rate20-r1', 'virtual-rate25-r1', 'virtual-rate100-r1', 'virtual-rate300-r1']);
  const c300 = plan.cells.find((c) => c.cellId === 'fixed-rate300-r1')!;
  assert.equal(c300.requests, 9000);
  assert.equal(c300.boundRps, 64 / 3);
  assert.equal(c300.theoreticalS, openLoopCellDurationS(FIXED, 300, 1500, 30));
  assert.equal(plan.totalRequests, 2 * (450 + 600 + 750 + 3000 + 9000));
  assert.match(formatPlan(o, plan, '/tmp/x'), /arrival rates 15, 20, 25, 100, 300 req\/s; constant arrivals for 30 s per cell/);
  const q = makePlan(resolveOptions(STUDY_000, 'open-loop-quick', {}, HOST), STUDY_000);
  assert.ok(q.theoreticalS < 8 * 60, `quick: ${q.theoreticalS} s`);
});

test('open-loop feasibility: a queue that cannot hold the backlog, a cap below the in-flight count, or a wait beyond the timeout is refused naming the option', () => {
  const refuses = (raw: Record<string, string>, re: RegExp) => assert.throws(() => resolveOptions(STUDY_000, 'open-loop', raw, HOST), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && re.test(e.message), JSON.stringify(raw));
  // (300 − 21.33) × 30 = 8,360 > 5,000
  refuses({ queueCapacity: '5000' }, /^--queue-capacity\/--duration-s\/--levels: variant fixed: at 300 req\/s for 30 s its queue reaches ≈8,360 tasks/);
  refuses({ maxInFlight: '4000' }, /^--max-in-flight: variant fixed: at 300 req\/s for 30 s ≈8,392 requests are in flight/);
  refuses({ durationS: '60', queueCapacity: '20000', maxInFlight: '9000' }, /^--max-in-flight: variant fixed/);
  refuses({ maxInFlight: '9745' }, /^--max-in-flight: 9745 is too large: the maximum is 9,744 \(each request in flight costs the SUT two file descriptors/);
  refuses({ levels: '15,100', durationS: '60', headersTimeoutMs: '60000' }, /^--duration-s\/--levels: variant fixed: the last request at 100 req\/s would wait ≈223 s \(backlog drain \+ L\), beyond the 60 s client headers timeout/);
});
