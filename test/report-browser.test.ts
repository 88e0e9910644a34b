/**
 * Opens the fixture report in headless Chromium (Debian `chromium` + playwright-core): every
 * section heading and every chart is visible, and the page makes no network request.
 * Needs /usr/bin/chromium (CI installs it: `apt-get install -y chromium`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { renderReport, loadTemplates } from '../src/report/index.ts';
import { FIXTURE_DIR } from './fixtures/report-helpers.ts';

const CHROMIUM = process.env['VTBENCH_CHROMIUM'] ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run', '--disable-component-update', '--disable-sync'];

for (const lang of ['en', 'zh'] as const) {
  test(`report (${lang}) in headless Chromium: every section and chart visible, no network request`, { timeout: 60_000 }, async () => {
    assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (CI does this in .ci/run) or set VTBENCH_CHROMIUM`);
    const out = mkdtempSync(join(tmpdir(), 'vtbench-browser-'));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    try {
      const r = await renderReport(FIXTURE_DIR, out, { lang });
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

      const expected = (await loadTemplates(lang)).report.split('\n').filter((l) => l.startsWith('## ')).map((l) => l.slice(3).trim());
      assert.ok(expected.length >= 19, 'templates list the sections');
      const headings = page.locator('h2');
      assert.equal(await headings.count(), expected.length);
      for (let i = 0; i < expected.length; i++) {
        const h = headings.nth(i);
        assert.equal((await h.textContent())?.trim(), expected[i]);
        assert.ok(await h.isVisible(), `heading ${expected[i]} visible`);
      }
      const figures = page.locator('figure.chart');
      assert.equal(await figures.count(), 5);
      for (let i = 0; i < 5; i++) {
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
    } finally {
      await browser.close();
      rmSync(out, { recursive: true, force: true });
    }
  });
}
