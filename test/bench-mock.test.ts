import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gcPauseMsOf, saturated, type HeldRound } from '../bench/mock.ts';

// lines printed by `node --trace-gc` (Node 20.20.2) on this host during a bench:mock run
const SCAVENGE = '[24924:0x107c8090]       87 ms: Scavenge 4.6 (4.7) -> 4.2 (5.7) MB, 2.36 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ';
const MARK_COMPACT =
  '[24936:0xbde4090]     5605 ms: Mark-Compact 40.8 (69.8) -> 30.4 (72.6) MB, 5.29 / 0.01 ms  (+ 13.5 ms in 102 steps since start of marking, biggest step 1.1 ms, walltime since start of marking 54 ms) (average mu = 0.996, current mu = 0.996) finalize incremental marking via task; GC in old space requested';
const MARK_COMPACT_BIG_STEP =
  '[24924:0x107c8090]     1097 ms: Mark-Compact 13.8 (28.8) -> 11.0 (30.1) MB, 10.00 / 0.02 ms  (+ 11.4 ms in 17 steps since start of marking, biggest step 10.2 ms, walltime since start of marking 31 ms) (average mu = 1.000, current mu = 1.000) finalize incremental marking via task; GC in old space requested';
const REDUCE =
  '[24936:0x7f48ec000f00]     8187 ms: Mark-Compact (reduce) 7.7 (15.6) -> 5.8 (8.6) MB, 7.14 / 0.02 ms  (+ 8.6 ms in 25 steps since start of marking, biggest step 5.6 ms, walltime since start of marking 19 ms) (average mu = 1.000, current mu = 1.000) finalize incremental marking via task; GC in old space requested';

describe('bench:mock helpers', () => {
  test('gcPauseMsOf: a scavenge is its pause', () => {
    assert.deepEqual(gcPauseMsOf(SCAVENGE), { totalMs: 2.36, longestMs: 2.36 });
  });

  test('gcPauseMsOf: a major GC adds its incremental marking steps; the longest stop is the pause or the biggest step', () => {
    const a = gcPauseMsOf(MARK_COMPACT)!;
    assert.ok(Math.abs(a.totalMs - 18.79) < 1e-9);
    assert.equal(a.longestMs, 5.29);
    const b = gcPauseMsOf(MARK_COMPACT_BIG_STEP)!;
    assert.ok(Math.abs(b.totalMs - 21.4) < 1e-9);
    assert.equal(b.longestMs, 10.2, 'a marking step longer than the final pause');
    assert.equal(gcPauseMsOf(REDUCE)!.longestMs, 7.14);
  });

  test('gcPauseMsOf: other lines are not GC', () => {
    assert.equal(gcPauseMsOf('vtbench-mock listening on http://127.0.0.1:44197 pid=24924'), null);
    assert.equal(gcPauseMsOf(''), null);
  });

  test('saturated: from 90% of the cores busy, and not without /proc', () => {
    const r = (hostBusyCores: number | null) => ({ hostBusyCores }) as HeldRound;
    assert.equal(saturated(r(1.8), 2), true);
    assert.equal(saturated(r(1.79), 2), false);
    assert.equal(saturated(r(null), 2), false);
  });
});
