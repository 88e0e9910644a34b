/**
 * Issue 34, defect 9: "fetch failed" hid its cause. A failed look-up of a component now says what
 * happened, from undici's error cause (`.cause.code`): "connection refused to 127.0.0.1:P", a host
 * not found, a timeout with its length.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { getInfo } from '../../src/adapters/jvm/client.ts';
import { describeFetchError } from '../../src/adapters/jvm/fetch-error.ts';
import { freePort } from '../fixtures/ports.ts';

test('a SUT that is not listening: the error says "connection refused to <host:port>", not "fetch failed"', async () => {
  const port = await freePort();
  await assert.rejects(getInfo(`http://127.0.0.1:${port}`, 2_000), (e: unknown) => {
    const m = (e as Error).message;
    assert.match(m, new RegExp(`connection refused to 127\\.0\\.0\\.1:${port}`));
    assert.match(m, /GET http:\/\/127\.0\.0\.1:\d+\/bench\/info/);
    assert.doesNotMatch(m, /^fetch failed$/);
    return true;
  });
});

test('a SUT that accepts but never answers: the error names the timeout', { timeout: 20_000 }, async () => {
  const silent = createServer(() => {});
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
  const port = (silent.address() as { port: number }).port;
  try {
    await assert.rejects(getInfo(`http://127.0.0.1:${port}`, 300), /no answer from http:\/\/127\.0\.0\.1:\d+\/bench\/info within 300 ms/);
  } finally {
    silent.close();
  }
});

test('describeFetchError: each cause code in words, an unknown one with its code and message', () => {
  const err = (code: string, message = 'x') => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(message), { code }) });
  assert.equal(describeFetchError(err('ECONNREFUSED'), 'http://10.0.0.2:19080/bench/info'), 'connection refused to 10.0.0.2:19080');
  assert.equal(describeFetchError(err('ENOTFOUND'), 'http://sut.invalid:1/x'), 'host sut.invalid not found');
  assert.equal(describeFetchError(err('ECONNRESET'), 'http://h:1/x'), 'connection reset by h:1');
  assert.equal(describeFetchError(err('EHOSTUNREACH'), 'http://h:1/x'), 'no route to host h');
  assert.equal(describeFetchError(err('UND_ERR_CONNECT_TIMEOUT'), 'http://h:1/x'), 'connecting to h:1 timed out');
  assert.equal(describeFetchError(err('EPROTO', 'wrong version number'), 'https://h:1/x'), 'fetch failed: wrong version number (EPROTO)');
  assert.equal(describeFetchError(new Error('plain'), 'http://h:1/x'), 'plain');
});
