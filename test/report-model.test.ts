/**
 * Report model and wording rules, on variations of the fixture run built in memory: one pinning
 * rule for §8.7 and §15, one latency tolerance for "the same", host-CPU saturation read from the
 * data, thread-dump counting, units of flags, and no percent change on noise.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRun, type LoadedRun } from '../src/report/load.ts';
import { buildModel } from '../src/report/model.ts';
import { chartLabels, renderMarkdown } from '../src/report/render-md.ts';
import { loadTemplates } from '../src/report/index.ts';
import { buildSummary } from '../src/store/summary.ts';
import type { CellFlag, CellResult } from '../src/store/types.ts';
import { FIXTURE_DIR } from './fixtures/report-helpers.ts';

async function variant(edit: (cells: CellResult[], run: LoadedRun) => void): Promise<LoadedRun> {
  const run = await loadRun(FIXTURE_DIR);
  const cells = structuredClone(run.cells);
  edit(cells, run);
  return { ...run, cells, summary: buildSummary(run.manifest, cells, run.requests) };
}
async function md(run: LoadedRun, lang: 'en' | 'zh' = 'en'): Promise<string> {
  const t = await loadTemplates(lang);
  const labels = chartLabels(t);
  const figures = (['e2e-latency', 'distribution', 'throughput', 'phases', 'timeseries'] as const).map((name) => ({ name, title: labels.e2e }));
  return renderMarkdown(buildModel(run), t, figures);
}
const section = (doc: string, heading: RegExp): string => {
  const lines = doc.split('\n');
  const i = lines.findIndex((l) => heading.test(l));
  assert.ok(i >= 0, `no heading ${heading}`);
  const j = lines.findIndex((l, k) => k > i && /^## /.test(l));
  return lines.slice(i, j < 0 ? undefined : j).join('\n');
};
const vt100 = (cells: CellResult[]) => cells.filter((c) => c.mode === 'virtual' && c.concurrency === 100);

test('pinning: §8.7 and §15 apply the same rule (≤ 1 event per 100 virtual requests)', async () => {
  for (const [events, expected] of [[1, 'reproduced'], [12, 'reproduced'], [13, 'not reproduced']] as const) {
    const run = await variant((cells) => {
      for (const c of cells) if (c.pinned) c.pinned = { ...c.pinned, total: 0, byReason: {} };
      const c = vt100(cells)[0] as CellResult;
      c.pinned = { thresholdMs: 20, total: events, byReason: { 'synthetic reason': events }, submitFailed: 0 };
    });
    const m = buildModel(run);
    assert.equal(m.pinRule.requests, 1280);
    const row = m.published.find((p) => p.id === 'virtual.pinnedEvents');
    const concl = m.conclusions.find((c) => c.id === 'noPinning');
    assert.equal(row?.verdict, expected, `§8.7 with ${events} events`);
    assert.equal(concl?.verdict, expected, `§15 with ${events} events`);
    assert.ok(row?.reasons.some((r) => r.key === 'pinnedMethod'), 'the row says how each side counted');
  }
  const doc = await md(await loadRun(FIXTURE_DIR));
  assert.match(doc, /tracePinnedThreads`, which was removed in JDK 24/);
});

test('execution P95 "the same" uses the §8.7 tolerance (max of 5 % and 20 ms)', async () => {
  const withExec = (deltaMs: number) => variant((cells) => {
    for (const c of cells) {
      if (c.concurrency !== 100 || !c.load.execMs) continue;
      c.load = { ...c.load, execMs: { ...c.load.execMs, p95: c.mode === 'fixed' ? 200 : 200 + deltaMs } };
    }
  });
  const same = buildModel(await withExec(19));
  assert.equal(same.highest?.execSame, true);
  assert.equal(same.conclusions.find((c) => c.id === 'execEqual')?.verdict, 'reproduced');
  const differs = buildModel(await withExec(30));
  assert.equal(differs.highest?.execSame, false);
  assert.equal(differs.highest?.execSlowerVirtual, true);
  assert.equal(differs.conclusions.find((c) => c.id === 'execEqual')?.verdict, 'not reproduced');
  const doc = await md(await withExec(30));
  assert.match(section(doc, /^## Summary/), /carrier threads/, 'the summary names the likely cause');
});

test('host saturation comes from the data: no "did not visibly limit" sentence when virtual threads queued or the SUT CPU was full', async () => {
  const clean = (cells: CellResult[]) => { for (const c of cells) c.flags = c.flags.filter((f) => f.code === 'errors-above-threshold'); };
  const NO_LIMIT = /did not visibly limit this run/;
  assert.match(section(await md(await variant(clean)), /^## 14\./), NO_LIMIT);

  const queued = await variant((cells) => {
    clean(cells);
    for (const c of vt100(cells)) if (c.load.queueMs) c.load = { ...c.load, queueMs: { ...c.load.queueMs, p95: 98 } };
  });
  const q = await md(queued);
  assert.doesNotMatch(q, NO_LIMIT);
  assert.match(section(q, /^## 14\./), /virtual-c100-r1 \(98\.00 ms\).*carrier threads/);
  assert.equal(buildModel(queued).highest?.vtQueueDelayed, true);

  // the pipeline's rule (sutCpuSaturation): ≥ 90 % of the machine in ≥ 10 % of the cell's samples
  const cpu = await variant((cells) => {
    clean(cells);
    const c = cells.find((x) => x.cellId === 'fixed-c50-r2') as CellResult;
    c.samples = c.samples.map((s, i) => (i >= 3 && i < 9 ? { ...s, processCpuLoad: 0.93 } : s));
  });
  const cd = await md(cpu);
  assert.doesNotMatch(cd, NO_LIMIT);
  assert.match(section(cd, /^## 14\./), /fixed-c50-r2 \(peak 93 %, \d+ % of samples\)/);
  // one saturated sample in a cell is below that share: not a CPU limit (§14 and the flag agree)
  const oneSample = await variant((cells) => {
    clean(cells);
    const c = cells.find((x) => x.cellId === 'fixed-c50-r2') as CellResult;
    c.samples = c.samples.map((s, i) => (i === 3 ? { ...s, processCpuLoad: 0.93 } : s));
  });
  assert.match(await md(oneSample), NO_LIMIT);

  // a flag code this version does not know is shown, counted as a host flag, and does not throw
  const unknown = await variant((cells) => {
    clean(cells);
    (vt100(cells)[0] as CellResult).flags.push({ code: 'scheduler-delay', message: 'virtual queue wait high', value: 98.4, threshold: 75 } as unknown as CellFlag);
    (vt100(cells)[0] as CellResult).flags.push({ code: 'something-new', message: 'new', value: 0.5, threshold: 0.25 } as unknown as CellFlag);
    (vt100(cells)[0] as CellResult).flags.push({ code: 'host-cpu', message: 'SUT busy', value: 0.4, threshold: 0.1 });
  });
  const ud = await md(unknown);
  assert.doesNotMatch(ud, NO_LIMIT);
  assert.match(ud, /\| scheduler-delay \| virtual queue wait high \| 98\.40 ms \| 75\.00 ms \|/);
  assert.match(ud, /\| something-new \| new \| 0\.500 \| 0\.250 \|/);
  // a run written before the `sut-cpu` code carried the SUT-CPU share under `host-cpu`: shown as `sut-cpu`
  assert.match(ud, /\| sut-cpu \| SUT busy \| 40 % of samples \| 10 % of samples \|/);
  await md(unknown, 'zh');
});

test('thread dump: only llm-vt- threads count as the benchmark\'s, JDK virtual threads are named apart, empty containers are left out', async () => {
  const m = buildModel(await loadRun(FIXTURE_DIR));
  const v = m.threadDumps.find((d) => d.mode === 'virtual');
  assert.ok(v);
  assert.equal(v.benchmarkThreads, 100);
  assert.deepEqual(v.otherVirtual, [{ namePrefix: 'SubPoller-', count: 3 }]);
  assert.equal(v.emptyContainers, 2);
  assert.deepEqual(v.containers.filter((c) => c.benchmark).map((c) => c.name), ['java.util.concurrent.ThreadPerTaskExecutor@4d5e6f']);
  assert.ok(v.containers.every((c) => c.threadCount > 0));
  const doc = await md(await loadRun(FIXTURE_DIR));
  const td = section(doc, /^## 10\./);
  assert.match(td, /100 benchmark virtual threads \(`llm-vt-`\) for 100 workers/);
  assert.match(td, /3 other virtual thread\(s\) of the JDK \(SubPoller- × 3\)/);
  assert.doesNotMatch(td, /@11aa22/);
  assert.match(section(await md(await loadRun(FIXTURE_DIR), 'zh'), /^## 10\./), /（无调用栈）/);
});

test('zh report: reasons, definitions, statuses and frames in Chinese; no space after a full stop', async () => {
  const run = await loadRun(FIXTURE_DIR);
  const smallerPlan = await variant((_cells, r) => { r.manifest = { ...r.manifest, options: { ...r.manifest.options, latencyMs: 200, poolSize: 8 } }; });
  const notComparable = await md(smallerPlan, 'zh');
  assert.match(notComparable, /不可比：Mock 延迟 200 ms，原报告 1,500 ms；固定线程池 8，原报告 32/);
  for (const doc of [await md(run, 'zh'), notComparable]) {
    assert.doesNotMatch(doc, /。 [^|\n]/, 'a space after 。');
    for (const en of ['not comparable', "this run's plan differs", 'is not in this run', 'whole-run', '(complete)', '(no stack)', 'requests per worker vs', 'thread per task']) {
      assert.ok(!doc.includes(en), `English in the zh report: ${en}`);
    }
  }
});

test('sameJdkVersion compares release numbers: Temurin 25.0.3 = 25.0.3+9-LTS, not 21.0.5', async () => {
  const { sameJdkVersion } = await import('../src/report/model.ts');
  assert.equal(sameJdkVersion('Temurin 25.0.3', '25.0.3+9-LTS'), true);
  assert.equal(sameJdkVersion('Temurin 25.0.3', '21.0.5+11'), false);
  assert.equal(sameJdkVersion('Temurin 25.0.3', '25.0.2'), false);
});
