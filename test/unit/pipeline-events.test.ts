/**
 * The text progress subscriber refreshes elapsed time and the run ETA without progress events (an
 * in-process job reports only when it ends), and stops its timer when the cell ends.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { textSubscriber } from '../../src/pipeline/events.ts';
import type { Plan } from '../../src/plan/plan.ts';

/** A stream that says it is a terminal, so cli-progress redraws on every update, and keeps what it got. */
function fakeTty(): { stream: NodeJS.WriteStream; text: () => string } {
  let out = '';
  const w = new Writable({ write(chunk, _enc, cb) { out += String(chunk); cb(); } }) as unknown as NodeJS.WriteStream;
  Object.assign(w, { isTTY: true, columns: 200, cursorTo: () => true, clearLine: () => true, moveCursor: () => true, clearScreenDown: () => true });
  return { stream: w, text: () => out };
}

test('a cell without progress events still shows its elapsed time growing, and the timer ends with the cell', async () => {
  const { stream, text } = fakeTty();
  const plan = { cells: [{ cellId: 'platform-c1-r1', theoreticalS: 625 }], blocks: [] } as unknown as Plan;
  const emit = textSubscriber(stream, plan);
  emit({ type: 'plan', runId: 'r', runDir: '/tmp/r', study: '004', profile: 'p', scenario: 's', variants: ['platform'], totalRequests: 1, theoreticalS: 625, remainingTheoreticalS: 625, remainingWarmupS: 0, remainingStarts: { sutJvms: 0, postgres: false }, cells: 1, resumedCells: 0 });
  emit({ type: 'cell-start', cellId: 'platform-c1-r1', requests: 100000, theoreticalS: 625 });
  try {
    await sleep(2300);
    assert.match(text(), /\| 2 s \| run ETA 10 min 2[23] s/, text().slice(-400));
  } finally {
    emit({ type: 'cell-failed', cellId: 'platform-c1-r1', cause: 'test' }); // stops cli-progress's redraw timer
  }
  const after = text().length;
  await sleep(1200);
  assert.equal(text().length, after, 'nothing is drawn after the cell ended');
});

test('an in-process cell ends with its job line (makespan against theory), not a throughput line', () => {
  const { stream, text } = fakeTty();
  const plan = { cells: [{ cellId: 'platform-c1-r1', theoreticalS: 625 }], blocks: [] } as unknown as Plan;
  const emit = textSubscriber(stream, plan);
  emit({ type: 'cell-start', cellId: 'platform-c1-r1', requests: 100000, theoreticalS: 625 });
  const summary = { count: 1, ok: 1, wholeRunThroughputRps: 0.0016, steadyStateThroughputRps: null, e2eMs: { p95: 628180 } } as never;
  emit({ type: 'cell-end', cellId: 'platform-c1-r1', summary, boundRps: 20, flags: [], durationMs: 628_200, job: { completed: 100000, tasks: 100000, makespanMs: 628_180, submitMs: 41.5, theoreticalS: 625 } });
  assert.match(text(), /job: 100000\/100000 tasks, makespan 628\.18 s \(theory 625\.00 s\), submitting 0\.04 s/);
  assert.doesNotMatch(text(), /whole-run/);
});

test('a cell whose driver counts no requests (a job, held connections): its bar moves with the clock against the theory, and ends full', async () => {
  const { stream, text } = fakeTty();
  const plan = { cells: [{ cellId: 'virtual-c200-r1', theoreticalS: 4 }], blocks: [] } as unknown as Plan;
  const emit = textSubscriber(stream, plan);
  emit({ type: 'cell-start', cellId: 'virtual-c200-r1', requests: 200, theoreticalS: 4, counted: false });
  try {
    await sleep(2300);
    assert.match(text(), /█{12}░{12} 2 s of ≈ 4 s \(no per-request count\) \| run ETA/, text().slice(-400));
    assert.doesNotMatch(text(), /0\/200 req/);
  } finally {
    emit({ type: 'cell-end', cellId: 'virtual-c200-r1', summary: { count: 1, ok: 1, wholeRunThroughputRps: 1, steadyStateThroughputRps: null } as never, boundRps: 1, flags: [], durationMs: 2300, answerLine: 'sweep: 200 threads' });
  }
  assert.match(text(), /█{24} \d+ s of ≈ 4 s \(no per-request count\)/, 'the ended cell shows its whole theory done');
});

test('driverCounts: the closed and open loops count requests as they go; a job and held connections do not', async () => {
  const { driverCounts } = await import('../../src/pipeline/run.ts');
  const { DRIVERS } = await import('../../src/load/driver.ts');
  assert.deepEqual(Object.fromEntries(Object.values(DRIVERS).map((d) => [d.kind, driverCounts(d)])), { 'closed-loop-http': true, 'open-loop-http': true, 'in-process': false, websocket: false });
});
