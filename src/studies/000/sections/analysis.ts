/** Study 000's `{{boundAnalysis}}` and `{{execAnalysis}}`. Pure (adds footnotes). */
import type { ReportModel } from '../../../report/model.ts';
import { LAT_TOL } from '../../../report/model.ts';
import { int, ms, num, raw, rps, signed, type Raw } from '../../../report/format.ts';
import { derivedProv } from '../../../report/provenance.ts';
import { FIXED } from './common.ts';
import type { Kit000 } from './kit.ts';

/** The fixed pool's throughput above the pool (c > N workers, or in open loop λ > N/L) against its bounds. */
function boundSentence(model: ReportModel, k: Kit000): Raw {
  const { P, pv } = k.ctx;
  const fixedRows = model.rows.filter((r) => r.variant === FIXED);
  const above = fixedRows.filter((r) => (k.ol ? r.concurrency > r.boundRps : r.concurrency > k.N) && r.wholeRunRps.median !== null);
  if (!above.length) return P('bound.noFixedAbove', { N: k.Nv() });
  const vals = above.map((r) => r.wholeRunRps.median as number);
  const pcts = above.map((r) => r.pctOfBound as number);
  const wp = above.map((r) => r.pctOfWavesBound).filter((x): x is number => x !== null);
  const n1 = (x: number) => num(x, 1);
  const withWaves = above.filter((r) => r.pctOfWavesBound !== null);
  return P(above.length === 1 ? 'bound.fixedAbove.one' : 'bound.fixedAbove', {
    levels: raw(above.map((r) => k.lv(r).md).join(', ')),
    thr: k.rangeV(above, vals, (x) => num(x, 2), 'wholeRunRps', above.map((r) => r.prov.wholeRunRps)),
    bound: above[0] ? pv(rps(above[0].boundRps), above[0].prov.boundRps) : '—',
    pctBound: k.rangeV(above, pcts, n1, 'pctOfBound', above.map((r) => r.prov.pctOfBound)),
    pctWaves: wp.length ? k.rangeV(withWaves, wp, n1, 'pctOfWavesBound', withWaves.map((r) => r.prov.pctOfWavesBound)) : '—',
  });
}

/** `{{boundAnalysis}}`: the engine's bound table, the fixed pool's reading, the edge note. */
export function boundAnalysis(model: ReportModel, k: Kit000): Raw {
  const sentence = boundSentence(model, k);
  const boundTable = k.ctx.generic('boundTable') as Raw;
  return raw(`${boundTable.md}\n\n${sentence.md}\n\n${k.ctx.edgeNote()}`);
}

/** `{{execAnalysis}}`: execution P95 at the highest level, the same within LAT_TOL or not, with the likely cause. */
export function execAnalysis(k: Kit000): Raw {
  const { P, pv, latTol, sentenceSep } = k.ctx;
  const h = k.h;
  if (!(h && h.execSame !== null)) return P('results.noComparison');
  const cause = k.carrierCause(h);
  const dText = signed((h.execP95RelDiff as number) * 100, 2);
  const dV = pv(dText, derivedProv('change', `(${ms(h.candidate.execP95Ms.median)} − ${ms(h.baseline.execP95Ms.median)}) / ${ms(h.baseline.execP95Ms.median)} = ${dText} %`, [h.baseline.prov.execP95Ms, h.candidate.prov.execP95Ms]));
  const tolV = pv(latTol, { def: 'latTol', formula: `max(${num(LAT_TOL.rel * 100, 0)} % × ${ms(h.baseline.execP95Ms.median)}, ${int(LAT_TOL.abs)} ms)`, sources: [{ file: 'src/report/model.ts', pointer: 'LAT_TOL' }] });
  return raw([P(h.execSame ? 'exec.same' : 'exec.differs', { c: k.lv(h.baseline), fx: k.med(h.baseline, 'execP95Ms', ms), vt: k.med(h.candidate, 'execP95Ms', ms), diffPct: dV, L: k.Lv(), tol: tolV }).md, cause?.md ?? ''].filter((x) => x !== '').join(sentenceSep));
}
