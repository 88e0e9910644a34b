/**
 * A real event-loop stall of the load generator raises `loadgen-lag` (and late sends raise
 * `loadgen-late-sends`); a normal run raises neither. The server is a real HTTP server on port 0
 * answering after L ms; the stall is a deliberate busy loop inside the generator's process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runClosedLoop } from '../../src/load/run.ts';
import type { LoadEvents, LoadResult } from '../../src/types/load.ts';
import { computeFlags, generatorDelayThresholdMs, LAG_P99_MS } from '../../src/compute/analysis/flags.ts';

const L = 1500;
const C = 4;
const N = 2;

function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) { /* a deliberate stall of the event loop */ }
}

async function withServer<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json', 'server-timing': `queue;dur=0.01, exec;dur=${L}` });
      res.end('{}');
    }, L));
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

async function run(url: string, events: LoadEvents = {}): Promise<LoadResult> {
  return runClosedLoop({
    url, path: '/llm', method: 'POST', body: '{}', concurrency: C, requestsPerWorker: N, warmupRequestsPerWorker: 1, // connections open and undici's parser compiled before t0, as in the pipeline
    start: 'together', rampMs: 0, connectTimeoutMs: 2000, headersTimeoutMs: 10_000, bodyTimeoutMs: 10_000,
    lateSendThresholdMs: generatorDelayThresholdMs(L),
  }, events);
}

function flagsOf(res: LoadResult) {
  return computeFlags({
    executor: { kind: 'virtual-per-task' }, latencyMs: L, t0EpochMs: res.t0EpochMs, sutSamples: [], load: res.summary,
    eventLoopLagP99Ms: res.loadgen.eventLoopLagP99Ms, eventLoopLagMaxMs: res.loadgen.eventLoopLagMaxMs,
    loadgenCpuPct: res.loadgen.cpuPct, hostCpuPct: null, errorFlagThreshold: 0.001,
  });
}

test('a normal run raises no generator flag and sends nothing late', { timeout: 30_000 }, async () => {
  const res = await withServer((url) => run(url));
  assert.equal(res.summary.ok, C * N);
  assert.deepEqual(res.summary.lateSends, { thresholdMs: 75, count: 0, share: 0 });
  const codes = flagsOf(res).map((f) => f.code);
  assert.ok(!codes.includes('loadgen-lag') && !codes.includes('loadgen-late-sends'), `flags: ${codes.join(', ')} (lag max ${res.loadgen.eventLoopLagMaxMs} ms)`);
});

test('one long stall while answers arrive: loadgen-lag on the maximum, the inflated requests visible', { timeout: 30_000 }, async () => {
  const STALL_MS = 1000;
  const res = await withServer(async (url) => {
    // warm-up until ~L, then t0; the second wave is sent at ~t0 + L and answered at ~t0 + 2L;
    // the loop is blocked from ~t0 + 1.7 L for 1 s, so those answers are read ~0.5 s late
    const timer = setTimeout(() => busy(STALL_MS), 2.7 * L);
    try {
      return await run(url);
    } finally {
      clearTimeout(timer);
    }
  });
  const lag = flagsOf(res).find((f) => f.code === 'loadgen-lag');
  assert.ok(lag, `no loadgen-lag flag (lag max ${res.loadgen.eventLoopLagMaxMs} ms, P99 ${res.loadgen.eventLoopLagP99Ms} ms)`);
  assert.ok(lag.value >= STALL_MS * 0.8, `flag value ${lag.value} ms is the stall`);
  assert.equal(lag.threshold, generatorDelayThresholdMs(L));
  assert.ok(lag.value > LAG_P99_MS);
  // the answers that arrived during the stall were read only after it: their latency is inflated
  assert.ok((res.summary.e2eMs?.max ?? 0) > L + STALL_MS * 0.4, `E2E max ${res.summary.e2eMs?.max} ms`);
});

test('a stall between an answer and the next send: loadgen-late-sends counts it', { timeout: 30_000 }, async () => {
  const STALL_MS = 400;
  const res = await withServer((url) => run(url, { request: (r) => { if (r.worker === 0 && r.seq === 0) busy(STALL_MS); } }));
  const late = res.records.find((r) => r.worker === 0 && r.seq === 1);
  assert.ok(late && late.startMs - late.intendedStartMs >= STALL_MS * 0.9, 'worker 0 sent its second request after the stall');
  assert.ok((res.summary.lateSends?.count ?? 0) >= 1);
  assert.ok((res.summary.sendDelayMs?.max ?? 0) >= STALL_MS * 0.9);
  const flags = flagsOf(res);
  const lateFlag = flags.find((f) => f.code === 'loadgen-late-sends');
  assert.ok(lateFlag, `no loadgen-late-sends flag: ${JSON.stringify(res.summary.lateSends)}`);
  assert.equal(lateFlag.value, res.summary.lateSends?.share);
  assert.ok(flags.some((f) => f.code === 'loadgen-lag'), 'the stall shows in the event-loop maximum too');
});
