/**
 * The Driver interface (src/load/driver.ts): the closed-loop HTTP driver sends the scenario's own
 * request (method, path, body or none) and returns raw records with their summary; the typed slots
 * of drivers not built yet fail with a clear VtbenchError naming the issue that builds them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DRIVERS, driverFor, driverBuilt, closedLoopHttpDriver, type DriverCellPlan } from '../../src/load/driver.ts';
import { resolveOptions } from '../../src/plan/profiles.ts';
import { VtbenchError, EXIT } from '../../src/types/errors.ts';
import type { Scenario } from '../../src/types/study.ts';
import { TOY_STUDY } from '../fixtures/toy-study/study.ts';

async function withServer(fn: (url: string, seen: { method: string; url: string; body: string; type: string | undefined }[]) => Promise<void>): Promise<void> {
  const seen: { method: string; url: string; body: string; type: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body, type: req.headers['content-type'] });
      res.writeHead(200, { 'server-timing': 'queue;dur=0.5, exec;dur=2' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

const options = resolveOptions(TOY_STUDY, 'tiny', {});
const plan = (url: string, scenario: Scenario): DriverCellPlan => ({ baseUrl: url, scenario, options, concurrency: 2, requestsPerWorker: 3, lateSendThresholdMs: 20, signal: new AbortController().signal });

test('closed-loop HTTP driver: the scenario\'s request, c × n records and their summary', { timeout: 20_000 }, async () => {
  await withServer(async (url, seen) => {
    const sleep = TOY_STUDY.scenarios[0]!;
    const r = await driverFor(sleep).run(plan(url, sleep));
    assert.equal(r.records.length, 6);
    assert.equal(r.summary.ok, 6);
    assert.equal(r.summary.queueMs?.p50, 0.5);
    assert.deepEqual(new Set(seen.map((s) => `${s.method} ${s.url} body=${JSON.stringify(s.body)} type=${s.type}`)), new Set(['POST /api/scenario/sleep?ms=200 body="" type=undefined']));
    seen.length = 0;
    const get: Scenario = { ...sleep, request: () => ({ method: 'GET', path: '/api/scenario/llm' }) };
    await closedLoopHttpDriver.run(plan(url, get));
    assert.deepEqual(new Set(seen.map((s) => `${s.method} ${s.url}`)), new Set(['GET /api/scenario/llm']));
    seen.length = 0;
    const withBody: Scenario = { ...sleep, request: () => ({ method: 'POST', path: '/x', body: '{"a":1}' }) };
    await closedLoopHttpDriver.run(plan(url, withBody));
    assert.deepEqual(new Set(seen.map((s) => `${s.body} ${s.type}`)), new Set(['{"a":1} application/json']));
  });
});

test('every driver kind is built (websocket since issue 13): driverFor returns the registry entry', () => {
  assert.deepEqual(Object.keys(DRIVERS).sort(), ['closed-loop-http', 'in-process', 'open-loop-http', 'websocket']);
  for (const kind of Object.keys(DRIVERS) as (keyof typeof DRIVERS)[]) {
    assert.equal(driverBuilt(kind), true, kind);
    assert.equal(driverFor({ id: 'x', driver: kind }), DRIVERS[kind]);
  }
});
