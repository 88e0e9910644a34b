/**
 * The mock's fast answer path (issue 20) against fastify's own: the same raw HTTP bytes as a plain
 * fastify route that returns `completionBody(...)` (Date and `created` masked), and the timing
 * wheel that replaced the per-request timers (never early, one timer per millisecond bucket).
 * Real servers on port 0.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import Fastify from 'fastify';
import { startMock } from '../../mock/src/server.ts';
import { planCompletion, type ChatMessage } from '../../mock/src/completion.ts';
import { completionBody, completionJson, completionJsonBytes, prepareCompletion } from '../../mock/src/openai.ts';
import { DueQueue, type DueClock } from '../../mock/src/due-queue.ts';

/** Sends `raw` on a fresh connection and returns what came back within `waitMs` (latin1), Date and created masked. */
function exchange(port: number, raw: string, waitMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    let out = '';
    s.on('data', (d: Buffer) => (out += d.toString('latin1')));
    s.on('error', reject);
    s.write(raw);
    setTimeout(() => {
      s.destroy();
      resolve(out.replace(/\r\nDate: [^\r]*\r\n/, '\r\nDate: X\r\n').replace(/"created":\d+/g, '"created":X'));
    }, waitMs);
  });
}

const post = (body: string) =>
  `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

const BODIES = [
  { model: 'm1', messages: [{ role: 'user', content: 'héllo — ünïcode ✓' }] },
  { messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: [{ type: 'text', text: 'parts' }] }], max_tokens: 3 },
  { model: 'quote"and\\backslash', messages: [{ role: 'user', content: 'x' }], max_completion_tokens: 40 },
];

describe('mock wire format (fast path)', () => {
  test('non-stream answers are byte-identical to fastify reply.send(completionBody(...))', async () => {
    const mock = await startMock({ latencyMs: 5, completionTokens: 16 });
    const ref = Fastify({ keepAliveTimeout: mock.config.keepAliveTimeoutMs });
    let seq = 0;
    ref.post('/v1/chat/completions', async (req) => {
      const b = req.body as { model?: string; messages: ChatMessage[]; max_tokens?: number; max_completion_tokens?: number };
      const model = b.model ?? mock.config.model;
      const id = `chatcmpl-mock${(seq++).toString(16).padStart(12, '0')}`;
      return completionBody(id, Math.floor(Date.now() / 1000), model, planCompletion(model, b.messages, 16, b.max_completion_tokens ?? b.max_tokens));
    });
    await ref.listen({ port: 0, host: '127.0.0.1' });
    const refPort = (ref.server.address() as net.AddressInfo).port;
    try {
      for (const b of BODIES) {
        const raw = post(JSON.stringify(b));
        const [got, want] = await Promise.all([exchange(mock.port, raw, 150), exchange(refPort, raw, 150)]);
        assert.match(want, /^HTTP\/1\.1 200 OK\r\n/);
        assert.equal(got, want);
      }
    } finally {
      await ref.close();
      await mock.close();
    }
  });

  test('completionJson is JSON.stringify(completionBody) and completionJsonBytes its UTF-8 length', () => {
    for (const b of BODIES) {
      const model = b.model ?? 'vtbench-mock';
      const plan = planCompletion(model, b.messages, 16, b.max_tokens);
      const p = prepareCompletion(model, plan);
      for (const [id, created] of [['chatcmpl-mock000000000000', 0], ['chatcmpl-mock0000000abcdef', 1764547200]] as const) {
        const want = JSON.stringify(completionBody(id, created, model, plan));
        assert.equal(completionJson(id, created, p), want);
        assert.equal(completionJsonBytes(id, created, p), Buffer.byteLength(want));
      }
    }
  });
});

/** A hand-driven clock: `advance` moves time and fires the timers that are due, in order. */
function manualClock(start: number): DueClock & { advance(toMs: number): void; jump(toMs: number): void; timers: { at: number; fn: () => void }[] } {
  let now = start;
  const timers: { at: number; fn: () => void }[] = [];
  return {
    timers,
    now: () => now,
    setTimer: (fn, delayMs) => void timers.push({ at: now + delayMs, fn }),
    advance(toMs: number) {
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const t = timers[0];
        if (t === undefined || t.at > toMs) break;
        timers.shift();
        now = Math.max(now, t.at);
        t.fn();
      }
      now = toMs;
    },
    /** moves time without firing timers (the loop is busy elsewhere, e.g. reading a burst of arrivals) */
    jump(toMs: number) {
      now = toMs;
    },
  };
}

describe('DueQueue (timing wheel)', () => {
  test('items due in the same millisecond share one timer and run in the order added', () => {
    const clock = manualClock(100);
    const q = new DueQueue(clock);
    const ran: string[] = [];
    for (const [name, due] of [['a', 110.2], ['b', 110.9], ['c', 110.5], ['d', 112]] as const) q.add({ dueMs: due, run: () => ran.push(name) });
    assert.equal(q.timersStarted, 2); // buckets 111 and 112
    assert.equal(q.size, 4);
    clock.advance(111);
    assert.deepEqual(ran, ['a', 'b', 'c']);
    clock.advance(112);
    assert.deepEqual(ran, ['a', 'b', 'c', 'd']);
    assert.equal(q.size, 0);
  });

  test('a timer that fires early never runs an item before its due instant', () => {
    // a Node timer can fire before its hrtime target (libuv's cached loop time): here the bucket's
    // timer fires at 110.4 for items due at 110.3 and 110.8
    let now = 100;
    const timers: (() => void)[] = [];
    const q = new DueQueue({ now: () => now, setTimer: (fn) => void timers.push(fn) });
    const ranAt: Record<string, number> = {};
    q.add({ dueMs: 110.3, run: (t) => (ranAt.early = t) });
    q.add({ dueMs: 110.8, run: (t) => (ranAt.late = t) });
    now = 110.4;
    timers.shift()!();
    assert.deepEqual(ranAt, { early: 110.4 });
    assert.equal(q.size, 1);
    assert.equal(timers.length, 1, 'the not-yet-due item waits on a fresh timer');
    now = 111;
    timers.shift()!();
    assert.deepEqual(ranAt, { early: 110.4, late: 111 });
  });

  test('runDue runs the buckets whose millisecond has passed, in tick order, and nothing early', () => {
    const clock = manualClock(100);
    const q = new DueQueue(clock);
    const ran: string[] = [];
    // added out of order: the heap, not the insertion order, decides
    for (const [name, due] of [['c', 113.5], ['a', 110.2], ['b', 111.7], ['d', 114.1]] as const) q.add({ dueMs: due, run: () => ran.push(name) });
    q.runDue();
    assert.deepEqual(ran, [], 'nothing due at 100');
    clock.jump(113.6); // no timer fires: the loop is busy reading a burst of arrivals
    q.runDue();
    assert.deepEqual(ran, ['a', 'b'], 'buckets 111 and 112 passed; bucket 114 holds c (113.5) and is not over');
    assert.equal(q.size, 2);
    clock.advance(120); // the drained buckets' timers find nothing; the rest run once
    assert.deepEqual(ran, ['a', 'b', 'c', 'd']);
    assert.equal(q.size, 0);
  });

  test('runDue after the timers ran everything does nothing, and a later item still gets its timer', () => {
    const clock = manualClock(0);
    const q = new DueQueue(clock);
    let runs = 0;
    for (let i = 0; i < 100; i++) q.add({ dueMs: 1 + i * 0.5, run: () => runs++ });
    clock.advance(60);
    assert.equal(runs, 100);
    q.runDue();
    assert.equal(runs, 100);
    q.add({ dueMs: 70.5, run: () => runs++ });
    q.runDue();
    assert.equal(runs, 100, 'not due yet');
    clock.advance(71);
    assert.equal(runs, 101);
  });

  test('with Node timers, 500 items over 50 ms all run at or after their due instant', async () => {
    const q = new DueQueue();
    const t0 = Number(process.hrtime.bigint()) / 1e6;
    const lateness: number[] = [];
    await new Promise<void>((resolve) => {
      let left = 500;
      for (let i = 0; i < 500; i++) {
        q.add({
          dueMs: t0 + 5 + (i % 50) + i / 1000,
          run() {
            lateness.push(Number(process.hrtime.bigint()) / 1e6 - this.dueMs);
            if (--left === 0) resolve();
          },
        });
      }
    });
    assert.equal(lateness.length, 500);
    assert.ok(Math.min(...lateness) >= 0, `earliest run ${Math.min(...lateness)} ms after due`);
    assert.ok(q.timersStarted <= 50 + 500, `${q.timersStarted} timers`);
    assert.ok(q.timersStarted < 500, `${q.timersStarted} timers for 500 items: buckets are shared`);
  });
});
