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
import { startLoadgenMeter, type LoadgenMeter } from './meter.ts';
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
  const hostMax = checkHostCanHold(o);
  const before = await wsStatsBefore(o.baseUrl);
  const intervalMs = before.intervalMs;
  const graceMs = o.graceMs ?? Math.max(2000, 2 * intervalMs);
  const noProgressMs = o.noProgressMs ?? Math.max(5000, 5 * intervalMs);
  const wsUrl = `${o.baseUrl.replace(/^http/, 'ws').replace(/\/+$/, '')}${o.path}`;
  const agent = new Agent({ connect: { timeout: o.connectTimeoutMs } });
  const N = o.connections;
  const rampMs = wsRampMs(N, o.rampMs);

  const c = new WsCell(N, wsUrl, agent, o.connectTimeoutMs);
  const onAbort = () => { c.aborted = true; };
  o.signal?.addEventListener('abort', onAbort, { once: true });
  let watched: WsWatch;
  let heldToEnd = 0;
  let loadgen;
  try {
    await openRamp(c, rampMs);
    watched = await watchWindow(c, o.baseUrl, o.holdS, intervalMs, graceMs, noProgressMs);
    heldToEnd = c.open;
    loadgen = c.meter.stop(c.ms());
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    await c.closeAll();
    await agent.destroy().catch(() => {});
  }
  c.fillMissingHandshakes(rampMs);
  await sleep(200); // the SUT counts the closes it just saw
  const after = await getWsStats(o.baseUrl).catch(() => null);
  const records = c.handshakes.filter((h, i) => i < N && h !== undefined);
  const summary = summarize(records, N, 1);
  summary.websocket = summarizeWebSocket({
    connections: N, rampMs, holdS: o.holdS, intervalMs, workMs: before.workMs, graceMs, windowStartMs: watched.windowStartMs,
    handshakes: records, raw: c.raw, heldToEnd, byThreadPrefix: c.byThreadPrefix, noProgress: watched.noProgress, hostMaxConnections: hostMax, server: serverDelta(before, after),
  });
  summary.websocket.messagesUnparsed = c.unparsed;
  const stallDump = watched.stallDump;
  return {
    t0EpochMs: c.t0EpochMs, aborted: c.aborted, records, summary, warmup: { count: 0, errors: 0 },
    loadgen: loadgen ?? { eventLoopLagP99Ms: null, eventLoopLagMaxMs: null, cpuPct: null },
    ws: c.raw,
    ...(stallDump ? { stallDump } : {}),
  };
}

/**
 * The most connections this host can hold (maxWebSocketConnections of `o.host`, or of the limits
 * read now). @throws VtbenchError(EXIT.usage) when `o.connections` exceeds it.
 */
function checkHostCanHold(o: WebSocketOptions): number {
  const host = o.host ?? readHostLimits();
  const hostMax = maxWebSocketConnections(host);
  if (o.connections > hostMax) {
    throw new VtbenchError(
      `--levels: ${o.connections} WebSocket connections exceed what this host can hold: ${hostMax} (ulimit -n ${host.openFiles} less ${host.openFiles - hostMax > 0 ? 'a reserve' : 'nothing'} per process, ${host.ephemeralPorts} ephemeral ports)`,
      `lower --levels to ${hostMax} or less, or raise ulimit -n (hard limit) and net.ipv4.ip_local_port_range`, EXIT.usage);
  }
  return hostMax;
}

/** The SUT's push counters before the cell. @throws VtbenchError(EXIT.notReady) when `GET /bench/ws` fails. */
async function wsStatsBefore(baseUrl: string): Promise<WsPushStats> {
  try {
    return await getWsStats(baseUrl);
  } catch (e) {
    throw new VtbenchError(`the SUT at ${baseUrl} did not answer GET /bench/ws (${(e as Error).message}): it serves no WebSocket push endpoint`, 'rebuild the SUT (sut/) from this tree', EXIT.notReady);
  }
}

/**
 * The live state of one cell: its clock (t0 = the ramp's start), the N sockets with their handshake
 * records, the raw message and drop records, and the counts the watchdog reads (`open`,
 * `lastMessageMs`). Created at t0 (the loadgen meter starts then).
 */
class WsCell {
  readonly t0: number;
  readonly t0EpochMs: number;
  readonly meter: LoadgenMeter;
  /** one per connection asked for, set when its opening settles */
  readonly handshakes: RequestRecord[];
  readonly sockets: (WebSocket | null)[];
  /** 1 once the driver closed connection i (its close is then no drop) */
  readonly closedByUs: Uint8Array;
  readonly raw: WsRawRecords;
  readonly byThreadPrefix: Record<string, number>;
  open = 0;
  lastMessageMs: number | null = null;
  lastOpenMs = 0;
  aborted = false;
  unparsed = 0;

  constructor(
    readonly N: number,
    private readonly wsUrl: string,
    private readonly agent: Agent,
    private readonly connectTimeoutMs: number,
  ) {
    this.t0 = performance.now();
    this.t0EpochMs = Date.now();
    this.meter = startLoadgenMeter();
    this.handshakes = new Array(N);
    this.sockets = new Array(N).fill(null);
    this.closedByUs = new Uint8Array(N);
    this.raw = { messages: { conn: [], seq: [], scheduledMs: [], receiveMs: [], queueMs: [] }, drops: { conn: [], atMs: [], code: [], cause: [] } };
    this.byThreadPrefix = {};
  }

  /** ms since t0 */
  ms(): number {
    return performance.now() - this.t0;
  }

  /**
   * Opens connection i (intended at `intended` ms): resolves once its opening settled (open, failed
   * or timed out, recorded in `handshakes[i]`); then records its messages and, unless the driver
   * closed it, its drop.
   */
  openOne(i: number, intended: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const start = this.ms();
      let settled = false;
      const settle = (errorClass: ErrorClass | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const end = this.ms();
        this.handshakes[i] = { worker: i, seq: 0, intendedStartMs: intended, startMs: start, endMs: end, e2eMs: end - start, status: errorClass === null ? 101 : null, errorClass, serverTiming: {} };
        if (errorClass === null) {
          this.open++;
          this.lastOpenMs = Math.max(this.lastOpenMs, end);
        }
        resolve();
      };
      let ws: WebSocket;
      try {
        ws = new WebSocket(this.wsUrl, { dispatcher: this.agent });
      } catch {
        settle('other');
        return;
      }
      this.sockets[i] = ws;
      const timer = setTimeout(() => {
        settle('timeout');
        try { ws.close(); } catch { /* closing an unopened socket */ }
      }, this.connectTimeoutMs);
      ws.addEventListener('open', () => settle(null));
      ws.addEventListener('error', () => settle('connect'));
      ws.addEventListener('message', (ev) => this.onMessage(i, ev.data as string));
      ws.addEventListener('close', (ev) => {
        if (!settled) {
          settle('connect');
          return;
        }
        this.onClose(i, ev.code);
      });
    });
  }

  /** Records one pushed message of connection i (or counts it unparsed). */
  private onMessage(i: number, data: string): void {
    const at = this.ms();
    this.lastMessageMs = at;
    try {
      const j = JSON.parse(data) as { seq: number; scheduledEpochMs: number; queueMs: number; thread: string };
      const m = this.raw.messages;
      m.conn.push(i);
      m.seq.push(j.seq);
      m.scheduledMs.push(r3(j.scheduledEpochMs - this.t0EpochMs));
      m.receiveMs.push(r3(at));
      m.queueMs.push(j.queueMs);
      const p = threadPrefix(j.thread);
      this.byThreadPrefix[p] = (this.byThreadPrefix[p] ?? 0) + 1;
    } catch {
      this.unparsed++;
    }
  }

  /** The close of an opened connection i: one fewer open; a drop unless the driver closed it. */
  private onClose(i: number, code: number): void {
    if (this.handshakes[i]?.errorClass !== null) return;
    this.open--;
    if (this.closedByUs[i]) return;
    const d = this.raw.drops;
    d.conn.push(i);
    d.atMs.push(r3(this.ms()));
    d.code.push(code);
    d.cause.push(dropCause(code));
  }

  /** Closes every socket (code 1000) and waits up to 10 s for their closes. */
  async closeAll(): Promise<void> {
    for (let i = 0; i < this.N; i++) {
      const ws = this.sockets[i];
      if (!ws) continue;
      this.closedByUs[i] = 1;
      try { ws.close(1000, 'cell end'); } catch { /* already closed */ }
    }
    await waitFor(() => this.open <= 0, 10_000);
  }

  /** A connection never attempted (the cell was aborted mid-ramp) gets an `other` handshake record. */
  fillMissingHandshakes(rampMs: number): void {
    const N = this.N;
    for (let i = 0; i < N; i++) {
      if (!this.handshakes[i]) this.handshakes[i] = { worker: i, seq: 0, intendedStartMs: (i * rampMs) / N, startMs: this.ms(), endMs: this.ms(), e2eMs: 0, status: null, errorClass: 'other', serverTiming: {} };
    }
  }
}

/** (1) The ramp: connection i opened at i × rampMs / N (stopped by an abort); resolves once every opening settled. */
async function openRamp(c: WsCell, rampMs: number): Promise<void> {
  const N = c.N;
  const opening: Promise<void>[] = [];
  for (let i = 0; i < N && !c.aborted; i++) {
    const intended = (i * rampMs) / N;
    const wait = intended - c.ms();
    if (wait >= 1) await sleep(Math.floor(wait));
    opening.push(c.openOne(i, intended));
  }
  await Promise.all(opening);
}

/** What the watched window found. */
interface WsWatch {
  windowStartMs: number;
  noProgress: WebSocketSummary['noProgress'];
  stallDump: LoadResult['stallDump'];
}

/**
 * (2) The window, watched: it opens one interval after the last open and lasts holdS, then the
 * grace; polled every 250 ms. No message for `noProgressMs` while connections are open (once
 * messages are due, before the window's end) records noProgress, takes a thread dump and ends it.
 */
async function watchWindow(c: WsCell, baseUrl: string, holdS: number, intervalMs: number, graceMs: number, noProgressMs: number): Promise<WsWatch> {
  let noProgress: WebSocketSummary['noProgress'] = null;
  let stallDump: LoadResult['stallDump'];
  const windowStartMs = (c.open > 0 ? c.lastOpenMs : c.ms()) + intervalMs;
  const endMs = c.open === 0 ? 0 : windowStartMs /* nothing to hold: no window */ + holdS * 1000 + graceMs;
  const firstDueMs = intervalMs + noProgressMs; // a message is due one interval after the first open
  while (!c.aborted && c.ms() < endMs) {
    await sleep(Math.min(250, Math.max(1, endMs - c.ms())));
    const now = c.ms();
    const since = c.lastMessageMs ?? 0;
    if (c.open > 0 && now > firstDueMs && now - since > noProgressMs && now < windowStartMs + holdS * 1000) {
      noProgress = { atMs: r3(now), lastMessageMs: c.lastMessageMs === null ? null : r3(c.lastMessageMs), afterMs: noProgressMs, openConnections: c.open };
      try {
        stallDump = { raw: await getThreadDump(baseUrl, 30_000), atMs: r3(now) };
      } catch {
        /* the dump is evidence, not the result: the cell still records no progress */
      }
      break;
    }
  }
  return { windowStartMs, noProgress, stallDump };
}

/** Poll `done` every 50 ms until it holds or `timeoutMs` passed. */
async function waitFor(done: () => boolean, timeoutMs: number): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!done() && performance.now() < end) await sleep(50);
}
