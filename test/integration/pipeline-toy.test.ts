/**
 * The toy study (test/fixtures/toy-study/, not registered in src/studies) through the real entry
 * point `runStudy` — options, plan, store, pipeline, driver, load generator, summary, manifest all
 * production code — against an in-process stand-in of the SUT's `sleep` scenario: per block, an
 * HTTP server whose executor is the block's variant (a pool of `threads` permits with a FIFO queue,
 * or unbounded), answering `POST /api/scenario/sleep?ms=N` after N ms with `Server-Timing`. No JVM:
 * the same checks as test/e2e/toy-study.test.ts (which needs the real SUT) run here on every machine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, runStudy, type Io, type MainDeps } from '../../src/cli/main.ts';
import { EXIT } from '../../src/types/errors.ts';
import type { Variant } from '../../src/types/study.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { validate } from '../../src/adapters/store/schema.ts';
import { throughputBoundRps } from '../../src/compute/theory/bounds.ts';
import { TOY_STUDY } from '../fixtures/toy-study/study.ts';
import { fakeMainDeps, fakeRunDeps, startInProcessSut } from '../fixtures/fake-run.ts';
import { renderReport } from '../../src/report/index.ts';
import type { StudyPlugin } from '../../src/report/types.ts';

/** What each started stand-in saw: its variant and the requests' paths and methods. */
interface Seen { variant: Variant; requests: string[] }

/**
 * A fake run whose SUT, per block, is an in-process stand-in running the block's variant's executor
 * (a pool of `threads` permits with a FIFO queue, or unbounded) and the `sleep` scenario; each
 * stand-in started is recorded in `seen`. The thread dump lists two threads of the toy pool.
 */
function deps(seen: Seen[]): MainDeps {
  return fakeMainDeps(fakeRunDeps({
    samplerIntervalMs: 100,
    sut: async (variant) => {
      const s = await startInProcessSut({ executor: variant.executor });
      seen.push({ variant, requests: s.requests });
      return s;
    },
    getThreadDump: async () => JSON.stringify({ threadDump: { threadContainers: [{ container: '<root>', threads: [1, 2].map((i) => ({ tid: i, name: `toy-pool-${i}`, state: 'TIMED_WAITING', stack: ['java.base/java.lang.Thread.sleep(Thread.java:1)'] })) }] } }),
  }));
}

test('runStudy runs an unregistered study: its variants start their own executors, the scenario\'s request is sent, cells carry variant, executor and L', { timeout: 120_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-toy-fake-'));
  try {
    let out = '';
    const sink = { write: (s: string) => { out += s; return true; }, isTTY: false } as unknown as NodeJS.WriteStream;
    const io: Io = { stdout: sink, stderr: sink };
    const seen: Seen[] = [];
    const runsDir = join(tmp, 'runs');
    const code = await runStudy(TOY_STUDY, ['--profile', 'tiny', '--runs-dir', runsDir, '--no-report', '--json'], io, deps(seen));
    assert.equal(code, 0, out);
    assert.match(out, /vtbench plan — study toy, profile tiny, scenario sleep/);
    // --no-report builds no model: the run says its answer was not computed and how to get it
    assert.match(out, /\nno report: answer not computed \(`npx zx run\.mjs report \S+` writes the report and prints it\)\n/);
    const planEvent = out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e['type'] === 'plan');
    assert.deepEqual([planEvent?.['study'], planEvent?.['profile'], planEvent?.['scenario'], planEvent?.['variants']], ['toy', 'tiny', 'sleep', ['pool-2', 'vt']], 'the --json plan event names study, profile, scenario, variants');
    assert.deepEqual(seen.map((s) => s.variant), TOY_STUDY.variants, 'one SUT per block, started with the effective variant');
    for (const s of seen) assert.ok(s.requests.length > 0 && s.requests.every((r) => r === 'POST /api/scenario/sleep?ms=200'), s.requests.join(', '));

    const dir = join(runsDir, readdirSync(runsDir)[0]!);
    assert.match(dir, /\/\d{8}-\d{6}-toy-tiny$/, 'the run id names the study and the profile');
    const store = new RunStore(dir);
    const m = store.readManifest();
    assert.equal(m.status, 'complete');
    assert.equal(m.options.study, 'toy');
    assert.deepEqual(m.options.variantSpecs, TOY_STUDY.variants);
    assert.deepEqual(m.cellOrder, ['pool-2-c2-r1', 'pool-2-c6-r1', 'vt-c2-r1', 'vt-c6-r1']);
    assert.deepEqual(Object.keys(m.sut), ['pool-2-r1', 'vt-r1']);
    const cells = store.readDoneCells(m.cellOrder);
    assert.equal(cells.length, 4);
    for (const c of cells) {
      assert.deepEqual(validate('CellFile', store.readCellFile(c.cellId)), [], c.cellId);
      assert.equal(c.scenario, 'sleep');
      assert.equal(c.latencyMs, 200);
      assert.deepEqual(c.executor, TOY_STUDY.variants.find((v) => v.id === c.variant)!.executor);
      assert.equal(c.load.ok, c.concurrency * 2, c.cellId);
      const bound = throughputBoundRps(c.executor, c.concurrency, 200);
      assert.ok(c.load.wholeRunThroughputRps! <= bound * 1.05, `${c.cellId}: ${c.load.wholeRunThroughputRps} ≤ ${bound}`);
    }
    const q95 = (id: string) => cells.find((c) => c.cellId === id)!.load.queueMs!.p95;
    assert.ok(q95('pool-2-c6-r1') > 150, `6 workers on 2 threads queue: ${q95('pool-2-c6-r1')} ms`);
    for (const id of ['pool-2-c2-r1', 'vt-c2-r1', 'vt-c6-r1']) assert.ok(q95(id) < 20, `${id}: ${q95(id)} ms`);
    // the dump of the highest level counts the variant's own pool threads by its prefix
    const dump = cells.find((c) => c.cellId === 'pool-2-c6-r1')!.threadDump;
    assert.ok(dump);
    assert.deepEqual(dump.groups.map((g) => g.namePrefix), ['toy-pool-']);
    const summary = JSON.parse(readFileSync(store.summaryPath, 'utf8')) as { rows: { variant: string; concurrency: number; boundRps: number }[] };
    assert.deepEqual(validate('RunSummary', summary), []);
    assert.deepEqual(summary.rows.map((r) => `${r.variant}@${r.concurrency}:${r.boundRps}`), ['pool-2@2:10', 'pool-2@6:10', 'vt@2:10', 'vt@6:30']);

    // resume: the study comes from the manifest; unknown to plain main, known through runStudy
    out = '';
    assert.equal(await main(['--resume', dir, '--dry-run', '--no-report'], io, deps([])), EXIT.runData, out);
    assert.match(out, /error: --resume: run \S+ measured study 'toy', which this vtbench does not define/);
    out = '';
    assert.equal(await runStudy(TOY_STUDY, ['--resume', dir, '--dry-run', '--no-report'], io, deps([])), 0, out);
    assert.match(out, /resume: all 4 planned cells have a valid result; nothing left to measure/);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('progress lines (issue 30 item 8): the SUT build and each block\'s SUT JVM say when they begin and how long they took; the plan\'s planned duration adds the starts', { timeout: 120_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-toy-progress-'));
  try {
    let out = '';
    const sink = { write: (s: string) => { out += s; return true; }, isTTY: false } as unknown as NodeJS.WriteStream;
    const io: Io = { stdout: sink, stderr: sink };
    const code = await runStudy(TOY_STUDY, ['--profile', 'tiny', '--runs-dir', join(tmp, 'runs'), '--no-report'], io, { ...deps([]), sutBuildNeeded: () => true });
    assert.equal(code, 0, out);
    assert.match(out, /planned duration ≈ .+: load and warm-up .+ \+ 2 SUT JVM blocks × 18 s \(stop, start\) \+ the SUT build 30 s \(sut\/ changed since the last build\)\n/);
    assert.match(out, /building the SUT jar with Maven: sut\/ changed since the last build \(≈ 30 s with a filled Maven repository\)\nbuilt the SUT jar in \d+\.\d s\n/);
    for (const b of ['pool-2-r1', 'vt-r1']) {
      assert.match(out, new RegExp(`— JVM block ${b}\\n  starting the SUT JVM of block ${b}\\n  the SUT JVM of block ${b} ready after \\d+\\.\\d s\\n`), out);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('the end of a run (issue 31): the answer block — its lead line with virtual ÷ pool at the highest level, the table, the trust line — then the report\'s path', { timeout: 180_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-toy-answer-'));
  try {
    // both streams in order (`out`), and stdout alone: the answer is the run's result, on stdout
    let out = '';
    let stdout = '';
    const sink = { write: (s: string) => { out += s; return true; }, isTTY: false } as unknown as NodeJS.WriteStream;
    const stdoutSink = { write: (s: string) => { out += s; stdout += s; return true; }, isTTY: false } as unknown as NodeJS.WriteStream;
    const io: Io = { stdout: stdoutSink, stderr: sink };
    // the real report stage (src/cli/deps.ts does the same), into the temp folder
    const withReport: MainDeps = { ...deps([]), report: async (runDir, outRoot, lang, studies) => {
      const r = await renderReport(runDir, outRoot, { lang, studies: studies as readonly StudyPlugin[] });
      return { outDir: r.outDir, gaps: r.gaps, answerText: r.answerText };
    } };
    const reportDir = join(tmp, 'report');
    const code = await runStudy(TOY_STUDY, ['--profile', 'tiny', '--runs-dir', join(tmp, 'runs'), '--report-dir', reportDir], io, withReport);
    assert.equal(code, 0, out);
    const lines = out.trimEnd().split('\n');
    const runId = readdirSync(join(tmp, 'runs'))[0]!;
    assert.equal(lines.at(-1), `report: ${join(reportDir, runId, 'index.html')}`, 'the run ends with the report\'s path');
    // the lead line: virtual ÷ pool of 2 at 6 workers (bounds 30 and 10 req/s: about 3×)
    const lead = lines.findIndex((l) => / the throughput of .* at 6 workers; E2E P95 /.test(l));
    assert.ok(lead > 0, out.slice(-3000));
    const ratio = Number(/: ([0-9.]+)× the throughput/.exec(lines[lead]!)?.[1]);
    assert.ok(ratio > 2, `virtual ÷ pool at 6 workers: ${ratio}`);
    const tail = lines.slice(lead);
    // the ratio is the two throughputs of the table's lines at 6 workers
    const rpsAt6 = (name: string) => Number(new RegExp(`^ +6  ${name} +([0-9.,]+) req/s`).exec(tail.find((l) => l.includes(`6  ${name} `)) ?? '')?.[1]?.replace(/,/g, ''));
    assert.ok(Math.abs(rpsAt6('virtual thread per task') / rpsAt6('platform pool of 2') - ratio) < 0.01, tail.join('\n'));
    assert.match(tail[1] ?? '', /^ +level +variant +throughput +bound +% of bound +E2E P95 +E2E P99 +ratio +limited by$/);
    // the pool of 2 at 6 workers: no sampler in the stand-in, so at ≥ 95 % of its bound its executor is inferred
    const pool = tail.find((l) => /^ +6  platform pool of 2 /.test(l)) ?? '';
    const share = Number(/ ([0-9.]+) % /.exec(pool)?.[1]);
    assert.ok(Number.isFinite(share), pool);
    if (share >= 95) assert.match(pool, /executor pool: 2 threads \(inferred\)$/);
    else assert.doesNotMatch(pool, /executor pool/);
    assert.ok(tail.some((l) => /^Trust: 4 of 4 planned cells measured, one repeat;/.test(l)), tail.join('\n'));
    // the block (lead, table, trust) is what the run wrote to stdout; progress and the report's path go to stderr
    assert.ok(stdout.includes(lines[lead]!) && /\nTrust: 4 of 4 planned cells measured/.test(stdout), `stdout: ${stdout.slice(0, 2000)}`);
    assert.ok(!stdout.includes('report: '), 'the report\'s path is on stderr');
    // the same answer heads report.md and is meta.json's one line
    const meta = JSON.parse(readFileSync(join(reportDir, runId, 'meta.json'), 'utf8')) as { answer: string };
    assert.ok(lines[lead]!.startsWith(meta.answer), `${lines[lead]} / ${meta.answer}`);
    const md = readFileSync(join(reportDir, runId, 'report.md'), 'utf8');
    assert.match(md, /^# .*\n\n<!-- answer -->\n\n## Answer\n\n\*\*/);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
