/**
 * The verdict of a target run per level: candidate ÷ baseline throughput and P95 (issue 32), with the
 * engine's "same" band. Pure.
 */
import type { TargetArm } from '../../types/target.ts';
import type { ArmInference } from './inference.ts';

/**
 * relative band of "the same": a ratio within 1 ± 5 %. The engine's ANSWER_TIE_BAND
 * (src/report/answer.ts verdictOf), stated again because compute may not import report;
 * test/unit/target-limit.test.ts checks they agree.
 */
export const SAME_BAND = 0.05;

/** The two arms a run compares: the first arm not on virtual threads (baseline) and the first on them (candidate); else the first two arms; null with fewer than two. */
export function armPair(arms: readonly Pick<TargetArm, 'id' | 'virtualThreads'>[]): { baseline: string; candidate: string } | null {
  const b = arms.find((a) => a.virtualThreads === false);
  const c = arms.find((a) => a.virtualThreads === true);
  if (b && c) return { baseline: b.id, candidate: c.id };
  if (arms.length < 2) return null;
  return { baseline: arms[0]!.id, candidate: arms[1]!.id };
}

/** 'higher' / 'lower' / 'same' of a ratio against SAME_BAND; null without a finite ratio. */
export function ratioWord(ratio: number | null): 'higher' | 'lower' | 'same' | null {
  if (ratio === null || !Number.isFinite(ratio)) return null;
  if (ratio > 1 + SAME_BAND + 1e-9) return 'higher';
  if (ratio < 1 - SAME_BAND - 1e-9) return 'lower';
  return 'same';
}

/** One level of the comparison. Ratios are candidate ÷ baseline. */
export interface TargetLevelVerdict {
  level: number;
  throughputRatio: number | null;
  p95Ratio: number | null;
  /** throughput: 'faster' when the ratio is above the band, 'slower' below, 'same' within; 'none' without a ratio */
  verdict: 'faster' | 'slower' | 'same' | 'none';
  /** P95 against the band ('lower' is better) */
  p95: 'higher' | 'lower' | 'same' | null;
}

const ratio = (a: number | null, b: number | null): number | null => (a !== null && b !== null && b > 0 ? a / b : null);

/** The verdict at every level both arms measured, ascending. */
export function compareArms(baseline: ArmInference, candidate: ArmInference): TargetLevelVerdict[] {
  return baseline.levels.flatMap((b) => {
    const c = candidate.levels.find((x) => x.level === b.level);
    if (!c) return [];
    const tr = ratio(c.throughputRps, b.throughputRps);
    const w = ratioWord(tr);
    return [{ level: b.level, throughputRatio: tr, p95Ratio: ratio(c.p95Ms, b.p95Ms), verdict: w === null ? 'none' : w === 'higher' ? 'faster' : w === 'lower' ? 'slower' : 'same', p95: ratioWord(ratio(c.p95Ms, b.p95Ms)) }];
  });
}
