/**
 * Issue 31's acceptance, "a browser test opens each committed report": every report/<id>/index.html
 * and report/<id>/zh/index.html in headless Chromium at 1,400 × 900 and at 800 × 900 must show
 *  - the answer block (an element with id "answer") and the headline chart (id "headline-chart")
 *    with their tops inside the first 900 px of the page (the reader who stops after the first
 *    screen has the answer), and
 *  - no element wider than the page: document.documentElement.scrollWidth ≤ innerWidth; on failure
 *    the message names the widest element that runs off the right edge (a CSS path and the heading
 *    it sits under).
 * The front page report/index.html is held to the second rule (it has no answer block of its own).
 * One test per page, so a failure names the page and everything missing on it at both widths.
 * Chromium: test/fixtures/chromium.ts (skipped with the reason without it, except under CI).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';

import { CHROMIUM, browserSkipReason, isCi, launchChromium } from '../fixtures/chromium.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REPORT_ROOT = join(ROOT, 'report');
/** the first screen: what a reader sees without scrolling, px */
const FIRST_SCREEN_PX = 900;
const WIDTHS = [1400, 800] as const;

const SKIP = browserSkipReason(CHROMIUM, isCi());
if (SKIP) process.stderr.write(`committed-reports-browser.test.ts: ${SKIP}\n`);

/** Every committed report page, relative to report/: <id>/index.html, then <id>/zh/index.html when it exists. */
export function committedReportPages(reportRoot: string = REPORT_ROOT): string[] {
  const ids = readdirSync(reportRoot, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return ids.flatMap((id) => [join(id, 'index.html'), join(id, 'zh', 'index.html')].filter((p) => existsSync(join(reportRoot, p))));
}

/** What one page shows at one viewport (measured in the page at scroll 0). */
interface PageFacts {
  innerWidth: number;
  scrollWidth: number;
  /** page-relative box of #answer / #headline-chart, null when the page has no such element */
  answer: { top: number; height: number } | null;
  chart: { top: number; height: number } | null;
  /** the widest element whose right edge is beyond innerWidth and that no ancestor clips or scrolls; null when none */
  widest: { selector: string; heading: string; width: number; right: number } | null;
  /** how many such elements */
  offenders: number;
}

/** Runs in the page: the facts above. Kept free of closures (playwright serialises it). */
function measure(): PageFacts {
  const vw = window.innerWidth;
  const box = (id: string) => {
    const el = document.getElementById(id);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { top: Math.round(r.top + window.scrollY), height: Math.round(r.height) };
  };
  const cssPath = (el: Element): string => {
    const parts: string[] = [];
    for (let e: Element | null = el; e && e !== document.body && e !== document.documentElement; e = e.parentElement) {
      if (e.id) { parts.unshift(`${e.tagName.toLowerCase()}#${e.id}`); break; }
      const same = e.parentElement ? [...e.parentElement.children].filter((c) => c.tagName === e!.tagName) : [];
      const cls = e.classList.length > 0 ? `.${[...e.classList].join('.')}` : '';
      parts.unshift(`${e.tagName.toLowerCase()}${cls}${same.length > 1 ? `:nth-of-type(${same.indexOf(e) + 1})` : ''}`);
    }
    return parts.join(' > ');
  };
  const headings = [...document.querySelectorAll('h1, h2, h3, h4')];
  const headingBefore = (el: Element): string => {
    let last = '';
    for (const h of headings) {
      if (h === el || h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) last = (h.textContent ?? '').trim().slice(0, 80);
      else break;
    }
    return last;
  };
  let widest: PageFacts['widest'] = null;
  let offenders = 0;
  const scrollWidth = document.documentElement.scrollWidth;
  // the culprit is looked for only when the page overflows (a scan of every element is slow on a long page)
  for (const el of scrollWidth > vw ? document.body.querySelectorAll('*') : []) {
    // an SVG's inner marks overflow only with their <svg>, which is checked itself
    if (el instanceof SVGElement && !(el instanceof SVGSVGElement)) continue;
    const r = el.getBoundingClientRect();
    if (r.right <= vw + 0.5) continue;
    let clipped = false;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== 'visible') { clipped = true; break; }
    }
    if (clipped) continue;
    offenders++;
    if (!widest || r.width > widest.width) widest = { selector: cssPath(el), heading: headingBefore(el), width: Math.round(r.width), right: Math.round(r.right) };
  }
  return { innerWidth: vw, scrollWidth, answer: box('answer'), chart: box('headline-chart'), widest, offenders };
}

/**
 * What is wrong with a page at one width, as sentences (empty: nothing). Pure, so the wording is
 * tested without a browser.
 * @param firstScreen whether the answer block and headline chart must be in the first screen (report pages)
 */
export function problems(f: PageFacts, width: number, firstScreen: boolean): string[] {
  const out: string[] = [];
  const at = `at ${width} px`;
  if (firstScreen) {
    const place = (b: PageFacts['answer'], id: string, what: string) => {
      if (b === null) out.push(`${at}: no element with id "${id}" (${what}; issue 31 item 1)`);
      else if (b.height <= 0) out.push(`${at}: #${id} has no height (${what} is not shown)`);
      else if (b.top >= FIRST_SCREEN_PX) out.push(`${at}: #${id} starts at ${b.top} px, below the first ${FIRST_SCREEN_PX} px (${what} must be on the first screen)`);
    };
    place(f.answer, 'answer', 'the answer block');
    place(f.chart, 'headline-chart', 'the headline chart');
  }
  if (f.scrollWidth > f.innerWidth) {
    const w = f.widest;
    out.push(`${at}: the page is ${f.scrollWidth} px wide in a ${f.innerWidth} px window (horizontal overflow); ` +
      (w ? `widest element off the right edge (${f.offenders} in all): ${w.selector}, ${w.width} px wide, right edge at ${w.right} px${w.heading ? `, under "${w.heading}"` : ''}` : 'no single element found (a margin or a transform?)'));
  }
  return out;
}

let browser: Browser | undefined;
/** one page for every check (a new context per page cost about 0.7 s each here) */
let shared: Page | undefined;
before(async () => {
  if (SKIP) return;
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: WIDTHS[0], height: FIRST_SCREEN_PX } });
  // tsx compiles `measure` with esbuild's keepNames, which wraps its inner functions in __name()
  await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  shared = await context.newPage();
});
after(async () => { await browser?.close(); });

/** Open `file` (a path) in the shared page and list its problems at both widths. */
async function checkPage(file: string, firstScreen: boolean): Promise<string[]> {
  const page = shared as Page;
  await page.setViewportSize({ width: WIDTHS[0], height: FIRST_SCREEN_PX });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  const out: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: FIRST_SCREEN_PX });
    out.push(...problems(await page.evaluate(measure), width, firstScreen));
  }
  return out;
}

for (const rel of committedReportPages()) {
  test(`report/${rel} in Chromium at 1,400 and 800 px: answer block and headline chart in the first 900 px, no horizontal overflow`, { timeout: 60_000, skip: SKIP }, async () => {
    const p = await checkPage(join(REPORT_ROOT, rel), true);
    assert.deepEqual(p, [], `report/${rel}:\n  ${p.join('\n  ')}`);
  });
}

test('report/index.html (the front page) in Chromium at 1,400 and 800 px: no horizontal overflow', { timeout: 60_000, skip: SKIP }, async () => {
  const p = await checkPage(join(REPORT_ROOT, 'index.html'), false);
  assert.deepEqual(p, [], `report/index.html:\n  ${p.join('\n  ')}`);
});

test('the check in Chromium: finds a page that overflows and names its widest element, accepts a wide table that scrolls in its box, finds an answer block too low', { timeout: 60_000, skip: SKIP }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-pages-'));
  try {
    const page = (body: string): string => {
      const f = join(dir, `p${readdirSync(dir).length}.html`);
      writeFileSync(f, `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0} .box{overflow-x:auto}</style></head><body><main>${body}</main></body></html>`);
      return f;
    };
    const answer = '<div id="answer" style="height:300px">answer</div><figure id="headline-chart" style="height:400px;margin:0">chart</figure>';
    assert.deepEqual(await checkPage(page(`${answer}<div class="box"><table><tr><td style="min-width:3000px">wide</td></tr></table></div>`), true), [], 'a table scrolling inside its box is no overflow');
    const wide = await checkPage(page(`${answer}<h2>Data</h2><section><table class="data"><tr><td style="min-width:1000px">wide</td></tr></table></section>`), true);
    // 1,000 px fits at 1,400 px, not at 800 px
    assert.equal(wide.length, 1, wide.join('\n'));
    assert.match(wide[0] as string, /^at 800 px: the page is \d+ px wide in a 800 px window .*section > table\.data, \d+ px wide, .*under "Data"/);
    const low = await checkPage(page(`<div style="height:1200px">preamble</div>${answer}`), true);
    assert.match(low.join('\n'), /at 1400 px: #answer starts at 1200 px, below the first 900 px/);
    assert.match(low.join('\n'), /at 800 px: #headline-chart starts at 1500 px/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('committed report pages: every report folder with its English page, the Chinese ones beside them', () => {
  const pages = committedReportPages();
  assert.ok(pages.length >= 2, `committed report pages found: ${pages.length}`);
  assert.ok(pages.some((p) => p.includes(join('zh', 'index.html'))), 'Chinese pages are included');
  assert.ok(pages.every((p) => existsSync(join(REPORT_ROOT, p))), relative(ROOT, REPORT_ROOT));
});

test('the failure message names what is missing, what sits too low and the widest element off the edge', () => {
  const ok: PageFacts = { innerWidth: 800, scrollWidth: 800, answer: { top: 120, height: 300 }, chart: { top: 500, height: 350 }, widest: null, offenders: 0 };
  assert.deepEqual(problems(ok, 800, true), []);
  // a chart starting at 899 px is still on the first screen; at 900 px it is not
  assert.deepEqual(problems({ ...ok, chart: { top: 899, height: 10 } }, 800, true), []);
  assert.match(problems({ ...ok, chart: { top: 900, height: 10 } }, 800, true).join(), /#headline-chart starts at 900 px, below the first 900 px/);
  assert.match(problems({ ...ok, answer: null }, 1400, true).join(), /at 1400 px: no element with id "answer"/);
  assert.match(problems({ ...ok, answer: { top: 10, height: 0 } }, 1400, true).join(), /#answer has no height/);
  const wide = { ...ok, scrollWidth: 1900, widest: { selector: 'main > table:nth-of-type(3)', heading: '8.6 All levels', width: 1850, right: 1900 }, offenders: 4 };
  const msg = problems(wide, 800, true).join();
  assert.match(msg, /1900 px wide in a 800 px window/);
  assert.match(msg, /main > table:nth-of-type\(3\), 1850 px wide, right edge at 1900 px, under "8.6 All levels"/);
  // the front page: only the overflow rule
  assert.deepEqual(problems({ ...ok, answer: null, chart: null }, 800, false), []);
  assert.equal(problems({ ...wide, answer: null }, 800, false).length, 1);
});
