/** Study 000's `{{highestTable}}`, `{{lowest}}`, `{{queueTrend}}` and `{{vtTrend}}`. Pure (adds footnotes). */
import type { ReportModel } from '../../../report/model.ts';
import { int, ms, num, pct, raw, rps, signed, table, type Raw } from '../../../report/format.ts';
import { derivedProv, optionProv } from '../../../report/provenance.ts';
import { FIXED, VIRTUAL } from './common.ts';
import type { Kit000 } from './kit.ts';

/** `{{highestTable}}`: the comparison at the highest common level with its headline. */
export function highestTable(model: ReportModel, k: Kit000): Raw {
  const { P, s, cmpTable } = k.ctx;
  const h = k.h;
  return h
    ? raw(`${s(model.manifest.options.repeats === 1 ? 'results.highestIntro.one' : 'results.highestIntro', { c: k.lv(h.baseline) })}\n\n${cmpTable(h).md}\n\n${k.headline(h).md}`)
    : P('results.noComparison');
}

/** `{{lowest}}`: the comparison at the lowest common level (when it is not the highest), below or above the pool. */
export function lowest(k: Kit000): Raw {
  const { P, s, pv, cmpTable } = k.ctx;
  const lo = k.lo0;
  if (!(lo && lo !== k.h && lo.throughput)) return P('results.noComparison');
  // below the pool: c ≤ N workers, or in open loop λ ≤ N/L (the pool's capacity, lo.baseline.boundRps < λ above it)
  const below = k.ol ? lo.baseline.boundRps >= lo.concurrency : lo.concurrency <= k.N;
  const key = below ? `lowest.belowPool.${lo.throughput}` : `lowest.abovePool.${lo.throughput}`;
  const dText = signed(((lo.throughputRatio ?? 1) - 1) * 100, 1);
  const dV = pv(dText, derivedProv('change', lo.throughputRatio === null ? null : `(${rps(lo.candidate.wholeRunRps.median)} − ${rps(lo.baseline.wholeRunRps.median)}) / ${rps(lo.baseline.wholeRunRps.median)} = ${dText} %`, [lo.baseline.prov.wholeRunRps, lo.candidate.prov.wholeRunRps]));
  return raw(`${cmpTable(lo).md}\n\n${s(key, { c: k.lv(lo.baseline), N: k.Nv(), cap: k.capV(), fx: k.med(lo.baseline, 'wholeRunRps', rps), vt: k.med(lo.candidate, 'wholeRunRps', rps), fxP95: k.med(lo.baseline, 'e2eP95Ms', ms), vtP95: k.med(lo.candidate, 'e2eP95Ms', ms), diffPct: dV })}`);
}

/** `{{queueTrend}}`: the fixed pool's queue wait per level against theory; open loop: against its growth λ − N/L (the published closed-loop figures are not set beside a rate). */
export function queueTrend(model: ReportModel, k: Kit000): Raw {
  const { P, s, pv, msT } = k.ctx;
  const { lv, spread } = k;
  const fixedRows = model.rows.filter((r) => r.variant === FIXED);
  if (!fixedRows.length) return P('results.noMode', { variant: raw(k.name(FIXED)) });
  if (k.ol) {
    return raw(`${table([s('h.concurrency'), s('h.queueP95'), s('h.ol.theory'), s('h.execP95')], fixedRows.map((r) => [
      lv(r), spread(r, 'queueP95Ms', ms), pv(num(r.queueGrowthPerS, 2), r.prov.queueGrowthPerS), spread(r, 'execP95Ms', ms),
    ]), ['r', 'r', 'r', 'r']).md}\n\n${s('queueTrend.note', { N: k.Nv(), L: k.Lv(), cap: k.capV() })}`);
  }
  return raw(`${table([s('h.concurrency'), s('h.queueP95'), s('h.theoryQueueP95'), s('h.pctOfTheory'), s('h.execP95'), s('h.published')], fixedRows.map((r) => [
    lv(r), spread(r, 'queueP95Ms', ms), pv(msT(r.theoryQueueP95Ms), r.prov.theoryQueueP95Ms),
    r.queueP95Ms.median !== null && r.theoryQueueP95Ms !== null && r.theoryQueueP95Ms > 0
      ? pv(pct((r.queueP95Ms.median / r.theoryQueueP95Ms) * 100), derivedProv('pctOf', `${ms(r.queueP95Ms.median)} / ${ms(r.theoryQueueP95Ms)} = ${pct((r.queueP95Ms.median / r.theoryQueueP95Ms) * 100)}`, [r.prov.queueP95Ms, r.prov.theoryQueueP95Ms], { what: 'queueP95Ms', of: 'theoryQueueP95Ms' }))
      : '—',
    spread(r, 'execP95Ms', ms), k.pubV(`${FIXED}.queueWaitP95Ms.${r.concurrency}`, ms),
  ]), ['r', 'r', 'r', 'r', 'r', 'r']).md}\n\n${s('queueTrend.note', { N: k.Nv(), L: k.Lv() })}`);
}

/** `{{vtTrend}}`: virtual threads' throughput per level against the bounds (and the published figures in closed loop), then the edge note. */
export function vtTrend(model: ReportModel, k: Kit000): Raw {
  const { P, s, pv } = k.ctx;
  const { lv, spread } = k;
  const o = model.manifest.options;
  const vtRows = model.rows.filter((r) => r.variant === VIRTUAL);
  if (!vtRows.length) return P('results.noMode', { variant: raw(k.name(VIRTUAL)) });
  if (k.ol) {
    return raw(`${table([s('h.concurrency'), s('h.throughput'), s('h.bound'), s('h.pctOfBound')], vtRows.map((r) => [
      lv(r), spread(r, 'wholeRunRps', rps), pv(rps(r.boundRps), r.prov.boundRps), pv(pct(r.pctOfBound), r.prov.pctOfBound),
    ]), ['r', 'r', 'r', 'r']).md}\n\n${k.ctx.edgeNote()}`);
  }
  return raw(`${table([s('h.concurrency'), s('h.throughput'), s('h.bound'), s('h.pctOfBound'), raw(s('h.wavesBound', { n: pv(int(o.requestsPerWorker), optionProv('requestsPerWorker')) })), s('h.pctOfWaves'), s('h.published')], vtRows.map((r) => [
    lv(r), spread(r, 'wholeRunRps', rps), pv(rps(r.boundRps), r.prov.boundRps), pv(pct(r.pctOfBound), r.prov.pctOfBound), r.wavesWholeRunRps === null ? '—' : pv(rps(r.wavesWholeRunRps), r.prov.wavesWholeRunRps), pv(pct(r.pctOfWavesBound), r.prov.pctOfWavesBound),
    k.pubV(`${VIRTUAL}.throughputRps.${r.concurrency}`, rps),
  ]), ['r', 'r', 'r', 'r', 'r', 'r', 'r']).md}\n\n${k.ctx.edgeNote()}`);
}
