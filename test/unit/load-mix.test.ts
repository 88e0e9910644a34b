/**
 * The weighted request mix (issue 32): the send order (nginx's smooth weighted round-robin), the
 * dispatch options built once per cell, the per-request summary, the load mix made from a request
 * file, and the `req` column of the stored requests (codec round trip).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mixOrder, loadMixOf } from '../../src/compute/target/mix.ts';
import { parseRequestFile } from '../../src/compute/target/request-file.ts';
import { requestSetOf } from '../../src/load/dispatch-options.ts';
import { summarizeByRequest } from '../../src/load/summarize.ts';
import { percentiles } from '../../src/compute/stats/percentiles.ts';
import { compactRequests } from '../../src/adapters/store/run-store.ts';
import { firstDifference, isEncodedRequests, requestsFromFile, storedRequests } from '../../src/adapters/store/requests-codec.ts';
import { expandRequests } from '../../src/pipeline/resummarize.ts';
import { TARGET_METHODS, type TargetMethod } from '../../src/types/target.ts';
import type { HttpMethod, RequestRecord } from '../../src/types/load.ts';
import type { CompactRequests } from '../../src/types/run.ts';

// HttpMethod (types/load.ts) and TargetMethod (types/target.ts) are the same set: each assignable to the other
const methodsAgree: [HttpMethod] extends [TargetMethod] ? ([TargetMethod] extends [HttpMethod] ? true : false) : false = true;

test('HttpMethod equals TARGET_METHODS', () => {
  assert.equal(methodsAgree, true);
  const all: Record<HttpMethod, true> = { GET: true, POST: true, PUT: true, PATCH: true, DELETE: true, HEAD: true };
  assert.deepEqual(Object.keys(all).sort(), [...TARGET_METHODS].sort());
});

test('mixOrder: nginx\'s examples and hand-computed orders', () => {
  // nginx's commit message (1.3.1): weights { 5, 1, 1 } give { a, a, b, a, c, a, a }
  assert.deepEqual(mixOrder([5, 1, 1]), [0, 0, 1, 0, 2, 0, 0]);
  // 3:1 by hand: current (3,1)->a (-1,1); (2,2) tie->a (-2,2); (1,3)->b (1,-1); (4,0)->a (0,0)
  assert.deepEqual(mixOrder([3, 1]), [0, 0, 1, 0]);
  assert.deepEqual(mixOrder([1, 3]), [1, 0, 1, 1]);
  assert.deepEqual(mixOrder([1]), [0]);
  assert.deepEqual(mixOrder([1, 1, 1]), [0, 1, 2]);
  assert.deepEqual(mixOrder([2, 2]), [0, 1, 0, 1], 'equal weights alternate, not a a b b');
});

test('mixOrder: length Σ weights, each entry weight times, spread evenly, deterministic', () => {
  const weights = [7, 3, 1, 12, 5];
  const total = weights.reduce((s, w) => s + w, 0);
  const order = mixOrder(weights);
  assert.equal(order.length, total);
  assert.deepEqual(mixOrder(weights), order);
  const seen = weights.map(() => 0);
  for (let t = 0; t < order.length; t++) {
    seen[order[t]!]!++;
    // every prefix holds each entry within one request of its exact share (the smoothness nginx's algorithm is chosen for)
    for (let i = 0; i < weights.length; i++) assert.ok(Math.abs(seen[i]! - ((t + 1) * weights[i]!) / total) < 1, `prefix ${t + 1}, entry ${i}: ${seen[i]}`);
  }
  assert.deepEqual(seen, weights);
  // weights scaled by k give the same order repeated k times (so indexing with % is the same either way)
  assert.deepEqual(mixOrder(weights.map((w) => w * 3)), [...order, ...order, ...order]);
});

test('mixOrder refuses no weights and weights that are not integers >= 1', () => {
  for (const bad of [[], [0], [1, -1], [1.5], [Number.NaN]]) assert.throws(() => mixOrder(bad), RangeError, JSON.stringify(bad));
});

test('requestSetOf: null without mix and id header (the frozen single request stays); entries, order, id slot', () => {
  assert.equal(requestSetOf({ path: '/x', method: 'GET' }), null);
  const one = requestSetOf({ path: '/x', method: 'POST', body: '{}', idHeader: 'x-vtbench-id' })!;
  assert.equal(one.order, null);
  assert.equal(one.entries, 1);
  const a = one.make(0);
  const b = one.make(0);
  assert.notEqual(a, b, 'a new object per call with an id header');
  assert.deepEqual(a.headers, ['content-type', 'application/json', 'x-vtbench-id', ''], 'the single request keeps dispatchOptionsOf\'s content-type default');
  assert.equal(a.body, b.body, 'the body bytes are encoded once and shared');
  assert.equal(a.method, 'POST');

  const set = requestSetOf({
    path: '/ignored', method: 'GET', idHeader: 'x-vtbench-id',
    mix: [
      { method: 'GET', path: '/a', weight: 3, headers: { 'X-VTBENCH-ID': 'user value', accept: 'text/plain' } },
      { method: 'PUT', path: '/b', weight: 1, body: 'raw' },
    ],
  })!;
  assert.deepEqual(set.order, [0, 0, 1, 0]);
  assert.equal(set.entries, 2);
  assert.equal(set.hasId, true);
  assert.deepEqual(set.make(0).headers, ['accept', 'text/plain', 'x-vtbench-id', ''], 'a header named like the id header is replaced by the id');
  assert.deepEqual(set.make(1).headers, ['x-vtbench-id', ''], 'a mix entry\'s body gets no content-type added');
  assert.equal(set.make(1).path, '/b');
  assert.equal(Buffer.from(set.make(1).body as Buffer).toString(), 'raw');

  const noId = requestSetOf({ path: '/', method: 'GET', mix: [{ method: 'GET', path: '/a', weight: 1 }] })!;
  assert.equal(noId.hasId, false);
  assert.equal(noId.make(0), noId.make(0), 'without an id header every worker shares one frozen object');
  assert.ok(Object.isFrozen(noId.make(0)));

  assert.throws(() => requestSetOf({ path: '/', method: 'GET', mix: [] }), RangeError);
  assert.throws(() => requestSetOf({ path: '/', method: 'GET', mix: [{ method: 'GET', path: '/a', weight: 0 }] }), RangeError);
  assert.throws(() => requestSetOf({ path: '/', method: 'GET', idHeader: 'bad header' }), RangeError);
  assert.equal(requestSetOf({ path: '/', method: 'GET', idHeader: 'x-vtbench-id', idPrefix: 'fixed-c100-r1.' })!.idPrefix, 'fixed-c100-r1.');
  assert.equal(requestSetOf({ path: '/', method: 'GET', idHeader: 'x-vtbench-id' })!.idPrefix, '');
  assert.throws(() => requestSetOf({ path: '/', method: 'GET', idHeader: 'x-vtbench-id', idPrefix: 'a b' }), /idPrefix/);
  assert.throws(() => requestSetOf({ path: '/', method: 'GET', idHeader: 'x-vtbench-id', idPrefix: 'a\r\nx: y' }), /idPrefix/);
});

test('loadMixOf: same order, headers resolved from the environment, body and weight kept', () => {
  const requests = parseRequestFile('{"name":"a","path":"/a","headers":{"authorization":"Bearer ${env:T}"},"weight":2}\n{"name":"b","method":"POST","path":"/b","body":{"x":1}}', 'f', { T: 'tok' });
  assert.deepEqual(loadMixOf(requests, { T: 'tok' }), [
    { method: 'GET', path: '/a', headers: { authorization: 'Bearer tok' }, weight: 2 },
    { method: 'POST', path: '/b', headers: { 'content-type': 'application/json' }, body: '{"x":1}', weight: 1 },
  ]);
  assert.equal(requests[0]!.headers['authorization'], 'Bearer ${env:T}', 'the parsed requests keep the reference');
  assert.throws(() => loadMixOf(requests, {}), /T/);
});

function rec(worker: number, seq: number, e2eMs: number, req: number | undefined, errorClass: RequestRecord['errorClass'] = null): RequestRecord {
  return {
    worker, seq, intendedStartMs: seq * 10, startMs: seq * 10 + 0.5, endMs: seq * 10 + 0.5 + e2eMs, e2eMs,
    status: errorClass === null ? 200 : 503, errorClass, serverTiming: {}, ...(req !== undefined ? { req } : {}),
  };
}

test('summarizeByRequest: count, ok and e2e percentiles of the successes per name, every name a key', () => {
  const records = [rec(0, 0, 5, 0), rec(0, 1, 7, 1), rec(1, 0, 9, 0), rec(1, 1, 100, 0, 'http'), rec(0, 2, 3, 0)];
  const by = summarizeByRequest(records, ['owners', 'vets', 'never']);
  assert.deepEqual(Object.keys(by), ['owners', 'vets', 'never']);
  assert.deepEqual(by['owners'], { count: 4, ok: 3, e2eMs: percentiles([5, 9, 3]) });
  assert.deepEqual(by['vets'], { count: 1, ok: 1, e2eMs: percentiles([7]) });
  assert.deepEqual(by['never'], { count: 0, ok: 0, e2eMs: null });
  assert.throws(() => summarizeByRequest([rec(0, 0, 1, undefined)], ['a']), /has req undefined/);
  assert.throws(() => summarizeByRequest([rec(0, 0, 1, 2)], ['a', 'b']), RangeError);
  assert.throws(() => summarizeByRequest([], ['a', 'a']), /repeat/);
});

test('the req column: stored only with a mix, encoded by vtbench-requests/2 and restored exactly', () => {
  // records as the generator makes them: 3 workers × 8 requests, a 3:1:2 mix by (worker + seq)
  const order = mixOrder([3, 1, 2]);
  const records: RequestRecord[] = [];
  for (let seq = 0; seq < 8; seq++) {
    for (let w = 0; w < 3; w++) records.push(rec(w, seq, 1 + ((w * 7 + seq * 3) % 11) / 8, order[(w + seq) % order.length]!, seq === 5 && w === 1 ? 'http' : null));
  }
  const compact = compactRequests(records);
  assert.deepEqual(compact.req, records.map((r) => r.req));
  const stored = storedRequests(compact);
  assert.ok(isEncodedRequests(stored), 'stored encoded');
  assert.ok(stored.paths.includes('req'));
  const back = requestsFromFile(JSON.parse(JSON.stringify(stored))) as CompactRequests;
  assert.equal(firstDifference(JSON.parse(JSON.stringify(compact)), back), null);
  assert.deepEqual(expandRequests(back).map((r) => r.req), records.map((r) => r.req));

  // without a mix: no column, and records come back without `req`
  const plain = compactRequests(records.map(({ req: _, ...r }) => r));
  assert.equal('req' in plain, false);
  const plainBack = requestsFromFile(JSON.parse(JSON.stringify(storedRequests(plain)))) as CompactRequests;
  assert.equal('req' in plainBack, false);
  assert.ok(expandRequests(plainBack).every((r) => !('req' in r)));

  assert.throws(() => compactRequests([records[0]!, rec(5, 0, 1, undefined)]), /has no req/);
});
