/**
 * Study 003 end to end (issue 15): the `smoke` profile through the real entry point (`runStudy`,
 * the path of `npx zx run.mjs --study 003 --profile smoke`) and the real SUT jar, on free ports:
 * each level in its own JVM (one block per cell), each cell holding the SUT's sweep answer, the
 * report with both knees. Then a socket level far above the host's descriptors is recorded as that
 * level's `host-limit` outcome and the run still completes. Needs a JDK; about a minute. Run it
 * under the heavy lock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STUDY_003 } from '../../src/studies/003/index.ts';
import { sweepOf } from '../../src/studies/003/sweep.ts';
import { runStudyE2e } from '../fixtures/e2e-run.ts';

test('study 003 smoke: a fresh JVM per level, each level the SUT\'s sweep answer, both knees in the report', { timeout: 400_000 }, async (t) => {
  const { reportDir, id, store, manifest: m } = await runStudyE2e(t, STUDY_003, 'vtbench-003-', ['--profile', 'smoke']);
  // one SUT JVM per level
  assert.deepEqual(Object.keys(m.sut).sort(), ['virtual-c1000-r1', 'virtual-c200-r1']);
  const cells = store.readDoneCells(m.cellOrder);
  assert.deepEqual(cells.map((c) => sweepOf(c)?.threads), [200, 1000]);
  const pids = new Set(cells.map((c) => c.sutPid));
  assert.equal(pids.size, 2, 'each level ran in its own JVM');
  for (const c of cells) {
    const s = sweepOf(c)!;
    assert.equal(s.outcome, 'ok', s.reason ?? '');
    assert.equal(s.startedThreads, c.concurrency);
    // a sleep of 50 ms never ends early: every thread completes at most D / L ops in the window
    assert.ok(s.opsInWindow <= c.concurrency * (s.durationMs / s.sleepMs), String(s.opsInWindow));
    assert.ok(s.latencyP50Ms! >= s.sleepMs * 0.99);
    assert.ok(s.samples.length > 0 && s.samples[0]!.parallelism !== null);
  }
  const md = readFileSync(join(reportDir, id, 'report.md'), 'utf8');
  assert.match(md, /Rule 1, the study's, literally/);
  assert.match(md, /Rule 2, range-independent/);
  assert.match(md, /figures\/sweep-throughput\.svg/);
  assert.doesNotMatch(md, /\{\{|\}\}/);
});

test('study 003: a socket level beyond the host\'s descriptors is stored as its host-limit outcome, the run completes', { timeout: 400_000 }, async (t) => {
  const { reportDir, id, store, manifest: m } = await runStudyE2e(t, STUDY_003, 'vtbench-003s-', ['--profile', 'smoke', '--scenario', 'socket-sweep', '--levels', '100,1000000']);
  const cells = store.readDoneCells(m.cellOrder);
  assert.deepEqual(cells.map((c) => sweepOf(c)?.outcome), ['ok', 'host-limit']);
  assert.equal(sweepOf(cells[1]!)!.startedThreads, 0);
  assert.equal(sweepOf(cells[1]!)!.throughputOpsPerS, null);
  const md = readFileSync(join(reportDir, id, 'report.md'), 'utf8');
  assert.match(md, /1,000,000: host-limit/);
});
