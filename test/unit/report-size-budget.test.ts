/**
 * The committed study-000 report (issue 19): re-rendering its run gives the committed bytes
 * (deterministic), and it stays within the size budget of issue 31: each language's index.html
 * (inline charts, provenance, data appendix) at most HTML_BUDGET_BYTES = 2 MiB, and every file
 * both languages write (index.html, report.md, figures/*.svg, meta.json) together at most
 * FOLDER_BUDGET_BYTES = 4 MiB. The sizes are printed. Renders the whole seed-000 run twice (≈ 20 s);
 * test/unit/report-layout-budget.test.ts checks every committed report's folder as committed.
 */
import { loadRun, loadTemplates } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildReport } from '../../src/report/index.ts';

import { writeAll } from '../../src/report/write.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RUN = '20261130-100102-seed-000';
import { FOLDER_BUDGET_BYTES, HTML_BUDGET_BYTES } from '../fixtures/report-budget.ts';

/** Files under dir (recursively), relative paths, except a language subfolder `zh/`. */
function files(dir: string, skipZh: boolean): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) { if (!(skipZh && e.name === 'zh')) out.push(...files(join(dir, e.name), false).map((f) => join(e.name, f))); } else out.push(e.name);
  }
  return out.sort();
}

test('committed 000 report: a re-render is byte-identical; each index.html within 2 MiB, both languages within 4 MiB', { timeout: 180_000 }, async (t) => {
  const run = await loadRun(join(ROOT, 'runs', RUN));
  const out = mkdtempSync(join(tmpdir(), 'vtbench-budget-'));
  try {
    let both = 0;
    for (const lang of ['en', 'zh'] as const) {
      const built = await buildReport(run, await loadTemplates(lang, run.study));
      const dir = join(out, lang);
      await writeAll(dir, built.files);
      const committed = join(ROOT, 'report', RUN, ...(lang === 'zh' ? ['zh'] : []));
      assert.deepEqual(files(dir, false), files(committed, true), `${lang}: the same files as committed`);
      let total = 0;
      const sizes: string[] = [];
      for (const f of files(dir, false)) {
        const a = readFileSync(join(dir, f));
        assert.ok(a.equals(readFileSync(join(committed, f))), `${lang}: ${f} re-renders byte-identically (re-render with npx zx run.mjs report runs/${RUN}${lang === 'zh' ? ' --lang zh' : ''})`);
        total += statSync(join(dir, f)).size;
        sizes.push(`${relative(dir, join(dir, f))} ${a.length}`);
      }
      t.diagnostic(`${lang}: ${total} bytes: ${sizes.join(', ')}`);
      const html = statSync(join(dir, 'index.html')).size;
      assert.ok(html <= HTML_BUDGET_BYTES, `${lang}: index.html ${html} bytes exceeds ${HTML_BUDGET_BYTES}`);
      both += total;
    }
    t.diagnostic(`both languages: ${both} bytes of ${FOLDER_BUDGET_BYTES} (${((both / FOLDER_BUDGET_BYTES) * 100).toFixed(1)} %)`);
    assert.ok(both <= FOLDER_BUDGET_BYTES, `both languages: ${both} bytes exceed the budget of ${FOLDER_BUDGET_BYTES}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
