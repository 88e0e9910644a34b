/**
 * The cell's mid-load thread dump (src/pipeline/thread-dump-schedule.ts): cancelled before its time it
 * resolves null at once and is never asked for; asked for, it is awaited even when cancelled; the wait
 * after the load is bounded; nothing leaves a timer behind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { awaitDump, scheduleDump } from '../../src/pipeline/thread-dump-schedule.ts';

/** How many timers this process holds now (Node's active resources of type Timeout). */
const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

/** A sentinel that `p` has not settled by the next macrotask. */
const NOT_YET = Symbol('not yet');
const settledNow = <T>(p: Promise<T>): Promise<T | typeof NOT_YET> => Promise.race([p, new Promise<typeof NOT_YET>((r) => setImmediate(() => r(NOT_YET)))]);

test('cancel() before the dump\'s time: taken is null at once, its timer is gone, and the dump is never asked for', async () => {
  const before = timers();
  let asked = 0;
  const d = scheduleDump(async () => { asked++; return 'dump'; }, Date.now(), 50);
  assert.equal(timers(), before + 1, 'the dump\'s timer');
  d.cancel();
  assert.equal(await settledNow(d.taken), null);
  assert.equal(timers(), before, 'no timer left');
  await sleep(100); // past the dump's time
  assert.equal(asked, 0);
});

test('a dump asked for before cancel() is still awaited: taken is the dump with when it was asked for', async () => {
  let answer: (raw: string) => void = () => {};
  let asked = 0;
  const wallStart = Date.now();
  const d = scheduleDump(() => { asked++; return new Promise<string>((r) => (answer = r)); }, wallStart, 20);
  while (asked === 0 && Date.now() - wallStart < 5_000) await sleep(5);
  const askedBy = Date.now() - wallStart;
  assert.equal(asked, 1);
  d.cancel(); // the load ended while the SUT was writing the dump
  assert.equal(await settledNow(d.taken), NOT_YET, 'cancel does not drop a dump being taken');
  answer('the dump');
  const got = await d.taken;
  assert.equal(got?.raw, 'the dump');
  // a timer of 20 ms may fire 1 ms early by Date.now() (timers run on the monotonic clock; Date.now() rounds to whole ms): 19 was seen in CI
  assert.ok(got!.atMs >= 19 && got!.atMs <= askedBy, `asked for ${got!.atMs} ms after the wall start (seen asked by ${askedBy} ms)`);
});

test('a dump that fails resolves null, not a rejection', async () => {
  const d = scheduleDump(async () => { throw new Error('no dump'); }, Date.now(), 1);
  assert.equal(await d.taken, null);
});

test('awaitDump: the dump when it comes in time, and then no timer of its limit is left; null after the limit', async () => {
  const before = timers();
  const fast = scheduleDump(async () => 'dump', Date.now(), 1);
  const got = await awaitDump(fast, 60_000);
  assert.equal(got?.raw, 'dump');
  assert.equal(timers(), before, 'the 60 s limit was cleared once the dump was in');

  const slow = scheduleDump(() => new Promise<string>(() => {}), Date.now(), 1); // a SUT that never answers
  const t0 = Date.now();
  assert.equal(await awaitDump(slow, 50), null);
  assert.ok(Date.now() - t0 < 1_000);
  assert.equal(timers(), before, 'no timer left after the limit');

  const cancelled = scheduleDump(async () => 'dump', Date.now(), 60_000);
  cancelled.cancel();
  const t1 = Date.now();
  assert.equal(await awaitDump(cancelled, 60_000), null);
  assert.ok(Date.now() - t1 < 1_000, 'a cancelled dump is not waited for');
  assert.equal(timers(), before);
});
