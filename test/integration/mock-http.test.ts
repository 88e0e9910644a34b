/** The mock over raw HTTP: error bodies, fault injection, capacity limit, /stats. Real server on port 0. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Pool } from 'undici';
import { startMock, type MockConfig, type MockStats } from '../../mock/src/server.ts';

const CHAT_BODY = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });

async function withMock<T>(config: Partial<MockConfig>, fn: (url: string) => Promise<T>): Promise<T> {
  const mock = await startMock({ ...config, controlToken: 'test-token' });
  try {
    return await fn(mock.url);
  } finally {
    await mock.close();
  }
}

async function stats(url: string): Promise<MockStats> {
  return (await (await fetch(`${url}/stats`)).json()) as MockStats;
}

function assertOpenAiError(body: unknown): asserts body is { error: { message: string; type: string; param: string | null; code: string | null } } {
  const e = (body as { error?: Record<string, unknown> }).error;
  assert.ok(e, 'body has an error object');
  assert.deepEqual(Object.keys(e).sort(), ['code', 'message', 'param', 'type']);
  assert.equal(typeof e.message, 'string');
  assert.ok((e.message as string).length > 0);
  assert.equal(typeof e.type, 'string');
}

/** Sends `n` chat requests over `connections` connections; returns the status counts ('error:<code>' for socket errors). */
async function fire(url: string, n: number, connections = 20, timeoutMs = 5000): Promise<Record<string, number>> {
  const pool = new Pool(url, { connections, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const counts: Record<string, number> = {};
  const bump = (k: string) => {
    counts[k] = (counts[k] ?? 0) + 1;
  };
  try {
    await Promise.all(
      Array.from({ length: n }, async () => {
        try {
          const r = await pool.request({ method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body: CHAT_BODY });
          await r.body.text();
          bump(String(r.statusCode));
        } catch (err) {
          bump(`error:${(err as { code?: string }).code ?? 'unknown'}`);
        }
      }),
    );
  } finally {
    await pool.destroy();
  }
  return counts;
}

describe('mock LLM: bad requests', () => {
  test('malformed JSON → 400 with an OpenAI error body', () =>
    withMock({ latencyMs: 0 }, async (url) => {
      const r = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"messages": [' });
      assert.equal(r.status, 400);
      const body = await r.json();
      assertOpenAiError(body);
      assert.equal(body.error.type, 'invalid_request_error');
    }));

  test('missing messages → 400 naming param "messages"', () =>
    withMock({ latencyMs: 0 }, async (url) => {
      for (const bad of ['{"model":"m"}', '{"model":"m","messages":[]}', '{"messages":"hi"}', '[1,2]']) {
        const r = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bad });
        assert.equal(r.status, 400, bad);
        const body = await r.json();
        assertOpenAiError(body);
        assert.equal(body.error.param, bad === '[1,2]' ? 'body' : 'messages', bad);
      }
    }));

  test('unknown path → 404 in the same format', () =>
    withMock({ latencyMs: 0 }, async (url) => {
      const r = await fetch(`${url}/v1/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(r.status, 404);
      const body = await r.json();
      assertOpenAiError(body);
      assert.equal(body.error.message, 'Invalid URL (POST /v1/embeddings)');
      assert.equal(body.error.type, 'invalid_request_error');
    }));

  test('GET /health answers ok', () =>
    withMock({}, async (url) => {
      const r = await fetch(`${url}/health`);
      assert.equal(r.status, 200);
      assert.deepEqual(await r.json(), { status: 'ok' });
    }));

  test('invalid config is rejected naming the option', async () => {
    await assert.rejects(startMock({ latencyMs: -1 }), /--latency-ms -1 is invalid/);
    await assert.rejects(startMock({ latencyModel: 'uniform', latencyMinMs: 10, latencyMaxMs: 5 }), /--latency-min-ms 10 is above --latency-max-ms 5/);
    await assert.rejects(startMock({ errorRate: 0.6, hangRate: 0.6 }), /exceeds 1/);
  });
});

describe('mock LLM: fault injection (exact for a seed)', () => {
  test('error rate 0.1, seed 42, 1000 requests → exactly 102 × 500, twice', async () => {
    for (let round = 0; round < 2; round++) {
      await withMock({ latencyMs: 0, errorRate: 0.1, seed: 42 }, async (url) => {
        const counts = await fire(url, 1000);
        assert.deepEqual(counts, { '200': 898, '500': 102 });
        const s = await stats(url);
        assert.equal(s.faults.error500, 102);
        assert.equal(s.served, 1000);
      });
    }
  });

  test('429 carries Retry-After; 503 has an OpenAI body', async () => {
    await withMock({ latencyMs: 0, errorRate: 1, errorStatus: 429, retryAfterS: 7 }, async (url) => {
      const r = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CHAT_BODY });
      assert.equal(r.status, 429);
      assert.equal(r.headers.get('retry-after'), '7');
      assertOpenAiError(await r.json());
    });
    await withMock({ latencyMs: 0, errorRate: 1, errorStatus: 503 }, async (url) => {
      const r = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CHAT_BODY });
      assert.equal(r.status, 503);
      assertOpenAiError(await r.json());
      assert.equal((await stats(url)).faults.error503, 1);
    });
  });

  test('mixed faults, seed 7, 200 requests → 12 errors, 1 hang, 3 resets', () =>
    withMock({ latencyMs: 0, seed: 7, errorRate: 0.05, errorStatus: 500, hangRate: 0.03, resetRate: 0.02 }, async (url) => {
      const counts = await fire(url, 200, 20, 300);
      assert.equal(counts['500'], 12);
      assert.equal(counts['200'], 200 - 12 - 1 - 3);
      assert.equal(counts['error:UND_ERR_HEADERS_TIMEOUT'], 1); // the hang
      assert.equal((counts['error:ECONNRESET'] ?? 0) + (counts['error:UND_ERR_SOCKET'] ?? 0), 3, JSON.stringify(counts));
      const s = await stats(url);
      assert.deepEqual(s.faults, { error429: 0, error500: 12, error503: 0, hang: 1, reset: 3, overCapacity: 0 });
      assert.equal(s.inFlight, 0, 'the hung request left when its client gave up');
    }));
});

describe('mock LLM: capacity limit and /stats', () => {
  test('max concurrent 2: five at once → 2 answered, 3 × 429 with Retry-After', () =>
    withMock({ latencyMs: 200, maxConcurrent: 2 }, async (url) => {
      const results = await Promise.all(
        Array.from({ length: 5 }, async (_, i) => {
          await new Promise((r) => setTimeout(r, i * 20)); // the first two are surely held first
          const r = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CHAT_BODY });
          await r.text();
          return { status: r.status, retryAfter: r.headers.get('retry-after') };
        }),
      );
      assert.deepEqual(results.map((r) => r.status), [200, 200, 429, 429, 429]);
      assert.equal(results[2]!.retryAfter, '1');
      const s = await stats(url);
      assert.equal(s.faults.overCapacity, 3);
      assert.equal(s.peakInFlight, 3); // 2 held + the one being turned away (a 429 is answered at once)
      // after the first two finish, capacity is free again
      const again = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CHAT_BODY });
      assert.equal(again.status, 200);
    }));

  test('/stats: served, in flight now and peak, connections, lateness', () =>
    withMock({ latencyMs: 30 }, async (url) => {
      const before = await stats(url);
      assert.equal(before.served, 0);
      assert.equal(before.latenessMs, null);
      assert.equal(before.config.latencyMs, 30);
      const pool = new Pool(url, { connections: 4 });
      try {
        const pending = Array.from({ length: 4 }, () =>
          pool.request({ method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body: CHAT_BODY }).then((r) => r.body.text()),
        );
        await new Promise((r) => setTimeout(r, 15));
        const during = await stats(url);
        assert.equal(during.inFlight, 4);
        await Promise.all(pending);
        await pool.request({ method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body: '{' }).then((r) => r.body.text());
      } finally {
        await pool.close();
      }
      const s = await stats(url);
      assert.equal(s.served, 5); // 4 answers + one 400
      assert.equal(s.inFlight, 0);
      assert.equal(s.peakInFlight, 4);
      assert.ok(s.connectionsOpened >= 4 + 1, `connections ${s.connectionsOpened}`);
      assert.equal(s.latenessMs?.n, 4);
      assert.ok(s.latenessMs!.p50 >= 0 && s.latenessMs!.max >= s.latenessMs!.p99 && s.latenessMs!.p99 >= s.latenessMs!.p90 && s.latenessMs!.p90 >= s.latenessMs!.p50);
      const reset = (await (await fetch(`${url}/stats/reset`, { method: 'POST', headers: { 'x-vtbench-token': 'test-token' } })).json()) as MockStats;
      assert.equal(reset.served, 0);
      assert.equal(reset.latenessMs, null);
    }));
});

