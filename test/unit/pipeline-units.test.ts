import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeFlags } from '../../src/compute/analysis/flags.ts';
import { summarizeThreadDump, namePrefix, frameName } from '../../src/adapters/jvm/threaddump.ts';
import { pinnedDelta } from '../../src/pipeline/run.ts';
import { summarize } from '../../src/load/summarize.ts';
import type { RequestRecord } from '../../src/types/load.ts';

function load(c: number, n: number, opts: { errors?: number; queueMs?: number } = {}) {
  const rs: RequestRecord[] = [];
  for (let w = 0; w < c; w++) for (let k = 0; k < n; k++) {
    const err = rs.length < (opts.errors ?? 0);
    rs.push({ worker: w, seq: k, intendedStartMs: k * 100, startMs: k * 100, endMs: (k + 1) * 100, e2eMs: 100, status: err ? 503 : 200, errorClass: err ? 'http' : null, serverTiming: { queue: opts.queueMs ?? 0.01, exec: 99 } });
  }
  return summarize(rs, c, n);
}
const VT = { kind: 'virtual-per-task' } as const;
const POOL = { kind: 'platform-pool', threads: 4, queueCapacity: 100 } as const;
const base = { executor: VT, latencyMs: 100, t0EpochMs: 0, sutSamples: [], eventLoopLagP99Ms: 1, eventLoopLagMaxMs: 5, loadgenCpuPct: 10, hostCpuPct: 50, errorFlagThreshold: 0.001 };

test('flags: a clean cell raises none', () => {
  assert.deepEqual(computeFlags({ ...base, load: load(4, 3) }), []);
});

test('flags: each host limit raises its own code with value and threshold', () => {
  const codes = (f: ReturnType<typeof computeFlags>) => f.map((x) => x.code).sort();
  assert.deepEqual(codes(computeFlags({ ...base, load: load(4, 3), eventLoopLagP99Ms: 80 })), ['loadgen-lag']);
  assert.deepEqual(codes(computeFlags({ ...base, load: load(4, 3), loadgenCpuPct: 95 })), ['loadgen-cpu']);
  assert.deepEqual(codes(computeFlags({ ...base, load: load(4, 3), hostCpuPct: 99 })), ['host-cpu']);
  // SUT CPU ≥ 90 % of the machine in 1 of 5 samples (20 % ≥ 10 %)
  const sutSamples = [0.2, 0.95, 0.3, null, 0.1, 0.4].map((processCpuLoad, k) => ({ tEpochMs: k * 250, processCpuLoad }));
  assert.deepEqual(codes(computeFlags({ ...base, load: load(4, 3), sutSamples })), ['sut-cpu']);
  // virtual-per-task queue wait P95 20 ms > max(10, 5 % of 100) = 10 ms; the same on a platform pool is the pool's queue, not a flag
  assert.deepEqual(codes(computeFlags({ ...base, load: load(4, 3, { queueMs: 20 }) })), ['scheduler-delay']);
  assert.deepEqual(codes(computeFlags({ ...base, executor: POOL, load: load(4, 3, { queueMs: 20 }) })), []);
  // 1 error in 12 = 8.3 % > 0.1 %
  const f = computeFlags({ ...base, load: load(4, 3, { errors: 1 }) });
  assert.deepEqual(codes(f), ['errors-above-threshold']);
  assert.equal(f[0]!.value, 1 / 12);
});

test('flags: fewer requests in flight than workers', () => {
  // one worker: its requests never overlap -> peak 1 < 2 workers when the second never ran
  const s = summarize([{ worker: 0, seq: 0, intendedStartMs: 0, startMs: 0, endMs: 10, e2eMs: 10, status: 200, errorClass: null, serverTiming: {} }], 2, 1);
  assert.deepEqual(computeFlags({ ...base, load: s }).map((x) => x.code), ['concurrency-below-target']);
});

test('pinnedDelta: after minus before, by reason, zero deltas dropped; flushed only when both reads were', () => {
  const before = { thresholdMs: 20, total: 5, byReason: { a: 3, b: 2 }, submitFailedTotal: 1, flushed: true, flushWaitMs: 640 };
  const after = { thresholdMs: 20, total: 9, byReason: { a: 3, b: 4, c: 2 }, submitFailedTotal: 1, flushed: true, flushWaitMs: 980 };
  assert.deepEqual(pinnedDelta(before, after), { thresholdMs: 20, total: 4, byReason: { b: 2, c: 2 }, submitFailed: 0, flushed: true });
  assert.equal(pinnedDelta(before, { ...after, flushed: false })?.flushed, false);
  assert.equal(pinnedDelta(null, after), null);
});

test('thread dump summary: groups by prefix/state/top frame, socket reads by kind, tid and threadCount as strings', () => {
  const sock = ['java.base/sun.nio.ch.NioSocketImpl.park(NioSocketImpl.java:191)', 'java.base/sun.nio.ch.NioSocketImpl.implRead(NioSocketImpl.java:309)', 'okio.InputStreamSource.read(JvmOkio.kt:93)'];
  const dump = {
    threadDump: {
      threadContainers: [
        { container: '<root>', threads: [{ tid: '1', name: 'main', stack: [] }], threadCount: '1' },
        { container: 'java.util.concurrent.ThreadPoolExecutor@1', threads: [1, 2].map((i) => ({ tid: String(10 + i), name: `llm-fixed-${i}`, state: 'RUNNABLE', stack: sock })), threadCount: '2' },
        { container: 'java.util.concurrent.ThreadPerTaskExecutor@2', threads: [1, 2, 3].map((i) => ({ tid: 20 + i, name: `llm-vt-${i}`, virtual: true, stack: ['java.base/java.lang.VirtualThread.park(VirtualThread.java:1)', ...sock] })), threadCount: 3 },
      ],
    },
  };
  const s = summarizeThreadDump(JSON.stringify(dump), 'threaddumps/x.json.gz', 1234, 'llm-fixed-', 'platform-pool');
  assert.equal(s.threadCount, 6);
  assert.deepEqual(s.inSocketRead, { poolThreads: 2, virtual: 3, other: 0 });
  // the pool threads are those of the cell's variant's prefix: with another prefix they are "other"
  assert.deepEqual(summarizeThreadDump(JSON.stringify(dump), 'f', 0, 'toy-pool-').inSocketRead, { poolThreads: 0, virtual: 3, other: 2 });
  // a virtual-per-task variant's threads are virtual even where the dump does not mark them (JDK 21–24)
  const unmarked = { threadDump: { threadContainers: [{ container: '<root>', threads: [1, 2].map((i) => ({ tid: i, name: `toy-vt-${i}`, stack: sock })) }] } };
  assert.deepEqual(summarizeThreadDump(JSON.stringify(unmarked), 'f', 0, 'toy-vt-', 'virtual-per-task').inSocketRead, { poolThreads: 0, virtual: 2, other: 0 });
  assert.deepEqual(s.groups[0], { namePrefix: 'llm-vt-', virtual: true, state: 'VIRTUAL', topFrame: 'java.lang.VirtualThread.park', count: 3 });
  assert.deepEqual(s.groups[1], { namePrefix: 'llm-fixed-', virtual: false, state: 'RUNNABLE', topFrame: 'sun.nio.ch.NioSocketImpl.park', count: 2 });
  assert.deepEqual(s.containers.map((c) => c.threadCount), [1, 2, 3]);
  assert.equal(namePrefix('http-nio-8080-exec-12'), 'http-nio-8080-exec-');
  assert.equal(frameName('java.base/sun.nio.ch.Net.poll(Native Method)'), 'sun.nio.ch.Net.poll');
  assert.throws(() => summarizeThreadDump('{"x":1}', 'f', 0, 'p-'), /threadContainers/);
});
