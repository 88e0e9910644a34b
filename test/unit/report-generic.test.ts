/**
 * The report engine needs no study-000 code: a synthetic two-variant run whose ids are not
 * fixed/virtual renders with an inline Study (no report hook) and a two-section template that uses
 * only generic placeholders (templates/README.md).
 *
 * The run files come from a real code path: the committed schema-1 fixture, read through the
 * loader and study 000's v1 reader (src/adapters/store/migrate.ts), then its variants renamed in memory
 * (fixed -> pool-8, virtual -> vt) everywhere a variant id appears (options, variant specs, cell
 * ids, cells, summary rows, per-request data, SUT blocks).
 */
import { loadRun, loadTemplates } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LoadedRun } from '../../src/report/load.ts';
import { buildReport } from '../../src/report/index.ts';
import { buildModel } from '../../src/report/model.ts';
import type { Study } from '../../src/types/study.ts';
import { FIXTURE_DIR } from '../fixtures/report-helpers.ts';

const RENAME: Readonly<Record<string, string>> = { fixed: 'pool-8', virtual: 'vt' };
/** a variant id, cell id (`<variant>-c<c>-r<r>`) or block id (`<variant>-r<r>`) with the variant renamed */
const ren = (id: string): string => id.replace(/^([a-z]+)(?=-c\d+-r\d+$|-r\d+$|$)/, (v) => RENAME[v] ?? v);

/** The fixture run with renamed variants, belonging to `study`. */
function renamed(run: LoadedRun, study: Study): LoadedRun {
  const m = structuredClone(run.manifest);
  m.options.study = study.id;
  m.options.variants = m.options.variants.map(ren);
  m.options.variantSpecs = m.options.variantSpecs.map((v) => ({ ...v, id: ren(v.id), label: v.id === 'fixed' ? 'pool of 8' : 'one virtual thread per task' }));
  m.cellOrder = m.cellOrder.map(ren);
  m.sut = Object.fromEntries(Object.entries(m.sut).map(([k, v]) => [ren(k), { ...v, executor: { ...v.executor, variant: ren(v.executor.variant) } }]));
  const cells = structuredClone(run.cells).map((c) => ({ ...c, cellId: ren(c.cellId), variant: ren(c.variant) }));
  const summary = structuredClone(run.summary);
  summary.rows = summary.rows.map((r) => ({ ...r, variant: ren(r.variant) }));
  const requests = new Map([...run.requests].map(([k, v]) => [ren(k), v] as const));
  return { ...run, study, manifest: m, cells, summary, requests };
}

const TEMPLATE_EN = `# {{title}}

{{summary}}

## 1. Setup

{{method}}

{{boundsTable}}

{{environment}}

## 2. Results

{{totals}}

{{comparisons}}

{{allLevels}}

{{publishedTable}}

{{decomposition}}

{{little}}

{{threadDumps}}

{{pinning}}

{{resources}}

{{fig:throughput}}

{{flagsAndGaps}}
`;

function studyIn(dir: string): Study {
  return {
    id: 'synthetic',
    title: 'a pool of 8 vs virtual threads (test)',
    source: 'none',
    variants: [
      { id: 'pool-8', label: 'pool of 8', executor: { kind: 'platform-pool', threads: 8, queueCapacity: 10000 }, threadNamePrefix: 'llm-fixed-' },
      { id: 'vt', label: 'one virtual thread per task', executor: { kind: 'virtual-per-task' }, threadNamePrefix: 'llm-vt-' },
    ],
    scenarios: [],
    profiles: [],
    comparisons: [{ baseline: 'pool-8', candidate: 'vt' }],
    published: [
      { id: 'pool-8.throughputRps.32', metric: 'throughputRps', scenario: null, variant: 'pool-8', level: 32, unit: 'req/s', value: 20, tolerance: 0.05, setupIdentity: null },
      { id: 'vt.e2eP95Ms.32', metric: 'e2eP95Ms', scenario: null, variant: 'vt', level: 32, unit: 'ms', value: 100, tolerance: 0.05, setupIdentity: null },
      { id: 'vt.errorRate.64', metric: 'errorRate', scenario: null, variant: 'vt', level: 64, unit: 'ratio', value: 0, tolerance: 0, setupIdentity: null },
      { id: 'pool-8.errorRate.32', metric: 'errorRate', scenario: null, variant: 'pool-8', level: 32, unit: 'ratio', value: 0, tolerance: 0, setupIdentity: 'noErrors' },
      { id: 'setup.note', metric: 'setup.note', scenario: null, variant: null, level: null, unit: '', value: 'not compared', tolerance: null, setupIdentity: null },
    ],
    templateDir: dir,
  };
}

test('a synthetic two-variant run (pool-8, vt) renders with an inline study, generic placeholders only, en and zh', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-generic-'));
  try {
    writeFileSync(join(dir, 'report.en.md'), TEMPLATE_EN);
    writeFileSync(join(dir, 'report.zh.md'), TEMPLATE_EN.replace('## 1. Setup', '## 1. 设置').replace('## 2. Results', '## 2. 结果'));
    for (const lang of ['en', 'zh']) {
      writeFileSync(join(dir, `phrases.${lang}.json`), JSON.stringify({ title: 'Synthetic study — run {{runId}}', 'identity.noErrors': 'no request failed by construction of this test' }));
    }
    const study = studyIn(dir);
    const run = renamed(await loadRun(FIXTURE_DIR), study);
    const model = buildModel(run);
    assert.deepEqual(model.variants, ['pool-8', 'vt']);
    assert.deepEqual(model.pairs.map((p) => [p.baseline, p.candidate, p.levels.map((l) => l.concurrency)]), [['pool-8', 'vt', [4, 16, 32]]]);
    assert.deepEqual(model.conclusions, [], 'no hook, no conclusion rules');
    const pool32 = model.rows.find((r) => r.variant === 'pool-8' && r.concurrency === 32);
    assert.ok(pool32);
    assert.equal(pool32.boundRps, 8 / (model.latencyMs / 1000), 'bound from the cell\'s executor: min(c, N) / L');
    assert.equal(pool32.waves, 4);
    // published rows: generic metrics measured, a level outside the plan not tested, the identity apart, the fact not compared
    const pub = new Map(model.published.map((p) => [p.id, p] as const));
    assert.equal(pub.get('pool-8.throughputRps.32')?.measured, pool32.wholeRunRps.median);
    assert.equal(pub.get('vt.errorRate.64')?.verdict, 'not testable here');
    assert.deepEqual(pub.get('vt.errorRate.64')?.reasons, [{ key: 'notInPlan', v: { variant: 'vt', c: 64 } }]);
    assert.equal(pub.get('pool-8.errorRate.32')?.identity, 'noErrors');
    assert.equal(pub.has('setup.note'), false);
    // thread dumps: the benchmark threads by the variant specs' prefixes
    assert.ok(model.threadDumps.length > 0 && model.threadDumps.every((d) => d.benchmarkThreads > 0));

    for (const lang of ['en', 'zh'] as const) {
      const t = await loadTemplates(lang, study);
      const built = await buildReport(run, t);
      const md = built.files.find((f) => f.path === 'report.md')?.content ?? '';
      assert.match(md, /^# Synthetic study — run run-fixture$/m);
      assert.doesNotMatch(md, /\{\{|\}\}/, 'every placeholder filled');
      assert.doesNotMatch(md, /Fixed pool|Virtual threads|fixed-c\d|virtual-c\d|固定线程池/, `${lang}: no wording or id of study 000`);
      assert.match(md, /pool of 8/);
      assert.match(md, /one virtual thread per task/);
      assert.match(md, /pool-8-c32-r1/, 'cell ids of the renamed run');
      assert.match(md, /no request failed by construction of this test/, 'the study\'s identity phrase');
      const throughput = built.specs.find((s) => s.name === 'throughput')?.spec as unknown as { encoding: { color: { scale: { domain: string[] } } } };
      assert.deepEqual(throughput.encoding.color.scale.domain, ['pool-8', 'vt']);
      const meta = JSON.parse(built.files.find((f) => f.path === 'meta.json')?.content ?? '{}') as { highest: { concurrency: number } | null };
      assert.equal(meta.highest?.concurrency, 32);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
