/**
 * The run pipeline (src/pipeline/run.ts, executePlan) against the real mock LLM process and a
 * stand-in SUT process (test/fixtures/stand-in-sut.ts: a fixed pool of permits or unbounded, calling the
 * mock): per-cell mock statistics, and a component that dies mid-cell (failed cell, exit 6,
 * resume measures exactly that cell). The real SUT JVM is covered by test/e2e/e2e-run.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executePlan, sutMismatches, type RunDeps, type RunContext, type SutHandle } from '../../src/pipeline/run.ts';
import { startMockProcess, getMockStats, resetMockStats } from '../../src/adapters/process/mock-process.ts';
import { httpProbe } from '../../src/adapters/process/liveness.ts';
import { ChildRegistry } from '../../src/adapters/process/children.ts';
import { getSamples, getPinned, getThreadDump, getInfo } from '../../src/adapters/jvm/client.ts';
import { resolveOptions } from '../../src/plan/profiles.ts';
import { STUDY_000 as S000 } from '../../src/studies/000/index.ts';
import type { Study, Variant } from '../../src/types/study.ts';
import { makePlan } from '../../src/plan/plan.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { hostInfo } from '../../src/adapters/host/host.ts';
import { validate } from '../../src/adapters/store/schema.ts';
import { VtbenchError } from '../../src/types/errors.ts';
import { SCHEMA_VERSION, type RunManifest, type ResolvedOptions } from '../../src/types/run.ts';
import type { RunEvent } from '../../src/pipeline/events.ts';
import { freePort } from '../fixtures/ports.ts';
import { startFakeSutByHand } from '../fixtures/fake-sut.ts';

const FAST_LIVENESS = { intervalMs: 200, probeTimeoutMs: 1000, failuresToDeath: 2 };


function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

/** Start the stand-in SUT; resolves once it listens and /bench/info answers. */
async function startFakeSut(v: Variant, mockV1: string, logFile: string, extra: string[] = []): Promise<SutHandle> {
  const threads = v.executor.kind === 'platform-pool' ? ['--threads', String(v.executor.threads), '--queue', String(v.executor.queueCapacity)] : [];
  const { child, url: baseUrl } = await startFakeSutByHand(['--variant', v.id, '--kind', v.executor.kind, ...threads, '--prefix', v.threadNamePrefix, '--mock', mockV1, ...extra]);
  const info = await getInfo(baseUrl, 5000);
  return {
    pid: child.pid!, baseUrl, info, marker: 'stand-in-sut', logFile,
    probe: (t) => httpProbe(`${baseUrl}/bench/info`, t),
    stop: async () => {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

interface Harness {
  ctx: RunContext;
  events: RunEvent[];
  /** the current SUT and mock handles, as started by the pipeline */
  current: { sut: SutHandle | null; mockPid: number | null };
}

/** the run's control token the mock of these tests is started with (src/adapters/process/control-token.ts) */
const TOKEN = 'pipeline-test-token';

async function harness(dir: string, raw: Record<string, string>, manifest?: RunManifest, sutArgs: string[] = [], study: Study = S000): Promise<Harness> {
  const mockPort = await freePort();
  const options: Readonly<ResolvedOptions> = manifest ? manifest.options : resolveOptions(study, 'smoke', { warmupS: '0', mockPort: String(mockPort), ...raw });
  const plan = makePlan(options, study);
  const store = new RunStore(dir);
  store.init();
  const m: RunManifest = manifest ?? {
    schemaVersion: SCHEMA_VERSION, runId: 'test-run', tool: { name: 'vtbench', version: '0', gitCommit: null, gitDirty: null }, options,
    startedAt: new Date().toISOString(), endedAt: null, status: 'running', error: null, host: hostInfo(),
    versions: { node: process.version, undici: '7', jdk: null, jdkVendor: null, springBoot: null, springAi: null },
    sut: {}, cellOrder: plan.cells.map((c) => c.cellId), plannedDurationS: plan.theoreticalS,
  };
  store.writeManifest(m);
  const current: Harness['current'] = { sut: null, mockPid: null };
  const deps: RunDeps = {
    async startMock(o) {
      const p = await startMockProcess({ ...o, controlToken: TOKEN });
      current.mockPid = p.pid;
      return { ...p, marker: 'mock/src/cli.ts', logFile: o.logFile, probe: (t) => httpProbe(`${p.url}/health`, t) };
    },
    async startSut(o) {
      current.sut = await startFakeSut(o.variant, o.mockUrl, o.logFile, sutArgs);
      return current.sut;
    },
    getSamples: async (u, since) => (await getSamples(u, since)).samples,
    getPinned: (u) => getPinned(u).catch(() => null),
    getThreadDump: (u) => getThreadDump(u),
    getMockStats,
    resetMockStats: (u) => resetMockStats(u, TOKEN),
  };
  const events: RunEvent[] = [];
  const ctx: RunContext = {
    study, options, plan, store, manifest: m, deps, emit: (e) => events.push(e), signal: new AbortController().signal,
    children: new ChildRegistry(join(dir, 'pids.json')), liveness: FAST_LIVENESS,
  };
  return { ctx, events, current };
}

test('executePlan: an alone probe after the warm-up records one request alone in the manifest; with --shards 2 it still runs one worker in this process', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-pipeline-'));
  try {
    const study: Study = { ...S000, scenarios: S000.scenarios.map((sc) => ({ ...sc, aloneProbe: { requests: 4 } })) };
    const h = await harness(dir, { levels: '2', variants: 'virtual', requestsPerWorker: '2', latencyMs: '200', shards: '2' }, undefined, [], study);
    assert.deepEqual(h.ctx.plan.blocks.map((b) => b.aloneProbe), [{ requests: 4, theoreticalS: 0.8 }]);
    await executePlan(h.ctx);
    const p = h.ctx.manifest.aloneProbes?.['virtual-r1'];
    assert.ok(p, 'the probe is recorded under its block');
    assert.equal(p.requests, 4);
    assert.equal(p.ok, 4);
    assert.equal(p.sent, 4);
    // the mock answers after 200 ms, never earlier: one request alone takes at least that end to end and in the SUT
    assert.ok(p.execMeanMs! >= 200 && p.e2eMeanMs! > p.execMeanMs!, JSON.stringify(p));
    assert.deepEqual(validate('RunManifest', JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'))), []);
    assert.ok(h.events.some((e) => e.type === 'info' && /alone probe of block virtual-r1: 4\/4 ok/.test(e.message)));
    // the probe is not a cell: only the planned cell is stored, and its mock figures exclude the probe
    const cell = h.ctx.store.readCell('virtual-c2-r1');
    assert.equal(cell.mock.after?.served, 2 * 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('executePlan: the mock figures stored with each cell describe that cell alone (fixed peak <= min(c, N), virtual peak = c)', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-pipeline-'));
  try {
    // plan order: fixed-c2, fixed-c6, then virtual-c2, virtual-c6; without a reset before each cell
    // the fixed block's figures would leak into virtual-c2 (served, and a peak of 3 for 2 workers)
    const h = await harness(dir, { levels: '2,6', variants: 'fixed,virtual', poolSize: '3', requestsPerWorker: '3', latencyMs: '300' });
    await executePlan(h.ctx);
    const n = 3;
    for (const id of h.ctx.manifest.cellOrder) {
      const cell = h.ctx.store.readCell(id);
      const { before, after, scope } = cell.mock;
      assert.equal(scope, 'cell', id);
      assert.ok(before && after, id);
      assert.equal(before.served, 0, `${id}: reset before the load`);
      assert.equal(after.served, cell.concurrency * n, `${id}: served counts this cell's requests only`);
      assert.equal(after.latenessMs?.n, cell.concurrency * n, `${id}: lateness samples of this cell only`);
      assert.ok((after.sinceEpochMs ?? 0) >= Date.parse(cell.startedAt), `${id}: counted since the cell started`);
      const bound = cell.variant === 'fixed' ? Math.min(cell.concurrency, 3) : cell.concurrency;
      assert.equal(after.peakInFlight, bound, `${id}: upstream peak of ${cell.concurrency} workers through ${cell.variant === 'fixed' ? 'a pool of 3' : 'an unbounded executor'}`);
      assert.deepEqual(validate('CellFile', h.ctx.store.readCellFile(id)), [], id);
      assert.ok(typeof cell.sutPid === 'number' && cell.sutPid > 0, `${id}: the serving SUT's pid is recorded`);
    }
    const pidsOf = (variant: string) => new Set(h.ctx.manifest.cellOrder.map((id) => h.ctx.store.readCell(id)).filter((c) => c.variant === variant).map((c) => c.sutPid));
    assert.equal(pidsOf('fixed').size, 1, 'one JVM per block');
    assert.equal(h.ctx.manifest.failedCells, undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

for (const victim of ['SUT', 'mock'] as const) {
  test(`executePlan: the ${victim} killed mid-cell fails that cell (not written, listed with the cause, exit 6); a resume measures exactly that cell`, { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vtbench-pipeline-'));
    try {
      // two cells of about 6 × 250 ms; the victim is SIGKILLed 600 ms into the second
      const h = await harness(dir, { levels: '2,3', variants: 'fixed', poolSize: '8', requestsPerWorker: '6', latencyMs: '250' });
      let killedPid = 0;
      const emit = h.ctx.emit;
      h.ctx.emit = (e) => {
        emit(e);
        if (e.type === 'cell-start' && e.cellId === 'fixed-c3-r1') {
          setTimeout(() => {
            killedPid = victim === 'SUT' ? h.current.sut!.pid! : h.current.mockPid!;
            process.kill(killedPid, 'SIGKILL');
          }, 600);
        }
      };
      const err = await executePlan(h.ctx).then(() => null, (e: unknown) => e);
      assert.ok(err instanceof VtbenchError, `rejects with a VtbenchError: ${String(err)}`);
      assert.equal(err.exitCode, 6);
      assert.match(err.message, victim === 'SUT' ? /SUT \(fixed-r1\) died during cell fixed-c3-r1/ : /mock LLM died during cell fixed-c3-r1/);
      assert.match(err.message, new RegExp(`process ${killedPid} is gone`));
      // the run folder is a temp folder, not out/runs/<id>: the hint names the folder, which --resume reads as the folder (resumeArg)
      assert.ok(err.hint.endsWith(`continue with --resume ${h.ctx.store.dir}`), err.hint);

      const store = h.ctx.store;
      const onDisk = store.readManifest();
      assert.equal(onDisk.failedCells?.length, 1);
      assert.equal(onDisk.failedCells![0]!.cellId, 'fixed-c3-r1');
      assert.match(onDisk.failedCells![0]!.cause, new RegExp(`process ${killedPid} is gone`));
      assert.ok(!Number.isNaN(Date.parse(onDisk.failedCells![0]!.atIso)));
      assert.deepEqual([...store.doneCellIds()], ['fixed-c2-r1'], 'the failed cell is not done');
      assert.ok(!existsSync(store.cellPath('fixed-c3-r1')), 'no cell file for the failed cell');
      const evidence = JSON.parse(readFileSync(join(dir, 'cells', 'fixed-c3-r1.failed.json'), 'utf8'));
      assert.equal(evidence.component.pid, killedPid);
      assert.ok(h.events.some((e) => e.type === 'cell-failed' && e.cellId === 'fixed-c3-r1'));
      const firstCell = readFileSync(store.cellPath('fixed-c2-r1'), 'utf8');

      // resume: fresh children, only the failed cell is measured
      const r = await harness(dir, {}, onDisk);
      await executePlan(r.ctx);
      assert.deepEqual([...r.ctx.store.doneCellIds()].sort(), ['fixed-c2-r1', 'fixed-c3-r1']);
      assert.equal(readFileSync(store.cellPath('fixed-c2-r1'), 'utf8'), firstCell, 'the finished cell is not measured again');
      assert.deepEqual(r.events.filter((e) => e.type === 'cell-start').map((e) => (e as { cellId: string }).cellId), ['fixed-c3-r1']);
      const after = store.readManifest();
      assert.equal(after.failedCells, undefined, 'the entry is removed once measured');
      assert.match(after.notes?.at(-1) ?? '', /cell fixed-c3-r1 measured anew on --resume; it had failed at .*process \d+ is gone/);
      const cell = store.readCell('fixed-c3-r1');
      assert.equal(cell.load.ok, 3 * 6);
      assert.deepEqual(validate('RunManifest', after), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('executePlan: a cell in which no request succeeded (every answer 503, components alive) is failed, not a result', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-pipeline-'));
  try {
    const h = await harness(dir, { levels: '2,3', variants: 'fixed', requestsPerWorker: '3', latencyMs: '100' }, undefined, ['--status', '503']);
    const err = await executePlan(h.ctx).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof VtbenchError, String(err));
    assert.equal(err.exitCode, 6);
    assert.equal(err.message, 'cell fixed-c2-r1 is unusable (no request succeeded: all 6 failed (http 6)); it is recorded as failed, not as a measurement');
    assert.deepEqual(h.ctx.store.readManifest().failedCells?.map((f) => [f.cellId, f.cause]), [['fixed-c2-r1', 'no request succeeded: all 6 failed (http 6)']]);
    assert.deepEqual([...h.ctx.store.doneCellIds()], []);
    assert.deepEqual(h.events.filter((e) => e.type === 'cell-start').length, 1, 'the run stops at the first failed cell');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sutMismatches: every executor field and the scenario bean, each named with both values', () => {
  const [fixed, virtual] = S000.variants as [Variant, Variant];
  const scenario = S000.scenarios[0]!;
  const info = (executor: Record<string, unknown>, scenarios: string[]) => ({ executor, scenarios }) as unknown as Parameters<typeof sutMismatches>[2];
  assert.deepEqual(sutMismatches(fixed, scenario, info({ variant: 'fixed', kind: 'platform-pool', threads: 32, queueCapacity: 10000, threadNamePrefix: 'llm-fixed-', pinning: 'none' }, ['llm', 'sleep'])), []);
  assert.deepEqual(sutMismatches(virtual, scenario, info({ variant: 'virtual', kind: 'virtual-per-task', threads: null, queueCapacity: null, threadNamePrefix: 'llm-vt-', pinning: 'none' }, ['llm'])), []);
  assert.deepEqual(sutMismatches(fixed, scenario, info({ variant: 'virtual', kind: 'virtual-per-task', threads: null, queueCapacity: null, threadNamePrefix: 'vt-' }, ['sleep'])), [
    'variant fixed: executor.variant is "virtual", expected "fixed"',
    'variant fixed: executor.kind is "virtual-per-task", expected "platform-pool"',
    'variant fixed: executor.threads is null, expected 32',
    'variant fixed: executor.queueCapacity is null, expected 10000',
    'variant fixed: executor.threadNamePrefix is "vt-", expected "llm-fixed-"',
    `scenario ${scenario.id}: the SUT serves scenarios ["sleep"], expected one to be 'llm'`,
  ]);
  // a scenario without sutScenario is not checked against the list
  assert.deepEqual(sutMismatches(virtual, { ...scenario, sutScenario: undefined }, info({ variant: 'virtual', kind: 'virtual-per-task', threads: null, queueCapacity: null, threadNamePrefix: 'llm-vt-' }, [])), []);
});

test('executePlan: a SUT that is not the variant or scenario asked for fails the run before any load of its block (exit 6)', { timeout: 60_000 }, async () => {
  for (const [extra, expected] of [
    [['--threads', '5'], /^the SUT started for block fixed-r1 is not the one asked for: variant fixed: executor\.threads is 5, expected 8; no load was sent to it$/],
    [['--scenarios', 'sleep'], /^the SUT started for block fixed-r1 is not the one asked for: scenario llm-chat: the SUT serves scenarios \["sleep"\], expected one to be 'llm'; no load was sent to it$/],
  ] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'vtbench-pipeline-'));
    try {
      const h = await harness(dir, { levels: '2', variants: 'fixed', requestsPerWorker: '2', latencyMs: '50' }, undefined, [...extra]);
      const err = await executePlan(h.ctx).then(() => null, (e: unknown) => e);
      assert.ok(err instanceof VtbenchError, String(err));
      assert.equal(err.exitCode, 6);
      assert.match(err.message, expected);
      assert.deepEqual(h.events.filter((e) => e.type === 'warmup' || e.type === 'cell-start'), [], 'no load');
      assert.deepEqual([...h.ctx.store.doneCellIds()], []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});
