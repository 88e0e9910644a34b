/** The mock's plain delay route `GET /delay?ms=` (study 002's downstream services): timing, validation, its own /stats counter. Real server on port 0. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startMock, parseDelayMs, MAX_DELAY_MS, type MockStats } from '../../mock/src/server.ts';

async function stats(url: string): Promise<MockStats> {
  return (await (await fetch(`${url}/stats`)).json()) as MockStats;
}

describe('mock GET /delay', () => {
  test('parseDelayMs takes whole numbers 0..MAX_DELAY_MS only', () => {
    assert.equal(parseDelayMs('0'), 0);
    assert.equal(parseDelayMs('100'), 100);
    assert.equal(parseDelayMs(String(MAX_DELAY_MS)), MAX_DELAY_MS);
    for (const bad of [undefined, '', '-1', '1.5', 'abc', '600001', ['1', '2']]) {
      assert.equal(typeof parseDelayMs(bad), 'object', `refuses ${JSON.stringify(bad)}`);
    }
  });

  test('answers {"delayedMs":ms} no earlier than ms after arrival, many at once, counted apart from chat', async () => {
    const mock = await startMock({ controlToken: 'test-token' });
    try {
      const before = await stats(mock.url);
      assert.equal(before.delay, undefined, 'no delay block before the route is used (study 000 /stats unchanged)');
      const t0 = performance.now();
      const answers = await Promise.all(Array.from({ length: 50 }, async () => {
        const r = await fetch(`${mock.url}/delay?ms=120`);
        return { status: r.status, body: await r.json(), ms: performance.now() - t0 };
      }));
      for (const a of answers) {
        assert.equal(a.status, 200);
        assert.deepEqual(a.body, { delayedMs: 120 });
        assert.ok(a.ms >= 120, `answered after ${a.ms} ms, not before 120`);
      }
      const after = await stats(mock.url);
      assert.deepEqual(after.delay, { served: 50, inFlight: 0, peakInFlight: 50 });
      assert.equal(after.served, 0, 'the chat counter does not count /delay');
      assert.equal(after.peakInFlight, 0);

      const reset = (await (await fetch(`${mock.url}/stats/reset`, { method: 'POST', headers: { 'x-vtbench-token': 'test-token' } })).json()) as MockStats;
      assert.deepEqual(reset.delay, { served: 0, inFlight: 0, peakInFlight: 0 });
    } finally {
      await mock.close();
    }
  });

  test('a bad ms answers 400 naming the parameter, and is not counted', async () => {
    const mock = await startMock({ controlToken: 'test-token' });
    try {
      const r = await fetch(`${mock.url}/delay?ms=abc`);
      assert.equal(r.status, 400);
      const body = (await r.json()) as { error: { param: string; message: string } };
      assert.equal(body.error.param, 'ms');
      assert.match(body.error.message, /whole number/);
      assert.equal((await stats(mock.url)).delay, undefined);
    } finally {
      await mock.close();
    }
  });
});
