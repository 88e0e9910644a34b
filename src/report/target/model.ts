/**
 * The model of a target report (issue 32): every number the report prints, from the run's files
 * through src/compute/target/. Pure: files in, numbers out; render.ts words them.
 */
import type { TargetCell, TargetManifest } from '../../types/target.ts';
import type { ThreadDumpSummary } from '../../types/run.ts';
import { analyseArm, type TargetArmAnalysis } from '../../compute/target/arm.ts';
import { capUse, samplesInCell } from '../../compute/target/caps.ts';
import { cellThroughputRps } from '../../compute/target/inference.ts';
import { limitOf, type TargetLimit } from '../../compute/target/limit.ts';
import { armPair, compareArms, type TargetLevelVerdict } from '../../compute/target/verdict.ts';
import type { TargetRunFiles } from './load.ts';

export interface TargetReportModel {
  manifest: TargetManifest;
  cells: TargetCell[];
  /** per arm of the manifest, in its order (an arm without cells has empty levels) */
  arms: TargetArmAnalysis[];
  /** the compared arms (armPair); null with fewer than two arms */
  pair: { baseline: string; candidate: string } | null;
  /** per level both compared arms measured */
  verdicts: TargetLevelVerdict[];
  /** per cell id: what limited it (its own samples; the offered-load rule at its own throughput) */
  cellLimits: Map<string, TargetLimit>;
  /**
   * the answer's levels: the highest level (both compared arms measured, else any), then the knee
   * (the baseline's, else the candidate's) when it is another measured level
   */
  answerLevels: number[];
  dumps: Map<string, ThreadDumpSummary>;
}

/**
 * Build the model of a target run. Pure. A cell the manifest lists as failed is left out even when
 * its file exists (a failed cell is never a measurement).
 */
export function buildTargetModel(files: TargetRunFiles): TargetReportModel {
  const m = files.manifest;
  const failed = new Set(m.failed.map((f) => f.id));
  const run = { ...files, cells: files.cells.filter((c) => !failed.has(c.id)) };
  const arms = m.arms.map((a) => analyseArm(a, m.probes, run.cells, run.samples, m.jvm[a.id] ?? null, m.mode));
  const pair = armPair(m.arms);
  const byId = (id: string | undefined) => arms.find((a) => a.arm.id === id) ?? null;
  const base = byId(pair?.baseline);
  const cand = byId(pair?.candidate);
  const verdicts = base && cand ? compareArms(base.inference, cand.inference) : [];
  const cellLimits = new Map<string, TargetLimit>();
  for (const c of run.cells) {
    const a = byId(c.arm);
    if (!a) continue;
    const inCell = samplesInCell(c, run.samples.get(c.id) ?? []);
    const uses = a.caps.map((cap) => capUse(cap, inCell));
    const stat = a.inference.levels.find((l) => l.level === c.level);
    cellLimits.set(c.id, limitOf(a.caps, uses, cellThroughputRps(c.summary), stat?.offeredBoundRps ?? null, c.hostCpuBusyShare ?? null));
  }
  const common = verdicts.map((v) => v.level);
  const all = [...new Set(run.cells.map((c) => c.level))].sort((x, y) => x - y);
  const levels = common.length ? common : all;
  const top = levels.length ? levels[levels.length - 1]! : null;
  const knee = base?.inference.kneeLevel ?? cand?.inference.kneeLevel ?? (arms.length === 1 ? arms[0]!.inference.kneeLevel : null);
  const answerLevels = top === null ? [] : knee !== null && knee !== top && levels.includes(knee) ? [top, knee] : [top];
  return { manifest: m, cells: run.cells, arms, pair, verdicts, cellLimits, answerLevels, dumps: run.dumps };
}
