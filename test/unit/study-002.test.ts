/** Study 002: bounds per cell, the verdict rule, the published figures against the study's own setup, the plan, error codes and extra Server-Timing entries. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cellBounds, cellCpu, cellWindow, boundVerdict, MIN_WINDOW_COMPLETIONS, sutCpuMsAt, windowRps } from '../../src/compute/theory/cell-bounds.ts';
import { aloneHolding, boundsFor, cellHolding, checkPublished, holding, MIXED_CRITICAL_PATH_MS, MIXED_SERIAL_MS, plannedCellS, plannedRps, REQUEST_SCENARIOS, requestsPerWorkerForWindow } from '../../src/studies/002/theory.ts';
import { runFibN, STUDY_002, VARIANTS_002 } from '../../src/studies/002/index.ts';
import { PUBLISHED_002 } from '../../src/studies/002/published.ts';
import { resolveOptions } from '../../src/plan/profiles.ts';
import { levelsOf, makePlan } from '../../src/plan/plan.ts';
import { errorKindOf } from '../../src/load/run.ts';
import { blockSutProperties } from '../../src/pipeline/run.ts';
import { summarize } from '../../src/load/summarize.ts';
import { compactRequests } from '../../src/adapters/store/run-store.ts';
import { expandRequests } from '../../src/pipeline/resummarize.ts';
import { requestColumnProblems } from '../../src/adapters/store/schema.ts';
import type { RequestRecord } from '../../src/types/load.ts';

const HOST = { openFiles: 20000, ephemeralPorts: 28000, heapLimitBytes: 4 * 2 ** 30 } as never;
const v = (id: string) => VARIANTS_002.find((x) => x.id === id)!;

describe('bounds of a cell', () => {
  test('the smallest of executor, DB pool, lock, CPU', () => {
    // the examples: 10 / 0.005 s = 2,000 req/s; 10 / 0.05 s = 200 req/s
    const db10 = boundsFor({ variant: v('db10-virtual'), scenario: 'db-small', concurrency: 1000, cores: 2, cpuMsPerRequest: null, fibCpuMsPerCall: null });
    assert.equal(db10.smallest?.kind, 'dbPool');
    assert.equal(db10.smallest?.rps, 2000);
    const mixed = boundsFor({ variant: v('mixed-pool-200'), scenario: 'mixed', concurrency: 1000, cores: 2, cpuMsPerRequest: null, fibCpuMsPerCall: null });
    assert.deepEqual(mixed.bounds.map((b) => [b.kind, Math.round(b.rps * 100) / 100]), [['executor', 869.57], ['dbPool', 200]]);
    assert.equal(mixed.smallest?.rps, 200);
    // a pool of 200 at c = 100: min(c, N) / L = 100 / 0.1 = 1,000; CPU 2 cores / 1 ms = 2,000
    const io = boundsFor({ variant: v('io-pool-200'), scenario: 'io-100ms', concurrency: 100, cores: 2, cpuMsPerRequest: 1, fibCpuMsPerCall: null });
    assert.equal(io.smallest?.kind, 'executor');
    assert.equal(io.smallest?.rps, 1000);
    const ioCpu = boundsFor({ variant: v('io-virtual'), scenario: 'io-100ms', concurrency: 2000, cores: 2, cpuMsPerRequest: 1, fibCpuMsPerCall: null });
    assert.equal(ioCpu.smallest?.kind, 'cpu');
    assert.equal(ioCpu.smallest?.rps, 2000);
    // cpu-fib: cores / CPU per call, the same for every executor
    for (const id of ['cpu-pool-200', 'cpu-pool-500', 'cpu-virtual']) {
      const b = boundsFor({ variant: v(id), scenario: 'cpu-fib', concurrency: 200, cores: 2, cpuMsPerRequest: null, fibCpuMsPerCall: 80 });
      assert.equal(b.smallest?.kind, 'cpuPerCall');
      assert.equal(b.smallest?.rps, 25);
    }
    // the synchronized variant: one shared monitor held 5 ms = 200 req/s
    const sync = boundsFor({ variant: v('db10-virtual-sync'), scenario: 'db-small-synchronized', concurrency: 1000, cores: 2, cpuMsPerRequest: null, fibCpuMsPerCall: null });
    assert.equal(sync.smallest?.kind, 'lock');
    assert.equal(sync.smallest?.rps, 200);
    assert.equal(cellBounds({ executor: { kind: 'virtual-per-task' }, concurrency: 10, holdMs: 100, dbPool: null, dbMs: null, lockMs: null, cores: 2, cpuMsPerRequest: null, cpuMsPerCall: null }).smallest?.rps, 100);
  });

  test('the fan-out critical path is max(50 + 100, 80) = 150 ms, not the study\'s 100 ms', () => {
    assert.equal(MIXED_SERIAL_MS, 230);
    assert.equal(MIXED_CRITICAL_PATH_MS, 150);
    assert.equal(holding('mixed-structured').threadMs, 150);
  });

  test('verdicts: above × 1.02, below 95 % with or without a host flag', () => {
    assert.equal(boundVerdict(1000, 1000, false), 'within');
    assert.equal(boundVerdict(1019, 1000, false), 'within');
    assert.equal(boundVerdict(950, 1000, false), 'within');
    assert.equal(boundVerdict(1021, 1000, true), 'above-bound');
    assert.equal(boundVerdict(949, 1000, false), 'below-95');
    assert.equal(boundVerdict(949, 1000, true), 'below-95-host-flag');
    assert.equal(boundVerdict(null, 1000, false), 'unknown');
  });

  // t0 = 10 s; the SUT burns 1.5 s of CPU per second throughout: in the ramp (JIT), in the window,
  // in the drain and after the last answer (GC); the window [1, 3] s holds 600 of the 1,000 successes
  const T0 = 10_000;
  const samples = [[-200, 0], [1000, 1.5e9], [2000, 3e9], [3000, 4.5e9], [4000, 6e9], [4500, 6.5e9]].map(([t, ns]) => ({ tEpochMs: T0 + t!, processCpuTimeNs: ns! })) as never;
  const loadgen = { cpuPct: 25, eventLoopLagP99Ms: null, eventLoopLagMaxMs: null, hostCpuPct: null };
  const load = (windowCompletions: number) => ({ ok: 1000, wholeRunThroughputRps: 250, steadyWindow: { startMs: 1000, endMs: 3000, completions: windowCompletions } }) as never;

  test('the CPU bound\'s D is measured in the same window as the rate it bounds (service demand law X ≤ cores / D)', () => {
    const cpu = cellCpu({ t0EpochMs: T0, samples, load: load(600), loadgen, componentCpuMs: { mock: 300, db: 200 } });
    assert.deepEqual(cpu.window, { kind: 'all-workers', startMs: 1000, endMs: 3000, completions: 600 });
    // SUT 4,500 − 1,500 = 3,000 ms / 600 = 5 ms; generator 25 % of 4 s = 1,000 + mock 300 + DB 200 = 1,500 ms / 1,000 = 1.5 ms
    assert.equal(cpu.sutMs, 3000);
    assert.equal(cpu.perRequestMs, 6.5);
    // the window's 300 req/s keeps 2 cores / 6.5 ms = 307.7 req/s; the old D over the SUT's whole
    // sample span (6,500 ms + 1,500 ms) / 1,000 = 8 ms gave 250 req/s, and the cell read "above the bound"
    const w = cellWindow(load(600))!;
    assert.equal(windowRps(w), 300);
    const bound = boundsFor({ variant: v('io-virtual'), scenario: 'io-100ms', concurrency: 2000, cores: 2, cpuMsPerRequest: cpu.perRequestMs, fibCpuMsPerCall: null }).smallest!;
    assert.equal(bound.kind, 'cpu');
    assert.equal(boundVerdict(windowRps(w), bound.rps, false), 'within');
  });

  test('a window with fewer than 100 successes: rate and D both over the whole run [first send, last answer]', () => {
    const w = cellWindow(load(99))!;
    assert.deepEqual(w, { kind: 'whole-run', startMs: 0, endMs: 4000, completions: 1000 });
    assert.equal(windowRps(w), 250);
    const cpu = cellCpu({ t0EpochMs: T0, samples, load: load(99), loadgen, componentCpuMs: { mock: 300, db: 200 } });
    // SUT at t0 interpolated: 200 / 1,200 of 1.5 s = 250 ms; at 4 s: 6,000 ms → 5,750 ms / 1,000 + 1.5
    assert.equal(cpu.sutMs, 5750);
    assert.equal(cpu.perRequestMs, 7.25);
  });

  test('SUT CPU is interpolated between samples, never extrapolated; unknown parts leave D unknown', () => {
    assert.equal(sutCpuMsAt(samples, T0 + 1500), 2250);
    assert.equal(sutCpuMsAt(samples, T0 + 1000), 1500);
    assert.equal(sutCpuMsAt(samples, T0 - 201), null);
    assert.equal(sutCpuMsAt(samples, T0 + 4501), null);
    assert.equal(cellCpu({ t0EpochMs: T0, samples: [] as never, load: load(600), loadgen }).perRequestMs, null);
    assert.equal(cellCpu({ t0EpochMs: T0, samples, load: load(600), loadgen: { ...loadgen, cpuPct: null } }).perRequestMs, null);
    // no component CPU recorded: generator and SUT only
    assert.equal(cellCpu({ t0EpochMs: T0, samples, load: load(600), loadgen }).perRequestMs, 6);
    assert.equal(cellWindow({ ok: 0, wholeRunThroughputRps: null, steadyWindow: null }), null);
  });
});

describe('published figures against the study\'s own setup', () => {
  const checks = new Map(checkPublished(PUBLISHED_002, VARIANTS_002).map((c) => [c.rowId, c]));
  test('scenario 4 through a 10-connection pool at 5 ms: at most 2,000 req/s, so 32,000 is inconsistent', () => {
    const c = checks.get('db10-pool-200.throughputRps')!;
    assert.equal(c.verdict, 'inconsistent');
    assert.deepEqual(c.bound, { kind: 'dbPool', rps: 2000, inputs: { pool: 10, dbMs: 5 } });
    assert.equal(checks.get('db200-virtual.throughputRps')!.bound?.rps, 40_000);
  });
  test('scenario 3 VT 4,120 QPS vs the CPU bound the study states for it (1,280 QPS); no pool size is assumed there', () => {
    assert.equal(checks.get('mixed-virtual.throughputRps')!.verdict, 'inconsistent');
    assert.deepEqual(checks.get('mixed-virtual.throughputRps')!.bound, { kind: 'studyCpu', rps: 1280, inputs: { cores: 8, cpuMs: 50 } });
    assert.equal(checks.get('mixed-pool-200.throughputRps')!.verdict, 'consistent', '870 QPS = 200 / 0.23 s');
  });
  test('scenario 1 and 2 throughputs keep their bounds; every P99 is below Little\'s mean N / X', () => {
    assert.equal(checks.get('io-pool-200.throughputRps')!.verdict, 'consistent');
    assert.equal(checks.get('io-virtual.throughputRps')!.bound?.rps, 100_000);
    assert.equal(checks.get('cpu-virtual.throughputRps')!.bound?.rps, 8);
    const p = checks.get('io-virtual.e2eP99Ms')!;
    assert.equal(p.verdict, 'inconsistent');
    assert.ok(Math.abs(p.littleMeanMs! - 1018.33) < 0.01);
  });
});

describe('plan of study 002', () => {
  test('every variant measures its own scenario at its scenario\'s levels; cell ids stay <variant>-c<level>-r<repeat>', () => {
    const o = resolveOptions(STUDY_002, 'quick', {}, HOST);
    const plan = makePlan(o, STUDY_002);
    assert.equal(plan.blocks.length, o.variants.length); // quick runs scenario 5 on virtual threads only
    const cpu = plan.cells.filter((c) => c.variant === 'cpu-virtual');
    assert.deepEqual(cpu.map((c) => [c.cellId, c.scenario, c.latencyMs, c.requestsPerWorker]), [['cpu-virtual-c20-r1', 'cpu-fib', 100, 13], ['cpu-virtual-c30-r1', 'cpu-fib', 100, 13]]);
    const st = plan.cells.find((c) => c.variant === 'mixed-virtual-structured')!;
    assert.equal(st.scenario, 'mixed-structured');
    assert.equal(st.latencyMs, 150);
    // --levels on the command line applies to every cell
    const flat = makePlan(resolveOptions(STUDY_002, 'quick', { levels: '7' }, HOST), STUDY_002);
    assert.ok(flat.cells.every((c) => c.concurrency === 7));
  });
  test('requests per worker for a window of k successes: ⌈1 + R / E2E + k / c⌉', () => {
    assert.equal(requestsPerWorkerForWindow(20, 500, 230, 200), 14);
    assert.equal(requestsPerWorkerForWindow(20, 500, 150, 200), 15);
    assert.equal(requestsPerWorkerForWindow(4, 500, 160, 200), 55);
    assert.equal(requestsPerWorkerForWindow(100, 1000, 100, 200), 13);
    // worker 0 alone during the ramp: db-small c = 100 at 2,000 req/s (E2E 50 ms, L 5 ms)
    assert.equal(requestsPerWorkerForWindow(100, 1000, 50, 200, 5), 70);
    assert.equal(requestsPerWorkerForWindow(100, 1000, 50, 200, 50), 23);
  });

  test('quick and seed-002: every cell\'s all-workers window holds ≥ 2 × 100 successes at the planned rate on 2 cores, within 8 and 45 min of plan', () => {
    for (const [profile, maxS] of [['quick', 8 * 60], ['seed-002', 45 * 60]] as const) {
      const o = resolveOptions(STUDY_002, profile, {}, HOST);
      const plan = makePlan(o, STUDY_002);
      for (const c of plan.cells.filter((x) => REQUEST_SCENARIOS.has(x.scenario))) {
        const e2eMs = (c.concurrency / plannedRps(c.scenario, c.executor, c.concurrency, 2)) * 1000;
        const need = requestsPerWorkerForWindow(c.concurrency, o.rampMs, e2eMs, 2 * MIN_WINDOW_COMPLETIONS, holding(c.scenario).threadMs);
        assert.ok(c.requestsPerWorker >= need, `${profile} ${c.cellId}: ${c.requestsPerWorker} requests per worker, the window needs ${need}`);
      }
      assert.ok(plan.theoreticalS <= maxS, `${profile}: ${plan.theoreticalS} s planned`);
    }
  });

  test('planned time uses the smallest bound known before the run (mixed through Hikari 10: 200 req/s)', () => {
    assert.equal(plannedCellS('mixed', { kind: 'virtual-per-task' }, 1000, 2, 2), 10);
    assert.equal(plannedCellS('cpu-fib', { kind: 'virtual-per-task' }, 40, 1, 2), 2);
  });
});

describe('one fib n per run', () => {
  test('the run\'s first JVM that calibrated n sets bench.fib.n for the later cpu-fib blocks only', () => {
    const cpu = STUDY_002.scenarios.find((s) => s.id === 'cpu-fib');
    const io = STUDY_002.scenarios.find((s) => s.id === 'io-100ms');
    const v = VARIANTS_002.find((x) => x.id === 'cpu-virtual');
    assert.ok(cpu && io && v);
    assert.equal(runFibN({}), null);
    assert.equal(runFibN({ 'io-pool-200-r1': { variant: 'io-pool-200' }, 'io-virtual-r1': { fib: { n: 36, targetCpuMs: 100, cpuMsPerCall: 71 } }, 'cpu-pool-200-r1': { fib: { n: 37 } } }), 36);
    const calibrated = { 'io-virtual-r1': { fib: { n: 36 } } };
    assert.equal(blockSutProperties(cpu, v, 'http://127.0.0.1:1', null, {}), null);
    assert.deepEqual(blockSutProperties(cpu, v, 'http://127.0.0.1:1', null, calibrated), { 'bench.fib.n': '36', ...(v.sutProperties ?? {}) });
    assert.equal(blockSutProperties(io, v, 'http://127.0.0.1:1', null, calibrated)?.['bench.fib.n'], undefined);
  });
});

describe('error codes and extra Server-Timing entries', () => {
  test('errorKindOf reads the SUT\'s {"error":"<code>"} and nothing else', () => {
    assert.equal(errorKindOf('{"error":"db_pool_exhausted","message":"Connection is not available"}'), 'db_pool_exhausted');
    assert.equal(errorKindOf('{"error":{"message":"x"}}'), undefined);
    assert.equal(errorKindOf('oops'), undefined);
  });
  test('summarised and kept through the requests file', () => {
    const rec = (i: number, ok: boolean): RequestRecord => ({
      worker: i, seq: 0, intendedStartMs: 0, startMs: 0, endMs: 100 + i, e2eMs: 100 + i, status: ok ? 200 : 503, errorClass: ok ? null : 'http',
      serverTiming: ok ? { queue: 0.1, exec: 99, db: 50 + i, user: 40 } : { queue: 0.1, exec: 30 },
      ...(ok ? {} : { errorKind: 'db_pool_exhausted' }),
    });
    const records = [rec(0, true), rec(1, true), rec(2, false)];
    const s = summarize(records, 3, 1);
    assert.deepEqual(s.errorKinds, { db_pool_exhausted: 1 });
    assert.deepEqual(Object.keys(s.timingMs!), ['db', 'user']);
    assert.equal(s.timingMs!['db']!.max, 51);
    const compact = compactRequests(records);
    assert.deepEqual(compact.timingMs?.['db'], [50, 51, null]);
    assert.deepEqual(compact.errorKind, [null, null, 'db_pool_exhausted']);
    assert.deepEqual(requestColumnProblems('x', compact as never), []);
    assert.deepEqual(summarize(expandRequests(compact), 3, 1).timingMs, s.timingMs);
    // a study without such entries keeps its files as they were
    const plain = compactRequests([{ ...rec(0, true), serverTiming: { queue: 1, exec: 2 } }]);
    assert.equal('timingMs' in plain || 'errorKind' in plain, false);
    assert.equal('errorKinds' in summarize([{ ...rec(0, true), serverTiming: {} }], 1, 1), false);
  });
});

describe('report of a real smoke run (test/fixtures/study-002/smoke: io-virtual, cpu-virtual, mixed-virtual-structured, db10-virtual on this 2-core host)', () => {
  test('bounds per cell, the fan-out against 150 and 100 ms, the study\'s inconsistencies; en and zh render without a placeholder left', async () => {
    const { loadRun } = await import('../fixtures/registered.ts');
    const { buildModel } = await import('../../src/report/model.ts');
    const { buildReport, loadTemplates } = await import('../../src/report/index.ts');
    const { rows002, criticalPath } = await import('../../src/studies/002/report.ts');
    const { fileURLToPath } = await import('node:url');
    const dir = fileURLToPath(new URL('../fixtures/study-002/smoke/', import.meta.url));
    const run = await loadRun(dir);
    const model = buildModel(run);
    const rows = rows002(model);
    assert.deepEqual(rows.map((r) => r.variant), ['io-virtual', 'cpu-virtual', 'mixed-virtual-structured', 'db10-virtual']);
    for (const r of rows) assert.ok(r.smallest !== null && r.bounds.some((b) => b.kind === 'executor') && r.windowKinds.length === 1 && r.alone === null, r.variant);
    // the DB-pool bound: 10 connections / the `db` step measured in the cell (utilisation law), not the nominal 5 ms
    const dbRow = rows.find((r) => r.variant === 'db10-virtual')!;
    const t = run.cells.find((c) => c.variant === 'db10-virtual')!.load.timingMs!;
    const dbCell = t['db']!.mean - t['conn']!.mean;
    assert.ok(dbCell > 5);
    assert.equal(dbRow.bounds.find((b) => b.kind === 'dbPool')!.rps, 10 / (dbCell / 1000));
    const cp = criticalPath(rows)!;
    assert.ok(cp.measuredMs >= 150 && Math.abs(cp.measuredMs - 150) < Math.abs(cp.measuredMs - 100), `critical path ${cp.measuredMs} ms`);
    for (const lang of ['en', 'zh'] as const) {
      const built = await buildReport(run, await loadTemplates(lang, STUDY_002));
      const md = built.files.find((f) => f.path === 'report.md')?.content ?? '';
      assert.doesNotMatch(md, /\{\{|\}\}/);
      assert.match(md, lang === 'en' ? /inconsistent as published/ : /发布值自相矛盾/);
      // recorded before the alone probe: nominal holds, no probe section
      assert.doesNotMatch(md, /Holding times on this host|本机上的占用时间/);
    }
  });
});

describe('alone probe: R(1) and the holds of one request alone', () => {
  test('executor bound min(c / R(1), N / execution alone); c / R(1) on virtual threads; no probe: min(c, N) / L', () => {
    const pool = { kind: 'platform-pool' as const, threads: 200, queueCapacity: 10_000 };
    const base = { dbPool: null, dbMs: null, lockMs: null, cores: 2, cpuMsPerRequest: null, cpuMsPerCall: null };
    // c = 20 on 200 threads: the population bound 20 / 0.24 s is the smaller
    const low = cellBounds({ ...base, executor: pool, concurrency: 20, holdMs: 237, aloneE2eMs: 240 }).smallest!;
    assert.equal(low.rps, 20 / 0.24);
    assert.deepEqual(low.inputs, { concurrency: 20, threads: 200, holdMs: 237, aloneE2eMs: 240 });
    // c = 1,000 on 200 threads: the pool's 200 / 0.237 s
    assert.equal(cellBounds({ ...base, executor: pool, concurrency: 1000, holdMs: 237, aloneE2eMs: 240 }).smallest!.rps, 200 / 0.237);
    assert.equal(cellBounds({ ...base, executor: { kind: 'virtual-per-task' }, concurrency: 1000, holdMs: 237, aloneE2eMs: 240 }).smallest!.rps, 1000 / 0.24);
    // without R(1) (runs before the probe, or a probe without successes): the nominal formula, inputs unchanged
    for (const aloneE2eMs of [undefined, null]) {
      const b = cellBounds({ ...base, executor: pool, concurrency: 20, holdMs: 230, aloneE2eMs }).smallest!;
      assert.equal(b.rps, 20 / 0.23);
      assert.deepEqual(b.inputs, { concurrency: 20, threads: 200, holdMs: 230 });
    }
  });

  test('aloneHolding: medians over the variant\'s blocks with successes; connection = db − conn, lock = db; other variants and failed probes ignored', () => {
    const p = (e2e: number, exec: number, steps: Record<string, number>, ok = 10) => ({ requests: 10, ok, e2eMeanMs: ok > 0 ? e2e : null, e2eP50Ms: null, execMeanMs: ok > 0 ? exec : null, stepMeanMs: steps, atIso: '' });
    const probes = {
      'db10-virtual-sync-r1': p(9, 7, { conn: 0.5, db: 6 }),
      'db10-virtual-sync-r2': p(11, 8, { conn: 0.5, db: 7 }),
      'db10-virtual-sync-r3': p(99, 99, { db: 99 }, 0),
      'db10-virtual-r1': p(50, 50, { db: 50 }),
    };
    // `db` runs from asking for a connection to returning it: the connection's hold is db − conn, the lock's the whole db
    assert.deepEqual(aloneHolding(probes, 'db10-virtual-sync'), { e2eMs: 10, threadMs: 7.5, dbMs: 6, lockMs: 6.5 });
    assert.equal(aloneHolding(probes, 'db10-pool-200'), null);
    assert.equal(aloneHolding(undefined, 'db10-virtual'), null);
    // the lock and pool bounds take the holds measured alone; cpu-fib never does (its hold is the cells' CPU per call)
    const sync = boundsFor({ variant: v('db10-virtual-sync'), scenario: 'db-small-synchronized', concurrency: 1000, cores: 2, cpuMsPerRequest: null, fibCpuMsPerCall: null, alone: aloneHolding(probes, 'db10-virtual-sync') });
    assert.deepEqual(sync.bounds.map((b) => [b.kind, b.rps]), [['executor', 1000 / (10 / 1000)], ['dbPool', 10 / (6 / 1000)], ['lock', 1 / (6.5 / 1000)]]);
    // in the cell beats alone: the lock's hold under load is what bounds a busy cell
    const inCell = boundsFor({ variant: v('db10-virtual-sync'), scenario: 'db-small-synchronized', concurrency: 1000, cores: 2, cpuMsPerRequest: null, fibCpuMsPerCall: null, alone: aloneHolding(probes, 'db10-virtual-sync'), inCell: cellHolding({ conn: { mean: 0.5 }, db: { mean: 5.5 } }) });
    assert.deepEqual(inCell.bounds.map((b) => [b.kind, b.rps]), [['executor', 1000 / (10 / 1000)], ['dbPool', 10 / (5 / 1000)], ['lock', 1 / (5.5 / 1000)]]);
    assert.deepEqual(cellHolding({ exec: { mean: 9 } }), { dbMs: null, lockMs: null });
    const fib = boundsFor({ variant: v('cpu-virtual'), scenario: 'cpu-fib', concurrency: 20, cores: 2, cpuMsPerRequest: null, fibCpuMsPerCall: 100, alone: { e2eMs: 500, threadMs: 500, dbMs: null, lockMs: null } });
    assert.equal(fib.bounds.find((b) => b.kind === 'executor')!.rps, 200);
  });

  test('the plan probes every timer-held HTTP scenario after its warm-up, not cpu-fib or the WebSocket one, and counts n·L in its time', () => {
    const o = resolveOptions(STUDY_002, 'seed-002', {}, HOST);
    const plan = makePlan(o, STUDY_002);
    const probed = plan.blocks.filter((b) => b.aloneProbe).map((b) => b.variant.scenario);
    assert.deepEqual([...new Set(probed)].sort(), ['db-small', 'db-small-synchronized', 'io-100ms', 'mixed', 'mixed-structured']);
    const mixed = plan.blocks.find((b) => b.blockId === 'mixed-pool-200-r1')!;
    assert.deepEqual(mixed.aloneProbe, { requests: 15, theoreticalS: (15 * MIXED_SERIAL_MS) / 1000 });
    const without = makePlan(o, { ...STUDY_002, scenarios: STUDY_002.scenarios.map(({ aloneProbe: _drop, ...sc }) => sc) });
    const probeS = plan.blocks.reduce((t, b) => t + (b.aloneProbe?.theoreticalS ?? 0), 0);
    assert.ok(probeS > 0);
    assert.ok(Math.abs(plan.theoreticalS - without.theoreticalS - probeS) < 1e-9);
  });

  test('a real smoke run with probes (test/fixtures/study-002/smoke-alone): R(1) ≥ execution alone ≥ nominal, the bounds use them, en and zh say so', async () => {
    // made by `npx zx run.mjs --study 002 --profile smoke --variants mixed-virtual-structured,db10-virtual,io-virtual` on this 2-core host
    const { loadRun } = await import('../fixtures/registered.ts');
    const { buildModel } = await import('../../src/report/model.ts');
    const { buildReport, loadTemplates } = await import('../../src/report/index.ts');
    const { rows002 } = await import('../../src/studies/002/report.ts');
    const { fileURLToPath } = await import('node:url');
    const run = await loadRun(fileURLToPath(new URL('../fixtures/study-002/smoke-alone/', import.meta.url)));
    const rows = rows002(buildModel(run));
    assert.deepEqual(rows.map((r) => r.variant), ['mixed-virtual-structured', 'db10-virtual', 'io-virtual']);
    for (const r of rows) {
      const a = r.alone!;
      // timers never end early: one request alone holds its thread at least the nominal time, and its E2E adds the HTTP hop
      assert.ok(a.threadMs! >= holding(r.scenario).threadMs && a.e2eMs! > a.threadMs!, `${r.variant}: ${JSON.stringify(a)}`);
      const ex = r.bounds.find((b) => b.kind === 'executor')!;
      assert.equal(ex.rps, r.concurrency / (a.e2eMs! / 1000));
      assert.equal(ex.inputs['aloneE2eMs'], a.e2eMs);
    }
    // the DB pool's bound takes the hold of the cell, not the one alone
    const db = rows.find((r) => r.variant === 'db10-virtual')!;
    assert.ok(db.alone!.dbMs! > 5);
    const t = run.cells.find((c) => c.variant === 'db10-virtual')!.load.timingMs!;
    const dbCell = t['db']!.mean - t['conn']!.mean;
    assert.notEqual(dbCell, db.alone!.dbMs);
    assert.equal(db.bounds.find((b) => b.kind === 'dbPool')!.rps, 10 / (dbCell / 1000));
    for (const lang of ['en', 'zh'] as const) {
      const md = (await buildReport(run, await loadTemplates(lang, STUDY_002))).files.find((f) => f.path === 'report.md')?.content ?? '';
      assert.doesNotMatch(md, /\{\{|\}\}/);
      assert.match(md, lang === 'en' ? /\*\*Holding times on this host\.\*\*/ : /\*\*本机上的占用时间。\*\*/);
      assert.match(md, /min\(c \/ R\(1\), N \//);
    }
  });
});

test('a --levels or --requests-per-worker flag replaces that field of every per-scenario entry and keeps the other', () => {
  const base = resolveOptions(STUDY_002, 'smoke', {}, HOST);
  const rpw = resolveOptions(STUDY_002, 'smoke', { requestsPerWorker: '7' }, HOST);
  for (const [id, e] of Object.entries(base.scenarioLevels ?? {})) {
    assert.deepEqual(rpw.scenarioLevels?.[id], { levels: e.levels, requestsPerWorker: 7 }, id);
  }
  const lv = resolveOptions(STUDY_002, 'smoke', { levels: '3' }, HOST);
  for (const [id, e] of Object.entries(base.scenarioLevels ?? {})) {
    assert.deepEqual(lv.scenarioLevels?.[id], { levels: [3], requestsPerWorker: e.requestsPerWorker }, id);
  }
  // the db scenario of the smoke profile keeps its 20 workers under --requests-per-worker
  assert.deepEqual(levelsOf(rpw, 'db-small'), { levels: [20], requestsPerWorker: 7 });
});
