import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summarize, peakInFlight } from '../../src/load/summarize.ts';
import type { RequestRecord, ErrorClass } from '../../src/types/load.ts';

function rec(worker: number, seq: number, startMs: number, endMs: number, errorClass: ErrorClass | null = null, queue?: number): RequestRecord {
  return {
    worker,
    seq,
    intendedStartMs: startMs,
    startMs,
    endMs,
    e2eMs: endMs - startMs,
    status: errorClass === null ? 200 : errorClass === 'http' ? 503 : null,
    errorClass,
    serverTiming: queue === undefined ? {} : { queue, exec: 10 - queue },
  };
}

// worker 0: [0,10] [10,20](503) [20,30]; worker 1: [5,15] [15,25] [25,35]
const records = [
  rec(0, 0, 0, 10, null, 1),
  rec(1, 0, 5, 15, null, 2),
  rec(0, 1, 10, 20, 'http'),
  rec(1, 1, 15, 25, null, 3),
  rec(0, 2, 20, 30, null, 4),
  rec(1, 2, 25, 35, null, 5),
];

test('summarize: both throughput definitions on a hand-checkable case', () => {
  const s = summarize(records, 2, 3);
  assert.equal(s.count, 6);
  assert.equal(s.ok, 5);
  assert.deepEqual(s.errors, { connect: 0, reset: 0, timeout: 0, http: 1, other: 0 });
  // whole run: 5 completed / (35 - 0) ms
  assert.equal(s.wholeRunThroughputRps, 5 / 0.035);
  // window [max first end = 15, min last end = 30]; ok ends in (15, 30]: 25, 30 (20 is the 503)
  assert.deepEqual(s.steadyWindow, { startMs: 15, endMs: 30, completions: 2 });
  // per worker after its first answer: w0 1 success (30; 20 was the 503) over 20 ms, w1 2 over 20 ms
  assert.equal(s.steadyStateThroughputRps, 1 / 0.02 + 2 / 0.02);
  assert.equal(s.peakInFlight, 2);
  assert.equal(s.e2eMs?.n, 5);
  assert.equal(s.e2eMs?.p50, 10);
  assert.deepEqual(s.queueMs, { n: 5, min: 1, mean: 3, p50: 3, p90: 4.6, p95: 4.8, p99: 4.96, p999: 4.996, max: 5 });
  assert.equal(s.execMs?.p50, 7);
});

test('summarize: workers in lock-step waves (start together) -> steady state exactly c / L', () => {
  // 4 workers, 3 requests each of 100 ms, all in step: ends at 100, 200, 300
  const rs: RequestRecord[] = [];
  for (let w = 0; w < 4; w++) for (let k = 0; k < 3; k++) rs.push(rec(w, k, k * 100, (k + 1) * 100));
  const s = summarize(rs, 4, 3);
  assert.deepEqual(s.steadyWindow, { startMs: 100, endMs: 300, completions: 8 });
  assert.equal(s.steadyStateThroughputRps, 40); // 4 / 0.1 s
  assert.equal(s.wholeRunThroughputRps, 40);
});

test('summarize: lock-step waves with jitter -> steady state stays near c / L (no last-wave cut)', () => {
  // 2 workers, 3 requests of ~100 ms; the last wave ends at 299 and 301
  const rs = [rec(0, 0, 0, 100), rec(0, 1, 100, 200), rec(0, 2, 200, 299), rec(1, 0, 0, 101), rec(1, 1, 101, 201), rec(1, 2, 201, 301)];
  const s = summarize(rs, 2, 3);
  assert.equal(s.steadyStateThroughputRps, 2 / 0.199 + 2 / 0.2); // ≈ 20.05 req/s, bound 20
  // a single window cut at the earliest last end (299) would hold only 200, 201, 299: 3 / 0.198 s ≈ 15.2
  assert.deepEqual(s.steadyWindow, { startMs: 101, endMs: 299, completions: 3 });
});

test('summarize: no overlap of workers -> steady state null; whole run still defined', () => {
  const s = summarize([rec(0, 0, 0, 10), rec(1, 0, 20, 30)], 2, 1);
  assert.equal(s.steadyWindow, null);
  assert.equal(s.steadyStateThroughputRps, null);
  assert.equal(s.wholeRunThroughputRps, 2 / 0.03);
  assert.equal(s.peakInFlight, 1);
});

test('summarize: no records -> every statistic null, counts 0', () => {
  const s = summarize([], 3, 4);
  assert.equal(s.count, 0);
  assert.equal(s.wholeRunThroughputRps, null);
  assert.equal(s.steadyStateThroughputRps, null);
  assert.equal(s.e2eMs, null);
  assert.equal(s.queueMs, null);
  assert.equal(s.peakInFlight, 0);
  assert.equal(s.concurrency, 3);
  assert.equal(s.requestsPerWorker, 4);
});

test('summarize: only errors -> whole-run throughput 0 req/s over a real span, e2e null', () => {
  const s = summarize([rec(0, 0, 0, 10, 'timeout'), rec(0, 1, 10, 20, 'reset')], 1, 2);
  assert.equal(s.ok, 0);
  assert.equal(s.wholeRunThroughputRps, 0);
  assert.equal(s.e2eMs, null);
  assert.equal(s.errors.timeout, 1);
  assert.equal(s.errors.reset, 1);
});

test('peakInFlight: an end at t is counted before a start at t', () => {
  assert.equal(peakInFlight([rec(0, 0, 0, 10), rec(0, 1, 10, 20)]), 1);
  assert.equal(peakInFlight([rec(0, 0, 0, 10), rec(1, 0, 1, 9), rec(2, 0, 2, 3), rec(3, 0, 3, 4)]), 3);
});
