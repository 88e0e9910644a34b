import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseServerTiming } from '../src/load/server-timing.ts';
import { classifyError, classifyStatus } from '../src/load/errors.ts';

test('parseServerTiming: names and durations', () => {
  assert.deepEqual(parseServerTiming('queue;dur=1.5, exec;dur=100.25'), { queue: 1.5, exec: 100.25 });
  assert.deepEqual(parseServerTiming('queue;dur=0'), { queue: 0 });
  assert.deepEqual(parseServerTiming('  a ; dur = 2 ,b;DUR=3'), { a: 2, b: 3 });
});

test('parseServerTiming: desc (quoted, with commas and semicolons) is tolerated', () => {
  assert.deepEqual(parseServerTiming('db;desc="users, orders; x";dur=12.5, app;dur=3'), { db: 12.5, app: 3 });
  assert.deepEqual(parseServerTiming('cpu;dur=2.4;desc=plain'), { cpu: 2.4 });
  assert.deepEqual(parseServerTiming('x;desc="a \\" b";dur=1'), { x: 1 });
});

test('parseServerTiming: entries without a valid dur are left out; first of a repeated name wins', () => {
  assert.deepEqual(parseServerTiming('miss, cache;desc=hit, queue;dur=abc, exec;dur=4'), { exec: 4 });
  assert.deepEqual(parseServerTiming('exec;dur=1, exec;dur=2'), { exec: 1 });
  assert.deepEqual(parseServerTiming('exec;dur='), {});
});

test('parseServerTiming: absent, empty and multi-line headers', () => {
  assert.deepEqual(parseServerTiming(undefined), {});
  assert.deepEqual(parseServerTiming(null), {});
  assert.deepEqual(parseServerTiming(''), {});
  assert.deepEqual(parseServerTiming(',,;'), {});
  assert.deepEqual(parseServerTiming(['queue;dur=1', 'exec;dur=2']), { queue: 1, exec: 2 });
});

test('classifyError maps undici and OS error codes', () => {
  const e = (code: string, cause?: unknown) => Object.assign(new Error(code), { code, cause });
  assert.equal(classifyError(e('UND_ERR_CONNECT_TIMEOUT')), 'connect');
  assert.equal(classifyError(e('ECONNREFUSED')), 'connect');
  assert.equal(classifyError(e('ECONNRESET')), 'reset');
  assert.equal(classifyError(e('UND_ERR_SOCKET')), 'reset');
  assert.equal(classifyError(e('UND_ERR_HEADERS_TIMEOUT')), 'timeout');
  assert.equal(classifyError(e('UND_ERR_BODY_TIMEOUT')), 'timeout');
  assert.equal(classifyError(e('UND_ERR', e('ECONNREFUSED'))), 'connect', 'cause is looked at');
  assert.equal(classifyError(new Error('x')), 'other');
  assert.equal(classifyError('weird'), 'other');
});

test('classifyStatus: 2xx ok, >= 400 http, 1xx/3xx other', () => {
  assert.equal(classifyStatus(200), null);
  assert.equal(classifyStatus(204), null);
  assert.equal(classifyStatus(503), 'http');
  assert.equal(classifyStatus(429), 'http');
  assert.equal(classifyStatus(302), 'other');
});
