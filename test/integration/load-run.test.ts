import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runClosedLoop, firstIntendedStartMs, NO_SERVER_TIMING, PROGRESS_EVERY_MS } from '../../src/load/run.ts';
import type { RequestRecord } from '../../src/types/load.ts';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
/** A scripted HTTP server on 127.0.0.1, port 0: behaviour chosen by request path. */
interface ScriptedServer {
  url: string;
  port: number;
  requests: number;
  connections: number;
  close(): Promise<void>;
}

const SERVER_TIMING = 'queue;dur=1.5, exec;dur=100.25';

/**
 * Paths: /ok (200 + Server-Timing, after ?delay=ms), /status/503, /reset (socket destroyed),
 * /hang (never answers).
 */
async function startScriptedServer(): Promise<ScriptedServer> {
  const sockets = new Set<Socket>();
  const state = { requests: 0, connections: 0 };
  const server = http.createServer((req, res) => {
    state.requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/ok') {
        const delay = Number(url.searchParams.get('delay') ?? 0);
        const answer = () => {
          res.writeHead(200, { 'content-type': 'application/json', 'server-timing': SERVER_TIMING });
          res.end(JSON.stringify({ echoBytes: Buffer.concat(chunks).length }));
        };
        if (delay > 0) setTimeout(answer, delay);
        else answer();
      } else if (url.pathname.startsWith('/status/')) {
        res.writeHead(Number(url.pathname.slice(8)), { 'content-type': 'text/plain' });
        res.end('no');
      } else if (url.pathname === '/reset') {
        req.socket.destroy();
      } else if (url.pathname === '/hang') {
        // never answer
      } else {
        res.writeHead(404).end();
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (s: Socket) => {
    state.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get requests() {
      return state.requests;
    },
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// ---------------------------------------------------------------------------------------------

const base = {
  path: '/ok',
  method: 'POST' as const,
  body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
  headers: { 'content-type': 'application/json' },
  start: 'together' as const,
  rampMs: 0,
  connectTimeoutMs: 1000,
  headersTimeoutMs: 5000,
  bodyTimeoutMs: 5000,
};

test('runClosedLoop: c workers x n requests, warm-up unrecorded, one connection per worker, Server-Timing parsed', async () => {
  const server = await startScriptedServer();
  try {
    const seen: number[] = [];
    let lastProgress: [number, number] = [0, 0];
    const res = await runClosedLoop(
      { ...base, url: server.url, concurrency: 4, requestsPerWorker: 5, warmupRequestsPerWorker: 1 },
      { request: (r) => seen.push(r.worker), progress: (d, t) => (lastProgress = [d, t]) },
    );
    assert.equal(res.aborted, false);
    assert.equal(res.records.length, 20);
    assert.equal(seen.length, 20);
    assert.deepEqual(lastProgress, [20, 20]);
    assert.deepEqual(res.warmup, { count: 4, errors: 0 });
    assert.equal(server.requests, 24, '4 warm-up + 20 measured');
    assert.equal(server.connections, 4, 'one persistent connection per worker');
    for (let w = 0; w < 4; w++) {
      const seqs = res.records.filter((r) => r.worker === w).map((r) => r.seq);
      assert.deepEqual(seqs, [0, 1, 2, 3, 4]);
    }
    for (const r of res.records) {
      assert.equal(r.status, 200);
      assert.equal(r.errorClass, null);
      assert.deepEqual(r.serverTiming, { queue: 1.5, exec: 100.25 });
      assert.ok(r.endMs >= r.startMs && r.startMs >= r.intendedStartMs);
      assert.ok(Math.abs(r.e2eMs - (r.endMs - r.startMs)) < 1e-6);
    }
    const s = res.summary;
    assert.equal(s.count, 20);
    assert.equal(s.ok, 20);
    assert.equal(s.queueMs?.p99, 1.5);
    assert.equal(s.execMs?.max, 100.25);
    assert.ok(s.peakInFlight >= 1 && s.peakInFlight <= 4);
    assert.ok(s.wholeRunThroughputRps !== null && s.wholeRunThroughputRps > 0);
    assert.ok(res.t0EpochMs > 0);
    assert.ok(res.loadgen.cpuPct !== null && res.loadgen.cpuPct >= 0);
    // how late each request was sent: every record counted, never negative (sends are never early)
    assert.equal(s.sendDelayMs?.n, 20);
    assert.ok((s.sendDelayMs?.min ?? -1) >= 0);
    assert.equal(s.lateSends, undefined, 'no lateSendThresholdMs given: not counted');
  } finally {
    await server.close();
  }
});

test('runClosedLoop without a request subscriber: Server-Timing parsed after the measured phase, no object per request without one, progress coalesced', async () => {
  const server = await startScriptedServer();
  try {
    const calls: [number, number][] = [];
    const t = performance.now();
    const ok = await runClosedLoop({ ...base, url: server.url, concurrency: 4, requestsPerWorker: 60 }, { progress: (d, total) => calls.push([d, total]) });
    const wallMs = performance.now() - t;
    assert.equal(ok.records.length, 240);
    for (const r of ok.records) assert.deepEqual(r.serverTiming, { queue: 1.5, exec: 100.25 }, 'the raw header of every record was parsed');
    assert.equal(ok.summary.execMs?.n, 240);
    // progress: the last request always, otherwise at most once per PROGRESS_EVERY_MS of the run's clock
    assert.deepEqual(calls.at(-1), [240, 240]);
    assert.ok(calls.length <= 2 + wallMs / PROGRESS_EVERY_MS, `${calls.length} progress calls in ${wallMs.toFixed(0)} ms: not one per request`);
    for (let i = 1; i < calls.length; i++) assert.ok(calls[i]![0] > calls[i - 1]![0], 'counts only grow');

    const no = await runClosedLoop({ ...base, url: server.url, path: '/status/503', concurrency: 2, requestsPerWorker: 3 });
    assert.equal(no.records.length, 6);
    for (const r of no.records) assert.equal(r.serverTiming, NO_SERVER_TIMING, 'an answer without Server-Timing shares the one empty object');
    assert.ok(Object.isFrozen(NO_SERVER_TIMING) && Object.keys(NO_SERVER_TIMING).length === 0);
    assert.equal(no.summary.queueMs, null);
  } finally {
    await server.close();
  }
});

test('runClosedLoop: error classes connect, reset, timeout, http', async () => {
  const server = await startScriptedServer();
  try {
    const one = { ...base, concurrency: 2, requestsPerWorker: 2 };
    const connect = await runClosedLoop({ ...one, url: `http://127.0.0.1:${await closedPort()}` });
    assert.deepEqual(connect.summary.errors, { connect: 4, reset: 0, timeout: 0, http: 0, other: 0 });
    assert.ok(connect.records.every((r) => r.status === null));

    const reset = await runClosedLoop({ ...one, url: server.url, path: '/reset' });
    assert.deepEqual(reset.summary.errors, { connect: 0, reset: 4, timeout: 0, http: 0, other: 0 });

    const t = Date.now();
    const timeout = await runClosedLoop({ ...one, url: server.url, path: '/hang', headersTimeoutMs: 200 });
    assert.deepEqual(timeout.summary.errors, { connect: 0, reset: 0, timeout: 4, http: 0, other: 0 });
    assert.ok(Date.now() - t < 3000);
    for (const r of timeout.records) assert.ok(r.e2eMs >= 190, `timed out after ${r.e2eMs} ms`);

    const http503 = await runClosedLoop({ ...one, url: server.url, path: '/status/503' });
    assert.deepEqual(http503.summary.errors, { connect: 0, reset: 0, timeout: 0, http: 4, other: 0 });
    assert.ok(http503.records.every((r) => r.status === 503));
    assert.equal(http503.summary.ok, 0);
    assert.equal(http503.summary.e2eMs, null);
  } finally {
    await server.close();
  }
});

test('runClosedLoop: together vs ramp intended start offsets', async () => {
  const server = await startScriptedServer();
  try {
    const opts = { ...base, url: server.url, path: '/ok?delay=20', concurrency: 4, requestsPerWorker: 3, warmupRequestsPerWorker: 1 };
    const together = await runClosedLoop({ ...opts, start: 'together', rampMs: 400 });
    const ramp = await runClosedLoop({ ...opts, start: 'ramp', rampMs: 400 });
    const first = (rs: RequestRecord[], w: number) => rs.find((r) => r.worker === w && r.seq === 0) as RequestRecord;
    for (let w = 0; w < 4; w++) {
      assert.equal(first(together.records, w).intendedStartMs, 0);
      assert.equal(first(ramp.records, w).intendedStartMs, w * 100);
      assert.equal(firstIntendedStartMs('ramp', w, 4, 400), w * 100);
      assert.ok(first(ramp.records, w).startMs >= w * 100, 'never starts before its slot');
    }
    for (const res of [together, ramp]) {
      for (const r of res.records) {
        if (r.seq === 0) continue;
        const prev = res.records.find((p) => p.worker === r.worker && p.seq === r.seq - 1) as RequestRecord;
        assert.equal(r.intendedStartMs, prev.endMs, 'closed loop: next request meant to start at the previous end');
      }
    }
    // the ramp spreads first starts over ~300 ms; together starts them within a few ms
    const lastFirstStart = (rs: RequestRecord[]) => Math.max(...rs.filter((r) => r.seq === 0).map((r) => r.startMs));
    assert.ok(lastFirstStart(ramp.records) >= 300);
    assert.ok(lastFirstStart(together.records) < 50);
  } finally {
    await server.close();
  }
});

test('runClosedLoop: abort stops the run, drops cut requests and closes connections', async () => {
  const server = await startScriptedServer();
  try {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 150);
    const t = Date.now();
    let last: [number, number] | null = null;
    const res = await runClosedLoop({ ...base, url: server.url, path: '/hang', concurrency: 3, requestsPerWorker: 10, signal: ac.signal }, { progress: (d, total) => (last = [d, total]) });
    assert.ok(Date.now() - t < 2000);
    assert.equal(res.aborted, true);
    assert.equal(res.records.length, 0);
    assert.deepEqual(last, [0, 30], 'an aborted run reports its last count');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(server.connections, 3);
  } finally {
    await server.close();
  }
});

test('runClosedLoop: sendUntilMs stops sending at that time; requests in flight finish and are recorded', async () => {
  const server = await startScriptedServer();
  try {
    const res = await runClosedLoop({ ...base, url: server.url, path: '/ok?delay=30', concurrency: 3, requestsPerWorker: 1000, sendUntilMs: 200 });
    assert.equal(res.aborted, false);
    // 200 ms at ≥ 30 ms per request: at most 7 per worker (0, 30, ..., 180), at least 1
    for (let w = 0; w < 3; w++) {
      const mine = res.records.filter((r) => r.worker === w);
      assert.ok(mine.length >= 1 && mine.length <= 7, `worker ${w}: ${mine.length} requests`);
    }
    assert.ok(res.records.every((r) => r.startMs < 200), 'no send at or after 200 ms');
    assert.ok(res.records.every((r) => r.status === 200), 'the last ones were answered, not cut');
    assert.ok(Math.max(...res.records.map((r) => r.endMs)) >= 200 - 30, 'sent until near the deadline');
  } finally {
    await server.close();
  }
});

test('runClosedLoop: invalid options name the option', async () => {
  await assert.rejects(runClosedLoop({ ...base, url: 'http://127.0.0.1:1', concurrency: 0, requestsPerWorker: 1 }), /concurrency/);
  await assert.rejects(runClosedLoop({ ...base, url: 'http://127.0.0.1:1', concurrency: 1, requestsPerWorker: 1.5 }), /requestsPerWorker/);
  await assert.rejects(runClosedLoop({ ...base, url: 'http://127.0.0.1:1', concurrency: 1, requestsPerWorker: 1, headersTimeoutMs: 0 }), /headersTimeoutMs/);
  await assert.rejects(runClosedLoop({ ...base, url: 'http://127.0.0.1:1', concurrency: 1, requestsPerWorker: 1, lateSendThresholdMs: -1 }), /lateSendThresholdMs/);
  await assert.rejects(runClosedLoop({ ...base, url: 'http://127.0.0.1:1', concurrency: 1, requestsPerWorker: 1, sendUntilMs: Number.NaN }), /sendUntilMs/);
});
