/**
 * Limits the SUT enforces on its job endpoints are known to the plan check from one source
 * (sut/src/main/resources/bench-limits.properties, read by the SUT's BenchLimits and by
 * src/plan/sut-limits.ts): a plan the SUT would refuse is refused by --dry-run and before any JVM
 * starts (exit 2), and a cell the SUT refuses anyway shows the SUT's reason and is not offered for
 * --resume (no failed cell; exit 2, not 6).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main, type Io } from '../../src/cli/main.ts';
import { realDeps } from '../../src/cli/deps.ts';
import { parseSutLimits, jobLimitProblems, SUT_LIMITS_FILE } from '../../src/plan/sut-limits.ts';
import { runInProcessJob } from '../../src/load/in-process.ts';
import { VT_SWEEP_ANSWER } from '../../src/studies/003/sweep.ts';
import { executePlan, type RunContext, type RunDeps } from '../../src/pipeline/run.ts';
import { startMockProcess, getMockStats, resetMockStats } from '../../src/adapters/process/mock-process.ts';
import { httpProbe } from '../../src/adapters/process/liveness.ts';
import { ChildRegistry } from '../../src/adapters/process/children.ts';
import { resolveOptions } from '../../src/plan/profiles.ts';
import { makePlan } from '../../src/plan/plan.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { STUDY_003 } from '../../src/studies/003/index.ts';
import { VtbenchError } from '../../src/types/errors.ts';
import type { SutInfo } from '../../src/types/sut-api.ts';
import { freePort } from '../fixtures/ports.ts';
import { runningManifest } from '../fixtures/fake-run.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function capture(): { io: Io; text: () => string } {
  let buf = '';
  const sink = { write: (s: string) => { buf += s; return true; } } as unknown as NodeJS.WriteStream;
  return { io: { stdout: sink, stderr: sink }, text: () => buf };
}

test('study 003 --levels 2000001: --dry-run and a run are refused before any JVM starts (exit 2), in the SUT\'s words', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-sut-limits-'));
  try {
    for (const extra of [['--dry-run'], []]) {
      const c = capture();
      const code = await main(['--study', '003', '--profile', 'smoke', '--levels', '2000001', '--runs-dir', join(tmp, 'runs'), '--report-dir', join(tmp, 'report'), ...extra], c.io, realDeps());
      assert.equal(code, 2, c.text());
      assert.match(c.text(), /scenario sleep-sweep, level 2000001: the SUT would refuse its job \/bench\/job\/vt-sweep \(threads must be in 1\.\.2000000, got 2000001\)/);
      assert.match(c.text(), /bench-limits\.properties/);
      assert.ok(!existsSync(join(tmp, 'runs')) || readdirSync(join(tmp, 'runs')).length === 0, 'no run folder');
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('the limits file is the one the SUT reads: every job parameter the Java side checks is read from it, none hard-coded', () => {
  const limits = parseSutLimits(readFileSync(SUT_LIMITS_FILE, 'utf8'));
  assert.ok(SUT_LIMITS_FILE.endsWith('sut/src/main/resources/bench-limits.properties'), 'on the SUT\'s classpath');
  assert.deepEqual(limits.get('vt-sweep.threads'), { min: 1, max: 2_000_000 });
  const sources = {
    'vt-sweep': readFileSync(join(ROOT, 'sut/src/main/java/dev/vtbench/sut/jobs/sweep/VtSweepJob.java'), 'utf8'),
    'async-burst': readFileSync(join(ROOT, 'sut/src/main/java/dev/vtbench/sut/jobs/AsyncBurstJob.java'), 'utf8'),
  };
  for (const [job, src] of Object.entries(sources)) {
    const checked = [...src.matchAll(/BenchLimits\.check\(JOB, "(\w+)"/g)].map((m) => m[1]);
    const listed = [...limits.keys()].filter((k) => k.startsWith(`${job}.`)).map((k) => k.slice(job.length + 1));
    assert.deepEqual(checked.sort(), listed.sort(), `${job}: the SUT checks exactly the listed parameters`);
    assert.doesNotMatch(src, /must be (a whole number )?in /, `${job}: no range of its own`);
  }
  assert.deepEqual(jobLimitProblems({ path: '/bench/job/async-burst', tasks: 0, sleepMs: 10, timeoutMs: 1 }), ['tasks must be in 1..1000000, got 0']);
});

/** A stand-in SUT for study 003: /bench/info for the `virtual` variant, and a job endpoint that answers as Spring does for a parameter out of range. */
async function refusingSut(): Promise<{ server: Server; url: string }> {
  const info: SutInfo = {
    jdkVendor: 'fake', jdkVersion: '25', springBootVersion: 'fake', springAiVersion: 'fake', jvmFlags: [], availableProcessors: 2,
    executor: { variant: 'virtual', kind: 'virtual-per-task', threads: null, queueCapacity: null, threadNamePrefix: 'llm-vt-', pinning: 'none' },
    scenarios: ['sleep-sweep', 'socket-sweep'], vtSchedulerParallelism: null,
    tomcat: { maxThreads: 200, maxConnections: 8192, maxKeepAliveRequests: -1, keepAliveTimeoutMs: 600_000, asyncRequestTimeoutMs: 600_000 },
    okhttp: { maxIdleConnections: 1000, keepAliveDurationMs: 300_000, dispatcherMaxRequests: null }, mockBaseUrl: 'http://127.0.0.1:1/v1',
    samplerIntervalMs: 250, pinnedThresholdMs: 20,
  };
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    if (url.startsWith('/bench/job/')) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ timestamp: '2026-01-01T00:00:00Z', status: 400, error: 'Bad Request', message: 'threads must be in 1..5, got 10', path: '/bench/job/vt-sweep' }));
      return;
    }
    const body = url.startsWith('/bench/info') ? info : url.startsWith('/bench/pinned') ? { thresholdMs: 20, total: 0, byReason: {}, submitFailedTotal: 0, flushed: true, flushWaitMs: 0 } : url.startsWith('/bench/samples') ? { intervalMs: 250, samples: [] } : {};
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return { server, url: `http://127.0.0.1:${port}` };
}

test('runInProcessJob: a job the SUT refuses (400) carries the SUT\'s reason', async () => {
  const { server, url } = await refusingSut();
  try {
    const r = await runInProcessJob(url, { path: '/bench/job/vt-sweep', answer: VT_SWEEP_ANSWER, tasks: 10, sleepMs: 1, timeoutMs: 5000, params: { op: 'sleep', threads: 10 } }, new AbortController().signal);
    assert.deepEqual(r.refused, { status: 400, message: 'threads must be in 1..5, got 10' });
  } finally {
    server.close();
  }
});

test('executePlan: a cell the SUT refuses stops the run with the SUT\'s reason (exit 2), is not a failed cell, and --resume is not offered', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-sut-refuses-'));
  const { server, url } = await refusingSut();
  try {
    const options = resolveOptions(STUDY_003, 'smoke', { levels: '10', repeats: '1', mockPort: String(await freePort()) });
    const plan = makePlan(options, STUDY_003);
    const store = new RunStore(dir);
    store.init();
    const manifest = runningManifest('test-run', options, plan);
    store.writeManifest(manifest);
    const deps: RunDeps = {
      async startMock(o) {
        const p = await startMockProcess(o);
        return { ...p, marker: 'mock/src/cli.ts', logFile: o.logFile, probe: (t) => httpProbe(`${p.url}/health`, t) };
      },
      async startSut() {
        const info = await (await fetch(`${url}/bench/info`)).json() as SutInfo;
        return { pid: null, baseUrl: url, info, marker: '', logFile: '/dev/null', probe: (t) => httpProbe(`${url}/bench/info`, t), stop: async () => {} };
      },
      getSamples: async () => [],
      getPinned: async () => null,
      getThreadDump: async () => '{}',
      getMockStats,
      resetMockStats: (url: string) => resetMockStats(url, null),
    };
    const ctx: RunContext = { study: STUDY_003, options, plan, store, manifest, deps, emit: () => {}, signal: new AbortController().signal, children: new ChildRegistry(null), liveness: { intervalMs: 200, probeTimeoutMs: 1000, failuresToDeath: 2 } };
    const err = await executePlan(ctx).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof VtbenchError, String(err));
    assert.equal(err.exitCode, 2);
    assert.match(err.message, /the SUT refused cell virtual-c10-r1 \(HTTP 400: threads must be in 1\.\.5, got 10\)/);
    assert.doesNotMatch(err.hint, /continue with --resume/);
    assert.equal(store.readManifest().failedCells, undefined, 'not a failed cell for --resume to measure');
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
