/**
 * The study report hook's `derive` step (src/report/types.ts StudyReportHook.derive): computed once
 * per model, before the gate, the figures and the analysis, and the same object is what every later
 * hook (gate, figure, analyse, sections) reads as `model.derived`; without it `derived` is null.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRun, loadTemplates } from '../fixtures/registered.ts';
import { FIXTURE_DIR } from '../fixtures/report-helpers.ts';
import { buildModel } from '../../src/report/model.ts';
import { chartLabels, renderMarkdown } from '../../src/report/render-md.ts';
import { chartSpecs } from '../../src/report/charts.ts';
import type { StudyReportHook } from '../../src/report/types.ts';

test('derive runs once; gate, figure, analyse and sections all read its one result as model.derived', async () => {
  const run = await loadRun(FIXTURE_DIR);
  const base = run.study.report!;
  assert.ok(base.gate && base.figure && base.analyse && base.sections, 'the fixture study has the hooks this test wraps');
  let calls = 0;
  const seen: { hook: string; derived: unknown }[] = [];
  const hook: StudyReportHook<{ rows: number }> = {
    ...base,
    derive: (m) => { calls++; return { rows: m.rows.length }; },
    gate: (m) => { seen.push({ hook: 'gate', derived: m.derived }); return base.gate!(m); },
    figure: (row, m, cells) => { seen.push({ hook: 'figure', derived: m.derived }); return base.figure!(row, m, cells); },
    analyse: (m) => { seen.push({ hook: 'analyse', derived: m.derived }); return base.analyse!(m); },
    sections: (m, ctx) => { seen.push({ hook: 'sections', derived: m.derived }); return base.sections!(m, ctx); },
  };
  const study = { ...run.study, report: hook };
  const model = buildModel({ ...run, study });
  const t = await loadTemplates('en', study);
  renderMarkdown(model, t, chartSpecs(model, chartLabels(t)).map((c) => ({ name: c.name, title: c.title })));
  assert.equal(calls, 1);
  assert.deepEqual(model.derived, { rows: model.rows.length });
  assert.ok(model.rows.length > 0);
  assert.deepEqual([...new Set(seen.map((x) => x.hook))].sort(), ['analyse', 'figure', 'gate', 'sections']);
  for (const x of seen) assert.equal(x.derived, model.derived, `${x.hook} read another object`);
});

test('a study without derive has model.derived = null', async () => {
  const run = await loadRun(FIXTURE_DIR);
  const { derive: _none, ...rest } = run.study.report ?? {};
  void _none;
  assert.equal(buildModel({ ...run, study: { ...run.study, report: rest } }).derived, null);
  assert.equal(buildModel({ ...run, study: { ...run.study, report: undefined } }).derived, null);
});
