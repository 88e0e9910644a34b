/**
 * The open-loop (arrival-rate) driver (src/load/open-loop.ts) against a local HTTP server with a
 * fixed delay: the schedule is kept, every scheduled request is sent or counted as refused by the
 * in-flight cap, latency is kept from the intended and from the actual send, and the Poisson
 * schedule is reproducible from its seed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { arrivalSchedule, mulberry32, runOpenLoop } from '../../src/load/open-loop.ts';
import type { OpenLoopOptions } from '../../src/types/load.ts';

/** A server answering every request after `delayMs(i)` (i = arrival order at the server), with Server-Timing. */
async function withServer(delayMs: (i: number) => number, fn: (url: string, state: { inFlight: number; peak: number; count: number }) => Promise<void>): Promise<void> {
  const state = { inFlight: 0, peak: 0, count: 0 };
  const server = http.createServer((req, res) => {
    const i = state.count++;
    state.inFlight++;
    state.peak = Math.max(state.peak, state.inFlight);
    req.resume();
    setTimeout(() => {
      state.inFlight--;
      res.writeHead(200, { 'server-timing': 'queue;dur=0.1, exec;dur=1' }).end('{}');
    }, delayMs(i));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, state);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

const base = (url: string, over: Partial<OpenLoopOptions>): OpenLoopOptions => ({
  url, path: '/x', method: 'POST', body: '{}', arrivalRatePerS: 50, durationS: 1, arrival: 'constant', seed: 1, maxInFlight: 100,
  connectTimeoutMs: 5000, headersTimeoutMs: 10_000, bodyTimeoutMs: 10_000, lateSendThresholdMs: 20, ...over,
});

test('constant schedule: i·1000/λ for i < λ·duration, exactly', () => {
  assert.deepEqual(arrivalSchedule('constant', 4, 1, 0), [0, 250, 500, 750]);
  assert.equal(arrivalSchedule('constant', 25, 60, 0).length, 1500);
  assert.equal(arrivalSchedule('constant', 3, 1, 0).length, 3);
  assert.throws(() => arrivalSchedule('constant', 0, 1, 0), RangeError);
  assert.throws(() => arrivalSchedule('constant', 1, -1, 0), RangeError);
});

test('Poisson schedule: the same seed gives the same schedule, another seed another; mean gap 1/λ', () => {
  const a = arrivalSchedule('poisson', 100, 100, 7);
  assert.deepEqual(a, arrivalSchedule('poisson', 100, 100, 7));
  assert.notDeepEqual(a.slice(0, 10), arrivalSchedule('poisson', 100, 100, 8).slice(0, 10));
  // 10,000 expected arrivals: the count's sd is 100 (Poisson), so ±4 % is 4 sd
  assert.ok(Math.abs(a.length - 10_000) < 400, `count ${a.length}`);
  for (let i = 1; i < a.length; i++) assert.ok((a[i] as number) > (a[i - 1] as number));
  assert.ok((a[a.length - 1] as number) < 100_000);
  // exponential gaps: sd equals the mean (10 ms) within 5 %
  const gaps = a.slice(1).map((t, i) => t - (a[i] as number));
  const mean = gaps.reduce((s, g) => s + g, 0) / gaps.length;
  const sd = Math.sqrt(gaps.reduce((s, g) => s + (g - mean) ** 2, 0) / (gaps.length - 1));
  assert.ok(Math.abs(mean - 10) < 0.5 && Math.abs(sd / mean - 1) < 0.05, `mean ${mean} sd ${sd}`);
  // the generator: values in [0, 1), mean 1/2 (sd of the mean of 10,000 uniforms ≈ 0.003)
  const u = mulberry32(1);
  const xs = Array.from({ length: 10_000 }, () => u());
  assert.ok(xs.every((x) => x >= 0 && x < 1));
  assert.ok(Math.abs(xs.reduce((s, x) => s + x, 0) / xs.length - 0.5) < 0.015);
});

test('open loop at 50 req/s for 1 s against a 100 ms server: every request sent on time, both latencies kept', { timeout: 20_000 }, async () => {
  await withServer(() => 100, async (url, state) => {
    const r = await runOpenLoop(base(url, {}));
    const ol = r.summary.openLoop!;
    assert.equal(ol.scheduled, 50);
    assert.equal(ol.sent, 50);
    assert.equal(ol.unsent.inFlightCap, 0);
    assert.equal(ol.achievedRatePerS, 50);
    assert.equal(r.summary.ok, 50);
    assert.equal(state.count, 50);
    const bySeq = [...r.records].sort((a, b) => a.seq - b.seq);
    bySeq.forEach((x, i) => assert.equal(x.intendedStartMs, i * 20));
    // late sends are counted exactly (how many depends on the host's load: not asserted); answers ≥ 100 ms
    assert.equal(r.summary.lateSends?.count, r.records.filter((x) => x.startMs - x.intendedStartMs > 20).length);
    assert.ok(r.summary.e2eMs!.min >= 99, `min ${r.summary.e2eMs!.min}`);
    // from the intended send = from the actual send + the send delay, request by request
    for (const x of r.records) assert.ok(x.endMs - x.intendedStartMs >= x.e2eMs - 1e-9);
    assert.ok(ol.e2eFromIntendedMs!.p50 >= r.summary.e2eMs!.p50);
    // arrivals do not wait for answers: about 100 ms / 20 ms = 5 in flight at once, where a closed
    // loop of one would hold 1 (the exact peak depends on the host's timers: only > 1 is asserted)
    assert.ok(state.peak >= 2, `peak ${state.peak}`);
    assert.deepEqual(r.unsent, []);
  });
});

test('the in-flight cap refuses sends beyond it and counts each with its intended time; sent + refused = scheduled', { timeout: 20_000 }, async () => {
  await withServer(() => 400, async (url, state) => {
    const r = await runOpenLoop(base(url, { arrivalRatePerS: 20, maxInFlight: 3 }));
    const ol = r.summary.openLoop!;
    assert.equal(ol.scheduled, 20);
    assert.equal(ol.sent + ol.unsent.inFlightCap, 20);
    // 3 in flight for 400 ms each: at most 3 sends per 400 ms window → 9 in 1 s, the rest refused
    assert.ok(ol.sent <= 9 && ol.sent >= 3, `sent ${ol.sent}`);
    assert.equal(r.unsent!.length, ol.unsent.inFlightCap);
    assert.ok(state.peak <= 3);
    const seqs = [...r.records.map((x) => x.seq), ...r.unsent!.map((x) => x.seq)].sort((a, b) => a - b);
    assert.deepEqual(seqs, Array.from({ length: 20 }, (_, i) => i));
    for (const u of r.unsent!) assert.equal(u.intendedStartMs, u.seq * 50);
    assert.ok(r.unsent!.every((u) => u.reason === 'in-flight-cap'));
  });
});

test('a stalled generator: latency from the intended send grows by the stall, latency from the actual send does not', { timeout: 20_000 }, async () => {
  await withServer(() => 20, async (url) => {
    // block the event loop for 400 ms at 300 ms: the sends meant for 300..700 ms go out late, at once
    const t = setTimeout(() => { const until = Date.now() + 400; while (Date.now() < until) { /* stall */ } }, 300);
    const r = await runOpenLoop(base(url, { arrivalRatePerS: 50, durationS: 1.2 }));
    clearTimeout(t);
    const ol = r.summary.openLoop!;
    assert.equal(ol.sent, 60);
    // the requests the stall delayed (sent > 100 ms late): from the actual send they look fast, from the
    // intended send they carry the wait (requests in flight during the stall carry it in both)
    const late = r.records.filter((x) => x.startMs - x.intendedStartMs > 100);
    assert.ok(late.length >= 15, `late ${late.length}`);
    for (const x of late) {
      assert.ok(x.e2eMs < 300, `actual-send ${x.e2eMs}`);
      assert.ok(x.endMs - x.intendedStartMs > 100 + x.e2eMs - 1);
    }
    assert.ok(ol.e2eFromIntendedMs!.max >= 380, `intended max ${ol.e2eFromIntendedMs!.max}`);
    assert.ok(ol.e2eFromIntendedMs!.p95 > r.summary.e2eMs!.p95 + 100);
    assert.ok((r.summary.lateSends?.count ?? 0) >= 15, `late ${r.summary.lateSends?.count}`);
  });
});

test('a stalled server: with sends on time, both latencies grow together (no omission to correct)', { timeout: 20_000 }, async () => {
  // requests 10..19 (arriving 200..380 ms) are held until 800 ms after the first of them
  let stallEnd = 0;
  await withServer((i) => {
    if (i === 10) stallEnd = Date.now() + 600;
    return i >= 10 && i < 20 ? Math.max(10, stallEnd - Date.now()) : 10;
  }, async (url) => {
    const r = await runOpenLoop(base(url, { arrivalRatePerS: 50, durationS: 1 }));
    const ol = r.summary.openLoop!;
    assert.equal(ol.sent, 50);
    // the held requests were sent on time (the generator did not stall), so their wait shows from the
    // actual send as well; the two latencies differ by the send delay only
    assert.ok(r.summary.e2eMs!.max >= 550, `actual-send max ${r.summary.e2eMs!.max}`);
    assert.ok(ol.e2eFromIntendedMs!.max >= r.summary.e2eMs!.max);
    assert.ok(ol.e2eFromIntendedMs!.max - r.summary.e2eMs!.max <= Math.max(...r.records.map((x) => x.startMs - x.intendedStartMs)) + 1e-9);
  });
});

test('an aborted open loop returns at once with `aborted` and no measurement', { timeout: 20_000 }, async () => {
  await withServer(() => 50, async (url) => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const t = Date.now();
    const r = await runOpenLoop(base(url, { durationS: 10, signal: ac.signal }));
    assert.equal(r.aborted, true);
    // the whole schedule stays visible: 500 scheduled, far fewer reached
    assert.equal(r.summary.openLoop!.scheduled, 500);
    assert.ok(r.summary.openLoop!.sent < 50);
    assert.ok(Date.now() - t < 2000);
  });
});

test('a real open-loop result with refusals stores as valid requests columns (sent and unsent each of one length) and reads back', { timeout: 20_000 }, async () => {
  const { compactRequests } = await import('../../src/adapters/store/run-store.ts');
  const { validate, requestColumnProblems } = await import('../../src/adapters/store/schema.ts');
  const { expandRequests } = await import('../../src/pipeline/resummarize.ts');
  await withServer(() => 300, async (url) => {
    const r = await runOpenLoop(base(url, { arrivalRatePerS: 20, maxInFlight: 2 }));
    assert.ok(r.unsent!.length > 0);
    const cols = compactRequests(r.records, r.unsent);
    assert.deepEqual(validate('CompactRequests', cols), []);
    assert.deepEqual(requestColumnProblems('x', cols as unknown as Record<string, unknown>), []);
    assert.equal(cols.unsent!.seq.length + cols.e2eMs.length, r.summary.openLoop!.scheduled);
    // the intended start comes back from the stored column
    assert.deepEqual(expandRequests(cols).map((x) => x.intendedStartMs).sort((a, b) => a - b), r.records.map((x) => Math.round(x.intendedStartMs * 1000) / 1000).sort((a, b) => a - b));
    // a damaged unsent column is named
    const bad = { ...cols, unsent: { ...cols.unsent!, reason: cols.unsent!.reason.slice(1) } };
    assert.match(requestColumnProblems('x', bad as unknown as Record<string, unknown>)[0]!, /^x: \/unsent\/reason has \d+ entries, \/unsent\/seq has \d+$/);
  });
});
