/**
 * The evidence below the answer (issue 31 item 2): flags grouped by kind with their count and worst
 * value, the per-cell flags as an appendix, the provenance appendix by section (collapsed in the
 * HTML), the data appendix's columns per driver, and only the figures a report embeds.
 */
import { loadTemplates } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CellFlag, CellResult } from '../../src/types/run.ts';
import { flagSeverity, groupFlags } from '../../src/report/sections/flags.ts';
import { byDriverLevel, cellsCsv, rowsCsv } from '../../src/report/data-appendix.ts';
import { ProvBook, provSections, type Provenance } from '../../src/report/provenance.ts';
import { provHtml } from '../../src/report/render-html.ts';
import { figuresShown } from '../../src/report/index.ts';
import { compactSvg } from '../../src/report/charts.ts';
import { getStudy } from '../../src/studies/index.ts';
import { pointsPerVariant, type ReportModel } from '../../src/report/model.ts';

const flag = (code: CellFlag['code'], value: number, threshold: number): CellFlag => ({ code, message: `${code} ${value}`, value, threshold });

test('flagSeverity: how far past the threshold, the direction set by the code', () => {
  assert.equal(flagSeverity(flag('loadgen-lag', 100, 50)), 2);
  assert.equal(flagSeverity(flag('concurrency-below-target', 250, 500)), 2, 'fewer in flight is worse');
  assert.equal(flagSeverity(flag('concurrency-below-target', 0, 500)), Infinity);
  assert.equal(flagSeverity(flag('component-disagrees', 50, 100)), 2, 'a mismatch either way');
  assert.equal(flagSeverity(flag('component-disagrees', 200, 100)), 2);
});

test('groupFlags: one group per code in first-appearance order, its count, its distinct cells and its worst flag', () => {
  const g = groupFlags([
    { cellId: 'a-c1-r1', flag: flag('loadgen-lag', 60, 50) },
    { cellId: 'a-c2-r1', flag: flag('host-cpu', 96, 95) },
    { cellId: 'a-c2-r1', flag: flag('loadgen-lag', 900, 20) },
    { cellId: 'a-c2-r1', flag: flag('loadgen-lag', 70, 50) },
    { cellId: 'b-c1-r1', flag: flag('concurrency-below-target', 400, 500) },
    { cellId: 'b-c2-r1', flag: flag('concurrency-below-target', 100, 500) },
  ]);
  assert.deepEqual(g.map((x) => [x.code, x.count, x.cells, x.worst.cellId, x.worst.flag.value]), [
    ['loadgen-lag', 3, 2, 'a-c2-r1', 900],
    ['host-cpu', 1, 1, 'a-c2-r1', 96],
    ['concurrency-below-target', 2, 2, 'b-c2-r1', 100],
  ]);
  assert.deepEqual(groupFlags([]), []);
});

const cell = (cellId: string, scenario: string, count: number): CellResult => ({
  cellId, variant: cellId.split('-c')[0], concurrency: 10, repeat: 1, scenario, flags: [], pinned: { total: 0 },
  load: { count, ok: count, wholeRunThroughputRps: 0.05, steadyStateThroughputRps: null, e2eMs: { mean: 20000, p50: 20000, p95: 20000, p99: 20000, max: 20000 }, queueMs: null, execMs: null },
}) as unknown as CellResult;

test('data appendix: the columns that mean something for the driver (a job has no request rate or bound; a WebSocket cell counts handshakes)', () => {
  const job = cellsCsv([cell('virtual-c10-r1', 'sleep-sweep', 1)], 'job');
  assert.equal(job.split('\n')[0], 'cell,variant,level,repeat,ok,job_ms,pinned_events,file');
  assert.equal(job.split('\n')[1], 'virtual-c10-r1,virtual,10,1,1,20000,0,cells/virtual-c10-r1.json');
  const ws = cellsCsv([cell('ws-vt-c10-r1', 'ws-push', 10)], 'connections').split('\n')[0] as string;
  assert.equal(ws, 'cell,variant,level,repeat,handshakes,handshakes_ok,handshake_mean_ms,handshake_p50_ms,handshake_p95_ms,handshake_p99_ms,handshake_max_ms,pinned_events,file');
  const http = cellsCsv([cell('io-c10-r1', 'io-100ms', 10)], 'workers').split('\n')[0] as string;
  assert.match(http, /,whole_run_rps,steady_state_rps,.*,queue_mean_ms,/, 'HTTP cells keep every column');
  const row = { variant: 'virtual', concurrency: 10, repeats: 2, boundRps: 10, wholeRunRps: { median: 0.05 }, steadyRps: { median: null }, e2eP50Ms: { median: 20000 }, e2eP95Ms: { median: 20000 }, e2eP99Ms: { median: 20000 },
    queueP95Ms: { median: null }, execP95Ms: { median: null }, errorCount: { median: 0 }, means: null, source: { summaryIndex: 0, cellIds: ['virtual-c10-r1'] } } as unknown as ReportModel['rows'][number];
  assert.equal(rowsCsv({ rows: [row] }, 'job'), 'variant,level,repeats,job_ms_median,errors_median,summary_row\nvirtual,10,2,20000,0,/rows/0\n');
  assert.match(rowsCsv({ rows: [row] }).split('\n')[0] as string, /^variant,level,repeats,bound_rps,/, 'no driver: every column');
  // a run of 002 holds HTTP and WebSocket cells: one group each, rows with their cells
  const groups = byDriverLevel({ study: getStudy('002'), cells: [cell('io-c10-r1', 'io-100ms', 10), cell('ws-vt-c10-r1', 'ws-push', 10)],
    rows: [{ ...row, source: { summaryIndex: 1, cellIds: ['ws-vt-c10-r1'] } }, { ...row, source: { summaryIndex: 0, cellIds: ['io-c10-r1'] } }] as ReportModel['rows'] });
  assert.deepEqual(groups.map((g) => [g.level, g.cells.map((c) => c.cellId), g.rows.map((r) => r.source.summaryIndex)]), [['workers', ['io-c10-r1'], [0]], ['connections', ['ws-vt-c10-r1'], [1]]]);
});

test('provenance appendix in the HTML: one collapsed block per section, each row the anchor its values link to', async () => {
  const { phrases } = await loadTemplates('en');
  const b = new ProvBook();
  const p: Provenance = { def: 'option', v: { option: 'levels' }, formula: null, sources: [{ file: 'manifest.json', pointer: '/options/levels/0' }] };
  const body = `# T\n\n## A\n\n${b.md('10', p).md} and ${b.md('20', { ...p, formula: 'x' }).md}\n\n## B\n\n${b.md('30', { ...p, formula: 'y' }).md} ${b.md('10', p).md}\n`;
  const html = provHtml({ entries: b.entries, phrases, runId: 'r', upgradedFrom: null, sections: provSections(body, b.entries) });
  const blocks = [...html.matchAll(/<details class="prov" id="pv-s\d+">\n<summary>([^<]*)<\/summary>[\s\S]*?<\/details>/g)];
  assert.deepEqual(blocks.map((m) => m[1]), ['A — 2 number(s)', 'B — 1 number(s)']);
  assert.match(blocks[0]?.[0] ?? '', /<tr id="pv-1">[\s\S]*<tr id="pv-2">/);
  assert.match(blocks[1]?.[0] ?? '', /<tr id="pv-3">/);
  assert.doesNotMatch(blocks[1]?.[0] ?? '', /<tr id="pv-1">/, 'an entry is listed once, in the section of its first use');
});

test('figuresShown: the figures a report embeds; compactSvg rounds coordinates inside tags only', () => {
  assert.deepEqual([...figuresShown('![a](figures/throughput.svg)\n\n![b \\[x\\]](figures/p99-002.svg) figures/timeseries.svg')], ['throughput', 'p99-002']);
  // the answer's headline chart carries a fragment (#headline): it is embedded too (004's only chart)
  assert.deepEqual([...figuresShown('![h](figures/http-004.svg#headline)')], ['http-004']);
  assert.equal(compactSvg('<path transform="translate(88.35750000000002,-0.0012)" d="M1.5,2h3"/><text x="1.23456">3.14159</text>'),
    '<path transform="translate(88.36,0)" d="M1.5,2h3"/><text x="1.23">3.14159</text>');
});

test('pointsPerVariant: the cap for a few variants, an even share of the chart total for many, never below 20', () => {
  assert.equal(pointsPerVariant(240, 2), 240);
  assert.equal(pointsPerVariant(240, 5), 160);
  assert.equal(pointsPerVariant(300, 7), 114, 'floor(800 / 7) = 114');
  assert.equal(pointsPerVariant(300, 6), 132, 'floor(800 / 6) = 133, made even');
  assert.equal(pointsPerVariant(240, 100), 20);
});
