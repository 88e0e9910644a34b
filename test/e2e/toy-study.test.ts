/**
 * Acceptance of issue 11 (the engine is general): a toy study defined entirely in a test fixture
 * (test/fixtures/toy-study/: two variants, one scenario, its own two-section template), not
 * registered in src/studies, runs through the real entry point (`runStudy`, the same path as
 * `npx zx run.mjs --study …`) against the real mock and the real SUT's `sleep` scenario bean.
 * Needs a JDK and the SUT jar (Maven builds it when its sources changed); a few seconds of load.
 * The run renders its report with the toy study's own two-section template (en by the run, zh by
 * `report`), through the same generic report engine as study 000.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runStudy } from '../../src/cli/main.ts';
import { realDeps } from '../../src/cli/deps.ts';
import { validate } from '../../src/adapters/store/schema.ts';
import { throughputBoundRps } from '../../src/compute/theory/bounds.ts';
import { TOY_STUDY } from '../fixtures/toy-study/study.ts';
import { withoutProvenance } from '../fixtures/report-helpers.ts';
import { runStudyE2e } from '../fixtures/e2e-run.ts';

test('the toy study runs through the real pipeline: cells per variant, executors, queue wait on the pool only, bounds', { timeout: 300_000 }, async (t) => {
  const { reportDir, out, id, store, manifest: m } = await runStudyE2e(t, TOY_STUDY, 'vtbench-toy-', ['--profile', 'tiny'], { ports: false });
  assert.equal(m.options.study, 'toy');
  assert.equal(m.options.scenario, 'sleep');
  assert.deepEqual(m.cellOrder, ['pool-2-c2-r1', 'pool-2-c6-r1', 'vt-c2-r1', 'vt-c6-r1']);
  assert.deepEqual(Object.keys(m.sut).sort(), ['pool-2-r1', 'vt-r1']);
  assert.equal(m.sut['pool-2-r1']!.executor.kind, 'platform-pool');
  assert.equal(m.sut['pool-2-r1']!.executor.threads, 2);
  assert.equal(m.sut['pool-2-r1']!.executor.threadNamePrefix, 'toy-pool-');
  assert.equal(m.sut['vt-r1']!.executor.kind, 'virtual-per-task');
  assert.equal(m.sut['vt-r1']!.executor.threadNamePrefix, 'toy-vt-');
  assert.ok(m.sut['vt-r1']!.scenarios.includes('sleep'));

  const cells = store.readDoneCells(m.cellOrder);
  assert.equal(cells.length, 4);
  for (const c of cells) {
    const { samples, ...file } = c;
    void samples;
    assert.deepEqual(validate('CellFile', { ...file, samplesFile: `cells/${c.cellId}.samples.json.gz`, samplesCount: 0 }), []);
    assert.equal(c.scenario, 'sleep');
    assert.equal(c.latencyMs, 200);
    assert.equal(c.load.ok, c.load.count, `${c.cellId}: every request succeeded`);
    assert.equal(c.load.count, c.concurrency * 2);
    const v = TOY_STUDY.variants.find((x) => x.id === c.variant)!;
    assert.deepEqual(c.executor, v.executor);
    const bound = throughputBoundRps(c.executor, c.concurrency, 200);
    assert.ok(c.load.wholeRunThroughputRps !== null && c.load.wholeRunThroughputRps <= bound * 1.05, `${c.cellId}: ${c.load.wholeRunThroughputRps} req/s within the bound ${bound}`);
    // every call sleeps L on its executor thread
    assert.ok(c.load.execMs !== null && c.load.execMs.p50 >= 195, `${c.cellId}: exec P50 ${c.load.execMs?.p50} ≈ 200 ms`);
  }
  const byId = new Map(cells.map((c) => [c.cellId, c]));
  // 6 workers on 2 threads: three waves, the last waits 2 × L
  const pool6 = byId.get('pool-2-c6-r1')!;
  assert.ok(pool6.load.queueMs !== null && pool6.load.queueMs.p95 > 150, `pool-2 at c=6 queues: P95 ${pool6.load.queueMs?.p95} ms`);
  const pool2 = byId.get('pool-2-c2-r1')!;
  assert.ok(pool2.load.queueMs !== null && pool2.load.queueMs.p95 < 20, `pool-2 at c=2 does not queue: P95 ${pool2.load.queueMs?.p95} ms`);
  for (const id of ['vt-c2-r1', 'vt-c6-r1']) {
    const c = byId.get(id)!;
    assert.ok(c.load.queueMs !== null && c.load.queueMs.p95 < 20, `${id}: queue wait ≈ 0 (P95 ${c.load.queueMs?.p95} ms)`);
  }
  // the thread dump of the highest level counts the variant's own pool threads
  assert.ok(pool6.threadDump !== null, 'the highest level of the pool has a thread dump');
  assert.ok(pool6.threadDump.groups.some((g) => g.namePrefix.startsWith('toy-pool-')), JSON.stringify(pool6.threadDump.groups.map((g) => g.namePrefix)));

  const rows = (JSON.parse(readFileSync(store.summaryPath, 'utf8')) as { rows: { variant: string; concurrency: number; boundRps: number }[] }).rows;
  assert.deepEqual(rows.map((r) => `${r.variant}@${r.concurrency}:${r.boundRps}`), ['pool-2@2:10', 'pool-2@6:10', 'vt@2:10', 'vt@6:30']);

  // the report: the toy's own template (two sections), generic placeholders only, both languages
  const zhCode = await runStudy(TOY_STUDY, ['report', store.dir, '--report-dir', reportDir, '--lang', 'zh'], out.io, realDeps());
  assert.equal(zhCode, 0, out.text());
  const en = withoutProvenance(readFileSync(join(reportDir, id, 'report.md'), 'utf8'));
  const zh = withoutProvenance(readFileSync(join(reportDir, id, 'zh', 'report.md'), 'utf8'));
  assert.match(en, /^# Toy study: a pool of 2 vs virtual threads on a sleep — run /);
  // the answer block first (issue 31), the study's sections, then the engine's appendices (flags per cell when a cell raised one — the host decides; data; how each number was computed)
  assert.deepEqual(en.match(/^## .*/gm)?.filter((h) => h !== '## Flags per cell'), ['## Answer', '## 1. Setup', '## 2. Results', '## Data appendix', '## How each number was computed']);
  assert.deepEqual(zh.match(/^## .*/gm)?.filter((h) => h !== '## 各单元的标记'), ['## 结论', '## 1. 实验设置', '## 2. 结果', '## 数据附录', '## 每个数字是怎样算出来的']);
  for (const doc of [en, zh]) assert.doesNotMatch(doc, /\{\{/, 'every placeholder filled');
  // the results table has one row per variant × level, named by the variants' labels
  for (const v of TOY_STUDY.variants) for (const c of [2, 6]) assert.match(en, new RegExp(`^\\| ${v.label} \\| ${c} \\| [0-9.]+ req/s \\|`, 'm'), `${v.id} at ${c}`);
  // both toy figures (the pool's bound, 10 req/s, and its last wave's queue wait, 400 ms, at c = 6)
  // are reproduced: 6 × 2 requests on 2 threads of 200 ms sleeps are 6 waves by construction
  const verdicts = en.split('\n').filter((l) => /^\| (throughput \(whole run\)|queue wait P95) \| platform pool of 2 \| 6 \|/.test(l)).map((l) => l.split('|')[8]?.trim());
  assert.deepEqual(verdicts, ['reproduced', 'reproduced'], en);
  const html = readFileSync(join(reportDir, id, 'index.html'), 'utf8');
  const h2 = (html.match(/<h2[ >][^]*?<\/h2>/g) ?? []).filter((h) => !h.includes('Flags per cell'));
  assert.equal(h2.length, 5, 'the HTML has the answer, the template\'s two sections and the engine\'s two appendices');
  // the front page: the run's link and its answer line (virtual threads ÷ the pool at the highest level)
  const index = readFileSync(join(reportDir, 'index.md'), 'utf8');
  assert.match(index, new RegExp(`\\[${id}\\]\\(${id}/report\\.md\\)`));
  assert.match(index, / the throughput of .* at 6 workers; E2E P95 /);
});
