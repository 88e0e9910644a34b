/**
 * Study 002's answer block (src/studies/002/answer.ts, issue 31 item 1) on the committed run
 * runs/20261201-205110-002-seed-002, read with the real loader and model: one row per scenario
 * group at its highest level, the window rate against the smallest bound, virtual ÷ pool-200, what
 * limited each arm read from the data; and each rule flipping on the same inputs changed one at a
 * time (a pool not full is not the executor, a bound exceeded is not what limited an arm, no
 * connection wait is not the DB pool, no lock wait is not the lock).
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadRun, loadTemplates } from '../fixtures/registered.ts';
import { buildModel } from '../../src/report/model.ts';
import type { ReportModel } from '../../src/report/model.ts';
import type { AnswerBlock } from '../../src/report/answer-types.ts';
import { BOUND_EXCEEDED_TOL } from '../../src/report/answer-types.ts';
import { STUDY_002 } from '../../src/studies/002/index.ts';
import { answer002, answerChart002, limit002, limitInput002, ANSWER_CHART_002, type LimitInput002 } from '../../src/studies/002/answer.ts';
import type { Derived002, Row002 } from '../../src/studies/002/report.ts';
import { renderSvg } from '../../src/report/charts.ts';
import type { ChartLabels } from '../../src/report/types.ts';

const RUN = fileURLToPath(new URL('../../runs/20261201-205110-002-seed-002/', import.meta.url));
/** a stand-in for the engine's generic block (src/report/answer.ts): the study replaces its rows */
const GENERIC: AnswerBlock = { verdict: 'none', ratioRange: null, rows: [], trust: { cells: 1, plannedCells: 1, hostLimited: 0, flagsByKind: {}, gaps: 0, repeats: 1 }, chart: null };

let model: ReportModel<Derived002>;
let block: AnswerBlock;
const row = (variant: string, c: number): Row002 => model.derived.rows.find((r) => r.variant === variant && r.concurrency === c)!;
const input = (variant: string, c: number): LimitInput002 => limitInput002(model, row(variant, c));

before(async () => {
  model = buildModel(await loadRun(RUN)) as ReportModel<Derived002>;
  block = answer002(model, GENERIC);
});

describe('study 002 answer on the committed run', () => {
  test('the hook is registered, and keeps the generic trust line', () => {
    assert.equal(STUDY_002.report?.answer, answer002);
    assert.deepEqual(block.trust, GENERIC.trust);
    assert.equal(block.chart, ANSWER_CHART_002);
  });

  test('one row per scenario group at its highest level; arms baseline first; WebSocket left out', () => {
    assert.deepEqual(block.rows.map((r) => [r.scenario, r.level, r.arms.map((a) => a.variant).join(' ')]), [
      ['io-100ms', 5000, 'io-pool-200 io-pool-500 io-virtual'],
      ['cpu-fib', 200, 'cpu-pool-200 cpu-pool-500 cpu-virtual'],
      ['db-small-pool-10', 2000, 'db10-pool-200 db10-pool-500 db10-virtual'],
      ['db-small-pool-200', 2000, 'db200-virtual'],
      // the candidate of the ratio (virtual) last, as the answer's lead and table read it
      ['mixed', 1000, 'mixed-pool-200 mixed-pool-500 mixed-virtual-structured mixed-virtual'],
      ['db-small-synchronized', 1000, 'db10-virtual-sync'],
    ]);
    assert.ok(block.rows.every((r) => r.levelUnit === 'workers' && r.arms.every((a) => a.metric === 'throughput' && a.unit === 'req/s')));
    assert.ok(!block.rows.some((r) => r.arms.some((a) => a.variant.startsWith('ws-'))));
    // the lead: every row's virtual ÷ pool-200, then why scenario 5 is not in the table, with its own figures
    assert.deepEqual(block.studyLine, { key: 'lead002.ws', v: {
      ratios: 'io-100ms 1.26×, cpu-fib 1.07×, db-small-pool-10 0.79×, mixed 1.00×',
      carried: 'ws-pool-200 1,000, ws-pool-500 4,000, ws-virtual 4,000', top: '10,000', delivered: 'ws-pool-200 0.0 %, ws-pool-500 9.8 %, ws-virtual 84.1 %',
    } });
  });

  test('each arm: the window rate against the smallest bound, P95/P99 of the cell; virtual ÷ pool-200', () => {
    const io = block.rows[0]!;
    const p200 = row('io-pool-200', 5000);
    const vt = row('io-virtual', 5000);
    assert.equal(io.arms[0]!.value, p200.windowRps.median);
    assert.equal(io.arms[0]!.bound, p200.smallest!.rps);
    assert.equal(io.arms[0]!.p95Ms, p200.p95Ms.median);
    assert.equal(io.arms[0]!.p99Ms, p200.p99Ms.median);
    assert.ok(Math.abs(io.arms[0]!.pctOfBound! - (p200.windowRps.median! / p200.smallest!.rps) * 100) < 1e-9);
    assert.equal(io.ratio, vt.windowRps.median! / p200.windowRps.median!);
    assert.ok(Math.abs(io.ratio! - 1.2646) < 1e-3, `${io.ratio}`);
    // one repeat: no repeat listed
    assert.deepEqual(io.ratioRepeats, []);
    // single-arm rows have no ratio
    assert.equal(block.rows[3]!.ratio, null);
    // ratios 1.26 (I/O), 1.07 (CPU), 0.79 (DB pool 10), 1.00 (mixed): some each way
    assert.equal(block.verdict, 'depends');
    assert.ok(Math.abs(block.ratioRange![0] - 0.7889) < 1e-3 && Math.abs(block.ratioRange![1] - 1.2646) < 1e-3, `${block.ratioRange}`);
  });

  test('what limited each arm, from the data', () => {
    const kinds = Object.fromEntries(block.rows.flatMap((r) => r.arms.map((a) => [a.variant, a.limitedBy.kind])));
    assert.deepEqual(kinds, {
      // the CPU bound (every process on 2 cores) with the host's CPU flagged, the SUT's own not saturated
      'io-pool-200': 'host', 'io-pool-500': 'host', 'io-virtual': 'host',
      // fib: the SUT's CPU saturated
      'cpu-pool-200': 'cpu', 'cpu-pool-500': 'cpu', 'cpu-virtual': 'cpu',
      'db10-pool-200': 'db-pool', 'db10-pool-500': 'host', 'db10-virtual': 'host', 'db200-virtual': 'host',
      // Hikari 10: requests wait far longer for a connection than they hold one
      'mixed-pool-200': 'db-pool', 'mixed-pool-500': 'db-pool', 'mixed-virtual': 'db-pool', 'mixed-virtual-structured': 'db-pool',
      'db10-virtual-sync': 'lock',
    });
    const db = block.rows[2]!.arms[0]!.limitedBy;
    assert.equal(db.cap, 10);
    assert.equal(db.unit, 'connections');
    // the evidence is the measured connection wait (≥ the hold), not X × hold, which would restate the % of the bound
    assert.deepEqual([db.used, db.source, db.note], [null, 'measured', 'conn-wait']);
    const cpu = block.rows[1]!.arms[0]!.limitedBy;
    assert.deepEqual([cpu.cap, cpu.unit, cpu.source], [2, 'cores', 'measured']);
    const lock = block.rows[5]!.arms[0]!.limitedBy;
    // JDK 25: the monitor serialises without pinning (0 JFR events in the run)
    assert.equal(lock.note, 'lock-unpinned');
    assert.equal(row('db10-virtual-sync', 1000).pinnedTotal, 0);
  });

  test('no arm is said to be limited by a bound it exceeded', () => {
    const kindOf: Record<string, string[]> = { executor: ['executor'], 'offered-load': ['executor'], 'db-pool': ['dbPool'], lock: ['lock'], cpu: ['cpu', 'cpuPerCall'], host: ['cpu', 'cpuPerCall'] };
    for (const r of block.rows) for (const a of r.arms) {
      const bs = row(a.variant, r.level).bounds.filter((b) => (kindOf[a.limitedBy.kind] ?? []).includes(b.kind));
      for (const b of bs) assert.ok(a.value! <= b.rps * (1 + BOUND_EXCEEDED_TOL), `${a.variant}: ${a.value} above its ${b.kind} bound ${b.rps}`);
    }
  });
});

describe('study 002 limit rules flip', () => {
  test('a pool full at its bound N / L is the executor; not full, or full far below N / L, it is not', () => {
    const i = input('io-pool-200', 5000);
    assert.deepEqual([i.threads, i.peakActive, i.peakQueue! > 0], [200, 200, true]);
    const exec = i.bounds.find((b) => b.kind === 'executor')!;
    // without the CPU bound, at 97 % of N / L
    const atPool = { ...i, bounds: [exec], x: exec.rps * 0.97 };
    assert.deepEqual(limit002(atPool), { kind: 'executor', cap: 200, used: 200, unit: 'threads', source: 'measured' });
    assert.notEqual(limit002({ ...atPool, peakQueue: 0 }).kind, 'executor');
    assert.notEqual(limit002({ ...atPool, peakActive: 199 }).kind, 'executor');
    assert.equal(limit002({ ...atPool, peakActive: 199 }).note, 'host-flags');
    assert.deepEqual(limit002({ ...atPool, peakActive: 199, hostFlags: [] }), { kind: 'unknown', cap: null, used: null, unit: '', source: 'measured', note: 'no-cap-saturated' });
    // the run's own rate, 52 % of N / L with the pool full: the host, not the executor
    assert.equal(limit002({ ...i, bounds: [exec] }).kind, 'host');
  });

  test('a bound exceeded is never what limited an arm: CPU becomes unknown, bound-exceeded', () => {
    const i = input('cpu-pool-200', 200);
    assert.equal(limit002(i).kind, 'cpu');
    const smallest = Math.min(...i.bounds.map((b) => b.rps));
    assert.equal(limit002({ ...i, x: smallest * (1 + BOUND_EXCEEDED_TOL) * 0.999 }).kind, 'cpu');
    assert.deepEqual(limit002({ ...i, x: smallest * 1.05 }), { kind: 'unknown', cap: null, used: null, unit: '', source: 'measured', note: 'bound-exceeded' });
    // the SUT's CPU not saturated, the host's flagged: the host
    assert.equal(limit002({ ...i, sutCpuSaturated: false }).kind, 'host');
    assert.equal(limit002({ ...i, sutCpuSaturated: false, hostFlags: [] }).note, 'no-cap-saturated');
  });

  test('the DB pool needs requests waiting for a connection; the lock, requests waiting for the monitor', () => {
    const db = input('mixed-pool-200', 1000);
    assert.equal(limit002(db).kind, 'db-pool');
    assert.ok(db.connWaitMs! > 700, `${db.connWaitMs}`);
    assert.notEqual(limit002({ ...db, connWaitMs: 0.05 }).kind, 'db-pool');
    // a run without the `conn` timing: the pool at 95 % of its bound, inferred
    assert.deepEqual([limit002({ ...db, connWaitMs: null }).kind, limit002({ ...db, connWaitMs: null }).source], ['db-pool', 'inferred']);
    const lock = input('db10-virtual-sync', 1000);
    assert.equal(limit002(lock).kind, 'lock');
    assert.notEqual(limit002({ ...lock, lockWaitMs: 1 }).kind, 'lock');
    assert.equal(limit002({ ...lock, pinned: 3 }).note, 'lock-pinned');
  });

  test('a virtual-thread arm at c / R(1) is limited by the offered load', () => {
    const i = input('mixed-virtual', 20);
    assert.equal(limit002(i).kind, 'offered-load');
    const exec = i.bounds.find((b) => b.kind === 'executor')!;
    assert.notEqual(limit002({ ...i, x: exec.rps * 0.9, hostFlags: [] }).kind, 'offered-load');
  });
});

test('the headline chart: each row\'s scenario a facet, the window rate and the smallest bound; it renders', async () => {
  const t = await loadTemplates('en', STUDY_002);
  const labels = { measured: 'measured', bound: 'bound', concurrency: 'c', rps: 'req/s', mode: 'variant', series: 'series' } as ChartLabels;
  const [chart] = answerChart002(model as never, labels, t.phrases);
  assert.equal(chart!.name, 'answer-002');
  assert.equal(chart!.title, t.phrases['chart.answer002']);
  const values = (chart!.spec as unknown as { data: { values: { scenario: string; arm: string; series: string; rps: number; concurrency: number }[] } }).data.values;
  assert.equal(new Set(values.map((v) => v.scenario)).size, 6);
  const io = values.find((v) => v.scenario === t.phrases['answer.scenario.io-100ms'] && v.arm === 'pool-200' && v.concurrency === 5000 && v.series === 'measured')!;
  assert.equal(io.rps, Math.round(row('io-pool-200', 5000).windowRps.median! * 100) / 100);
  assert.match(await renderSvg(chart!.spec), /<svg/);
  assert.throws(() => answerChart002(model as never, labels, {}), /missing "answer.scenario/);
});
