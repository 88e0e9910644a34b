/** Report sections `{{title}}`, `{{fixtureNote}}` and the generic `{{summary}}` (a study usually has its own). Pure. */
import type { ReportModel } from '../types.ts';
import { int, ms, num, raw, rps, type Raw } from '../format.ts';
import type { SectionKit } from './kit.ts';

/** `{{summary}}`: the setup, then each comparison at its highest level with a throughput outcome. */
export function summary(model: ReportModel, k: SectionKit): Raw {
  const { P, variantName } = k;
  const o = model.manifest.options;
  const summaryParts: Raw[] = [P('summary.setup', {
    profile: o.profile, latencyMs: int(model.latencyMs), levels: model.levels.join(', '), variants: model.variants.map(variantName).join(', '),
    repeatsText: P(o.repeats === 1 ? 'summary.repeats.one' : 'summary.repeats.many', { n: int(o.repeats) }),
    count: int(model.totals.count), ok: int(model.totals.ok), failed: int(model.totals.failed),
  })];
  for (const p of model.pairs) {
    const hi = p.highest;
    if (!hi || !hi.throughput) continue;
    summaryParts.push(P('summary.comparison', {
      baseline: raw(variantName(p.baseline)), candidate: raw(variantName(p.candidate)), c: int(hi.concurrency),
      fx: rps(hi.baseline.wholeRunRps.median), vt: rps(hi.candidate.wholeRunRps.median), ratio: num(hi.throughputRatio, 2),
      fxP95: ms(hi.baseline.e2eP95Ms.median), vtP95: ms(hi.candidate.e2eP95Ms.median),
    }));
  }
  return k.join(summaryParts);
}

/** `{{title}}` */
export const title = (model: ReportModel, k: SectionKit): string => k.s('title', { runId: model.runId });

/** `{{fixtureNote}}`: the fixture's note or the run's id and status; an open-loop run adds its banner (its levels are arrival rates, which the closed-loop sections read as workers). */
export function fixtureNote(model: ReportModel, k: SectionKit): Raw {
  return raw([
    model.isFixture ? k.P('fixtureNote').md : k.s('runNote', { runId: model.runId, status: k.statusText(model.manifest.status) }),
    ...(model.openLoop !== null ? [k.s('openLoop.banner')] : []),
  ].join('\n\n'));
}
