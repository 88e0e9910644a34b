/**
 * The websocket driver (src/load/websocket.ts) against a small RFC 6455 server written here (no
 * WebSocket library on the server side): it pushes `{seq, scheduledEpochMs, queueMs, thread}` on each
 * connection every `intervalMs`, like the SUT's /ws/push, and answers GET /bench/ws and
 * /bench/threaddump. Behaviours the SUT cannot be made to show on demand (a skipped seq, a 4500
 * close, a stall) are switched on per test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import { runWebSocketCell, summarizeWebSocket, dropCause, serverDelta } from '../../src/load/websocket.ts';
import { VtbenchError, EXIT } from '../../src/types/errors.ts';
import type { WsPushStats } from '../../src/types/sut-api.ts';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const HOST = { openFiles: 20_000, ephemeralPorts: 28_232, heapLimitBytes: 4 * 2 ** 30 };

interface FakeOptions {
  intervalMs: number;
  /** connection index (in open order) → seqs it skips */
  skip?: Map<number, Set<number>>;
  /** connection index → close with this code after sending this many messages */
  closeAfter?: Map<number, { n: number; code: number }>;
  /** no message at all after this many per connection */
  stallAfter?: number;
}

function textFrame(s: string): Buffer {
  const body = Buffer.from(s, 'utf8');
  if (body.length < 126) return Buffer.concat([Buffer.from([0x81, body.length]), body]);
  const h = Buffer.from([0x81, 126, 0, 0]);
  h.writeUInt16BE(body.length, 2);
  return Buffer.concat([h, body]);
}
const closeFrame = (code: number): Buffer => Buffer.from([0x88, 2, code >> 8, code & 0xff]);

async function fakeServer(f: FakeOptions): Promise<{ url: string; server: Server; stats: WsPushStats; dumps: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const state = {
    dumps: 0,
    stats: { path: '/ws/push', workMs: 0, intervalMs: f.intervalMs, sendTimeLimitMs: 10_000, bufferSizeLimitBytes: 524_288, sessionsOpen: 0, sessionsOpened: 0, sessionsClosed: 0, closesByCause: {}, ticks: 0, messagesSent: 0, messagesRejected: 0, messagesSkipped: 0, tickLagOver100Ms: 0, tickLagMaxMs: 0 } as WsPushStats,
  };
  let opened = 0;
  const server = createServer((req, res) => {
    if (req.url === '/bench/ws') res.end(JSON.stringify(state.stats));
    else if (req.url === '/bench/threaddump') {
      state.dumps++;
      res.end(JSON.stringify({ threadDump: { threadContainers: [{ container: '<root>', threads: [{ tid: 1, name: 'ws-tick', stack: [] }], threadCount: '1' }] } }));
    } else res.writeHead(404).end();
  });
  server.on('upgrade', (req, socket: Socket) => {
    sockets.add(socket);
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key'] as string}${GUID}`).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    const conn = opened++;
    state.stats.sessionsOpened++;
    const firstDue = Date.now() + f.intervalMs;
    let seq = 0;
    let sent = 0;
    const timer = setInterval(() => {
      seq++;
      if (f.stallAfter !== undefined && sent >= f.stallAfter) return;
      if (f.skip?.get(conn)?.has(seq)) return;
      socket.write(textFrame(JSON.stringify({ seq, scheduledEpochMs: firstDue + (seq - 1) * f.intervalMs, queueMs: 0.01, thread: `fake-${seq}` })));
      sent++;
      state.stats.messagesSent++;
      const c = f.closeAfter?.get(conn);
      if (c && sent >= c.n) {
        clearInterval(timer);
        socket.end(closeFrame(c.code));
      }
    }, f.intervalMs);
    timers.add(timer);
    socket.on('data', (d: Buffer) => {
      if ((d[0]! & 0x0f) === 0x8) {
        clearInterval(timer);
        state.stats.sessionsClosed++;
        socket.end(closeFrame(1000));
      }
    });
    socket.on('close', () => clearInterval(timer));
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`, server, get stats() { return state.stats; }, get dumps() { return state.dumps; },
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

test('five connections held 1 s at 200 ms: every expected message in the window, no gaps, lateness small, handshakes are the records', async () => {
  const fake = await fakeServer({ intervalMs: 200 });
  try {
    const r = await runWebSocketCell({ baseUrl: fake.url, path: '/ws/push', connections: 5, rampMs: 100, holdS: 1, connectTimeoutMs: 2000, graceMs: 300, host: HOST });
    const w = r.summary.websocket!;
    assert.equal(r.records.length, 5);
    assert.ok(r.records.every((h) => h.errorClass === null && h.status === 101), JSON.stringify(r.records));
    assert.equal(w.opened, 5);
    assert.equal(w.messagesExpected, 25); // 5 × 1 s / 200 ms
    assert.equal(w.messagesInWindow, 25, JSON.stringify(w));
    assert.equal(w.deliveredShare, 1);
    assert.equal(w.seqGaps, 0);
    assert.equal(w.outOfOrder, 0);
    assert.deepEqual(w.dropped, {});
    assert.equal(w.heldToEnd, 5);
    assert.ok(w.latenessMs!.p99 < 100 && w.latenessMs!.min > -5, JSON.stringify(w.latenessMs));
    assert.deepEqual(w.byThreadPrefix, { 'fake-': w.messagesReceived });
    assert.equal(w.noProgress, null);
    assert.equal(r.ws!.messages.seq.length, w.messagesReceived);
    assert.ok(w.windowStartMs >= 200 && w.windowEndMs === w.windowStartMs + 1000, JSON.stringify(w));
    assert.equal(w.server!.messagesSent, w.messagesReceived, 'the server counted what the client got');
    assert.equal(w.hostMaxConnections, 19_488);
  } finally {
    await fake.close();
  }
});

test('a skipped seq is a gap and a missing message; a 4500 close is a drop by server-limit and its later messages are missing', async () => {
  const fake = await fakeServer({ intervalMs: 200, skip: new Map([[0, new Set([3])]]), closeAfter: new Map([[1, { n: 2, code: 4500 }]]) });
  try {
    const r = await runWebSocketCell({ baseUrl: fake.url, path: '/ws/push', connections: 3, rampMs: 50, holdS: 1, connectTimeoutMs: 2000, graceMs: 300, host: HOST });
    const w = r.summary.websocket!;
    assert.equal(w.seqGaps, 1, JSON.stringify(w));
    assert.deepEqual(w.dropped, { 'server-limit': 1 });
    assert.deepEqual(r.ws!.drops.code, [4500]);
    assert.equal(w.heldToEnd, 2);
    assert.equal(w.messagesExpected, 15);
    assert.ok(w.messagesInWindow <= 15 - 5 - 1 + 1 && w.deliveredShare < 0.999, JSON.stringify(w)); // conn 1 sent nothing in the window, conn 0 missed ≤ 1
  } finally {
    await fake.close();
  }
});

test('the watchdog: no message for noProgressMs ends the cell early, records no progress and takes a thread dump', async () => {
  const fake = await fakeServer({ intervalMs: 200, stallAfter: 2 });
  try {
    const t = Date.now();
    const r = await runWebSocketCell({ baseUrl: fake.url, path: '/ws/push', connections: 2, rampMs: 10, holdS: 20, connectTimeoutMs: 2000, noProgressMs: 800, host: HOST });
    const w = r.summary.websocket!;
    assert.ok(Date.now() - t < 8000, 'ended long before the 20 s hold');
    assert.ok(w.noProgress !== null && w.noProgress.afterMs === 800 && w.noProgress.openConnections === 2, JSON.stringify(w.noProgress));
    assert.equal(fake.dumps, 1);
    assert.ok(r.stallDump && JSON.parse(r.stallDump.raw).threadDump, 'the dump is returned for the cell');
  } finally {
    await fake.close();
  }
});

test('more connections than the host holds are refused before any is opened, naming the limit', async () => {
  await assert.rejects(
    runWebSocketCell({ baseUrl: 'http://127.0.0.1:9', path: '/ws/push', connections: 5, rampMs: 0, holdS: 1, connectTimeoutMs: 1000, host: { ...HOST, openFiles: 515 } }),
    (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && e.message.includes('exceed what this host can hold: 3'),
  );
});

test('a SUT without /bench/ws is refused before the cell', async () => {
  const s = createServer((_q, res) => res.writeHead(404).end());
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(s.address() as { port: number }).port}`;
    await assert.rejects(runWebSocketCell({ baseUrl: url, path: '/ws/push', connections: 1, rampMs: 0, holdS: 1, connectTimeoutMs: 1000, host: HOST }), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.notReady && /GET \/bench\/ws/.test(e.message));
  } finally {
    s.close();
  }
});

test('summarizeWebSocket: window membership, duplicates once, gaps and out-of-order per connection, failed opens count as missing', () => {
  const hs = (i: number, ok: boolean) => ({ worker: i, seq: 0, intendedStartMs: 0, startMs: 0, endMs: 1, e2eMs: 1, status: ok ? 101 : null, errorClass: ok ? null : ('connect' as const), serverTiming: {} });
  const s = summarizeWebSocket({
    connections: 3, rampMs: 0, holdS: 2, intervalMs: 1000, workMs: 10, graceMs: 2000, windowStartMs: 1000,
    handshakes: [hs(0, true), hs(1, true), hs(2, false)],
    raw: {
      // conn 0: seq 1 (before the window), 2, 2 again, 4 (3 missing), then 3 late (out of order); conn 1: seq 2 and 3
      messages: { conn: [0, 0, 0, 0, 0, 1, 1], seq: [1, 2, 2, 4, 3, 2, 3], scheduledMs: [900, 1100, 1100, 2900, 2100, 1500, 2500], receiveMs: [915, 1112, 1113, 2920, 2300, 1520, 2530], queueMs: [0, 0, 0, 0, 0, 0, 0] },
      drops: { conn: [], atMs: [], code: [], cause: [] },
    },
    heldToEnd: 2, byThreadPrefix: {}, noProgress: null, hostMaxConnections: 100, server: null,
  });
  assert.equal(s.messagesExpected, 6);
  assert.equal(s.messagesInWindow, 5); // conn 0: 2, 4, 3; conn 1: 2, 3
  assert.equal(s.deliveredShare, 5 / 6);
  assert.equal(s.seqGaps, 0); // seq 3 of conn 0 did arrive, late
  assert.equal(s.outOfOrder, 2); // the duplicate 2 and the late 3
  assert.deepEqual(s.failedToOpen, { connect: 1 });
  assert.equal(s.latenessMs!.max, 200);
  assert.equal(s.latenessMs!.min, 12);
});

test('dropCause and serverDelta', () => {
  assert.equal(dropCause(4500), 'server-limit');
  assert.equal(dropCause(1011), 'server-error');
  assert.equal(dropCause(1006), 'abnormal');
  assert.equal(dropCause(4001), 'code-4001');
  const base: WsPushStats = { path: '/ws/push', workMs: 10, intervalMs: 1000, sendTimeLimitMs: 10_000, bufferSizeLimitBytes: 1, sessionsOpen: 0, sessionsOpened: 5, sessionsClosed: 5, closesByCause: { 'client-1000': 5 }, ticks: 50, messagesSent: 50, messagesRejected: 0, messagesSkipped: 0, tickLagOver100Ms: 0, tickLagMaxMs: 3 };
  const d = serverDelta(base, { ...base, sessionsOpened: 8, sessionsClosed: 8, closesByCause: { 'client-1000': 7, 'send-time-limit': 1 }, messagesSent: 80, messagesRejected: 2, tickLagMaxMs: 40 })!;
  assert.deepEqual(d.closesByCause, { 'client-1000': 2, 'send-time-limit': 1 });
  assert.equal(d.messagesSent, 30);
  assert.equal(d.messagesRejected, 2);
  assert.equal(d.tickLagMaxMs, 40);
  assert.equal(serverDelta(null, base), null);
});
