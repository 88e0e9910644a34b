/**
 * Study 004 end to end (issue 14): the `smoke` profile through the real entry point (`runStudy`,
 * the path of `npx zx run.mjs --study 004 --profile smoke`), the real mock and the real SUT jar
 * (Maven builds it when its sources changed), on free ports. Both variants' SUTs must pass the
 * pipeline's check against Boot's executors as read back, each cell must hold the job's own answer
 * (every task on the executor and thread kind of its variant), and the report renders.
 * Needs a JDK; about a minute (two JVM starts, ≈ 1 s of load). Run it under the heavy lock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STUDY_004 } from '../../src/studies/004/index.ts';
import { runStudyE2e } from '../fixtures/e2e-run.ts';

test('study 004 smoke runs end to end: in-process @Async jobs on Boot\'s pool of 8 and on virtual threads, report written', { timeout: 400_000 }, async (t) => {
  const { reportDir, id, store, manifest: m } = await runStudyE2e(t, STUDY_004, 'vtbench-004-', ['--profile', 'smoke']);
  assert.equal(m.sut['platform-r1']?.boot?.tomcatMaxThreads, 200);
  assert.equal(m.sut['virtual-r1']?.boot?.tomcatMaxThreads, null);
  assert.equal(m.sut['virtual-r1']?.boot?.asyncProbeVirtual, true);
  const cells = store.readDoneCells(m.cellOrder);
  assert.deepEqual(cells.map((c) => c.cellId), ['platform-c1-r1', 'virtual-c1-r1']);
  const [pl, vt] = cells.map((c) => c.job);
  assert.ok(pl && vt);
  assert.equal(pl.completed, 400);
  assert.equal(pl.executorClass, 'org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor');
  assert.equal(pl.peakRunningTasks, 8);
  assert.equal(pl.platformTasks, 400);
  // 50 waves of 20 ms: never faster than theory
  assert.ok(pl.makespanMs !== null && pl.makespanMs >= 50 * 20 - 1, String(pl.makespanMs));
  assert.equal(vt.executorClass, 'org.springframework.core.task.SimpleAsyncTaskExecutor');
  assert.equal(vt.virtualTasks, 400);
  assert.ok(vt.peakRunningTasks > 8);
  const md = readFileSync(join(reportDir, id, 'report.md'), 'utf8');
  assert.match(md, /`ThreadPoolTaskExecutor`/);
  assert.doesNotMatch(md, /\{\{|\}\}/);
});
