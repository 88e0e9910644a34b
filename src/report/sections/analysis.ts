/** Report sections `{{boundTable}}`, `{{decomposition}}` and `{{little}}`, and the edge note a study may reuse. Pure (adds footnotes to the kit's book). */
import type { ReportModel } from '../types.ts';
import { int, ms, pct, raw, rps, table, type Raw } from '../format.ts';
import { derivedProv, optionProv } from '../provenance.ts';
import type { SectionKit } from './kit.ts';

/** The plan's requests per worker n, with its provenance. */
const nOpt = (model: ReportModel, k: SectionKit): Raw => k.pv(int(model.manifest.options.requestsPerWorker), optionProv('requestsPerWorker'));

/** Phrase `edge.note` for this plan: n and the ramp fraction n / (n + 1) (RenderContext.edgeNote). */
export function edgeNote(model: ReportModel, k: SectionKit): string {
  const n = model.manifest.options.requestsPerWorker;
  return k.s('edge.note', { n: nOpt(model, k), frac: k.pv(pct(model.rampFraction * 100), derivedProv('rampFraction', `n / (n + 1) = ${int(n)} / ${int(n + 1)} = ${pct(model.rampFraction * 100)}`, [optionProv('requestsPerWorker')])) });
}

/** `{{boundTable}}`: throughput against the bounds; an open-loop run has no waves bound and no per-worker steady state (there are no workers). */
export function boundTable(model: ReportModel, k: SectionKit): Raw {
  const { s, pv, variantName, lvl } = k;
  return k.openLoopRun
    ? table([s('h.mode'), s('h.concurrency'), s('h.throughput'), s('h.bound'), s('h.pctOfBound')],
      model.rows.map((r) => [raw(variantName(r.variant)), lvl(r), pv(rps(r.wholeRunRps.median), r.prov.wholeRunRps), pv(rps(r.boundRps), r.prov.boundRps), pv(pct(r.pctOfBound), r.prov.pctOfBound)]), ['l', 'r', 'r', 'r', 'r'])
    : table([s('h.mode'), s('h.concurrency'), s('h.throughput'), s('h.bound'), s('h.pctOfBound'), raw(s('h.wavesBound', { n: nOpt(model, k) })), s('h.pctOfWaves'), s('h.steady')],
      model.rows.map((r) => [raw(variantName(r.variant)), lvl(r), pv(rps(r.wholeRunRps.median), r.prov.wholeRunRps), pv(rps(r.boundRps), r.prov.boundRps), pv(pct(r.pctOfBound), r.prov.pctOfBound), r.wavesWholeRunRps === null ? '—' : pv(rps(r.wavesWholeRunRps), r.prov.wavesWholeRunRps), pv(pct(r.pctOfWavesBound), r.prov.pctOfWavesBound), pv(rps(r.steadyRps.median), r.prov.steadyRps)]),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r']);
}

/** `{{decomposition}}`: mean E2E split into queue wait, execution and overhead, per row, then its note. */
export function decomposition(model: ReportModel, k: SectionKit): Raw {
  const { s, pv, variantName, lvl } = k;
  return raw(`${table([s('h.mode'), s('h.concurrency'), s('h.meanE2e'), s('h.meanQueue'), s('h.meanExec'), s('h.overhead'), s('h.queueShare'), s('h.n')],
    model.rows.map((r) => r.means
      ? [raw(variantName(r.variant)), lvl(r), pv(ms(r.means.e2eMs), r.prov.meanE2eMs), pv(ms(r.means.queueMs), r.prov.meanQueueMs), pv(ms(r.means.execMs), r.prov.meanExecMs), pv(ms(r.means.overheadMs), r.prov.overheadMs), pv(pct((r.means.queueMs / r.means.e2eMs) * 100), r.prov.queueShare), pv(int(r.means.n), r.prov.meansN)]
      : [raw(variantName(r.variant)), lvl(r), '—', '—', '—', '—', '—', '—']),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r']).md}\n\n${s('decomp.note')}`);
}

/** `{{little}}`: Little's law X = c / mean(E2E) against the measured throughput; in open loop only the note (phrase little.note@openLoop says where L = λW is checked). */
export function little(model: ReportModel, k: SectionKit): Raw {
  const { P, s, pv, variantName, lvl } = k;
  if (k.openLoopRun) return P('little.note');
  return raw(`${table([s('h.mode'), s('h.concurrency'), s('h.meanE2e'), s('h.littleRps'), s('h.measuredRps'), s('h.ratio')],
    model.rows.map((r) => [raw(variantName(r.variant)), lvl(r), pv(ms(r.means?.e2eMs), r.prov.meanE2eMs), pv(rps(r.little?.predictedRps), r.prov.littlePredictedRps), r.little ? raw(`${pv(rps(r.little.measuredRps), r.prov.littleMeasuredRps).md} (${s(`def.${r.little.measuredDefinition}`)})`) : '—', r.little ? pv(pct(r.little.ratio * 100), r.prov.littleRatio) : '—']),
    ['l', 'r', 'r', 'r', 'r', 'r']).md}\n\n${s('little.note')}`);
}
