/**
 * The open-loop (arrival-rate) load generator: requests are scheduled at a rate λ for a duration,
 * independent of answers, so a server that falls behind meets a growing backlog instead of a
 * generator that politely waits (the closed loop's coordinated omission, Gil Tene, "How NOT to
 * measure latency", 2015; k6 calls unsent ones dropped iterations).
 *
 * Every scheduled request ends as exactly one of: a record (sent; latency from its intended send
 * time and from its actual send, both kept), or an unsent record with its intended time and reason
 * (the in-flight cap `maxInFlight` was reached at that moment). A request whose intended time passed
 * while the event loop was busy is sent at once and counted as late (`lateSends`), never skipped.
 *
 * Connections: one undici `Pool` with `maxInFlight` connections, pipelining 1, so a request in
 * flight holds its own connection (the SUT sees as many concurrent requests as are in flight).
 *
 * A mix or an id header (OpenLoopOptions.mix, idHeader): arrival i sends the mix's entry
 * order[i % order.length] and carries the id `<idPrefix>o-<i>`. The Pool may queue a request's options object
 * until a connection is free, so an object with an id is taken from a free list per entry and given
 * back only when its request finished (ArrivalRequests): at most `maxInFlight` objects per entry, none
 * per request.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import { classifyError, classifyStatus } from './errors.ts';
import { parseServerTiming } from './server-timing.ts';
import { summarize } from './summarize.ts';
import { startLoadgenMeter } from './meter.ts';
import { connectionOptionsOf, dispatchOptionsOf, requestSetOf } from './dispatch-options.ts';
import type { RawHeaderDispatchOptions, RequestSet } from './dispatch-options.ts';
import { percentiles } from '../compute/stats/percentiles.ts';
import type { ErrorClass, LoadEvents, LoadResult, LoadgenStats, OpenLoopOptions, OpenLoopSummary, RequestRecord, UnsentRecord } from '../types/load.ts';

/**
 * A seeded uniform generator on [0, 1): mulberry32 (Tommy Ettinger's 32-bit generator, public
 * domain). Deterministic for a seed, so a Poisson schedule can be reproduced.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The arrival schedule: intended send times in ms after t0, ascending, all in [0, durationS·1000).
 * `constant`: i · 1000/λ for i = 0 .. ⌈λ·durationS⌉ − 1. `poisson`: a Poisson process of rate λ —
 * exponential gaps −ln(1 − U)/λ with U from mulberry32(seed), first arrival at the first gap. Pure.
 * @throws RangeError for λ ≤ 0 or durationS ≤ 0 (not finite included)
 */
export function arrivalSchedule(kind: 'constant' | 'poisson', ratePerS: number, durationS: number, seed: number): number[] {
  if (!(Number.isFinite(ratePerS) && ratePerS > 0)) throw new RangeError(`open loop: arrivalRatePerS must be > 0 (got ${ratePerS})`);
  if (!(Number.isFinite(durationS) && durationS > 0)) throw new RangeError(`open loop: durationS must be > 0 (got ${durationS})`);
  const endMs = durationS * 1000;
  const out: number[] = [];
  if (kind === 'constant') {
    const gapMs = 1000 / ratePerS;
    for (let i = 0; i * gapMs < endMs; i++) out.push(i * gapMs);
    return out;
  }
  const u = mulberry32(seed);
  let t = 0;
  for (;;) {
    t += (-Math.log(1 - u()) / ratePerS) * 1000;
    if (t >= endMs) return out;
    out.push(t);
  }
}

interface Outcome {
  status: number | null;
  errorClass: ErrorClass | null;
  serverTiming: string | string[] | null;
}

/** One request's dispatch handler (undici's native callbacks; the body is read and dropped). */
class OneRequest implements Dispatcher.DispatchHandler {
  private status = 0;
  private timing: string | string[] | null = null;
  constructor(private readonly settle: (o: Outcome) => void) {}
  private done = false;
  finish(err: unknown): void {
    if (this.done) return;
    this.done = true;
    if (err === null) this.settle({ status: this.status, errorClass: classifyStatus(this.status), serverTiming: this.timing });
    else this.settle({ status: this.status === 0 ? null : this.status, errorClass: classifyError(err), serverTiming: this.timing });
  }
  onConnect(): void {}
  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    this.status = statusCode;
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      const name = rawHeaders[i] as Buffer;
      if (name.length === 13 && name.toString('latin1').toLowerCase() === 'server-timing') {
        const v = (rawHeaders[i + 1] as Buffer).toString('latin1');
        this.timing = this.timing === null ? v : typeof this.timing === 'string' ? [this.timing, v] : [...this.timing, v];
      }
    }
    return true;
  }
  onData(): boolean {
    return true;
  }
  onComplete(): void {
    this.finish(null);
  }
  onError(err: Error): void {
    this.finish(err);
  }
}

/**
 * The open loop's requests with a mix or an id header: the entry of each arrival, and options objects
 * reused once their request finished (undici's Pool may hold the object until a connection is free).
 */
class ArrivalRequests {
  private readonly free: RawHeaderDispatchOptions[][] = [];
  constructor(private readonly set: RequestSet) {
    for (let k = 0; k < set.entries; k++) this.free.push([]);
  }
  /** prepended to every arrival's id (OpenLoopOptions.idPrefix) */
  get idPrefix(): string {
    return this.set.idPrefix;
  }
  /** whether records carry `req` (a mix was given) */
  get mixed(): boolean {
    return this.set.order !== null;
  }
  /** The mix entry of arrival i: order[i % length]; 0 without a mix. */
  entryOf(i: number): number {
    const order = this.set.order;
    return order === null ? 0 : (order[i % order.length] as number);
  }
  /** Options for entry k carrying `id` (a free object, or a new one); give it back with `release` once its request finished. */
  take(k: number, id: string): RawHeaderDispatchOptions {
    if (!this.set.hasId) return this.set.make(k);
    const o = (this.free[k] as RawHeaderDispatchOptions[]).pop() ?? this.set.make(k);
    o.headers[o.headers.length - 1] = id;
    return o;
  }
  release(k: number, o: RawHeaderDispatchOptions): void {
    if (this.set.hasId) (this.free[k] as RawHeaderDispatchOptions[]).push(o);
  }
}

/**
 * The open-loop part of a cell's summary from its records (pure; the driver and re-summarising a
 * stored run use it): scheduled = the schedule's length (default sent + unsent, which it equals for
 * a cell that ran to the end; an aborted cell passes its schedule, so what was never reached is not
 * hidden); achieved rate = sent / durationS; latency from the intended send = endMs − intendedStartMs
 * over successes (percentiles, R type 7).
 */
export function summarizeOpenLoop(records: readonly RequestRecord[], unsentCount: number, p: Pick<OpenLoopSummary, 'arrival' | 'seed' | 'targetRatePerS' | 'durationS' | 'maxInFlight'>, scheduled = records.length + unsentCount): OpenLoopSummary {
  const fromIntended: number[] = [];
  for (const r of records) if (r.errorClass === null) fromIntended.push(r.endMs - r.intendedStartMs);
  return {
    arrival: p.arrival,
    seed: p.seed,
    targetRatePerS: p.targetRatePerS,
    durationS: p.durationS,
    scheduled,
    sent: records.length,
    achievedRatePerS: records.length / p.durationS,
    unsent: { inFlightCap: unsentCount },
    maxInFlight: p.maxInFlight,
    e2eFromIntendedMs: percentiles(fromIntended),
  };
}

function validate(o: OpenLoopOptions): void {
  if (!Number.isInteger(o.maxInFlight) || o.maxInFlight < 1) throw new RangeError(`open loop: maxInFlight must be an integer >= 1 (got ${o.maxInFlight})`);
  if (o.arrival !== 'constant' && o.arrival !== 'poisson') throw new RangeError(`open loop: arrival must be 'constant' or 'poisson' (got ${String(o.arrival)})`);
  if (!Number.isInteger(o.seed)) throw new RangeError(`open loop: seed must be an integer (got ${o.seed})`);
  for (const k of ['connectTimeoutMs', 'headersTimeoutMs', 'bodyTimeoutMs'] as const) {
    if (!(Number.isFinite(o[k]) && o[k] > 0)) throw new RangeError(`open loop: ${k} must be > 0 ms (got ${o[k]})`);
  }
}

/**
 * Run one open-loop cell: send the schedule's requests at their intended times, wait for every
 * answer, summarise. Never rejects for request failures (they are records) nor for refusals (they
 * are `unsent`); rejects on invalid options (RangeError). On abort, returns what finished before
 * with `aborted` true (such a result is not a measurement).
 *
 * Records: `worker` 0, `seq` = schedule index, `intendedStartMs` = arrival time, `startMs` = when it
 * was handed to undici, `e2eMs` = end − startMs (from the actual send), `req` = the mix entry (with a mix). The summary's `openLoop`
 * adds `e2eFromIntendedMs` (end − intendedStartMs), counts and the achieved rate.
 */
export async function runOpenLoop(o: OpenLoopOptions, events: LoadEvents = {}): Promise<LoadResult> {
  validate(o);
  const schedule = arrivalSchedule(o.arrival, o.arrivalRatePerS, o.durationS, o.seed);
  const dispatchOpts = dispatchOptionsOf(o);
  const requestSet = requestSetOf(o); // RangeError for a bad mix or id header, before the pool
  const arrivals = requestSet === null ? null : new ArrivalRequests(requestSet);
  const pool = openLoopPool(o);
  const signal = o.signal;
  let aborted = signal?.aborted ?? false;
  const onAbort = () => {
    aborted = true;
    void pool.destroy().catch(() => {});
  };
  signal?.addEventListener('abort', onAbort, { once: true });

  const records: RequestRecord[] = [];
  const unsent: UnsentRecord[] = [];
  const total = schedule.length;
  let inFlight = 0;
  let done = 0;
  const pending: Promise<void>[] = [];
  const meter = startLoadgenMeter();
  const t0 = process.hrtime.bigint();
  const t0EpochMs = Date.now();
  const ms = (t: bigint) => Number(t - t0) / 1e6;
  const settled = () => {
    done++;
    events.progress?.(done, total);
  };

  const send = (seq: number, intended: number): Promise<void> => {
    inFlight++;
    const k = arrivals === null ? 0 : arrivals.entryOf(seq);
    const opts = arrivals === null ? dispatchOpts : arrivals.take(k, `${arrivals.idPrefix}o-${seq}`);
    const start = process.hrtime.bigint();
    return new Promise<Outcome>((resolve) => {
      const h = new OneRequest(resolve);
      try {
        pool.dispatch(opts, h);
      } catch (err) {
        h.finish(err);
      }
    }).then((out) => {
      const end = process.hrtime.bigint();
      inFlight--;
      if (arrivals !== null) arrivals.release(k, opts as RawHeaderDispatchOptions);
      if (aborted) return;
      const record = sentRecord(seq, intended, start, end, t0, out);
      if (arrivals !== null && arrivals.mixed) record.req = k;
      records.push(record);
      events.request?.(record);
      settled();
    });
  };

  let loadgen: LoadgenStats | undefined;
  try {
    for (let i = 0; i < total && !aborted; i++) {
      const intended = schedule[i] as number;
      const wait = intended - ms(process.hrtime.bigint());
      if (wait >= 1) {
        try {
          await sleep(Math.floor(wait), undefined, { signal });
        } catch {
          break; // aborted
        }
      }
      // spin the last sub-millisecond on the event loop, so sends are not a whole timer tick late
      while (intended - ms(process.hrtime.bigint()) > 0) await new Promise<void>((r) => setImmediate(r));
      if (aborted) break;
      if (inFlight >= o.maxInFlight) {
        unsent.push({ seq: i, intendedStartMs: intended, reason: 'in-flight-cap' });
        settled();
        continue;
      }
      pending.push(send(i, intended));
    }
    await Promise.all(pending);
    loadgen = meter.stop(ms(process.hrtime.bigint()));
  } finally {
    if (loadgen === undefined) meter.stop(0); // a failure: the lag monitor ends all the same
    signal?.removeEventListener('abort', onAbort);
    await closePool(pool, aborted);
  }
  return openLoopResult(o, records, unsent, total, t0EpochMs, aborted, loadgen);
}

/** Ends the pool: destroyed after an abort (requests in flight are dropped), else closed (destroyed if closing fails). */
async function closePool(pool: Pool, aborted: boolean): Promise<void> {
  if (aborted) await pool.destroy().catch(() => {});
  else await pool.close().catch(() => pool.destroy());
}

/** The cell's pool: `maxInFlight` connections, pipelining 1, the options' timeouts, long keep-alive. */
function openLoopPool(o: OpenLoopOptions): Pool {
  return new Pool(new URL(o.url).origin, {
    connections: o.maxInFlight,
    ...connectionOptionsOf(o),
  });
}

/** The record of one sent request: times in ms after t0 (hrtime ns), e2eMs from the actual send. */
function sentRecord(seq: number, intended: number, start: bigint, end: bigint, t0: bigint, out: Outcome): RequestRecord {
  return {
    worker: 0,
    seq,
    intendedStartMs: intended,
    startMs: Number(start - t0) / 1e6,
    endMs: Number(end - t0) / 1e6,
    e2eMs: Number(end - start) / 1e6,
    status: out.status,
    errorClass: out.errorClass,
    serverTiming: parseServerTiming(out.serverTiming),
  };
}

/** The cell's result: its records and unsent, the summary with its `openLoop` part (scheduled = `total`). */
function openLoopResult(o: OpenLoopOptions, records: RequestRecord[], unsent: UnsentRecord[], total: number, t0EpochMs: number, aborted: boolean, loadgen: LoadgenStats): LoadResult {
  const summary = summarize(records, o.maxInFlight, 1, o.lateSendThresholdMs === undefined ? {} : { lateSendThresholdMs: o.lateSendThresholdMs });
  summary.openLoop = summarizeOpenLoop(records, unsent.length, {
    arrival: o.arrival, seed: o.arrival === 'poisson' ? o.seed : null, targetRatePerS: o.arrivalRatePerS, durationS: o.durationS, maxInFlight: o.maxInFlight,
  }, total);
  return { t0EpochMs, aborted, records, unsent, summary, warmup: { count: 0, errors: 0 }, loadgen };
}
