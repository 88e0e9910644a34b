/**
 * HdrHistograms per cell (issue 33 item 6): the shards of a real run's cell merged both ways — from
 * the per-request records (exact percentiles) and from per-shard histograms — agree within the
 * histogram's precision (3 significant digits), and merging histograms loses nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { cellHistograms, encodeValues, hdrPercentiles, mergeCellHistograms, mergeEncoded, toMicros, HDR_SIGNIFICANT_DIGITS } from '../../src/compute/stats/hdr.ts';
import { percentiles } from '../../src/compute/stats/percentiles.ts';
import { successfulColumns } from '../../src/compute/analysis/summary.ts';
import type { CompactRequests } from '../../src/types/run.ts';

const RUN = join(import.meta.dirname, '..', '..', 'runs', '20261130-100102-seed-000');
const CELL = 'virtual-c500-r3';
const LEVELS = [['p50', 0.5], ['p90', 0.9], ['p95', 0.95], ['p99', 0.99], ['p999', 0.999]] as const;

/** The requests of `req` whose worker is in shard `i` of `k` (worker mod k), as their own columns. */
function shardOf(req: CompactRequests, i: number, k: number): CompactRequests {
  const idx = req.worker.map((w, j) => [w, j] as const).filter(([w]) => w % k === i).map(([, j]) => j);
  const pick = <T>(xs: readonly T[]) => idx.map((j) => xs[j] as T);
  return { worker: pick(req.worker), seq: pick(req.seq), startMs: pick(req.startMs), e2eMs: pick(req.e2eMs), status: pick(req.status), error: pick(req.error), queueMs: pick(req.queueMs), execMs: pick(req.execMs) };
}

/**
 * |hdr − x| within HdrHistogram's precision: the bucket holding x is at most x / 10^(digits) wide (µs),
 * plus the 1 µs of rounding to whole µs and 0.5 µs of the columns' own rounding.
 */
function withinPrecision(hdrMs: number, exactMs: number): boolean {
  return Math.abs(hdrMs - exactMs) <= exactMs / 10 ** HDR_SIGNIFICANT_DIGITS + 0.0015;
}

test('a real run cell split over 3 shards: percentiles from merged histograms agree with the merged records within 3 significant digits', () => {
  const req = new RunStore(RUN).readRequests(CELL);
  const k = 3;
  const shards = Array.from({ length: k }, (_, i) => shardOf(req, i, k));
  assert.equal(shards.reduce((s, x) => s + x.e2eMs.length, 0), req.e2eMs.length, 'the shards hold every request once');
  const fromHistograms = mergeCellHistograms(shards.map((s) => cellHistograms(s)));
  // the other way: the shards' records merged, percentiles computed exactly
  const merged = successfulColumns({ ...req });
  for (const kind of ['e2e', 'queue', 'exec'] as const) {
    const values = merged[`${kind}Ms`];
    assert.ok(values.length > 10_000, `${kind}: a real cell with many requests (${values.length})`);
    const hp = hdrPercentiles(fromHistograms[kind]);
    const exact = percentiles(values);
    assert.ok(hp && exact);
    assert.equal(hp.n, values.length, `${kind}: every successful request counted once`);
    const sorted = Float64Array.from(values).sort();
    for (const [name, p] of LEVELS) {
      // HdrHistogram reports the bucket of the value at rank ceil(p·n); type 7 interpolates between
      // ranks floor((n−1)p) and the next: both sit between those two order statistics
      const rank = Math.max(1, Math.ceil(p * values.length)) - 1;
      assert.ok(withinPrecision(hp[name], sorted[rank]!), `${kind} ${name}: histogram ${hp[name]} ms vs the record at its rank ${sorted[rank]} ms`);
      const h = (values.length - 1) * p;
      const lo = sorted[Math.floor(h)]!;
      const hi = sorted[Math.min(values.length - 1, Math.floor(h) + 1)]!;
      assert.ok(hp[name] >= lo - 0.0015 && hp[name] <= hi + hi / 1000 + 0.0015, `${kind} ${name}: histogram ${hp[name]} ms outside the records' [${lo}, ${hi}] around type-7 ${exact[name]} ms`);
    }
    assert.ok(withinPrecision(hp.max, exact.max), `${kind} max`);
  }
});

test('merging histograms is lossless: the merged shards equal one histogram of every request', () => {
  const req = new RunStore(RUN).readRequests(CELL);
  const whole = cellHistograms(req);
  const parts = [0, 1, 2, 3].map((i) => cellHistograms(shardOf(req, i, 4)));
  const merged = mergeCellHistograms(parts);
  for (const kind of ['e2e', 'queue', 'exec'] as const) assert.deepEqual(hdrPercentiles(merged[kind]), hdrPercentiles(whole[kind]), kind);
  // a missing shard shows: the merge is not the whole
  const short = mergeCellHistograms(parts.slice(1));
  assert.ok(hdrPercentiles(short.e2e)!.n < hdrPercentiles(whole.e2e)!.n);
});

test('cell histograms count successful requests only, and null where no request carried the value', () => {
  const req: CompactRequests = { worker: [0, 0, 1], seq: [0, 1, 0], startMs: [0, 1, 0], e2eMs: [10, 5000, 20], status: [200, 0, 200], error: ['', 'timeout', ''], queueMs: [null, null, null], execMs: [9, null, 19] };
  const h = cellHistograms(req);
  assert.equal(h.unit, 'us');
  assert.equal(h.significantDigits, 3);
  assert.equal(h.queue, null);
  const e2e = hdrPercentiles(h.e2e)!;
  assert.equal(e2e.n, 2);
  assert.ok(withinPrecision(e2e.max, 20), `max ${e2e.max}`);
  assert.ok(withinPrecision(e2e.min, 10), `min ${e2e.min}`);
  assert.equal(hdrPercentiles(h.exec)!.n, 2);
});

test('encoding: µs rounding, empty input, nulls skipped in a merge, non-finite refused', () => {
  assert.equal(toMicros(1.2344), 1234);
  assert.equal(toMicros(-0.4), 0);
  assert.throws(() => toMicros(Number.NaN), RangeError);
  assert.equal(encodeValues([]), null);
  assert.equal(mergeEncoded([null, null]), null);
  const one = encodeValues([1, 2, 3]);
  assert.ok(one?.startsWith('HISTF'), 'V2 compressed base64');
  assert.equal(hdrPercentiles(mergeEncoded([null, one]))!.n, 3);
  assert.equal(hdrPercentiles(null), null);
});
