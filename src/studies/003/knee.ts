/**
 * Knee detection for a sweep curve (study 003): throughput X(N) and latency figures at levels N.
 * Pure. Two rules, both decided from consecutive levels only:
 *
 * 1. `studyRuleKnee` — the source study's "inflection point" rule taken literally
 *    (shared/seeds/003_*.txt §2.5, `isInflectionPoint(prev, curr)`): the first level `curr` whose
 *    P99 exceeds the previous level's by more than 30 % and is above 80 ms, AND whose scheduler
 *    jitter exceeds the previous level's by more than 50 % and is above 12 %. The study does not
 *    define its "scheduler jitter rate"; this project's is `jitterPct` (SD of the operation latency /
 *    L × 100, sut/…/sweep/VtSweep.java). It depends on the spacing of the levels (a jump "per step"):
 *    adding levels between two others can move it, and a knee at the last level disappears when that
 *    level is removed.
 * 2. `doublingRuleKnee` — range-independent: g_i = (X_{i+1}/X_i)^(1/log2(N_{i+1}/N_i)) − 1 is the
 *    throughput gained per doubling of N between consecutive levels (perfect scaling of a blocking
 *    op: +100 %). The knee is the lower level N_i of the first segment whose g_i falls below
 *    `minGainPerDoubling` (default 0.25 = 25 %). The verdict at N_i reads only levels ≤ N_{i+1}, so
 *    levels added above N_{i+1}, or removed from above it, never move it (unlike Kneedle, which
 *    normalises x and y by the whole range). The gain per doubling is the same whatever the spacing
 *    of two levels when X ∝ N^b (g = 2^b − 1), so the spacing changes only where the bend is resolved.
 *
 * Levels with a failed outcome end the curve: both rules read the measured levels before the first
 * failed one (a failure is reported as such, never as a point of the curve).
 */

/** One measured level of a sweep. `p99Ms`, `jitterPct` null when not measured. */
export interface SweepPoint {
  threads: number;
  throughputOpsPerS: number;
  p99Ms: number | null;
  jitterPct: number | null;
}

/** The study's rule parameters (published.json '003' inflectionRule). */
export interface StudyRuleParams {
  /** P99 jump over the previous level, % */
  p99JumpPct: number;
  /** P99 above, ms */
  p99AbsMs: number;
  /** jitter jump over the previous level, % */
  jitterJumpPct: number;
  /** jitter above, % */
  jitterAbsPct: number;
}

export const STUDY_RULE_003: StudyRuleParams = { p99JumpPct: 30, p99AbsMs: 80, jitterJumpPct: 50, jitterAbsPct: 12 };

/** The default of rule 2: a doubling of N that adds less than 25 % throughput is past the knee. */
export const MIN_GAIN_PER_DOUBLING = 0.25;

export interface StudyRuleStep {
  from: number;
  to: number;
  p99Jump: boolean;
  p99Abs: boolean;
  jitterJump: boolean;
  jitterAbs: boolean;
  /** all four (the rule's AND) */
  fires: boolean;
}

/** Result of a rule: the knee level or null ("none within the range"), and the per-step evidence. */
export interface KneeResult<S> {
  kneeThreads: number | null;
  steps: S[];
}

function ascending(points: readonly SweepPoint[]): SweepPoint[] {
  const ps = [...points].sort((a, b) => a.threads - b.threads);
  for (let i = 1; i < ps.length; i++) if (ps[i]!.threads === ps[i - 1]!.threads) throw new Error(`knee: two points at N = ${ps[i]!.threads}`);
  return ps;
}

/**
 * Rule 1 (the study's, literal): the first `curr` with P99 > prev × (1 + p99JumpPct/100) and
 * P99 > p99AbsMs and jitter > prev × (1 + jitterJumpPct/100) and jitter > jitterAbsPct. A step with a
 * null figure does not fire. Points in any order (sorted by N); two points at one N throw.
 */
export function studyRuleKnee(points: readonly SweepPoint[], r: StudyRuleParams = STUDY_RULE_003): KneeResult<StudyRuleStep> {
  const ps = ascending(points);
  const steps: StudyRuleStep[] = [];
  let knee: number | null = null;
  for (let i = 1; i < ps.length; i++) {
    const a = ps[i - 1]!;
    const b = ps[i]!;
    const p99Jump = a.p99Ms !== null && b.p99Ms !== null && b.p99Ms > a.p99Ms * (1 + r.p99JumpPct / 100);
    const p99Abs = b.p99Ms !== null && b.p99Ms > r.p99AbsMs;
    const jitterJump = a.jitterPct !== null && b.jitterPct !== null && b.jitterPct > a.jitterPct * (1 + r.jitterJumpPct / 100);
    const jitterAbs = b.jitterPct !== null && b.jitterPct > r.jitterAbsPct;
    const fires = p99Jump && p99Abs && jitterJump && jitterAbs;
    steps.push({ from: a.threads, to: b.threads, p99Jump, p99Abs, jitterJump, jitterAbs, fires });
    if (fires && knee === null) knee = b.threads;
  }
  return { kneeThreads: knee, steps };
}

export interface DoublingStep {
  from: number;
  to: number;
  /** throughput gained per doubling of N over this segment, a fraction (1 = +100 %); null when X_from ≤ 0 */
  gainPerDoubling: number | null;
  below: boolean;
}

/**
 * Rule 2 (range-independent): the lower level of the first segment whose throughput gain per
 * doubling of N is below `minGain` (a fraction). A segment with X_from ≤ 0 has no gain (null) and
 * does not fire. Points in any order (sorted by N); two points at one N throw.
 */
export function doublingRuleKnee(points: readonly SweepPoint[], minGain = MIN_GAIN_PER_DOUBLING): KneeResult<DoublingStep> {
  const ps = ascending(points);
  const steps: DoublingStep[] = [];
  let knee: number | null = null;
  for (let i = 1; i < ps.length; i++) {
    const a = ps[i - 1]!;
    const b = ps[i]!;
    const g = a.throughputOpsPerS > 0 ? Math.pow(b.throughputOpsPerS / a.throughputOpsPerS, 1 / Math.log2(b.threads / a.threads)) - 1 : null;
    const below = g !== null && g < minGain;
    steps.push({ from: a.threads, to: b.threads, gainPerDoubling: g, below });
    if (below && knee === null) knee = a.threads;
  }
  return { kneeThreads: knee, steps };
}
