/**
 * Opens the fixture report in headless Chromium (Debian `chromium` + playwright-core): every
 * section heading and every chart is visible, and the page makes no network request.
 * Needs Chromium (test/fixtures/chromium.ts: where it is looked for, when a test skips).
 */
import { loadTemplates, renderReport } from '../fixtures/registered.ts';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

import { FIXTURE_DIR } from '../fixtures/report-helpers.ts';
import { CHROMIUM, CHROMIUM_ARGS, browserSkipReason, isCi } from '../fixtures/chromium.ts';

const SKIP = browserSkipReason(CHROMIUM, isCi());
if (SKIP) process.stderr.write(`report-browser.test.ts: ${SKIP}\n`);
const ARGS = CHROMIUM_ARGS;

/** One browser and one rendering per language for the tests of this file (each launch or render cost seconds). */
const out = mkdtempSync(join(tmpdir(), 'vtbench-browser-'));
let launched: Promise<Browser> | null = null;
const browserOnce = (): Promise<Browser> => (launched ??= chromium.launch({ executablePath: CHROMIUM, args: ARGS }));
const rendered = new Map<string, ReturnType<typeof renderReport>>();
const reportOnce = (lang: 'en' | 'zh'): ReturnType<typeof renderReport> => {
  if (!rendered.has(lang)) rendered.set(lang, renderReport(FIXTURE_DIR, join(out, lang), { lang }));
  return rendered.get(lang)!;
};
after(async () => {
  try {
    await launched?.then((b) => b.close(), () => undefined); // a launch that failed has already failed its test
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

for (const lang of ['en', 'zh'] as const) {
  test(`report (${lang}) in headless Chromium: every section and chart visible, no network request`, { timeout: 60_000, skip: SKIP }, async () => {
    assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (CI does this in .ci/run) or set VTBENCH_CHROMIUM`);
    const browser = await browserOnce();
    const r = await reportOnce(lang);
    const htmlPath = join(r.outDir, 'index.html');
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    const requests: string[] = [];
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      requests.push(url);
      return route.abort();
    });
    page.on('request', (req) => { if (!req.url().startsWith('file:')) requests.push(req.url()); });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('dialog', (d) => { errors.push(`dialog: ${d.message()}`); void d.dismiss(); });
    await page.goto(pathToFileURL(htmlPath).href, { waitUntil: 'load' });

    const tpl = await loadTemplates(lang);
    // the template's sections, then the engine's appendices: the flags per cell (the fixture's cells raised some), the data, and how each number was computed
    // the answer block's heading first (a phrase, not in the template), then the template's sections and the appendices
    const expected = [tpl.phrases['answer.heading']!.replace(/^## /, ''), ...tpl.report.split('\n').filter((l) => l.startsWith('## ')).map((l) => l.slice(3).trim()), tpl.phrases['flags.appendix.title'], tpl.phrases['data.title'], tpl.phrases['prov.title']];
    assert.ok(expected.length >= 21, 'templates list the sections');
    const headings = page.locator('h2');
    assert.equal(await headings.count(), expected.length);
    for (let i = 0; i < expected.length; i++) {
      const h = headings.nth(i);
      assert.equal((await h.textContent())?.trim(), expected[i]);
      assert.ok(await h.isVisible(), `heading ${expected[i]} visible`);
    }
    const figures = page.locator('figure.chart');
    // the template's charts plus the answer's headline chart ({{headlineChart}})
    const nFigures = [...tpl.report.matchAll(/\{\{fig:[a-z0-9-]+\}\}/g)].length + (tpl.report.includes('{{headlineChart}}') ? 1 : 0);
    assert.ok(nFigures >= 7, `the template embeds the charts (${nFigures})`);
    assert.equal(await figures.count(), nFigures);
    for (let i = 0; i < nFigures; i++) {
      const svg = figures.nth(i).locator('svg').first();
      await svg.scrollIntoViewIfNeeded();
      assert.ok(await svg.isVisible(), `chart ${i} visible`);
      const box = await svg.boundingBox();
      assert.ok(box && box.width > 200 && box.height > 150, `chart ${i} has a size: ${JSON.stringify(box)}`);
      assert.ok((await svg.locator('path, line, rect').count()) > 10, `chart ${i} draws marks`);
    }
    assert.equal(await page.locator('script').count(), 0);
    assert.deepEqual(errors, []);
    assert.deepEqual(requests, [], 'the page must not make network requests');
    assert.ok(!/https?:\/\/(?!www\.w3\.org\/)/.test(readFileSync(htmlPath, 'utf8')), 'no external URL in the HTML apart from SVG namespaces');
    if (process.env['VTBENCH_SCREENSHOT']) await page.screenshot({ path: `${process.env['VTBENCH_SCREENSHOT']}-${lang}.png`, fullPage: true });
    await context.close();
  });
}

for (const lang of ['en', 'zh'] as const) {
  test(`report (${lang}) in headless Chromium: hovering and focusing a value shows its definition; its link opens its appendix row with the sources`, { timeout: 60_000, skip: SKIP }, async () => {
    const browser = await browserOnce();
    const r = await reportOnce(lang);
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(pathToFileURL(join(r.outDir, 'index.html')).href, { waitUntil: 'load' });
      const tpl = await loadTemplates(lang);
      // a value of §8's "all levels" table: the first cell with a provenance link in the table after the heading 8.6
      const value = page.locator('h3:has-text("8.6") + table a.pv').first();
      await value.scrollIntoViewIfNeeded();
      const after = () => value.evaluate((el) => getComputedStyle(el, '::after').content);
      assert.equal(await after(), 'none', 'no provenance shown before hover or focus');
      await value.hover();
      const shown = await after();
      // the hover gives the definition (and a derived value's formula); the sources are in the appendix row the value links to
      const rowOf = async (el: typeof value) => page.locator(`tr${(await el.getAttribute('href')) as string}`);
      const definitionOf = async (el: typeof value) => ((await (await rowOf(el)).locator('td').nth(2).textContent()) ?? '').trim();
      const def1 = await definitionOf(value);
      assert.ok(def1.length > 10 && shown.includes(def1.slice(0, 40)), `hover shows the definition: ${shown}`);
      const box = await value.evaluate((el) => { const a = el.getBoundingClientRect(); return { w: a.width, h: a.height }; });
      assert.ok(box.w > 0 && box.h > 0);
      // keyboard: focus another value (a different link) with the mouse away
      await page.mouse.move(0, 0);
      const other = page.locator('h3:has-text("8.6") + table a.pv').nth(2);
      await other.focus();
      const focused = await other.evaluate((el) => getComputedStyle(el, '::after').content);
      // the link leads to the appendix row, which holds the same definition and the run file with its JSON path
      const href = (await other.getAttribute('href')) as string;
      const row = page.locator(`tr${href}`);
      assert.equal(await row.count(), 1, `appendix row ${href}`);
      const definition = await definitionOf(other);
      assert.ok(definition.length > 10 && focused.includes(definition.slice(0, 40)), 'focus shows the provenance too: the hover and the appendix give the same definition');
      assert.match((await row.locator('td').nth(4).textContent()) ?? '', /summary\.json \/rows\/\d+\/[a-zA-Z]+|cells\/[a-z0-9-]+/, 'the appendix row names a run file and a JSON path');
      assert.equal(await row.evaluate((el) => (el.closest('details') as HTMLDetailsElement).open), false, 'the appendix is collapsed by section');
      await other.click();
      assert.ok(page.url().endsWith(href), 'following the value leads to its appendix row');
      assert.equal(await row.evaluate((el) => (el.closest('details') as HTMLDetailsElement).open), true, 'following the value opens its section of the appendix');
      assert.ok(await row.isVisible(), 'the row is shown');
      if (process.env['VTBENCH_SCREENSHOT']) { await other.focus(); await page.screenshot({ path: `${process.env['VTBENCH_SCREENSHOT']}-hover-${lang}.png` }); }
    } finally {
      await context.close();
    }
  });
}

test('browser test: skipped with a reason without Chromium locally, never skipped under CI', () => {
  const missing = () => false;
  assert.match(browserSkipReason('/nowhere/chromium', false, missing) as string, /Chromium not found at \/nowhere\/chromium .*skipped/);
  assert.equal(browserSkipReason('/nowhere/chromium', true, missing), false, 'CI: run and fail');
  assert.equal(browserSkipReason('/usr/bin/chromium', false, () => true), false);
  assert.equal(isCi({ CI: 'true' }), true);
  assert.equal(isCi({ CI: '1' }), true);
  assert.equal(isCi({ CI: 'false' }), false);
  assert.equal(isCi({}), false);
});
