/** Report section `{{boundsTable}}`: the theoretical bounds per variant and level. Pure (adds footnotes to the kit's book). */
import type { ReportModel } from '../types.ts';
import { rowOf } from '../model.ts';
import { int, num, raw, rps, table, type Raw } from '../format.ts';
import { optionProv } from '../provenance.ts';
import type { SectionKit } from './kit.ts';

/**
 * `{{boundsTable}}`: per variant and level, closed loop: the throughput bound, waves, queue-wait theory
 * (P95, mean) and the waves bound; open loop: the bounds of arrivals at λ (src/compute/theory/open-loop.ts):
 * served min(λ, N/L) or λ, queue growth max(0, λ − N/L). The closed-loop rows are marked even in an
 * open-loop run (their footnotes are numbered; the report's bytes depend on it).
 */
export function boundsTable(model: ReportModel, k: SectionKit): Raw {
  const { s, pv, variantName, msT } = k;
  const o = model.manifest.options;
  const boundsRows: (string | Raw)[][] = [];
  for (const c of model.levels) {
    for (const v of model.variants) {
      const r = rowOf(model, v, c);
      if (!r) continue;
      boundsRows.push([raw(variantName(v)), pv(int(c), r.prov.concurrency), pv(rps(r.boundRps), r.prov.boundRps), pv(int(r.waves), r.prov.waves), pv(msT(r.theoryQueueP95Ms), r.prov.theoryQueueP95Ms), pv(msT(r.theoryQueueMeanMs), r.prov.theoryQueueMeanMs), r.wavesWholeRunRps === null ? '—' : pv(rps(r.wavesWholeRunRps), r.prov.wavesWholeRunRps)]);
    }
  }
  return k.openLoopRun
    ? table([s('h.mode'), s('h.concurrency'), s('h.bound'), s('h.ol.theory')],
      model.levels.flatMap((c) => model.variants.flatMap((v) => { const r = rowOf(model, v, c); return r ? [[raw(variantName(v)), int(c), rps(r.boundRps), num(r.queueGrowthPerS, 2)]] : []; })), ['l', 'r', 'r', 'r'])
    : table([s('h.mode'), s('h.concurrency'), s('h.bound'), s('h.waves'), s('h.theoryQueueP95'), s('h.theoryQueueMean'), raw(s('h.wavesBound', { n: pv(int(o.requestsPerWorker), optionProv('requestsPerWorker')) }))], boundsRows, ['l', 'r', 'r', 'r', 'r', 'r', 'r']);
}
