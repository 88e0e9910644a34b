/** Study 002 scenario 5's capacity rule and bounds (src/studies/002/ws-capacity.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { carried, wsCapacity, wsExecutorBound, wsCpuBound, wsBounds, wsLevel, WS_CAPACITY_RULE } from '../../src/studies/002/ws-capacity.ts';
import { percentiles } from '../../src/compute/stats/percentiles.ts';
import type { WebSocketSummary } from '../../src/types/load.ts';
import type { SutSample } from '../../src/types/sut-api.ts';

function summary(over: Partial<WebSocketSummary>): WebSocketSummary {
  return {
    connections: 100, opened: 100, failedToOpen: {}, dropped: {}, heldToEnd: 100, rampMs: 1000, holdS: 10, intervalMs: 1000, workMs: 10, graceMs: 2000,
    windowStartMs: 2000, windowEndMs: 12_000, messagesExpected: 1000, messagesInWindow: 1000, deliveredShare: 1, messagesReceived: 1100,
    latenessMs: percentiles([11, 12, 15, 40]), seqGaps: 0, outOfOrder: 0, byThreadPrefix: {}, messagesUnparsed: 0, noProgress: null, hostMaxConnections: 19_488, server: null,
    ...over,
  };
}

test('the rule: ≥ 99.9 % delivered and lateness P99 ≤ 100 ms, no watchdog; each failure named', () => {
  assert.deepEqual(WS_CAPACITY_RULE, { minDeliveredShare: 0.999, maxLatenessP99Ms: 100 });
  assert.deepEqual(carried(summary({})), { carried: true, why: [] });
  assert.deepEqual(carried(summary({ deliveredShare: 0.999 })).carried, true, 'the boundary is carried');
  assert.deepEqual(carried(summary({ deliveredShare: 0.9989 })).why, ['delivered']);
  assert.deepEqual(carried(summary({ latenessMs: percentiles([50, 101, 101, 101]) })).why, ['lateness']);
  assert.deepEqual(carried(summary({ latenessMs: percentiles([100]) })).carried, true);
  assert.deepEqual(carried(summary({ noProgress: { atMs: 5000, lastMessageMs: 1000, afterMs: 5000, openConnections: 100 } })).why, ['no-progress']);
  assert.deepEqual(carried(summary({ latenessMs: null, deliveredShare: 0 })).why, ['no-messages', 'delivered']);
});

test('capacity = the largest carried N; within / at-least / below; a dip below it is flagged', () => {
  const L = (connections: number, ok: boolean) => ({ connections, carried: ok });
  assert.deepEqual(wsCapacity([L(4000, false), L(1000, true), L(2000, true)]), { capacity: 2000, kind: 'within', firstFailed: 4000, maxTried: 4000, nonMonotone: false });
  assert.deepEqual(wsCapacity([L(1000, true), L(2000, true)]), { capacity: 2000, kind: 'at-least', firstFailed: null, maxTried: 2000, nonMonotone: false });
  assert.deepEqual(wsCapacity([L(1000, false), L(2000, false)]), { capacity: null, kind: 'below', firstFailed: 1000, maxTried: 2000, nonMonotone: false });
  assert.deepEqual(wsCapacity([L(1000, true), L(2000, false), L(4000, true)]), { capacity: 4000, kind: 'at-least', firstFailed: null, maxTried: 4000, nonMonotone: true });
  assert.throws(() => wsCapacity([]), RangeError);
});

test('bounds: T × I / W for a pool (200 threads, 10 ms, 1 s → 20,000), none for virtual threads; CPU by the service demand law; the smallest is named', () => {
  assert.equal(wsExecutorBound({ kind: 'platform-pool', threads: 200, queueCapacity: 10_000 }, 10, 1000), 20_000);
  assert.equal(wsExecutorBound({ kind: 'platform-pool', threads: 500, queueCapacity: 10_000 }, 10, 1000), 50_000);
  assert.equal(wsExecutorBound({ kind: 'virtual-per-task' }, 10, 1000), null);
  assert.equal(wsCpuBound(2, 0.25, 1000), 8000); // 2 cores / 0.25 ms per message = 8,000 msg/s
  assert.equal(wsCpuBound(2, null, 1000), null);
  assert.deepEqual(wsBounds(20_000, 8000, 19_488), { executor: 20_000, cpu: 8000, host: 19_488, limit: 'cpu', limitValue: 8000 });
  assert.deepEqual(wsBounds(null, null, 19_488), { executor: null, cpu: null, host: 19_488, limit: 'host', limitValue: 19_488 });
  assert.equal(wsBounds(2000, 8000, 19_488).limit, 'executor');
});

test('a level: memory, threads and CPU from the samples inside the window only', () => {
  const t0 = 1_000_000;
  const smp = (t: number, cpuMs: number, sent: number, rss: number, threads: number): SutSample => ({
    tEpochMs: t0 + t, executorActive: 0, queueSize: 0, inFlight: 0, completed: 0, platformThreads: threads, heapUsedBytes: rss / 2, heapCommittedBytes: rss, rssBytes: rss,
    processCpuLoad: null, processCpuTimeNs: cpuMs * 1e6, vtSchedulerParallelism: null, vtSchedulerPoolSize: null, vtMounted: null, vtQueued: null, pinnedTotal: 0, submitFailedTotal: 0, upstreamErrorsTotal: 0,
    wsSessionsOpen: 100, wsMessagesSent: sent,
  });
  const l = wsLevel(summary({}), [smp(1000, 0, 0, 9e9, 999), smp(2000, 100, 100, 1e9, 40), smp(7000, 600, 600, 2e9, 50), smp(12_000, 1100, 1100, 1.5e9, 45), smp(13_000, 5000, 2000, 9e9, 999)], t0);
  assert.equal(l.rssPeakBytes, 2e9);
  assert.equal(l.platformThreadsPeak, 50);
  assert.equal(l.sutCpuCores, 0.1); // 1000 ms of CPU over 10 s
  assert.equal(l.sutCpuMsPerMessage, 1);
  assert.equal(l.carried, true);
});

test('study 002: a measured capacity against a published one (consistent / higher / lower / untested), bounds for the host', async () => {
  const { capacityVerdict } = await import('../../src/studies/002/ws-push.ts');
  const b = wsBounds(20_000, 8000, 19_488);
  const within = { capacity: 4000, kind: 'within' as const, firstFailed: 8000, maxTried: 16_000, nonMonotone: false };
  assert.equal(capacityVerdict(within, b, { value: 5200, atLeast: false }), 'consistent'); // 5,200 in [4,000, 8,000)
  assert.equal(capacityVerdict(within, b, { value: 8500, atLeast: false }), 'lower'); // 8,000 failed here
  assert.equal(capacityVerdict(within, b, { value: 2000, atLeast: false }), 'higher');
  const all = { capacity: 16_000, kind: 'at-least' as const, firstFailed: null, maxTried: 16_000, nonMonotone: false };
  assert.equal(capacityVerdict(all, b, { value: 50_000, atLeast: true }), 'untested'); // beyond what this host can try
  assert.equal(capacityVerdict(all, b, { value: 8500, atLeast: false }), 'higher');
  assert.equal(capacityVerdict(within, b, { value: 50_000, atLeast: true }), 'lower');
  assert.equal(capacityVerdict({ capacity: 50_000, kind: 'at-least', firstFailed: null, maxTried: 50_000, nonMonotone: false }, wsBounds(null, null, 60_000), { value: 50_000, atLeast: true }), 'consistent');
});
