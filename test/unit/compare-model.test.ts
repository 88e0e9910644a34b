import { test } from 'node:test';
import assert from 'node:assert/strict';
import { COMPARE_METHOD, COMPARE_METRICS, CONFIDENCE, DEFAULT_MIN_EFFECT_PCT, METRIC_INFO, compareMethod, compareMetric, compareRuns, parseMinEffect, settingDifferences } from '../../src/report/compare/model.ts';
import { VtbenchError, EXIT } from '../../src/types/errors.ts';
import { tQuantile } from '../../src/compute/stats/tdist.ts';
import type { LoadedRun } from '../../src/report/load.ts';
import type { CellResult } from '../../src/types/run.ts';

/** A cell with only what the comparison reads. */
const cell = (variant: string, level: number, repeat: number, rps: number | null, e2e: { p50: number; p95: number; p99: number } | null = null, scenario = 'io'): CellResult =>
  ({ cellId: `${variant}-c${level}-r${repeat}`, scenario, variant, concurrency: level, repeat, load: { wholeRunThroughputRps: rps, e2eMs: e2e } }) as unknown as CellResult;
const tp = (...xs: (number | null)[]) => xs.map((x, i) => cell('v', 10, i + 1, x));
const lat = (...p95s: number[]) => p95s.map((p95, i) => cell('v', 10, i + 1, 1, { p50: p95 / 2, p95, p99: p95 * 2 }));

const close = (a: number | null, e: number, what: string) => assert.ok(a !== null && Math.abs(a - e) <= 1e-12 * Math.max(1, Math.abs(e)), `${what}: ${a} vs ${e}`);

test('the metrics, their labels, units and better direction; the stated method', () => {
  assert.deepEqual(COMPARE_METRICS, ['throughput', 'e2e_p50', 'e2e_p95', 'e2e_p99']);
  assert.equal(CONFIDENCE, 0.95);
  assert.deepEqual(Object.fromEntries(Object.entries(METRIC_INFO).map(([k, v]) => [k, [v.label, v.unit, v.better]])), {
    throughput: ['throughput (whole run)', 'req/s', 'higher'],
    e2e_p50: ['E2E P50', 'ms', 'lower'],
    e2e_p95: ['E2E P95', 'ms', 'lower'],
    e2e_p99: ['E2E P99', 'ms', 'lower'],
  });
  const c = cell('v', 1, 1, 42, { p50: 1, p95: 2, p99: 3 });
  assert.deepEqual(COMPARE_METRICS.map((m) => METRIC_INFO[m].of(c)), [42, 1, 2, 3]);
  assert.deepEqual(COMPARE_METRICS.map((m) => METRIC_INFO[m].of(cell('v', 1, 1, null))), [null, null, null, null]);
  assert.match(COMPARE_METHOD, /^Welch's two-sample t interval \(Satterthwaite degrees of freedom\), 95 %, over the per-repeat values/);
  // what the method states in every output: the unit, the sign of the difference, the verdict rule,
  // when it is not computable, and the multiple-comparisons warning
  assert.match(COMPARE_METHOD, /\(one value per repeat: its whole-run throughput, its E2E P50\/P95\/P99\); difference = mean of B − mean of A\. /);
  assert.match(COMPARE_METHOD, /The noise of a run is the coefficient of variation of its repeats \(SD ÷ mean\)\. /);
  assert.match(COMPARE_METHOD, /A verdict is "faster" or "slower" when the interval excludes 0 and the noise of both runs is at most the minimum effect \(5 %, --min-effect\); else "inconclusive" /);
  assert.match(compareMethod(2.5), /minimum effect \(2\.5 %, --min-effect\)/);
  assert.match(COMPARE_METHOD, /with fewer than 2 repeats in a run it is "not computable"/);
  assert.match(COMPARE_METHOD, /"not comparable" unless --allow-diff names those differences/);
  assert.match(COMPARE_METHOD, /over many cells about 1 in 20 shows a difference by chance when there is none\.$/);
});

test('compareMetric: throughput up by 20 % with a worked interval is "faster"', () => {
  // A 100, 102, 98: mean 100, SD 2; B 120, 122, 118: mean 120, SD 2
  // se = √(4/3 + 4/3) = √(8/3); df = (8/3)² / (2 · (4/3)² / 2) = 4; t = 20 / √(8/3) = 12.247
  const r = compareMetric('throughput', tp(100, 102, 98), tp(120, 122, 118));
  const q = tQuantile(0.975, 4);
  const [lo, hi] = [20 - q * Math.sqrt(8 / 3), 20 + q * Math.sqrt(8 / 3)];
  assert.deepEqual([r.metric, r.label, r.unit, r.better], ['throughput', 'throughput (whole run)', 'req/s', 'higher']);
  // the noise: CV = SD ÷ mean = 2 % in A, 2 / 120 = 1.67 % in B; the larger is the comparison's
  assert.deepEqual(r.a, { n: 3, missing: 0, mean: 100, sd: 2, cvPct: 2, values: [100, 102, 98] });
  assert.deepEqual(r.b, { n: 3, missing: 0, mean: 120, sd: 2, cvPct: (2 / 120) * 100, values: [120, 122, 118] });
  assert.equal(r.noisePct, 2);
  assert.equal(r.minEffectPct, DEFAULT_MIN_EFFECT_PCT);
  assert.equal(r.reason, null);
  assert.equal(r.diff, 20);
  assert.equal(r.diffPct, 20);
  close(r.ci![0], lo, 'ci low');
  close(r.ci![1], hi, 'ci high');
  close(r.ciPct![0], lo, 'ci% low (÷ 100 × 100)');
  close(r.ciPct![1], hi, 'ci% high');
  close(r.df, 4, 'df');
  close(r.t, 20 / Math.sqrt(8 / 3), 't');
  assert.ok(r.p! > 0 && r.p! < 0.001);
  assert.equal(r.verdict, 'faster');
  assert.equal(r.note, null);
});

test('compareMetric: the verdict follows the better direction of the metric', () => {
  assert.equal(compareMetric('throughput', tp(120, 122, 118), tp(100, 102, 98)).verdict, 'slower');
  // latency: B higher is slower, B lower is faster
  assert.equal(compareMetric('e2e_p95', lat(100, 102, 98), lat(120, 122, 118)).verdict, 'slower');
  assert.equal(compareMetric('e2e_p95', lat(120, 122, 118), lat(100, 102, 98)).verdict, 'faster');
  // the other latency metrics read their own percentile: p50 = p95 / 2, p99 = 2 · p95
  assert.equal(compareMetric('e2e_p50', lat(120, 122, 118), lat(100, 102, 98)).diff, -10);
  assert.equal(compareMetric('e2e_p99', lat(120, 122, 118), lat(100, 102, 98)).diff, -40);
  // an interval that holds 0 (with noise 10 % above the minimum effect too): inconclusive, both reasons given
  const none = compareMetric('throughput', tp(100, 110, 90), tp(101, 111, 91));
  assert.ok(none.ci![0] < 0 && none.ci![1] > 0);
  assert.equal(none.verdict, 'inconclusive');
  assert.equal(none.reason, 'the interval includes 0; the noise between repeats (CV 10.0 % in A, CV 9.9 % in B) exceeds the minimum effect 5 %');
  // 20 repeats a side spreading ± 6 %: the interval (± 3.9 %) rules out a 5 % slowdown, but the noise
  // (CV 6.2 %) is above the minimum effect, so a not-slower gate cannot pass it
  const many = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 94 : 106));
  const wide = compareMetric('throughput', tp(...many), tp(...many));
  assert.ok(-wide.ciPct![0] < 5 && wide.noisePct! > 5, `${wide.ciPct} ${wide.noisePct}`);
  assert.deepEqual([wide.verdict, wide.notSlower], ['inconclusive', false]);
  assert.equal(compareMetric('throughput', tp(...many), tp(...many), 7).notSlower, true, 'quiet against a 7 % minimum effect');
  // the same data with a minimum effect above the noise: only the interval makes it inconclusive
  assert.equal(compareMetric('throughput', tp(100, 110, 90), tp(101, 111, 91), 20).reason, 'the interval includes 0');
  // diffPct relative to A: (−2.5 / 50) · 100 = −5 %
  assert.equal(compareMetric('throughput', tp(49, 51), tp(47.5, 47.5)).diffPct, -5);
  // the ratio of the means B ÷ A: 47.5 / 50
  assert.equal(compareMetric('throughput', tp(49, 51), tp(47.5, 47.5)).ratio, 0.95);
});

test('compareMetric: no spread in either run — exact difference, point interval, a note', () => {
  const up = compareMetric('throughput', tp(3, 3), tp(5, 5));
  assert.deepEqual([up.diff, up.ci, up.df, up.t, up.p, up.verdict], [2, [2, 2], null, null, 0, 'faster']);
  assert.equal(up.note, 'no spread between repeats in either run: the difference is exact, the interval a point');
  const down = compareMetric('throughput', tp(5, 5), tp(3, 3));
  assert.equal(down.verdict, 'slower');
  const same = compareMetric('throughput', tp(3, 3), tp(3, 3));
  assert.deepEqual([same.diff, same.ci, same.p, same.verdict, same.reason], [0, [0, 0], 1, 'inconclusive', 'the interval includes 0']);
});

test('compareMetric: mean(A) = 0 has no relative difference', () => {
  const r = compareMetric('throughput', tp(-1, 1), tp(4, 6));
  assert.equal(r.diff, 5);
  assert.equal(r.diffPct, null);
  assert.equal(r.ratio, null);
  assert.equal(r.ciPct, null);
  assert.notEqual(r.ci, null);
});

test('compareMetric: fewer than 2 values is not computable; missing and non-finite values counted', () => {
  const r = compareMetric('throughput', tp(100, null), tp(120, 122, Number.NaN, Infinity));
  assert.deepEqual(r.a, { n: 1, missing: 1, mean: 100, sd: null, cvPct: null, values: [100] });
  assert.deepEqual(r.b, { n: 2, missing: 2, mean: 121, sd: Math.SQRT2, cvPct: (Math.SQRT2 / 121) * 100, values: [120, 122] });
  assert.deepEqual([r.noisePct, r.reason], [null, null]);
  // no interval and no verdict, but the raw difference and ratio of the means (issue 31 item 7)
  assert.deepEqual([r.diff, r.diffPct, r.ratio, r.ci, r.ciPct, r.df, r.t, r.p], [21, 21, 1.21, null, null, null, null, null]);
  assert.equal(r.verdict, 'not computable');
  assert.equal(r.note, 'needs at least 2 values per run (A has n = 1); 3 repeat(s) without a value; the raw difference is shown without a verdict: give both runs --repeats 3 (or more) for one');
  // no value at all in a run: mean null, no difference, no hint to repeat
  const e = compareMetric('e2e_p99', [cell('v', 1, 1, 1, null)], lat(1, 2));
  assert.deepEqual(e.a, { n: 0, missing: 1, mean: null, sd: null, cvPct: null, values: [] });
  assert.deepEqual([e.diff, e.diffPct, e.ratio], [null, null, null]);
  // the same with B empty: no difference, percentage or ratio either (B's mean is missing, not 0)
  const eb = compareMetric('throughput', tp(100, 102), tp(null));
  assert.deepEqual([eb.b.mean, eb.diff, eb.diffPct, eb.ratio], [null, null, null, null]);
  assert.equal(eb.note, 'needs at least 2 values per run (B has n = 0); 1 repeat(s) without a value');
  assert.equal(e.note, 'needs at least 2 values per run (A has n = 0); 1 repeat(s) without a value');
  // nothing missing: the reason and the hint; a baseline mean of 0: a difference without a percentage or ratio
  const one = compareMetric('throughput', tp(2), tp(1, 2));
  assert.deepEqual([one.diff, one.diffPct, one.ratio], [-0.5, -25, 0.75]);
  assert.equal(one.note, 'needs at least 2 values per run (A has n = 1); the raw difference is shown without a verdict: give both runs --repeats 3 (or more) for one');
  const zero = compareMetric('throughput', tp(0), tp(4));
  assert.deepEqual([zero.diff, zero.diffPct, zero.ratio], [4, null, null]);
});

interface RunOpts { study?: string; runId?: string; options?: Record<string, unknown>; host?: Record<string, unknown>; versions?: Record<string, unknown>; gitCommit?: string | null; cells?: CellResult[] }
const run = (o: RunOpts = {}): LoadedRun => ({
  runDir: `/runs/${o.runId ?? 'a'}`,
  gaps: ['cell x missing'],
  cells: o.cells ?? [],
  manifest: {
    runId: o.runId ?? 'a',
    status: 'complete',
    tool: { name: 'vtbench', version: '0.1.0', gitCommit: o.gitCommit === undefined ? 'abc' : o.gitCommit, gitDirty: false },
    options: { study: o.study ?? '000', profile: 'quick', scenario: 'io', requestsPerWorker: 40, latencyMs: 1500, variantSpecs: [], ...o.options },
    host: { cpuModel: 'cpu', cores: 2, kernel: '6.1', arch: 'x64', memoryBytes: 1000, ...o.host },
    versions: { node: '20', undici: '7', jdk: '21', jdkVendor: null, springBoot: '3', springAi: '1', ...o.versions },
  },
}) as unknown as LoadedRun;

test('settingDifferences: none between equal runs; one line per differing setting, host fact and version', () => {
  assert.deepEqual(settingDifferences(run(), run()), []);
  assert.deepEqual(settingDifferences(run(), run({ options: { requestsPerWorker: 8, warmupS: 5 } })), [
    'requestsPerWorker: A 40, B 8',
    'warmupS: A (not recorded), B 5',
  ]);
  assert.deepEqual(settingDifferences(run({ options: { jvmFlags: ['-Xmx1g'] } }), run({ options: { jvmFlags: ['-Xmx2g'] } })), ['jvmFlags: A ["-Xmx1g"], B ["-Xmx2g"]']);
  assert.deepEqual(settingDifferences(run(), run({ host: { cores: 4, kernel: '6.2' } })), ['host cores: A 2, B 4', 'host kernel: A "6.1", B "6.2"']);
  assert.deepEqual(settingDifferences(run(), run({ versions: { node: '22', jdk: null } })), ['node version: A "20", B "22"', 'jdk version: A "21", B null']);
  assert.deepEqual(settingDifferences(run(), run({ gitCommit: null })), ['vtbench commit: A "abc", B null']);
  // options that are not settings (levels, repeats) are no difference
  assert.deepEqual(settingDifferences(run({ options: { levels: [1] } }), run({ options: { levels: [2] } })), []);
});

test('settingDifferences: host memory differs only by more than 1 % of the larger', () => {
  assert.deepEqual(settingDifferences(run(), run({ host: { memoryBytes: 990 } })), []); // 10 = 1 % of 1000
  assert.deepEqual(settingDifferences(run({ host: { memoryBytes: 990 } }), run()), []);
  assert.deepEqual(settingDifferences(run(), run({ host: { memoryBytes: 989 } })), ['host memoryBytes: A 1000, B 989']);
  assert.deepEqual(settingDifferences(run({ host: { memoryBytes: 989 } }), run()), ['host memoryBytes: A 989, B 1000']);
});

test('settingDifferences: a variant defined differently in both runs; one only in A is no difference', () => {
  const pool32 = { id: 'pool', executor: { kind: 'platform-pool', threads: 32, queueCapacity: 100 } };
  const pool64 = { id: 'pool', executor: { kind: 'platform-pool', threads: 64, queueCapacity: 100 } };
  const vt = { id: 'vt', executor: { kind: 'virtual-per-task' } };
  assert.deepEqual(settingDifferences(run({ options: { variantSpecs: [pool32, vt] } }), run({ options: { variantSpecs: [pool64] } })), [
    'variant pool: A {"kind":"platform-pool","threads":32,"queueCapacity":100}, B {"kind":"platform-pool","threads":64,"queueCapacity":100}',
  ]);
  assert.deepEqual(settingDifferences(run({ options: { variantSpecs: [pool32] } }), run({ options: { variantSpecs: [{ ...pool32, sutProperties: { a: '1' } }] } })), [
    'variant pool: A {"kind":"platform-pool","threads":32,"queueCapacity":100}, B {"kind":"platform-pool","threads":32,"queueCapacity":100} (SUT properties differ too)',
  ]);
  assert.deepEqual(settingDifferences(run({ options: { variantSpecs: [pool32] } }), run({ options: { variantSpecs: [pool32] } })), []);
  assert.deepEqual(settingDifferences(run({ options: { variantSpecs: [pool32] } }), run({ options: { variantSpecs: undefined } })), []);
  assert.deepEqual(settingDifferences(run({ options: { variantSpecs: undefined } }), run({ options: { variantSpecs: [pool32] } })), []);
});

test('compareRuns: cells matched by (study, scenario, variant, level), repeats in order, the unmatched of each side kept', () => {
  const a = run({ runId: 'a', cells: [cell('pool', 10, 2, 20), cell('pool', 10, 1, 21), cell('vt', 10, 1, 30), cell('vt', 10, 2, 31), cell('pool', 10, 1, 5, null, 'cpu')] });
  const b = run({ runId: 'b', options: { requestsPerWorker: 8 }, cells: [cell('pool', 10, 1, 22), cell('pool', 10, 2, 23), cell('vt', 20, 1, 30)] });
  const c = compareRuns(a, b);
  assert.equal(c.kind, 'vtbench-compare');
  assert.equal(c.version, 2);
  assert.equal(c.method, COMPARE_METHOD);
  assert.equal(c.minEffectPct, 5);
  // requestsPerWorker differs (the load model): not comparable, every verdict says so
  assert.equal(c.comparable, false);
  assert.deepEqual(c.guard, [{ kind: 'load', text: 'load model requestsPerWorker: A 40, B 8', allowed: false }]);
  assert.deepEqual(c.allowDiff, []);
  assert.ok(c.cells.every((x) => x.metrics.every((m) => m.verdict === 'not comparable')));
  assert.equal(c.confidence, 0.95);
  assert.deepEqual(c.a, { runDir: '/runs/a', runId: 'a', study: '000', profile: 'quick', status: 'complete', gaps: ['cell x missing'] });
  assert.equal(c.b.runId, 'b');
  assert.equal(c.cells.length, 1);
  const m = c.cells[0]!;
  assert.deepEqual([m.study, m.scenario, m.variant, m.level], ['000', 'io', 'pool', 10]);
  assert.deepEqual(m.cellsA, ['pool-c10-r1', 'pool-c10-r2']);
  assert.deepEqual(m.cellsB, ['pool-c10-r1', 'pool-c10-r2']);
  assert.deepEqual(m.metrics.map((x) => x.metric), ['throughput', 'e2e_p50', 'e2e_p95', 'e2e_p99']);
  // throughput: A 21, 20 (repeat order), B 22, 23
  assert.deepEqual(m.metrics[0]!.a.values, [21, 20]);
  assert.deepEqual(m.metrics[0]!.b.values, [22, 23]);
  assert.deepEqual(c.onlyInA, [{ study: '000', scenario: 'io', variant: 'vt', level: 10 }, { study: '000', scenario: 'cpu', variant: 'pool', level: 10 }]);
  assert.deepEqual(c.onlyInB, [{ study: '000', scenario: 'io', variant: 'vt', level: 20 }]);
  assert.deepEqual(c.differences, ['requestsPerWorker: A 40, B 8']);
  assert.notEqual(c.a.gaps, a.gaps, 'gaps copied');
});

test('compareRuns: runs of different studies share no cell', () => {
  const a = run({ cells: [cell('pool', 10, 1, 20)] });
  const b = run({ study: '002', cells: [cell('pool', 10, 1, 20)] });
  const c = compareRuns(a, b);
  assert.deepEqual(c.cells, []);
  assert.deepEqual(c.onlyInA, [{ study: '000', scenario: 'io', variant: 'pool', level: 10 }]);
  assert.deepEqual(c.onlyInB, [{ study: '002', scenario: 'io', variant: 'pool', level: 10 }]);
});
