/**
 * The environment table (src/report/sections/environment.ts) shows the environment recorded since
 * issue 33 — cgroup limits, clock source, each process's CPU affinity with the JVM's CPUs and
 * carriers, the other processes' CPU — when the run has it, in English and Chinese, and a run
 * without it renders exactly as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRun, loadTemplates } from '../fixtures/registered.ts';
import { FIXTURE_DIR } from '../fixtures/report-helpers.ts';
import { buildModel } from '../../src/report/model.ts';
import { chartLabels, renderMarkdown } from '../../src/report/render-md.ts';
import type { LoadedRun } from '../../src/report/load.ts';

async function render(run: LoadedRun, lang: 'en' | 'zh'): Promise<string> {
  const t = await loadTemplates(lang);
  const figures = (['e2e-latency', 'distribution', 'latency-scatter', 'percentiles', 'throughput', 'phases', 'timeseries'] as const).map((name) => ({ name, title: chartLabels(t).e2e }));
  return renderMarkdown(buildModel(run), t, figures);
}

/** The fixture run with the new environment fields set (in memory). */
async function withEnvironment(): Promise<{ run: LoadedRun; block: string; cellId: string }> {
  const run = await loadRun(FIXTURE_DIR);
  const block = Object.keys(run.manifest.sut)[0]!;
  const cells = structuredClone(run.cells);
  cells[0]!.otherCpuShare = 0.25;
  cells[0]!.flags = [...cells[0]!.flags, { code: 'host-other-cpu', message: 'm', value: 0.25, threshold: 0.1 }];
  for (const c of cells.slice(1)) c.otherCpuShare = 0.02;
  const manifest = structuredClone(run.manifest);
  manifest.host.cgroup = { version: 2, cpuQuotaCores: 1.5, cpuQuotaUs: 150000, cpuPeriodUs: 100000, memoryLimitBytes: 2 * 1024 ** 3 };
  manifest.host.clockSource = 'tsc';
  manifest.options = { ...manifest.options, cpuIsolation: { sutCpus: '1', harnessCpus: '0' } };
  manifest.affinity = { harness: { pid: 10, cpus: '0' }, mock: { pid: 11, cpus: '0' }, [`sut-${block}`]: { pid: 12, cpus: '1' } };
  manifest.sut[block] = { ...manifest.sut[block]!, availableProcessors: 1, vtSchedulerParallelism: 1 };
  return { run: { ...run, manifest, cells }, block, cellId: cells[0]!.cellId };
}

test('environment table: cgroup quota and memory limit, clock source, affinity with the JVM\'s CPUs and carriers, other processes\' CPU', async () => {
  const { run, block, cellId } = await withEnvironment();
  const md = await render(run, 'en');
  const row = (item: string) => md.split('\n').find((l) => l.startsWith(`| ${item} |`)) ?? '';
  assert.match(row('cgroup limits'), /CPU quota 1\.50 CPUs \(150,000 µs per 100,000 µs\); memory limit 2\.00 GiB \(cgroup v2/);
  assert.match(row('clock source'), /\| tsc \|/);
  assert.match(row('CPU isolation'), /SUT JVM on CPUs 1, harness \(load generator, mock, PostgreSQL\) on CPUs 0, set with taskset; the CPU bounds use the SUT's CPUs/);
  assert.match(row('CPU affinity'), new RegExp(`harness: CPUs 0; mock: CPUs 0; sut-${block}: CPUs 1 \\(JVM availableProcessors 1, carrier parallelism 1\\)`));
  assert.match(row('other processes\' CPU'), new RegExp(`largest 25 % of the machine \\(cell ${cellId}\\); 1 of ${run.cells.length} cells above 10 %`));
  const zh = await render(run, 'zh');
  assert.match(zh, /\| cgroup 限制 \| CPU 配额 1\.50 个 CPU/);
  assert.match(zh, /\| CPU 亲和性 \| harness：CPU 0/);
  assert.match(zh, /\| CPU 隔离 \| 被测 JVM 运行在 CPU 1/);
  assert.match(zh, /\| 其他进程的 CPU \| 最高占整机 25 %/);
});

test('no quota and no memory limit read as none; an unreadable cgroup says so', async () => {
  const { run } = await withEnvironment();
  run.manifest.host.cgroup = { version: 1, cpuQuotaCores: null, cpuQuotaUs: null, cpuPeriodUs: null, memoryLimitBytes: null };
  assert.match(await render(run, 'en'), /\| cgroup limits \| CPU quota none; memory limit none \(cgroup v1/);
  run.manifest.host.cgroup = { version: null, cpuQuotaCores: null, cpuQuotaUs: null, cpuPeriodUs: null, memoryLimitBytes: null };
  assert.match(await render(run, 'en'), /\| cgroup limits \| not readable \|/);
});

test('a run recorded before these fields renders without their rows', async () => {
  const run = await loadRun(FIXTURE_DIR);
  const md = await render(run, 'en');
  for (const item of ['cgroup limits', 'clock source', 'CPU isolation', 'CPU affinity', 'other processes\' CPU']) assert.ok(!md.includes(`| ${item} |`), item);
});
