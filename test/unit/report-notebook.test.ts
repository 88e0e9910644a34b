/**
 * The notebook parts of the report (issue 19): provenance values and their formulas, the HTML
 * provenance links (escaped, CSS-only), min/max downsampling, the data appendix (CSV, fences,
 * reproduce command) and the bounds chart helper.
 */
import { loadTemplates } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { downsampleMinMax } from '../../src/report/downsample.ts';
import { ProvBook, groupedSources, medianFormula, provMarkdown, provSections, stripProvRefs, rowProvenance, sourcesText, type Provenance, type RowForProv } from '../../src/report/provenance.ts';
import { renderHtml } from '../../src/report/render-html.ts';
import { csv, csvField, fenced, reproduceCommand } from '../../src/report/data-appendix.ts';
import { boundsChart, pLabel, renderSvg } from '../../src/report/charts.ts';

import { aggregate } from '../../src/compute/stats/aggregate.ts';
import { getStudy } from '../../src/studies/index.ts';
import { resolveOptions } from '../../src/plan/profiles.ts';
import type { RunManifest } from '../../src/types/run.ts';

test('downsampleMinMax: at most maxPoints, a subsequence, every extreme kept; small inputs unchanged', () => {
  const pts = Array.from({ length: 1000 }, (_, i) => ({ i, v: Math.sin(i / 7) * 100 + (i === 613 ? 5000 : 0) + (i === 77 ? -4000 : 0) }));
  const out = downsampleMinMax(pts, (p) => p.v, 50);
  assert.ok(out.length <= 50);
  for (let k = 1; k < out.length; k++) assert.ok((out[k]?.i as number) > (out[k - 1]?.i as number), 'order kept');
  assert.ok(out.some((p) => p.i === 613), 'the maximum is kept');
  assert.ok(out.some((p) => p.i === 77), 'the minimum is kept');
  assert.deepEqual(downsampleMinMax(pts.slice(0, 10), (p) => p.v, 50), pts.slice(0, 10));
  assert.throws(() => downsampleMinMax(pts, (p) => p.v, 1), RangeError);
});

test('medianFormula and groupedSources: the median of the repeats with each repeat, files in brace form', () => {
  assert.equal(medianFormula(aggregate([3, 1, 2]), String), 'median(3, 1, 2) = 2');
  assert.equal(medianFormula(aggregate([5]), String), null, 'one repeat: nothing to take the median of');
  const g = groupedSources([
    { file: 'summary.json', pointer: '/rows/4/e2eMs/p95/median' },
    { file: 'cells/fixed-c500-r1.json', pointer: '/load/e2eMs/p95' }, { file: 'cells/fixed-c500-r2.json', pointer: '/load/e2eMs/p95' }, { file: 'cells/fixed-c500-r3.json', pointer: '/load/e2eMs/p95' },
  ]);
  assert.deepEqual(g, [{ files: 'summary.json', pointer: '/rows/4/e2eMs/p95/median' }, { files: 'cells/fixed-c500-r{1,2,3}.json', pointer: '/load/e2eMs/p95' }]);
  assert.equal(sourcesText([{ file: 'a1.json', pointer: '/x' }, { file: 'a2.json', pointer: '/x' }]), 'a{1,2}.json /x');
  assert.equal(sourcesText([{ file: 'seeds/002_x.txt', pointer: 'p' }, { file: 'src/studies/002/published.ts', pointer: 'p' }]), 'seeds/002_x.txt, src/studies/002/published.ts p', 'no braces across a folder boundary');
});

/** A row of the study's default setup: fixed pool of 32, c = 500, L = 1500 ms, n = 40 (DESIGN.md: 32 / 1.5 = 21.33 req/s). */
function row500(): RowForProv {
  const a = (xs: number[]) => aggregate(xs);
  return {
    variant: 'fixed', executor: { kind: 'platform-pool', threads: 32, queueCapacity: 10000 }, concurrency: 500, openLoop: false,
    boundRps: 32 / 1.5, waves: 16, wavesWholeRunRps: 20000 / (Math.ceil(20000 / 32) * 1.5), theoryQueueP95Ms: 22500, theoryQueueMeanMs: (500 / 32 - 1) * 1500, theoryE2eP95Ms: 24000, queueGrowthPerS: null,
    pctOfBound: (21.28 / (32 / 1.5)) * 100, pctOfWavesBound: null,
    means: { e2eMs: 23218.3, queueMs: 21710.7, execMs: 1503.4, overheadMs: 4.2, n: 60000 },
    little: { predictedRps: 500 / 23.2183, measuredRps: 21.28, measuredDefinition: 'whole-run', ratio: 21.28 / (500 / 23.2183) },
    wholeRunRps: a([21.28, 21.27, 21.29]), steadyRps: a([21.29]), e2eP50Ms: a([1]), e2eP95Ms: a([24061.4, 24059.4, 24065.7]), e2eP99Ms: a([1]), queueP95Ms: a([1]),
    execP95Ms: a([1]), execP99Ms: a([1]), errorCount: a([0, 0, 0]), errorRate: a([0, 0, 0]),
  };
}

test('rowProvenance: formulas with their inputs (the DESIGN.md bound 32 / 1.5 s = 21.33 req/s) and run files with JSON paths', () => {
  const p = rowProvenance(row500(), { summaryIndex: 4, cellIds: ['fixed-c500-r1', 'fixed-c500-r2', 'fixed-c500-r3'] }, { latencyMs: 1500, requestsPerWorker: 40, levels: [10, 50, 100, 200, 500], percentileDefinition: 'R type 7' });
  assert.equal(p.boundRps.formula, 'min(c, N) / L = min(500, 32) / 1.500 s = 21.33 req/s');
  assert.equal(p.waves.formula, '⌈c / N⌉ = ⌈500 / 32⌉ = 16');
  assert.equal(p.theoryQueueP95Ms.formula, '(⌈c/N⌉ − 1) × L = (16 − 1) × 1,500.0 ms = 22,500.0 ms');
  assert.equal(p.wavesWholeRunRps.formula, 'c·n / (⌈c·n / min(c, N)⌉ × L) = 20,000 / (⌈20,000 / 32⌉ × 1.500 s) = 21.33 req/s');
  assert.equal(p.e2eP95Ms.def, 'medianOfRepeatsPct');
  assert.equal(p.e2eP95Ms.formula, 'median(24,061.4 ms, 24,059.4 ms, 24,065.7 ms) = 24,061.4 ms');
  assert.deepEqual(p.e2eP95Ms.sources.map((x) => `${x.file} ${x.pointer}`), [
    'summary.json /rows/4/e2eMs/p95/median', 'cells/fixed-c500-r1.json /load/e2eMs/p95', 'cells/fixed-c500-r2.json /load/e2eMs/p95', 'cells/fixed-c500-r3.json /load/e2eMs/p95']);
  assert.equal(p.wholeRunRps.def, 'medianOfRepeats');
  assert.equal(p.littlePredictedRps.formula, 'c / mean(E2E) = 500 / 23.218 s = 21.53 req/s');
  assert.equal(p.overheadMs.formula, '23,218.3 ms − 21,710.7 ms − 1,503.4 ms = 4.200 ms');
  assert.deepEqual(p.concurrency.sources[0], { file: 'manifest.json', pointer: '/options/levels/4' });
  // a recomputed summary: the cells only
  const q = rowProvenance(row500(), { summaryIndex: null, cellIds: ['fixed-c500-r1'] }, { latencyMs: 1500, requestsPerWorker: 40, levels: [500], percentileDefinition: 'x' });
  assert.ok(!q.e2eP95Ms.sources.some((x) => x.file === 'summary.json'));
});

const prov = (formula: string): Provenance => ({ def: 'option', v: { option: 'levels' }, formula, sources: [{ file: 'manifest.json', pointer: '/options/levels/0' }] });

test('ProvBook: one entry per (text, provenance) in first-use order; no reference for a value without a digit; the Markdown appendix by section, the text without references', async () => {
  const b = new ProvBook();
  assert.equal(b.md('10', prov('a')).md, '10[^n1]');
  assert.equal(b.md('20', prov('b')).md, '20[^n2]');
  assert.equal(b.md('10', prov('a')).md, '10[^n1]', 'the same value shares its entry');
  assert.equal(b.md('—', prov('a')).md, '—', 'not computable: no reference');
  assert.equal(b.md('1 | 2', prov('a')).md, '1 \\| 2[^n3]', 'the text is escaped');
  // the appendix groups the entries by the section of their first use; an entry no section references is in no report
  b.md('30', prov('c'));
  const body = `# T\n\n## One\n\nAt 10[^n1] and 20[^n2].\n\n\`\`\`sh\n# run 20[^n2]\n\`\`\`\n\n## Two \\[^n9\\]\n\n| a |\n| --- |\n| 1 \\| 2[^n3] |\n| 10[^n1] |\n`;
  const sections = provSections(body, b.entries);
  assert.deepEqual(sections.map((x) => [x.title, x.entries.map((e) => e.id)]), [['One', [1, 2]], ['Two [^n9]', [3]]]);
  assert.equal(stripProvRefs(body).includes('[^n'), true, 'an escaped bracket stays');
  assert.equal(/(?<!\\)\[\^n\d+\]/.test(stripProvRefs(body)), false, 'no reference left');
  assert.match(stripProvRefs(body), /At 10 and 20\./);
  const md = provMarkdown(sections, (await loadTemplates('en')).phrases);
  assert.match(md, /^## How each number was computed/);
  assert.match(md, /\n### One\n\n- \*\*10\*\* — the run's recorded option levels\. formula: `a`\. source: `manifest\.json` `\/options\/levels\/0`\n- \*\*20\*\*/);
  assert.match(md, /\n### Two \\\[\^n9\\\]\n\n- \*\*1 \\\| 2\*\*/);
  assert.ok(!md.includes('**30**'), 'an unreferenced entry is left out');
  assert.ok(!/^\[\^n\d+\]:/m.test(md), 'no footnote definitions');
});

test('renderHtml: a reference wraps its value in a link with the escaped provenance; other brackets stay text; the appendix row exists', async () => {
  const b = new ProvBook();
  const v = b.md('6.61 req/s', prov('<b onmouseover="x">&</b>'));
  const md = `| a | b |\n| --- | --- |\n| x | ${v.md} |\n\nAt ${v.md} and \\[^n1] and [^n9].\n`;
  const { phrases } = await loadTemplates('en');
  const html = renderHtml(md, new Map(), { lang: 'en', title: 't' }, { entries: b.entries, phrases, runId: 'r1', upgradedFrom: null });
  const link = /<a class="pv" href="#pv-1" aria-describedby="pv-1" data-pv="([^"]*)">6\.61 req\/s<\/a>/g;
  assert.equal([...html.matchAll(link)].length, 2, 'in the table and in the text');
  assert.ok(!html.includes('<b onmouseover'), 'the provenance is escaped');
  assert.match(html, /data-pv="6\.61 req\/s — the run&#39;s recorded option levels&#10;formula: &lt;b onmouseover=&quot;x&quot;&gt;&amp;&lt;\/b&gt;"/, 'the hover text: definition and formula (the sources are in the appendix row)');
  assert.match(html, /<tr id="pv-1">.*<code>manifest\.json \/options\/levels\/0<\/code>/);
  assert.match(html, /and \[\^n1\] and \[\^n9\]\./, 'an escaped bracket and an unknown label stay text');
  assert.match(html, /<tr id="pv-1"><td>1<\/td><td>6\.61 req\/s<\/td>/);
  assert.equal((html.match(/<script/g) ?? []).length, 0);
});

test('data appendix: CSV quoting (RFC 4180), a fence no content can close, the reproduce command of a recorded run', () => {
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "x"'), '"say ""x"""');
  assert.equal(csvField(null), '');
  assert.equal(csvField(21.276006127702527), '21.276006127702527');
  assert.equal(csv(['a', 'b'], [[1, null]]), 'a,b\n1,\n');
  assert.equal(fenced('csv', 'x```y\n'), '````csv\nx```y\n````');
  const study = getStudy('000');
  const options = { ...resolveOptions(study, 'quick', {}, { openFiles: 1e9, ephemeralPorts: 1e9, heapLimitBytes: 1e12 }) };
  assert.equal(reproduceCommand({ study, manifest: { options } as unknown as RunManifest }).command, 'npx zx run.mjs --study 000 --profile quick');
  const changed = { ...options, levels: [10, 20], latencyMs: 100 };
  assert.deepEqual(reproduceCommand({ study, manifest: { options: changed } as unknown as RunManifest }), { command: 'npx zx run.mjs --study 000 --profile quick --levels 10,20 --latency-ms 100', exact: true });
  assert.equal(reproduceCommand({ study, manifest: { options: { ...options, profile: 'gone' } } as unknown as RunManifest }).exact, false);
});

test('boundsChart: every bound drawn, the smallest at each level highlighted (the binding one may change), measured on top', async () => {
  const spec = boundsChart('bounds', [
    { level: 10, measuredRps: 6.6, bounds: [{ name: 'executor', rps: 6.67 }, { name: 'CPU', rps: 50 }] },
    { level: 500, measuredRps: 40, bounds: [{ name: 'executor', rps: 333.33 }, { name: 'CPU', rps: 50 }] },
  ], { title: 'Throughput against every bound', level: 'c', rps: 'req/s', measured: 'measured', smallest: 'smallest bound', series: 'series', droppedLog: '{{n}} left out' });
  const values = (spec.spec as unknown as { data: { values: { kind: string; level: number; rps: number; binding?: string }[] } }).data.values;
  assert.deepEqual(values.filter((v) => v.kind === 'smallest').map((v) => [v.level, v.rps, v.binding]), [[10, 6.67, 'executor'], [500, 50, 'CPU']]);
  assert.equal(values.filter((v) => v.kind === 'bound').length, 4);
  const svg = await renderSvg(spec.spec);
  assert.match(svg, /^<svg/);
  assert.match(svg, /smallest bound/);
});

test('pLabel: percentile names of the spectrum axis', () => {
  assert.deepEqual([0.5, 0.9, 0.99, 0.999, 0.9999].map(pLabel), ['P50', 'P90', 'P99', 'P99.9', 'P99.99']);
});
