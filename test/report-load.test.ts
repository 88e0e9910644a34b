import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, unlinkSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRun } from '../src/report/load.ts';
import { buildSummary } from '../src/store/summary.ts';
import { renderReport } from '../src/report/index.ts';
import { EXIT, VtbenchError } from '../src/cli/errors.ts';
import { FIXTURE_DIR } from './fixtures/report-helpers.ts';

function tmpCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-run-'));
  cpSync(FIXTURE_DIR, join(dir, 'run'), { recursive: true });
  return join(dir, 'run');
}
const isRunDataError = (re: RegExp) => (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.runData && re.test(e.message) && e.hint.length > 0;

test('the fixture loads complete: 12 cells, no gaps, and summary.json equals the summary rebuilt from the cells', async () => {
  const run = await loadRun(FIXTURE_DIR);
  assert.equal(run.cells.length, 12);
  assert.deepEqual(run.gaps, []);
  assert.equal(run.summarySource, 'file');
  assert.equal(run.manifest.runId, 'run-fixture');
  assert.deepEqual(JSON.parse(JSON.stringify(buildSummary(run.manifest, run.cells, run.requests))), run.summary);
});

test('a partial run (cells missing, no summary.json, a request file missing) still gives a report with the gaps stated', async () => {
  const dir = tmpCopy();
  const out = mkdtempSync(join(tmpdir(), 'vtbench-out-'));
  try {
    unlinkSync(join(dir, 'summary.json'));
    for (const id of ['fixed-c32-r2', 'virtual-c32-r2', 'virtual-c16-r1']) {
      unlinkSync(join(dir, 'cells', `${id}.json`));
      unlinkSync(join(dir, 'cells', `${id}.requests.json.gz`));
    }
    unlinkSync(join(dir, 'cells', 'fixed-c4-r1.requests.json.gz'));
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    m.status = 'interrupted';
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    const r = await renderReport(dir, out, { lang: 'en' });
    assert.ok(r.gaps.some((g) => /summary\.json is missing/.test(g)));
    assert.ok(r.gaps.some((g) => /3 of 12 planned cells have no result: virtual-c16-r1, virtual-c32-r2, fixed-c32-r2/.test(g)));
    assert.ok(r.gaps.some((g) => /fixed-c4-r1/.test(g)));
    assert.ok(r.gaps.some((g) => /interrupted/.test(g)));
    const md = readFileSync(join(r.outDir, 'report.md'), 'utf8');
    assert.match(md, /summary\.json is missing; the summary was recomputed from the cells/);
    assert.match(md, /3 of 12 planned cells have no result/);
    assert.match(md, /9 of 12 cells/);
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
});

test('a run with only one mode reports it and says that the comparison is missing', async () => {
  const dir = tmpCopy();
  const out = mkdtempSync(join(tmpdir(), 'vtbench-out-'));
  try {
    unlinkSync(join(dir, 'summary.json'));
    for (const c of [4, 16, 32]) for (const r of [1, 2]) {
      unlinkSync(join(dir, 'cells', `virtual-c${c}-r${r}.json`));
    }
    const res = await renderReport(dir, out, { lang: 'zh' });
    assert.ok(res.gaps.some((g) => /only one mode/.test(g)));
    const md = readFileSync(join(res.outDir, 'report.md'), 'utf8');
    assert.match(md, /没有任何档位同时具有两种模式的结果/);
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
});

test('unknown schema versions, a missing folder, a missing manifest or no cells → one VtbenchError (exit 7)', async () => {
  const dir = tmpCopy();
  try {
    await assert.rejects(loadRun(join(dir, 'nope')), isRunDataError(/run folder not found/));
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...m, schemaVersion: 99 }));
    await assert.rejects(loadRun(dir), isRunDataError(/manifest\.json has schemaVersion 99/));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    const cellPath = join(dir, 'cells', 'fixed-c4-r1.json');
    const cell = JSON.parse(readFileSync(cellPath, 'utf8'));
    writeFileSync(cellPath, JSON.stringify({ ...cell, schemaVersion: 2 }));
    await assert.rejects(loadRun(dir), isRunDataError(/cells\/fixed-c4-r1\.json has schemaVersion 2/));
    rmSync(join(dir, 'cells'), { recursive: true });
    mkdirSync(join(dir, 'cells'));
    await assert.rejects(loadRun(dir), isRunDataError(/no usable cell results/));
    unlinkSync(join(dir, 'manifest.json'));
    await assert.rejects(loadRun(dir), isRunDataError(/manifest\.json is missing/));
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
});
