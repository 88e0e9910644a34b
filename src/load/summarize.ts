/**
 * Summary of one closed-loop run from its request records — pure, no I/O.
 *
 * Definitions (times in ms after t0):
 * - completed = records with errorClass null (2xx responses); errors are counted by class.
 * - wholeRunThroughputRps = completed / (last end - first start), over all records; the source
 *   study's definition. With n requests per worker it includes the ramp-up and drain edges, so it
 *   stays below the bound (about n/(n+1) of it with a ramp over one latency).
 * - steadyStateThroughputRps: the sum over workers of each worker's closed-loop rate after its
 *   first answer: Σ_w (successes of w ending after its first end) / (last end of w − first end
 *   of w). Each worker's span from its first to its last answer holds whole request cycles, so the
 *   ramp-up (first request, which includes start-up and any initial queue) and the drain are left
 *   out, and lock-step waves with jitter (start together) add no bias — a single window over all
 *   workers, cut at the earliest last answer, would drop most of the last wave (≈ (n−2)/(n−1)).
 *   Workers with fewer than two answers add nothing; null when no worker has a positive span.
 *   steadyWindow reports [latest first end, earliest last end] and the successes ending in it,
 *   for the record; it is not used for the rate.
 * - peakInFlight: the most records whose [start, end) intervals overlap (an end at t is counted
 *   before a start at t, so a worker's back-to-back requests never count twice).
 * - e2eMs percentiles over completed requests; queueMs / execMs over completed requests that
 *   carried that Server-Timing entry.
 * - sendDelayMs: percentiles of startMs − intendedStartMs over all records (how late the generator
 *   sent them: a busy event loop or a slow subscriber delays the next send of a closed-loop worker,
 *   a late timer delays a ramp slot). lateSends: the records whose send delay exceeds
 *   `lateSendThresholdMs`, and their share of all records (only when a threshold is given).
 */
import { percentiles } from '../compute/stats/percentiles.ts';
import type { ErrorClass, LoadSummary, Percentiles, RequestRecord } from '../types/load.ts';

/**
 * @param records measured requests, any order
 * @param opts.lateSendThresholdMs when given, `lateSends` counts sends later than this (ms)
 */
export function summarize(records: readonly RequestRecord[], concurrency: number, requestsPerWorker: number, opts: { lateSendThresholdMs?: number } = {}): LoadSummary {
  const errors: Record<ErrorClass, number> = { connect: 0, reset: 0, timeout: 0, http: 0, other: 0 };
  const e2e: number[] = [];
  const queue: number[] = [];
  const exec: number[] = [];
  // per worker index (integers >= 0): first and last end; `workers` lists the indices in the order
  // they first appear in `records` (the order the rates are summed in)
  const firstEnd: number[] = [];
  const lastEnd: number[] = [];
  const workers: number[] = [];
  let minStart = Infinity;
  let maxEnd = -Infinity;
  let ok = 0;
  const sendDelay: number[] = [];
  const lateThreshold = opts.lateSendThresholdMs;
  let late = 0;
  const kinds: Record<string, number> = {};
  const extra = new Map<string, number[]>();

  for (const r of records) {
    if (r.errorKind !== undefined) kinds[r.errorKind] = (kinds[r.errorKind] ?? 0) + 1;
    const delay = r.startMs - r.intendedStartMs;
    sendDelay.push(delay);
    if (lateThreshold !== undefined && delay > lateThreshold) late++;
    if (r.errorClass === null) {
      ok++;
      e2e.push(r.e2eMs);
      const q = r.serverTiming.queue;
      if (q !== undefined) queue.push(q);
      const x = r.serverTiming.exec;
      if (x !== undefined) exec.push(x);
      for (const k in r.serverTiming) {
        if (CORE_TIMINGS.has(k)) continue;
        let xs = extra.get(k);
        if (xs === undefined) extra.set(k, (xs = []));
        xs.push(r.serverTiming[k] as number);
      }
    } else {
      errors[r.errorClass]++;
    }
    if (r.startMs < minStart) minStart = r.startMs;
    if (r.endMs > maxEnd) maxEnd = r.endMs;
    const w = r.worker;
    const fe = firstEnd[w];
    if (fe === undefined) {
      workers.push(w);
      firstEnd[w] = r.endMs;
      lastEnd[w] = r.endMs;
    } else {
      if (r.endMs < fe) firstEnd[w] = r.endMs;
      if (r.endMs > (lastEnd[w] as number)) lastEnd[w] = r.endMs;
    }
  }

  const wholeSpanMs = maxEnd - minStart;
  const wholeRunThroughputRps = records.length > 0 && wholeSpanMs > 0 ? ok / (wholeSpanMs / 1000) : null;

  const { steadyWindow, steadyStateThroughputRps } = steadyState(records, workers, firstEnd, lastEnd);

  return {
    concurrency,
    requestsPerWorker,
    count: records.length,
    ok,
    errors,
    wholeRunThroughputRps,
    steadyStateThroughputRps,
    steadyWindow,
    peakInFlight: peakInFlight(records),
    e2eMs: percentiles(e2e),
    queueMs: percentiles(queue),
    execMs: percentiles(exec),
    sendDelayMs: percentiles(sendDelay),
    ...(lateThreshold === undefined ? {} : { lateSends: records.length > 0 ? { thresholdMs: lateThreshold, count: late, share: late / records.length } : null }),
    ...(Object.keys(kinds).length > 0 ? { errorKinds: sortedRecord(kinds) } : {}),
    ...(extra.size > 0 ? { timingMs: timingPercentiles(extra) } : {}),
  };
}

/**
 * The steady-state figures (see the module doc): the window [latest first end, earliest last end]
 * with the successes ending in it (null when empty), and the sum of per-worker closed-loop rates
 * after each worker's first answer (null when no worker has a positive span). `workers` lists the
 * worker indices; `firstEnd` / `lastEnd` are indexed by worker. Pure.
 */
function steadyState(records: readonly RequestRecord[], workers: readonly number[], firstEnd: readonly number[], lastEnd: readonly number[]): Pick<LoadSummary, 'steadyWindow' | 'steadyStateThroughputRps'> {
  let steadyWindow: LoadSummary['steadyWindow'] = null;
  let steadyStateThroughputRps: number | null = null;
  if (records.length > 0) {
    let windowStart = -Infinity;
    let windowEnd = Infinity;
    for (const w of workers) {
      if ((firstEnd[w] as number) > windowStart) windowStart = firstEnd[w] as number;
      if ((lastEnd[w] as number) < windowEnd) windowEnd = lastEnd[w] as number;
    }
    if (windowEnd > windowStart) {
      let completions = 0;
      for (const r of records) if (r.errorClass === null && r.endMs > windowStart && r.endMs <= windowEnd) completions++;
      steadyWindow = { startMs: windowStart, endMs: windowEnd, completions };
    }
    // per-worker closed-loop rates after the first answer
    const okAfterFirst: number[] = [];
    for (const w of workers) okAfterFirst[w] = 0;
    for (const r of records) {
      if (r.errorClass === null && r.endMs > (firstEnd[r.worker] as number)) okAfterFirst[r.worker] = (okAfterFirst[r.worker] as number) + 1;
    }
    let rate = 0;
    let spans = 0;
    for (const w of workers) {
      const span = (lastEnd[w] as number) - (firstEnd[w] as number);
      if (span > 0) {
        rate += (okAfterFirst[w] as number) / (span / 1000);
        spans++;
      }
    }
    if (spans > 0) steadyStateThroughputRps = rate;
  }
  return { steadyWindow, steadyStateThroughputRps };
}

/** Percentiles of each extra Server-Timing entry, keys sorted (stable JSON). */
function timingPercentiles(extra: ReadonlyMap<string, number[]>): Record<string, NonNullable<ReturnType<typeof percentiles>>> {
  return Object.fromEntries([...extra.keys()].sort().map((k) => [k, percentiles(extra.get(k)!) as NonNullable<ReturnType<typeof percentiles>>]));
}

/** The Server-Timing entries the summary has its own fields for (queue, exec) or that a cell stores apart (permit, a stream's ttft and gaps). */
const CORE_TIMINGS = new Set(['queue', 'exec', 'permit', 'ttft', 'gapmean', 'gapmax']);

/** The same record with its keys in sorted order (stable JSON). */
function sortedRecord(r: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(r).sort().map((k) => [k, r[k]!]));
}

/** Most records in flight at once: sweep over sorted starts and ends, ends first on ties. */
export function peakInFlight(records: readonly RequestRecord[]): number {
  const n = records.length;
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = records[i] as RequestRecord;
    starts[i] = r.startMs;
    ends[i] = r.endMs;
  }
  starts.sort();
  ends.sort();
  let inFlight = 0;
  let peak = 0;
  let e = 0;
  for (let s = 0; s < n; s++) {
    const t = starts[s] as number;
    while (e < n && (ends[e] as number) <= t) {
      e++;
      inFlight--;
    }
    inFlight++;
    if (inFlight > peak) peak = inFlight;
  }
  return peak;
}

/** One request of a mix in a cell (TargetCell.byRequest): records, successes, and the successes' e2e percentiles (ms). */
export interface RequestTally {
  count: number;
  ok: number;
  e2eMs: Percentiles | null;
}

/**
 * A cell's records split by the mix's request (RequestRecord.req indexes `names`, the mix's names in
 * mix order): per name the records, the successes (errorClass null) and the e2e percentiles of the
 * successes (R type 7, src/compute/stats/percentiles.ts; null without one). Every name is a key,
 * in `names` order, a request never sent with count 0. Pure.
 * @throws RangeError when a record carries no `req` or one outside `names`, or `names` repeats a name
 */
export function summarizeByRequest(records: readonly RequestRecord[], names: readonly string[]): Record<string, RequestTally> {
  if (new Set(names).size !== names.length) throw new RangeError(`summarizeByRequest: names repeat (${names.join(', ')})`);
  const count = new Array<number>(names.length).fill(0);
  const ok = new Array<number>(names.length).fill(0);
  const e2e: number[][] = names.map(() => []);
  for (const r of records) {
    const k = r.req;
    if (k === undefined || !Number.isInteger(k) || k < 0 || k >= names.length) {
      throw new RangeError(`summarizeByRequest: record ${r.worker}-${r.seq} has req ${String(k)}, not an index of the ${names.length} names`);
    }
    count[k]!++;
    if (r.errorClass === null) {
      ok[k]!++;
      e2e[k]!.push(r.e2eMs);
    }
  }
  return Object.fromEntries(names.map((name, k) => [name, { count: count[k]!, ok: ok[k]!, e2eMs: percentiles(e2e[k]!) }]));
}
