/**
 * The answer block (issue 31; src/report/answer.ts, answer-text.ts, sections/answer.ts): on the
 * committed seed-000 run loaded with the real loader (the 500-worker row: virtual ÷ fixed ≈ 15.44,
 * the fixed pool limited by its executor, 32 of 32 threads busy), and on copies of its rows changed
 * in memory so that each honesty rule flips: a bound exceeded by more than 2 %, repeats that
 * disagree by more than 10 %, host flags, a pool that is not full, a saturated SUT CPU; the verdict's
 * 5 % band; the words in both languages; the HTML ids the browser test looks for.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadRun, loadTemplates } from '../fixtures/registered.ts';
import { buildModel } from '../../src/report/model.ts';
import type { ReportModel, RowModel } from '../../src/report/types.ts';
import type { Agg, CellFlag } from '../../src/types/run.ts';
import { genericAnswer, limitOf, verdictOf } from '../../src/report/answer.ts';
import type { AnswerRow } from '../../src/report/answer-types.ts';
import { answerLine, answerText } from '../../src/report/answer-text.ts';
import { answerPhrases } from '../../src/report/sections/answer.ts';
import { renderHtml } from '../../src/report/render-html.ts';
import { getStudy } from '../../src/studies/index.ts';

const SEED_000 = fileURLToPath(new URL('../../runs/20261130-100102-seed-000', import.meta.url));
let cached: ReportModel | null = null;
/** the committed seed-000 run's model (loaded once) */
async function seed(): Promise<ReportModel> {
  cached ??= buildModel(await loadRun(SEED_000));
  return cached;
}
const rowAt = (m: ReportModel, v: string, c: number): RowModel => m.rows.find((r) => r.variant === v && r.concurrency === c) as RowModel;
/** an Agg of these repeat values (median, min, max as the report's aggregate computes them) */
function aggOf(values: number[]): Agg {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  return { median: mid, min: s[0]!, max: s[s.length - 1]!, n: s.length, values };
}
/** a copy of `r` with its whole-run throughput set to `value` (one repeat) or to the given repeats */
const withRps = (r: RowModel, v: number | number[]): RowModel => ({ ...r, wholeRunRps: aggOf(Array.isArray(v) ? v : [v]), steadyRps: aggOf(Array.isArray(v) ? v : [v]), pctOfBound: null });
const withActive = (r: RowModel, active: number, queue: number): RowModel => ({ ...r, resources: { ...r.resources, peakExecutorActive: aggOf([active]), peakQueue: aggOf([queue]) } });

test('seed-000: the 500-worker row has virtual ÷ fixed = 15.44, the fixed pool limited by its executor (32 of 32, measured), virtual threads by the offered load', async () => {
  const m = await seed();
  const a = m.answer;
  assert.deepEqual(a.rows.map((r) => r.level), [50, 500], 'the lowest level with the pool full (c > 32), then the highest');
  const top = a.rows[1]!;
  const [fx, vt] = top.arms;
  assert.equal(fx?.variant, 'fixed');
  assert.equal(vt?.variant, 'virtual');
  assert.equal(top.ratio, (vt?.value as number) / (fx?.value as number));
  assert.ok(Math.abs((top.ratio as number) - 15.44) < 0.005, String(top.ratio));
  assert.deepEqual(fx?.limitedBy, { kind: 'executor', cap: 32, used: 32, unit: 'threads', source: 'measured' });
  assert.equal(vt?.limitedBy.kind, 'offered-load');
  assert.equal(vt?.limitedBy.cap, 500);
  assert.equal(fx?.bound, rowAt(m, 'fixed', 500).boundRps);
  assert.equal(a.verdict, 'faster');
  assert.deepEqual(top.ratioRepeats, [], 'the repeats agree within 10 %');
  assert.deepEqual({ cells: a.trust.cells, planned: a.trust.plannedCells, repeats: a.trust.repeats, gaps: a.trust.gaps }, { cells: 30, planned: 30, repeats: 3, gaps: 0 });
  assert.deepEqual(a.trust.flagsByKind, { 'loadgen-lag': 5 });
  assert.equal(a.trust.hostLimited, 5, 'five cells carry a loadgen-lag flag');
  assert.equal(a.chart, 'throughput');
});

test('a bound exceeded by more than 2 % is never what limited the arm: unknown, note bound-exceeded; within 2 % it still is', async () => {
  const m = await seed();
  const fx = rowAt(m, 'fixed', 500);
  assert.deepEqual(limitOf(m, withRps(fx, fx.boundRps * 1.03)), { kind: 'unknown', cap: null, used: null, unit: '', source: 'measured', note: 'bound-exceeded' });
  assert.equal(limitOf(m, withRps(fx, fx.boundRps * 1.019)).kind, 'executor');
  const vt = rowAt(m, 'virtual', 500);
  assert.equal(limitOf(m, withRps(vt, vt.boundRps * 1.05)).note, 'bound-exceeded');
  assert.equal(limitOf(m, withRps(vt, vt.boundRps * 0.99)).kind, 'offered-load');
});

test('a pool that is not full (active below N, or no queue) is not limited by its executor', async () => {
  const m = await seed();
  const fx = rowAt(m, 'fixed', 500);
  assert.equal(limitOf(m, withActive(fx, 32, 400)).kind, 'executor');
  assert.equal(limitOf(m, withActive(fx, 20, 400)).kind, 'host', 'two of its cells carry loadgen-lag flags');
  const notFull = limitOf({ ...m, flags: [] }, withActive(fx, 20, 400));
  assert.equal(notFull.kind, 'unknown');
  assert.equal(notFull.note, 'pool-not-full');
  assert.notEqual(limitOf(m, withActive(fx, 32, 0)).kind, 'executor', 'no queue: the pool was not the limit');
  // c ≤ N: the pool cannot be full; the arm at its bound is limited by the offered load
  assert.notEqual(limitOf(m, rowAt(m, 'fixed', 10)).kind, 'executor');
});

test('host flags and scheduler delay name the host for an arm below its bound; without them the arm is not determined', async () => {
  const m = await seed();
  const vt = withRps(rowAt(m, 'virtual', 500), 200); // 60 % of c/L
  assert.equal(limitOf(m, vt).kind, 'unknown');
  const cellId = m.cells.find((x) => x.variant === 'virtual' && x.concurrency === 500)!.cellId;
  const flag: CellFlag = { code: 'host-cpu', message: 'host CPU', value: 0.99, threshold: 0.9 };
  const flagged = { ...m, flags: [...m.flags, { cellId, flag }] };
  assert.deepEqual(limitOf(flagged, vt), { kind: 'host', cap: 3, used: 1, unit: 'cells', source: 'measured', note: 'host-flags' });
  const delayed = { ...m, saturation: { ...m.saturation, schedulerDelay: [{ cellId, concurrency: 500, queueP95Ms: 50 }] } };
  assert.equal(limitOf(delayed, vt).kind, 'host');
  // the trust line counts it
  assert.equal(genericAnswer(flagged).trust.hostLimited, m.answer.trust.hostLimited + 1);
  assert.equal(genericAnswer(flagged).trust.flagsByKind['host-cpu'], 1);
  // other processes' CPU during the cell (issue 33's host-other-cpu) is the host too
  const other: CellFlag = { code: 'host-other-cpu', message: 'other processes', value: 0.3, threshold: 0.1 };
  assert.equal(genericAnswer({ ...m, flags: [...m.flags, { cellId, flag: other }] }).trust.hostLimited, m.answer.trust.hostLimited + 1);
  // a host flag does not hide a pool the sampler shows full
  const fxCell = m.cells.find((x) => x.variant === 'fixed' && x.concurrency === 500)!.cellId;
  assert.equal(limitOf({ ...m, flags: [...m.flags, { cellId: fxCell, flag }] }, rowAt(m, 'fixed', 500)).kind, 'executor');
});

test('a saturated SUT CPU names the CPU for an arm below its bound, with its peak in %', async () => {
  const m = await seed();
  const vt = withRps(rowAt(m, 'virtual', 500), 200);
  const cellId = m.cells.find((x) => x.variant === 'virtual' && x.concurrency === 500)!.cellId;
  const hot = { ...m, saturation: { ...m.saturation, sutCpu: [{ cellId, variant: 'virtual', concurrency: 500, peakCpu: 0.97, samplesAbove: 30, share: 0.5 }] } };
  const l = limitOf(hot, vt);
  assert.equal(l.kind, 'cpu');
  assert.ok(Math.abs((l.used as number) - 97) < 1e-9);
});

test('repeats that disagree by more than 10 % are listed, with the ratio per repeat; within 10 % they are not', async () => {
  const m = await seed();
  const pair = m.pairs[0]!;
  const hi = pair.highest!;
  const vals = (cand: number[]) => {
    const lc = { ...hi, candidate: withRps(hi.candidate, cand), baseline: withRps(hi.baseline, [20, 20, 20]) };
    return genericAnswer({ ...m, pairs: [{ ...pair, levels: [lc], highest: lc }] }).rows.at(-1)!;
  };
  const split = vals([300, 240, 330]);
  assert.deepEqual(split.arms[1]?.repeats, [300, 240, 330]);
  assert.deepEqual(split.arms[0]?.repeats, []);
  assert.deepEqual(split.ratioRepeats, [15, 12, 16.5]);
  const near = vals([300, 290, 310]);
  assert.deepEqual(near.arms[1]?.repeats, []);
  assert.deepEqual(near.ratioRepeats, []);
  // the words list each repeat
  const p = answerPhrases(m, (await loadTemplates('en', getStudy('000'))).phrases);
  const text = answerText({ ...m.answer, rows: [split] }, p);
  assert.match(text, /300\.00 req\/s, 240\.00 req\/s, 330\.00 req\/s/);
  assert.match(text, /15\.00×, 12\.00×, 16\.50×/);
});

test('verdict: faster / slower / same / mixed / none with a 5 % band', () => {
  const rows = (...ratios: (number | null)[]): AnswerRow[] => ratios.map((ratio, i) => ({ scenario: null, level: i + 1, levelUnit: 'workers', arms: [], ratio, ratioRepeats: [] }));
  assert.equal(verdictOf(rows(1.5, 2)).verdict, 'faster');
  assert.equal(verdictOf(rows(1.05)).verdict, 'same');
  assert.equal(verdictOf(rows(1.051)).verdict, 'faster');
  assert.equal(verdictOf(rows(0.5, 0.9)).verdict, 'slower');
  assert.equal(verdictOf(rows(1.02, 0.97)).verdict, 'same');
  assert.equal(verdictOf(rows(1.5, 0.5)).verdict, 'depends');
  assert.equal(verdictOf(rows(1.5, 1.0)).verdict, 'depends');
  assert.deepEqual(verdictOf(rows(null)), { verdict: 'none', ratioRange: null });
  assert.deepEqual(verdictOf(rows(2, null, 3)).ratioRange, [2, 3]);
});

test('the words: lead line with ratio and P95s, aligned plain text without Markdown pipes, Chinese in a Chinese report', async () => {
  const m = await seed();
  const study = getStudy('000');
  const en = answerPhrases(m, (await loadTemplates('en', study)).phrases);
  assert.equal(answerLine(m.answer, en), 'Virtual threads: 15.44× the throughput of Fixed pool at 500 workers; E2E P95 24,061.4 ms → 1,547.3 ms.');
  const text = answerText(m.answer, en);
  assert.ok(text.startsWith(answerLine(m.answer, en)));
  assert.ok(!text.includes('|'), text);
  assert.match(text, /executor pool: 32 of 32 threads busy \(measured\)/);
  assert.match(text, /^Trust: 30 of 30 planned cells measured, 3 repeats/m);
  const zh = answerPhrases(m, (await loadTemplates('zh', study)).phrases);
  const zt = answerText(m.answer, zh);
  assert.match(answerLine(m.answer, zh), /在 500 并发时吞吐量是 固定线程池 的 15\.44×/);
  assert.match(zt, /执行器线程池：32\/32 线程忙（实测）/);
  assert.match(zt, /^可信度：/m);
});

test('HTML: the answer block is a section id="answer", the headline chart a figure id="headline-chart"; a run string cannot open one', () => {
  const md = '# t\n\n<!-- answer -->\n\n## Answer\n\n**lead**\n\n<!-- /answer -->\n\n![Throughput](figures/throughput.svg#headline)\n\n![Throughput](figures/throughput.svg)\n';
  const html = renderHtml(md, new Map([['throughput', '<svg></svg>']]), { lang: 'en', title: 't' });
  assert.match(html, /<section id="answer" class="answer">\n<h2>Answer<\/h2>\n<p><strong>lead<\/strong><\/p>\n<\/section>/);
  assert.equal(html.match(/id="headline-chart"/g)?.length, 1, 'only the #headline image');
  assert.match(html, /<figure class="chart" id="headline-chart" data-figure="throughput"/);
  const none = renderHtml('# t\n\ntext\n', new Map(), { lang: 'en', title: 't' });
  assert.ok(!none.includes('id="answer"'));
});

test('an in-process run (one timed job per cell): the generic block has no throughput rows and no headline chart, its lead says why', async () => {
  const m = buildModel(await loadRun(fileURLToPath(new URL('../../runs/20261201-054821-004-seed-004', import.meta.url))));
  assert.ok(m.pairs.length > 0, 'the run has a comparison, whose job request rate is not a throughput');
  const g = genericAnswer(m);
  assert.deepEqual([g.rows, g.chart, g.verdict, g.studyLine?.key], [[], null, 'none', 'lead.inProcess']);
  const p = answerPhrases(m, (await loadTemplates('en', m.study)).phrases);
  assert.match(answerLine(g, p), /^Each cell of this run is one timed job inside the SUT/);
  // the closed-loop seed run is not one
  assert.ok((await seed()).answer.rows.length > 0);
});

test('an open-loop arm states its E2E P95/P99 from the intended send (no coordinated omission), not from the actual send', async () => {
  const run = await loadRun(fileURLToPath(new URL('../../runs/20261201-050041-000-open-loop-quick', import.meta.url)));
  const m = buildModel(run);
  const row = m.answer.rows.find((r) => r.level === 50)!;
  const fixed = row.arms.find((a) => a.variant === 'fixed')!;
  const cells = m.cells.filter((c) => c.variant === 'fixed' && c.concurrency === 50);
  assert.equal(cells.length, 1);
  const intended = cells[0]!.load.openLoop!.e2eFromIntendedMs!;
  assert.equal(fixed.p95Ms, intended.p95);
  assert.equal(fixed.p99Ms, intended.p99);
  // the two differ in this run (late sends): the answer must not take the actual-send figure
  assert.notEqual(intended.p95, cells[0]!.load.e2eMs!.p95);
});

test('an arm whose steady-state rate reached c/L is limited by the offered load even when its whole-run rate (ramp included) is below 95 %', async () => {
  const m = await seed();
  const vt = rowAt(m, 'virtual', 500);
  const bound = vt.boundRps;
  const ramped = { ...withRps(vt, bound * 0.886), steadyRps: aggOf([bound * 0.995]) };
  assert.equal(limitOf(m, ramped).kind, 'offered-load');
  // the same whole-run rate without a steady-state rate at the bound: not determined
  assert.equal(limitOf(m, { ...ramped, steadyRps: aggOf([bound * 0.9]) }).kind, 'unknown');
});
