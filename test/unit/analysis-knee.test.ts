import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MIN_GAIN_PER_DOUBLING, STUDY_RULE_003, doublingRuleKnee, studyRuleKnee, type SweepPoint } from '../../src/studies/003/knee.ts';

const pt = (threads: number, throughputOpsPerS: number, p99Ms: number | null = null, jitterPct: number | null = null): SweepPoint => ({ threads, throughputOpsPerS, p99Ms, jitterPct });

test('the rules\' parameters', () => {
  assert.deepEqual(STUDY_RULE_003, { p99JumpPct: 30, p99AbsMs: 80, jitterJumpPct: 50, jitterAbsPct: 12 });
  assert.equal(MIN_GAIN_PER_DOUBLING, 0.25);
});

test('study rule: each of the four conditions alone keeps a step from firing; the evidence per step', () => {
  // from (1: P99 100, jitter 10) the thresholds are P99 > 130 and > 80, jitter > 15 and > 12
  const base = pt(1, 0, 100, 10);
  const step = (p99: number, jitter: number) => studyRuleKnee([base, pt(2, 0, p99, jitter)]).steps[0];
  assert.deepEqual(step(200, 20), { from: 1, to: 2, p99Jump: true, p99Abs: true, jitterJump: true, jitterAbs: true, fires: true });
  // exactly at each jump threshold (100 · 1.3 = 130, 10 · 1.5 = 15): "more than" is not met
  assert.deepEqual(step(130, 20), { from: 1, to: 2, p99Jump: false, p99Abs: true, jitterJump: true, jitterAbs: true, fires: false });
  assert.deepEqual(step(200, 15), { from: 1, to: 2, p99Jump: true, p99Abs: true, jitterJump: false, jitterAbs: true, fires: false });
  // exactly at the absolute thresholds (80 ms, 12 %), with jumps from a low previous level
  const low = pt(1, 0, 10, 1);
  assert.deepEqual(studyRuleKnee([low, pt(2, 0, 80, 20)]).steps[0], { from: 1, to: 2, p99Jump: true, p99Abs: false, jitterJump: true, jitterAbs: true, fires: false });
  assert.deepEqual(studyRuleKnee([low, pt(2, 0, 200, 12)]).steps[0], { from: 1, to: 2, p99Jump: true, p99Abs: true, jitterJump: true, jitterAbs: false, fires: false });
  assert.equal(studyRuleKnee([low, pt(2, 0, 80, 20)]).kneeThreads, null);
});

test('study rule: a null figure on either side does not fire its jump', () => {
  // previous P99 null: null · 1.3 would read as 0 and "jump"; it must not
  assert.deepEqual(studyRuleKnee([pt(1, 0, null, 10), pt(2, 0, 200, 20)]).steps[0], { from: 1, to: 2, p99Jump: false, p99Abs: true, jitterJump: true, jitterAbs: true, fires: false });
  assert.deepEqual(studyRuleKnee([pt(1, 0, 100, null), pt(2, 0, 200, 20)]).steps[0], { from: 1, to: 2, p99Jump: true, p99Abs: true, jitterJump: false, jitterAbs: true, fires: false });
  assert.deepEqual(studyRuleKnee([pt(1, 0, 100, 10), pt(2, 0, null, null)]).steps[0], { from: 1, to: 2, p99Jump: false, p99Abs: false, jitterJump: false, jitterAbs: false, fires: false });
});

test('study rule: two firing steps — the knee is the first; points in any order; custom parameters', () => {
  // 8 → 16 fires (P99 100 → 200, jitter 10 → 20) and 16 → 32 fires again (200 → 400, 20 → 40): knee 16, not 32
  const pts = [pt(32, 0, 400, 40), pt(4, 0, 90, 9), pt(16, 0, 200, 20), pt(8, 0, 100, 10)];
  const r = studyRuleKnee(pts);
  assert.equal(r.kneeThreads, 16);
  assert.deepEqual(r.steps.map((s) => [s.from, s.to, s.fires]), [[4, 8, false], [8, 16, true], [16, 32, true]]);
  // with a jump threshold of 150 %, 100 → 200 (+100 %) no longer jumps; neither does 200 → 400
  assert.equal(studyRuleKnee(pts, { ...STUDY_RULE_003, p99JumpPct: 150 }).kneeThreads, null);
  // absolute thresholds raised above 200 ms: only 16 → 32 (400 ms) fires
  assert.equal(studyRuleKnee(pts, { ...STUDY_RULE_003, p99AbsMs: 300 }).kneeThreads, 32);
  assert.equal(studyRuleKnee(pts, { ...STUDY_RULE_003, jitterAbsPct: 30 }).kneeThreads, 32);
  assert.equal(studyRuleKnee(pts, { ...STUDY_RULE_003, jitterJumpPct: 150 }).kneeThreads, null);
});

test('both rules: fewer than two points give no step; two points at one N throw', () => {
  assert.deepEqual(studyRuleKnee([pt(1, 5, 100, 10)]), { kneeThreads: null, steps: [] });
  assert.deepEqual(doublingRuleKnee([]), { kneeThreads: null, steps: [] });
  assert.throws(() => studyRuleKnee([pt(8, 1), pt(2, 1), pt(8, 2)]), /^Error: knee: two points at N = 8$/);
  assert.throws(() => doublingRuleKnee([pt(2, 1), pt(4, 1), pt(4, 2)]), /^Error: knee: two points at N = 4$/);
});

test('doubling rule: gain per doubling worked by hand, unequal spacing, the lower level is the knee', () => {
  // 1 → 4 (two doublings): X 100 → 400, (4)^(1/2) − 1 = 1 (+100 % per doubling)
  // 4 → 8 (one doubling): 400 → 440, 1.1 − 1 = 0.1 < 0.25 → knee at 4 (the segment's lower level)
  // 8 → 16: 440 → 440, gain 0, also below: the knee stays 4
  const r = doublingRuleKnee([pt(16, 440), pt(1, 100), pt(8, 440), pt(4, 400)]);
  assert.equal(r.kneeThreads, 4);
  assert.equal(r.steps.length, 3);
  assert.deepEqual([r.steps[0]!.from, r.steps[0]!.to, r.steps[0]!.gainPerDoubling, r.steps[0]!.below], [1, 4, 1, false]);
  assert.deepEqual([r.steps[1]!.from, r.steps[1]!.to, r.steps[1]!.below], [4, 8, true]);
  assert.ok(Math.abs(r.steps[1]!.gainPerDoubling! - 0.1) < 1e-12);
  assert.deepEqual(r.steps[2], { from: 8, to: 16, gainPerDoubling: 0, below: true });
});

test('doubling rule: a gain exactly at the minimum is not below it; minGain is a parameter', () => {
  // 1 → 2: 100 → 125: 1.25 − 1 = 0.25 exactly
  const pts = [pt(1, 100), pt(2, 125)];
  assert.deepEqual(doublingRuleKnee(pts), { kneeThreads: null, steps: [{ from: 1, to: 2, gainPerDoubling: 0.25, below: false }] });
  assert.equal(doublingRuleKnee(pts, 0.3).kneeThreads, 1);
});

test('doubling rule: zero throughput at the lower level has no gain (null) and does not fire', () => {
  // 1 → 2: 0 → 50 has no ratio; 2 → 4: 50 → 50, gain 0, fires at 2
  const r = doublingRuleKnee([pt(1, 0), pt(2, 50), pt(4, 50)]);
  assert.deepEqual(r.steps[0], { from: 1, to: 2, gainPerDoubling: null, below: false });
  assert.equal(r.kneeThreads, 2);
  // throughput falling to 0: gain −1 (−100 %), below
  assert.deepEqual(doublingRuleKnee([pt(1, 10), pt(2, 0)]).steps[0], { from: 1, to: 2, gainPerDoubling: -1, below: true });
});
