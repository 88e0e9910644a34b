/**
 * The layout of every committed report (issue 31 item 4), read as committed under report/<id>/
 * (sizes and text only, no rendering: well under a second):
 * - its index.html, English and Chinese, at most HTML_BUDGET_BYTES (2 MiB);
 * - its whole folder (English, Chinese, figures, meta) at most FOLDER_BUDGET_BYTES (4 MiB);
 * - a figure file only where the report.md of that language embeds it (no dead weight);
 * - no provenance marker `[^n<id>]` on any figure of report.md (the provenance is in its appendix);
 * - English headings in English: a heading of report.md holds at most one run of Chinese (the
 *   source's section name, where it identifies the section);
 * - a report folder has both languages.
 * The committed reports are re-rendered after a change to the report code
 * (`npx zx run.mjs report runs/<id> [--lang zh]`), so this reads what a reader gets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FOLDER_BUDGET_BYTES, HTML_BUDGET_BYTES } from '../fixtures/report-budget.ts';

/** the committed reports; VTBENCH_REPORT_DIR checks a re-render elsewhere (e.g. /tmp/rr) before it is committed */
const REPORT = process.env['VTBENCH_REPORT_DIR'] ?? fileURLToPath(new URL('../../report', import.meta.url));

/** Bytes of every file under dir, recursively. */
function folderBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? folderBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return n;
}

const reports = readdirSync(REPORT, { withFileTypes: true }).filter((e) => e.isDirectory() && existsSync(join(REPORT, e.name, 'index.html'))).map((e) => e.name).sort();

test('there are committed reports to check', () => {
  assert.ok(reports.length >= 5, `report/ holds ${reports.length} report folders`);
});

for (const id of reports) {
  test(`committed report ${id}: HTML ≤ 2 MiB per language, folder ≤ 4 MiB, only embedded figures, no markers, headings in their language`, (t) => {
    const dir = join(REPORT, id);
    const total = folderBytes(dir);
    const sizes: string[] = [];
    for (const lang of ['en', 'zh'] as const) {
      const ldir = lang === 'zh' ? join(dir, 'zh') : dir;
      assert.ok(existsSync(join(ldir, 'index.html')) && existsSync(join(ldir, 'report.md')), `${id}: the ${lang} report exists`);
      const html = statSync(join(ldir, 'index.html')).size;
      sizes.push(`${lang} index.html ${html}`);
      assert.ok(html <= HTML_BUDGET_BYTES, `${id} ${lang}: index.html is ${html} bytes, above ${HTML_BUDGET_BYTES}`);
      const md = readFileSync(join(ldir, 'report.md'), 'utf8');
      const marker = /(?<!\\)\[\^n\d+\]/.exec(md);
      assert.equal(marker, null, `${id} ${lang}: report.md carries a provenance marker (${marker?.[0]}); re-render it`);
      const figs = existsSync(join(ldir, 'figures')) ? readdirSync(join(ldir, 'figures')) : [];
      for (const f of figs) assert.ok(md.includes(`](figures/${f})`) || md.includes(`](figures/${f}#headline)`), `${id} ${lang}: figures/${f} is written but report.md does not embed it`);
      if (lang === 'en') {
        const headings = md.split('\n').filter((l) => /^#{1,4} /.test(l));
        for (const h of headings) assert.ok((h.match(/\p{Script=Han}+(?:[^\p{Script=Han}()（）]{0,3}\p{Script=Han}+)*/gu) ?? []).length <= 1, `${id} en: heading "${h}" holds Chinese more than once`);
      } else {
        const h2 = md.split('\n').filter((l) => /^## /.test(l));
        assert.ok(h2.filter((h) => /\p{Script=Han}/u.test(h)).length >= h2.length / 2, `${id} zh: most section headings are Chinese`);
      }
    }
    t.diagnostic(`${id}: folder ${total} bytes of ${FOLDER_BUDGET_BYTES}; ${sizes.join(', ')}`);
    assert.ok(total <= FOLDER_BUDGET_BYTES, `${id}: the folder is ${total} bytes, above ${FOLDER_BUDGET_BYTES}`);
  });
}
