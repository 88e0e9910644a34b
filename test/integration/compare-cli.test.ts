/**
 * `npx zx run.mjs compare <runA> <runB>` through the real entry point (main): Markdown, one JSON
 * line with --json, the three files with --out (HTML self-contained), n = 1 as "not computable",
 * unmatched cells listed, and --thresholds exit codes. Runs are the committed seed-000 run and
 * copies of the committed fixture run (test/fixtures/run-fixture, 2 repeats) with cells removed —
 * the state a partial run leaves.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main, type Io, type MainDeps } from '../../src/cli/main.ts';
import { EXIT } from '../../src/types/errors.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { copyRunAsCurrent, FIXTURE_DIR } from '../fixtures/upgrade-run.ts';
import type { Comparison } from '../../src/report/compare/model.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COMMITTED = join(ROOT, 'runs/20261130-100102-seed-000');
const EXAMPLE = join(ROOT, 'thresholds.example.json');
const NO_DEPS = {} as MainDeps;

function capture(): { io: Io; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const mk = (f: (s: string) => void) => ({ write: (s: string) => { f(s); return true; }, isTTY: false }) as unknown as NodeJS.WriteStream;
  return { io: { stdout: mk((s) => { out += s; }), stderr: mk((s) => { err += s; }) }, out: () => out, err: () => err };
}

/** A copy of the fixture run without the given cells' files (a partial run). */
function copyWithout(dst: string, drop: (id: string) => boolean): void {
  copyRunAsCurrent(FIXTURE_DIR, dst);
  const store = new RunStore(dst);
  for (const id of store.cellFileIds().filter(drop)) {
    for (const p of [store.cellPath(id), store.requestsPath(id), store.samplesPath(id)]) rmSync(p, { force: true });
  }
}

test('compare of the committed run with itself: Markdown on stdout, --json one line, --out writes compare.md, a self-contained index.html and compare.json', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-cmp-cli-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  let c = capture();
  assert.equal(await main(['compare', COMMITTED, COMMITTED], c.io, NO_DEPS), EXIT.ok, c.err());
  assert.match(c.out(), /^# Compare: 20261130-100102-seed-000 against 20261130-100102-seed-000/);
  assert.match(c.out(), /Welch's two-sample t interval \(Satterthwaite degrees of freedom\)/);
  // a run against itself: every interval holds 0, so neither faster nor slower can be shown
  assert.match(c.out(), /10 matched cell\(s\), 40 comparisons: 0 faster, 0 slower, 40 inconclusive, 0 not computable\./);

  c = capture();
  const out = join(tmp, 'cmp');
  // the example's compare rule holds in each of the 10 cells: the interval around 0 rules out a slowdown of 5 % (the repeats' CV is below 1 %)
  assert.equal(await main(['compare', COMMITTED, COMMITTED, '--json', '--out', out, '--thresholds', EXAMPLE], c.io, NO_DEPS), EXIT.ok, c.err());
  const lines = c.out().trim().split('\n');
  assert.equal(lines.length, 1);
  const j = JSON.parse(lines[0]!) as Comparison & { type: string; thresholds: { status: string; detail: string }[] };
  assert.equal(j.type, 'compare');
  assert.equal(j.cells.length, 10);
  assert.ok(j.thresholds.every((o) => o.status === 'held') && j.thresholds.length === 22, JSON.stringify(j.thresholds.map((o) => o.status)));
  assert.match(j.thresholds[12]!.detail, /^fixed@10: e2e_p95 inconclusive: the interval includes 0, not slower: the interval rules out a slowdown of 5 % or more \(B − A = 0 ms \(\+0 %\), 95 % interval \[-?[\d.]+, [\d.]+\] ms, noise CV [\d.]+ % \(minimum effect 5 %\)\)$/);
  assert.match(c.err(), /22 of 22 check\(s\) held/);

  // the same with a minimum effect below the repeats' noise: the gate cannot tell (exit 11), each cell says why
  c = capture();
  assert.equal(await main(['compare', COMMITTED, COMMITTED, '--min-effect', '0.001%', '--thresholds', EXAMPLE], c.io, NO_DEPS), EXIT.inconclusive, c.err());
  assert.match(c.err(), /threshold inconclusive: rules\/3 "compare: e2e_p95 not slower than baseline": fixed@10: e2e_p95 inconclusive: the interval includes 0; the noise between repeats \(CV [\d.]+ % in A, CV [\d.]+ % in B\) exceeds the minimum effect 0\.001 % \(B − A = 0 ms/);
  assert.match(c.err(), /thresholds .*thresholds\.example\.json: 12 of 22 check\(s\) held, 10 inconclusive/);
  assert.match(c.err(), /error: 10 compare check\(s\) of .* inconclusive \(listed above\): neither faster nor slower could be shown/);
  for (const f of ['compare.md', 'index.html', 'compare.json']) assert.ok(existsSync(join(out, f)), f);
  const html = readFileSync(join(out, 'index.html'), 'utf8');
  assert.doesNotMatch(html, /(src|href)="?(https?:)?\/\//, 'no external resource');
  assert.match(html, /<table>/);
  assert.equal((JSON.parse(readFileSync(join(out, 'compare.json'), 'utf8')) as Comparison).cells.length, 10);
});

test('compare: n = 1 in a run is "not computable" (no exception), unmatched cells are listed, gaps are stated; a compare rule that cannot be checked exits 9', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-cmp-n1-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const a = join(tmp, 'a');
  const b = join(tmp, 'b');
  copyRunAsCurrent(FIXTURE_DIR, a); // 2 repeats of fixed and virtual at c = 4, 16, 32
  copyWithout(b, (id) => id.endsWith('-r2') || id.startsWith('fixed-c32-')); // one repeat; no fixed@32
  let c = capture();
  assert.equal(await main(['compare', a, b, '--json'], c.io, NO_DEPS), EXIT.ok, c.err());
  const j = JSON.parse(c.out()) as Comparison;
  assert.deepEqual(j.onlyInA.map((k) => `${k.variant}@${k.level}`), ['fixed@32']);
  assert.deepEqual(j.onlyInB, []);
  assert.equal(j.cells.length, 5);
  for (const cell of j.cells) {
    assert.deepEqual(cell.cellsB, [`${cell.variant}-c${cell.level}-r1`]);
    for (const m of cell.metrics) {
      assert.equal(m.verdict, 'not computable');
      assert.equal(m.ci, null);
      // the raw difference and ratio are still there (issue 31 item 7)
      assert.equal(m.diff, m.b.mean! - m.a.mean!);
      assert.equal(m.ratio, m.b.mean! / m.a.mean!);
      assert.match(m.note ?? '', /B has n = 1/);
      assert.equal(m.b.n, 1);
      assert.equal(m.a.n, 2);
    }
  }
  assert.ok(j.b.gaps.some((g) => /7 of 12 planned cells have no result/.test(g)), j.b.gaps.join('\n'));
  assert.deepEqual(j.differences, [], 'two copies of one run: no setting differs');

  c = capture();
  assert.equal(await main(['compare', a, b], c.io, NO_DEPS), EXIT.ok, c.err());
  assert.match(c.out(), /- only in A: fixed c=32 \(study 000, scenario llm-chat\)/);
  assert.match(c.out(), /0 faster, 0 slower, 0 inconclusive, 20 not computable/);
  assert.match(c.out(), /20 comparison\(s\) have fewer than 2 repeats in a run: their raw difference B − A and ratio B ÷ A are shown without a verdict; run both with `--repeats 3` \(or more\) for one\./);
  assert.match(c.out(), /B: 7 of 12 planned cells have no result/);

  const rules = join(tmp, 'rules.json');
  writeFileSync(rules, JSON.stringify({ rules: ['compare virtual@4: e2e_p95 not slower than baseline'] }));
  c = capture();
  assert.equal(await main(['compare', a, b, '--thresholds', rules], c.io, NO_DEPS), EXIT.thresholds, c.err());
  assert.match(c.out(), /^# Compare/, 'the comparison is printed before the rule fails the command');
  assert.match(c.err(), /threshold broken: rules\/0 "compare virtual@4: e2e_p95 not slower than baseline": virtual@4: e2e_p95 cannot be checked: not computable \(needs at least 2 values per run \(B has n = 1\); the raw difference is shown without a verdict: give both runs --repeats 3 \(or more\) for one\)/);
});

test('compare of runs with different settings: not comparable (exit 10), nothing matched, every cell listed as unmatched, the differing settings named', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-cmp-diff-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  copyRunAsCurrent(FIXTURE_DIR, join(tmp, 'smoke'));
  const c = capture();
  assert.equal(await main(['compare', COMMITTED, join(tmp, 'smoke'), '--json'], c.io, NO_DEPS), EXIT.notComparable, c.err());
  const j = JSON.parse(c.out().split('\n')[0]!) as Comparison;
  assert.equal(j.comparable, false);
  assert.deepEqual([...new Set(j.guard.map((d) => d.kind))], ['pool', 'latency', 'load']);
  assert.match(c.err(), /error: not comparable: the runs differ in pool of variant fixed: .*; mock latency L \(latencyMs\): A 1500, B 400; load model requestsPerWorker: A 40, B 4\n  hint: .*--allow-diff pool,latency,load/);
  assert.equal(j.cells.length, 0);
  assert.equal(j.onlyInA.length, 10);
  assert.equal(j.onlyInB.length, 6);
  assert.ok(j.differences.includes('requestsPerWorker: A 40, B 4'), j.differences.join('\n'));
  assert.ok(j.differences.includes('latencyMs: A 1500, B 400'), j.differences.join('\n'));
  assert.ok(j.differences.some((d) => /^variant fixed: A .*"threads":32.*, B .*"threads":8/.test(d)), j.differences.join('\n'));
});

const RUNS = join(ROOT, 'runs');

test('compare of committed runs of different studies: not comparable with the differences (exit 10); --allow-diff compares and says what differed', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-cmp-guard-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const s003 = join(RUNS, '20261201-061659-003-seed-003');
  const s004 = join(RUNS, '20261201-053137-004-seed-004-http');
  let c = capture();
  assert.equal(await main(['compare', s003, s004], c.io, NO_DEPS), EXIT.notComparable, c.err());
  assert.match(c.out(), /## Not comparable\n\n[^\n]*\n\n- study: A "003", B "004" \(study\)\n- scenario: A "sleep-sweep", B "servlet-sleep" \(scenario\)\n/);
  assert.match(c.out(), /- mock latency L \(latencyMs\): A 1000, B 50 \(latency\)/);
  assert.match(c.out(), /To compare anyway, name what may differ: `--allow-diff study,scenario,pool,latency,load`/);
  assert.match(c.err(), /error: not comparable: the runs differ in study: A "003", B "004"; /);

  // two runs of study 000 whose load model differs (40 requests per worker started together; 4 with a ramp): refused, then compared when allowed
  const b = join(RUNS, '20261201-113357-000-followups');
  c = capture();
  assert.equal(await main(['compare', COMMITTED, b, '--json'], c.io, NO_DEPS), EXIT.notComparable, c.err());
  const refused = JSON.parse(c.out().split('\n')[0]!) as Comparison;
  assert.deepEqual(refused.guard.map((d) => [d.kind, d.text, d.allowed]), [
    ['load', 'load model requestsPerWorker: A 40, B 4', false],
    ['load', 'load model start: A "together", B "ramp"', false],
    ['load', 'load model rampMs: A (not recorded), B 1500', false],
  ]);
  assert.equal(refused.cells.length, 6);
  assert.ok(refused.cells.every((x) => x.metrics.every((m) => m.verdict === 'not comparable' && m.diff !== null)));
  c = capture();
  assert.equal(await main(['compare', COMMITTED, b, '--allow-diff', 'load'], c.io, NO_DEPS), EXIT.ok, c.err());
  assert.doesNotMatch(c.out(), /## Not comparable/);
  assert.match(c.out(), /Compared although the runs differ in these \(allowed by `--allow-diff load`\); a difference below may come from them:\n\n- load model requestsPerWorker: A 40, B 4 \(load\)\n- load model start: A "together", B "ramp" \(load\)\n/);
  // the followups ran 1 repeat: raw differences without a verdict
  assert.match(c.out(), /6 matched cell\(s\), 24 comparisons: 0 faster, 0 slower, 0 inconclusive, 24 not computable\./);
  // a compare rule on runs that are not comparable: exit 10, the rule says why; a broken run rule (9) takes precedence
  c = capture();
  assert.equal(await main(['compare', COMMITTED, b, '--thresholds', EXAMPLE], c.io, NO_DEPS), EXIT.thresholds, c.err());
  assert.match(c.err(), /16 of 18 check\(s\) held, 1 broken, 1 not comparable/);
  const rules = join(tmp, 'compare-only.json');
  writeFileSync(rules, JSON.stringify({ rules: ['compare: e2e_p95 not slower than baseline'] }));
  c = capture();
  assert.equal(await main(['compare', COMMITTED, b, '--thresholds', rules], c.io, NO_DEPS), EXIT.notComparable, c.err());
  assert.match(c.err(), /threshold not comparable: rules\/0 "compare: e2e_p95 not slower than baseline": the runs are not comparable: load model requestsPerWorker: A 40, B 4; .* \(--allow-diff load compares them anyway\)/);
});

test('compare: a bad --allow-diff or --min-effect exits 2 naming the option and the valid values, before any run is read', async () => {
  let c = capture();
  assert.equal(await main(['compare', '/nonexistent/a', '/nonexistent/b', '--allow-diff', 'jdk,cpus'], c.io, NO_DEPS), EXIT.usage);
  assert.match(c.err(), /error: --allow-diff: unknown 'cpus' \(valid: study, scenario, jdk, cores, quota, pool, latency, load, isolation, or all\)/);
  c = capture();
  assert.equal(await main(['compare', '/nonexistent/a', '/nonexistent/b', '--min-effect', '0%'], c.io, NO_DEPS), EXIT.usage);
  assert.match(c.err(), /error: --min-effect: '0%' is not a percentage above 0 and below 100/);
});

test('compare: a missing run folder exits 7 naming it; a bad --thresholds file exits 2 before any run is read', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-cmp-bad-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  let c = capture();
  assert.equal(await main(['compare', COMMITTED, join(tmp, 'nope')], c.io, NO_DEPS), EXIT.runData);
  assert.match(c.err(), /run folder not found: .*nope/);
  const bad = join(tmp, 'bad.json');
  writeFileSync(bad, JSON.stringify({ rules: ['compare: e2e_p95 not faster'] }));
  c = capture();
  assert.equal(await main(['compare', join(tmp, 'nope'), join(tmp, 'nope'), '--thresholds', bad], c.io, NO_DEPS), EXIT.usage);
  assert.match(c.err(), /--thresholds .*bad\.json: rules\/0 "compare: e2e_p95 not faster" has neither form/);
  c = capture();
  assert.equal(await main(['--levels', '10', 'compare', COMMITTED, COMMITTED], c.io, NO_DEPS), EXIT.usage);
  assert.match(c.err(), /--levels does not apply to `compare`/);
});
