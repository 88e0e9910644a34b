/**
 * Study 004's answer block and headline charts (src/studies/004/answer.ts, issue 31 items 1 and 3)
 * on the committed runs 20261201-054821-004-seed-004 (the @Async burst) and
 * 20261201-053137-004-seed-004-http (Tomcat), read with the real loader and model: the makespan
 * against ⌈T/N⌉ × S with platform ÷ virtual; the platform arm at 1,801.73 req/s, 111 % of its CPU
 * bound 1,621.06, is not said to be limited by the CPU; and the rules flipping.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadRun, loadTemplates } from '../fixtures/registered.ts';
import { buildModel } from '../../src/report/model.ts';
import type { ReportModel } from '../../src/report/model.ts';
import type { AnswerBlock } from '../../src/report/answer-types.ts';
import { STUDY_004 } from '../../src/studies/004/index.ts';
import { answer004, charts004, cpuEvidence004, limitAsync004, limitHttp004, HTTP_CHART_004, MAKESPAN_CHART_004 } from '../../src/studies/004/answer.ts';
import type { Derived004 } from '../../src/studies/004/report.ts';
import { renderSvg } from '../../src/report/charts.ts';
import type { ChartLabels } from '../../src/report/types.ts';

const ASYNC_RUN = fileURLToPath(new URL('../../runs/20261201-054821-004-seed-004/', import.meta.url));
const HTTP_RUN = fileURLToPath(new URL('../../runs/20261201-053137-004-seed-004-http/', import.meta.url));
/** a stand-in for the engine's generic block (src/report/answer.ts) */
const GENERIC: AnswerBlock = { verdict: 'none', ratioRange: null, rows: [], trust: { cells: 6, plannedCells: 6, hostLimited: 3, flagsByKind: { 'host-cpu': 3 }, gaps: 0, repeats: 3 }, chart: null };
const LABELS = { mode: 'variant', rps: 'req/s', bound: 'bound' } as ChartLabels;

let jobs: ReportModel<Derived004>;
let http: ReportModel<Derived004>;
before(async () => {
  jobs = buildModel(await loadRun(ASYNC_RUN)) as ReportModel<Derived004>;
  http = buildModel(await loadRun(HTTP_RUN)) as ReportModel<Derived004>;
});

describe('study 004 answer on the committed runs', () => {
  test('registered: the answer and the charts', () => {
    assert.equal(STUDY_004.report?.answer, answer004);
    assert.equal(STUDY_004.report?.charts, charts004);
  });

  test('the @Async burst: makespan against ⌈T/N⌉ × S, platform ÷ virtual, each repeat\'s ratio (they disagree)', () => {
    const b = answer004(jobs, GENERIC);
    assert.deepEqual(b.trust, GENERIC.trust);
    assert.equal(b.chart, MAKESPAN_CHART_004);
    assert.equal(b.rows.length, 1);
    const r = b.rows[0]!;
    assert.deepEqual([r.scenario, r.level, r.levelUnit], ['async-burst', 100_000, 'tasks']);
    const [pl, vt] = r.arms;
    assert.deepEqual([pl!.variant, pl!.metric, pl!.unit, pl!.bound, Math.round(pl!.value!)], ['platform', 'makespan', 'ms', 625_000, 629_176]);
    // ⌈100,000 / 8⌉ × 50 ms = 625 s; the pool's 8 threads busy with 99,968 tasks queued
    assert.ok(Math.abs(pl!.pctOfBound! - (625_000 / 629_176.400308) * 100) < 1e-6);
    assert.deepEqual(pl!.limitedBy, { kind: 'executor', cap: 8, used: 8, unit: 'threads', source: 'measured' });
    assert.deepEqual(pl!.repeats, [], '628–632 s: within 10 %');
    // one virtual thread per task: theory S = 50 ms; measured 2.2–3.9 s with the SUT's CPU saturated
    assert.equal(vt!.bound, 50);
    assert.deepEqual(vt!.repeats.map((x) => Math.round(x!)), [3947, 2573, 2170]);
    assert.deepEqual([vt!.limitedBy.kind, vt!.limitedBy.cap], ['cpu', 2]);
    assert.ok(Math.abs(r.ratio! - 629_176.400308 / 2573.158895) < 1e-9, `${r.ratio}`);
    assert.deepEqual(r.ratioRepeats.map((x) => Math.round(x!)), [159, 245, 291]);
    assert.equal(b.verdict, 'faster');
  });

  test('Tomcat: the platform arm above its CPU bound is not limited by the CPU; virtual threads by the host', () => {
    const b = answer004(http, GENERIC);
    assert.equal(b.chart, HTTP_CHART_004);
    const r = b.rows[0]!;
    assert.deepEqual([r.scenario, r.level, r.levelUnit], ['servlet-sleep', 500, 'clients']);
    const [pl, vt] = r.arms;
    assert.equal(pl!.value!.toFixed(2), '1801.73');
    assert.equal(pl!.bound!.toFixed(2), '1621.06');
    assert.equal(pl!.pctOfBound!.toFixed(0), '111');
    assert.deepEqual(pl!.limitedBy, { kind: 'unknown', cap: null, used: null, unit: '', source: 'measured', note: 'bound-exceeded' });
    assert.ok(pl!.p95Ms! > 150 && pl!.p99Ms! > pl!.p95Ms!);
    // virtual: 2,661.64 req/s, 93 % of its CPU bound 2,848.37; the SUT's CPU not saturated, the host's flagged
    assert.equal(vt!.limitedBy.kind, 'host');
    assert.deepEqual(vt!.repeats.map((x) => Math.round(x!)), [3308, 2662, 2177]);
    assert.ok(Math.abs(r.ratio! - 2661.6426656636945 / 1801.7322899961448) < 1e-9);
    assert.equal(r.ratioRepeats.length, 3);
  });
});

describe('study 004 limit rules flip', () => {
  test('below its CPU bound the platform arm is limited by the host (the SUT not saturated) or the CPU (saturated)', () => {
    const r = http.derived.http.find((x) => x.variant === 'platform')!;
    const e = cpuEvidence004(http, 'platform', 'servlet-sleep');
    assert.deepEqual([e.sutCpuSaturated, e.flags.includes('host-cpu')], [false, true]);
    assert.equal(limitHttp004(r, 200, e).note, 'bound-exceeded');
    const below = { ...r, throughputRps: { ...r.throughputRps, median: 1600 } };
    assert.equal(limitHttp004(below, 200, e).kind, 'host');
    assert.equal(limitHttp004(below, 200, { ...e, sutCpuSaturated: true, sutPeakCores: 2 }).kind, 'cpu');
    // a virtual arm at 95 % of c / L, below its CPU bound: the clients themselves
    assert.equal(limitHttp004({ ...r, cpuBoundRps: 20_000, threadBoundRps: 10_000, throughputRps: { ...r.throughputRps, median: 9600 } }, null, e).kind, 'offered-load');
  });

  test('a pool not full is not the executor; a makespan below theory exceeded its bound', () => {
    const r = jobs.derived.async.find((x) => x.variant === 'platform')!;
    const e = cpuEvidence004(jobs, 'platform', 'async-burst');
    assert.equal(limitAsync004(r, 8, e).kind, 'executor');
    assert.notEqual(limitAsync004({ ...r, peakPoolThreads: { ...r.peakPoolThreads, median: 7 } }, 8, e).kind, 'executor');
    assert.notEqual(limitAsync004({ ...r, peakQueue: { ...r.peakQueue, median: 0 } }, 8, e).kind, 'executor');
    assert.equal(limitAsync004({ ...r, makespanMs: { ...r.makespanMs, median: 600_000 } }, 8, e).note, 'bound-exceeded');
    const v = jobs.derived.async.find((x) => x.variant === 'virtual')!;
    const ev = cpuEvidence004(jobs, 'virtual', 'async-burst');
    assert.equal(limitAsync004(v, null, ev).kind, 'cpu');
    assert.equal(limitAsync004({ ...v, makespanMs: { ...v.makespanMs, median: 51 } }, null, ev).kind, 'offered-load');
    assert.equal(limitAsync004(v, null, { ...ev, sutCpuSaturated: false, flags: [] }).note, 'no-cap-saturated');
  });
});

test('the headline charts: makespan bars with ⌈T/N⌉ × S; throughput bars with both bounds; both render', async () => {
  const t = await loadTemplates('en', STUDY_004);
  const [mk] = charts004(jobs, LABELS, t.phrases);
  assert.equal(mk!.name, MAKESPAN_CHART_004);
  const layers = (mk!.spec as unknown as { layer: { data: { values: { variant: string; s: number }[] } }[] }).layer;
  assert.deepEqual(layers[0]!.data.values.map((v) => [v.variant, Math.round(v.s)]), [['platform', 629], ['virtual', 3]]);
  assert.deepEqual(layers[2]!.data.values.map((v) => [v.variant, v.s]), [['platform', 625], ['virtual', 0.05]]);
  const svg = await renderSvg(mk!.spec);
  assert.match(svg, />0\.01</, 'the log axis has its labels (a bar from 0 would empty it)');
  const [hc] = charts004(http, LABELS, t.phrases);
  assert.equal(hc!.name, HTTP_CHART_004);
  const ticks = (hc!.spec as unknown as { layer: { data: { values: { variant: string; rps: number; bound: string }[] } }[] }).layer[2]!.data.values;
  assert.deepEqual(ticks.filter((x) => x.variant === 'platform').map((x) => [x.bound, Math.round(x.rps)]), [['thread bound', 4000], ['CPU bound', 1621]]);
  assert.match(await renderSvg(hc!.spec), /<svg/);
  assert.throws(() => charts004(jobs, LABELS, {}), /missing "chart\./);
});
