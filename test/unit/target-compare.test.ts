/**
 * `compare` and thresholds on target runs (src/report/compare/target.ts, src/report/thresholds/target.ts):
 * cells matched by arm and level, three verdicts that flip with the data, the guard, failed cells left
 * out, run rules per `<arm>@<level>`, and the rule forms a target cannot check refused up front.
 * Cells come from request records through src/load/summarize.ts (test/fixtures/target-run.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TargetCell, TargetManifest } from '../../src/types/target.ts';
import { compareTargetRuns, targetGuardDifferences } from '../../src/report/compare/target.ts';
import { checkTargetCompare, checkTargetRules, checkTargetRun } from '../../src/report/thresholds/target.ts';
import type { Thresholds } from '../../src/report/thresholds/rules.ts';
import type { TargetRunFiles } from '../../src/report/target/load.ts';
import { targetCell } from '../fixtures/target-run.ts';

const T0 = 1_700_000_000_000;

function manifest(p: Partial<TargetManifest> = {}): TargetManifest {
  return {
    kind: 'target', schemaVersion: 1, runId: 'r', createdAt: new Date(T0).toISOString(), tier: 'jar',
    jar: { path: 'app.jar', sha256: 'a'.repeat(64), args: [], env: [] },
    mix: { file: 'mix.jsonl', sha256: 'b'.repeat(64), requests: [{ name: 'home', method: 'GET', path: '/', headers: {}, weight: 1, line: 1 }] },
    arms: [
      { id: 'platform', label: 'platform threads', url: null, properties: { 'spring.threads.virtual.enabled': 'false' }, virtualThreads: false },
      { id: 'virtual', label: 'virtual threads', url: null, properties: { 'spring.threads.virtual.enabled': 'true' }, virtualThreads: true },
    ],
    levels: [10], mode: 'closed-loop', repeats: 3, requestsPerWorker: 20, durationS: null, warmupRequestsPerWorker: 5, aloneProbeRequests: 20,
    samplerIntervalMs: 250, pinThresholdMs: 20, db: null,
    jvm: { platform: { vmVendor: 'Eclipse Adoptium', vmVersion: '25.0.3+9', javaVersion: '25.0.3', inputArguments: [], availableProcessors: 2, pid: 1 } },
    host: { cpus: 2, cpuModel: 'CPU', kernel: '6.1', node: 'v20' },
    probes: [], failed: [], finishedAt: new Date(T0).toISOString(),
    ...p,
  };
}

/** A run whose `virtual` arm at 10 clients answers in latencies[i] ms in repeat i+1 (platform: 100 ms every repeat). */
function run(latencies: number[], m: Partial<TargetManifest> = {}, extra: TargetCell[] = []): TargetRunFiles {
  const cells = [
    ...latencies.map((l, i) => targetCell('platform', 10, i + 1, 100, T0)),
    ...latencies.map((l, i) => targetCell('virtual', 10, i + 1, l, T0)),
    ...extra,
  ];
  return { dir: '/runs/x', manifest: manifest(m), cells, samples: new Map(), dumps: new Map() };
}

const metric = (c: ReturnType<typeof compareTargetRuns>, arm: string, name: string) => c.cells.find((x) => x.variant === arm)!.metrics.find((m) => m.metric === name)!;

test('compare: matched by arm and level; a 20 % slowdown well above the noise is "slower", the same runs "inconclusive" once the noise exceeds it', () => {
  const a = run([50, 50.5, 49.5]);
  const slower = compareTargetRuns(a, run([60, 60.5, 59.5]));
  assert.equal(slower.comparable, true);
  assert.deepEqual(slower.cells.map((x) => `${x.variant}@${x.level}`), ['platform@10', 'virtual@10']);
  assert.equal(metric(slower, 'virtual', 'throughput').verdict, 'slower');
  assert.equal(metric(slower, 'virtual', 'e2e_p95').verdict, 'slower');
  assert.equal(metric(slower, 'platform', 'throughput').verdict, 'inconclusive', 'identical repeats: no difference');
  const noisy = compareTargetRuns(a, run([40, 80, 60]));
  assert.equal(metric(noisy, 'virtual', 'throughput').verdict, 'inconclusive');
  assert.match(metric(noisy, 'virtual', 'throughput').reason ?? '', /noise between repeats|includes 0/);
});

test('compare: one repeat gives the raw difference and ratio without a verdict; failed cells are never matched', () => {
  const failedCell = targetCell('virtual', 20, 1, 10, T0);
  const one = compareTargetRuns(run([50]), run([100], { failed: [{ id: failedCell.id, reason: 'the target died' }] }, [failedCell]));
  const m = metric(one, 'virtual', 'throughput');
  assert.equal(m.verdict, 'not computable');
  assert.ok(m.ratio !== null && Math.abs(m.ratio - 0.5) < 0.01, String(m.ratio));
  assert.equal(one.onlyInB.length, 0, 'the failed cell is not a cell');
  assert.deepEqual(one.b.gaps, ['failed cell virtual-c20-r1: the target died']);
});

test('compare guard: another request mix, JDK, core count, arm property, mock latency or load model is "not comparable" unless allowed; another jar is only listed', () => {
  const a = manifest();
  assert.deepEqual(targetGuardDifferences(a, manifest({ jar: { path: 'app.jar', sha256: 'c'.repeat(64), args: [], env: [] } })), []);
  const kinds = (b: Partial<TargetManifest>) => targetGuardDifferences(a, manifest(b)).map((d) => d.kind);
  assert.deepEqual(kinds({ mix: { ...a.mix, sha256: 'd'.repeat(64) } }), ['scenario']);
  assert.deepEqual(kinds({ host: { ...a.host, cpus: 4 } }), ['cores']);
  assert.deepEqual(kinds({ jvm: { platform: { ...a.jvm['platform']!, javaVersion: '21.0.5' } } }), ['jdk']);
  assert.deepEqual(kinds({ arms: [a.arms[0]!, { ...a.arms[1]!, properties: { 'spring.threads.virtual.enabled': 'true', 'server.tomcat.threads.max': '400' } }] }), ['pool']);
  assert.deepEqual(kinds({ mock: { latencyMs: 100 } }), ['latency']);
  assert.deepEqual(kinds({ mode: 'open-loop', durationS: 20 }), ['load', 'load']);
  const c = compareTargetRuns(run([50, 50, 50]), run([50, 50, 50], { host: { ...a.host, cpus: 4 } }));
  assert.equal(c.comparable, false);
  assert.ok(c.cells.every((x) => x.metrics.every((m) => m.verdict === 'not comparable')));
  const allowed = compareTargetRuns(run([50, 50, 50]), run([50, 50, 50], { host: { ...a.host, cpus: 4 } }), { allowDiff: ['cores'] });
  assert.equal(allowed.comparable, true);
  assert.ok(compareTargetRuns(run([50]), run([50], { jar: { path: 'app.jar', sha256: 'c'.repeat(64), args: [], env: [] } })).differences.some((d) => /^jar \(SHA-256\)/.test(d)));
});

const rules = (...xs: Thresholds['rules'][number]['rule'][]): Thresholds => ({ file: 't.json', rules: xs.map((rule, index) => ({ index, text: JSON.stringify(rule), rule })) });

test('thresholds on a target run: <arm>@<level> rules hold or break on the median of repeats; no match is broken', () => {
  const r = run([50, 52, 48]); // virtual: 10 clients at ~50 ms → ~200 req/s; P95 ~50 ms
  const out = checkTargetRun(rules(
    { cell: 'virtual@10', metric: 'e2e_p95', op: '<=', value: 55 },
    { cell: 'virtual@10', metric: 'e2e_p95', op: '<=', value: 45 },
    { cell: '*@10', metric: 'error_rate', op: '<=', value: 0 },
    { cell: 'virtual@99', metric: 'throughput', op: '>=', value: 1 },
    { compare: 'not-slower', metric: 'throughput' },
  ), r);
  assert.deepEqual(out.map((o) => o.status), ['held', 'broken', 'held', 'held', 'broken', 'not checked']);
  assert.match(out[1]!.detail, /virtual@10: measured 50 ms \(median of 3 repeat\(s\)\), limit <= 45 ms/);
  assert.match(out[4]!.detail, /matches no cell of run r \(it has platform@10, virtual@10\)/);
});

test('thresholds on an open-loop target run: arrivals the in-flight cap refused count as failed in error_rate', () => {
  const r = run([50, 52, 48]);
  const refusing = (c: TargetCell, refused: number): TargetCell => ({ ...c, mode: 'open-loop', summary: { ...c.summary, openLoop: { ...({} as NonNullable<TargetCell['summary']['openLoop']>), unsent: { inFlightCap: refused } } } });
  const rule = rules({ cell: 'virtual@10', metric: 'error_rate', op: '<=', value: 0.01 });
  const none = { ...r, cells: r.cells.map((c) => (c.arm === 'virtual' ? refusing(c, 0) : c)) };
  assert.equal(checkTargetRun(rule, none)[0]!.status, 'held', 'nothing refused, nothing failed');
  const sent = r.cells.find((c) => c.arm === 'virtual')!.summary.count;
  const most = { ...r, cells: r.cells.map((c) => (c.arm === 'virtual' ? refusing(c, 9 * sent) : c)) };
  const out = checkTargetRun(rule, most)[0]!;
  assert.equal(out.status, 'broken');
  assert.equal(out.measured, 0.9, '9 of every 10 arrivals refused, every sent one answered');
});

test('thresholds: a rule a target cannot check (a factor of the bound, a window) is refused before anything runs; a compare rule breaks on "slower"', () => {
  assert.throws(() => checkTargetRules(rules({ cell: '*@*', metric: 'throughput', op: '>=', value: 0.9, of: 'bound' })), /rules\/0 .*not checkable on a target run/);
  assert.throws(() => checkTargetRules(rules({ cell: '*@*', metric: 'e2e_p95', op: '<=', value: 9, window: 'last:10s' })), /not checkable on a target run/);
  assert.doesNotThrow(() => checkTargetRules(rules({ cell: '*@*', metric: 'e2e_p95', op: '<=', value: 9 }, { compare: 'not-slower', metric: 'e2e_p95' })));
  const b = run([60, 60.5, 59.5]);
  const c = compareTargetRuns(run([50, 50.5, 49.5]), b);
  const out = checkTargetCompare(rules({ compare: 'not-slower', metric: 'throughput', cell: 'virtual@*' }), c, b);
  assert.deepEqual(out.map((o) => o.status), ['broken']);
  assert.match(out[0]!.detail, /virtual@10: throughput slower/);
});

test('compare command: two target run folders compared and printed; a target run against a study run refused; a target-incompatible rule refused before reading', async () => {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { writeTargetRun } = await import('../fixtures/target-run.ts');
  const { compareCommand } = await import('../../src/cli/commands/compare.ts');
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-target-compare-'));
  try {
    const a = run([50, 50.5, 49.5]);
    const b = run([60, 60.5, 59.5]);
    writeTargetRun(join(dir, 'a'), a.manifest, a.cells, new Map());
    writeTargetRun(join(dir, 'b'), b.manifest, b.cells, new Map());
    let out = '';
    const io = { stdout: { write: (s: string) => { out += s; return true; } }, stderr: { write: () => true } } as unknown as Parameters<typeof compareCommand>[1];
    assert.equal(await compareCommand({ runA: join(dir, 'a'), runB: join(dir, 'b'), out: null, json: false, thresholds: null }, io, []), 0);
    assert.match(out, /virtual/);
    assert.match(out, /slower/);
    await assert.rejects(compareCommand({ runA: join(dir, 'a'), runB: join(dir, 'b'), out: null, json: false, thresholds: rules({ cell: '*@*', metric: 'throughput', op: '>=', value: 0.9, of: 'bound' }) }, io, []), /not checkable on a target run/);
    await assert.rejects(compareCommand({ runA: join(dir, 'a'), runB: 'runs/20261130-100102-seed-000', out: null, json: false, thresholds: null }, io, []), /is a run of `target` \(your own service\) and .* a study's run/);
    // a mistyped folder beside a target run is named as not found, not called a study's run
    await assert.rejects(compareCommand({ runA: join(dir, 'a'), runB: join(dir, 'no-such-run'), out: null, json: false, thresholds: null }, io, []), /run folder not found: .*no-such-run \(no manifest\.json\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
