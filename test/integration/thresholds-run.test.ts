/**
 * `--thresholds` on a run, through the real entry point (runStudy → main → pipeline → store →
 * summary) with the toy study (test/fixtures/toy-study/) against an in-process stand-in of the
 * SUT's `sleep` scenario (no JVM; the same stand-in idea as test/integration/pipeline-toy.test.ts): a broken
 * rule exits 9 only after the run folder is complete and the report was asked for; a holding
 * file exits 0; a bad file exits 2 before anything is measured (no run folder).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStudy, type Io, type MainDeps } from '../../src/cli/main.ts';
import { EXIT } from '../../src/types/errors.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { TOY_STUDY } from '../fixtures/toy-study/study.ts';
import { fakeMainDeps, fakeRunDeps, startInProcessSut } from '../fixtures/fake-run.ts';
import { freePort } from '../fixtures/ports.ts';

/**
 * A fake run whose SUT, per block, is an in-process stand-in answering `POST /api/scenario/sleep?ms=N`
 * after N ms (no executor emulation); the report stands in as a record that it was asked for (the
 * real one is tested elsewhere).
 */
function deps(reports: string[]): MainDeps {
  const run = fakeRunDeps({ samplerIntervalMs: 100, sut: () => startInProcessSut(), getThreadDump: async () => JSON.stringify({ threadDump: { threadContainers: [] } }) });
  return fakeMainDeps(run, {
    report: async (runDir) => { reports.push(runDir); return { outDir: join(runDir, 'no-report'), gaps: [] }; },
  });
}

test('a run with --thresholds: a broken rule exits 9 after the run and its report are written; rules that hold exit 0; a bad file exits 2 and measures nothing', { timeout: 120_000 }, async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-thr-run-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; }, isTTY: false } as unknown as NodeJS.WriteStream;
  const io: Io = { stdout: sink, stderr: sink };
  const ports = async () => ['--mock-port', String(await freePort()), '--sut-port', String(await freePort())];
  const runsDir = join(tmp, 'runs');

  const broken = join(tmp, 'broken.json');
  writeFileSync(broken, JSON.stringify({ rules: ['*@*: e2e_p95 >= 150ms', 'vt@6: e2e_p95 <= 1ms'] }));
  const reports: string[] = [];
  const code = await runStudy(TOY_STUDY, ['--profile', 'tiny', '--warmup-s', '0', '--runs-dir', runsDir, '--json', '--thresholds', broken, ...await ports()], io, deps(reports));
  assert.equal(code, EXIT.thresholds, out);
  const [id] = readdirSync(runsDir);
  const dir = join(runsDir, id!);
  const store = new RunStore(dir);
  assert.equal(store.readManifest().status, 'complete', 'the measured run is kept, complete');
  assert.equal(store.doneCellIds().size, 4);
  assert.ok(existsSync(store.summaryPath));
  assert.deepEqual(reports, [dir, dir], 'the report (English, then Chinese) was asked for before the rules were checked');
  assert.match(out, /threshold broken: rules\/1 "vt@6: e2e_p95 <= 1ms": vt@6: measured \d+(\.\d+)? ms \(median of 1 repeat\(s\)\), limit <= 1 ms/);
  assert.doesNotMatch(out, /rules\/0/, 'the holding rule is not listed as broken');
  assert.match(out, /4 of 5 check\(s\) held, 1 broken/);
  assert.match(out, /"type":"error".*"exitCode":9/, '--json ends with an error event carrying exit 9');

  out = '';
  const holds = join(tmp, 'holds.json');
  writeFileSync(holds, JSON.stringify({ rules: [{ cell: '*@*', metric: 'e2e_p95', op: '>=', value: 150 }, { cell: '*@*', metric: 'error_rate', op: '<=', value: 0 }] }));
  assert.equal(await runStudy(TOY_STUDY, ['--profile', 'tiny', '--warmup-s', '0', '--runs-dir', join(tmp, 'runs2'), '--no-report', '--thresholds', holds, ...await ports()], io, deps([])), EXIT.ok, out);
  assert.match(out, /8 of 8 check\(s\) held/);

  // compare of two runs of a study that is not registered (runStudy passes it on): one repeat each
  out = '';
  const dir2 = join(tmp, 'runs2', readdirSync(join(tmp, 'runs2'))[0]!);
  assert.equal(await runStudy(TOY_STUDY, ['compare', dir, dir2], io, deps([])), EXIT.ok, out);
  assert.match(out, /4 matched cell\(s\), 16 comparisons: 0 faster, 0 slower, 0 inconclusive, 16 not computable/);

  out = '';
  const bad = join(tmp, 'bad.json');
  writeFileSync(bad, JSON.stringify({ rules: [{ cell: 'vt@6', metric: 'e2e_p95', op: '<=' }] }));
  assert.equal(await runStudy(TOY_STUDY, ['--profile', 'tiny', '--runs-dir', join(tmp, 'runs3'), '--thresholds', bad, ...await ports()], io, deps([])), EXIT.usage, out);
  assert.match(out, /error: --thresholds .*bad\.json: rules\/0 must have required property 'value'/);
  assert.equal(existsSync(join(tmp, 'runs3')), false, 'nothing measured, no run folder');
});
