/**
 * Progress that tells the truth (issue 30 item 8): the start costs a run adds to its load and
 * warm-up (src/plan/starts.ts), the ETA arithmetic and the start lines of the text subscriber
 * (src/pipeline/events.ts), and timedStart's pair of events.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterStart, runEtaS, startedLine, startingLine, textSubscriber, timedStart, type RunEvent } from '../../src/pipeline/events.ts';
import { START_COST_S, formatStarts, loadLeftS, plannedStarts, startsS, warmupsS } from '../../src/plan/starts.ts';
import { formatDuration, makePlan } from '../../src/plan/plan.ts';
import { resolveOptions } from '../../src/plan/profiles.ts';
import { TOY_STUDY } from '../fixtures/toy-study/study.ts';

const toyOptions = () => resolveOptions(TOY_STUDY, 'tiny', {});

test('runEtaS: the cells left, the running cell by its theory less its elapsed time (never below 0), warm-ups left, starts left at their costs', () => {
  const st = { cellsLeftS: 100, warmupsLeftS: 10, sutJvmsLeft: 2, postgresLeft: true };
  const starts = 2 * START_COST_S.sutJvm + START_COST_S.postgres;
  assert.equal(runEtaS(st), 100 + 10 + starts, 'between cells');
  assert.equal(runEtaS(st, 30, 10), 100 - 30 + 20 + 10 + starts, 'a cell of 30 s theory 10 s in');
  assert.equal(runEtaS(st, 30, 45), 100 - 30 + 0 + 10 + starts, 'a cell past its theory counts 0, not less');
  assert.equal(runEtaS({ cellsLeftS: 5, warmupsLeftS: 0, sutJvmsLeft: 0, postgresLeft: false }, 5, 1), 4, 'nothing to start: the load alone');
});

test('afterStart: a SUT JVM start takes one off (never below 0), the PostgreSQL start clears it, the build changes nothing left', () => {
  const st = { cellsLeftS: 1, warmupsLeftS: 0, sutJvmsLeft: 1, postgresLeft: true };
  assert.equal(afterStart(st, 'sut-jvm').sutJvmsLeft, 0);
  assert.equal(afterStart(afterStart(st, 'sut-jvm'), 'sut-jvm').sutJvmsLeft, 0);
  assert.equal(afterStart(st, 'postgres').postgresLeft, false);
  assert.deepEqual(afterStart(st, 'sut-build'), st);
});

test('plannedStarts: one SUT JVM per block still to measure, none with --sut-url; the build only for a local SUT; PostgreSQL only for a database scenario without --db-url', () => {
  const o = toyOptions();
  const plan = makePlan(o, TOY_STUDY);
  assert.equal(plan.blocks.length, 2);
  assert.deepEqual(plannedStarts(plan, TOY_STUDY, o, { ownDb: true, sutBuild: true }), { sutJvms: 2, postgres: false, sutBuild: true }, 'the toy study queries no database');
  const firstBlockDone = new Set(plan.blocks[0]!.cells.map((c) => c.cellId));
  assert.equal(plannedStarts(plan, TOY_STUDY, o, { done: firstBlockDone, ownDb: true, sutBuild: false }).sutJvms, 1, 'a block with every cell done starts no JVM');
  const external = { ...o, sutUrl: 'http://127.0.0.1:9' };
  assert.deepEqual(plannedStarts(plan, TOY_STUDY, external, { ownDb: true, sutBuild: true }), { sutJvms: 0, postgres: false, sutBuild: false });
  assert.equal(startsS({ sutJvms: 2, postgres: true, sutBuild: true }), 2 * START_COST_S.sutJvm + START_COST_S.postgres + START_COST_S.sutBuild);
  assert.equal(warmupsS(plan), plan.blocks.reduce((t, b) => t + (b.warmup?.theoreticalS ?? 0) + (b.aloneProbe?.theoreticalS ?? 0), 0));
  assert.equal(warmupsS(plan, new Set(plan.cells.map((c) => c.cellId))), 0, 'every cell done: no warm-up left');
});

test('formatStarts: the planned duration is the load and warm-up plus each start, each named with its cost', () => {
  const plan = makePlan(toyOptions(), TOY_STUDY);
  const line = formatStarts(plan, { sutJvms: 2, postgres: true, sutBuild: true });
  const total = plan.theoreticalS + 2 * START_COST_S.sutJvm + START_COST_S.postgres + START_COST_S.sutBuild;
  assert.equal(line, `  planned duration ≈ ${formatDuration(total)}: load and warm-up ${formatDuration(plan.theoreticalS)} + 2 SUT JVM blocks × ${START_COST_S.sutJvm} s (stop, start) + PostgreSQL start ${START_COST_S.postgres} s + the SUT build ${formatDuration(START_COST_S.sutBuild)} (sut/ changed since the last build)`);
  assert.equal(formatStarts(plan, { sutJvms: 0, postgres: false, sutBuild: false }), `  planned duration ≈ ${formatDuration(plan.theoreticalS)}: load and warm-up ${formatDuration(plan.theoreticalS)}, nothing to start here`);
});

test('formatStarts of a resumed run: what is still to run (its cells, their blocks\' warm-ups and starts), not the whole plan', () => {
  const plan = makePlan(toyOptions(), TOY_STUDY);
  const done = new Set(plan.blocks[0]!.cells.map((c) => c.cellId));
  const left = plan.blocks[1]!;
  const loadLeft = left.cells.reduce((t, c) => t + c.theoreticalS, 0) + (left.warmup?.theoreticalS ?? 0) + (left.aloneProbe?.theoreticalS ?? 0);
  assert.ok(loadLeft < plan.theoreticalS);
  assert.equal(formatStarts(plan, { sutJvms: 1, postgres: false, sutBuild: false }, done),
    `  planned duration left ≈ ${formatDuration(loadLeft + START_COST_S.sutJvm)}: load and warm-up still to run ${formatDuration(loadLeft)} + 1 SUT JVM block × ${START_COST_S.sutJvm} s (stop, start)`);
  assert.equal(formatStarts(plan, { sutJvms: 2, postgres: false, sutBuild: false }, new Set()), formatStarts(plan, { sutJvms: 2, postgres: false, sutBuild: false }), 'nothing done: the whole plan');
});

test('loadLeftS (a resumed dry run\'s plannedS): the whole plan with nothing done, the cells left and their blocks\' warm-ups after, 0 when all are done', () => {
  const plan = makePlan(toyOptions(), TOY_STUDY);
  assert.equal(loadLeftS(plan), plan.theoreticalS);
  const b1 = plan.blocks[1]!;
  const done = new Set(plan.blocks[0]!.cells.map((c) => c.cellId));
  assert.equal(loadLeftS(plan, done), b1.cells.reduce((t, c) => t + c.theoreticalS, 0) + (b1.warmup?.theoreticalS ?? 0) + (b1.aloneProbe?.theoreticalS ?? 0));
  assert.equal(loadLeftS(plan, new Set(plan.cells.map((c) => c.cellId))), 0);
});

test('the start lines: begun (with the expected cost for the build and PostgreSQL), then ready with the seconds it took', () => {
  assert.equal(startingLine({ type: 'starting', what: 'sut-build', expectedS: 120 }), 'building the SUT jar with Maven: sut/ changed since the last build (≈ 2 min 0 s with a filled Maven repository)');
  assert.equal(startedLine({ type: 'started', what: 'sut-build', elapsedS: 97.26 }), 'built the SUT jar in 97.3 s');
  assert.equal(startingLine({ type: 'starting', what: 'sut-jvm', id: 'vt-r1', expectedS: 18 }), '  starting the SUT JVM of block vt-r1');
  assert.equal(startedLine({ type: 'started', what: 'sut-jvm', id: 'vt-r1', elapsedS: 6.44 }), '  the SUT JVM of block vt-r1 ready after 6.4 s');
  assert.equal(startingLine({ type: 'starting', what: 'postgres', expectedS: 4 }), '  starting PostgreSQL for the database scenarios (≈ 4 s)');
  assert.equal(startedLine({ type: 'started', what: 'postgres', elapsedS: 3.3 }), '  PostgreSQL ready after 3.3 s');
});

test('timedStart emits starting then started with the elapsed seconds; a start that throws emits no started', async () => {
  const events: RunEvent[] = [];
  const r = await timedStart((e) => events.push(e), 'sut-jvm', 'b1', async () => { await sleep(120); return 7; });
  assert.equal(r, 7);
  assert.deepEqual(events.map((e) => e.type), ['starting', 'started']);
  assert.deepEqual(events[0], { type: 'starting', what: 'sut-jvm', id: 'b1', expectedS: START_COST_S.sutJvm });
  const started = events[1] as Extract<RunEvent, { type: 'started' }>;
  assert.ok(started.elapsedS >= 0.1 && started.elapsedS < 5, String(started.elapsedS));
  events.length = 0;
  await assert.rejects(timedStart((e) => events.push(e), 'postgres', undefined, async () => { throw new Error('no server'); }), /no server/);
  assert.deepEqual(events.map((e) => e.type), ['starting']);
});

/** A stream that says it is a terminal (cli-progress redraws on every update) and keeps what it got. */
function fakeTty(): { stream: NodeJS.WriteStream; text: () => string } {
  let out = '';
  const w = new Writable({ write(chunk, _enc, cb) { out += String(chunk); cb(); } }) as unknown as NodeJS.WriteStream;
  Object.assign(w, { isTTY: true, columns: 200, cursorTo: () => true, clearLine: () => true, moveCursor: () => true, clearScreenDown: () => true });
  return { stream: w, text: () => out };
}

test('the bar\'s run ETA counts the SUT JVMs, the PostgreSQL and the warm-ups still ahead, and drops each as it is done', () => {
  const plan = makePlan(toyOptions(), TOY_STUDY);
  const [b1, b2] = plan.blocks;
  const cellsS = plan.cells.reduce((t, c) => t + c.theoreticalS, 0);
  const extra = (b: typeof b1) => (b!.warmup?.theoreticalS ?? 0) + (b!.aloneProbe?.theoreticalS ?? 0);
  const { stream, text } = fakeTty();
  const emit = textSubscriber(stream, plan);
  emit({ type: 'plan', runId: 'r', runDir: '/tmp/r', study: 'toy', profile: 'tiny', scenario: 'sleep', variants: ['pool-2', 'vt'], totalRequests: plan.totalRequests, theoreticalS: plan.theoreticalS, remainingTheoreticalS: cellsS, remainingWarmupS: warmupsS(plan), remainingStarts: { sutJvms: 2, postgres: true }, cells: plan.cells.length, resumedCells: 0 });
  emit({ type: 'starting', what: 'postgres', expectedS: START_COST_S.postgres });
  emit({ type: 'started', what: 'postgres', elapsedS: 3.1 });
  emit({ type: 'block-start', blockId: b1!.blockId });
  emit({ type: 'starting', what: 'sut-jvm', id: b1!.blockId, expectedS: START_COST_S.sutJvm });
  emit({ type: 'started', what: 'sut-jvm', id: b1!.blockId, elapsedS: 6.2 });
  const first = b1!.cells[0]!;
  emit({ type: 'cell-start', cellId: first.cellId, requests: first.requests, theoreticalS: first.theoreticalS });
  emit({ type: 'cell-failed', cellId: first.cellId, cause: 'test' }); // stops the bar's timer
  // at the first cell's start: every cell, the second block's warm-up and its JVM are ahead; PostgreSQL and the first JVM are done
  const expected = cellsS + extra(b2) + START_COST_S.sutJvm;
  assert.match(text(), new RegExp(`run ETA ${formatDuration(expected)}`), text());
  assert.ok(expected > cellsS, 'the ETA is more than the load alone');
  assert.match(text(), /  starting PostgreSQL for the database scenarios \(≈ 4 s\)\n  PostgreSQL ready after 3\.1 s\n— JVM block pool-2-r1\n  starting the SUT JVM of block pool-2-r1\n  the SUT JVM of block pool-2-r1 ready after 6\.2 s\n/);
});
