import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GcTrace, gcLateShareOf, gcLineOf, limitsOf, saturated, type HeldRound } from '../bench/mock.ts';

// lines printed by `node --trace-gc` (Node 20.20.2) on this host during a bench:mock run
const SCAVENGE = '[24924:0x107c8090]       87 ms: Scavenge 4.6 (4.7) -> 4.2 (5.7) MB, 2.36 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ';
const MARK_COMPACT =
  '[24936:0xbde4090]     5605 ms: Mark-Compact 40.8 (69.8) -> 30.4 (72.6) MB, 5.29 / 0.01 ms  (+ 13.5 ms in 102 steps since start of marking, biggest step 1.1 ms, walltime since start of marking 54 ms) (average mu = 0.996, current mu = 0.996) finalize incremental marking via task; GC in old space requested';
const MARK_COMPACT_BIG_STEP =
  '[24924:0x107c8090]     1097 ms: Mark-Compact 13.8 (28.8) -> 11.0 (30.1) MB, 10.00 / 0.02 ms  (+ 11.4 ms in 17 steps since start of marking, biggest step 10.2 ms, walltime since start of marking 31 ms) (average mu = 1.000, current mu = 1.000) finalize incremental marking via task; GC in old space requested';
const REDUCE =
  '[24936:0x7f48ec000f00]     8187 ms: Mark-Compact (reduce) 7.7 (15.6) -> 5.8 (8.6) MB, 7.14 / 0.02 ms  (+ 8.6 ms in 25 steps since start of marking, biggest step 5.6 ms, walltime since start of marking 19 ms) (average mu = 1.000, current mu = 1.000) finalize incremental marking via task; GC in old space requested';
// bench/lib/gc-probe.cjs's forced GC and its epoch line, then two scavenges of the same (main) isolate
// (`node --trace-gc --require bench/lib/gc-probe.cjs`, Node 20.20.2, this host)
const PROBE_FORCED = '[30477:0x38800fb0]      111 ms: Mark-Compact 3.5 (4.2) -> 2.9 (5.5) MB, 9.38 / 0.00 ms  (average mu = 1.000, current mu = 1.000) testing; GC in old space requested';
const PROBE_EPOCH = 'vtbench-gc-probe epochMs=1796147398015';
const MAIN_1 = '[30477:0x38800fb0]      131 ms: Scavenge 4.3 (5.5) -> 4.0 (5.5) MB, 2.02 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ';
const MAIN_2 = '[30477:0x38800fb0]      136 ms: Scavenge 4.7 (5.9) -> 4.4 (6.2) MB, 3.21 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ';
// the same process's module-loader worker thread (tsx), another isolate
const WORKER = '[30477:0x7f1de4000f00]      133 ms: Mark-Compact (reduce) 5.8 (8.6) -> 5.8 (7.3) MB, 40.27 / 0.00 ms  (+ 2.3 ms in 19 steps since start of marking, biggest step 0.3 ms, walltime since start of marking 60 ms) (average mu = 0.936, current mu = 0.936) finalize incremental marking via task; GC in old space requested';

describe('bench:mock helpers', () => {
  test('gcLineOf: a scavenge is its pause, with its isolate and time since the isolate started', () => {
    assert.deepEqual(gcLineOf(SCAVENGE), { isolate: '0x107c8090', sinceStartMs: 87, totalMs: 2.36, longestMs: 2.36, forced: false });
    assert.equal(gcLineOf(PROBE_FORCED)?.forced, true, 'gc() gives the reason `testing`');
  });

  test('gcPauseMsOf: a major GC adds its incremental marking steps; the longest stop is the pause or the biggest step', () => {
    const a = gcLineOf(MARK_COMPACT)!;
    assert.ok(Math.abs(a.totalMs - 18.79) < 1e-9);
    assert.equal(a.longestMs, 5.29);
    const b = gcLineOf(MARK_COMPACT_BIG_STEP)!;
    assert.ok(Math.abs(b.totalMs - 21.4) < 1e-9);
    assert.equal(b.longestMs, 10.2, 'a marking step longer than the final pause');
    assert.equal(gcLineOf(REDUCE)!.longestMs, 7.14);
  });

  test('gcLineOf: other lines are not GC', () => {
    assert.equal(gcLineOf('vtbench-mock listening on http://127.0.0.1:44197 pid=24924'), null);
    assert.equal(gcLineOf(PROBE_EPOCH), null);
    assert.equal(gcLineOf(''), null);
  });

  test('GcTrace: only the main isolate (the forced GC) counts, placed on the wall clock by the probe', () => {
    const epoch = 1796147398015; // the probe's Date.now() right after the forced GC, printed at 111 ms
    for (const order of [[PROBE_FORCED, PROBE_EPOCH], [PROBE_EPOCH, PROBE_FORCED]]) {
      const t = new GcTrace();
      for (const line of [...order, MAIN_1, WORKER, MAIN_2, 'plain-fastify listening on http://127.0.0.1:1 pid=1']) t.see(line);
      const all = t.stopsBetween(epoch, epoch + 1000);
      assert.deepEqual(all, [
        { endEpochMs: epoch + 20, longestMs: 2.02, totalMs: 2.02 },
        { endEpochMs: epoch + 25, longestMs: 3.21, totalMs: 3.21 },
      ], 'the worker thread\'s 40 ms collection does not stop the main thread; the forced GC is not counted');
      assert.deepEqual(t.stopsBetween(epoch + 21, epoch + 1000).map((g) => g.longestMs), [3.21], 'only stops that ended in the window');
    }
    const none = new GcTrace();
    none.see(MAIN_1);
    assert.throws(() => none.stopsBetween(0, Infinity), /gc-probe/);
  });

  test('gcLateShareOf: each stop holds back the answers due in its first (L - target) ms', () => {
    assert.equal(gcLateShareOf([30, 3, 5], 5, 900), 25 / 900);
    assert.equal(gcLateShareOf([], 5, 900), 0);
    assert.equal(gcLateShareOf([2000], 5, 900), 1, 'capped at every answer');
    assert.equal(gcLateShareOf([30], 5, 0), null, 'all due at once: no spread to share');
  });

  test('limitsOf: names the saturated host, the GC stops over 1% and a busy server; nothing when none applied', () => {
    const round = (p: Partial<HeldRound>) =>
      ({ hostBusyCores: 1.2, serverCpuShare: 0.5, peakInFlight: 10_000, gcAnswerWindow: { count: 0, totalMs: 0, maxMs: 0, lateShareLowerBound: 0 }, ...p }) as HeldRound;
    const o = { latencyMs: 1000, rampMs: 900, n: 10_000 };
    assert.deepEqual(limitsOf([round({})], 2, o), []);
    const gc = limitsOf([round({ gcAnswerWindow: { count: 3, totalMs: 60, maxMs: 30, lateShareLowerBound: 0.05 } }), round({})], 2, o);
    assert.equal(gc.length, 1);
    assert.match(gc[0]!, /in 1 of 2 round\(s\).*longest 30\.0 ms, ≥ 5\.0% of answers.*below 9 ms/);
    assert.match(limitsOf([round({ hostBusyCores: 1.95 })], 2, o)[0]!, /host CPU saturated in 1 of 1/);
    assert.match(limitsOf([round({ serverCpuShare: 0.95 })], 2, o)[0]!, /90% of one core/);
    assert.match(limitsOf([round({ peakInFlight: 9936 })], 2, o)[0]!, /not all 10000 requests were held at once in 1 of 1 round\(s\) \(peak 9936\)/);
    assert.deepEqual(limitsOf([round({ peakInFlight: null })], 2, o), [], 'the reference keeps no peak');
  });

  test('saturated: from 90% of the cores busy, and not without /proc', () => {
    const r = (hostBusyCores: number | null) => ({ hostBusyCores }) as HeldRound;
    assert.equal(saturated(r(1.8), 2), true);
    assert.equal(saturated(r(1.79), 2), false);
    assert.equal(saturated(r(null), 2), false);
  });
});
