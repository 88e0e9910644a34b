/**
 * Issue 34, defect 5: another local process could `POST /stats/reset` on the mock mid-cell and the
 * cell was written as clean (640 answers at the client, 563 served at the mock, no flag). Now the
 * mock refuses control calls without the run's token (header `x-vtbench-token`, given to the mock
 * in its environment, `VTBENCH_CONTROL_TOKEN`, never on its command line), the harness sends it,
 * and a cell whose mock figures disagree with the client's beyond what in-flight requests explain
 * is flagged (`component-disagrees`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { createMockServer } from '../../mock/src/server.ts';
import { getMockStats, resetMockStats, startMockProcess } from '../../src/adapters/process/mock-process.ts';
import { CONTROL_TOKEN_ENV, CONTROL_TOKEN_HEADER, newControlToken } from '../../src/adapters/process/control-token.ts';
import { computeFlags, type FlagInputs } from '../../src/compute/analysis/flags.ts';
import type { LoadSummary } from '../../src/types/load.ts';
import type { MockStats } from '../../src/types/mock.ts';
import { freePort } from '../fixtures/ports.ts';

test('the mock answers POST /stats/reset only with the run\'s token: 401 without or with a wrong one, 403 when it was started without one', async () => {
  const token = newControlToken();
  assert.match(token, /^[A-Za-z0-9_-]{32,}$/);
  const app = await createMockServer({ latencyMs: 1 }, { controlToken: token });
  try {
    const reset = (headers: Record<string, string> = {}) => app.inject({ method: 'POST', url: '/stats/reset', headers });
    assert.equal((await reset()).statusCode, 401);
    assert.equal((await reset({ [CONTROL_TOKEN_HEADER]: 'x' + token.slice(1) })).statusCode, 401);
    const ok = await reset({ [CONTROL_TOKEN_HEADER]: token });
    assert.equal(ok.statusCode, 200);
    assert.equal((ok.json() as MockStats).served, 0);
    assert.equal((await app.inject({ method: 'GET', url: '/stats' })).statusCode, 200, 'reading the figures stays open');
    assert.ok(!JSON.stringify((await app.inject({ method: 'GET', url: '/stats' })).json()).includes(token), 'the token is not in /stats');
  } finally {
    await app.close();
  }
  const none = await createMockServer({ latencyMs: 1 });
  try {
    const r = await none.inject({ method: 'POST', url: '/stats/reset', headers: { [CONTROL_TOKEN_HEADER]: 'anything' } });
    assert.equal(r.statusCode, 403);
    assert.match(r.body, new RegExp(CONTROL_TOKEN_ENV));
  } finally {
    await none.close();
  }
});

test('startMockProcess: the token reaches the mock in its environment, not its command line; resetMockStats with it works, without it does not', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-token-'));
  const token = newControlToken();
  const m = await startMockProcess({ port: await freePort(), latencyMs: 5, logFile: join(dir, 'mock.log'), controlToken: token });
  try {
    const cmd = readFileSync(`/proc/${m.pid}/cmdline`, 'utf8');
    assert.ok(!cmd.includes(token), `no token in ${cmd.split('\0').join(' ')}`);
    assert.ok(readFileSync(`/proc/${m.pid}/environ`, 'utf8').split('\0').includes(`${CONTROL_TOKEN_ENV}=${token}`));
    assert.notEqual(await resetMockStats(m.url, token), null);
    assert.equal(await resetMockStats(m.url, null), null);
    const r = await request(`${m.url}/stats/reset`, { method: 'POST' });
    await r.body.dump();
    assert.equal(r.statusCode, 401, 'another local caller without the token is refused');
    assert.notEqual(await getMockStats(m.url), null);
  } finally {
    await m.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

const stats = (o: Partial<MockStats>): MockStats => ({ served: 0, inFlight: 0, peakInFlight: 0, connectionsOpened: 0, latenessMs: null, faults: {}, config: {}, startedEpochMs: 1_000, sinceEpochMs: 2_000, ...o });
const load = (count: number, ok: number): LoadSummary => ({ count, ok, concurrency: 16, peakInFlight: 16, queueMs: null } as unknown as LoadSummary);
const inputs = (l: LoadSummary, mock: FlagInputs['mock']): FlagInputs => ({
  executor: { kind: 'platform-pool', threads: 4, queueCapacity: 10 }, latencyMs: 100, t0EpochMs: 0, sutSamples: [], load: l,
  eventLoopLagP99Ms: null, eventLoopLagMaxMs: null, loadgenCpuPct: null, hostCpuPct: null, errorFlagThreshold: 0.01, mock,
});

test('computeFlags: a cell whose mock served fewer chat answers than the client got (640 vs 563) is flagged component-disagrees', () => {
  const f = computeFlags(inputs(load(640, 640), { before: stats({}), after: stats({ served: 563 }), route: 'chat' }));
  const flag = f.find((x) => x.code === 'component-disagrees');
  assert.ok(flag, JSON.stringify(f));
  assert.equal(flag.value, 563);
  assert.equal(flag.threshold, 640);
  assert.match(flag.message, /563.*640/);
});

test('computeFlags: a reset of the mock\'s statistics during the cell (sinceEpochMs moved) is flagged even when the counts happen to agree', () => {
  const f = computeFlags(inputs(load(640, 640), { before: stats({}), after: stats({ served: 700, sinceEpochMs: 2_500 }), route: 'chat' }));
  assert.ok(f.some((x) => x.code === 'component-disagrees' && /reset/.test(x.message)), JSON.stringify(f));
});

test('computeFlags: agreement within what in-flight requests explain is not flagged; a scenario that does not call the mock is not compared', () => {
  // 3 requests of the warm-up were in flight at the mock when it was reset; retries may make the mock serve more
  assert.deepEqual(computeFlags(inputs(load(640, 640), { before: stats({ inFlight: 3 }), after: stats({ served: 637 }), route: 'chat' })).filter((x) => x.code === 'component-disagrees'), []);
  assert.deepEqual(computeFlags(inputs(load(640, 640), { before: stats({}), after: stats({ served: 1280 }), route: 'chat' })).filter((x) => x.code === 'component-disagrees'), []);
  // failed client requests need not have reached the mock
  assert.deepEqual(computeFlags(inputs(load(640, 600), { before: stats({}), after: stats({ served: 600 }), route: 'chat' })).filter((x) => x.code === 'component-disagrees'), []);
  // the delay route (study 002): its own counter
  assert.equal(computeFlags(inputs(load(100, 100), { before: stats({}), after: stats({ delay: { served: 50, inFlight: 0, peakInFlight: 5 } }), route: 'delay' })).filter((x) => x.code === 'component-disagrees').length, 1);
  assert.deepEqual(computeFlags(inputs(load(640, 640), { before: stats({}), after: stats({ served: 0 }), route: null })).filter((x) => x.code === 'component-disagrees'), []);
});
