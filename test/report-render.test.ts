import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRun } from '../src/report/load.ts';
import { buildReport, loadTemplates, renderReport } from '../src/report/index.ts';
import { esc, fill, raw } from '../src/report/format.ts';
import { markdown } from '../src/report/render-html.ts';
import { FIXTURE_DIR, assertGolden } from './fixtures/report-helpers.ts';

const HOSTILE = '<script>alert(1)</script>';

async function build(lang: 'en' | 'zh') {
  return buildReport(await loadRun(FIXTURE_DIR), await loadTemplates(lang));
}
const file = (b: Awaited<ReturnType<typeof build>>, path: string) => {
  const f = b.files.find((x) => x.path === path);
  assert.ok(f, `no ${path}`);
  return f.content;
};

test('report of the fixture run matches the golden Markdown, HTML and vega-lite specs (en)', async () => {
  const b = await build('en');
  assertGolden('report.en.md', file(b, 'report.md'));
  assertGolden('index.en.html', file(b, 'index.html'));
  assertGolden('vega-lite-specs.en.json', JSON.stringify(b.specs, null, 2) + '\n');
});

test('report of the fixture run matches the golden Markdown (zh) and uses the study\'s section titles', async () => {
  const b = await build('zh');
  const md = file(b, 'report.md');
  assertGolden('report.zh.md', md);
  for (const title of ['摘要', '测试背景', '测试目标', '核心假设', '测试架构', '测试环境', '测试方法', '指标定义', '测试结果', '结果分析', 'Thread Dump 证据', 'Pinning 检查', '资源开销', '为什么仍然需要限流', '瓶颈转移', '测试结论', '最终结论', '后续测试建议']) {
    assert.match(md, new RegExp(`^## (\\d+\\. )?${title}$`, 'm'), title);
  }
});

test('the same run folder gives byte-identical output twice, SVG included', async () => {
  const a = await build('en');
  const b = await build('en');
  assert.deepEqual(a.files.map((f) => f.path), b.files.map((f) => f.path));
  for (let i = 0; i < a.files.length; i++) assert.equal(a.files[i]?.content, b.files[i]?.content, a.files[i]?.path);
  const out1 = mkdtempSync(join(tmpdir(), 'vtbench-report-'));
  const out2 = mkdtempSync(join(tmpdir(), 'vtbench-report-'));
  try {
    const r1 = await renderReport(FIXTURE_DIR, out1, { lang: 'en' });
    const r2 = await renderReport(FIXTURE_DIR, out2, { lang: 'en' });
    assert.equal(r1.files.length, r2.files.length);
    for (let i = 0; i < r1.files.length; i++) {
      assert.equal(readFileSync(r1.files[i] as string, 'utf8'), readFileSync(r2.files[i] as string, 'utf8'), r1.files[i]);
    }
    assert.ok(r1.files.some((f) => f.endsWith(join('run-fixture', 'index.html'))));
    assert.ok(r1.files.some((f) => f.endsWith(join('run-fixture', 'figures', 'throughput.svg'))));
    assert.match(readFileSync(join(out1, 'index.md'), 'utf8'), /\[run-fixture\]\(run-fixture\/report\.md\)/);
    assert.match(readFileSync(join(out1, 'index.html'), 'utf8'), /href="run-fixture\/index\.html"/);
  } finally {
    rmSync(out1, { recursive: true, force: true });
    rmSync(out2, { recursive: true, force: true });
  }
});

test('hostile strings from the run are escaped in Markdown and HTML', async () => {
  for (const lang of ['en', 'zh'] as const) {
    const b = await build(lang);
    const md = file(b, 'report.md');
    const html = file(b, 'index.html');
    assert.ok(!md.includes(HOSTILE), 'raw <script> in Markdown');
    assert.ok(md.includes('\\<script\\>alert(1)\\</script\\>'), 'escaped <script> in Markdown');
    assert.ok(md.includes('\\*\\*bold\\*\\*') && md.includes('\\[x\\](javascript:alert(1))'));
    assert.ok(!html.includes('<script'), 'a <script> tag in HTML');
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(!/<strong>bold<\/strong>/.test(html), 'markdown from the run was interpreted');
    assert.ok(!/href="javascript:/i.test(html), 'javascript: link');
    assert.ok(!/(src|href)="https?:/i.test(html), 'external URL in the page');
  }
});

test('markdown-it keeps html: false; esc and fill escape every interpolated string', () => {
  assert.equal(markdown().options.html, false);
  assert.equal(markdown().render('<b>x</b>'), '<p>&lt;b&gt;x&lt;/b&gt;</p>\n');
  assert.equal(esc('a|b *c* <d> & [e](f) `g` _h_ #i ~j~'), 'a\\|b \\*c\\* \\<d\\> \\& \\[e\\](f) \\`g\\` \\_h\\_ \\#i \\~j\\~');
  assert.equal(esc('- item'), '\\- item');
  assert.equal(esc('1. item'), '1\\. item');
  assert.equal(esc('65.98 req/s'), '65.98 req/s');
  assert.equal(fill('A {{x}} {{y}}', { x: '<i>', y: raw('**b**') }, 't'), 'A \\<i\\> **b**');
  assert.throws(() => fill('{{missing}}', {}, 't'), /no value for \{\{missing\}\}/);
});

test('templates en and zh have the same phrases and the same placeholders', async () => {
  const en = await loadTemplates('en');
  const zh = await loadTemplates('zh');
  assert.deepEqual(Object.keys(zh.phrases).sort(), Object.keys(en.phrases).sort());
  const ph = (s: string) => [...s.matchAll(/\{\{([^}]+)\}\}/g)].map((m) => m[1]).sort();
  for (const k of Object.keys(en.phrases)) assert.deepEqual(ph(zh.phrases[k] as string), ph(en.phrases[k] as string), k);
  assert.deepEqual(ph(zh.report), ph(en.report));
  // no measured result hard-coded in the templates: every digit sequence there is a section number or a constant of the method
  for (const t of [en.report, zh.report]) assert.ok(!/\d+\.\d+\s*(req\/s|ms|s)\b/.test(t), 'a result written into a template');
});

test('charts: no title or label cut short (no "…" in any SVG), and the HTML does not repeat each chart title in a caption', async () => {
  for (const lang of ['en', 'zh'] as const) {
    const b = await build(lang);
    for (const f of b.files.filter((x) => x.path.endsWith('.svg'))) assert.ok(!f.content.includes('…'), `${lang} ${f.path}: truncated text`);
    const html = file(b, 'index.html');
    assert.ok(!html.includes('<figcaption'), 'figcaption repeats the chart title');
    assert.equal((html.match(/<figure class="chart"[^>]* aria-label="[^"]+"/g) ?? []).length, 5);
  }
});
