/**
 * One arm of a target run, computed whole: its inference (inference.ts), caps inventory and the
 * caps' use and the limit at each level (caps.ts, limit.ts). Pure: the caller reads the files.
 */
import type { Cap, CapUse, JmxSample, TargetArm, TargetCell, TargetJvmInfo, TargetProbe } from '../../types/target.ts';
import { inferArm, type ArmInference, type TargetLevelStat } from './inference.ts';
import { capsInventory, capUse, mergeCapUses, samplesInCell } from './caps.ts';
import { limitOf, type TargetLimit } from './limit.ts';

/** One level of an arm with its caps' use (over its repeats) and what limited it. */
export interface TargetArmLevel {
  stat: TargetLevelStat;
  /** per cap of the inventory, in its order */
  uses: CapUse[];
  limit: TargetLimit;
}

export interface TargetArmAnalysis {
  arm: TargetArm;
  inference: ArmInference;
  caps: Cap[];
  levels: TargetArmLevel[];
}

/**
 * @param cells every cell of the run (the arm's are picked)
 * @param samplesByCell the samples file of each cell (`cells/<id>.samples.json`), whole: filtered here to [t0EpochMs, endEpochMs]; a cell without one is absent
 * @param jvm the arm's JVM info (manifest.jvm[arm.id]), null when none
 */
export function analyseArm(arm: TargetArm, probes: readonly TargetProbe[], cells: readonly TargetCell[], samplesByCell: ReadonlyMap<string, readonly JmxSample[]>, jvm: TargetJvmInfo | null, mode: TargetCell['mode']): TargetArmAnalysis {
  const inference = inferArm(arm.id, probes, cells, mode);
  const mine = cells.filter((c) => c.arm === arm.id);
  const inCell = new Map(mine.map((c) => [c.id, samplesInCell(c, samplesByCell.get(c.id) ?? [])]));
  const top = inference.levels.length ? inference.levels[inference.levels.length - 1]!.level : null;
  const caps = capsInventory({ arm, samples: [...inCell.values()].flat(), jvm, r1Ms: inference.r1MeanMs, topCells: mine.filter((c) => c.level === top) });
  const levels = inference.levels.map((stat) => {
    const uses = caps.map((cap) => mergeCapUses(stat.cellIds.map((id) => capUse(cap, inCell.get(id) ?? [])), cap));
    const shares = mine.filter((c) => stat.cellIds.includes(c.id)).map((c) => c.hostCpuBusyShare).filter((x): x is number => typeof x === 'number');
    const host = shares.length ? shares.reduce((a, b) => a + b, 0) / shares.length : null;
    return { stat, uses, limit: limitOf(caps, uses, stat.throughputRps, stat.offeredBoundRps, host, mode) };
  });
  return { arm, inference, caps, levels };
}
