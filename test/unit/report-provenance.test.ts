/**
 * Provenance in the committed study-000 report (issue 19): in §8 and §9 of the HTML, every number
 * is inside a value that carries its provenance (`a.pv` with `data-pv`, linking to a row of the
 * appendix "How each number was computed"), and every `a.pv` points to an existing row. A number
 * outside one is allowed only when its whole text node is a fixed fragment of the templates (the
 * text between two `{{placeholders}}` of a phrase or of report.<lang>.md, e.g. "n/(n+1) = "), which
 * holds no data by construction. The report is read as committed: re-render it after a change
 * (`npx zx run.mjs report runs/20261130-100102-seed-000 [--lang zh]`).
 */
import { loadTemplates } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { getStudy } from '../../src/studies/index.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SEED_000_RUN = '20261130-100102-seed-000';
const VOID = new Set(['br', 'hr', 'img', 'meta', 'input', 'col', 'wbr', 'link']);

const decode = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&#10;/g, '\n').replace(/&amp;/g, '&');
/** the text a phrase fragment renders to, roughly: no Markdown markers, one space for any run of whitespace */
const norm = (s: string): string => s.replace(/\\(.)/g, '$1').replace(/[*`]/g, '').replace(/\s+/g, ' ');

export interface TextNode { text: string; inPv: boolean; inHeading: boolean }

/**
 * The text nodes of an HTML fragment as markdown-it writes it (well-formed, no raw HTML from the
 * run), each with whether it lies inside an `a.pv` or a heading. Figures (inline SVG) are skipped.
 */
export function textNodes(html: string): TextNode[] {
  const src = html.replace(/<figure class="chart"[\s\S]*?<\/figure>/g, '');
  const stack: { tag: string; pv: boolean; heading: boolean }[] = [];
  const out: TextNode[] = [];
  for (const m of src.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>|([^<]+)/g)) {
    if (m[4] !== undefined) {
      out.push({ text: decode(m[4]), inPv: stack.some((x) => x.pv), inHeading: stack.some((x) => x.heading) });
      continue;
    }
    const tag = (m[2] as string).toLowerCase();
    if (m[1] === '/') {
      const i = stack.map((x) => x.tag).lastIndexOf(tag);
      assert.ok(i >= 0, `closing </${tag}> without an opening tag`);
      stack.length = i;
    } else if (!VOID.has(tag) && !(m[3] ?? '').endsWith('/')) {
      stack.push({ tag, pv: tag === 'a' && /\bclass="pv"/.test(m[3] ?? ''), heading: /^h[1-6]$/.test(tag) });
    }
  }
  return out;
}

/** The part of the page from the h2 starting with `from` up to the h2 starting with `to`. */
export function sectionSlice(html: string, from: string, to: string): string {
  const a = html.indexOf(`<h2>${from}`);
  const b = html.indexOf(`<h2>${to}`);
  assert.ok(a >= 0 && b > a, `sections ${from} … ${to} found`);
  return html.slice(a, b);
}

/** Fixed fragments of the templates: the text of every phrase and of report.<lang>.md between placeholders. */
async function staticFragments(lang: 'en' | 'zh'): Promise<string[]> {
  const t = await loadTemplates(lang, getStudy('000'));
  return [t.report, ...Object.values(t.phrases)].flatMap((x) => x.split(/\{\{[^}]+\}\}/)).map(norm);
}

for (const lang of ['en', 'zh'] as const) {
  test(`committed 000 report (${lang}): every number in §8 and §9 carries a provenance entry`, async () => {
    const file = join(ROOT, 'report', SEED_000_RUN, ...(lang === 'zh' ? ['zh'] : []), 'index.html');
    const html = readFileSync(file, 'utf8');
    const part = sectionSlice(html, '8. ', '10. ');
    const fragments = await staticFragments(lang);
    const nodes = textNodes(part);
    const numbered = nodes.filter((n) => !n.inPv && !n.inHeading && /\d/.test(n.text));
    const without = numbered.filter((n) => { const x = norm(n.text).trim(); return !fragments.some((f) => f.includes(x)); });
    assert.deepEqual(without.map((n) => n.text), [], `numbers in §8–§9 without a provenance entry (${file})`);
    // and the values that carry one: many, each linking to an appendix row that exists
    const links = [...part.matchAll(/<a class="pv" href="#(pv-\d+)" aria-describedby="pv-\d+" data-pv="([^"]*)">/g)];
    assert.ok(links.length > 300, `§8–§9 hold ${links.length} values with provenance`);
    for (const [, id, data] of links) {
      assert.ok(html.includes(`<tr id="${id}">`), `appendix row ${id} exists`);
      // a definition, not a bare value: Chinese says it in fewer characters
      assert.ok((data as string).length > (lang === 'zh' ? 10 : 20), `${id} has a provenance text`);
    }
    assert.equal(nodes.filter((n) => n.inPv).filter((n) => !/\d|†/.test(n.text)).length, 0, 'a provenance link holds a number');
  });
}

test('textNodes: tells numbers inside a provenance link from those outside', () => {
  const nodes = textNodes('<p>At <a class="pv" href="#pv-1" aria-describedby="pv-1" data-pv="x">500</a> workers, 3 <strong>x</strong></p><h2>8. Results</h2>');
  assert.deepEqual(nodes.map((n) => [n.text, n.inPv, n.inHeading]), [['At ', false, false], ['500', true, false], [' workers, 3 ', false, false], ['x', false, false], ['8. Results', false, true]]);
});
