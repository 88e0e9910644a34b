/**
 * A weighted request mix and the request id header (issue 32) over real HTTP, closed and open loop,
 * against a local node:http server that records what it received: each mix entry is sent exactly
 * as often as its weight says, with its method, headers and body; every request carries its id
 * (`<worker>-<seq>`, `w<worker>-<i>` in the warm-up, `o-<i>` in the open loop), unique; and each
 * record's `req` names the request the server saw under that id.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runClosedLoop } from '../../src/load/run.ts';
import { runOpenLoop } from '../../src/load/open-loop.ts';
import { runClosedLoopSharded } from '../../src/load/shards.ts';
import type { LoadOptions, MixEntry, OpenLoopOptions } from '../../src/types/load.ts';

interface Seen {
  method: string;
  path: string;
  id: string | undefined;
  contentType: string | undefined;
  tenant: string | undefined;
  body: string;
}

/** A server answering 200 after `delayMs`, recording every request it received. */
async function withServer(delayMs: number, fn: (url: string, seen: Seen[]) => Promise<void>): Promise<void> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const h = (k: string) => req.headers[k] as string | undefined;
      seen.push({ method: req.method ?? '', path: req.url ?? '', id: h('x-vtbench-id'), contentType: h('content-type'), tenant: h('x-tenant'), body: Buffer.concat(chunks).toString('utf8') });
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'), delayMs);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

/** A 3:1 mix: a GET with a header of its own and one named like the id header (replaced), a POST with a JSON body. */
const MIX: MixEntry[] = [
  { method: 'GET', path: '/owners?lastName=', weight: 3, headers: { 'x-tenant': 't1', 'X-Vtbench-Id': 'the file\'s own' } },
  { method: 'POST', path: '/owners/new', weight: 1, headers: { 'content-type': 'application/json' }, body: '{"firstName":"Ada"}' },
];

const TIMEOUTS = { connectTimeoutMs: 5000, headersTimeoutMs: 10_000, bodyTimeoutMs: 10_000 };

/** What the server saw for entry k of MIX. */
function assertIsEntry(s: Seen, k: number, what: string): void {
  const e = MIX[k]!;
  assert.equal(s.method, e.method, what);
  assert.equal(s.path, e.path, what);
  if (k === 0) {
    assert.equal(s.tenant, 't1', what);
    assert.equal(s.body, '', what);
  } else {
    assert.equal(s.contentType, 'application/json', what);
    assert.equal(s.body, e.body, what);
  }
}

test('closed loop, 3:1 mix with an id header: exact counts, every request its <worker>-<seq> id, req matches what was sent', async () => {
  await withServer(1, async (url, seen) => {
    const c = 3;
    const n = 8; // c·n = 24, a multiple of Σ weights = 4: each worker's 8 sends cover the order twice
    const warm = 2;
    const o: LoadOptions = {
      url, path: '/unused', method: 'GET', concurrency: c, requestsPerWorker: n, warmupRequestsPerWorker: warm,
      start: 'together', rampMs: 0, ...TIMEOUTS, mix: MIX, idHeader: 'x-vtbench-id',
    };
    const r = await runClosedLoop(o);
    assert.equal(r.aborted, false);
    assert.equal(r.summary.ok, c * n);
    assert.equal(r.warmup.count, c * warm);

    // the records: req by the order, 18 of entry 0 and 6 of entry 1
    const byReq = [0, 0];
    for (const rec of r.records) byReq[rec.req!]!++;
    assert.deepEqual(byReq, [18, 6]);

    // the server: every request carried an id, unique; the measured ones are exactly <worker>-<seq>
    const ids = seen.map((s) => s.id);
    assert.ok(ids.every((id) => id !== undefined), 'every request carried the id header');
    assert.equal(new Set(ids).size, seen.length, 'ids are unique');
    const measured = seen.filter((s) => /^\d+-\d+$/.test(s.id!));
    const warmups = seen.filter((s) => /^w\d+-\d+$/.test(s.id!));
    assert.equal(measured.length, c * n);
    assert.equal(warmups.length, c * warm);
    assert.equal(seen.length, measured.length + warmups.length, 'no other id form');
    const expectedIds = r.records.map((x) => `${x.worker}-${x.seq}`).sort();
    assert.deepEqual(measured.map((s) => s.id!).sort(), expectedIds, 'the server saw each record\'s <worker>-<seq>');
    assert.ok(seen.every((s) => s.id !== 'the file\'s own'), 'a mix header named like the id header is replaced');

    // per id: the request the server saw is the record's entry
    const byId = new Map(seen.map((s) => [s.id!, s]));
    for (const rec of r.records) assertIsEntry(byId.get(`${rec.worker}-${rec.seq}`)!, rec.req!, `${rec.worker}-${rec.seq}`);
    // warm-up request i of worker w uses the entry of seq i: order [0, 0, 1, 0] at (w + i) % 4
    const order = [0, 0, 1, 0];
    for (let w = 0; w < c; w++) for (let i = 0; i < warm; i++) assertIsEntry(byId.get(`w${w}-${i}`)!, order[(w + i) % 4]!, `w${w}-${i}`);
    // the server's per-path counts, measured phase only: exactly 3:1
    assert.equal(measured.filter((s) => s.path === MIX[0]!.path).length, 18);
    assert.equal(measured.filter((s) => s.path === MIX[1]!.path).length, 6);
  });
});

test('closed loop: an id header without a mix (records carry no req); a mix without an id header (no id sent)', async () => {
  await withServer(0, async (url, seen) => {
    const base: LoadOptions = { url, path: '/one', method: 'POST', body: '{}', concurrency: 2, requestsPerWorker: 4, start: 'together', rampMs: 0, ...TIMEOUTS };
    const r = await runClosedLoop({ ...base, idHeader: 'x-vtbench-id' });
    assert.ok(r.records.every((x) => !('req' in x)));
    assert.deepEqual(seen.map((s) => s.id).sort(), ['0-0', '0-1', '0-2', '0-3', '1-0', '1-1', '1-2', '1-3']);
    assert.ok(seen.every((s) => s.path === '/one' && s.method === 'POST' && s.contentType === 'application/json' && s.body === '{}'), 'the single request keeps its default content-type');
    seen.length = 0;
    const m = await runClosedLoop({ ...base, mix: MIX });
    assert.equal(m.records.filter((x) => x.req === 0).length, 6);
    assert.equal(m.records.filter((x) => x.req === 1).length, 2);
    assert.equal(seen.filter((s) => s.id !== undefined && s.id !== 'the file\'s own').length, 0, 'no id without idHeader');
    assert.equal(seen.filter((s) => s.path === MIX[0]!.path).length, 6);
  });
});

test('closed loop over 2 shard processes: ids and the mix order are those of the merged cell (worker offset)', async () => {
  await withServer(1, async (url, seen) => {
    const c = 4;
    const n = 4;
    const r = await runClosedLoopSharded({
      url, path: '/unused', method: 'GET', concurrency: c, requestsPerWorker: n, warmupRequestsPerWorker: 1,
      start: 'together', rampMs: 0, ...TIMEOUTS, mix: MIX, idHeader: 'x-vtbench-id',
    }, 2);
    assert.equal(r.summary.ok, c * n);
    const measured = seen.filter((s) => /^\d+-\d+$/.test(s.id!));
    assert.deepEqual(measured.map((s) => s.id!).sort(), r.records.map((x) => `${x.worker}-${x.seq}`).sort(), 'merged records and ids agree: no two shards send worker 0');
    assert.deepEqual(seen.filter((s) => s.id!.startsWith('w')).map((s) => s.id!).sort(), ['w0-0', 'w1-0', 'w2-0', 'w3-0']);
    const order = [0, 0, 1, 0];
    for (const x of r.records) assert.equal(x.req, order[(x.worker + x.seq) % 4], `${x.worker}-${x.seq}`);
    const byId = new Map(seen.map((s) => [s.id!, s]));
    for (const x of r.records) assertIsEntry(byId.get(`${x.worker}-${x.seq}`)!, x.req!, `${x.worker}-${x.seq}`);
  });
});

test('open loop, 3:1 mix with an id header: exact counts, every arrival its o-<i> id, req matches what was sent', async () => {
  await withServer(2, async (url, seen) => {
    const o: OpenLoopOptions = {
      url, path: '/unused', method: 'GET', arrivalRatePerS: 200, durationS: 0.2, arrival: 'constant', seed: 1, maxInFlight: 50,
      ...TIMEOUTS, mix: MIX, idHeader: 'x-vtbench-id',
    };
    const r = await runOpenLoop(o);
    assert.equal(r.aborted, false);
    assert.equal(r.unsent!.length, 0);
    assert.equal(r.records.length, 40); // 200/s × 0.2 s, a multiple of 4
    assert.equal(r.summary.ok, 40);
    assert.equal(r.records.filter((x) => x.req === 0).length, 30);
    assert.equal(r.records.filter((x) => x.req === 1).length, 10);
    const order = [0, 0, 1, 0];
    for (const x of r.records) assert.equal(x.req, order[x.seq % 4], `arrival ${x.seq}`);
    const ids = seen.map((s) => s.id!);
    assert.equal(new Set(ids).size, 40, 'ids are unique');
    assert.deepEqual([...ids].sort(), r.records.map((x) => `o-${x.seq}`).sort());
    const byId = new Map(seen.map((s) => [s.id!, s]));
    for (const x of r.records) assertIsEntry(byId.get(`o-${x.seq}`)!, x.req!, `o-${x.seq}`);
    assert.equal(seen.filter((s) => s.path === MIX[0]!.path).length, 30);
    assert.equal(seen.filter((s) => s.path === MIX[1]!.path).length, 10);
  });
});

test('open loop with a small in-flight cap: reused options objects still carry each arrival\'s own id', async () => {
  // 4 connections, answers after 15 ms, an arrival every 5 ms: several requests of one entry in flight at once
  await withServer(15, async (url, seen) => {
    const r = await runOpenLoop({
      url, path: '/unused', method: 'GET', arrivalRatePerS: 200, durationS: 0.3, arrival: 'constant', seed: 1, maxInFlight: 4,
      ...TIMEOUTS, mix: MIX, idHeader: 'x-vtbench-id',
    });
    assert.ok(r.records.length > 10, `${r.records.length} sent`);
    const ids = seen.map((s) => s.id!);
    assert.equal(new Set(ids).size, seen.length, 'no id sent twice');
    assert.deepEqual([...ids].sort(), r.records.map((x) => `o-${x.seq}`).sort());
    const byId = new Map(seen.map((s) => [s.id!, s]));
    for (const x of r.records) assertIsEntry(byId.get(`o-${x.seq}`)!, x.req!, `o-${x.seq}`);
  });
});

test('an id prefix is on every id a cell sends: measured and warm-up (closed loop), every arrival (open loop)', async () => {
  await withServer(0, async (url, seen) => {
    const r = await runClosedLoop({
      url, path: '/one', method: 'GET', concurrency: 2, requestsPerWorker: 3, warmupRequestsPerWorker: 1,
      start: 'together', rampMs: 0, ...TIMEOUTS, idHeader: 'x-vtbench-id', idPrefix: 'a-c2-r1.',
    });
    assert.equal(r.summary.ok, 6);
    assert.deepEqual(seen.map((s) => s.id!).sort(), ['a-c2-r1.0-0', 'a-c2-r1.0-1', 'a-c2-r1.0-2', 'a-c2-r1.1-0', 'a-c2-r1.1-1', 'a-c2-r1.1-2', 'a-c2-r1.w0-0', 'a-c2-r1.w1-0']);
    seen.length = 0;
    const o = await runOpenLoop({
      url, path: '/one', method: 'GET', arrivalRatePerS: 100, durationS: 0.05, arrival: 'constant', seed: 1, maxInFlight: 10,
      ...TIMEOUTS, idHeader: 'x-vtbench-id', idPrefix: 'a-rate100-r1.',
    });
    assert.equal(o.records.length, 5);
    assert.deepEqual(seen.map((s) => s.id!).sort(), o.records.map((x) => `a-rate100-r1.o-${x.seq}`).sort());
  });
});
