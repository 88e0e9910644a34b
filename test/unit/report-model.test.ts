/**
 * Report model and wording rules, on variations of the fixture run (a small real run, see
 * test/fixtures/make-fixture.ts) built in memory: one pinning rule for §8.7 and §15, one latency
 * tolerance for "the same", host-CPU saturation read from the data, thread-dump counting, units of
 * flags, and no percent change on noise. The variations set measured values in memory to reach
 * each case; the fixture on disk is never edited.
 */
import { loadRun } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type LoadedRun } from '../../src/report/load.ts';
import { buildModel } from '../../src/report/model.ts';
import type { CellFlag, CellResult, RunManifest, ThreadDumpSummary } from '../../src/types/run.ts';
import { FIXTURE_DIR, fixtureVariant as variant, reportMarkdown as md, section } from '../fixtures/report-helpers.ts';

/** the fixture's highest level (32) */
const TOP = 32;
const vtTop = (cells: CellResult[]) => cells.filter((c) => c.variant === 'virtual' && c.concurrency === TOP);
/** the study's setup (latency 1500 ms, pool 32), so §8.7 compares figures instead of saying "not comparable" */
const asStudySetup = (r: LoadedRun) => { r.manifest = withSetup(r.manifest, 1500, 32); };
/** the manifest with another mock latency and fixed-pool size (the pool lives in the run's variant specs) */
function withSetup(m: RunManifest, latencyMs: number, pool: number): RunManifest {
  const variantSpecs = m.options.variantSpecs.map((v) => (v.executor.kind === 'platform-pool' ? { ...v, executor: { ...v.executor, threads: pool } } : v));
  return { ...m, options: { ...m.options, latencyMs, poolSize: pool, variantSpecs } };
}

test('pinning: §15 applies the rule (≤ 1 event per 100 virtual requests); §8.7\'s published 0 is not a count, so not testable whatever the run counts', async () => {
  const vtRequests = (await loadRun(FIXTURE_DIR)).cells.filter((c) => c.variant === 'virtual').reduce((a, c) => a + c.load.count, 0);
  const allowed = Math.floor(vtRequests / 100);
  for (const [events, expected] of [[1, 'reproduced'], [allowed, 'reproduced'], [allowed + 1, 'not reproduced']] as const) {
    const run = await variant((cells, r) => {
      asStudySetup(r);
      for (const c of cells) if (c.pinned) c.pinned = { ...c.pinned, total: 0, byReason: {} };
      const c = vtTop(cells)[0] as CellResult;
      c.pinned = { thresholdMs: 20, total: events, byReason: { 'synthetic reason': events }, submitFailed: 0 };
    });
    const m = buildModel(run);
    assert.equal(m.pinRule.requests, vtRequests);
    const row = m.published.find((p) => p.id === 'virtual.pinnedEvents');
    const concl = m.conclusions.find((c) => c.id === 'noPinning');
    assert.equal(row?.verdict, 'not testable here', `§8.7 with ${events} events`);
    assert.equal(concl?.verdict, expected, `§15 with ${events} events`);
    assert.deepEqual(row?.reasons, [{ key: 'pinnedNotACount' }], 'the row says why the study\'s 0 is no count');
  }
  const doc = await md(await variant((_c, r) => asStudySetup(r)));
  assert.match(doc, /tracePinnedThreads`, which was removed in JDK 24/);
});

test('execution P95 "the same" uses the §8.7 tolerance (max of 5 % and 20 ms)', async () => {
  const withExec = (deltaMs: number) => variant((cells) => {
    for (const c of cells) {
      if (c.concurrency !== TOP || !c.load.execMs) continue;
      c.load = { ...c.load, execMs: { ...c.load.execMs, p95: c.variant === 'fixed' ? 200 : 200 + deltaMs } };
    }
  });
  const same = buildModel(await withExec(19));
  assert.equal(same.pairs[0]?.highest?.concurrency, TOP);
  assert.equal(same.pairs[0]?.highest?.execSame, true);
  assert.equal(same.conclusions.find((c) => c.id === 'execEqual')?.verdict, 'reproduced');
  const differs = buildModel(await withExec(30));
  assert.equal(differs.pairs[0]?.highest?.execSame, false);
  assert.equal(differs.pairs[0]?.highest?.execSlowerCandidate, true);
  assert.equal(differs.conclusions.find((c) => c.id === 'execEqual')?.verdict, 'not reproduced');
  const doc = await md(await withExec(30));
  assert.match(section(doc, /^## Summary/), /carrier threads/, 'the summary names the likely cause');
});

test('host saturation comes from the data: no "did not visibly limit" sentence when virtual threads queued or the SUT CPU was full', async () => {
  /** a quiet host: no host flags, virtual queue waits and SUT CPU below the thresholds (set in memory) */
  const clean = (cells: CellResult[]) => {
    for (const c of cells) {
      c.flags = c.flags.filter((f) => f.code === 'errors-above-threshold');
      if (c.variant === 'virtual' && c.load.queueMs) c.load = { ...c.load, queueMs: { ...c.load.queueMs, p95: Math.min(c.load.queueMs.p95, 5) } };
      c.samples = c.samples.map((s) => ({ ...s, processCpuLoad: s.processCpuLoad === null ? null : Math.min(s.processCpuLoad, 0.5) }));
    }
  };
  const NO_LIMIT = /did not visibly limit this run/;
  assert.match(section(await md(await variant(clean)), /^## 14\./), NO_LIMIT);

  const queued = await variant((cells) => {
    clean(cells);
    for (const c of vtTop(cells)) if (c.load.queueMs) c.load = { ...c.load, queueMs: { ...c.load.queueMs, p95: 98 } };
  });
  const q = await md(queued);
  assert.doesNotMatch(q, NO_LIMIT);
  assert.match(section(q, /^## 14\./), /virtual-c32-r1 \(98\.00 ms\).*carrier threads/);
  assert.equal(buildModel(queued).pairs[0]?.highest?.candidateQueueDelayed, true);

  // the pipeline's rule (sutCpuSaturation): ≥ 90 % of the machine in ≥ 10 % of the cell's samples
  const cpu = await variant((cells) => {
    clean(cells);
    const c = cells.find((x) => x.cellId === 'fixed-c32-r2') as CellResult;
    c.samples = c.samples.map((s, i) => (i >= 3 && i < 9 ? { ...s, processCpuLoad: 0.93 } : s));
  });
  const cd = await md(cpu);
  assert.doesNotMatch(cd, NO_LIMIT);
  assert.match(section(cd, /^## 14\./), /fixed-c32-r2 \(peak 93 %, \d+ % of samples\)/);
  // one saturated sample in a cell is below that share: not a CPU limit (§14 and the flag agree)
  const oneSample = await variant((cells) => {
    clean(cells);
    const c = cells.find((x) => x.cellId === 'fixed-c32-r2') as CellResult;
    c.samples = c.samples.map((s, i) => (i === 3 ? { ...s, processCpuLoad: 0.93 } : s));
  });
  assert.match(await md(oneSample), NO_LIMIT);

  // a flag code this version does not know is shown, counted as a host flag, and does not throw
  const unknown = await variant((cells) => {
    clean(cells);
    (vtTop(cells)[0] as CellResult).flags.push({ code: 'scheduler-delay', message: 'virtual queue wait high', value: 98.4, threshold: 75 } as unknown as CellFlag);
    (vtTop(cells)[0] as CellResult).flags.push({ code: 'something-new', message: 'new', value: 0.5, threshold: 0.25 } as unknown as CellFlag);
    (vtTop(cells)[0] as CellResult).flags.push({ code: 'host-cpu', message: 'SUT busy', value: 0.4, threshold: 0.1 });
  });
  const ud = await md(unknown);
  assert.doesNotMatch(ud, NO_LIMIT);
  assert.match(ud, /\| scheduler-delay \| virtual queue wait high \| 98\.40 ms \| 75\.00 ms \|/);
  assert.match(ud, /\| something-new \| new \| 0\.500 \| 0\.250 \|/);
  // a run written before the `sut-cpu` code carried the SUT-CPU share under `host-cpu`: shown as `sut-cpu`
  assert.match(ud, /\| sut-cpu \| SUT busy \| 40 % of samples \| 10 % of samples \|/);
  await md(unknown, 'zh');
});

/** A hand-checkable dump of a virtual-thread cell with c benchmark threads (the shape of a real JDK 25 dump: JDK pollers, empty containers, a thread without a stack). */
function craftedVirtualDump(c: number, cellId: string): ThreadDumpSummary {
  const groups = [
    { namePrefix: 'llm-vt-', virtual: true, state: 'WAITING', topFrame: 'java.lang.VirtualThread.park', count: c },
    { namePrefix: 'http-nio-8080-exec-', virtual: false, state: 'WAITING', topFrame: 'jdk.internal.misc.Unsafe.park', count: 10 },
    { namePrefix: 'SubPoller-', virtual: true, state: 'WAITING', topFrame: 'java.lang.VirtualThread.park', count: 3 },
    { namePrefix: 'Signal Dispatcher', virtual: false, state: 'RUNNABLE', topFrame: '(no stack)', count: 1 },
  ];
  return {
    file: `threaddumps/${cellId}.json.gz`, takenAtMs: 1600, threadCount: groups.reduce((a, g) => a + g.count, 0) + 20, groups,
    inSocketRead: { poolThreads: 0, virtual: c, other: 0 },
    containers: [
      { name: 'java.util.concurrent.ThreadPoolExecutor@11aa22', threadCount: 0 },
      { name: 'java.util.concurrent.ThreadPerTaskExecutor@4d5e6f', threadCount: c },
      { name: 'java.util.concurrent.ThreadPoolExecutor@33bb44', threadCount: 0 },
      { name: 'java.util.concurrent.ThreadPerTaskExecutor@7a8b9c', threadCount: 3 },
    ],
  };
}

test('thread dump: only llm-vt- threads count as the benchmark\'s, JDK virtual threads are named apart, empty containers are left out', async () => {
  // the rule on a crafted dump with hand-checkable counts
  const crafted = await variant((cells) => { const c = vtTop(cells)[0] as CellResult; c.threadDump = craftedVirtualDump(TOP, c.cellId); });
  const m = buildModel(crafted);
  const v = m.threadDumps.find((d) => d.cellId === 'virtual-c32-r1');
  assert.ok(v);
  assert.equal(v.benchmarkThreads, TOP);
  assert.deepEqual(v.otherVirtual, [{ namePrefix: 'SubPoller-', count: 3 }]);
  assert.equal(v.emptyContainers, 2);
  assert.deepEqual(v.containers.filter((c) => c.benchmark).map((c) => c.name), ['java.util.concurrent.ThreadPerTaskExecutor@4d5e6f']);
  assert.ok(v.containers.every((c) => c.threadCount > 0));
  const td = section(await md(crafted), /^## 10\./);
  assert.match(td, /32 benchmark virtual threads \(`llm-vt-`\) for 32 workers/);
  assert.match(td, /3 other virtual thread\(s\) of the JDK \(SubPoller- × 3\)/);
  assert.doesNotMatch(td, /@11aa22/);
  assert.match(section(await md(crafted, 'zh'), /^## 10\./), /（无调用栈）/);
  // and on the real dumps of the fixture: the benchmark's threads are exactly the llm-vt- / llm-fixed- groups
  for (const d of buildModel(await loadRun(FIXTURE_DIR)).threadDumps) {
    const prefix = d.variant === 'virtual' ? 'llm-vt-' : 'llm-fixed-';
    assert.equal(d.benchmarkThreads, d.dump.groups.filter((g) => g.namePrefix === prefix).reduce((a, g) => a + g.count, 0), d.cellId);
    assert.ok(d.otherVirtual.every((g) => !g.namePrefix.startsWith('llm-')), d.cellId);
    assert.ok(d.containers.every((c) => c.threadCount > 0), d.cellId);
  }
});

test('zh report: reasons, definitions, statuses and frames in Chinese; no space after a full stop', async () => {
  const run = await loadRun(FIXTURE_DIR);
  const smallerPlan = await variant((_cells, r) => { r.manifest = withSetup(r.manifest, 200, 8); });
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
  const { sameJdkVersion } = await import('../../src/report/model.ts');
  assert.equal(sameJdkVersion('Temurin 25.0.3', '25.0.3+9-LTS'), true);
  assert.equal(sameJdkVersion('Temurin 25.0.3', '21.0.5+11'), false);
  assert.equal(sameJdkVersion('Temurin 25.0.3', '25.0.2'), false);
});

test('§12 names the blocks a resume split over more than one SUT JVM (from the cells\' sutPid); without sutPid the old sentence stays', async () => {
  const legacy = await md(await variant(() => {}));
  assert.match(legacy, /one SUT JVM serves all levels of a block \(fixed-r1, fixed-r2, virtual-r1, virtual-r2\)/);
  const pidOf = (c: CellResult) => (c.variant === 'fixed' ? 100 : 200) + c.repeat;
  const whole = await variant((cells) => { for (const c of cells) c.sutPid = pidOf(c); });
  assert.equal(buildModel(whole).jvmBlocks?.split.length, 0);
  assert.match(await md(whole), /one SUT JVM serves all levels of a block \(fixed-r1, fixed-r2, virtual-r1, virtual-r2\)/);
  const resumed = await variant((cells) => {
    for (const c of cells) c.sutPid = pidOf(c);
    const last = cells.filter((c) => c.variant === 'fixed' && c.repeat === 2).sort((a, b) => b.concurrency - a.concurrency)[0]!;
    last.sutPid = 999; // measured anew on --resume, in a new JVM
  });
  assert.deepEqual(buildModel(resumed).jvmBlocks?.split, [{ blockId: 'fixed-r2', jvms: 2 }]);
  assert.match(await md(resumed), /except where a resume started a new JVM, with its own warm-up, part-way through a block: fixed-r2 \(2\)/);
  assert.match(await md(resumed, 'zh'), /块除外：fixed-r2 \(2\)/);
});

test('buildModel: a summary row for a variant with no executor anywhere (summary.json of another run) is a run-data error', async () => {
  const { loadRun } = await import('../fixtures/registered.ts');
  const { buildModel } = await import('../../src/report/model.ts');
  const { FIXTURE_DIR } = await import('../fixtures/report-helpers.ts');
  const { VtbenchError, EXIT } = await import('../../src/types/errors.ts');
  const run = await loadRun(FIXTURE_DIR);
  const summary = structuredClone(run.summary);
  summary.rows[0]!.variant = 'ghost';
  assert.throws(() => buildModel({ ...run, summary }), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.runData && /variant ghost/.test(e.message));
});

test('a one-variant run of study 000 (--variants virtual) is described from the variant it ran: no fixed pool, no comparison', async () => {
  const { buildSummary } = await import('../../src/compute/analysis/summary.ts');
  const run = await loadRun(FIXTURE_DIR);
  const options = { ...run.manifest.options, variants: ['virtual'], variantSpecs: run.manifest.options.variantSpecs.filter((v) => v.id === 'virtual') };
  const manifest = { ...run.manifest, options } as RunManifest;
  const cells = structuredClone(run.cells).filter((c) => c.variant === 'virtual');
  assert.ok(cells.length > 0 && cells.length < run.cells.length);
  const one: LoadedRun = { ...run, manifest, cells, summary: buildSummary(manifest, cells, run.requests) };
  const model = buildModel(one);
  assert.deepEqual([...model.variantSpecs.keys()], ['virtual'], 'the study default fixed pool is not added to a run that did not run it');
  assert.deepEqual(model.variants, ['virtual']);
  assert.equal(model.pairs.length, 0);
  for (const lang of ['en', 'zh'] as const) {
    const doc = await md(one, lang);
    const N = run.manifest.options.variantSpecs.find((v) => v.id === 'fixed')!.executor;
    assert.equal(N.kind, 'platform-pool');
    if (lang === 'en') {
      assert.match(doc, /ran one executor only, one virtual thread per task, at /);
      assert.doesNotMatch(doc, /switched the executor between a fixed pool/);
    } else {
      assert.match(doc, /只运行了一种执行器：每任务一个 Virtual Thread/);
      assert.doesNotMatch(doc, /执行器在 .* 个平台线程的固定线程池与/);
    }
    assert.doesNotMatch(doc, /pool of 32 platform threads|32 个平台线程的固定线程池/);
  }
  // both arms: the comparison setup sentence, as before
  assert.match(await md(run, 'en'), /switched the executor between a fixed pool of \d+ platform threads and one virtual thread per task/);
});
