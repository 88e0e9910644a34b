/**
 * The closed-loop load generator: c workers, each with its own undici `Client` (one persistent
 * HTTP/1.1 connection, pipelining 1), each sending n requests back to back.
 *
 * Phases: (1) warm-up — every worker sends `warmupRequestsPerWorker` unrecorded requests, all at
 * once, so connections are open and warm; (2) t0 is taken after all warm-ups ended; (3) measured
 * phase — with `together` every worker's first request is meant for t0, with `ramp` worker i's is
 * meant for t0 + i * rampMs / c; each later request is meant to start when the worker's previous one
 * ended (closed loop). `intendedStartMs` records that schedule, `startMs` when the request was
 * handed to undici; the difference is the generator's own scheduling delay.
 *
 * Hot path: one reusable dispatch handler per worker (undici's native handler callbacks, no
 * response stream objects); the request body is encoded once; the response body is read and
 * discarded chunk by chunk; only `Server-Timing` is decoded from the raw headers; in the measured
 * phase each worker is a callback loop (no promise or outcome object per request) and times are
 * read with `performance.now()` (no BigInt per read).
 *
 * A mix or an id header (LoadOptions.mix, idHeader): each worker holds one dispatch options object
 * per mix entry (WorkerRequests), picks the entry of request seq from the mix's order and writes the
 * request's id into the object's last header slot; nothing else is built per request. Without
 * either, the one frozen options object of the cell is sent, as before.
 *
 * Work moved out of the measured phase (issue 20, it competes with the system under test there):
 * without a `request` subscriber, a record's `Server-Timing` header is kept raw and parsed once the
 * last request ended (`loadgen` figures are taken before that), and a record without the header
 * shares one frozen empty `serverTiming` object; `progress` is reported at most every
 * PROGRESS_EVERY_MS of the run's clock, and always for the last request.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'undici';
import type { Dispatcher } from 'undici';
import { classifyError, classifyStatus } from './errors.ts';
import { parseServerTiming } from './server-timing.ts';
import { summarize } from './summarize.ts';
import { startLoadgenMeter } from './meter.ts';
import { connectionOptionsOf, dispatchOptionsOf, requestSetOf } from './dispatch-options.ts';
import type { RawHeaderDispatchOptions, RequestSet } from './dispatch-options.ts';
import { firstIntendedStartMs } from './schedule.ts';
import type { ErrorClass, LoadEvents, LoadOptions, LoadResult, LoadgenStats, RequestRecord } from '../types/load.ts';

/** `progress` is reported when this many ms of the run's clock passed since the last report (and for the last request). */
export const PROGRESS_EVERY_MS = 100;
/**
 * The `serverTiming` of a record whose answer carried no Server-Timing header (and, until the
 * measured phase ends, of one whose raw header waits to be parsed): one shared object, frozen so a
 * consumer that writes into it fails loudly instead of changing every record.
 */
export const NO_SERVER_TIMING: Record<string, number> = Object.freeze({}) as Record<string, number>;

interface Outcome {
  status: number | null;
  errorClass: ErrorClass | null;
  serverTiming: string | string[] | null;
  errorKind?: string;
}

/** Bytes of an error answer's body read for its `error` code (the rest is dropped). */
const ERROR_BODY_BYTES = 1024;

/**
 * The `error` code of an error answer's JSON body (`{"error":"db_pool_exhausted",...}`), or
 * undefined. Only a leading `"error":"<code>"` string of letters, digits, `_`, `-` and `.` counts (an
 * OpenAI-style `{"error":{...}}` object has no code here).
 */
export function errorKindOf(body: string): string | undefined {
  const m = /"error"\s*:\s*"([A-Za-z0-9_.-]{1,64})"/.exec(body);
  return m?.[1];
}

/** What a worker's measured loop does with each outcome (set for the measured phase, null in the warm-up). */
interface OutcomeSink {
  outcome(status: number | null, errorClass: ErrorClass | null, serverTiming: string | string[] | null, errorKind: string | undefined): void;
}

/**
 * One worker's connection and its reusable dispatch handler (one request in flight at a time).
 * Two ways to send: `send` returns a promise of the outcome (warm-up); `dispatchTo` hands the
 * outcome to a sink with no promise or outcome object per request (the measured phase).
 */
class WorkerConnection implements Dispatcher.DispatchHandler {
  readonly client: Client;
  private status = 0;
  private timing: string | string[] | null = null;
  /** the first ERROR_BODY_BYTES of a >= 400 answer's body, or null */
  private errBody: Buffer[] | null = null;
  private errBodyLen = 0;
  private settle: ((o: Outcome) => void) | null = null;
  private sink: OutcomeSink | null = null;
  private inFlight = false;

  constructor(origin: string, o: LoadOptions) {
    this.client = new Client(origin, connectionOptionsOf(o));
  }

  send(opts: Dispatcher.DispatchOptions): Promise<Outcome> {
    return new Promise<Outcome>((resolve) => {
      this.settle = resolve;
      this.dispatchTo(opts, null);
    });
  }

  /** Sends one request; its outcome goes to `sink` (or to the pending `send` promise when null). */
  dispatchTo(opts: Dispatcher.DispatchOptions, sink: OutcomeSink | null): void {
    this.status = 0;
    this.timing = null;
    this.errBody = null;
    this.errBodyLen = 0;
    this.sink = sink;
    this.inFlight = true;
    try {
      this.client.dispatch(opts, this);
    } catch (err) {
      this.finish(err);
    }
  }

  private finish(err: unknown): void {
    if (!this.inFlight) return; // settled already (an error after completion)
    this.inFlight = false;
    const status = err === null ? this.status : this.status === 0 ? null : this.status;
    const errorClass = err === null ? classifyStatus(this.status) : classifyError(err);
    const errorKind = this.errBody !== null && err === null ? errorKindOf(Buffer.concat(this.errBody).toString('utf8')) : undefined;
    this.errBody = null;
    const sink = this.sink;
    if (sink !== null) {
      this.sink = null;
      sink.outcome(status, errorClass, this.timing, errorKind);
      return;
    }
    const settle = this.settle;
    if (settle === null) return;
    this.settle = null;
    settle({ status, errorClass, serverTiming: this.timing, ...(errorKind !== undefined ? { errorKind } : {}) });
  }

  // undici's native (v6-style) handler callbacks: no wrapper objects, raw headers as Buffers.
  onConnect(): void {}
  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    this.status = statusCode;
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      const name = rawHeaders[i] as Buffer;
      if (name.length === 13 && name.toString('latin1').toLowerCase() === 'server-timing') {
        const v = (rawHeaders[i + 1] as Buffer).toString('latin1');
        // several header lines are parsed one by one (junk ending one line must not hide the next)
        this.timing = this.timing === null ? v : typeof this.timing === 'string' ? [this.timing, v] : [...this.timing, v];
      }
    }
    return true;
  }
  onData(chunk: Buffer): boolean {
    // body read and dropped; an error answer's first bytes are kept for its `error` code
    if (this.status >= 400 && this.errBodyLen < ERROR_BODY_BYTES) {
      (this.errBody ??= []).push(chunk.subarray(0, ERROR_BODY_BYTES - this.errBodyLen));
      this.errBodyLen += Math.min(chunk.length, ERROR_BODY_BYTES - this.errBodyLen);
    }
    return true;
  }
  onComplete(): void {
    this.finish(null);
  }
  onError(err: Error): void {
    this.finish(err);
  }
}

/** What the measured loops share: the clock (ms after t0), the request, the record sink, the stop flag. */
interface MeasuredRun {
  now(): number;
  readonly opts: Dispatcher.DispatchOptions;
  readonly n: number;
  /** no request is sent at or after this time (ms after t0; Infinity: no limit) */
  readonly sendUntilMs: number;
  aborted(): boolean;
  /** a finished measured request (in worker order of completion); `rawTiming` its Server-Timing header lines, null when absent */
  record(r: RequestRecord, rawTiming: string | string[] | null): void;
}

/**
 * One worker's requests when the cell has a mix or an id header: its own options object per mix
 * entry (RequestSet.make), whose id slot it writes before each send (the worker has one request in
 * flight, and undici's Client reads the options within `dispatch`, so the object is free again at once).
 */
export class WorkerRequests {
  private readonly opts: RawHeaderDispatchOptions[] = [];
  private readonly order: readonly number[] | null;
  private readonly hasId: boolean;
  /** prepended to this worker's ids (LoadOptions.idPrefix) */
  readonly idPrefix: string;
  /** whether records carry `req` (a mix was given) */
  readonly mixed: boolean;

  /**
   * @param worker the worker's index in the cell (offset + own index in a shard): its place in the
   *   order and the first part of its ids
   */
  constructor(set: RequestSet, readonly worker: number) {
    for (let k = 0; k < set.entries; k++) this.opts.push(set.make(k));
    this.order = set.order;
    this.hasId = set.hasId;
    this.idPrefix = set.idPrefix;
    this.mixed = set.order !== null;
  }

  /** The mix entry of this worker's request `seq` (warm-up or measured): order[(worker + seq) % length]; 0 without a mix. */
  entryOf(seq: number): number {
    const order = this.order;
    return order === null ? 0 : (order[(this.worker + seq) % order.length] as number);
  }

  /** Entry k's options with the id header set to `id` (ignored without an id header). */
  prepare(k: number, id: string): Dispatcher.DispatchOptions {
    const o = this.opts[k] as RawHeaderDispatchOptions;
    if (this.hasId) o.headers[o.headers.length - 1] = id;
    return o;
  }
}

/**
 * A worker's measured phase: n requests back to back on its connection. Each outcome becomes a
 * record at once (end = when undici completed the response), and the next request is sent from a
 * microtask, intended for that end (closed loop) — the same moment an awaiting loop would send it,
 * without a promise per request.
 */
class WorkerLoop implements OutcomeSink {
  private seq = 0;
  private startMs = 0;
  /** the mix entry of the request in flight (with a plan) */
  private req = 0;
  private readonly next = () => this.sendNext();

  constructor(
    private readonly w: WorkerConnection,
    private readonly index: number,
    private intended: number,
    private readonly run: MeasuredRun,
    private readonly done: () => void,
    private readonly fail: (err: unknown) => void,
    /** the worker's mix / id-header requests; null: the run's one request (`run.opts`) */
    private readonly plan: WorkerRequests | null = null,
  ) {}

  /** Sends the next request, or ends the loop when n were sent, the send deadline passed or the run was aborted. */
  sendNext(): void {
    if (this.seq >= this.run.n || this.run.aborted()) {
      this.done();
      return;
    }
    const now = this.run.now();
    if (now >= this.run.sendUntilMs) {
      this.done();
      return;
    }
    const plan = this.plan;
    if (plan === null) {
      this.startMs = now;
      this.w.dispatchTo(this.run.opts, this);
      return;
    }
    const k = plan.entryOf(this.seq);
    this.req = k;
    const opts = plan.prepare(k, `${plan.idPrefix}${plan.worker}-${this.seq}`);
    this.startMs = now;
    this.w.dispatchTo(opts, this);
  }

  outcome(status: number | null, errorClass: ErrorClass | null, serverTiming: string | string[] | null, errorKind: string | undefined): void {
    const endMs = this.run.now();
    if (this.run.aborted()) {
      this.done(); // the request was cut by the abort: not a measurement
      return;
    }
    const startMs = this.startMs;
    const record: RequestRecord = {
      worker: this.index,
      seq: this.seq,
      intendedStartMs: this.intended,
      startMs,
      endMs,
      e2eMs: endMs - startMs,
      status,
      errorClass,
      serverTiming: NO_SERVER_TIMING, // the run parses the raw header (at once, or after the measured phase)
    };
    if (errorKind !== undefined) record.errorKind = errorKind; // set only when present (no spread of a temporary object per request)
    if (this.plan !== null && this.plan.mixed) record.req = this.req;
    try {
      this.run.record(record, serverTiming);
    } catch (err) {
      this.fail(err); // a throwing subscriber ends this worker and rejects the run, as an awaiting loop would
      return;
    }
    this.seq++;
    this.intended = endMs;
    queueMicrotask(this.next);
  }
}

function validate(o: LoadOptions): void {
  const positiveInt = (name: string, v: number) => {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`load: ${name} must be an integer >= 1 (got ${v})`);
  };
  const positive = (name: string, v: number) => {
    if (!Number.isFinite(v) || v <= 0) throw new RangeError(`load: ${name} must be > 0 ms (got ${v})`);
  };
  positiveInt('concurrency', o.concurrency);
  positiveInt('requestsPerWorker', o.requestsPerWorker);
  const w = o.warmupRequestsPerWorker ?? 0;
  if (!Number.isInteger(w) || w < 0) throw new RangeError(`load: warmupRequestsPerWorker must be an integer >= 0 (got ${w})`);
  if (o.start !== 'together' && o.start !== 'ramp') throw new RangeError(`load: start must be 'together' or 'ramp' (got ${String(o.start)})`);
  if (!Number.isFinite(o.rampMs) || o.rampMs < 0) throw new RangeError(`load: rampMs must be >= 0 (got ${o.rampMs})`);
  positive('connectTimeoutMs', o.connectTimeoutMs);
  positive('headersTimeoutMs', o.headersTimeoutMs);
  positive('bodyTimeoutMs', o.bodyTimeoutMs);
  const off = o.workerIndexOffset;
  if (off !== undefined && !(Number.isInteger(off) && off >= 0)) throw new RangeError(`load: workerIndexOffset must be an integer >= 0 (got ${off})`);
  const until = o.sendUntilMs;
  if (until !== undefined && !(Number.isFinite(until) && until >= 0)) throw new RangeError(`load: sendUntilMs must be >= 0 ms (got ${until})`);
  const late = o.lateSendThresholdMs;
  if (late !== undefined && !(Number.isFinite(late) && late >= 0)) throw new RangeError(`load: lateSendThresholdMs must be >= 0 ms (got ${late})`);
}

export { firstIntendedStartMs };

/** Run one closed-loop cell. Never rejects for request failures (they are records); rejects on invalid options. */
export async function runClosedLoop(options: LoadOptions, events: LoadEvents = {}): Promise<LoadResult> {
  validate(options);
  const { concurrency: c, requestsPerWorker: n, signal } = options;
  const warmupN = options.warmupRequestsPerWorker ?? 0;
  const origin = new URL(options.url).origin;
  const dispatchOpts = dispatchOptionsOf(options);
  const requestSet = requestSetOf(options); // RangeError for a bad mix or id header, before any connection
  const plans: (WorkerRequests | null)[] = [];
  const indexOffset = options.workerIndexOffset ?? 0;
  for (let i = 0; i < c; i++) plans.push(requestSet === null ? null : new WorkerRequests(requestSet, indexOffset + i));
  const onRequest = events.request;
  const onProgress = events.progress;
  const total = c * n;

  const workers: WorkerConnection[] = [];
  for (let i = 0; i < c; i++) workers.push(new WorkerConnection(origin, options));
  let aborted = signal?.aborted ?? false;
  const onAbort = () => {
    aborted = true;
    for (const w of workers) void w.client.destroy().catch(() => {});
  };
  signal?.addEventListener('abort', onAbort, { once: true });

  let warmup = { count: 0, errors: 0 };
  const records: RequestRecord[] = [];
  const deferred = new DeferredTimings();
  let t0EpochMs = Date.now();
  let loadgen: LoadgenStats = { eventLoopLagP99Ms: null, eventLoopLagMaxMs: null, cpuPct: null };
  try {
    if (aborted) throw new AbortRun();
    // (1) warm-up, all workers at once, unrecorded
    if (warmupN > 0) warmup = await warmUp(workers, warmupN, dispatchOpts, plans, () => aborted);
    if (aborted) throw new AbortRun();

    // (2) t0 and the generator's own meters
    const meter = startLoadgenMeter();
    // one clock for every time of the run: performance.now() (monotonic, fractional ms, no BigInt per read)
    const t0Ms = performance.now();
    t0EpochMs = Date.now();
    const ms = () => performance.now() - t0Ms;

    // (3) measured phase
    let done = 0;
    let progressAtMs = -Infinity;
    const run: MeasuredRun = {
      now: ms,
      opts: dispatchOpts,
      n,
      sendUntilMs: options.sendUntilMs ?? Infinity,
      aborted: () => aborted,
      record(record, rawTiming) {
        records.push(record);
        done++;
        if (rawTiming !== null) {
          // a subscriber sees the record now, so it is parsed now; else after the measured phase
          if (onRequest !== undefined) record.serverTiming = parseServerTiming(rawTiming);
          else deferred.add(record, rawTiming);
        }
        if (onRequest !== undefined) onRequest(record);
        if (onProgress !== undefined && (done === total || record.endMs - progressAtMs >= PROGRESS_EVERY_MS)) {
          progressAtMs = record.endMs;
          onProgress(done, total);
        }
      },
    };
    await runWorkers(workers, run, options, signal, plans);

    loadgen = meter.stop(ms());
    if (onProgress !== undefined && done < total) onProgress(done, total); // the last count of a run that ended early (aborted, or sending stopped at sendUntilMs)
  } catch (err) {
    if (!(err instanceof AbortRun)) throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await closeWorkers(workers, aborted);
  }

  deferred.parseAll();
  const summaryOpts = options.lateSendThresholdMs === undefined ? {} : { lateSendThresholdMs: options.lateSendThresholdMs };
  return { t0EpochMs, aborted, records, summary: summarize(records, c, n, summaryOpts), warmup, loadgen };
}

/**
 * (1) The warm-up: every worker sends `warmupN` unrecorded requests back to back, all workers at
 * once (a worker stops early once `isAborted()`); with a plan, warm-up request k of worker i is the
 * mix's entry for seq k and carries the id `w<i>-<k>`. Returns how many were sent and how many failed.
 */
async function warmUp(workers: readonly WorkerConnection[], warmupN: number, opts: Dispatcher.DispatchOptions, plans: readonly (WorkerRequests | null)[], isAborted: () => boolean): Promise<{ count: number; errors: number }> {
  const warmup = { count: 0, errors: 0 };
  await Promise.all(
    workers.map(async (w, i) => {
      const plan = plans[i] ?? null; // ids w<worker in the cell>-<k>
      for (let k = 0; k < warmupN && !isAborted(); k++) {
        const out = await w.send(plan === null ? opts : plan.prepare(plan.entryOf(k), `${plan.idPrefix}w${plan.worker}-${k}`));
        warmup.count++;
        if (out.errorClass !== null) warmup.errors++;
      }
    }),
  );
  return warmup;
}

/**
 * (3) The measured phase: worker i waits for its first intended start (firstIntendedStartMs:
 * together, or ramped), then runs its WorkerLoop; resolves when every worker is done, rejects when
 * one fails (a throwing subscriber).
 */
async function runWorkers(workers: readonly WorkerConnection[], run: MeasuredRun, options: LoadOptions, signal: AbortSignal | undefined, plans: readonly (WorkerRequests | null)[]): Promise<void> {
  const c = workers.length;
  const runWorker = async (index: number): Promise<void> => {
    const intended = firstIntendedStartMs(options.start, index, c, options.rampMs);
    if (intended > 0) await sleepUntil(intended, run.now, signal);
    await new Promise<void>((resolve, reject) => new WorkerLoop(workers[index] as WorkerConnection, index, intended, run, resolve, reject, plans[index] ?? null).sendNext());
  };
  const running: Promise<void>[] = [];
  for (let i = 0; i < c; i++) running.push(runWorker(i));
  await Promise.all(running);
}

/** Ends every worker's connection: destroyed after an abort, else closed (destroyed if closing fails). */
async function closeWorkers(workers: readonly WorkerConnection[], aborted: boolean): Promise<void> {
  if (aborted) await Promise.all(workers.map((w) => w.client.destroy().catch(() => {})));
  else await Promise.all(workers.map((w) => w.client.close().catch(() => w.client.destroy())));
}

class AbortRun extends Error {}

/**
 * Records whose raw `Server-Timing` header lines wait to be parsed (parseServerTiming) until the
 * measured phase is over: two parallel arrays, no pair object per request.
 */
class DeferredTimings {
  private readonly records: RequestRecord[] = [];
  private readonly raw: (string | string[])[] = [];

  add(record: RequestRecord, rawTiming: string | string[]): void {
    this.records.push(record);
    this.raw.push(rawTiming);
  }

  /** Sets each waiting record's `serverTiming` to its parsed header, then forgets them. */
  parseAll(): void {
    for (let i = 0; i < this.records.length; i++) (this.records[i] as RequestRecord).serverTiming = parseServerTiming(this.raw[i] as string | string[]);
    this.records.length = 0;
    this.raw.length = 0;
  }
}

/** Wait until `targetMs` after t0 (never earlier; `ms()` reads ms after t0); returns early when `signal` aborts. */
async function sleepUntil(targetMs: number, ms: () => number, signal: AbortSignal | undefined): Promise<void> {
  for (;;) {
    const remaining = targetMs - ms();
    if (remaining <= 0 || signal?.aborted) return;
    try {
      if (remaining >= 1) await sleep(Math.floor(remaining), undefined, { signal });
      else await new Promise<void>((r) => setImmediate(r));
    } catch {
      return; // aborted
    }
  }
}
