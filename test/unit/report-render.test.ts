import { loadRun, loadTemplates, renderReport } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LoadedRun } from '../../src/report/load.ts';
import { buildReport } from '../../src/report/index.ts';
import { code, esc, fill, raw, table } from '../../src/report/format.ts';
import { buildModel } from '../../src/report/model.ts';
import { chartSpecs, forLogScale, renderSvg } from '../../src/report/charts.ts';
import { chartLabels } from '../../src/report/render-md.ts';
import { markdown } from '../../src/report/render-html.ts';
import { FIXTURE_DIR, assertGolden } from '../fixtures/report-helpers.ts';

const HOSTILE = '<script>alert(1)</script>';
/** put into an in-memory copy of the fixture run by the escaping tests, never into the fixture */
const HOSTILE_FULL = `${HOSTILE} **bold** [x](javascript:alert(1))`;

async function build(lang: 'en' | 'zh', edit?: (run: LoadedRun) => LoadedRun) {
  const run = await loadRun(FIXTURE_DIR);
  return buildReport(edit ? edit(run) : run, await loadTemplates(lang));
}
/** The fixture run with hostile strings where a run carries free text: a flag message, the mock's model name, a pinned reason, a thread name. */
function hostile(run: LoadedRun): LoadedRun {
  const cells = structuredClone(run.cells);
  const flagged = cells.find((c) => c.variant === 'virtual') as (typeof cells)[number];
  flagged.flags = [...flagged.flags, { code: 'loadgen-cpu', message: `load generator CPU 91 % of one core ${HOSTILE_FULL}`, value: 91, threshold: 90 }];
  flagged.pinned = { thresholdMs: 20, total: 1, byReason: { [`reason ${HOSTILE_FULL}`]: 1 }, submitFailed: 0 };
  for (const c of cells) if (c.mock.after) c.mock = { ...c.mock, after: { ...c.mock.after, config: { ...c.mock.after.config, model: `mock-gpt ${HOSTILE_FULL}` } } };
  const dumped = cells.find((c) => c.threadDump !== null) as (typeof cells)[number];
  const dump = dumped.threadDump as NonNullable<typeof dumped.threadDump>;
  dumped.threadDump = { ...dump, groups: [...dump.groups, { namePrefix: `evil-${HOSTILE_FULL}`, virtual: false, state: 'RUNNABLE', topFrame: `x.y|z ${HOSTILE_FULL}`, count: 1 }] };
  return { ...run, cells };
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
    const b = await build(lang, hostile);
    const md = file(b, 'report.md');
    const html = file(b, 'index.html');
    assert.ok(!md.includes(HOSTILE), 'raw <script> in Markdown');
    // the thread group with a pipe in its frame keeps its row: name, virtual, state, frame, count
    const row = html.split('<tr>').find((r) => r.includes('evil-'));
    assert.ok(row, 'the hostile thread group is listed');
    assert.equal((row.match(/<td/g) ?? []).length, 5, row);
    assert.match(row, /<td>x\.y\|z &lt;script&gt;/);
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
    // the 7 engine charts, and the answer's headline chart (throughput) once more at the top
    assert.equal((html.match(/<figure class="chart"[^>]* aria-label="[^"]+"/g) ?? []).length, 8);
    assert.equal((html.match(/<figure class="chart" id="headline-chart" data-figure="throughput"/g) ?? []).length, 1);
  }
});

test('tables: a | inside inline code or escaped text keeps the row whole (nothing after it is dropped)', () => {
  const t = table(['command', 'note', 'n'], [[code('grep a | wc -l'), raw(`${esc("a|b")} and ${code("x|y").md}`), '3']]);
  const html = markdown().render(t.md);
  const row = html.split('<tbody>')[1] ?? '';
  assert.equal((row.match(/<td/g) ?? []).length, 3, html);
  assert.match(row, /<td><code>grep a \| wc -l<\/code><\/td>/);
  assert.match(row, /<td>a\|b and <code>x\|y<\/code><\/td>/);
  assert.match(row, /<td>3<\/td>/);
  // outside a table a code span is left alone
  assert.equal(code('a|b').md, '`a|b`');
});

test('log-scale charts leave out values of 0 or below and say so; the other points keep their scale', async () => {
  const t = await loadTemplates('en');
  const labels = chartLabels(t);
  const model = buildModel(await loadRun(FIXTURE_DIR));
  const zeroed = { ...model, rows: model.rows.map((r, i) => (i === 0 ? { ...r, e2eP95Ms: { ...r.e2eP95Ms, median: 0 } } : r)),
    charts: { ...model.charts, distribution: model.charts.distribution.map((d, i) => (i === 0 ? { ...d, e2eMs: 0 } : d)) } };
  const specs = chartSpecs(zeroed, labels);
  for (const name of ['e2e-latency', 'distribution']) {
    const s = specs.find((x) => x.name === name)?.spec as unknown as { title: { subtitle: string }; data: { values: { ms: number }[] } };
    assert.ok(s.data.values.length > 0 && s.data.values.every((v) => v.ms > 0), `${name}: a value ≤ 0 on a log axis`);
    assert.equal(s.title.subtitle, '1 value(s) of 0 or below left out: a log scale cannot show them', name);
    const svg = await renderSvg(specs.find((x) => x.name === name)!.spec);
    assert.ok(svg.includes('1 value(s) of 0 or below left out'), `${name}: the note is drawn`);
    assert.ok(!/NaN|Infinity/.test(svg), `${name}: a point at an infinite position`);
  }
  // without zeros the titles are plain strings (no empty subtitle)
  assert.equal(typeof (chartSpecs(model, labels).find((x) => x.name === 'distribution')?.spec as unknown as { title: unknown }).title, 'string');
  assert.deepEqual(forLogScale([{ ms: 0 }, { ms: -1 }, { ms: 2 }, { ms: Number.NaN }], 'ms'), { rows: [{ ms: 2 }], dropped: 3 });
});
