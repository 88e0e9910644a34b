/** Report sections `{{totals}}`, `{{comparisons}}` and `{{allLevels}}`, and the comparison table a study may reuse. Pure (adds footnotes to the kit's book). */
import type { LevelComparison, ReportModel, RowModel } from '../types.ts';
import { int, ms, pct, raw, rps, signed, table, type Raw } from '../format.ts';
import { changeProv, derivedProv, optionProv, type Provenance } from '../provenance.ts';
import { CHANGE_FLOOR_MS, type SectionKit } from './kit.ts';

/** `{{totals}}`: requests sent, succeeded, failed, the error rate, planned and present cells, each with its provenance. */
export function totals(model: ReportModel, k: SectionKit): Raw {
  const { P, pv } = k;
  const o = model.manifest.options;
  const tt = model.totals;
  // every cell file of the run: one source with a glob, not one per cell
  const sumCells = (field: string, value: number): Provenance => ({ def: 'sumCells', v: { field }, formula: `Σ over ${int(model.cells.length)} cells of ${field} = ${int(value)}`, sources: [{ file: 'cells/*.json', pointer: field }] });
  const countP = sumCells('/load/count', tt.count);
  const okP = sumCells('/load/ok', tt.ok);
  const failedP = derivedProv('failed', `${int(tt.count)} − ${int(tt.ok)} = ${int(tt.failed)}`, [countP, okP]);
  const errorRateText = pct(tt.errorRate === null ? null : tt.errorRate * 100, 3);
  return P('totals', {
    count: pv(int(tt.count), countP), ok: pv(int(tt.ok), okP), failed: pv(int(tt.failed), failedP),
    errorRate: pv(errorRateText, derivedProv('errorRate', tt.errorRate === null ? null : `${int(tt.failed)} / ${int(tt.count)} = ${errorRateText}`, [failedP, countP])),
    planned: pv(int(tt.plannedTotal), { def: 'planned', formula: k.openLoopRun ? null : `(${o.levels.join(' + ')}) × ${int(o.requestsPerWorker)} × ${int(o.repeats)} × ${int(o.variants.length)} = ${int(tt.plannedTotal)}`, sources: [optionProv('levels'), optionProv('requestsPerWorker'), optionProv('repeats'), optionProv('variants')].flatMap((x) => x.sources) }),
    present: pv(int(tt.presentCells), { def: 'cellsPresent', formula: null, sources: [{ file: 'cells/', pointer: '*.json' }] }),
    cells: pv(int(tt.plannedCells), { def: 'cellsPlanned', formula: null, sources: [{ file: 'manifest.json', pointer: '/cellOrder' }] }),
  });
}

/** Baseline vs candidate at one level: throughput, E2E P95/P99, queue wait, execution, errors, with theory (RenderContext.cmpTable). */
export function cmpTable(model: ReportModel, k: SectionKit, cmp: LevelComparison | null): Raw {
  const { P, s, pv, variantName, msT } = k;
  if (!cmp) return P('results.noComparison');
  const f = cmp.baseline;
  const v = cmp.candidate;
  type K = 'wholeRunRps' | 'e2eP95Ms' | 'e2eP99Ms' | 'queueP95Ms' | 'execP95Ms';
  const rel = (key: K, fmt: (x: number) => string): string | Raw => {
    const a = f[key].median;
    const b = v[key].median;
    if (a === null || b === null || a === 0) return '—';
    const text = `${signed(((b - a) / a) * 100, 2)} %`;
    return pv(text, changeProv(a, b, fmt, text, f.prov[key], v.prov[key]));
  };
  /** latencies: no percent change on noise (both below the floor, or closer than it) */
  const relMs = (key: K) => { const a = f[key].median; const b = v[key].median; return a !== null && b !== null && (Math.max(Math.abs(a), Math.abs(b)) < CHANGE_FLOOR_MS || Math.abs(b - a) < CHANGE_FLOOR_MS) ? '—' : rel(key, ms); };
  const both = (a: Raw, b: Raw): Raw => raw(`${a.md} / ${b.md}`);
  const errPct = (r: RowModel) => pv(pct(r.errorRate.median === null ? null : r.errorRate.median * 100, 3), r.prov.errorRate);
  return table([s('h.metric'), variantName(f.variant), variantName(v.variant), s('h.change'), s('h.theory')], [
    [s('m.throughput'), pv(rps(f.wholeRunRps.median), f.prov.wholeRunRps), pv(rps(v.wholeRunRps.median), v.prov.wholeRunRps), rel('wholeRunRps', rps), both(pv(rps(f.boundRps), f.prov.boundRps), pv(rps(v.boundRps), v.prov.boundRps))],
    [s('m.e2eP95'), pv(ms(f.e2eP95Ms.median), f.prov.e2eP95Ms), pv(ms(v.e2eP95Ms.median), v.prov.e2eP95Ms), relMs('e2eP95Ms'), both(pv(ms(f.theoryE2eP95Ms), f.prov.theoryE2eP95Ms), pv(ms(v.theoryE2eP95Ms), v.prov.theoryE2eP95Ms))],
    [s('m.e2eP99'), pv(ms(f.e2eP99Ms.median), f.prov.e2eP99Ms), pv(ms(v.e2eP99Ms.median), v.prov.e2eP99Ms), relMs('e2eP99Ms'), '—'],
    [s('m.queueP95'), pv(ms(f.queueP95Ms.median), f.prov.queueP95Ms), pv(ms(v.queueP95Ms.median), v.prov.queueP95Ms), relMs('queueP95Ms'), both(pv(msT(f.theoryQueueP95Ms), f.prov.theoryQueueP95Ms), pv(msT(v.theoryQueueP95Ms), v.prov.theoryQueueP95Ms))],
    [s('m.execP95'), pv(ms(f.execP95Ms.median), f.prov.execP95Ms), pv(ms(v.execP95Ms.median), v.prov.execP95Ms), relMs('execP95Ms'), pv(`≥ ${ms(model.latencyMs)}`, f.prov.theoryExecMs)],
    [s('m.errorRate'), errPct(f), errPct(v), '—', pv('0 %', f.prov.theoryErrorRate)],
  ], ['l', 'r', 'r', 'r', 'r']);
}

/** `{{comparisons}}`: every comparison of the study at every level both variants have. */
export function comparisons(model: ReportModel, k: SectionKit): Raw {
  const { P, s, pv, variantName } = k;
  return model.pairs.length
    ? raw(model.pairs.flatMap((p) => p.levels.map((lv) => `${s('cmp.heading', { baseline: raw(variantName(p.baseline)), candidate: raw(variantName(p.candidate)), c: pv(int(lv.concurrency), lv.baseline.prov.concurrency) })}\n\n${cmpTable(model, k, lv).md}`)).join('\n\n'))
    : P('results.noComparison');
}

/** `{{allLevels}}`: every row's medians with their spread; an open-loop run has no steady-state column (a per-worker closed-loop rate). */
export function allLevels(model: ReportModel, k: SectionKit): Raw {
  const { s, variantName, lvl, ag } = k;
  return k.openLoopRun
    ? table([s('h.mode'), s('h.concurrency'), s('h.throughput'), s('h.e2eP50'), s('h.e2eP95'), s('h.e2eP99'), s('h.queueP95'), s('h.execP95'), s('h.errors')],
      model.rows.map((r) => [raw(variantName(r.variant)), lvl(r), ag(r, 'wholeRunRps', rps), ag(r, 'e2eP50Ms', ms), ag(r, 'e2eP95Ms', ms), ag(r, 'e2eP99Ms', ms), ag(r, 'queueP95Ms', ms), ag(r, 'execP95Ms', ms), ag(r, 'errorCount', int)]),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'])
    : table([s('h.mode'), s('h.concurrency'), s('h.throughput'), s('h.steady'), s('h.e2eP50'), s('h.e2eP95'), s('h.e2eP99'), s('h.queueP95'), s('h.execP95'), s('h.errors')],
      model.rows.map((r) => [raw(variantName(r.variant)), lvl(r), ag(r, 'wholeRunRps', rps), ag(r, 'steadyRps', rps), ag(r, 'e2eP50Ms', ms), ag(r, 'e2eP95Ms', ms), ag(r, 'e2eP99Ms', ms), ag(r, 'queueP95Ms', ms), ag(r, 'execP95Ms', ms), ag(r, 'errorCount', int)]),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']);
}
