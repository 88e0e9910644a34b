import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doublingRuleKnee, studyRuleKnee, type SweepPoint } from '../../src/studies/003/knee.ts';

/** X = N / L up to a saturation of 400,000 ops/s (2 cores), L = 1 s: the knee is where N/L meets it. */
const sat = (ns: number[]): SweepPoint[] => ns.map((n) => ({ threads: n, throughputOpsPerS: Math.min(n, 250_000), p99Ms: 1000 + (n > 200_000 ? (n / 1000) ** 1.3 : 1), jitterPct: n > 200_000 ? n / 10_000 : 0.5 }));
const SWEEP = [10_000, 50_000, 100_000, 200_000, 300_000, 500_000, 1_000_000];

/** A Kneedle-style knee (max distance to the chord after normalising both axes by the range), for contrast. */
function kneedle(ps: SweepPoint[]): number {
  const x = ps.map((p) => Math.log2(p.threads));
  const y = ps.map((p) => p.throughputOpsPerS);
  const nx = x.map((v) => (v - x[0]!) / (x[x.length - 1]! - x[0]!));
  const ny = y.map((v) => (v - Math.min(...y)) / (Math.max(...y) - Math.min(...y)));
  let best = 0;
  for (let i = 1; i < ps.length; i++) if (ny[i]! - nx[i]! > ny[best]! - nx[best]!) best = i;
  return ps[best]!.threads;
}

test('doubling rule: gain per doubling is exact on hand-checkable points', () => {
  const r = doublingRuleKnee([{ threads: 1, throughputOpsPerS: 100, p99Ms: null, jitterPct: null }, { threads: 4, throughputOpsPerS: 400, p99Ms: null, jitterPct: null }, { threads: 8, throughputOpsPerS: 440, p99Ms: null, jitterPct: null }]);
  assert.equal(r.steps[0]!.gainPerDoubling, 1); // ×4 over two doublings: +100 % each
  assert.ok(Math.abs(r.steps[1]!.gainPerDoubling! - 0.1) < 1e-12);
  assert.equal(r.kneeThreads, 4);
});

test('doubling rule: removing the last level (or any level above the knee segment) does not move the knee', () => {
  // X = min(N, 250k): 200k → 300k gains 1.25^(1/log2 1.5) − 1 = 46.5 % per doubling, 300k → 500k gains 0
  const full = doublingRuleKnee(sat(SWEEP), 0.25);
  assert.ok(Math.abs(full.steps[3]!.gainPerDoubling! - (1.25 ** (1 / Math.log2(1.5)) - 1)) < 1e-12);
  assert.equal(full.kneeThreads, 300_000);
  // every sweep that still holds the knee's segment (300k → 500k) gives the same knee
  for (let k = SWEEP.length - 1; k >= SWEEP.indexOf(500_000) + 1; k--) {
    assert.equal(doublingRuleKnee(sat(SWEEP.slice(0, k)), 0.25).kneeThreads, 300_000, `levels up to ${SWEEP[k - 1]}`);
  }
  // so does a sweep with levels removed at the low end
  assert.equal(doublingRuleKnee(sat(SWEEP.slice(2)), 0.25).kneeThreads, 300_000);
  // Kneedle on the same data moves when the range changes (why it is not used)
  assert.equal(kneedle(sat(SWEEP)), 300_000);
  assert.notEqual(kneedle(sat(SWEEP.slice(0, -2))), 300_000);
});

test('doubling rule: a straight line (perfect scaling) has no knee within the range', () => {
  assert.equal(doublingRuleKnee(sat([10_000, 20_000, 40_000, 80_000])).kneeThreads, null);
});

test('study rule: all four conditions must hold together, literally', () => {
  const p = (threads: number, p99Ms: number, jitterPct: number): SweepPoint => ({ threads, throughputOpsPerS: 1, p99Ms, jitterPct });
  // P99 +50 % and 90 ms, jitter +100 % and 20 %: fires
  assert.equal(studyRuleKnee([p(1, 60, 10), p(2, 90, 20)]).kneeThreads, 2);
  // P99 jump but below 80 ms: no
  assert.equal(studyRuleKnee([p(1, 50, 10), p(2, 79, 20)]).kneeThreads, null);
  // jitter above 12 % but only +40 %: no
  assert.equal(studyRuleKnee([p(1, 60, 10), p(2, 90, 14)]).kneeThreads, null);
  // a null figure never fires
  assert.equal(studyRuleKnee([{ threads: 1, throughputOpsPerS: 1, p99Ms: null, jitterPct: 10 }, p(2, 90, 20)]).kneeThreads, null);
});

test('study rule: a knee at the last level disappears when that level is removed (the report says so)', () => {
  const p = (threads: number, p99Ms: number, jitterPct: number): SweepPoint => ({ threads, throughputOpsPerS: 1, p99Ms, jitterPct });
  const pts = [p(10, 60, 5), p(20, 62, 5.5), p(40, 100, 20)];
  assert.equal(studyRuleKnee(pts).kneeThreads, 40);
  assert.equal(studyRuleKnee(pts.slice(0, -1)).kneeThreads, null);
});
