import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { answerWindowOf, GcTrace, gcLateShareOf, gcLineOf, limitsOf, queueLateShareOf, saturated, type HeldRound, type Meters } from '../../bench/mock.ts';

// lines printed by `node --trace-gc` (Node 20.20.2) on this host during a bench:mock run
const SCAVENGE = '[24924:0x107c8090]       87 ms: Scavenge 4.6 (4.7) -> 4.2 (5.7) MB, 2.36 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ';
const MARK_COMPACT =
  '[24936:0xbde4090]     5605 ms: Mark-Compact 40.8 (69.8) -> 30.4 (72.6) MB, 5.29 / 0.01 ms  (+ 13.5 ms in 102 steps since start of marking, biggest step 1.1 ms, walltime since start of marking 54 ms) (average mu = 0.996, current mu = 0.996) finalize incremental marking via task; GC in old space requested';
const MARK_COMPACT_BIG_STEP =
  '[24924:0x107c8090]     1097 ms: Mark-Compact 13.8 (28.8) -> 11.0 (30.1) MB, 10.00 / 0.02 ms  (+ 11.4 ms in 17 steps since start of marking, biggest step 10.2 ms, walltime since start of marking 31 ms) (average mu = 1.000, current mu = 1.000) finalize incremental marking via task; GC in old space requested';
const REDUCE =
  '[24936:0x7f48ec000f00]     8187 ms: Mark-Compact (reduce) 7.7 (15.6) -> 5.8 (8.6) MB, 7.14 / 0.02 ms  (+ 8.6 ms in 25 steps since start of marking, biggest step 5.6 ms, walltime since start of marking 19 ms) (average mu = 1.000, current mu = 1.000) finalize incremental marking via task; GC in old space requested';
// bench/lib/gc-probe.cjs's forced GC and its epoch line, then two scavenges of the same (main) isolate
// (`node --trace-gc --require bench/lib/gc-probe.cjs`, Node 20.20.2, this host)
const PROBE_FORCED = '[30477:0x38800fb0]      111 ms: Mark-Compact 3.5 (4.2) -> 2.9 (5.5) MB, 9.38 / 0.00 ms  (average mu = 1.000, current mu = 1.000) testing; GC in old space requested';
const PROBE_EPOCH = 'vtbench-gc-probe epochMs=1796147398015';
const MAIN_1 = '[30477:0x38800fb0]      131 ms: Scavenge 4.3 (5.5) -> 4.0 (5.5) MB, 2.02 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ';
const MAIN_2 = '[30477:0x38800fb0]      136 ms: Scavenge 4.7 (5.9) -> 4.4 (6.2) MB, 3.21 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ';
// the same process's module-loader worker thread (tsx), another isolate
const WORKER = '[30477:0x7f1de4000f00]      133 ms: Mark-Compact (reduce) 5.8 (8.6) -> 5.8 (7.3) MB, 40.27 / 0.00 ms  (+ 2.3 ms in 19 steps since start of marking, biggest step 0.3 ms, walltime since start of marking 60 ms) (average mu = 0.936, current mu = 0.936) finalize incremental marking via task; GC in old space requested';

describe('bench:mock helpers', () => {
  test('gcLineOf: a scavenge is its pause, with its isolate and time since the isolate started', () => {
    assert.deepEqual(gcLineOf(SCAVENGE), { isolate: '0x107c8090', sinceStartMs: 87, totalMs: 2.36, longestMs: 2.36, forced: false });
    assert.equal(gcLineOf(PROBE_FORCED)?.forced, true, 'gc() gives the reason `testing`');
  });

  test('gcPauseMsOf: a major GC adds its incremental marking steps; the longest stop is the pause or the biggest step', () => {
    const a = gcLineOf(MARK_COMPACT)!;
    assert.ok(Math.abs(a.totalMs - 18.79) < 1e-9);
    assert.equal(a.longestMs, 5.29);
    const b = gcLineOf(MARK_COMPACT_BIG_STEP)!;
    assert.ok(Math.abs(b.totalMs - 21.4) < 1e-9);
    assert.equal(b.longestMs, 10.2, 'a marking step longer than the final pause');
    assert.equal(gcLineOf(REDUCE)!.longestMs, 7.14);
  });

  test('gcLineOf: other lines are not GC', () => {
    assert.equal(gcLineOf('vtbench-mock listening on http://127.0.0.1:44197 pid=24924'), null);
    assert.equal(gcLineOf(PROBE_EPOCH), null);
    assert.equal(gcLineOf(''), null);
  });

  test('GcTrace: only the main isolate (the forced GC) counts, placed on the wall clock by the probe', () => {
    const epoch = 1796147398015; // the probe's Date.now() right after the forced GC, printed at 111 ms
    for (const order of [[PROBE_FORCED, PROBE_EPOCH], [PROBE_EPOCH, PROBE_FORCED]]) {
      const t = new GcTrace();
      for (const line of [...order, MAIN_1, WORKER, MAIN_2, 'plain-fastify listening on http://127.0.0.1:1 pid=1']) t.see(line);
      const all = t.stopsBetween(epoch, epoch + 1000);
      assert.deepEqual(all, [
        { endEpochMs: epoch + 20, longestMs: 2.02, totalMs: 2.02 },
        { endEpochMs: epoch + 25, longestMs: 3.21, totalMs: 3.21 },
      ], 'the worker thread\'s 40 ms collection does not stop the main thread; the forced GC is not counted');
      assert.deepEqual(t.stopsBetween(epoch + 21, epoch + 1000).map((g) => g.longestMs), [3.21], 'only stops that ended in the window');
    }
    const none = new GcTrace();
    none.see(MAIN_1);
    assert.throws(() => none.stopsBetween(0, Infinity), /gc-probe/);
  });

  test('gcLateShareOf: each stop holds back the answers due in its first (L - target) ms', () => {
    assert.equal(gcLateShareOf([30, 3, 5], 5, 900), 25 / 900);
    assert.equal(gcLateShareOf([], 5, 900), 0);
    assert.equal(gcLateShareOf([2000], 5, 900), 1, 'capped at every answer');
    assert.equal(gcLateShareOf([30], 5, 0), null, 'all due at once: no spread to share');
  });

  test('queueLateShareOf: the fluid queue a stop leaves drains at 1 − rho; stops in a queue add up; none before the window', () => {
    const stop = (endMs: number, longestMs: number) => ({ endMs, longestMs, totalMs: longestMs });
    // window 1000..1900 ms (900 ms of answers), target 5 ms; the grid is 0.05 ms, so allow a few steps
    const near = (got: number | null, ms: number, why: string) => assert.ok(got !== null && Math.abs(got * 900 - ms) <= 0.3, `${why}: ${got === null ? null : (got * 900).toFixed(2)} ms of answers late, expected ${ms}`);
    near(queueLateShareOf([stop(1100, 25)], 5, 1000, 900, 0), 20, 'rho 0: the answers due in the stop\'s first g − target ms');
    near(queueLateShareOf([stop(1100, 25)], 5, 1000, 900, 0.5), 40, 'half the thread busy answering: (g − target) / (1 − rho)');
    near(queueLateShareOf([stop(1100, 25)], 5, 1000, 900, 0.75), 80, 'three quarters: four times the stop\'s excess');
    assert.equal(queueLateShareOf([stop(1100, 4), stop(1300, 3)], 5, 1000, 900, 0.5), 0, 'stops shorter than the target make none late');
    // A [1075, 1100] leaves 12.5 ms of work; 5 ms of service, then B [1105, 1115] adds 5 more: the
    // queue is 15 ms at 1115 and drains to 5 ms at 1135, so every answer due in [1075, 1135) is late
    // (the two stops alone, drained separately, would give [1075, 1115) and [1105, 1115): 40 ms)
    near(queueLateShareOf([stop(1100, 25), stop(1115, 10)], 5, 1000, 900, 0.5), 60, 'a stop in another\'s queue adds to it');
    assert.equal(queueLateShareOf([stop(980, 25)], 5, 1000, 900, 0.9), 0, 'a stop before the first answer falls due leaves no queue');
    near(queueLateShareOf([stop(1015, 25)], 5, 1000, 900, 0.5), 20, 'a stop straddling the window: only its 15 ms inside hold answers (15 − 0.5x > 5 for x < 20)');
    near(queueLateShareOf([stop(1500, 10)], 5, 1000, 900, 1), 410, 'rho 1: the 10 ms queue never drains, so every answer from the stop on is late');
    assert.equal(queueLateShareOf([], 5, 1000, 900, 0.5), 0, 'no stop: nothing late');
    assert.equal(queueLateShareOf([stop(1100, 25)], 5, 1000, 0, 0.5), null, 'all due at once');
  });

  test('answerWindowOf: shares from the two meters (schedstat ns, else ticks), GC time taken away for the answering; null without both or without /proc', () => {
    const m = (atMs: number, user: number, system: number, hostMs: number, clientMs: number, runMs: number | null, waitMs = 0): Meters => ({
      atMs,
      server: { user, system },
      sched: runMs === null ? null : { runNs: runMs * 1e6, waitNs: waitMs * 1e6 },
      hostMs,
      clientMs,
    });
    // 480 ms on the CPU over 900 ms, 30 ms of it a GC that ended in the window (one that ended before does not count)
    const stops = [{ endMs: 1100, longestMs: 25, totalMs: 30 }, { endMs: 950, longestMs: 40, totalMs: 50 }];
    const w = answerWindowOf([m(1000, 200, 100, 5000, 50, 7000, 10), m(1900, 500, 280, 6080, 500, 7480, 40)], stops, 1000, 900)!;
    assert.equal(w.wallMs, 900);
    assert.ok(Math.abs(w.serverCpuShare - 480 / 900) < 1e-12);
    assert.ok(Math.abs(w.answeringShare - 450 / 900) < 1e-12);
    assert.ok(Math.abs(w.serverSystemShare! - 180 / 480) < 1e-12);
    assert.ok(Math.abs(w.runQueueWaitMs! - 30) < 1e-9);
    assert.ok(Math.abs(w.hostBusyCores - 1.2) < 1e-12);
    assert.ok(Math.abs(w.clientCores - 0.5) < 1e-12);
    // the 25 ms stop [1075, 1100] at the answering's rho 0.5: (25 − 5) / (1 − 0.5) = 40 ms of answers
    assert.ok(Math.abs(w.queueLateShareEstimate! * 900 - 40) <= 0.3, `queue estimate ${w.queueLateShareEstimate! * 900} ms`);
    const ticks = answerWindowOf([m(1000, 200, 100, 5000, 50, null), m(1900, 500, 280, 6080, 500, null)], stops, 1000, 900)!;
    assert.ok(Math.abs(ticks.serverCpuShare - 480 / 900) < 1e-12, 'without schedstat: stat\'s ticks');
    assert.equal(ticks.runQueueWaitMs, null);
    assert.equal(answerWindowOf([m(1000, 0, 0, 0, 0, 0)], [], 1000, 900), null, 'the second edge was never read');
    assert.equal(answerWindowOf([{ ...m(1000, 0, 0, 0, 0, 0), server: null }, m(1900, 1, 1, 1, 1, 1)], [], 1000, 900), null, 'no /proc');
    assert.equal(answerWindowOf([m(1000, 0, 0, 0, 0, null), m(1900, 0, 0, 900, 0, null)], [], 1000, 900)!.serverSystemShare, null, 'no CPU ticks: no kernel share');
  });

  test('plain-fastify reference: keeps a lateness sample per answer, measured as the mock measures it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plain-fastify-'));
    const bodyFile = join(dir, 'answer.json');
    writeFileSync(bodyFile, '{"ok":true}');
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/plain-fastify.ts', '--latency-ms', '60', '--body-file', bodyFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => {
          const m = /listening on (http:\/\/\S+)/.exec(d.toString());
          if (m?.[1]) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`plain-fastify exited with ${code}`)));
      });
      const chat = async () => {
        const r = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
        assert.equal(await r.text(), '{"ok":true}');
      };
      await chat();
      await (await fetch(`${url}/lateness/reset`, { method: 'POST' })).text();
      const t0 = performance.now();
      await Promise.all([chat(), chat(), chat()]);
      const wall = performance.now() - t0;
      const lateness = (await (await fetch(`${url}/lateness`)).json()) as number[];
      assert.equal(lateness.length, 3, 'the answer before the reset is forgotten');
      for (const l of lateness) {
        assert.ok(l > -2, `a Node timer fires at most about a millisecond before its hrtime target (got ${l} ms)`);
        assert.ok(l < wall - 60 + 1, `lateness ${l} ms fits in the client's wall time ${wall} ms less the 60 ms delay`);
      }
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('limitsOf: names the saturated host, the GC stops over 1% and a busy server; nothing when none applied', () => {
    const round = (p: Partial<HeldRound>) =>
      ({ hostBusyCores: 1.2, serverCpuShare: 0.5, peakInFlight: 10_000, gcAnswerWindow: { count: 0, totalMs: 0, maxMs: 0, lateShareLowerBound: 0 }, ...p }) as HeldRound;
    const o = { latencyMs: 1000, rampMs: 900, n: 10_000 };
    assert.deepEqual(limitsOf([round({})], 2, o), []);
    const gc = limitsOf([round({ gcAnswerWindow: { count: 3, totalMs: 60, maxMs: 30, lateShareLowerBound: 0.05 } }), round({})], 2, o);
    assert.equal(gc.length, 1);
    assert.match(gc[0]!, /in 1 of 2 round\(s\).*longest 30\.0 ms, ≥ 5\.0% of answers.*below 9 ms/);
    assert.match(limitsOf([round({ hostBusyCores: 1.95 })], 2, o)[0]!, /host CPU saturated in 1 of 1/);
    assert.match(limitsOf([round({ serverCpuShare: 0.95 })], 2, o)[0]!, /90% of one core/);
    assert.match(limitsOf([round({ peakInFlight: 9936 })], 2, o)[0]!, /not all 10000 requests were held at once in 1 of 1 round\(s\) \(peak 9936\)/);
    assert.deepEqual(limitsOf([round({ peakInFlight: null })], 2, o), [], 'the reference keeps no peak');
    const win = (p: Partial<NonNullable<HeldRound['answerWindow']>>) => ({ wallMs: 900, serverCpuShare: 0.5, answeringShare: 0.45, serverSystemShare: 0.4, runQueueWaitMs: 2, hostBusyCores: 1.2, clientCores: 0.5, queueLateShareEstimate: 0.005, ...p });
    assert.deepEqual(limitsOf([round({ answerWindow: win({}) })], 2, o), [], 'a window under both limits adds none');
    const q = limitsOf([round({ answerWindow: win({ answeringShare: 0.47, queueLateShareEstimate: 0.022 }) })], 2, o);
    assert.equal(q.length, 1);
    assert.match(q[0]!, /queue the GC stops leave.*11111 answers\/s.*in 1 of 1 round\(s\) \(answering 47% of the main thread, estimate 2\.2% of answers/);
    assert.match(limitsOf([round({ answerWindow: win({ hostBusyCores: 1.85, clientCores: 0.7 }) })], 2, o)[0]!, /saturated in the answer window in 1 of 1 round\(s\) \(1\.85 of 2 cores busy; this client 0\.70\)/);
    assert.equal(limitsOf([round({ hostBusyCores: 1.9, answerWindow: win({ hostBusyCores: 1.9 }) })], 2, o).length, 1, 'a round saturated over the whole held round is named once');
    const waited = limitsOf([round({ answerWindow: win({ runQueueWaitMs: 63 }) }), round({ answerWindow: win({ runQueueWaitMs: 8.9 }) })], 2, o);
    assert.equal(waited.length, 1, '8.9 ms of 900 is under 1%');
    assert.match(waited[0]!, /waited for a CPU in the answer window in 1 of 2 round\(s\) \(63 ms, 7\.0% of it; host 1\.20 cores busy, this client 0\.50/);
    assert.deepEqual(limitsOf([round({ answerWindow: win({ runQueueWaitMs: null }) })], 2, o), [], 'no schedstat: no such limit');
  });

  test('saturated: from 90% of the cores busy, and not without /proc', () => {
    const r = (hostBusyCores: number | null) => ({ hostBusyCores }) as HeldRound;
    assert.equal(saturated(r(1.8), 2), true);
    assert.equal(saturated(r(1.79), 2), false);
    assert.equal(saturated(r(null), 2), false);
  });
});
