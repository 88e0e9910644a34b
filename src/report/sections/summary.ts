/** Report sections `{{title}}`, `{{fixtureNote}}` and the generic `{{summary}}` (a study usually has its own). Pure. */
import type { ReportModel } from '../types.ts';
import { int, ms, num, pct, raw, rps, type Raw } from '../format.ts';
import type { SectionKit } from './kit.ts';

/** `{{summary}}`: the setup, then each comparison at its highest level with a throughput outcome. */
export function summary(model: ReportModel, k: SectionKit): Raw {
  const { P, variantName } = k;
  const o = model.manifest.options;
  const latencies = serviceTimes(model);
  const t = model.totals;
  const summaryParts: Raw[] = [P(latencies.length > 1 ? 'summary.setup.perScenario' : 'summary.setup', {
    profile: o.profile, latencyMs: int(model.latencyMs), levels: model.levels.join(', '),
    // over several scenarios the variants by id (each label repeats its scenario's; 002's list ran to ~1,000 words, issue 31)
    variants: latencies.length > 1 ? model.variants.map((v) => `\`${v}\``).join(', ') : model.variants.map(variantName).join(', '),
    repeatsText: P(o.repeats === 1 ? 'summary.repeats.one' : 'summary.repeats.many', { n: int(o.repeats) }),
    count: int(t.count), ok: int(t.ok), failed: int(t.failed),
    // a run over several scenarios: each scenario's own service time, never the first cell's for all
    serviceTimes: latencies.map((x) => `${x.scenario} ${int(x.latencyMs)} ms`).join(', '),
  })];
  // held connections are not requests: their own count, and how much of the expected pushes arrived at the largest level
  if (t.held) {
    summaryParts.push(P('summary.held', {
      cells: int(t.held.cells), asked: int(t.held.asked), opened: int(t.held.opened), top: int(t.held.topLevel),
      delivered: t.held.deliveredMin === t.held.deliveredMax ? pct(t.held.deliveredMin * 100, 0) : `${pct(t.held.deliveredMin * 100, 0)}–${pct(t.held.deliveredMax * 100, 0)}`,
    }));
  }
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

/** The service time L of each scenario of the run's request cells (cells' `latencyMs`), in first-seen order; one entry per (scenario, L). */
function serviceTimes(model: Pick<ReportModel, 'cells'>): { scenario: string; latencyMs: number }[] {
  const out: { scenario: string; latencyMs: number }[] = [];
  for (const c of model.cells) {
    if (c.load.websocket !== undefined || c.job !== undefined) continue;
    if (!out.some((x) => x.scenario === c.scenario && x.latencyMs === c.latencyMs)) out.push({ scenario: c.scenario, latencyMs: c.latencyMs });
  }
  return out;
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
