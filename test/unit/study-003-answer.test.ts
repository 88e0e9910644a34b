/**
 * Study 003's answer block (src/studies/003/answer.ts, issue 31 items 1 and 6) on the committed
 * sweeps runs/20261201-061659-003-seed-003 (sleep, 2 repeats) and runs/20261201-062532-003-seed-003-socket,
 * read with the real loader and model: one row per level against N / L, the knee under both rules
 * with each repeat's knee when the repeats' own curves disagree (the mean of 154,913 and 242,715
 * ops/s at 300,000 gives the doubling rule's knee at 300,000; repeat 1 alone, 200,000), and the
 * limit rules flipping.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadRun, loadTemplates } from '../fixtures/registered.ts';
import { buildModel } from '../../src/report/model.ts';
import type { ReportModel } from '../../src/report/model.ts';
import type { AnswerBlock } from '../../src/report/answer-types.ts';
import { STUDY_003 } from '../../src/studies/003/index.ts';
import { answer003, kneeLine003, limit003, repeatKnees } from '../../src/studies/003/answer.ts';
import { sweepLevels, type Derived003, type SweepLevel } from '../../src/studies/003/report.ts';
import type { ChartLabels } from '../../src/report/types.ts';

const SLEEP = fileURLToPath(new URL('../../runs/20261201-061659-003-seed-003/', import.meta.url));
const SOCKET = fileURLToPath(new URL('../../runs/20261201-062532-003-seed-003-socket/', import.meta.url));
/** a stand-in for the engine's generic block (src/report/answer.ts) */
const GENERIC: AnswerBlock = { verdict: 'faster', ratioRange: [1, 1], rows: [], trust: { cells: 12, plannedCells: 12, hostLimited: 0, flagsByKind: {}, gaps: 0, repeats: 2 }, chart: 'throughput' };

let sleep: ReportModel<Derived003>;
let socket: ReportModel<Derived003>;
before(async () => {
  sleep = buildModel(await loadRun(SLEEP)) as ReportModel<Derived003>;
  socket = buildModel(await loadRun(SOCKET)) as ReportModel<Derived003>;
});

describe('study 003 answer on the committed sweeps', () => {
  test('registered; one row per level, one arm, ops/s against N / L, the op latency P99; verdict none', () => {
    assert.equal(STUDY_003.report?.answer, answer003);
    const b = answer003(sleep, GENERIC);
    assert.deepEqual([b.verdict, b.ratioRange, b.chart], ['none', null, 'sweep-throughput']);
    assert.deepEqual(b.trust, GENERIC.trust);
    assert.deepEqual(b.rows.map((r) => r.level), [10_000, 50_000, 100_000, 200_000, 300_000, 500_000]);
    for (const r of b.rows) {
      const l = sleep.derived.levels.find((x) => x.threads === r.level)!;
      const a = r.arms[0]!;
      assert.deepEqual([r.levelUnit, r.arms.length, r.ratio, a.metric, a.unit, a.p95Ms], ['threads', 1, null, 'ops', 'ops/s', null]);
      assert.equal(a.bound, r.level, 'N / L with L = 1 s');
      assert.equal(a.value, l.throughputOpsPerS.median);
      assert.equal(a.p99Ms, l.latencyP99Ms.median);
    }
    // the level whose repeats disagree lists them (each repeat's ops/s), the others do not
    const at300 = b.rows.find((r) => r.level === 300_000)!.arms[0]!;
    assert.deepEqual(at300.repeats.map((x) => Math.round(x!)), [154_913, 242_715]);
    assert.deepEqual(b.rows.find((r) => r.level === 100_000)!.arms[0]!.repeats, []);
    // 10,000 and 50,000 reached ≥ 95 % of N / L; above, every carrier mounted with virtual threads queued
    assert.deepEqual(b.rows.map((r) => r.arms[0]!.limitedBy.kind), ['offered-load', 'offered-load', 'cpu', 'cpu', 'cpu', 'cpu']);
    assert.deepEqual(b.rows[3]!.arms[0]!.limitedBy, { kind: 'cpu', cap: 2, used: 2, unit: 'threads', source: 'measured', note: 'carriers' });
  });

  test('the knee: both rules put it at 300,000 on the mean curve; repeat 1 alone moves the doubling rule to 200,000, and the line says so', () => {
    assert.deepEqual(repeatKnees(sleep.cells), [{ repeat: 1, study: 300_000, doubling: 200_000 }, { repeat: 2, study: 300_000, doubling: 300_000 }]);
    const line = answer003(sleep, GENERIC).studyLine!;
    assert.equal(line.key, 'knee003.repeats');
    assert.deepEqual(line.v, { study: '300,000', doubling: '300,000', repeats: '2', perRepeat: '#1 300,000 / 200,000, #2 300,000 / 300,000', spread: '300,000: 154,913 / 242,715 ops/s' });
    // one repeat's cells: its own curve, nothing to disagree with
    const r1 = sleep.cells.filter((c) => c.repeat === 1);
    const one = kneeLine003(sweepLevels(r1), r1)!;
    assert.deepEqual([one.key, one.v['doubling'], one.v['study']], ['knee003', '200,000', '300,000']);
  });

  test('repeats that agree: the plain line; a level the host refused is limited by the host, with its thread limit', () => {
    const b = answer003(socket, GENERIC);
    assert.deepEqual(b.studyLine, { key: 'knee003', v: { study: '—', doubling: '—', repeats: '2' } });
    const last = b.rows[b.rows.length - 1]!;
    assert.equal(last.level, 16_000);
    assert.deepEqual(last.arms[0]!.limitedBy, { kind: 'host', cap: 9735, used: null, unit: 'threads', source: 'measured', note: 'host-limit' });
    assert.equal(last.arms[0]!.value, null);
  });

  test('the headline chart draws each repeat\'s curve beside the medians and N / L', async () => {
    const t = await loadTemplates('en', STUDY_003);
    const charts = STUDY_003.report!.charts!(sleep as never, { measured: 'measured', throughput: 'Throughput', series: 'series' } as ChartLabels, t.phrases);
    const c = charts.find((x) => x.name === 'sweep-throughput')!;
    const values = (c.spec as unknown as { data: { values: { threads: number; series: string; v: number }[] } }).data.values;
    assert.deepEqual([...new Set(values.map((v) => v.series))], ['measured', 'N / L', 'repeat 1', 'repeat 2']);
    assert.equal(Math.round(values.find((v) => v.series === 'repeat 1' && v.threads === 300_000)!.v), 154_913);
  });
});

describe('study 003 limit rules flip', () => {
  const base = (): SweepLevel => structuredClone(sleep.derived.levels.find((l) => l.threads === 50_000)!);
  const withOps = (l: SweepLevel, x: number): SweepLevel => ({ ...l, throughputOpsPerS: { ...l.throughputOpsPerS, median: x } });
  test('at 95 % of N / L the offered load; above N / L × 1.02 bound-exceeded; below, the carriers or nothing', () => {
    const l = base();
    assert.equal(limit003(withOps(l, 49_000), { flags: [] }).kind, 'offered-load');
    assert.deepEqual(limit003(withOps(l, 52_000), { flags: [] }), { kind: 'unknown', cap: null, used: null, unit: '', source: 'measured', note: 'bound-exceeded' });
    assert.equal(limit003(withOps(l, 40_000), { flags: [] }).kind, 'cpu');
    const idle = { ...withOps(l, 40_000), queuedMax: { ...l.queuedMax, median: 0 } };
    assert.equal(limit003(idle, { flags: [] }).note, 'no-cap-saturated');
    assert.equal(limit003(idle, { flags: ['host-cpu'] }).kind, 'host');
    assert.equal(limit003(idle, { flags: ['sut-cpu'] }).kind, 'cpu');
  });

  test('a failed level by its outcome: out of memory is memory, a timeout is unknown', () => {
    const l = base();
    assert.deepEqual(limit003({ ...l, outcomes: ['ok', 'oom'], ok: false }, { flags: [] }), { kind: 'memory', cap: null, used: null, unit: 'threads', source: 'measured', note: 'oom' });
    assert.equal(limit003({ ...l, outcomes: ['start-failed'], ok: false }, { flags: [] }).kind, 'memory');
    assert.deepEqual([limit003({ ...l, outcomes: ['timeout'], ok: false }, { flags: [] }).kind, limit003({ ...l, outcomes: ['timeout'], ok: false }, { flags: [] }).note], ['unknown', 'timeout']);
  });
});
