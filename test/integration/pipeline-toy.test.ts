/**
 * The toy study (test/fixtures/toy-study/, not registered in src/studies) through the real entry
 * point `runStudy` — options, plan, store, pipeline, driver, load generator, summary, manifest all
 * production code — against an in-process stand-in of the SUT's `sleep` scenario: per block, an
 * HTTP server whose executor is the block's variant (a pool of `threads` permits with a FIFO queue,
 * or unbounded), answering `POST /api/scenario/sleep?ms=N` after N ms with `Server-Timing`. No JVM:
 * the same checks as test/e2e/toy-study.test.ts (which needs the real SUT) run here on every machine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { main, runStudy, type Io, type MainDeps } from '../../src/cli/main.ts';
import { EXIT } from '../../src/types/errors.ts';
import type { RunDeps } from '../../src/pipeline/run.ts';
import type { SutInfo } from '../../src/types/sut-api.ts';
import type { Variant } from '../../src/types/study.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { validate } from '../../src/adapters/store/schema.ts';
import { throughputBoundRps } from '../../src/compute/theory/bounds.ts';
import { TOY_STUDY } from '../fixtures/toy-study/study.ts';
import { idleChild } from '../fixtures/idle-child.ts';

const MARKER = 'vtbench-test-fake-component';

const sleeper = (): ReturnType<typeof idleChild> => idleChild(MARKER);

/** What each started stand-in saw: its variant and the requests' paths and methods. */
interface Seen { variant: Variant; requests: string[] }

/** An HTTP stand-in of the SUT running `variant`'s executor and the `sleep` scenario. */
async function fakeSut(variant: Variant, seen: Seen[]): Promise<{ url: string; info: SutInfo; close: () => Promise<void> }> {
  const e = variant.executor;
  const limit = e.kind === 'platform-pool' ? e.threads : Infinity;
  let active = 0;
  const waiting: (() => void)[] = [];
  const acquire = () => (active < limit ? (active++, Promise.resolve()) : new Promise<void>((r) => waiting.push(r)));
  const release = () => { const next = waiting.shift(); if (next) next(); else active--; };
  const me: Seen = { variant, requests: [] };
  seen.push(me);
  const info: SutInfo = {
    jdkVendor: 'none (stand-in)', jdkVersion: '0', springBootVersion: '0', springAiVersion: '0', jvmFlags: [], availableProcessors: 1,
    executor: { variant: variant.id, kind: e.kind, threads: e.kind === 'platform-pool' ? e.threads : null, queueCapacity: e.kind === 'platform-pool' ? e.queueCapacity : null, threadNamePrefix: variant.threadNamePrefix, pinning: 'none' },
    scenarios: ['llm', 'sleep'], vtSchedulerParallelism: null,
    tomcat: { maxThreads: 1, maxConnections: 1, maxKeepAliveRequests: -1, keepAliveTimeoutMs: 1, asyncRequestTimeoutMs: 1 },
    okhttp: { maxIdleConnections: 1, keepAliveDurationMs: 1, dispatcherMaxRequests: null }, mockBaseUrl: 'http://127.0.0.1:9/v1', samplerIntervalMs: 100, pinnedThresholdMs: 20,
  };
  const server = http.createServer((req, res) => {
    req.resume();
    me.requests.push(`${req.method} ${req.url}`);
    const m = /^\/api\/scenario\/sleep\?ms=(\d+)$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end('{}');
    const ms = Number(m[1]);
    const submitted = performance.now();
    void acquire().then(() => {
      const started = performance.now();
      setTimeout(() => {
        const ended = performance.now();
        release();
        const q = started - submitted;
        const x = ended - started;
        res.writeHead(200, { 'content-type': 'application/json', 'server-timing': `queue;dur=${q.toFixed(3)}, exec;dur=${x.toFixed(3)}` });
        res.end(JSON.stringify({ variant: variant.id, scenario: 'sleep', result: ms, queueMs: q, execMs: x }));
      }, ms);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, info, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

function deps(seen: Seen[]): MainDeps {
  const run: RunDeps = {
    startMock: async (o) => { const p = sleeper(); return { pid: p.pid, url: 'http://127.0.0.1:9', marker: MARKER, stop: p.stop, logFile: o.logFile, probe: async () => true }; },
    startSut: async (o) => {
      const p = sleeper();
      const s = await fakeSut(o.variant, seen);
      return { pid: p.pid, baseUrl: s.url, marker: MARKER, logFile: o.logFile, probe: async () => true, info: s.info, stop: async () => { await s.close(); await p.stop(); } };
    },
    getSamples: async () => [],
    getPinned: async () => null,
    getThreadDump: async () => JSON.stringify({ threadDump: { threadContainers: [{ container: '<root>', threads: [1, 2].map((i) => ({ tid: i, name: `toy-pool-${i}`, state: 'TIMED_WAITING', stack: ['java.base/java.lang.Thread.sleep(Thread.java:1)'] })) }] } }),
    getMockStats: async () => null,
    resetMockStats: async () => null,
  };
  return { prepare: async () => ({ deps: run, jdk: null }), checkJdk: () => 'fake JDK', checkMaven: () => 'fake Maven', report: async () => { throw new Error('not rendered in this test'); } };
}


test('runStudy runs an unregistered study: its variants start their own executors, the scenario\'s request is sent, cells carry variant, executor and L', { timeout: 120_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-toy-fake-'));
  try {
    let out = '';
    const sink = { write: (s: string) => { out += s; return true; }, isTTY: false } as unknown as NodeJS.WriteStream;
    const io: Io = { stdout: sink, stderr: sink };
    const seen: Seen[] = [];
    const runsDir = join(tmp, 'runs');
    const code = await runStudy(TOY_STUDY, ['--profile', 'tiny', '--runs-dir', runsDir, '--no-report', '--json'], io, deps(seen));
    assert.equal(code, 0, out);
    assert.match(out, /vtbench plan — study toy, profile tiny, scenario sleep/);
    const planEvent = out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e['type'] === 'plan');
    assert.deepEqual([planEvent?.['study'], planEvent?.['profile'], planEvent?.['scenario'], planEvent?.['variants']], ['toy', 'tiny', 'sleep', ['pool-2', 'vt']], 'the --json plan event names study, profile, scenario, variants');
    assert.deepEqual(seen.map((s) => s.variant), TOY_STUDY.variants, 'one SUT per block, started with the effective variant');
    for (const s of seen) assert.ok(s.requests.length > 0 && s.requests.every((r) => r === 'POST /api/scenario/sleep?ms=200'), s.requests.join(', '));

    const dir = join(runsDir, readdirSync(runsDir)[0]!);
    assert.match(dir, /\/\d{8}-\d{6}-toy-tiny$/, 'the run id names the study and the profile');
    const store = new RunStore(dir);
    const m = store.readManifest();
    assert.equal(m.status, 'complete');
    assert.equal(m.options.study, 'toy');
    assert.deepEqual(m.options.variantSpecs, TOY_STUDY.variants);
    assert.deepEqual(m.cellOrder, ['pool-2-c2-r1', 'pool-2-c6-r1', 'vt-c2-r1', 'vt-c6-r1']);
    assert.deepEqual(Object.keys(m.sut), ['pool-2-r1', 'vt-r1']);
    const cells = store.readDoneCells(m.cellOrder);
    assert.equal(cells.length, 4);
    for (const c of cells) {
      assert.deepEqual(validate('CellFile', store.readCellFile(c.cellId)), [], c.cellId);
      assert.equal(c.scenario, 'sleep');
      assert.equal(c.latencyMs, 200);
      assert.deepEqual(c.executor, TOY_STUDY.variants.find((v) => v.id === c.variant)!.executor);
      assert.equal(c.load.ok, c.concurrency * 2, c.cellId);
      const bound = throughputBoundRps(c.executor, c.concurrency, 200);
      assert.ok(c.load.wholeRunThroughputRps! <= bound * 1.05, `${c.cellId}: ${c.load.wholeRunThroughputRps} ≤ ${bound}`);
    }
    const q95 = (id: string) => cells.find((c) => c.cellId === id)!.load.queueMs!.p95;
    assert.ok(q95('pool-2-c6-r1') > 150, `6 workers on 2 threads queue: ${q95('pool-2-c6-r1')} ms`);
    for (const id of ['pool-2-c2-r1', 'vt-c2-r1', 'vt-c6-r1']) assert.ok(q95(id) < 20, `${id}: ${q95(id)} ms`);
    // the dump of the highest level counts the variant's own pool threads by its prefix
    const dump = cells.find((c) => c.cellId === 'pool-2-c6-r1')!.threadDump;
    assert.ok(dump);
    assert.deepEqual(dump.groups.map((g) => g.namePrefix), ['toy-pool-']);
    const summary = JSON.parse(readFileSync(store.summaryPath, 'utf8')) as { rows: { variant: string; concurrency: number; boundRps: number }[] };
    assert.deepEqual(validate('RunSummary', summary), []);
    assert.deepEqual(summary.rows.map((r) => `${r.variant}@${r.concurrency}:${r.boundRps}`), ['pool-2@2:10', 'pool-2@6:10', 'vt@2:10', 'vt@6:30']);

    // resume: the study comes from the manifest; unknown to plain main, known through runStudy
    out = '';
    assert.equal(await main(['--resume', dir, '--dry-run', '--no-report'], io, deps([])), EXIT.runData, out);
    assert.match(out, /error: --resume: run \S+ measured study 'toy', which this vtbench does not define/);
    out = '';
    assert.equal(await runStudy(TOY_STUDY, ['--resume', dir, '--dry-run', '--no-report'], io, deps([])), 0, out);
    assert.match(out, /resume: all 4 planned cells have a valid result; nothing left to measure/);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('progress lines (issue 30 item 8): the SUT build and each block\'s SUT JVM say when they begin and how long they took; the plan\'s planned duration adds the starts', { timeout: 120_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-toy-progress-'));
  try {
    let out = '';
    const sink = { write: (s: string) => { out += s; return true; }, isTTY: false } as unknown as NodeJS.WriteStream;
    const io: Io = { stdout: sink, stderr: sink };
    const code = await runStudy(TOY_STUDY, ['--profile', 'tiny', '--runs-dir', join(tmp, 'runs'), '--no-report'], io, { ...deps([]), sutBuildNeeded: () => true });
    assert.equal(code, 0, out);
    assert.match(out, /planned duration ≈ .+: load and warm-up .+ \+ 2 SUT JVM blocks × 18 s \(stop, start\) \+ the SUT build 2 min 0 s \(sut\/ changed since the last build\)\n/);
    assert.match(out, /building the SUT jar with Maven: sut\/ changed since the last build \(≈ 2 min 0 s on a first run\)\nbuilt the SUT jar in \d+\.\d s\n/);
    for (const b of ['pool-2-r1', 'vt-r1']) {
      assert.match(out, new RegExp(`— JVM block ${b}\\n  starting the SUT JVM of block ${b}\\n  the SUT JVM of block ${b} ready after \\d+\\.\\d s\\n`), out);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
