/**
 * §8.7 published vs measured (issue 9, defect 3): setup identities — figures that hold by
 * construction — are marked on study 000's typed published rows (src/studies/000/published.ts), shown apart and never counted; every counted
 * verdict can come out otherwise. Proof by perturbation: on the committed run's loaded data (a
 * comparable run: the study's plan), each counted figure's measured value is moved beyond its
 * tolerance through the model's inputs (the summary rows, the cells' samples, thread dumps,
 * pinned counts and load counts — never the verdict), and the verdict must flip.
 */
import { loadRun, loadTemplates } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { type LoadedRun } from '../../src/report/load.ts';
import { buildModel, MIB, type PublishedVerdict as PublishedRow } from '../../src/report/model.ts';
import { PUBLISHED_000 } from '../../src/studies/000/published.ts';

/** figure id → setup identity kind, from the study's typed rows */
const SETUP_IDENTITIES = new Map(PUBLISHED_000.filter((p) => p.setupIdentity !== null).map((p) => [p.id, p.setupIdentity as string] as const));

import { chartLabels, renderMarkdown } from '../../src/report/render-md.ts';
import { withoutProvenance } from '../fixtures/report-helpers.ts';
import type { Agg, CellResult, SummaryRow } from '../../src/types/run.ts';

type Mode = string;

const COMMITTED = fileURLToPath(new URL('../../runs/20261130-100102-seed-000/', import.meta.url));

/** The committed run without its per-request data (§8.7 does not read it; the model builds faster). */
async function baseRun(): Promise<LoadedRun> {
  const run = await loadRun(COMMITTED);
  return { ...run, requests: new Map() };
}

/** A copy whose cells and summary rows may be edited without touching `run`. */
function editable(run: LoadedRun): LoadedRun {
  return { ...run, cells: run.cells.map((c) => ({ ...c, samples: c.samples.map((s) => ({ ...s })), load: { ...c.load } })), summary: structuredClone(run.summary) };
}
const setMedian = (a: Agg, v: number): void => { a.median = v; };

/** Puts `target` into the model's inputs so that the figure `row` measures it. Throws for a figure without a perturbation. */
function perturb(run: LoadedRun, row: PublishedRow, target: number): LoadedRun {
  const r = editable(run);
  const parts = row.id.split('.');
  const mode = parts[0] as Mode;
  const c = row.concurrency;
  const sr = (): SummaryRow => {
    const x = r.summary.rows.find((y) => y.variant === mode && y.concurrency === c);
    assert.ok(x, `no summary row for ${row.id}`);
    return x;
  };
  const cellsAt = (m: Mode, lv: number): CellResult[] => r.cells.filter((x) => x.variant === m && x.concurrency === lv);
  const metric = row.metric;
  switch (row.id.startsWith('setup.') ? row.id : metric) {
    case 'throughputRps': setMedian(sr().throughput.wholeRunRps, target); break;
    case 'e2eP95Ms': setMedian(sr().e2eMs.p95, target); break;
    case 'e2eP99Ms': setMedian(sr().e2eMs.p99, target); break;
    case 'queueWaitP95Ms': setMedian(sr().queueMs.p95, target); break;
    case 'executionP95Ms': setMedian(sr().execMs.p95, target); break;
    case 'errorRate': setMedian(sr().errors.rate, target); break;
    case 'threadDump.poolThreadsInSocketRead':
      for (const x of cellsAt(mode, c as number)) if (x.threadDump) x.threadDump = { ...x.threadDump, inSocketRead: { ...x.threadDump.inSocketRead, poolThreads: target } };
      break;
    case 'threadDump.activeThreadsPeak':
    case 'threadDump.activeVirtualTasksPeak':
      for (const x of cellsAt(mode, c as number)) for (const s of x.samples) s.executorActive = target;
      break;
    case 'threadDump.queuePeak':
      for (const x of cellsAt(mode, c as number)) for (const s of x.samples) s.queueSize = target;
      break;
    case 'rssDeltaVsFixedAt500MiB':
      for (const x of cellsAt('fixed', 500)) for (const s of x.samples) s.rssBytes = 300 * MIB;
      for (const x of cellsAt('virtual', 500)) for (const s of x.samples) s.rssBytes = (300 + target) * MIB;
      break;
    case 'pinnedEvents': {
      const vt = r.cells.filter((x) => x.variant === 'virtual');
      vt.forEach((x, i) => { x.pinned = { thresholdMs: 20, total: i === 0 ? target : 0, byReason: {}, submitFailed: 0 }; });
      break;
    }
    case 'setup.failedRequests': {
      for (const x of r.cells) x.load.ok = x.load.count;
      (r.cells[0] as CellResult).load.ok -= target;
      break;
    }
    case 'setup.totalRequests': {
      const first = r.cells[0] as CellResult;
      const others = r.cells.reduce((a, x) => a + x.load.count, 0) - first.load.count;
      first.load.count = target - others;
      break;
    }
    default: assert.fail(`no perturbation for the counted figure ${row.id}: add one here`);
  }
  return r;
}

/** A measured value beyond the tolerance (when the figure is reproduced) or exactly the published one (when it is not). */
function target(row: PublishedRow): number {
  if (row.verdict === 'not reproduced') return row.published;
  const allowed = Math.max(row.tolerance.abs, Math.abs(row.published) * row.tolerance.rel);
  if (row.unit === 'ratio') return row.published + 2 * allowed + 0.01;
  // a tenth-rounded value, so the RSS difference (computed from values rounded to 0.1 MiB) is exact
  return Math.round((row.published + 2 * allowed + Math.max(1, Math.abs(row.published) * 0.1)) * 10) / 10;
}

test('setup identities come from the study\'s typed published rows, name figures the report has, and are never counted', async () => {
  const run = await baseRun();
  const m = buildModel(run);
  assert.deepEqual([...SETUP_IDENTITIES.keys()].sort(), ['fixed.threadDump.activeThreadsPeak.500', 'fixed.threadDump.poolThreadsInSocketRead.500', 'fixed.threadDump.queuePeak.500', 'setup.totalRequests', 'virtual.threadDump.activeVirtualTasksPeak.500', 'virtual.threadDump.queuePeak.500']);
  for (const id of SETUP_IDENTITIES.keys()) assert.ok(m.published.some((p) => p.id === id && p.identity === SETUP_IDENTITIES.get(id)), `the study names ${id}, which the report does not have`);
  const counted = m.published.filter((p) => p.identity === null);
  assert.equal(counted.length, m.published.length - SETUP_IDENTITIES.size);
  const t = await loadTemplates('en');
  const labels = chartLabels(t);
  const doc = withoutProvenance(renderMarkdown(m, t, (['e2e-latency', 'distribution', 'latency-scatter', 'percentiles', 'throughput', 'phases', 'timeseries'] as const).map((name) => ({ name, title: labels.e2e }))));
  const rep = counted.filter((p) => p.verdict === 'reproduced').length;
  const notRep = counted.filter((p) => p.verdict === 'not reproduced').length;
  const untestable = counted.filter((p) => p.verdict === 'not testable here').length;
  assert.equal(untestable, 1, 'the pinned-events 0, which the study did not count');
  assert.match(doc, new RegExp(`${counted.length} figures: ${rep} reproduced, ${notRep} not reproduced, 0 inconsistent as published, ${untestable} not testable here`));
  assert.match(doc, /6 further figure\(s\) of the study hold by construction of the setup/);
  assert.match(doc, /\| requests in total \| — \| — \| 206,400 \| 206,400 \| holds \|/);
  // the JDK version is a setup fact: running on JDK 21 never makes "the results equal a JDK 21 run" reproduced
  const on21 = buildModel({ ...run, manifest: { ...run.manifest, versions: { ...run.manifest.versions, jdk: '21.0.5+11' } } });
  assert.equal(on21.conclusions.find((c) => c.id === 'jdk21')?.verdict, 'not testable here');
});

test('every counted verdict flips when its measured value moves beyond the tolerance (through the model inputs); identities stay uncounted', async () => {
  const run = await baseRun();
  const base = buildModel(run);
  // figures no run can test (PublishedRow.untestable) are not compared: their own test is below
  const untestable = new Set(PUBLISHED_000.filter((p) => p.untestable !== undefined).map((p) => p.id));
  const counted = base.published.filter((p) => p.identity === null && !untestable.has(p.id));
  assert.ok(counted.length >= 23, 'the committed run compares the whole study');
  assert.ok(counted.every((p) => p.verdict !== 'not testable here'), 'the committed run is comparable');
  for (const row of counted) {
    const t = target(row);
    const m = buildModel(perturb(run, row, t));
    const after = m.published.find((p) => p.id === row.id) as PublishedRow;
    assert.equal(after.measured !== null && Math.abs(after.measured - t) < 1e-6, true, `${row.id}: the perturbation did not reach the figure (measured ${after.measured}, wanted ${t})`);
    assert.notEqual(after.verdict, row.verdict, `${row.id}: measured ${row.measured} → ${t} (published ${row.published}) left the verdict ${row.verdict}`);
    assert.equal(after.identity, null);
  }
  for (const row of base.published.filter((p) => p.identity !== null)) {
    // an identity that fails shows the broken setup, but is still not counted
    const m = buildModel(perturb(run, row, target(row)));
    const after = m.published.find((p) => p.id === row.id) as PublishedRow;
    assert.equal(after.verdict, 'not reproduced', `${row.id}: the check of the setup did not notice`);
    assert.notEqual(after.identity, null, row.id);
  }
});

test('a published figure for another scenario than the run measured is "not testable here" (reason otherScenario)', async () => {
  const { FIXTURE_DIR } = await import('../fixtures/report-helpers.ts');
  const run = await loadRun(FIXTURE_DIR);
  const measured = run.manifest.options.scenario;
  const study = { ...run.study, published: run.study.published.map((p) => (p.scenario !== null ? { ...p, scenario: 'other-scenario' } : p)) };
  const before = buildModel(run).published;
  const after = buildModel({ ...run, study }).published;
  assert.ok(!before.some((p) => p.reasons.some((r) => r.key === 'otherScenario')), 'the study\'s own rows name the run\'s scenario');
  assert.equal(after.length, before.length);
  for (const p of after) {
    const src = study.published.find((x) => x.id === p.id);
    assert.ok(src);
    if (src.scenario === null || src.untestable !== undefined) continue;
    assert.equal(p.verdict, 'not testable here', p.id);
    assert.equal(p.measured, null, p.id);
    assert.deepEqual(p.reasons, [{ key: 'otherScenario', v: { measured, published: 'other-scenario' } }], p.id);
  }
  const tpl = await loadTemplates('en');
  const labels = chartLabels(tpl);
  const md = withoutProvenance(renderMarkdown(buildModel({ ...run, study }), tpl, (['e2e-latency', 'distribution', 'latency-scatter', 'percentiles', 'throughput', 'phases', 'timeseries'] as const).map((name) => ({ name, title: labels.e2e }))));
  assert.match(md, new RegExp(`this run measured scenario ${measured}, the figure is for other-scenario`));
});
