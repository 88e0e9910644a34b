/** Report section `{{method}}`: the warm-up, the plan and its totals, closed or open loop. Pure. */
import type { ReportModel } from '../types.ts';
import { esc, int, num, raw, type Raw } from '../format.ts';
import type { SectionKit } from './kit.ts';

/** The warm-up sentence: none, the open-loop warm-up (the lowest arrival rate for warmupS, src/plan/plan.ts), or one per variant. */
function warmupText(model: ReportModel, k: SectionKit): Raw {
  const { P, s, variantName } = k;
  const o = model.manifest.options;
  return model.warmups === null || model.warmups.length === 0
    ? P('method.noWarmup')
    : model.openLoop !== null ? P('openLoop.warmup', { warmupS: num(o.warmupS, 0), rate: int(Math.min(...o.levels)) })
    : P('method.warmup', { warmupS: int(o.warmupS), list: raw(model.warmups.map((w) => s('method.warmupMode', { variant: raw(variantName(w.variant)), workers: int(w.workers), k: int(w.requestsPerWorker), s: num(w.theoreticalS, 1) })).join(s('reason.sep'))) });
}

/** `{{method}}`: phrase `method` (closed loop) or `openLoop.method`, filled from the plan. */
export function method(model: ReportModel, k: SectionKit): Raw {
  const { P, variantName } = k;
  const o = model.manifest.options;
  const warmup = warmupText(model, k);
  const repeatsText = P(o.repeats === 1 ? 'method.repeats.one' : 'method.repeats.many', { repeats: int(o.repeats), variants: model.variants.map(variantName).join(', ') });
  return model.openLoop !== null
    ? P('openLoop.method', {
      warmup, repeatsText,
      durationS: num(model.openLoop[0]!.durationS, 0), arrival: esc(o.arrival ?? 'constant'), maxInFlight: int(model.openLoop[0]!.maxInFlight),
      scheduled: int(model.totals.plannedTotal), cells: int(model.totals.plannedCells),
    })
    : P('method', {
      warmup, repeatsText,
      n: int(o.requestsPerWorker), repeats: int(o.repeats),
      levelsSum: o.levels.join(' + '), workers: int(o.levels.reduce((a, b) => a + b, 0)), perRepeat: int(model.totals.plannedPerRepeatPerVariant),
      perVariant: int(model.totals.plannedPerRepeatPerVariant * o.repeats), variantCount: int(o.variants.length), total: int(model.totals.plannedTotal),
      start: P(`start.${o.start}`), cells: int(model.totals.plannedCells),
    });
}
