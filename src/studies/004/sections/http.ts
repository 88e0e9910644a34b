/** Study 004's experiment 2 sections: `{{httpTable}}`, `{{httpBounds}}`, `{{httpClaims}}`. Pure. */
import type { ReportModel } from '../../../report/model.ts';
import type { ConclusionRow, RenderContext, Verdict } from '../../../report/types.ts';
import type { Agg } from '../../../types/run.ts';
import { aggText, int, ms, num, pct, raw, rps, table, type Raw } from '../../../report/format.ts';
import type { Derived004 } from '../report.ts';

const aggMs = (a: Agg) => aggText(a, (x) => ms(x));
const verdictSym = (ctx: RenderContext, v: Verdict): Raw => ctx.verdict(v);

/** A statement's verdict, with why it is not testable here (ConclusionRow evidence `why`: phrase `claimWhy.<why>`). */
function claimVerdictText(ctx: RenderContext, c: ConclusionRow): Raw {
  const v = verdictSym(ctx, c.verdict);
  const why = c.evidence['why'];
  if (typeof why !== 'string') return v;
  const share = c.evidence['sharePct'];
  return raw(`${v.md} (${ctx.s(`claimWhy.${why}`, { control: ms(c.evidence['controlMs'] as number | null), bound: ms(c.evidence['boundMs'] as number | null), share: pct(typeof share === 'number' ? share : null) })})`);
}

/** The three placeholders of experiment 2 from the derived rows and the claims (model.conclusions). */
export function httpSections(model: ReportModel<Derived004>, ctx: RenderContext): Record<string, string | Raw> {
  const { s, variantName } = ctx;
  const out: Record<string, string | Raw> = {};
  const rows = model.derived.http;
  out['httpTable'] = rows.length === 0 ? s('none') : table(
    [s('h.variant'), 'c', 'min', 'P50', 'P90', 'P95', 'P99', 'max', s('h.meanE2e')],
    rows.map((r) => [variantName(r.variant), int(r.clients), aggMs(r.minMs), aggMs(r.p50Ms), aggMs(r.p90Ms), aggMs(r.p95Ms), aggMs(r.p99Ms), aggMs(r.maxMs), `${aggMs(r.meanE2eMs)} (${s('h.theory')} ${ms(r.theoryMeanE2eMs)})`]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']);
  out['httpBounds'] = rows.length === 0 ? '' : table(
    [s('h.variant'), s('h.throughput'), s('h.threadBound'), s('h.cpuPerReq'), s('h.cpuBound'), s('h.limit')],
    rows.map((r) => [variantName(r.variant), aggText(r.throughputRps, (x) => rps(x)), rps(r.threadBoundRps), r.cpuMsPerRequest === null ? '—' : `${num(r.cpuMsPerRequest, 3)} ms`, rps(r.cpuBoundRps),
      // a bound the throughput exceeded did not limit it (HttpRow.limit)
      r.limit === 'none' ? s(`limit.none.${r.smaller}`, { share: pct(r.shareOfSmaller === null ? null : r.shareOfSmaller * 100) }) : s(`limit.${r.limit}`)]),
    ['l', 'r', 'r', 'r', 'r', 'l']);
  const cpuLimited = rows.filter((r) => r.limit === 'cpu');
  if (cpuLimited.length > 0) {
    out['httpBounds'] = raw(`${(out['httpBounds'] as Raw).md}\n\n${s('limit.cpuNote', { variants: cpuLimited.map((r) => variantName(r.variant)).join(', '), cores: int(model.manifest.host.cores) })}`);
  }
  out['httpClaims'] = table([s('h.claim'), s('h.measured'), s('h.verdict')],
    model.conclusions.map((c) => [s(`claim.${c.id}`), ms(c.evidence['measuredMs'] as number | null), claimVerdictText(ctx, c)]), ['l', 'r', 'l']);
  return out;
}
