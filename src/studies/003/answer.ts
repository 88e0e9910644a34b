/**
 * Study 003's answer block (StudyReportHook.answer, src/report/answer-types.ts): one row per level of
 * the sweep (levelUnit 'threads'), one arm (the virtual threads the sweep starts): ops/s against the
 * bound N / L, the op latency P99, and what limited the level (limit003); verdict 'none' (one arm, no
 * ratio); the study line gives the knee under both rules (knee.ts) on the curve of the repeats'
 * medians and, when a repeat's own curve puts it elsewhere, each repeat's knee and the levels whose
 * repeats disagree (issue 31 item 6). Pure.
 */
import type { AnswerArm, AnswerBlock, AnswerLimit, AnswerRow } from '../../report/answer-types.ts';
import type { BaseModel } from '../../report/types.ts';
import type { CellResult } from '../../types/run.ts';
import { int, num } from '../../report/format.ts';
import { BOUND_EXCEEDED_LIMIT, REACHED_SHARE, disagree, exceeded, pctOfBound, repeatsIfDisagree, unknownLimit } from '../answer-common.ts';
import { curvePoints, knees, sweepLevels, type Derived003, type SweepLevel } from './report.ts';
import { doublingRuleKnee, studyRuleKnee } from './knee.ts';

/** The host flags that say the host's CPU was taken. */
const HOST_CPU_FLAGS: readonly string[] = ['host-cpu', 'loadgen-cpu', 'host-other-cpu'];

/** The evidence limit003 reads beside the level: the codes of the flags raised in the level's cells. */
export interface LevelFlags003 {
  flags: readonly string[];
}

/**
 * What limited one level, from its data: a failed level by its outcome (`oom`, `start-failed` →
 * 'memory'; `host-limit` → 'host' with the threads this host allows (its cap); `timeout`, `op-errors` →
 * 'unknown' with that note); an ok level above N / L × 1.02 → 'unknown', 'bound-exceeded'; at 95 %
 * of N / L or more → 'offered-load' (the N threads themselves); below, every carrier thread mounted
 * with virtual threads queued for one, or the SUT's CPU flagged → 'cpu' (note 'carriers'); else a
 * host CPU flag → 'host'; else 'unknown' ('no-cap-saturated'). Pure.
 */
export function limit003(l: SweepLevel, f: LevelFlags003): AnswerLimit {
  const failed = l.outcomes.filter((o) => o !== 'ok');
  if (failed.some((o) => o === 'oom' || o === 'start-failed')) return { kind: 'memory', cap: null, used: null, unit: 'threads', source: 'measured', note: failed.includes('oom') ? 'oom' : 'start-failed' };
  if (failed.includes('host-limit')) return { kind: 'host', cap: l.hostLimitThreads, used: null, unit: 'threads', source: 'measured', note: 'host-limit' };
  if (failed.length > 0) return unknownLimit(failed[0]!);
  const x = l.throughputOpsPerS.median;
  if (x === null) return unknownLimit('no-data');
  if (exceeded(x, l.idealOpsPerS)) return BOUND_EXCEEDED_LIMIT;
  if (l.idealOpsPerS !== null && x >= l.idealOpsPerS * REACHED_SHARE) return { kind: 'offered-load', cap: l.threads, used: null, unit: 'threads', source: 'inferred' };
  const carriersFull = l.parallelism !== null && l.mountedMax.median !== null && l.queuedMax.median !== null && l.mountedMax.median >= l.parallelism && l.queuedMax.median > 0;
  if (carriersFull) return { kind: 'cpu', cap: l.parallelism, used: l.mountedMax.median, unit: 'threads', source: 'measured', note: 'carriers' };
  if (f.flags.includes('sut-cpu')) return { kind: 'cpu', cap: l.cpus, used: null, unit: 'cores', source: 'measured' };
  if (f.flags.some((c) => HOST_CPU_FLAGS.includes(c))) return { kind: 'host', cap: null, used: null, unit: '%', source: 'measured', note: 'host-flags' };
  return unknownLimit('no-cap-saturated');
}

/** The flags raised in a level's cells, distinct, sorted. */
function levelFlags(cells: readonly CellResult[], threads: number): LevelFlags003 {
  return { flags: [...new Set(cells.filter((c) => c.concurrency === threads).flatMap((c) => c.flags.map((x) => x.code)))].sort() };
}

/** One row per sweep level: the arm `virtual`, ops/s against N / L, op latency P99. */
export function rows003(levels: readonly SweepLevel[], cells: readonly CellResult[], variant: string): AnswerRow[] {
  return levels.map((l) => {
    const value = l.throughputOpsPerS.median;
    const arm: AnswerArm = {
      variant, metric: 'ops', unit: 'ops/s', value, repeats: repeatsIfDisagree(l.throughputOpsPerS.values),
      bound: l.idealOpsPerS, pctOfBound: pctOfBound(value, l.idealOpsPerS),
      p95Ms: null, p99Ms: l.latencyP99Ms.median,
      limitedBy: limit003(l, levelFlags(cells, l.threads)),
    };
    return { scenario: null, level: l.threads, levelUnit: 'threads', arms: [arm], ratio: null, ratioRepeats: [] };
  });
}

/** Each repeat's knee under both rules, from that repeat's own curve (its cells only). */
export function repeatKnees(cells: readonly CellResult[]): { repeat: number; study: number | null; doubling: number | null }[] {
  const repeats = [...new Set(cells.map((c) => c.repeat))].sort((a, b) => a - b);
  return repeats.map((repeat) => {
    const pts = curvePoints(sweepLevels(cells.filter((c) => c.repeat === repeat)));
    return { repeat, study: studyRuleKnee(pts).kneeThreads, doubling: doublingRuleKnee(pts).kneeThreads };
  });
}

const kneeText = (n: number | null): string => (n === null ? '—' : int(n));

/**
 * The study line: phrase `answer.knee003` (the knee under both rules on the curve of the medians,
 * the repeats agreeing), or `answer.knee003.repeats` when a repeat's own curve puts either knee
 * elsewhere: then each repeat's knees and the levels whose repeats' ops/s disagree (each repeat's
 * value). Null when the run has no curve.
 */
export function kneeLine003(levels: readonly SweepLevel[], cells: readonly CellResult[]): AnswerBlock['studyLine'] | null {
  const pts = curvePoints(levels);
  if (pts.length === 0) return null;
  const k = knees(pts);
  const per = repeatKnees(cells);
  const v = { study: kneeText(k.study.kneeThreads), doubling: kneeText(k.doubling.kneeThreads), repeats: int(per.length) };
  const differ = per.length > 1 && per.some((r) => r.study !== k.study.kneeThreads || r.doubling !== k.doubling.kneeThreads);
  if (!differ) return { key: 'knee003', v };
  const perRepeat = per.map((r) => `#${r.repeat} ${kneeText(r.study)} / ${kneeText(r.doubling)}`).join(', ');
  const spread = levels.filter((l) => l.ok && disagree(l.throughputOpsPerS.values))
    .map((l) => `${int(l.threads)}: ${l.throughputOpsPerS.values.map((x) => (x === null ? '—' : num(x, 0))).join(' / ')} ops/s`).join('; ');
  return { key: 'knee003.repeats', v: { ...v, perRepeat, spread: spread === '' ? '—' : spread } };
}

/** The figure of the headline chart: the sweep's ops/s against threads with N / L (report.ts charts). */
export const ANSWER_CHART_003 = 'sweep-throughput';

/** Study 003's answer block: its level rows, verdict 'none', the generic trust line, the knee line, the sweep chart. Pure. */
export function answer003(model: BaseModel<Derived003>, generic: AnswerBlock): AnswerBlock {
  const levels = model.derived.levels;
  const rows = rows003(levels, model.cells, model.variants[0] ?? 'virtual');
  const line = kneeLine003(levels, model.cells);
  return {
    ...generic,
    verdict: 'none', ratioRange: null, rows,
    chart: levels.length > 0 ? ANSWER_CHART_003 : generic.chart,
    ...(line ? { studyLine: line } : {}),
  };
}
