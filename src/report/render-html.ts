/**
 * Markdown → self-contained HTML page (inline CSS, inline SVG, no external URL). markdown-it runs
 * with html: false, so nothing from the run can inject markup; the trusted chart SVGs go in through
 * the image rule, which only accepts `figures/<name>.svg` names this report rendered itself.
 */
import MarkdownIt from 'markdown-it';
import { groupedSources, provDefinition, provPlain, type ProvEntry, type ProvSection } from './provenance.ts';

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The one markdown-it factory of the report. */
export function markdown() {
  return new MarkdownIt({ html: false, linkify: false, typographer: false });
}

const CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #fafafa; color: #1f2328; font: 15px/1.55 -apple-system, "Segoe UI", Helvetica, Arial, "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif; }
main { max-width: 1040px; margin: 0 auto; padding: 24px 28px 64px; background: #fff; }
h1 { font-size: 26px; line-height: 1.25; margin: 8px 0 16px; }
h2 { font-size: 21px; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 1px solid #d0d7de; }
h3 { font-size: 17px; margin: 24px 0 8px; }
blockquote { margin: 12px 0; padding: 8px 14px; background: #fff8c5; border-left: 4px solid #d4a72c; }
blockquote p { margin: 0; }
table { display: block; overflow-x: auto; border-collapse: collapse; margin: 12px 0; font-size: 13px; max-width: 100%; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; vertical-align: top; }
th { background: #f6f8fa; text-align: left; }
td[style*="right"], th[style*="right"] { font-variant-numeric: tabular-nums; white-space: nowrap; }
tr:nth-child(even) td { background: #fbfbfc; }
code { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f2f4f7; padding: 1px 4px; border-radius: 3px; }
figure.chart { margin: 18px 0; padding: 8px; border: 1px solid #e5e7eb; border-radius: 6px; overflow-x: auto; }
figure.chart svg { display: block; max-width: 100%; height: auto; }
strong { color: #111; }
p, li, td, th, summary { overflow-wrap: break-word; }
p code, li code { overflow-wrap: anywhere; }
main { overflow-wrap: break-word; }
pre { background: #f6f8fa; border: 1px solid #e5e7eb; border-radius: 6px; padding: 8px 10px; overflow-x: auto; max-height: 28em; }
pre code { background: none; padding: 0; font-size: 11.5px; white-space: pre; }
a.pv { color: inherit; text-decoration: underline dotted #6e7781; text-underline-offset: 2px; }
a.pv:hover, a.pv:focus { background: #fff8c5; outline: 1px solid #d4a72c; }
a.pv:hover::after, a.pv:focus::after { content: attr(data-pv); position: fixed; z-index: 10; display: block; max-width: 34em; margin-top: 4px; padding: 6px 9px; background: #fff; color: #1f2328; border: 1px solid #8c959f; border-radius: 4px; box-shadow: 0 2px 8px rgba(0,0,0,.18); font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap; text-align: left; font-weight: normal; }
table.prov { display: table; table-layout: fixed; width: 100%; font-size: 12px; }
table.prov td { word-break: break-word; overflow-wrap: anywhere; }
table.prov th:nth-child(1) { width: 4em; }
table.prov th:nth-child(2) { width: 9em; }
table.prov td:first-child { white-space: nowrap; }
table.prov tr:target td { background: #fff8c5; }
table.prov code { white-space: pre-wrap; overflow-wrap: anywhere; }
details.prov { margin: 6px 0; border: 1px solid #e5e7eb; border-radius: 6px; padding: 4px 10px; }
details.prov > summary { cursor: pointer; font-weight: 600; }
details.prov[open] > summary { margin-bottom: 6px; }
@media print {
  body { background: #fff; }
  main { max-width: none; padding: 0; }
  a.pv { text-decoration: none; }
  a.pv::after { content: none !important; }
  pre { max-height: none; white-space: pre-wrap; }
  figure.chart, tr { break-inside: avoid; }
}
`;

/**
 * @param md the report Markdown (every run string already escaped)
 * @param figures trusted SVG by figure name (from charts.renderSvg)
 */
export function renderHtml(md: string, figures: ReadonlyMap<string, string>, page: { lang: 'en' | 'zh'; title: string }, prov?: ProvHtml): string {
  const mdi = markdown();
  if (prov) provPlugin(mdi, prov);
  const fallback = mdi.renderer.rules.image;
  mdi.renderer.rules.image = (tokens, idx, options, env, self) => {
    const tok = tokens[idx];
    const src = String(tok?.attrGet('src') ?? '');
    const m = /^figures\/([a-z0-9-]+)\.svg(#headline)?$/.exec(src);
    const svg = m ? figures.get(String(m[1])) : undefined;
    if (tok && svg !== undefined) {
      // the chart draws its own title, so no <figcaption> repeating it; the alt text labels the figure
      const label = escapeHtml(tok.content);
      // the answer's headline chart (src/report/sections/answer.ts headlineChart) is the one with `#headline`
      const id = m?.[2] ? ' id="headline-chart"' : '';
      return `<figure class="chart"${id} data-figure="${m?.[1] ?? ''}" aria-label="${label}">${svg}</figure>`;
    }
    return fallback ? fallback(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  };
  const body = answerSection(mdi.render(md).replace(/<p>(<figure class="chart"[\s\S]*?<\/figure>)<\/p>/g, '$1'));
  return htmlPage(prov ? `${body}${provHtml(prov)}` : body, page);
}

/**
 * The answer block's markers (src/report/sections/answer.ts ANSWER_START/ANSWER_END, rendered as
 * escaped text paragraphs since markdown-it runs with html: false) → `<section id="answer">` around
 * it; only the first pair, so text from a run cannot open a second one.
 */
function answerSection(html: string): string {
  const start = '<p>&lt;!-- answer --&gt;</p>\n';
  const end = '<p>&lt;!-- /answer --&gt;</p>\n';
  const i = html.indexOf(start);
  const j = i < 0 ? -1 : html.indexOf(end, i);
  if (i < 0 || j < 0) return html;
  return `${html.slice(0, i)}<section id="answer" class="answer">\n${html.slice(i + start.length, j)}</section>\n${html.slice(j + end.length)}`;
}

/** The provenance of a report for its HTML: the entries the Markdown referenced and the phrases to word them. */
export interface ProvHtml {
  entries: readonly ProvEntry[];
  phrases: Readonly<Record<string, string>>;
  runId: string;
  /** the schema version the run was written in, when it was read through an upgrade reader */
  upgradedFrom: number | null;
  /** the entries by the report section they are first used in (provenance.ts provSections); absent: one block of every entry */
  sections?: readonly ProvSection[];
}

/** An attribute value: escaped, line breaks as `&#10;` (kept by `attr()` in CSS `content`). */
const attr = (s: string): string => escapeHtml(s).replace(/\n/g, '&#10;');

/**
 * markdown-it plugin: a footnote reference `[^n<id>]` of a known entry becomes a link around the
 * value printed just before it (`<a class="pv" href="#pv-<id>" data-pv="…">value</a>`): the CSS shows
 * `data-pv` (definition and formula) on hover and focus, the link leads to the appendix row (with the sources). The value is the end of the
 * preceding text (the entry's `text`); when the text does not end with it, the link holds a "†"
 * after the text instead. Only references to entries of `prov` are taken; any other `[^…]` stays text.
 */
function provPlugin(mdi: ReturnType<typeof markdown>, prov: ProvHtml): void {
  type Token = ReturnType<typeof mdi.parse>[number];
  const byLabel = new Map<string, ProvEntry>(prov.entries.map((e) => [`n${e.id}`, e]));
  mdi.inline.ruler.before('link', 'pv_ref', (state, silent) => {
    if (state.src.charCodeAt(state.pos) !== 0x5b /* [ */ || state.src.charCodeAt(state.pos + 1) !== 0x5e /* ^ */) return false;
    const m = /^\[\^(n\d+)\]/.exec(state.src.slice(state.pos));
    const e = m ? byLabel.get(m[1] as string) : undefined;
    if (!m || !e) return false;
    if (!silent) state.push('pv_ref', '', 0).meta = { id: e.id };
    state.pos += m[0].length;
    return true;
  });
  mdi.core.ruler.push('pv_wrap', (state) => {
    for (const blk of state.tokens) {
      if (blk.type !== 'inline' || !blk.children) continue;
      const out: Token[] = [];
      for (const tok of blk.children) {
        if (tok.type !== 'pv_ref') { out.push(tok); continue; }
        const e = byLabel.get(`n${(tok.meta as { id: number }).id}`) as ProvEntry;
        const prev = out[out.length - 1];
        const open = new state.Token('pv_open', 'a', 1);
        open.meta = { id: e.id };
        const close = new state.Token('pv_close', 'a', -1);
        const value = new state.Token('text', '', 0);
        if (prev && prev.type === 'text' && prev.content.endsWith(e.text)) {
          prev.content = prev.content.slice(0, prev.content.length - e.text.length);
          value.content = e.text;
          if (prev.content === '') out.pop();
        } else value.content = '†';
        out.push(open, value, close);
      }
      blk.children = out;
    }
  });
  mdi.renderer.rules['pv_open'] = (tokens: Token[], idx: number) => {
    const id = (tokens[idx]?.meta as { id: number }).id;
    const e = byLabel.get(`n${id}`) as ProvEntry;
    return `<a class="pv" href="#pv-${id}" aria-describedby="pv-${id}" data-pv="${attr(provPlain(e, prov.phrases, { sources: false }))}">`;
  };
  mdi.renderer.rules['pv_close'] = () => '</a>';
}

/**
 * The appendix "How each number was computed", out of the reading path: an intro, then one
 * collapsed `<details>` block per report section (`prov.sections`, summary: the section's title and
 * its count of numbers) holding a table with one row per entry and the anchor `pv-<id>` the values
 * link to (a browser opens the block when a link targets a row inside it; hover shows the same text).
 */
export function provHtml(prov: ProvHtml): string {
  if (prov.entries.length === 0) return '';
  const ph = (k: string, v: Record<string, string> = {}) => (prov.phrases[k] ?? k).replace(/\{\{(\w+)\}\}/g, (_, x: string) => v[x] ?? '');
  const row = (e: ProvEntry) => `<tr id="pv-${e.id}"><td>${e.id}</td><td>${escapeHtml(e.text)}</td><td>${escapeHtml(provDefinition(e.prov, prov.phrases))}</td>`
    + `<td>${e.prov.formula ? `<code>${escapeHtml(e.prov.formula)}</code>` : '—'}</td>`
    + `<td>${groupedSources(e.prov.sources).map((g) => `<code>${escapeHtml(`${g.files} ${g.pointer}`.trimEnd())}</code>`).join('<br>') || '—'}</td></tr>`;
  const head = `<thead><tr><th>${escapeHtml(ph('prov.h.id'))}</th><th>${escapeHtml(ph('prov.h.value'))}</th><th>${escapeHtml(ph('prov.h.definition'))}</th><th>${escapeHtml(ph('prov.h.formula'))}</th><th>${escapeHtml(ph('prov.h.source'))}</th></tr></thead>`;
  const sections = prov.sections ?? [{ title: '', entries: [...prov.entries] }];
  const blocks = sections.filter((x) => x.entries.length > 0).map((x, i) => `<details class="prov" id="pv-s${i + 1}">
<summary>${escapeHtml(x.title || ph('prov.section.rest'))} — ${escapeHtml(ph('prov.section.count', { n: String(x.entries.length) }))}</summary>
<table class="prov">
${head}
<tbody>
${x.entries.map(row).join('\n')}
</tbody>
</table>
</details>`);
  return `<section class="provenance" id="provenance">
<h2>${escapeHtml(ph('prov.title'))}</h2>
<p>${escapeHtml(ph('prov.intro.html', { runId: prov.runId }))}${prov.upgradedFrom !== null ? ` ${escapeHtml(ph('prov.upgraded', { from: String(prov.upgradedFrom) }))}` : ''}</p>
${blocks.join('\n')}
</section>
`;
}

export function htmlPage(body: string, page: { lang: 'en' | 'zh'; title: string }): string {
  return `<!doctype html>
<html lang="${page.lang === 'zh' ? 'zh-CN' : 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(page.title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
${body}</main>
</body>
</html>
`;
}
