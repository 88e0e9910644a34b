/**
 * Study 000's arms and the model facts its report reads everywhere: the fixed pool's size and queue,
 * the fixed-vs-virtual comparison, whether the run is open loop. Pure.
 */
import type { BaseModel } from '../../../report/types.ts';
import { primaryPair } from '../../../report/model.ts';

/** the study's two arms (src/studies/000/index.ts VARIANTS) */
export const FIXED = 'fixed';
export const VIRTUAL = 'virtual';
/** the highest level of the study, where its thread dumps and headline figures were taken */
export const TOP = 500;

/**
 * The fixed arm's executor: the run's own, or — in a run without the fixed arm (e.g. `--variants
 * virtual`) — the study's definition, which the hypothesis and the bounds still name.
 */
export function fixedExecutor(model: Pick<BaseModel, 'variantSpecs' | 'study'>) {
  return (model.variantSpecs.get(FIXED) ?? model.study.variants.find((v) => v.id === FIXED))?.executor;
}
/** The fixed pool's size (N): this run's, or the study's when the run has no fixed arm. */
export function poolSize(model: Pick<BaseModel, 'variantSpecs' | 'study'>): number {
  const e = fixedExecutor(model);
  return e?.kind === 'platform-pool' ? e.threads : 0;
}
/** The fixed pool's queue capacity: this run's, or the study's when the run has no fixed arm. */
export function queueCapacity(model: Pick<BaseModel, 'variantSpecs' | 'study'>): number {
  const e = fixedExecutor(model);
  return e?.kind === 'platform-pool' ? e.queueCapacity : 0;
}
/** fixed vs virtual (the study's one comparison) */
export const pair000 = (model: Pick<BaseModel, 'pairs'>) => {
  const p = primaryPair(model);
  return p && p.baseline === FIXED && p.candidate === VIRTUAL ? p : null;
};
/** The highest level of the fixed vs virtual pair (its row pair), or null without that pair. */
export const highestOf = (model: Pick<BaseModel, 'pairs'>) => pair000(model)?.highest ?? null;

/** True when the run's rows are open-loop cells (RowModel.openLoop: levels are arrival rates). */
export const openLoopRun = (model: Pick<BaseModel, 'rows' | 'openLoop'>): boolean => model.openLoop !== null || model.rows.some((r) => r.openLoop);
