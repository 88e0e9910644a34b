/**
 * Study 003 without processes: the plan gives every sweep level its own JVM block, the in-process
 * driver stores a failed level's outcome and refuses an answer of another shape, the job's URL
 * carries the level as its thread count, and the curve the knee rules read ends before a failed level.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makePlan } from '../../src/plan/plan.ts';
import { resolveOptions } from '../../src/plan/profiles.ts';
import { jobUrl } from '../../src/load/in-process.ts';
import { sweepProblem, VT_SWEEP_ANSWER, type VtSweepResult } from '../../src/studies/003/sweep.ts';
import { STUDY_003 } from '../../src/studies/003/index.ts';
import { curvePoints, knees, sweepLevels } from '../../src/studies/003/report.ts';
import type { CellResult } from '../../src/types/run.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const opts = (profile: string) => resolveOptions(STUDY_003, profile, {});

test('study 003 plan: one JVM block per level (freshJvmPerCell), cells named by level', () => {
  const o = opts('quick');
  const plan = makePlan(o, STUDY_003);
  assert.deepEqual(plan.blocks.map((b) => b.blockId), ['virtual-c10000-r1', 'virtual-c25000-r1', 'virtual-c50000-r1', 'virtual-c100000-r1']);
  assert.ok(plan.blocks.every((b) => b.cells.length === 1));
});

test('study 003 job: the level is the thread count, the window and L come from the options', () => {
  const o = opts('quick');
  const sc = STUDY_003.scenarios.find((s) => s.id === 'sleep-sweep')!;
  const job = sc.job!(o, STUDY_003.variants[0]!, 50_000);
  assert.equal(job.tasks, 50_000);
  const u = new URL(jobUrl('http://h:1', job));
  assert.equal(u.pathname, '/bench/job/vt-sweep');
  assert.equal(u.searchParams.get('threads'), '50000');
  assert.equal(u.searchParams.get('op'), 'sleep');
  assert.equal(u.searchParams.get('durationMs'), '10000');
  assert.equal(u.searchParams.get('sleepMs'), '1000');
  // the job's answer is the study's own, checked by the study's check
  assert.equal(job.answer, VT_SWEEP_ANSWER);
});

function answer(over: Partial<VtSweepResult>): VtSweepResult {
  return {
    job: 'vt-sweep', op: 'sleep', threads: 100, durationMs: 1000, sleepMs: 50, timeoutMs: 60_000, outcome: 'ok', reason: null,
    startedThreads: 100, startMs: 1, startRatePerS: 1e5, windowMs: 1050, completedOps: 2000, opsInWindow: 1900, throughputOpsPerS: 1904.8,
    latencyMeanMs: 50.5, latencyP50Ms: 50.2, latencyP99Ms: 52, latencyMaxMs: 53, latencySdMs: 0.5, overshootP50Ms: 0.2, overshootP99Ms: 2, overshootMaxMs: 3,
    jitterPct: 1, opErrors: 0, firstOpError: null, gcPauseMs: 0, gcPauseSharePct: 0, gcStartPhaseMs: 0, gcTimeByCollectorMs: {}, gcCountByCollector: {},
    heapUsedBeforeBytes: 1, heapUsedPeakBytes: 2, rssBeforeBytes: 1, rssPeakBytes: 2, heapPerThreadBytes: 1, rssPerThreadBytes: 1, availableProcessors: 2,
    maxFileDescriptors: 20_000, openFileDescriptorsBefore: 20, ephemeralPorts: 28_232, hostLimitThreads: null, sampleIntervalMs: 200, samples: [],
    ...over,
  };
}
const JOB = { path: '/bench/job/vt-sweep', tasks: 100, sleepMs: 50, timeoutMs: 60_000, answer: VT_SWEEP_ANSWER };

test('sweepProblem: an ok level and a host-limit level are stored; other shapes are failed requests', () => {
  assert.equal(sweepProblem(JOB, answer({})), null);
  assert.equal(sweepProblem(JOB, answer({ outcome: 'host-limit', startedThreads: 0, throughputOpsPerS: null, latencyP50Ms: null })), null);
  assert.match(sweepProblem(JOB, answer({ outcome: 'ok', throughputOpsPerS: null })) ?? '', /throughputOpsPerS/);
  assert.match(sweepProblem(JOB, answer({ threads: 99 })) ?? '', /99 threads/);
  assert.match(sweepProblem(JOB, { ...answer({}), outcome: 'crashed' }) ?? '', /outcome/);
  assert.match(sweepProblem(JOB, []) ?? '', /job/);
});

const cell = (level: number, s: VtSweepResult): CellResult => ({ concurrency: level, repeat: 1, sweep: s } as unknown as CellResult);

test('the curve ends before the first failed level; both knees read only the curve', () => {
  const cells = [
    cell(1000, answer({ threads: 1000, throughputOpsPerS: 1000 })),
    cell(2000, answer({ threads: 2000, throughputOpsPerS: 2000 })),
    cell(4000, answer({ threads: 4000, throughputOpsPerS: 2100 })),
    cell(8000, answer({ threads: 8000, outcome: 'oom', reason: 'java.lang.OutOfMemoryError: Java heap space', throughputOpsPerS: null, latencyP50Ms: null })),
    cell(16000, answer({ threads: 16000, throughputOpsPerS: 9999 })),
  ];
  const levels = sweepLevels(cells);
  assert.equal(levels[3]!.ok, false);
  assert.deepEqual(levels[3]!.reasons, ['java.lang.OutOfMemoryError: Java heap space']);
  const pts = curvePoints(levels);
  assert.deepEqual(pts.map((p) => p.threads), [1000, 2000, 4000]);
  const k = knees(pts);
  assert.equal(k.doubling.kneeThreads, 2000); // 2000 → 4000 gains 5 % per doubling
  assert.equal(k.doublingWithoutLast, null); // the knee's own step removed: nothing left to decide it
});

test('every sweep answer in the committed study 003 runs passes the study\'s own check (the schema now leaves the slot to the study)', () => {
  const runs = fileURLToPath(new URL('../../runs/', import.meta.url));
  let checked = 0;
  for (const run of readdirSync(runs).filter((r) => /-003-/.test(r))) {
    const dir = join(runs, run, 'cells');
    for (const f of readdirSync(dir).filter((n) => /^[^.]+-r\d+\.json$/.test(n))) {
      const c = JSON.parse(readFileSync(join(dir, f), 'utf8')) as { concurrency: number; sweep?: unknown };
      assert.equal(sweepProblem({ ...JOB, tasks: c.concurrency }, c.sweep), null, `${run}/${f}`);
      checked++;
    }
  }
  assert.ok(checked >= 20, `read ${checked} committed sweep cells`);
});
