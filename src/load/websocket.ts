/**
 * The WebSocket driver (DriverKind `websocket`, study 002 scenario 5, issue 13): N connections to
 * the SUT's `/ws/push` (sut/…/WsPushService.java), opened over a ramp, held, then closed. The SUT
 * pushes one message per interval on every connection, each carrying its seq and scheduled send
 * time; the driver records per message its connection, seq, scheduled and receive times (lateness =
 * receive − scheduled, same host clock) and per connection its opening handshake (the cell's request
 * records: one per connection) and, when it closed before the driver closed it, when and why.
 *
 * Timeline, ms after t0 (the ramp's start): connection i is opened at i × rampMs / N; once every
 * opening has settled (open, failed or timed out), the measurement window opens one interval after the
 * last connection opened (so every connection's schedule has begun) and lasts holdS; the driver keeps
 * listening `graceMs` longer for late messages, then closes every connection (code 1000). A message
 * counts when its scheduled time lies in the window; expected = N × holdS × 1000 / interval, every
 * connection asked for (one that never opened or dropped counts its messages as missing).
 *
 * Progress watchdog: once messages are due, no message for `noProgressMs` while connections are open
 * records `noProgress`, takes a JSON thread dump of the SUT (returned as `stallDump`) and ends the
 * cell there instead of hanging (a blocking handler on a bounded pool can stop delivering).
 *
 * Client: undici 7's WebSocket (WHATWG API) with its own Agent per cell (connect timeout set).
 * Host limits are checked before the first connection: N above maxWebSocketConnections (descriptors
 * and ephemeral ports, src/adapters/host/limits.ts) is refused with the limit named.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, WebSocket } from 'undici';
import { percentiles } from '../compute/stats/percentiles.ts';
import { countsDelta } from '../compute/stats/aggregate.ts';
import { maxWebSocketConnections, readHostLimits, type HostLimits } from '../adapters/host/limits.ts';
import { getThreadDump, getWsStats } from '../adapters/jvm/client.ts';
import type { WsPushStats } from '../types/sut-api.ts';
import { VtbenchError, EXIT } from '../types/errors.ts';
import { summarize } from './summarize.ts';
import { startLoadgenMeter } from './meter.ts';
import type { ErrorClass, LoadResult, RequestRecord, WebSocketSummary, WsRawRecords, WsServerDelta } from '../types/load.ts';

/**
 * The fastest the driver opens connections, per s: a ramp shorter than N / this is stretched to it.
 * Measured here (2 shared cores, a cold SUT): 1,000 connections opened within 1 s took 6 s per
 * handshake at the median and 126 of them passed a 10 s connect timeout (undici runs the whole fetch
 * algorithm per handshake, Spring's handshake handler its own), so a faster ramp measures the
 * handshakes, not the held connections. A stated cap, 2.5 times below the rate that failed; not
 * measured as sufficient on every host (failed opens are counted by cause either way).
 */
export const WS_MAX_OPEN_RATE_PER_S = 400;

/** The ramp a cell of N connections uses, ms: the asked one, stretched to N / WS_MAX_OPEN_RATE_PER_S. Pure. */
export function wsRampMs(connections: number, rampMs: number): number {
  return Math.max(rampMs, (connections / WS_MAX_OPEN_RATE_PER_S) * 1000);
}

/** Options of one WebSocket cell. */
export interface WebSocketOptions {
  /** the SUT's origin, e.g. http://127.0.0.1:19080 (ws:// is derived) */
  baseUrl: string;
  /** the push endpoint, e.g. /ws/push */
  path: string;
  /** N */
  connections: number;
  /** the ramp over which the N connections are opened, ms (stretched to wsRampMs) */
  rampMs: number;
  /** the measurement window, s */
  holdS: number;
  /** an opening handshake not done after this is abandoned (cause `timeout`), ms */
  connectTimeoutMs: number;
  /** how long after the window late messages still count as received, ms; default max(2000, 2 × interval) */
  graceMs?: number;
  /** the watchdog's silence, ms; default max(5000, 5 × interval) */
  noProgressMs?: number;
  /** this host's limits (default: read now) */
  host?: HostLimits;
  signal?: AbortSignal;
}

/** Why a connection dropped, from the close code the client saw. */
export function dropCause(code: number): string {
  switch (code) {
    case 4500: return 'server-limit'; // CloseStatus.SESSION_NOT_RELIABLE: the SUT's session decorator limit
    case 1011: return 'server-error';
    case 1006: return 'abnormal';
    case 1001: return 'going-away';
    case 1000: return 'normal';
    default: return `code-${code}`;
  }
}

/** `pool-12` → `pool-`: a thread name without its trailing number. */
function threadPrefix(name: string): string {
  return name.replace(/\d+$/, '') || '(unnamed)';
}

/** The server's counters over the cell: after − before (the tick-lag maximum is the after read's, since before). Pure. */
export function serverDelta(before: WsPushStats | null, after: WsPushStats | null): WsServerDelta | null {
  if (!before || !after) return null;
  return {
    closesByCause: countsDelta(before.closesByCause, after.closesByCause),
    sessionsOpened: after.sessionsOpened - before.sessionsOpened,
    sessionsClosed: after.sessionsClosed - before.sessionsClosed,
    ticks: after.ticks - before.ticks,
    messagesSent: after.messagesSent - before.messagesSent,
    messagesRejected: after.messagesRejected - before.messagesRejected,
    messagesSkipped: after.messagesSkipped - before.messagesSkipped,
    tickLagOver100Ms: after.tickLagOver100Ms - before.tickLagOver100Ms,
    tickLagMaxMs: after.tickLagMaxMs,
    sendTimeLimitMs: after.sendTimeLimitMs,
    bufferSizeLimitBytes: after.bufferSizeLimitBytes,
  };
}

/** What `summarizeWebSocket` needs besides the raw records: the summary's given fields, the handshakes and the raw records. */
export type WsSummaryInput = Pick<WebSocketSummary, 'connections' | 'rampMs' | 'holdS' | 'intervalMs' | 'workMs' | 'graceMs' | 'windowStartMs' | 'heldToEnd' | 'byThreadPrefix' | 'noProgress' | 'hostMaxConnections' | 'server'> & {
  /** one record per connection asked for (errorClass null = opened) */
  handshakes: readonly RequestRecord[];
  raw: WsRawRecords;
};

/**
 * The cell's summary from its raw records (the rule in WebSocketSummary's doc): messages in the
 * window, each (connection, seq) once; lateness percentiles over them; seq gaps and out-of-order
 * arrivals over every message received, per connection. Pure.
 */
export function summarizeWebSocket(i: WsSummaryInput): WebSocketSummary {
  const windowEndMs = i.windowStartMs + i.holdS * 1000;
  const m = i.raw.messages;
  const late: number[] = [];
  const seen = new Set<number>();
  const lastSeq = new Map<number, number>();
  const firstSeq = new Map<number, number>();
  const distinct = new Map<number, Set<number>>();
  let outOfOrder = 0;
  for (let k = 0; k < m.seq.length; k++) {
    const conn = m.conn[k] as number;
    const seq = m.seq[k] as number;
    const prev = lastSeq.get(conn);
    if (prev !== undefined && seq <= prev) outOfOrder++;
    else lastSeq.set(conn, seq);
    if (!firstSeq.has(conn) || seq < (firstSeq.get(conn) as number)) firstSeq.set(conn, seq);
    let d = distinct.get(conn);
    if (!d) distinct.set(conn, (d = new Set()));
    d.add(seq);
    const s = m.scheduledMs[k] as number;
    if (s < i.windowStartMs || s >= windowEndMs) continue;
    const key = conn * 2 ** 24 + seq; // seq < 2^24: 194 days at one message per second
    if (seen.has(key)) continue;
    seen.add(key);
    late.push((m.receiveMs[k] as number) - s);
  }
  let seqGaps = 0;
  for (const [conn, d] of distinct) seqGaps += (lastSeq.get(conn) as number) - (firstSeq.get(conn) as number) + 1 - d.size;
  const failedToOpen: Record<string, number> = {};
  let opened = 0;
  for (const h of i.handshakes) {
    if (h.errorClass === null) opened++;
    else failedToOpen[h.errorClass] = (failedToOpen[h.errorClass] ?? 0) + 1;
  }
  const dropped: Record<string, number> = {};
  for (const c of i.raw.drops.cause) dropped[c] = (dropped[c] ?? 0) + 1;
  const expected = Math.round((i.connections * i.holdS * 1000) / i.intervalMs);
  return {
    connections: i.connections,
    opened,
    failedToOpen,
    dropped,
    heldToEnd: i.heldToEnd,
    rampMs: i.rampMs,
    holdS: i.holdS,
    intervalMs: i.intervalMs,
    workMs: i.workMs,
    graceMs: i.graceMs,
    windowStartMs: i.windowStartMs,
    windowEndMs,
    messagesExpected: expected,
    messagesInWindow: late.length,
    deliveredShare: expected > 0 ? late.length / expected : 0,
    messagesReceived: m.seq.length,
    latenessMs: percentiles(late),
    seqGaps,
    outOfOrder,
    byThreadPrefix: i.byThreadPrefix,
    messagesUnparsed: 0,
    noProgress: i.noProgress,
    hostMaxConnections: i.hostMaxConnections,
    server: i.server,
  };
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * Run one WebSocket cell. Never rejects for a connection that fails or drops (counted by cause);
 * rejects when the SUT does not answer `GET /bench/ws` before the cell (it serves no push endpoint).
 * @throws VtbenchError(EXIT.usage) when N exceeds what the host can hold (maxWebSocketConnections)
 * @throws VtbenchError(EXIT.notReady) when the SUT has no `/bench/ws`
 */
export async function runWebSocketCell(o: WebSocketOptions): Promise<LoadResult> {
  const host = o.host ?? readHostLimits();
  const hostMax = maxWebSocketConnections(host);
  if (o.connections > hostMax) {
    throw new VtbenchError(
      `--levels: ${o.connections} WebSocket connections exceed what this host can hold: ${hostMax} (ulimit -n ${host.openFiles} less ${host.openFiles - hostMax > 0 ? 'a reserve' : 'nothing'} per process, ${host.ephemeralPorts} ephemeral ports)`,
      `lower --levels to ${hostMax} or less, or raise ulimit -n (hard limit) and net.ipv4.ip_local_port_range`, EXIT.usage);
  }
  let before: WsPushStats;
  try {
    before = await getWsStats(o.baseUrl);
  } catch (e) {
    throw new VtbenchError(`the SUT at ${o.baseUrl} did not answer GET /bench/ws (${(e as Error).message}): it serves no WebSocket push endpoint`, 'rebuild the SUT (sut/) from this tree', EXIT.notReady);
  }
  const intervalMs = before.intervalMs;
  const graceMs = o.graceMs ?? Math.max(2000, 2 * intervalMs);
  const noProgressMs = o.noProgressMs ?? Math.max(5000, 5 * intervalMs);
  const wsUrl = `${o.baseUrl.replace(/^http/, 'ws').replace(/\/+$/, '')}${o.path}`;
  const agent = new Agent({ connect: { timeout: o.connectTimeoutMs } });
  const N = o.connections;
  const rampMs = wsRampMs(N, o.rampMs);

  const t0 = performance.now();
  const t0EpochMs = Date.now();
  const ms = () => performance.now() - t0;
  const meter = startLoadgenMeter();
  const handshakes: RequestRecord[] = new Array(N);
  const sockets: (WebSocket | null)[] = new Array(N).fill(null);
  const closedByUs = new Uint8Array(N);
  const raw: WsRawRecords = { messages: { conn: [], seq: [], scheduledMs: [], receiveMs: [], queueMs: [] }, drops: { conn: [], atMs: [], code: [], cause: [] } };
  const byThreadPrefix: Record<string, number> = {};
  let open = 0;
  let lastMessageMs: number | null = null;
  let lastOpenMs = 0;
  let aborted = false;
  let unparsed = 0;

  const openOne = (i: number, intended: number) => new Promise<void>((resolve) => {
    const start = ms();
    let settled = false;
    const settle = (errorClass: ErrorClass | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const end = ms();
      handshakes[i] = { worker: i, seq: 0, intendedStartMs: intended, startMs: start, endMs: end, e2eMs: end - start, status: errorClass === null ? 101 : null, errorClass, serverTiming: {} };
      if (errorClass === null) {
        open++;
        lastOpenMs = Math.max(lastOpenMs, end);
      }
      resolve();
    };
    let ws: WebSocket;
    try {
      ws = new WebSocket(wsUrl, { dispatcher: agent });
    } catch {
      settle('other');
      return;
    }
    sockets[i] = ws;
    const timer = setTimeout(() => {
      settle('timeout');
      try { ws.close(); } catch { /* closing an unopened socket */ }
    }, o.connectTimeoutMs);
    ws.addEventListener('open', () => settle(null));
    ws.addEventListener('error', () => settle('connect'));
    ws.addEventListener('message', (ev) => {
      const at = ms();
      lastMessageMs = at;
      try {
        const j = JSON.parse(ev.data as string) as { seq: number; scheduledEpochMs: number; queueMs: number; thread: string };
        raw.messages.conn.push(i);
        raw.messages.seq.push(j.seq);
        raw.messages.scheduledMs.push(r3(j.scheduledEpochMs - t0EpochMs));
        raw.messages.receiveMs.push(r3(at));
        raw.messages.queueMs.push(j.queueMs);
        const p = threadPrefix(j.thread);
        byThreadPrefix[p] = (byThreadPrefix[p] ?? 0) + 1;
      } catch {
        unparsed++;
      }
    });
    ws.addEventListener('close', (ev) => {
      if (!settled) {
        settle('connect');
        return;
      }
      if (handshakes[i]?.errorClass !== null) return;
      open--;
      if (closedByUs[i]) return;
      raw.drops.conn.push(i);
      raw.drops.atMs.push(r3(ms()));
      raw.drops.code.push(ev.code);
      raw.drops.cause.push(dropCause(ev.code));
    });
  });

  const onAbort = () => { aborted = true; };
  o.signal?.addEventListener('abort', onAbort, { once: true });
  let noProgress: WebSocketSummary['noProgress'] = null;
  let stallDump: LoadResult['stallDump'];
  let windowStartMs = 0;
  let heldToEnd = 0;
  let loadgen;
  try {
    // (1) ramp: connection i at i × rampMs / N
    const opening: Promise<void>[] = [];
    for (let i = 0; i < N && !aborted; i++) {
      const intended = (i * rampMs) / N;
      const wait = intended - ms();
      if (wait >= 1) await sleep(Math.floor(wait));
      opening.push(openOne(i, intended));
    }
    await Promise.all(opening);
    // (2) the window, watched: one interval after the last open, holdS long, then the grace
    windowStartMs = (open > 0 ? lastOpenMs : ms()) + intervalMs;
    const endMs = open === 0 ? 0 : windowStartMs /* nothing to hold: no window */ + o.holdS * 1000 + graceMs;
    const firstDueMs = intervalMs + noProgressMs; // a message is due one interval after the first open
    while (!aborted && ms() < endMs) {
      await sleep(Math.min(250, Math.max(1, endMs - ms())));
      const now = ms();
      const since = lastMessageMs ?? 0;
      if (open > 0 && now > firstDueMs && now - since > noProgressMs && now < windowStartMs + o.holdS * 1000) {
        noProgress = { atMs: r3(now), lastMessageMs: lastMessageMs === null ? null : r3(lastMessageMs), afterMs: noProgressMs, openConnections: open };
        try {
          stallDump = { raw: await getThreadDump(o.baseUrl, 30_000), atMs: r3(now) };
        } catch {
          /* the dump is evidence, not the result: the cell still records no progress */
        }
        break;
      }
    }
    heldToEnd = open;
    loadgen = meter.stop(ms());
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    for (let i = 0; i < N; i++) {
      const ws = sockets[i];
      if (!ws) continue;
      closedByUs[i] = 1;
      try { ws.close(1000, 'cell end'); } catch { /* already closed */ }
    }
    await waitFor(() => open <= 0, 10_000);
    await agent.destroy().catch(() => {});
  }
  for (let i = 0; i < N; i++) {
    if (!handshakes[i]) handshakes[i] = { worker: i, seq: 0, intendedStartMs: (i * rampMs) / N, startMs: ms(), endMs: ms(), e2eMs: 0, status: null, errorClass: 'other', serverTiming: {} };
  }
  await sleep(200); // the SUT counts the closes it just saw
  const after = await getWsStats(o.baseUrl).catch(() => null);
  const records = handshakes.filter((h, i) => i < N && h !== undefined);
  const summary = summarize(records, N, 1);
  summary.websocket = summarizeWebSocket({
    connections: N, rampMs, holdS: o.holdS, intervalMs, workMs: before.workMs, graceMs, windowStartMs,
    handshakes: records, raw, heldToEnd, byThreadPrefix, noProgress, hostMaxConnections: hostMax, server: serverDelta(before, after),
  });
  summary.websocket.messagesUnparsed = unparsed;
  return {
    t0EpochMs, aborted, records, summary, warmup: { count: 0, errors: 0 },
    loadgen: loadgen ?? { eventLoopLagP99Ms: null, eventLoopLagMaxMs: null, cpuPct: null },
    ws: raw,
    ...(stallDump ? { stallDump } : {}),
  };
}

/** Poll `done` every 50 ms until it holds or `timeoutMs` passed. */
async function waitFor(done: () => boolean, timeoutMs: number): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!done() && performance.now() < end) await sleep(50);
}
