/** Study 002's `{{publishedVsBound}}`, `{{limits}}`, `{{limitsSummary}}` and `{{decisionTable}}`. Pure. */
import type { Variant } from '../../../types/study.ts';
import type { ReportModel } from '../../../report/model.ts';
import type { RenderContext } from '../../../report/types.ts';
import { code, int, ms, num, pct, rps, table, type Raw } from '../../../report/format.ts';
import type { Bound } from '../../../compute/theory/cell-bounds.ts';
import { checkPublished, REQUEST_SCENARIOS } from '../theory.ts';
import { arithmetic, topRow, type Row002 } from '../report.ts';
import { windowText } from './format.ts';

/** `{{publishedVsBound}}`: every published figure of the request scenarios: published, the study's own bound, this run (scenario 5's are compared in its own section, with its own rule). */
export function publishedVsBound(model: ReportModel, rows: readonly Row002[], ctx: RenderContext): Raw {
  const { s, variantName } = ctx;
  const checks = new Map(checkPublished(model.study.published, model.study.variants as Variant[]).map((c) => [c.rowId, c]));
  return table([s('h.figure'), s('h.published'), s('h.studyBound'), s('h.consistency'), s('h.measured'), s('h.ourBound')],
    model.study.published.filter((p) => p.scenario === null || REQUEST_SCENARIOS.has(p.scenario)).map((p) => {
      const c = checks.get(p.id);
      const r = p.variant ? topRow(rows, p.variant) : null;
      const m = p.metric === 'throughputRps' ? r?.throughputRps.median : p.metric === 'e2eP99Ms' ? r?.p99Ms.median : p.metric === 'memoryMB' && r?.rssMaxBytes.median != null ? r.rssMaxBytes.median / 1e6 : null;
      const unit = (x: number | null | undefined) => (x === null || x === undefined ? '—' : p.unit === 'req/s' ? rps(x) : p.unit === 'ms' ? ms(x) : `${num(x, 0)} MB`);
      const studyBound = c?.littleMeanMs !== undefined ? s('little002.mean', { mean: ms(c.littleMeanMs) }) : c?.bound ? `${rps(c.bound.rps)} = ${arithmetic(c.bound)} (${s(`bound.${c.bound.kind}`)})` : p.setupIdentity ? s(`identity.${p.setupIdentity}`) : '—';
      const consistency = c ? s(`consistency.${c.verdict}`) : '—';
      // the pinning pitfall's P99 (mixed, first round, synchronized): no variant of this run measures it
      const ours = p.metric === 'e2eP99MsSynchronized' ? s('pinned002.noVariant')
        : r?.smallest && p.metric === 'throughputRps' ? `${rps(r.smallest.rps)} (${s(`bound.${r.smallest.kind}`)}, c = ${int(r.concurrency)})` : r ? `c = ${int(r.concurrency)}` : '—';
      return [`${variantName(p.variant ?? '')} ${s(`metric.${p.metric}`)}`, unit(p.value as number), studyBound, consistency, unit(m ?? null), ours];
    }), ['l', 'r', 'l', 'l', 'r', 'l']);
}

/** `{{limits}}`: the acceptance summary: per scenario, the bound that limited each variant. */
export function limits(rows: readonly Row002[], ctx: RenderContext): Raw {
  const { s, variantName } = ctx;
  return table([s('h.scenario'), s('h.variant'), 'c', s('h.windowRps'), s('h.smallest'), s('h.share'), s('h.acceptance'), s('h.hostFlags')],
    rows.map((r) => [code(r.scenario), variantName(r.variant), int(r.concurrency), windowText(r, ctx), r.smallest ? `${rps(r.smallest.rps)} (${s(`bound.${r.smallest.kind}`)})` : '—', pct(r.share === null ? null : r.share * 100), s(`acc.${r.verdict}`), r.hostFlags.length ? r.hostFlags.join(', ') : '—']),
    ['l', 'l', 'r', 'r', 'l', 'r', 'l', 'l']);
}

/** `{{limitsSummary}}`: how many cells were within, above and below their bound. */
export function limitsSummary(rows: readonly Row002[], ctx: RenderContext): string {
  const counts = { within: 0, above: 0, below: 0, flagged: 0 };
  for (const r of rows) {
    if (r.verdict === 'within') counts.within++;
    else if (r.verdict === 'above-bound') counts.above++;
    else if (r.verdict === 'below-95') counts.below++;
    else if (r.verdict === 'below-95-host-flag') counts.flagged++;
  }
  return ctx.s('acc.summary', { n: int(rows.length), within: int(counts.within), above: int(counts.above), below: int(counts.below), flagged: int(counts.flagged) });
}

/** The study's decision tree (§9.1) beside what this run measured per scenario: virtual ÷ best pool at the highest level. */
export function decisionTable(rows: readonly Row002[], ctx: RenderContext): Raw {
  const { s } = ctx;
  const line = (g: string, pools: string[], vt: string) => {
    const best = pools.map((p) => topRow(rows, p)).filter((r): r is Row002 => r !== null && r.throughputRps.median !== null).sort((a, b) => b.throughputRps.median! - a.throughputRps.median!)[0];
    const v = topRow(rows, vt);
    const ratio = best && v?.throughputRps.median != null ? v.throughputRps.median / best.throughputRps.median! : null;
    return [s(`dec.${g}.study`), ratio === null ? '—' : `${num(ratio, 2)}× (c = ${int(v!.concurrency)}; ${s(`bound.${v!.smallest?.kind ?? 'executor'}`)})`, s(`dec.${g}.note`)];
  };
  return table([s('h.scenario'), s('h.studySays'), s('h.vtVsPool'), s('h.note')], [
    [s('dec.io'), ...line('io', ['io-pool-200', 'io-pool-500'], 'io-virtual')],
    [s('dec.cpu'), ...line('cpu', ['cpu-pool-200', 'cpu-pool-500'], 'cpu-virtual')],
    [s('dec.mixed'), ...line('mixed', ['mixed-pool-200', 'mixed-pool-500'], 'mixed-virtual')],
    [s('dec.db'), ...line('db', ['db10-pool-200', 'db10-pool-500'], 'db10-virtual')],
  ], ['l', 'l', 'r', 'l']);
}
