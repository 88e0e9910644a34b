/**
 * The mid-load thread dump of a cell (src/pipeline/run.ts runCell, src/pipeline/thread-dump-schedule.ts)
 * when the load ends before the dump's time: the dump is cancelled as soon as the driver's run settles,
 * not after the liveness watch has stopped (which waits out a probe round in progress). Otherwise a
 * dump of the drained SUT would be taken during that wait and stored as the mid-load dump.
 * Through executePlan with the fake run's components (test/fixtures/fake-run.ts): no JVM.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { executePlan, type RunContext, type RunDeps } from '../../src/pipeline/run.ts';
import { ChildRegistry } from '../../src/adapters/process/children.ts';
import { resolveOptions } from '../../src/plan/profiles.ts';
import { makePlan } from '../../src/plan/plan.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { STUDY_000 } from '../../src/studies/000/index.ts';
import { fakeRunDeps, startInProcessSut, runningManifest } from '../fixtures/fake-run.ts';

test('a cell whose load ends before the dump\'s midpoint takes no thread dump, even when the midpoint passes while a slow liveness probe round finishes; and it does not wait 10 s for one', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-dump-'));
  const front = await startInProcessSut({ latencyMs: 1 });
  try {
    // one cell of 2 workers × 5 requests at a planned 400 ms each: planned 2 s, dump midpoint 1 s;
    // the stand-in SUT answers in 1 ms, so the load ends within a few hundred ms
    const options = resolveOptions(STUDY_000, 'smoke', { warmupS: '0', levels: '2', requestsPerWorker: '5', latencyMs: '400', variants: 'fixed' });
    const plan = makePlan(options, STUDY_000);
    assert.deepEqual(plan.cells.map((c) => [c.concurrency, c.theoreticalS]), [[2, 2]], 'the plan this test is built on');
    const store = new RunStore(join(dir, 'run'));
    store.init();
    const manifest = runningManifest('dump-test', options, plan);
    store.writeManifest(manifest);
    const dumpsAsked: number[] = [];
    let wallStart = 0;
    const base = fakeRunDeps({ sut: front.url, getThreadDump: async () => { dumpsAsked.push(Date.now() - wallStart); return '"main" #1 prio=5\n   java.lang.Thread.State: RUNNABLE\n'; } });
    // every SUT health probe takes 1.5 s: the watch's round in progress when the load ends lasts past the 1 s midpoint
    const deps: RunDeps = {
      ...base,
      startSut: async (s) => ({ ...(await base.startSut(s)), probe: async () => { await sleep(1_500); return true; } }),
      resetMockStats: async () => { wallStart = Date.now(); return null; },
    };
    const children = new ChildRegistry(null);
    const ctx: RunContext = {
      study: STUDY_000, options, plan, store, manifest, deps, emit: () => {}, signal: new AbortController().signal, children,
      liveness: { intervalMs: 10, probeTimeoutMs: 5_000, failuresToDeath: 2 },
    };
    await executePlan(ctx);
    const [cell] = store.readDoneCells(manifest.cellOrder);
    assert.ok(cell, 'the cell was written');
    assert.ok(cell.load.ok > 0);
    const req = store.readRequests(cell.cellId);
    const lastEnd = cell.t0EpochMs - wallStart + Math.max(...req.startMs.map((s, i) => s + req.e2eMs[i]!));
    assert.ok(lastEnd < 1_000, `the load ended ${lastEnd} ms after the cell's start, before the dump's midpoint (1000 ms)`);
    assert.deepEqual(dumpsAsked, [], 'no dump was asked for after the load had ended');
    assert.equal(cell.threadDump, null);
    assert.ok(cell.durationMs < 10_000, `the cell took ${cell.durationMs} ms: it did not wait out the 10 s dump limit`);
  } finally {
    await front.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
