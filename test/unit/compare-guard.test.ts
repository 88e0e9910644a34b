/**
 * The environment guard of `compare` (src/report/compare/guard.ts, issue 33 item 3): each guarded
 * kind makes two runs "not comparable" on its own; `--allow-diff` names what may differ; and the
 * three outcomes (issue 33 item 4) on a committed run's real cells with values scaled: noise between
 * repeats above the minimum effect is "inconclusive", a 5 % slowdown well above the noise is "slower".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { GUARD_KINDS, guardDifferences, jdkMajor, parseAllowDiff } from '../../src/report/compare/guard.ts';
import { compareMetric, compareRuns, parseMinEffect } from '../../src/report/compare/model.ts';
import { renderCompareMd } from '../../src/report/compare/render.ts';
import { EXIT, VtbenchError } from '../../src/types/errors.ts';
import type { LoadedRun } from '../../src/report/load.ts';
import type { CellResult } from '../../src/types/run.ts';
import { loadRun } from '../fixtures/registered.ts';

const COMMITTED = fileURLToPath(new URL('../../runs/20261130-100102-seed-000', import.meta.url));

/** A manifest with what the guard reads; `o`, `host`, `versions` and `environment` override it. */
function manifest(p: { o?: Record<string, unknown>; host?: Record<string, unknown>; versions?: Record<string, unknown>; environment?: Record<string, unknown> } = {}) {
  const pool = { id: 'fixed', executor: { kind: 'platform-pool', threads: 32, queueCapacity: 100 } };
  return {
    options: { study: '000', scenario: 'llm-chat', latencyMs: 1500, requestsPerWorker: 40, start: 'together', rampMs: 1000, variantSpecs: [pool], ...p.o },
    host: { cpuModel: 'cpu', cores: 2, kernel: '6.1', arch: 'x64', memoryBytes: 1000, os: 'linux', ...p.host },
    versions: { node: '20', undici: '7', jdk: '25.0.3+9-LTS', jdkVendor: null, springBoot: '3', springAi: '1', ...p.versions },
    ...(p.environment ? { environment: p.environment } : {}),
  } as unknown as Parameters<typeof guardDifferences>[0];
}

test('jdkMajor: the feature release of a version string, the old 1.x scheme too', () => {
  assert.deepEqual(['25.0.3+9-LTS', '21', '1.8.0_392', '17.0.1', null, 'x'].map((v) => jdkMajor(v)), [25, 21, 8, 17, null, null]);
});

test('guardDifferences: none between equal runs; each guarded kind alone makes a difference of that kind', () => {
  assert.deepEqual(guardDifferences(manifest(), manifest()), []);
  const one = (b: Parameters<typeof manifest>[0]) => guardDifferences(manifest(), manifest(b)).map((d) => [d.kind, d.text]);
  assert.deepEqual(one({ o: { study: '002' } }), [['study', 'study: A "000", B "002"']]);
  assert.deepEqual(one({ o: { scenario: 'llm-stream' } }), [['scenario', 'scenario: A "llm-chat", B "llm-stream"']]);
  assert.deepEqual(one({ versions: { jdk: '21.0.2' } }), [['jdk', 'JDK major version: A 25, B 21']]);
  assert.deepEqual(one({ versions: { jdk: '25.0.4+1' } }), [], 'an update of the same JDK major is no guarded difference');
  assert.deepEqual(one({ host: { cores: 4 } }), [['cores', 'host cores: A 2, B 4']]);
  assert.deepEqual(one({ host: { kernel: '6.2' } }), [], 'the kernel is listed among the settings, not guarded');
  assert.deepEqual(one({ o: { variantSpecs: [{ id: 'fixed', executor: { kind: 'platform-pool', threads: 64, queueCapacity: 100 } }] } }), [
    ['pool', 'pool of variant fixed: A {"kind":"platform-pool","threads":32,"queueCapacity":100}, B {"kind":"platform-pool","threads":64,"queueCapacity":100}'],
  ]);
  assert.deepEqual(one({ o: { latencyMs: 400 } }), [['latency', 'mock latency L (latencyMs): A 1500, B 400']]);
  assert.deepEqual(one({ o: { requestsPerWorker: 4 } }), [['load', 'load model requestsPerWorker: A 40, B 4']]);
  assert.deepEqual(one({ o: { start: 'ramp' } }), [['load', 'load model start: A "together", B "ramp"'], ['load', 'load model rampMs: A (not recorded), B 1000']]);
  assert.deepEqual(one({ o: { durationS: 20 } }), [['load', 'load model durationS: A (not recorded), B 20']]);
  assert.deepEqual(one({ o: { cpuIsolation: { sutCpus: '1', harnessCpus: '0' } } }), [['isolation', 'CPU isolation: A "none", B {"sutCpus":"1","harnessCpus":"0"}']]);
  assert.deepEqual(one({ o: { cpuIsolation: undefined } }), [], 'isolation absent (off, or an old manifest) reads as none');
  // the CPU quota (host.cgroup.cpuQuotaCores): compared when both runs recorded it
  const cg = (cores: number | null, version: number | null = 2) => ({ host: { cgroup: { version, cpuQuotaCores: cores, cpuQuotaUs: null, cpuPeriodUs: null, memoryLimitBytes: null } } });
  assert.deepEqual(guardDifferences(manifest(cg(1)), manifest(cg(2))).map((d) => d.kind), ['quota']);
  assert.deepEqual(guardDifferences(manifest(cg(1)), manifest(cg(null))).map((d) => d.kind), ['quota'], 'a quota vs none differs');
  assert.deepEqual(guardDifferences(manifest(cg(1)), manifest()), [], 'a run without the cgroup recorded is not checked on it');
  assert.deepEqual(guardDifferences(manifest(cg(1)), manifest(cg(null, null))), [], 'an unreadable cgroup is not checked on it');
  // allowed kinds are marked, the others not
  const d = guardDifferences(manifest(), manifest({ host: { cores: 4 }, versions: { jdk: '21' } }), ['jdk']);
  assert.deepEqual(d.map((x) => [x.kind, x.allowed]), [['jdk', true], ['cores', false]]);
});

test('parseAllowDiff: kinds separated by commas, all; an unknown kind is a usage error naming the option and the valid values', () => {
  assert.deepEqual(parseAllowDiff('cores, jdk,jdk'), ['jdk', 'cores']);
  assert.deepEqual(parseAllowDiff('all'), [...GUARD_KINDS]);
  for (const bad of ['jdk,cpu', '', ',']) {
    assert.throws(() => parseAllowDiff(bad), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && /^--allow-diff: /.test(e.message) && /valid: study, scenario, jdk, cores, quota, pool, latency, load, isolation, or all/.test(e.message), bad);
  }
  assert.throws(() => parseAllowDiff('jdk,cpu'), /unknown 'cpu'/);
});

test('parseMinEffect: 5% or 5; anything not in (0, 100) is a usage error naming the option', () => {
  assert.deepEqual(['5%', '2.5', ' 10 % ', '.5%'].map(parseMinEffect), [5, 2.5, 10, 0.5]);
  for (const bad of ['0', '100', '-1', 'five', '5%%', '']) {
    assert.throws(() => parseMinEffect(bad), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && /^--min-effect: /.test(e.message), bad);
  }
});

/** The committed seed-000 run (3 repeats), loaded once. */
let committed: Promise<LoadedRun> | null = null;
const base = (): Promise<LoadedRun> => (committed ??= loadRun(COMMITTED));

/** Copies of cells with their whole-run throughput and E2E percentiles multiplied by `f(repeat)`. */
function scaled(cells: readonly CellResult[], f: (repeat: number) => number): CellResult[] {
  return cells.map((c) => {
    const k = f(c.repeat);
    const e = c.load.e2eMs!;
    return { ...c, load: { ...c.load, wholeRunThroughputRps: c.load.wholeRunThroughputRps! / k, e2eMs: { ...e, p50: e.p50 * k, p95: e.p95 * k, p99: e.p99 * k } } };
  });
}

test('three outcomes on real cells: noise between repeats larger than the difference is inconclusive; a 5 % slowdown well above the noise is slower', async () => {
  const run = await base();
  const a = run.cells.filter((c) => c.variant === 'virtual' && c.concurrency === 200);
  assert.equal(a.length, 3);
  const p95 = compareMetric('e2e_p95', a, a);
  assert.ok(p95.a.cvPct! < 1, `the committed repeats are quiet: CV ${p95.a.cvPct} %`);
  // B 3 % slower on average, but its repeats spread by ± 10 %: CV ≈ 10 % > the minimum effect 5 %
  const noisy = scaled(a, (r) => 1.03 * [0.9, 1, 1.1][r - 1]!);
  for (const m of ['throughput', 'e2e_p95'] as const) {
    const x = compareMetric(m, a, noisy);
    assert.equal(x.verdict, 'inconclusive', m);
    assert.ok(x.noisePct! > 5 && Math.abs(x.diffPct!) < x.noisePct!, `${m}: noise ${x.noisePct} % vs effect ${x.diffPct} %`);
    assert.match(x.reason!, /the noise between repeats \(CV \d+\.\d % in B\) exceeds the minimum effect 5 %/);
  }
  // B uniformly 5 % slower (every repeat × 1.05): the noise stays A's (< 1 %), the interval excludes 0
  const slow = scaled(a, () => 1.05);
  for (const m of ['throughput', 'e2e_p95'] as const) {
    const x = compareMetric(m, a, slow);
    assert.equal(x.verdict, 'slower', m);
    assert.equal(x.reason, null);
    assert.ok(x.noisePct! < 1, `${m}: noise ${x.noisePct}`);
    assert.ok(Math.abs(Math.abs(x.diffPct!) - (m === 'throughput' ? 100 * (1 - 1 / 1.05) : 5)) < 1e-9, `${m}: ${x.diffPct} %`);
  }
  // noise above the minimum effect does not hide an effect larger than the noise: the same 5 % slowdown judged
  // against a minimum effect below A's noise is still slower (the interval's near end is far beyond the < 1 % CV)
  const strict = compareMetric('e2e_p95', a, slow, p95.a.cvPct! / 2);
  assert.equal(strict.verdict, 'slower');
  // a 50 % slowdown with repeats spread by ± 10 % (CV ≈ 10 % > 5 %): the whole interval lies further from 0 than the noise → slower, not inconclusive
  const big = compareMetric('e2e_p95', a, scaled(a, (r) => 1.5 * [0.9, 1, 1.1][r - 1]!));
  assert.ok(big.noisePct! > 5, `noise ${big.noisePct}`);
  assert.equal(big.verdict, 'slower', big.reason ?? '');
  // the noise rule alone: the interval excludes 0 but its near end is within the noise of B's repeats → inconclusive
  const edge = compareMetric('e2e_p95', a, scaled(a, (r) => 1.4 * [0.9, 1, 1.1][r - 1]!));
  assert.ok(edge.ci !== null && edge.ci[0] > 0, `the interval excludes 0: ${edge.ci}`);
  assert.equal(edge.verdict, 'inconclusive');
  assert.match(edge.reason!, /exceeds the minimum effect 5 % and reaches the interval's near end/);
  assert.doesNotMatch(edge.reason!, /interval includes 0/);
  // the interval rule alone: a 0.1 % shift within the repeats' own spread, with a generous minimum effect
  const tiny = compareMetric('e2e_p95', a, scaled(a, () => 1.001), 50);
  assert.equal(tiny.verdict, 'inconclusive');
  assert.equal(tiny.reason, 'the interval includes 0');
});

test('notSlower (what a "not slower" gate passes on): faster, or an interval around 0 whose slow end stays below the minimum effect in quiet runs', async () => {
  const run = await base();
  const a = run.cells.filter((c) => c.variant === 'virtual' && c.concurrency === 200);
  const m = (b: CellResult[], metric: 'throughput' | 'e2e_p95' = 'e2e_p95', min?: number) => compareMetric(metric, a, b, min);
  assert.equal(m(scaled(a, () => 1 / 1.05)).verdict, 'faster');
  assert.equal(m(scaled(a, () => 1 / 1.05)).notSlower, true);
  assert.equal(m(scaled(a, () => 1.05)).notSlower, false, 'slower');
  assert.equal(m(scaled(a, (r) => 1.03 * [0.9, 1, 1.1][r - 1]!)).notSlower, false, 'noise above the minimum effect');
  // an unchanged B: the interval holds 0 and its slow end (a fraction of a per cent) is below 5 %
  for (const metric of ['throughput', 'e2e_p95'] as const) {
    const same = m(a, metric);
    assert.deepEqual([same.verdict, same.notSlower], ['inconclusive', true], metric);
  }
  // a minimum effect between the runs' noise and the interval's slow end: quiet, but the interval does not rule the slowdown out
  const same = m(a);
  const slowEnd = same.ciPct![1];
  assert.ok(same.noisePct! < slowEnd, `noise ${same.noisePct} % < slow end ${slowEnd} %`);
  const between = m(a, 'e2e_p95', (same.noisePct! + slowEnd) / 2);
  assert.deepEqual([between.verdict, between.reason, between.notSlower], ['inconclusive', 'the interval includes 0', false]);
  // for throughput the slow end is the lower one
  const tp = m(a, 'throughput');
  const between2 = m(a, 'throughput', (tp.noisePct! - tp.ciPct![0]) / 2);
  assert.ok(tp.noisePct! < -tp.ciPct![0]);
  assert.equal(between2.notSlower, false);
});

test('compareRuns: a guarded difference makes the runs not comparable (figures kept, every verdict "not comparable"); --allow-diff compares and says what differed', async () => {
  const run = await base();
  const other = { ...run, manifest: { ...run.manifest, versions: { ...run.manifest.versions, jdk: '21.0.5+11' } }, cells: scaled(run.cells, () => 1.05) } as LoadedRun;
  const refused = compareRuns(run, other);
  assert.equal(refused.comparable, false);
  assert.deepEqual(refused.guard, [{ kind: 'jdk', text: 'JDK major version: A 25, B 21', allowed: false }]);
  assert.equal(refused.cells.length, 10);
  for (const m of refused.cells.flatMap((c) => c.metrics)) {
    assert.equal(m.verdict, 'not comparable');
    assert.equal(m.notSlower, false);
    assert.notEqual(m.diff, null, 'the figures are still there');
  }
  // the same cells on the other JDK: each would pass a not-slower gate if compared, but they are not
  const sameCells = compareRuns(run, { ...other, cells: run.cells } as LoadedRun);
  assert.ok(sameCells.cells.every((c) => c.metrics.every((m) => m.verdict === 'not comparable' && !m.notSlower)));
  const sameAllowed = compareRuns(run, { ...other, cells: run.cells } as LoadedRun, { allowDiff: ['jdk'] }).cells.flatMap((c) => c.metrics);
  // allowed, they pass where their repeats are quiet (all but fixed@50's E2E P50, CV 8 %)
  assert.equal(sameAllowed.filter((m) => m.notSlower).length, 39);
  const md = renderCompareMd(refused);
  assert.match(md, /## Not comparable\n\nThe runs differ in what changes the theoretical bounds or the host[^\n]*\n\n- JDK major version: A 25, B 21 \(jdk\)\n\nTo compare anyway, name what may differ: `--allow-diff jdk`/);
  assert.match(md, /0 faster, 0 slower, 0 inconclusive, 0 not computable, 40 not comparable/);

  const allowed = compareRuns(run, other, { allowDiff: ['jdk'] });
  assert.equal(allowed.comparable, true);
  assert.deepEqual(allowed.allowDiff, ['jdk']);
  const verdicts = allowed.cells.flatMap((c) => c.metrics.map((m) => m.verdict));
  assert.ok(!verdicts.includes('not comparable'));
  assert.ok(verdicts.filter((v) => v === 'slower').length >= 30, verdicts.join(','));
  const md2 = renderCompareMd(allowed);
  assert.doesNotMatch(md2, /## Not comparable/);
  assert.match(md2, /Compared although the runs differ in these \(allowed by `--allow-diff jdk`\); a difference below may come from them:\n\n- JDK major version: A 25, B 21 \(jdk\)/);
  assert.match(md2, /\| noise \(CV A \/ B\) \|/);
});

test('compareRuns: runs of different studies are not comparable; allowing the study matches their cells on variant and level', async () => {
  const run = await base();
  const other = { ...run, manifest: { ...run.manifest, options: { ...run.manifest.options, study: '999' } } } as LoadedRun;
  const refused = compareRuns(run, other);
  assert.equal(refused.comparable, false);
  assert.deepEqual(refused.guard.map((d) => d.text), ['study: A "000", B "999"']);
  assert.equal(refused.cells.length, 0, 'the study is part of the cell key');
  assert.match(renderCompareMd(refused), /## Verdicts\n\nNo cell of A has a counterpart in B \(see "Unmatched cells"\): nothing to compare\.\n/);
  const allowed = compareRuns(run, other, { allowDiff: ['study'] });
  assert.equal(allowed.comparable, true);
  assert.equal(allowed.cells.length, 10);
  assert.deepEqual([allowed.onlyInA, allowed.onlyInB], [[], []]);
});
