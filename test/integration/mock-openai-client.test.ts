/** The mock exercised with the official `openai` npm client as a real client. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startMock } from '../../mock/src/server.ts';

const LATENCY_MS = 50;
let mock: Awaited<ReturnType<typeof startMock>>;
let client: OpenAI;

before(async () => {
  mock = await startMock({ latencyMs: LATENCY_MS, interTokenMs: 2, completionTokens: 8 });
  client = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'dummy-key', maxRetries: 0 });
});
after(() => mock.close());

const messages = [
  { role: 'system' as const, content: 'You are terse.' },
  { role: 'user' as const, content: 'Do virtual threads help blocking LLM calls?' },
];

describe('mock LLM with the openai client', () => {
  test('non-stream completion: every field', async () => {
    const t0 = performance.now();
    const r = await client.chat.completions.create({ model: 'gpt-echo-1', messages });
    const e2eMs = performance.now() - t0;
    assert.match(r.id, /^chatcmpl-/);
    assert.equal(r.object, 'chat.completion');
    assert.ok(Number.isInteger(r.created));
    assert.ok(Math.abs(r.created - Date.now() / 1000) < 60);
    assert.equal(r.model, 'gpt-echo-1');
    assert.equal(r.choices.length, 1);
    const c = r.choices[0]!;
    assert.equal(c.index, 0);
    assert.equal(c.message.role, 'assistant');
    assert.equal(typeof c.message.content, 'string');
    assert.ok((c.message.content ?? '').length > 0);
    assert.equal(c.message.content!.split(' ').length, 8);
    assert.equal(c.finish_reason, 'stop');
    const u = r.usage!;
    for (const v of [u.prompt_tokens, u.completion_tokens, u.total_tokens]) assert.ok(Number.isInteger(v) && v > 0);
    assert.equal(u.completion_tokens, 8);
    assert.equal(u.total_tokens, u.prompt_tokens + u.completion_tokens);
    assert.ok(e2eMs >= LATENCY_MS, `answered after ${e2eMs} ms, before the configured ${LATENCY_MS} ms`);
  });

  test('same request → same content and usage; another request → other content', async () => {
    const a = await client.chat.completions.create({ model: 'm', messages });
    const b = await client.chat.completions.create({ model: 'm', messages });
    const c = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'something else' }] });
    assert.equal(a.choices[0]!.message.content, b.choices[0]!.message.content);
    assert.deepEqual(a.usage, b.usage);
    assert.notEqual(a.id, b.id);
    assert.notEqual(a.choices[0]!.message.content, c.choices[0]!.message.content);
  });

  test('max_tokens below the answer length truncates with finish_reason "length"', async () => {
    const r = await client.chat.completions.create({ model: 'm', messages, max_tokens: 3 });
    assert.equal(r.choices[0]!.finish_reason, 'length');
    assert.equal(r.usage!.completion_tokens, 3);
    assert.equal(r.choices[0]!.message.content!.split(' ').length, 3);
  });

  test('stream with include_usage: chunks, final usage chunk with choices [], [DONE]', async () => {
    const t0 = performance.now();
    const stream = await client.chat.completions.create({
      model: 'gpt-echo-1',
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let firstContentMs: number | null = null;
    let finish: string | null = null;
    let usageChunks = 0;
    let chunks = 0;
    let role: string | undefined;
    for await (const chunk of stream) {
      chunks++;
      assert.equal(chunk.object, 'chat.completion.chunk');
      assert.equal(chunk.model, 'gpt-echo-1');
      assert.ok(Number.isInteger(chunk.created));
      assert.match(chunk.id, /^chatcmpl-/);
      if (chunk.usage) {
        usageChunks++;
        assert.deepEqual(chunk.choices, []);
        const u = chunk.usage;
        assert.equal(u.completion_tokens, 8);
        assert.equal(u.total_tokens, u.prompt_tokens + u.completion_tokens);
        continue;
      }
      const c = chunk.choices[0]!;
      assert.equal(c.index, 0);
      role ??= c.delta.role;
      if (c.delta.content) {
        firstContentMs ??= performance.now() - t0;
        text += c.delta.content;
      }
      if (c.finish_reason) finish = c.finish_reason;
    }
    const nonStream = await client.chat.completions.create({ model: 'gpt-echo-1', messages });
    assert.equal(role, 'assistant');
    assert.equal(finish, 'stop');
    assert.equal(usageChunks, 1);
    assert.equal(chunks, 1 + 8 + 1 + 1); // role, 8 tokens, finish, usage
    assert.equal(text, nonStream.choices[0]!.message.content);
    assert.ok(firstContentMs !== null && firstContentMs >= LATENCY_MS, `first token after ${firstContentMs} ms`);
    // 7 intervals of 2 ms after the first token
    assert.ok(performance.now() - t0 >= LATENCY_MS + 7 * 2);
  });

  test('stream without include_usage has no usage chunk', async () => {
    const stream = await client.chat.completions.create({ model: 'm', messages, stream: true });
    let usage = 0;
    let text = '';
    for await (const chunk of stream) {
      if (chunk.usage) usage++;
      text += chunk.choices[0]?.delta.content ?? '';
    }
    assert.equal(usage, 0);
    assert.ok(text.length > 0);
  });

  test('latency >= configured and body never empty, 20 concurrent requests', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const t0 = performance.now();
        const r = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: `q${i}` }] });
        return { e2eMs: performance.now() - t0, content: r.choices[0]!.message.content ?? '' };
      }),
    );
    for (const r of results) {
      assert.ok(r.e2eMs >= LATENCY_MS, `answered after ${r.e2eMs} ms`);
      assert.ok(r.content.length > 0);
    }
  });

  test('GET /v1/models lists the configured model', async () => {
    const page = await client.models.list();
    assert.deepEqual(page.data.map((m) => m.id), ['vtbench-mock']);
    assert.equal(page.data[0]!.object, 'model');
  });

  test('any Authorization, or none, is accepted', async () => {
    const body = JSON.stringify({ model: 'm', messages });
    const variants: Record<string, string>[] = [{}, { authorization: 'Bearer whatever' }, { authorization: 'Basic x' }];
    for (const headers of variants) {
      const r = await fetch(`${mock.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
      assert.equal(r.status, 200);
      assert.ok((await r.text()).length > 0);
    }
  });
});
