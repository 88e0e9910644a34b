/**
 * Study 004 (issue 14): its theory, the check of a SUT against a spring-boot-auto variant, the
 * in-process driver against a scripted job server on port 0 (a complete answer is a result, a
 * timed-out or refused job a failed request), the plan, and the report rendered from two real runs
 * (test/fixtures/study-004/: the `smoke` and `quick-http` profiles on this project's 2-core host).
 * No process is started.
 */
import { loadRun, loadTemplates } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { STUDY_004, VARIANTS_004, SCENARIOS_004, PROFILES_004 } from '../../src/studies/004/index.ts';
import { asyncJobTimeoutMs, asyncMakespanTheoryMs, httpBounds, httpQueueWaitMeanMs, JOB_MARGIN_MS } from '../../src/studies/004/theory.ts';
import { asyncRows, httpRows } from '../../src/studies/004/report.ts';
import { bootMismatches, sutMismatches } from '../../src/pipeline/run.ts';
import { jobProblem, runInProcessJob } from '../../src/load/in-process.ts';
import { driverFor } from '../../src/load/driver.ts';
import { unusableLoad } from '../../src/pipeline/failed-cells.ts';
import { makePlan } from '../../src/plan/plan.ts';
import { studyProblems } from '../../src/plan/study-check.ts';

import { buildModel } from '../../src/report/model.ts';
import { buildReport, indexDocuments, type ReportMeta } from '../../src/report/index.ts';
import type { BootExecutorsInfo, SutInfo } from '../../src/types/sut-api.ts';
import type { ResolvedOptions } from '../../src/types/run.ts';
import type { Variant } from '../../src/types/study.ts';

const PLATFORM = VARIANTS_004[0] as Variant;
const VIRTUAL = VARIANTS_004[1] as Variant;
const FIX = (name: string) => fileURLToPath(new URL(`../fixtures/study-004/${name}/`, import.meta.url));

function optionsOf(profile: string): ResolvedOptions {
  const p = PROFILES_004.find((x) => x.name === profile)!;
  return { ...p.values, study: '004', profile, variantSpecs: p.values.variants.map((id) => VARIANTS_004.find((v) => v.id === id)!) };
}

test('theory: ⌈T/8⌉ × S on Boot\'s pool (625 s for the study\'s T and S), S on virtual threads; deadlines twice that plus a margin', () => {
  assert.equal(asyncMakespanTheoryMs(PLATFORM.executor, 100_000, 50), 625_000);
  assert.equal(asyncMakespanTheoryMs(PLATFORM.executor, 10_000, 50), 62_500);
  assert.equal(asyncMakespanTheoryMs(PLATFORM.executor, 9, 50), 100, 'a partial last wave still takes one S');
  assert.equal(asyncMakespanTheoryMs(VIRTUAL.executor, 100_000, 50), 50);
  assert.equal(asyncJobTimeoutMs(PLATFORM.executor, 100_000, 50), 1_250_000 + JOB_MARGIN_MS);
  assert.equal(asyncJobTimeoutMs(VIRTUAL.executor, 100_000, 50), 100 + JOB_MARGIN_MS);
});

test('theory: experiment 2 bounds 4,000 req/s on Tomcat\'s 200 threads, 10,000 on virtual threads; 1.5 service times of wait; the smaller of thread and CPU bound limits', () => {
  const pl = httpBounds(PLATFORM.executor, 500, 50, 2, null);
  assert.equal(pl.threadBoundRps, 4000);
  assert.equal(pl.cpuBoundRps, null);
  assert.equal(pl.limit, 'threads');
  assert.equal(httpBounds(VIRTUAL.executor, 500, 50, 2, null).threadBoundRps, 10_000);
  assert.equal(httpQueueWaitMeanMs(PLATFORM.executor, 500, 50), 75);
  assert.equal(httpQueueWaitMeanMs(VIRTUAL.executor, 500, 50), 0);
  const cpu = httpBounds(PLATFORM.executor, 500, 50, 2, 1); // 1 ms of CPU per request on 2 cores: 2,000 req/s
  assert.equal(cpu.cpuBoundRps, 2000);
  assert.equal(cpu.limit, 'cpu');
});

test('the study definition passes the engine\'s check; the plan takes the in-process cell\'s time from the job theory', () => {
  assert.deepEqual(studyProblems(STUDY_004), []);
  const plan = makePlan(optionsOf('seed-004'), STUDY_004);
  assert.deepEqual(plan.cells.map((c) => [c.cellId, c.theoreticalS]), [
    ['platform-c1-r1', 625], ['virtual-c1-r1', 0.05], ['virtual-c1-r2', 0.05], ['platform-c1-r2', 625], ['platform-c1-r3', 625], ['virtual-c1-r3', 0.05],
  ]);
  const http = makePlan(optionsOf('seed-004-http'), STUDY_004);
  assert.deepEqual(http.cells.filter((c) => c.repeat === 1).map((c) => [c.cellId, c.boundRps, c.requests]), [['platform-c500-r1', 4000, 10_000], ['virtual-c500-r1', 10_000, 10_000]]);
  assert.equal(driverFor(SCENARIOS_004[0]!).kind, 'in-process');
});

const BOOT_PLATFORM: BootExecutorsInfo = {
  asyncExecutorClass: 'org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor', asyncCorePoolSize: 8, asyncMaxPoolSize: 2147483647,
  asyncQueueCapacity: 2147483647, asyncConcurrencyLimit: null, asyncProbeThreadName: 'task-1', asyncProbeVirtual: false, springThreadsVirtual: false,
  tomcatExecutorClass: 'org.apache.tomcat.util.threads.ThreadPoolExecutor', tomcatVirtualThreads: false, tomcatMaxThreads: 200,
};
const BOOT_VIRTUAL: BootExecutorsInfo = {
  asyncExecutorClass: 'org.springframework.core.task.SimpleAsyncTaskExecutor', asyncCorePoolSize: null, asyncMaxPoolSize: null, asyncQueueCapacity: null,
  asyncConcurrencyLimit: -1, asyncProbeThreadName: 'task-1', asyncProbeVirtual: true, springThreadsVirtual: true,
  tomcatExecutorClass: 'org.apache.tomcat.util.threads.VirtualThreadExecutor', tomcatVirtualThreads: true, tomcatMaxThreads: null,
};

test('a SUT that did not get the virtual variant is detected (Boot\'s executors read back), one that did passes', async () => {
  assert.deepEqual(bootMismatches('virtual', VIRTUAL.executor as never, BOOT_VIRTUAL), []);
  assert.deepEqual(bootMismatches('platform', PLATFORM.executor as never, BOOT_PLATFORM), []);
  const wrong = bootMismatches('virtual', VIRTUAL.executor as never, BOOT_PLATFORM);
  assert.deepEqual(wrong, [
    'variant virtual: boot.asyncProbeVirtual is false, expected true',
    'variant virtual: boot.asyncCorePoolSize is 8, expected null',
    'variant virtual: boot.tomcatVirtualThreads is false, expected true',
    'variant virtual: boot.tomcatMaxThreads is 200, expected null',
  ]);
  assert.match(bootMismatches('platform', PLATFORM.executor as never, { ...BOOT_PLATFORM, tomcatMaxThreads: 400 })[0]!, /tomcatMaxThreads is 400, expected 200/, 'the SUT\'s own 400 threads, not Tomcat\'s default the study used');
  assert.match(bootMismatches('platform', PLATFORM.executor as never, null)[0]!, /reported no boot executors/);
  // through the pipeline's check, from the real smoke run's /bench/info
  const run = await loadRun(FIX('smoke'));
  const info = run.manifest.sut['virtual-r1'] as SutInfo;
  assert.deepEqual(sutMismatches(VIRTUAL, SCENARIOS_004[0]!, info), []);
  assert.ok(sutMismatches(VIRTUAL, SCENARIOS_004[0]!, { ...info, boot: BOOT_PLATFORM }).length > 0);
});

/** A job server on port 0 that answers every POST with `status` and `body`. */
async function jobServer(status: number, body: unknown): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => { req.resume(); res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const JOB = { path: '/bench/job/async-burst', tasks: 40, sleepMs: 50, timeoutMs: 10_000 };
const ANSWER = {
  job: 'async-burst', tasks: 40, sleepMs: 50, timeoutMs: 10_000, completed: 40, timedOut: false, executorBean: 'applicationTaskExecutor',
  executorClass: 'org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor', submitMs: 1.5, makespanMs: 251.2, firstStartMs: 0.3, submitRatePerS: 26_666,
  peakPoolThreads: 8, peakQueue: 32, queuePollIntervalMs: 5, peakRunningTasks: 8, peakPlatformThreads: 40, virtualTasks: 0, platformTasks: 40,
  distinctPlatformThreads: 8, tasksByThreadNamePrefix: { 'task-': 40 }, rssBeforeBytes: 1, rssAfterBytes: 2,
};

test('in-process driver: a complete job answer is the cell\'s one successful record and its job', async () => {
  const { url, server } = await jobServer(200, ANSWER);
  try {
    const r = await runInProcessJob(url, JOB, new AbortController().signal);
    assert.equal(r.records.length, 1);
    assert.equal(r.summary.ok, 1);
    assert.deepEqual(r.job, ANSWER);
    assert.equal(unusableLoad(r.summary), null);
  } finally {
    server.close();
  }
});

test('in-process driver: a job past its deadline (504), an incomplete answer or a refused job is a failed request, so a failed cell, never a result', async () => {
  for (const [status, body] of [[504, { ...ANSWER, timedOut: true, completed: 12 }], [200, { ...ANSWER, completed: 39 }], [200, { ...ANSWER, timedOut: true }], [409, {}], [200, 'not json']] as const) {
    const { url, server } = await jobServer(status, body);
    try {
      const r = await runInProcessJob(url, JOB, new AbortController().signal);
      assert.equal(r.job, undefined, `${status} ${JSON.stringify(body).slice(0, 40)}`);
      assert.equal(r.summary.ok, 0);
      assert.notEqual(unusableLoad(r.summary), null, 'the pipeline records the cell as failed');
    } finally {
      server.close();
    }
  }
  assert.match(jobProblem(JOB, { ...ANSWER, timedOut: true })!, /passed its deadline of 10000 ms/);
  assert.match(jobProblem(JOB, { ...ANSWER, completed: 39 })!, /completed 39 of 40/);
  assert.match(jobProblem(JOB, { ...ANSWER, submitMs: null })!, /field submitMs/);
  assert.equal(jobProblem(JOB, ANSWER), null);
});

test('report of the real smoke run: experiment 1 from the jobs (pool of 8 on platform threads, one virtual thread per task), Boot read back, en and zh', async () => {
  const run = await loadRun(FIX('smoke'));
  const model = buildModel(run);
  const rows = asyncRows(model);
  assert.deepEqual(rows.map((r) => [r.variant, r.tasks, r.theoryMs, r.peakRunningTasks.median, r.virtualTasks, r.platformTasks]), [
    ['platform', 400, 1000, 8, 0, 400], ['virtual', 400, 20, rows[1]!.peakRunningTasks.median, 400, 0],
  ]);
  assert.ok((rows[1]!.peakRunningTasks.median ?? 0) > 8, 'virtual threads are not limited to 8');
  assert.ok(rows[0]!.vsTheory !== null && Math.abs(rows[0]!.vsTheory) <= 0.1, `platform makespan near ⌈T/8⌉ × S: ${rows[0]!.vsTheory}`);
  for (const lang of ['en', 'zh'] as const) {
    const built = await buildReport(run, await loadTemplates(lang, STUDY_004));
    const md = built.files.find((f) => f.path === 'report.md')?.content ?? '';
    assert.doesNotMatch(md, /\{\{|\}\}/, `${lang}: every placeholder filled`);
    assert.match(md, /\| platform-r1 \| `ThreadPoolTaskExecutor` \|[^\n]*\| 200 \|/, `${lang}: Tomcat's 200 threads on platform`);
    assert.match(md, /\| virtual-r1 \| `SimpleAsyncTaskExecutor` \|[^\n]*−1/, `${lang}: no stale maxThreads on virtual threads`);
    assert.doesNotMatch(md, /\| Tomcat \| maxThreads 200/, `${lang}: the environment does not print one maxThreads for both`);
    assert.match(md, /seed-004-http/, `${lang}: points to the other experiment's profile`);
  }
  // the breakdown sentence names the part that dominates the virtual makespan, from the numbers
  const vt = rows[1]!;
  const submitDominates = vt.submitMs.median! >= vt.makespanMs.median! - vt.submitMs.median!;
  const md = (await buildReport(run, await loadTemplates('en', STUDY_004))).files.find((f) => f.path === 'report.md')?.content ?? '';
  if (submitDominates) assert.match(md, /most of the time is the submission loop/);
  else assert.match(md, /Neither the sleep nor the submission loop explains most of it/);
});

test('report of the real quick-http run: min/median/P90/P95/P99/max per variant, which bound limited, the study\'s bound statements judged', async () => {
  const run = await loadRun(FIX('quick-http'));
  const model = buildModel(run);
  const rows = httpRows(model, model.manifest.host.cores);
  assert.deepEqual(rows.map((r) => [r.variant, r.clients, r.threadBoundRps]), [['platform', 500, 4000], ['virtual', 500, 10_000]]);
  for (const r of rows) {
    assert.ok(r.minMs.median !== null && r.minMs.median >= 50, 'no request faster than its 50 ms sleep');
    assert.ok(r.cpuMsPerRequest !== null && r.cpuBoundRps !== null);
    assert.equal(r.limit, r.cpuBoundRps! < r.threadBoundRps ? 'cpu' : 'threads');
    assert.ok(r.throughputRps.median! <= Math.min(r.threadBoundRps, r.cpuBoundRps!) * 1.05, `${r.variant}: below the smaller bound`);
  }
  const ids = model.conclusions.map((c) => c.id);
  assert.deepEqual(ids, ['platform.p50Above150', 'platform.p90Above150', 'platform.p95Above150', 'platform.p99Above150', 'virtual.maxBelow100']);
  const pl = rows[0]!;
  const vt = rows[1]!;
  // "platform above 150 ms" says nothing about Tomcat's threads when virtual threads are above 150 ms too (the host set it): not testable
  assert.equal(model.conclusions[0]!.verdict, vt.p50Ms.median! > 150 ? 'not testable here' : pl.p50Ms.median! > 150 ? 'reproduced' : 'not reproduced');
  // "virtual max below 100 ms" is not testable while the CPU bound is virtual threads' smaller bound
  assert.equal(model.conclusions[4]!.verdict, vt.limit === 'cpu' ? 'not testable here' : vt.maxMs.median! < 100 ? 'reproduced' : 'not reproduced');
  const min = model.published.find((p) => p.id === 'platform.e2eMinMs.500')!;
  assert.equal(min.measured, pl.minMs.median);
  assert.equal(model.published.find((p) => p.id === 'platform.asyncMakespanMs')?.verdict, 'not testable here', 'the other experiment\'s figure');
  for (const lang of ['en', 'zh'] as const) {
    const md = (await buildReport(run, await loadTemplates(lang, STUDY_004))).files.find((f) => f.path === 'report.md')?.content ?? '';
    assert.doesNotMatch(md, /\{\{|\}\}/);
    assert.match(md, /\| P50 \| P90 \| P95 \| P99 \| max \|/);
  }
});

test('report/index lists an in-process run by its job time, with no req/s figure (one job per cell is not a throughput)', async () => {
  const run = await loadRun(FIX('smoke'));
  const built = await buildReport(run, await loadTemplates('en', STUDY_004));
  const meta = JSON.parse(built.files.find((f) => f.path === 'meta.json')!.content) as ReportMeta;
  assert.equal(meta.load, 'in-process');
  const row = indexDocuments([meta]).md.split('\n').find((l) => l.includes(meta.runId))!;
  // the answer line (study 004's hook): the makespan ratio with both makespans, never a req/s figure
  assert.match(row, /makespan ÷ its own = [\d,.]+× at [\d,]+ tasks \([\d,.]+ ms → [\d,.]+ ms\)/);
  assert.doesNotMatch(row, /req\/s/);
});
