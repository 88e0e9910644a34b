/**
 * Renderers of a Comparison (src/report/compare/model.ts): Markdown, a self-contained HTML page (the
 * report's shell, src/report/render-html.ts) and JSON. Each returns a string; the CLI writes.
 */
import { VERDICTS, type CellKey, type Comparison, type MetricComparison } from './model.ts';
import { GUARD_KINDS } from './guard.ts';
import { esc, ms, num, raw, signed, table, type Raw } from '../format.ts';
import { renderHtml } from '../render-html.ts';

/** Decimals that keep about 3 significant digits of a small difference or SD (never fewer than 2). */
function decimals(x: number): number {
  const a = Math.abs(x);
  return a === 0 || a >= 1 ? 2 : Math.min(6, 2 - Math.floor(Math.log10(a)));
}

function value(m: MetricComparison, x: number | null): string {
  if (m.unit === 'ms') return ms(x);
  return x === null ? '—' : `${num(x, decimals(x))} req/s`;
}

function sideText(m: MetricComparison, s: MetricComparison['a']): string {
  const sd = s.sd !== null ? ` ± ${value(m, s.sd)} SD` : '';
  return `${value(m, s.mean)}${sd} (n=${s.n}${s.missing ? `, ${s.missing} without value` : ''})`;
}

function diffText(m: MetricComparison): string {
  if (m.diff === null) return '—';
  const d = m.unit === 'ms' ? `${signed(m.diff, Math.abs(m.diff) < 10 ? 3 : 1)} ms` : `${signed(m.diff, decimals(m.diff))} req/s`;
  const parts = [...(m.diffPct !== null ? [`${signed(m.diffPct, 2)} %`] : []), ...(m.ratio !== null ? [`B ÷ A ${num(m.ratio, 3)}`] : [])];
  return parts.length > 0 ? `${d} (${parts.join('; ')})` : d;
}

function ciText(m: MetricComparison): string {
  if (m.ci === null) return '—';
  const d = (x: number) => (m.unit === 'ms' ? `${signed(x, Math.abs(x) < 10 ? 3 : 1)}` : signed(x, decimals(x)));
  const pctPart = m.ciPct ? ` (${signed(m.ciPct[0], 2)} % … ${signed(m.ciPct[1], 2)} %)` : '';
  return `[${d(m.ci[0])}, ${d(m.ci[1])}] ${m.unit}${pctPart}`;
}

function keyText(k: CellKey): string {
  return `${k.variant} c=${k.level} (study ${k.study}, scenario ${k.scenario})`;
}

function verdictMd(m: MetricComparison): Raw {
  const v = m.verdict === 'faster' || m.verdict === 'slower' ? `**${m.verdict}**` : esc(m.verdict);
  const pass = m.verdict === 'inconclusive' && m.notSlower ? `not slower by ${num(m.minEffectPct, 2)} % or more (the interval's slow end stays below it)` : null;
  const why = [m.reason, pass, m.note].filter((x): x is string => x !== null);
  return raw(why.length > 0 ? `${v} — ${esc(why.join('; '))}` : v);
}

/** The noise of both runs: the CV of their repeats, %. */
function noiseText(m: MetricComparison): string {
  const cv = (x: number | null) => (x === null ? '—' : `${num(x, 1)} %`);
  return m.a.cvPct === null && m.b.cvPct === null ? '—' : `${cv(m.a.cvPct)} / ${cv(m.b.cvPct)}`;
}

/** The environment guard's lines: why the runs are not comparable, or what differed and was allowed. */
function guardMd(c: Comparison): string[] {
  const blocking = c.guard.filter((d) => !d.allowed);
  const allowed = c.guard.filter((d) => d.allowed);
  const out: string[] = [];
  if (!c.comparable) {
    const kinds = [...new Set(blocking.map((d) => d.kind))];
    out.push('## Not comparable', '');
    out.push('The runs differ in what changes the theoretical bounds or the host, so a difference between them would not be the change under test; every verdict below is "not comparable" (the figures are shown):', '');
    out.push(...blocking.map((d) => `- ${esc(d.text)} (${d.kind})`), '');
    out.push(`To compare anyway, name what may differ: \`--allow-diff ${kinds.join(',')}\` (kinds: ${GUARD_KINDS.join(', ')}, or all).`, '');
  }
  if (allowed.length > 0) {
    out.push(`Compared although the runs differ in these (allowed by \`--allow-diff ${c.allowDiff.join(',')}\`); a difference below may come from them:`, '');
    out.push(...allowed.map((d) => `- ${esc(d.text)} (${d.kind})`), '');
  }
  return out;
}

/** The comparison as Markdown (the same text the HTML page shows). */
export function renderCompareMd(c: Comparison): string {
  const out: string[] = [];
  out.push(`# Compare: ${esc(c.b.runId)} against ${esc(c.a.runId)}`, '');
  out.push(`- **A (baseline)**: ${esc(c.a.runId)} — study ${esc(c.a.study)}, profile ${esc(c.a.profile)}, ${esc(c.a.status)}, folder ${esc(c.a.runDir)}`);
  out.push(`- **B**: ${esc(c.b.runId)} — study ${esc(c.b.study)}, profile ${esc(c.b.profile)}, ${esc(c.b.status)}, folder ${esc(c.b.runDir)}`);
  out.push(`- **Method**: ${esc(c.method)}`, '');
  out.push(...guardMd(c));
  const counts = new Map<string, number>();
  for (const cell of c.cells) for (const m of cell.metrics) counts.set(m.verdict, (counts.get(m.verdict) ?? 0) + 1);
  const shown = VERDICTS.filter((v) => v !== 'not comparable' || !c.comparable);
  out.push(`${c.cells.length} matched cell(s), ${c.cells.length * 4} comparisons: ${shown.map((v) => `${counts.get(v) ?? 0} ${v}`).join(', ')}.`, '');
  const oneRepeat = c.cells.flatMap((cell) => cell.metrics).filter((m) => m.verdict === 'not computable' && m.diff !== null).length;
  if (oneRepeat > 0) out.push(`${oneRepeat} comparison(s) have fewer than 2 repeats in a run: their raw difference B − A and ratio B ÷ A are shown without a verdict; run both with \`--repeats 3\` (or more) for one.`, '');
  out.push('## Verdicts', '');
  if (c.cells.length === 0) out.push('No cell of A has a counterpart in B (see "Unmatched cells"): nothing to compare.', '');
  else out.push(table(
    ['variant', 'c', 'metric', 'A mean', 'B mean', 'B − A', '95 % interval of B − A', 'noise (CV A / B)', 'df', 'p', 'verdict'],
    c.cells.flatMap((cell) => cell.metrics.map((m) => [
      cell.variant, String(cell.level), m.label, sideText(m, m.a), sideText(m, m.b), diffText(m), ciText(m), noiseText(m),
      m.df === null ? '—' : num(m.df, 2), m.p === null ? '—' : m.p < 0.0001 ? '< 0.0001' : num(m.p, 4), verdictMd(m),
    ])),
    ['l', 'r', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
  ).md, '');
  out.push(`"Faster" means higher throughput or lower latency in B; the interval is of B − A in the metric's unit, and relative to A's mean in brackets. The noise is the coefficient of variation of each run's repeats; above the minimum effect (${num(c.minEffectPct, 2)} %, \`--min-effect\`) the verdict is inconclusive.`, '');
  out.push('## Unmatched cells', '');
  if (c.onlyInA.length + c.onlyInB.length === 0) out.push('None: every cell of each run has a counterpart (same study, scenario, variant and level).', '');
  else {
    for (const k of c.onlyInA) out.push(`- only in A: ${esc(keyText(k))}`);
    for (const k of c.onlyInB) out.push(`- only in B: ${esc(keyText(k))}`);
    out.push('');
  }
  out.push('## Settings that differ', '');
  if (c.differences.length === 0) out.push('None: both runs measured with the same settings, variant definitions, host and versions (levels, variants and repeats aside).', '');
  else out.push('A difference above may come from these rather than from the change under test:', '', ...c.differences.map((d) => `- ${esc(d)}`), '');
  out.push('## Gaps', '');
  const gaps = [...c.a.gaps.map((g) => `A: ${g}`), ...c.b.gaps.map((g) => `B: ${g}`)];
  if (gaps.length === 0) out.push('None: every file of both runs was read and validated.', '');
  else out.push(...gaps.map((g) => `- ${esc(g)}`), '');
  return out.join('\n');
}

/** The comparison as a self-contained HTML page. */
export function renderCompareHtml(c: Comparison): string {
  return renderHtml(renderCompareMd(c), new Map(), { lang: 'en', title: `Compare ${c.b.runId} against ${c.a.runId}` });
}

/** The comparison as JSON (the Comparison object; one document, 2-space indented). */
export function renderCompareJson(c: Comparison): string {
  return JSON.stringify(c, null, 2) + '\n';
}
