/**
 * The flag rules of src/compute/analysis/flags.ts: generator stalls on the event-loop maximum, late sends,
 * one unit per code, and the one CPU-saturation rule shared with the report.
 */
import { loadRun, loadTemplates } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  computeFlags, generatorDelayThresholdMs, sutCpuSaturation, upgradeLegacyFlag,
  GENERATOR_DELAY_FLOOR_MS, HOST_CPU_PCT, LAG_P99_MS, LATE_SENDS_SHARE, SUT_CPU_SATURATED_SHARE, type FlagInputs,
} from '../../src/compute/analysis/flags.ts';
import { summarize } from '../../src/load/summarize.ts';
import type { RequestRecord } from '../../src/types/load.ts';
import type { CellFlag } from '../../src/types/run.ts';

import { buildModel } from '../../src/report/model.ts';
import { chartLabels, renderMarkdown } from '../../src/report/render-md.ts';

import { LAT_TOL } from '../../src/report/model.ts';
import { FIXTURE_DIR } from '../fixtures/report-helpers.ts';

/** c workers × n requests of L ms back to back; `lateMs[k]` delays the send of record k (worker-major order). */
function records(c: number, n: number, L: number, lateMs: Record<number, number> = {}): RequestRecord[] {
  const out: RequestRecord[] = [];
  for (let w = 0; w < c; w++) {
    let t = 0;
    for (let k = 0; k < n; k++) {
      const delay = lateMs[out.length] ?? 0.05;
      out.push({ worker: w, seq: k, intendedStartMs: t, startMs: t + delay, endMs: t + delay + L, e2eMs: L, status: 200, errorClass: null, serverTiming: { queue: 0.01, exec: L - 1 } });
      t += delay + L;
    }
  }
  return out;
}
const L = 1500;
const inputs = (over: Partial<FlagInputs> = {}): FlagInputs => ({
  executor: { kind: 'virtual-per-task' }, latencyMs: L, t0EpochMs: 0, sutSamples: [],
  load: summarize(records(4, 25, L), 4, 25, { lateSendThresholdMs: generatorDelayThresholdMs(L) }),
  eventLoopLagP99Ms: 2, eventLoopLagMaxMs: 5, loadgenCpuPct: 10, hostCpuPct: 20, errorFlagThreshold: 0.001, ...over,
});
const codes = (f: CellFlag[]) => f.map((x) => x.code);

test('generator delay threshold: max(20 ms, 5 % of L), the report\'s latency tolerance', () => {
  assert.equal(generatorDelayThresholdMs(1500), 75);
  assert.equal(generatorDelayThresholdMs(200), 20);
  assert.equal(GENERATOR_DELAY_FLOOR_MS, LAT_TOL.abs);
  for (const l of [10, 200, 400, 1500, 10_000]) assert.equal(generatorDelayThresholdMs(l), Math.max(LAT_TOL.abs, LAT_TOL.rel * l), `L=${l}`);
});

test('loadgen-lag: a single long stall flags on the maximum while the P99 stays low (issue 9, defect 6)', () => {
  assert.deepEqual(computeFlags(inputs()), []);
  const f = computeFlags(inputs({ eventLoopLagP99Ms: 2, eventLoopLagMaxMs: 1500 }));
  assert.deepEqual(codes(f), ['loadgen-lag']);
  assert.equal(f[0]!.value, 1500);
  assert.equal(f[0]!.threshold, 75);
  assert.deepEqual(computeFlags(inputs({ eventLoopLagMaxMs: 75 })), [], 'at the threshold: no flag');
  assert.deepEqual(codes(computeFlags(inputs({ eventLoopLagMaxMs: 75.1 }))), ['loadgen-lag']);
  // the P99 rule still holds; one flag per code, in ms either way
  const p99 = computeFlags(inputs({ eventLoopLagP99Ms: 60, eventLoopLagMaxMs: 70 }));
  assert.deepEqual(p99.map((x) => [x.code, x.value, x.threshold]), [['loadgen-lag', 60, LAG_P99_MS]]);
  assert.equal(computeFlags(inputs({ eventLoopLagP99Ms: 60, eventLoopLagMaxMs: 900 })).length, 1);
  assert.deepEqual(computeFlags(inputs({ eventLoopLagP99Ms: null, eventLoopLagMaxMs: null })), []);
});

test('late sends: counted in the load summary against the threshold; loadgen-late-sends above 1 % of requests', () => {
  // 100 requests; record 7 sent 80 ms late (> 75): 1 % → not above the share
  const one = summarize(records(4, 25, L, { 7: 80 }), 4, 25, { lateSendThresholdMs: 75 });
  assert.deepEqual(one.lateSends, { thresholdMs: 75, count: 1, share: 0.01 });
  assert.equal(one.sendDelayMs?.max, 80);
  assert.deepEqual(computeFlags(inputs({ load: one })), []);
  // two late (one exactly at the threshold does not count): 2 % > 1 %
  const two = summarize(records(4, 25, L, { 7: 80, 30: 75, 60: 500 }), 4, 25, { lateSendThresholdMs: 75 });
  assert.equal(two.lateSends?.count, 2);
  const f = computeFlags(inputs({ load: two }));
  assert.deepEqual(codes(f), ['loadgen-late-sends']);
  assert.equal(f[0]!.value, 0.02);
  assert.equal(f[0]!.threshold, LATE_SENDS_SHARE);
  // without a threshold the summary does not count (older runs, bench tools): no flag, no field
  const none = summarize(records(4, 25, L, { 7: 800, 30: 800 }), 4, 25);
  assert.equal(none.lateSends, undefined);
  assert.deepEqual(computeFlags(inputs({ load: none })), []);
  assert.equal(summarize([], 4, 25, { lateSendThresholdMs: 75 }).lateSends, null);
});

test('one unit per code: host-cpu is % of all cores, sut-cpu a share of the SUT samples', () => {
  const host = computeFlags(inputs({ hostCpuPct: 99 }));
  assert.deepEqual(host.map((x) => [x.code, x.value, x.threshold]), [['host-cpu', 99, HOST_CPU_PCT]]);
  const sutSamples = [0.2, 0.95, 0.3, null, 0.92, 0.4].map((processCpuLoad, k) => ({ tEpochMs: k * 250, processCpuLoad }));
  const sut = computeFlags(inputs({ sutSamples }));
  assert.deepEqual(sut.map((x) => [x.code, x.value, x.threshold]), [['sut-cpu', 2 / 5, SUT_CPU_SATURATED_SHARE]]);
  assert.deepEqual(codes(computeFlags(inputs({ hostCpuPct: 99, sutSamples }))), ['host-cpu', 'sut-cpu']);
});

test('sutCpuSaturation: samples from t0 on, nulls skipped, saturated at ≥ 10 % of them', () => {
  const at = (t: number, x: number | null) => ({ tEpochMs: t, processCpuLoad: x });
  assert.deepEqual(sutCpuSaturation([], 0), { samples: 0, samplesAbove: 0, share: null, peak: null, saturated: false });
  // the sample before t0 (0.99) is not part of the cell
  const s = sutCpuSaturation([at(900, 0.99), ...Array.from({ length: 9 }, (_, k) => at(1000 + k, 0.5)), at(2000, 0.9), at(2001, null)], 1000);
  assert.deepEqual(s, { samples: 10, samplesAbove: 1, share: 0.1, peak: 0.9, saturated: true });
  assert.equal(sutCpuSaturation([...Array.from({ length: 10 }, (_, k) => at(1000 + k, 0.5)), at(2000, 0.95)], 1000).saturated, false, '1 of 11 < 10 %');
});

test('upgradeLegacyFlag: a host-cpu flag holding a share (threshold ≤ 1) is read as sut-cpu; others unchanged', () => {
  const legacy: CellFlag = { code: 'host-cpu', message: 'SUT busy', value: 0.4, threshold: 0.1 };
  assert.deepEqual(upgradeLegacyFlag(legacy), { ...legacy, code: 'sut-cpu' });
  const host: CellFlag = { code: 'host-cpu', message: 'host busy', value: 97, threshold: 95 };
  assert.equal(upgradeLegacyFlag(host), host);
});

test('the report renders every flag code in its one unit (flags from computeFlags)', async () => {
  const sutSamples = Array.from({ length: 10 }, (_, k) => ({ tEpochMs: k, processCpuLoad: k < 4 ? 0.95 : 0.3 }));
  const flags = computeFlags(inputs({
    eventLoopLagMaxMs: 1500, loadgenCpuPct: 97, hostCpuPct: 99, sutSamples,
    load: summarize(records(4, 25, L, { 3: 100, 9: 100 }), 4, 25, { lateSendThresholdMs: 75 }),
  }));
  assert.deepEqual(codes(flags), ['loadgen-lag', 'loadgen-late-sends', 'loadgen-cpu', 'host-cpu', 'sut-cpu']);
  const run = await loadRun(FIXTURE_DIR);
  const cells = structuredClone(run.cells);
  cells[0]!.flags = flags;
  const model = buildModel({ ...run, cells });
  const t = await loadTemplates('en');
  const figures = (['e2e-latency', 'distribution', 'latency-scatter', 'percentiles', 'throughput', 'phases', 'timeseries'] as const).map((name) => ({ name, title: chartLabels(t).e2e }));
  const md = renderMarkdown(model, t, figures);
  const row = (code: string) => md.split('\n').find((l) => l.startsWith(`| ${cells[0]!.cellId} | ${code} |`)) ?? '';
  assert.match(row('loadgen-lag'), /\| 1,500\.0 ms \| 75\.00 ms \|$/);
  assert.match(row('loadgen-late-sends'), /\| 2\.0 % of requests \| 1\.0 % of requests \|$/);
  assert.match(row('loadgen-cpu'), /\| 97 % of one core \| 90 % of one core \|$/);
  assert.match(row('host-cpu'), /\| 99 % of all cores \| 95 % of all cores \|$/);
  assert.match(row('sut-cpu'), /\| 40 % of samples \| 10 % of samples \|$/);
});

test('resummarize rebuilds intended send times by the generator\'s rule (ramp and closed loop) and counts late sends', async () => {
  const { expandRequests, resummarizeRun } = await import('../../src/pipeline/resummarize.ts');
  const { compactRequests, RunStore } = await import('../../src/adapters/store/run-store.ts');
  const { firstIntendedStartMs } = await import('../../src/load/schedule.ts');
  // 3 workers ramped over 300 ms, 3 requests each; worker 1's second request sent 90 ms late
  const recs: RequestRecord[] = [];
  for (let w = 0; w < 3; w++) {
    let intended = firstIntendedStartMs('ramp', w, 3, 300);
    for (let k = 0; k < 3; k++) {
      const start = intended + (w === 1 && k === 1 ? 90 : 0.0123);
      const e2e = 100 + w + k / 10;
      recs.push({ worker: w, seq: k, intendedStartMs: intended, startMs: start, endMs: start + e2e, e2eMs: e2e, status: 200, errorClass: null, serverTiming: {} });
      intended = start + e2e;
    }
  }
  const back = expandRequests(compactRequests(recs), { start: 'ramp', concurrency: 3, rampMs: 300 });
  for (let i = 0; i < recs.length; i++) assert.ok(Math.abs(back[i]!.intendedStartMs - recs[i]!.intendedStartMs) < 0.002, `record ${i}`);
  const s = summarize(back, 3, 3, { lateSendThresholdMs: 75 });
  assert.equal(s.lateSends?.count, 1);
  assert.ok(Math.abs((s.sendDelayMs?.max ?? 0) - 90) < 0.002);

  const { mkdtempSync, rmSync } = await import('node:fs');
  const { copyRunAsCurrent } = await import('../fixtures/upgrade-run.ts');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = join(mkdtempSync(join(tmpdir(), 'vtbench-flags-')), 'run');
  try {
    copyRunAsCurrent(FIXTURE_DIR, dir);
    resummarizeRun(dir);
    // the fixture is a real run: the re-derived figures equal the summarizer's over the cell's own raw records
    const store = new RunStore(dir);
    const cell = store.readCell('fixed-c4-r1');
    const { generatorDelayThresholdMs } = await import('../../src/compute/analysis/flags.ts');
    const threshold = generatorDelayThresholdMs(cell.latencyMs);
    const manifest = store.readManifest();
    const again = summarize(expandRequests(store.readRequests('fixed-c4-r1'), { start: cell.start, concurrency: cell.concurrency, rampMs: manifest.options.rampMs }), cell.concurrency, cell.requestsPerWorker, { lateSendThresholdMs: threshold });
    assert.equal(cell.load.lateSends?.thresholdMs, threshold);
    assert.deepEqual(cell.load.lateSends, again.lateSends);
    assert.deepEqual(cell.load.sendDelayMs, again.sendDelayMs);
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
});
