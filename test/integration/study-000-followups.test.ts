/**
 * Study 000's §17 follow-ups as profiles (issue 16): the profiles exist and fit the quick size, the
 * jdk21 profile stops with "not tested here" on a host without a JDK 21, and a follow-up run's
 * report shows every cell's measured ÷ bound (the real fixture run, routed as a follow-up profile
 * in memory; its numbers are the fixture's own).
 */
import { loadRun, loadTemplates } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STUDY_000, SWEEP_LATENCIES_MS, latencySweepRequestsPerWorker } from '../../src/studies/000/index.ts';
import { followUpKind, followUpRatios } from '../../src/studies/000/report.ts';
import { makePlan } from '../../src/plan/plan.ts';
import { resolveOptions } from '../../src/plan/profiles.ts';
import { findJdkOfMajor, requireProfileJdk } from '../../src/adapters/jvm/jdk.ts';
import { EXIT, VtbenchError } from '../../src/types/errors.ts';
import { type LoadedRun } from '../../src/report/load.ts';
import { buildReport } from '../../src/report/index.ts';
import { buildModel } from '../../src/report/model.ts';
import { FIXTURE_DIR } from '../fixtures/report-helpers.ts';

/** the quick size of a follow-up (issue 16): ≤ 8 min, of which we budget 2 min for JVM starts and the build */
const QUICK_LOAD_S = 6 * 60;

test('every §17 follow-up is a profile of study 000 and its quick size plans ≤ 6 min of load', () => {
  const names = STUDY_000.profiles.map((p) => p.name);
  const quick = ['pool-sweep-quick', ...SWEEP_LATENCIES_MS.map((L) => `latency-${L}`), 'bulkhead-quick', 'faults', 'streaming-quick', 'jdk21'];
  for (const n of [...quick, 'pool-sweep', 'bulkhead', 'streaming', 'followups']) assert.ok(names.includes(n), n);
  for (const n of quick) {
    const plan = makePlan(resolveOptions(STUDY_000, n, {}), STUDY_000);
    assert.ok(plan.theoreticalS <= QUICK_LOAD_S, `${n}: ${plan.theoreticalS} s`);
  }
  const pool = resolveOptions(STUDY_000, 'pool-sweep-quick', {});
  assert.deepEqual([...pool.variants], ['fixed', 'fixed-100', 'fixed-500', 'virtual']);
  assert.deepEqual(pool.variantSpecs.map((v) => (v.executor.kind === 'platform-pool' ? v.executor.threads : null)), [32, 100, 500, null]);
  for (const L of SWEEP_LATENCIES_MS) assert.equal(resolveOptions(STUDY_000, `latency-${L}`, {}).latencyMs, L);
  // the §5 profiles keep their two arms
  assert.deepEqual([...resolveOptions(STUDY_000, 'seed-000', {}).variants], ['fixed', 'virtual']);
});

test('latency-sweep requests per worker: ≈ 6 s of calls per worker, between 2 and 40', () => {
  assert.deepEqual(SWEEP_LATENCIES_MS.map(latencySweepRequestsPerWorker), [40, 12, 4, 2, 2]);
});

test('followUpKind routes the follow-up profiles only', () => {
  assert.equal(followUpKind('pool-sweep'), 'pool-sweep');
  assert.equal(followUpKind('pool-sweep-quick'), 'pool-sweep');
  assert.equal(followUpKind('latency-3000'), 'latency');
  assert.equal(followUpKind('bulkhead-quick'), 'bulkhead');
  assert.equal(followUpKind('followups'), 'followups');
  assert.equal(followUpKind('streaming'), 'streaming');
  assert.equal(followUpKind('streaming-quick'), 'streaming');
  for (const p of ['seed-000', 'quick', 'smoke', 'open-loop', 'latency-', 'jdk21']) assert.equal(followUpKind(p), null, p);
});

test('followUpRatios: hand-checked values, null when not computable', () => {
  const agg = (median: number | null) => ({ median, min: median, max: median, n: median === null ? 0 : 1, values: median === null ? [] : [median] });
  // fixed 32 at c = 100, L = 1.5 s: bound 21.33 req/s, measured 21.26 → 99.67 %; P95 theory 4 × 1.5 s = 6 s, measured 5.915 s → 98.58 %
  const r = followUpRatios({ wholeRunRps: agg(21.26), boundRps: 32 / 1.5, e2eP95Ms: agg(5915.1), theoryE2eP95Ms: 6000 });
  assert.ok(Math.abs((r.throughputPct as number) - 99.65625) < 1e-9);
  assert.ok(Math.abs((r.e2eP95Pct as number) - 98.585) < 1e-9);
  assert.deepEqual(followUpRatios({ wholeRunRps: agg(null), boundRps: 10, e2eP95Ms: agg(null), theoryE2eP95Ms: 0 }), { throughputPct: null, e2eP95Pct: null });
});

const asProfile = (run: LoadedRun, profile: string): LoadedRun => ({ ...run, manifest: { ...run.manifest, options: { ...run.manifest.options, profile } } });

test('a pool-sweep run\'s §17 shows each cell against its own bound; a §5 run\'s does not', async () => {
  const run = await loadRun(FIXTURE_DIR);
  const templates = await loadTemplates('en');
  const md = async (r: LoadedRun) => ((await buildReport(r, templates)).files.find((f) => f.path === 'report.md') as { content: string }).content;
  const plain = await md(run);
  assert.doesNotMatch(plain, /This run's follow-up/);
  const swept = asProfile(run, 'pool-sweep-quick');
  const out = await md(swept);
  const section = out.slice(out.indexOf("### This run's follow-up"));
  assert.match(section, /the size N of the fixed pool/);
  const model = buildModel(swept);
  assert.ok(model.rows.length > 0);
  for (const r of model.rows) {
    // the row of (variant, c) carries the ratio computed here from the row's own figures
    const pctText = `${((r.wholeRunRps.median as number) / r.boundRps * 100).toFixed(1)} %`;
    const line = section.split('\n').find((l) => l.includes(`| ${r.concurrency} |`) && l.includes(pctText));
    assert.ok(line, `no row for ${r.variant} c=${r.concurrency} with ${pctText}`);
  }
  // the fixture's fixed pool has 8 threads: above it, the cap sentence names N/L
  assert.match(section, /at c = 32 > N = 8: .* against its cap N\/L = /);
  const zh = ((await buildReport(swept, await loadTemplates('zh'))).files.find((f) => f.path === 'report.md') as { content: string }).content;
  assert.match(zh, /### 本次运行的后续实验/);
});

test('jdk21: on a host without a JDK 21 the profile stops with one line, exit 3; a JDK 21 is found by its release file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-jdk21-'));
  try {
    const mk = (name: string, version: string) => {
      mkdirSync(join(dir, name, 'bin'), { recursive: true });
      writeFileSync(join(dir, name, 'release'), `JAVA_VERSION="${version}"\n`);
      writeFileSync(join(dir, name, 'bin', 'java'), '');
    };
    mk('jdk-17', '17.0.9');
    mk('jdk-25', '25.0.3');
    const search = { env: {}, roots: [dir] };
    const jdk21 = STUDY_000.profiles.find((p) => p.name === 'jdk21');
    assert.ok(jdk21);
    assert.equal(findJdkOfMajor(21, search), null);
    assert.throws(() => requireProfileJdk(jdk21, search), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.prerequisite
      && e.message === 'not tested here: no JDK 21 on this host' && e.hint === '');
    // the other profiles need no particular JDK
    requireProfileJdk(STUDY_000.profiles[0] as (typeof STUDY_000.profiles)[number], search);
    mk('jdk-21', '21.0.5');
    assert.equal(findJdkOfMajor(21, search)?.version, '21.0.5');
    // found, but this version builds the SUT for release 25 only: still not tested, and it says why
    assert.throws(() => requireProfileJdk(jdk21, search), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.prerequisite && /JDK 21\.0\.5 found .* compiled for release 25/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------- bulkhead (§13/§17)

import { compactRequests } from '../../src/adapters/store/run-store.ts';
import { bulkheadPermits, permitP95Ms } from '../../src/studies/000/report.ts';
import { validate } from '../../src/adapters/store/schema.ts';
import type { RequestRecord } from '../../src/types/load.ts';

const rec = (seq: number, serverTiming: Record<string, number>, errorClass: RequestRecord['errorClass'] = null): RequestRecord =>
  ({ worker: 0, seq, intendedStartMs: seq, startMs: seq, endMs: seq + 1, e2eMs: 1, status: errorClass === null ? 200 : 502, errorClass, serverTiming });

test('requests files: a permitMs column only when the SUT sent Server-Timing permit; null for a request without it', () => {
  const plain = compactRequests([rec(0, { queue: 0.1, exec: 500 }), rec(1, { queue: 0.2, exec: 501 })]);
  assert.equal('permitMs' in plain, false);
  const bh = compactRequests([rec(0, { queue: 0.1, exec: 500, permit: 0.0004 }), rec(1, { queue: 0.2, exec: 1001, permit: 500.1234 }), rec(2, {}, 'http')]);
  assert.deepEqual(bh.permitMs, [0, 500.123, null]);
  assert.equal(bh.permitMs?.length, bh.e2eMs.length);
  assert.deepEqual(validate('CompactRequests', bh), []);
  assert.deepEqual(validate('CompactRequests', plain), []);
});

test('bulkheadPermits reads K from the variant\'s SUT properties; the study\'s virtual-bulkhead variant has K = 32', () => {
  assert.equal(bulkheadPermits(STUDY_000.variants.find((v) => v.id === 'virtual-bulkhead')), 32);
  assert.equal(bulkheadPermits(STUDY_000.variants.find((v) => v.id === 'virtual')), null);
  assert.equal(bulkheadPermits({ sutProperties: { 'bench.bulkhead.permits': '0' } }), null);
  assert.equal(bulkheadPermits(undefined), null);
});

test('permitP95Ms: P95 (R type 7) over successful requests\' permit waits; null without the column', () => {
  // 0, 100, 200, 300, 400 ms: P95 = 380 ms by linear interpolation (h = 0.95 × 4 = 3.8); the failed request's 9,999 ms is left out
  const req = compactRequests([0, 100, 200, 300, 400].map((p, i) => rec(i, { queue: 0, exec: 500 + p, permit: p })).concat([rec(5, { permit: 9999 }, 'http')]));
  assert.equal(permitP95Ms(req), 380);
  assert.equal(permitP95Ms(compactRequests([rec(0, { queue: 0, exec: 1 })])), null);
  assert.equal(permitP95Ms(undefined), null);
});

/** a real bulkhead-quick run (levels 40, 100; 3 req/worker; mock 500 ms) on this 2-core host, 2026-12-01, while other work ran */
const BULKHEAD_RUN = join(FIXTURE_DIR, '..', 'bulkhead-run');

test('a real bulkhead run: the SUT sent permit waits for the semaphore variant only, the mock never held more than K, and §17 shows them', async () => {
  const run = await loadRun(BULKHEAD_RUN);
  assert.deepEqual(run.gaps, []);
  const K = bulkheadPermits(run.manifest.options.variantSpecs.find((v) => v.id === 'virtual-bulkhead'));
  assert.equal(K, 32);
  for (const c of run.cells) {
    const req = run.requests.get(c.cellId);
    assert.ok(req, c.cellId);
    if (c.variant === 'virtual-bulkhead') {
      assert.ok(req.permitMs && req.permitMs.every((p) => p !== null), `${c.cellId}: every request carried a permit wait`);
      assert.ok((c.mock.after?.peakInFlight ?? Infinity) <= 32, `${c.cellId}: mock peak ${c.mock.after?.peakInFlight}`);
    } else {
      assert.equal(req.permitMs, undefined, `${c.cellId}: no bulkhead, no permit column`);
    }
  }
  const md = ((await buildReport(run, await loadTemplates('en'))).files.find((f) => f.path === 'report.md') as { content: string }).content;
  const section = md.slice(md.indexOf("### This run's follow-up"));
  assert.match(section, /fair semaphore of K = 32 permits/);
  for (const c of run.cells.filter((x) => x.variant === 'virtual-bulkhead')) {
    const p95 = permitP95Ms(run.requests.get(c.cellId)) as number;
    const line = section.split('\n').find((l) => l.startsWith('| Virtual threads + semaphore |') && l.includes(`| ${c.concurrency} |`));
    assert.ok(line, `row c=${c.concurrency}`);
    // the bound is min(c, K)/L = 32 / 0.5 s = 64 req/s at both levels; the permit P95 is the cell's own
    assert.match(line, /\| 64\.00 req\/s \|/);
    const shown = line.split('|').map((x) => x.trim())[7] as string;
    assert.equal(Number(shown.replace(/[^0-9.]/g, '')).toFixed(0), p95.toFixed(0), `${line} vs ${p95}`);
  }
  assert.match(section, /stayed at or below K = 32 in all 2 cells/);
});

// ---------------------------------------------------------------- faults and retries (§17)

import { mockFaultArgs } from '../../src/adapters/process/mock-process.ts';
import { clientTimeoutS, columnPercentileMs, errorsByStatus, faultBoundRps, mockCalls, streamBoundRps } from '../../src/studies/000/report.ts';
import { dispatcherLimit, streamServiceTimeMs, SPRING_AI_DISPATCHER_MAX, LIFTED_DISPATCHER_MAX } from '../../src/studies/000/arms.ts';
import { MOCK_OPTIONS } from '../../mock/src/config.ts';

test('faults: the profile drives the mock\'s fault flags, hangs included (flags the mock declares), and runs virtual threads with a client timeout, without and with retries', () => {
  const o = resolveOptions(STUDY_000, 'faults', {});
  assert.deepEqual(o.mockFaults, { errorRate: 0.1, errorStatus: 500, hangRate: 0.05, resetRate: 0.05, seed: 42 });
  const args = mockFaultArgs(o.mockFaults);
  assert.deepEqual(args, ['--error-rate', '0.1', '--error-status', '500', '--reset-rate', '0.05', '--hang-rate', '0.05', '--seed', '42']);
  const flags = new Set(Object.values(MOCK_OPTIONS).map((x) => x.flag));
  for (const a of args.filter((x) => x.startsWith('--'))) assert.ok(flags.has(a), `the mock declares ${a}`);
  assert.deepEqual(mockFaultArgs(undefined), []);
  // a run written before hangs were driven (no hangRate) passes no --hang-rate
  assert.deepEqual(mockFaultArgs({ errorRate: 0.1, errorStatus: 500, resetRate: 0.05, seed: 42 }), ['--error-rate', '0.1', '--error-status', '500', '--reset-rate', '0.05', '--seed', '42']);
  assert.equal(resolveOptions(STUDY_000, 'seed-000', {}).mockFaults, undefined);
  assert.deepEqual(o.variantSpecs.map((v) => v.sutProperties?.['spring.ai.openai.max-retries'] ?? null), [null, '2']);
  // every variant of a run with hangs has a client timeout far below the 600 s default
  assert.deepEqual(o.variantSpecs.map((v) => clientTimeoutS(v)), [2, 2]);
});

test('clientTimeoutS: bench.okhttp.read-timeout as Spring reads a Duration (ms, s, m, bare ms), Spring AI\'s per-call 60 s without it or at 0; a bad value names the property', () => {
  const v = (t: string) => ({ sutProperties: { 'bench.okhttp.read-timeout': t } });
  assert.equal(clientTimeoutS(v('2s')), 2);
  assert.equal(clientTimeoutS(v('1500ms')), 1.5);
  assert.equal(clientTimeoutS(v('1m')), 60);
  assert.equal(clientTimeoutS(v('250')), 0.25);
  assert.equal(clientTimeoutS(v('0s')), 60);
  assert.equal(clientTimeoutS(undefined), 60);
  // spring.ai.openai.timeout does not reach the call in Spring AI 2.0.1 (sut/…/OkHttpReadTimeout.java)
  assert.equal(clientTimeoutS({ sutProperties: { 'spring.ai.openai.timeout': '2s' } }), 60);
  assert.throws(() => clientTimeoutS(v('2 seconds')), /bench\.okhttp\.read-timeout=2 seconds/);
});

test('faultBoundRps: c / E[T] with E[T] = (1 − e − h) × L + h × timeout, hand-checked; null with retries', () => {
  // c = 50, L = 500 ms, 10 % errors at once, 5 % hangs ended at 2 s: E[T] = 0.85 × 0.5 + 0.05 × 2 = 0.525 s → 95.238 req/s
  assert.ok(Math.abs((faultBoundRps(50, 500, { errorRate: 0.1, hangRate: 0.05 }, 2, 0) as number) - 50 / 0.525) < 1e-9);
  // no hangs (the first faults runs): E[T] = 0.9 × 0.5 = 0.45 s
  assert.ok(Math.abs((faultBoundRps(20, 500, { errorRate: 0.1 }, 600, 0) as number) - 20 / 0.45) < 1e-9);
  assert.equal(faultBoundRps(50, 500, { errorRate: 0.1, hangRate: 0.05 }, 2, 2), null);
});

test('errorsByStatus: the http-class failures of a cell by the SUT\'s status, sorted; transport errors are not in it', () => {
  const withStatus = (seq: number, status: number, errorClass: RequestRecord['errorClass']): RequestRecord => ({ ...rec(seq, {}, errorClass), status });
  const req = compactRequests([withStatus(0, 504, 'http'), withStatus(1, 502, 'http'), withStatus(2, 504, 'http'), withStatus(3, 200, null), withStatus(4, 0, 'reset')]);
  assert.deepEqual([...errorsByStatus(req)], [[502, 1], [504, 2]]);
  assert.deepEqual([...errorsByStatus(undefined)], []);
});

test('mockCalls: answered + reset + hung calls of a cell\'s own mock statistics; null for cumulative (legacy) statistics', () => {
  const after = { served: 90, inFlight: 0, peakInFlight: 10, connectionsOpened: 10, latenessMs: null, faults: { error500: 9, reset: 6, hang: 1 }, config: {}, startedEpochMs: 0 };
  assert.equal(mockCalls({ mock: { before: null, after, scope: 'cell' } }), 97);
  assert.equal(mockCalls({ mock: { before: null, after } }), null);
  assert.equal(mockCalls({ mock: { before: null, after: null, scope: 'cell' } }), null);
});

/** a real faults run (levels 20, 60; 4 req/worker; mock 500 ms, 10 % 500s, 5 % resets) on this host, 2026-12-01 */
const FAULTS_RUN = join(FIXTURE_DIR, '..', 'faults-run');

test('a real faults run: without retries the clients see the injected 500s; with 2 retries none; §17 shows mock ÷ client from the cells\' own counts', async () => {
  const run = await loadRun(FAULTS_RUN);
  assert.deepEqual(run.gaps, []);
  for (const c of run.cells) {
    const after = c.mock.after;
    assert.ok(after && c.mock.scope === 'cell', c.cellId);
    // the SUT answers 502 for each upstream 500 it does not retry: client http errors = the mock's 500s
    if (c.variant === 'virtual') assert.equal(c.load.errors.http, after.faults['error500'], c.cellId);
    else assert.equal(c.load.count - c.load.ok, 0, `${c.cellId}: 2 retries absorbed every fault`);
  }
  const md = ((await buildReport(run, await loadTemplates('en'))).files.find((f) => f.path === 'report.md') as { content: string }).content;
  const section = md.slice(md.indexOf("### This run's follow-up"));
  for (const c of run.cells) {
    const name = c.variant === 'virtual' ? 'Virtual threads' : 'Virtual threads + 2 retries';
    const line = section.split('\n').find((l) => l.startsWith(`| ${name} | ${c.concurrency} |`));
    assert.ok(line, c.cellId);
    const up = mockCalls(c) as number;
    assert.ok(line.includes(`| ${up} | ${(up / c.load.count).toFixed(3)} |`), `${line} vs ${up}/${c.load.count}`);
  }
  // retries multiply upstream load: the retry variant's ratio is above the no-retry variant's at each level
  const ratio = (v: string, lvl: number) => { const c = run.cells.find((x) => x.variant === v && x.concurrency === lvl)!; return (mockCalls(c) as number) / c.load.count; };
  for (const lvl of [20, 60]) assert.ok(ratio('virtual-retry', lvl) > ratio('virtual', lvl), `c=${lvl}`);
});

// ---------------------------------------------------------------- streaming (§17)

test('streaming: profiles run llm-stream with Spring AI\'s dispatcher (64) vs lifted; a stream lasts L + 15 × 20 ms', () => {
  for (const name of ['streaming', 'streaming-quick']) {
    const o = resolveOptions(STUDY_000, name, {});
    assert.equal(o.scenario, 'llm-stream', name);
    assert.deepEqual([...o.variants], ['virtual', 'virtual-dispatcher'], name);
    assert.deepEqual(o.variantSpecs.map((v) => dispatcherLimit(v)), [SPRING_AI_DISPATCHER_MAX, LIFTED_DISPATCHER_MAX], name);
    // levels on both sides of the dispatcher's 64
    assert.ok(o.levels.some((c) => c < 64 + 1) && o.levels.some((c) => c > 64), name);
    assert.ok(Math.max(...o.levels) < LIFTED_DISPATCHER_MAX, name);
  }
  assert.equal(SPRING_AI_DISPATCHER_MAX, 64);
  // the mock's defaults: 16 tokens, 20 ms apart after the first (mock/src/config.ts)
  assert.equal(streamServiceTimeMs(1500), 1800);
  const scenario = STUDY_000.scenarios.find((x) => x.id === 'llm-stream');
  assert.equal(scenario?.sutScenario, 'llm-stream');
  assert.equal(scenario?.serviceTimeMs(resolveOptions(STUDY_000, 'streaming-quick', {})), 1800);
});

test('requests files: ttft, gapmean and gapmax columns only when the SUT sent them; percentiles over successful requests', () => {
  const plain = compactRequests([rec(0, { queue: 0.1, exec: 500 })]);
  for (const k of ['ttftMs', 'gapMeanMs', 'gapMaxMs'] as const) assert.equal(k in plain, false, k);
  const st = compactRequests([
    rec(0, { queue: 0, exec: 1800, ttft: 1500.0004, gapmean: 20, gapmax: 25 }),
    rec(1, { queue: 0, exec: 3600, ttft: 3300, gapmean: 21, gapmax: 40 }),
    rec(2, { queue: 0, exec: 1500, ttft: 1500 }),
    rec(3, { ttft: 99999 }, 'http'),
  ]);
  assert.deepEqual(st.ttftMs, [1500, 3300, 1500, 99999]);
  assert.deepEqual(st.gapMeanMs, [20, 21, null, null]);
  assert.deepEqual(st.gapMaxMs, [25, 40, null, null]);
  assert.deepEqual(validate('CompactRequests', st), []);
  // ttft of the 3 successes 1500, 1500, 3300: P50 1500; P95 = 1500 + 0.9 × 1800 = 3120 (R type 7, h = 0.95 × 2 = 1.9)
  assert.equal(columnPercentileMs(st, 'ttftMs', 'p50'), 1500);
  assert.ok(Math.abs((columnPercentileMs(st, 'ttftMs', 'p95') as number) - 3120) < 1e-9);
  assert.equal(columnPercentileMs(plain, 'ttftMs', 'p95'), null);
});

import { startMock } from '../../mock/src/server.ts';
import { request as undiciRequest } from 'undici';

test('mock --stream-headers: headers at once (arrival) or together with the first token (first-token)', async () => {
  for (const [streamHeaders, early] of [['arrival', true], ['first-token', false]] as const) {
    const mock = await startMock({ latencyMs: 300, interTokenMs: 5, completionTokens: 3, streamHeaders });
    try {
      const t0 = performance.now();
      const res = await undiciRequest(`${mock.url}/v1/chat/completions`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      });
      const headersMs = performance.now() - t0;
      const text = await res.body.text();
      assert.equal(res.statusCode, 200);
      assert.match(text, /data: \[DONE\]/);
      // the first token is due 300 ms after arrival either way; only the headers move
      if (early) assert.ok(headersMs < 250, `${streamHeaders}: headers after ${headersMs} ms`);
      else assert.ok(headersMs >= 290, `${streamHeaders}: headers after ${headersMs} ms`);
    } finally {
      await mock.close();
    }
  }
});

/** a real streaming-quick run (levels 32, 96; 2 req/worker; the mock's headers at once) on this busy 2-core host, 2026-12-01 */
const STREAMING_RUN = join(FIXTURE_DIR, '..', 'streaming-run');

test('a real streaming run with the mock\'s headers at once: every request carried ttft and gaps, Spring AI\'s dispatcher (64) did not cap the open streams (mock peak 96), and §17 says why', async () => {
  const run = await loadRun(STREAMING_RUN);
  assert.deepEqual(run.gaps, []);
  assert.equal(run.manifest.options.mockStreamHeaders, undefined);
  for (const c of run.cells) {
    const req = run.requests.get(c.cellId);
    assert.ok(req?.ttftMs && req.gapMeanMs && req.gapMaxMs, c.cellId);
    for (let i = 0; i < req.ttftMs.length; i++) {
      if (req.error[i] !== '') continue;
      const ttft = req.ttftMs[i] as number;
      // the mock's first token is due 1,500 ms after arrival; the SUT's ttft runs from before the call
      assert.ok(ttft >= 1499, `${c.cellId}: ttft ${ttft}`);
      assert.ok((req.gapMaxMs[i] as number) >= (req.gapMeanMs[i] as number), c.cellId);
      assert.ok((req.execMs[i] as number) >= ttft, `${c.cellId}: exec holds the stream`);
    }
  }
  const c96 = run.cells.find((x) => x.variant === 'virtual' && x.concurrency === 96);
  assert.equal(c96?.mock.after?.peakInFlight, 96);
  const md = ((await buildReport(run, await loadTemplates('en'))).files.find((f) => f.path === 'report.md') as { content: string }).content;
  const section = md.slice(md.indexOf("### This run's follow-up"));
  assert.match(section, /sent each stream's response headers at once/);
  // headers at once: the dispatcher does not cap the streams, so the bound with dispatcher is c/T = 96 / 1.8 s
  assert.match(section, /\| Virtual threads \| 96 \| 64 \| [^|]+ \| 53\.33 req\/s \| 53\.33 req\/s \|/);
  assert.match(section, /At c = 96 > D = 64: Virtual threads had a TTFT P95 of [0-9,.]+ ms against [0-9,.]+ ms with Virtual threads \+ dispatcher 4096 .*; the mock's peak was 96 streams against 96\./);
  // the TTFT P95 of the c = 96 row is the cell's own (R type 7 over its successful requests)
  const p95 = columnPercentileMs(run.requests.get('virtual-c96-r1'), 'ttftMs', 'p95') as number;
  const line = section.split('\n').find((l) => l.startsWith('| Virtual threads | 96 |')) as string;
  assert.ok(line.includes(`| ${p95.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} ms |`), `${line} vs ${p95}`);
});

/** a real faults run with hangs (levels 20, 60; 4 req/worker; mock 500 ms; 10 % 500s, 5 % hangs, 5 % resets; 2 s client timeout) on this busy 2-core host, 2026-12-01 */
const FAULTS_HANG_RUN = join(FIXTURE_DIR, '..', 'faults-hang-run');

test('a real faults run with hangs: without retries every hung call reaches the client as 504 after the 2 s timeout; with 2 retries none; §17 splits http errors by status', async () => {
  const run = await loadRun(FAULTS_HANG_RUN);
  assert.deepEqual(run.gaps, []);
  assert.equal(run.manifest.options.mockFaults?.hangRate, 0.05);
  for (const c of run.cells) {
    const req = run.requests.get(c.cellId);
    const hung = c.mock.after?.faults['hang'] ?? 0;
    const by = errorsByStatus(req);
    if (c.variant === 'virtual-timeout') {
      assert.equal(by.get(504) ?? 0, hung, `${c.cellId}: one 504 per hung call`);
      assert.ok(hung > 0, c.cellId);
      // a 504 comes after the client timeout (the SUT's read timeout), never before
      for (let i = 0; req && i < req.status.length; i++) if (req.status[i] === 504) assert.ok((req.e2eMs[i] as number) >= 2000, `${c.cellId}: 504 after ${req.e2eMs[i]} ms`);
    } else {
      assert.equal(c.load.count - c.load.ok, 0, `${c.cellId}: retries absorbed every fault`);
      assert.ok((mockCalls(c) as number) > c.load.count, `${c.cellId}: retries multiplied upstream calls`);
    }
  }
  const md = ((await buildReport(run, await loadTemplates('en'))).files.find((f) => f.path === 'report.md') as { content: string }).content;
  const section = md.slice(md.indexOf("### This run's follow-up"));
  assert.match(section, /5 % never answered \(hang\)/);
  for (const c of run.cells.filter((x) => x.variant === 'virtual-timeout')) {
    const by = errorsByStatus(run.requests.get(c.cellId));
    const line = section.split('\n').find((l) => l.startsWith(`| Virtual threads + 2 s timeout | ${c.concurrency} |`)) as string;
    assert.ok(line.includes(`(502: ${by.get(502) ?? 0}, 504: ${by.get(504) ?? 0})`), line);
    // the bound with faults: c / (0.85 × 0.5 s + 0.05 × 2 s)
    assert.ok(line.includes(`| ${(c.concurrency / 0.525).toFixed(2)} req/s |`), line);
  }
});

/** a real streaming-quick run (levels 32, 96; 2 req/worker; the mock's headers with the first token) on this busy 2-core host, 2026-12-01 */
const STREAMING_FT_RUN = join(FIXTURE_DIR, '..', 'streaming-first-token-run');

test('streamBoundRps: min(c/T, D/L) with headers at the first token, c/T with headers at once (hand-checked)', () => {
  // c = 96, D = 64, T = 1.8 s, L = 1.5 s: c/T = 53.33, D/L = 42.67
  assert.ok(Math.abs(streamBoundRps(96, 64, 1800, 1500, 'first-token') - 64 / 1.5) < 1e-9);
  assert.ok(Math.abs(streamBoundRps(96, 64, 1800, 1500, 'arrival') - 96 / 1.8) < 1e-9);
  assert.ok(Math.abs(streamBoundRps(32, 64, 1800, 1500, 'first-token') - 32 / 1.8) < 1e-9);
});

test('a real streaming run with headers at the first token: above D = 64 Spring AI\'s dispatcher delays the first token of the capped variant only (hidden queue), the executor queue stays near zero', async () => {
  const run = await loadRun(STREAMING_FT_RUN);
  assert.deepEqual(run.gaps, []);
  assert.equal(run.manifest.options.mockStreamHeaders, 'first-token');
  const p95 = (v: string, c: number) => columnPercentileMs(run.requests.get(`${v}-c${c}-r1`), 'ttftMs', 'p95') as number;
  // below D both variants see the mock's L; above it the capped one waits for a slot
  assert.ok(Math.abs(p95('virtual', 32) - p95('virtual-dispatcher', 32)) < 100);
  assert.ok(p95('virtual', 96) - p95('virtual-dispatcher', 96) > 300, `${p95('virtual', 96)} vs ${p95('virtual-dispatcher', 96)}`);
  const peak = (v: string) => run.cells.find((x) => x.variant === v && x.concurrency === 96)?.mock.after?.peakInFlight as number;
  assert.equal(peak('virtual-dispatcher'), 96);
  assert.ok(peak('virtual') < 96);
  const md = ((await buildReport(run, await loadTemplates('en'))).files.find((f) => f.path === 'report.md') as { content: string }).content;
  const section = md.slice(md.indexOf("### This run's follow-up"));
  assert.match(section, /together with its first token/);
  // the bound with dispatcher at c = 96: min(96/1.8, 64/1.5) = 42.67 req/s
  assert.match(section, /\| Virtual threads \| 96 \| 64 \| [^|]+ \| 53\.33 req\/s \| 42\.67 req\/s \|/);
  assert.match(section, /At c = 96 > D = 64: Virtual threads had a TTFT P95 of [0-9,.]+ ms against [0-9,.]+ ms with Virtual threads \+ dispatcher 4096/);
});
