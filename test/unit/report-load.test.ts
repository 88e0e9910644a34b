import { loadRun, renderReport } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, unlinkSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';

import { buildSummary } from '../../src/compute/analysis/summary.ts';

import { EXIT, VtbenchError } from '../../src/types/errors.ts';
import { FIXTURE_DIR } from '../fixtures/report-helpers.ts';
import { withoutProvenance } from '../fixtures/report-helpers.ts';

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
    const md = withoutProvenance(readFileSync(join(r.outDir, 'report.md'), 'utf8'));
    assert.match(md, /summary\.json is missing; the summary was recomputed from the cells/);
    assert.match(md, /3 of 12 planned cells have no result/);
    assert.match(md, /9 of 12 cells/);
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
});

test('a run with only one variant reports it and says that the comparison is missing', async () => {
  const dir = tmpCopy();
  const out = mkdtempSync(join(tmpdir(), 'vtbench-out-'));
  try {
    unlinkSync(join(dir, 'summary.json'));
    for (const c of [4, 16, 32]) for (const r of [1, 2]) {
      unlinkSync(join(dir, 'cells', `virtual-c${c}-r${r}.json`));
    }
    const res = await renderReport(dir, out, { lang: 'zh' });
    assert.ok(res.gaps.some((g) => /only one variant/.test(g)));
    const md = withoutProvenance(readFileSync(join(res.outDir, 'report.md'), 'utf8'));
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

// ---- validation against schema/ on read (issue 10, defect 3) ----

function editGzJson(path: string, edit: (v: Record<string, unknown[]>) => void): void {
  const v = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as Record<string, unknown[]>;
  edit(v);
  writeFileSync(path, gzipSync(JSON.stringify(v)));
}

test('one non-numeric latency in a requests file: the report renders, that cell listed as a gap naming the file and the JSON path', async () => {
  const dir = tmpCopy();
  const out = mkdtempSync(join(tmpdir(), 'vtbench-out-'));
  try {
    editGzJson(join(dir, 'cells', 'fixed-c32-r1.requests.json.gz'), (r) => { r['e2eMs']![17] = 'NaN'; });
    const r = await renderReport(dir, out, { lang: 'en' });
    const gap = 'per-request data of fixed-c32-r1: cells/fixed-c32-r1.requests.json.gz: /e2eMs/17 must be number; pooled percentiles and the latency distribution omit it';
    assert.ok(r.gaps.includes(gap), r.gaps.join('\n'));
    assert.ok(r.gaps.some((g) => /summary was recomputed from the usable cells and requests/.test(g)));
    const md = withoutProvenance(readFileSync(join(r.outDir, 'report.md'), 'utf8'));
    assert.ok(md.includes('cells/fixed-c32-r1.requests.json.gz: /e2eMs/17 must be number'), 'the gap is in the report');
    const run = await loadRun(dir);
    assert.equal(run.cells.length, 12, 'the cell itself (its load summary) is still a result');
    assert.equal(run.requests.has('fixed-c32-r1'), false);
    assert.equal(run.summary.rows.find((x) => x.variant === 'fixed' && x.concurrency === 32)!.pooled.e2eMs, null, 'no pooled figure over unusable data');
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
});

test('a string where a number belongs in a cell file: the cell is left out as a named gap, the rest renders', async () => {
  const dir = tmpCopy();
  const out = mkdtempSync(join(tmpdir(), 'vtbench-out-'));
  try {
    const p = join(dir, 'cells', 'virtual-c16-r2.json');
    const cell = JSON.parse(readFileSync(p, 'utf8'));
    cell.load.wholeRunThroughputRps = 'xyzzy-rps';
    writeFileSync(p, JSON.stringify(cell));
    const r = await renderReport(dir, out, { lang: 'en' });
    assert.ok(r.gaps.includes('cells/virtual-c16-r2.json: /load/wholeRunThroughputRps must be number,null; the cell is left out'), r.gaps.join('\n'));
    assert.ok(r.gaps.some((g) => /1 of 12 planned cells have no result: virtual-c16-r2/.test(g)));
    const md = withoutProvenance(readFileSync(join(r.outDir, 'report.md'), 'utf8'));
    assert.doesNotMatch(md, /xyzzy/);
    assert.match(md, /11 of 12 cells/);
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
});

test('failed cells (manifest.failedCells) are gaps with their cause; a .failed.json file is never read as a result', async () => {
  const dir = tmpCopy();
  try {
    const id = 'fixed-c32-r2';
    writeFileSync(join(dir, 'cells', `${id}.failed.json`), readFileSync(join(dir, 'cells', `${id}.json`)));
    unlinkSync(join(dir, 'cells', `${id}.json`));
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    m.failedCells = [{ cellId: id, cause: 'the SUT (pid 4242) died during the cell', atIso: '2030-01-01T00:10:00.000Z' }];
    m.status = 'failed';
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    const run = await loadRun(dir);
    assert.equal(run.cells.some((c) => c.cellId === id), false);
    assert.ok(run.gaps.includes(`cell ${id} failed (2030-01-01T00:10:00.000Z): the SUT (pid 4242) died during the cell; it is not a result`), run.gaps.join('\n'));
    // an entry whose cell has a valid result after all (stopped between writing it and clearing the
    // entry): the result is used and said so; an entry naming no planned cell is an inconsistency
    writeFileSync(join(dir, 'cells', `${id}.json`), readFileSync(join(dir, 'cells', `${id}.failed.json`)));
    m.failedCells.push({ cellId: 'virtual-c999-r9', cause: 'x', atIso: '2030-01-01T00:11:00.000Z' });
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    const again = await loadRun(dir);
    assert.equal(again.cells.some((c) => c.cellId === id), true);
    assert.ok(again.gaps.includes(`cell ${id} failed (2030-01-01T00:10:00.000Z: the SUT (pid 4242) died during the cell) and was measured anew; the valid result is used`), again.gaps.join('\n'));
    assert.ok(!again.gaps.some((g) => g.includes(`${id}`) && g.includes('it is not a result')));
    assert.ok(again.gaps.some((g) => g.startsWith('manifest.json lists a failed cell virtual-c999-r9 that is not in the plan')));
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
});

test('an invalid summary.json is recomputed with a gap; an invalid manifest is refused naming the JSON path', async () => {
  const dir = tmpCopy();
  try {
    const s = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    s.rows[0].boundRps = '6.67';
    writeFileSync(join(dir, 'summary.json'), JSON.stringify(s));
    const run = await loadRun(dir);
    assert.equal(run.summarySource, 'recomputed');
    assert.ok(run.gaps.some((g) => g.startsWith('summary.json: /rows/0/boundRps must be number')), run.gaps.join('\n'));
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    m.options.latencyMs = '1500';
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
    await assert.rejects(loadRun(dir), isRunDataError(/manifest\.json: \/options\/latencyMs must be number/));
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
});

test('the committed run validates against schema/ on read: no gaps', { timeout: 60_000 }, async () => {
  const run = await loadRun(fileURLToPath(new URL('../../runs/20261130-100102-seed-000/', import.meta.url)));
  assert.deepEqual(run.gaps, []);
  assert.equal(run.cells.length, 30);
  assert.equal(run.requests.size, 30);
  assert.ok(run.cells.every((c) => c.samples.length > 0));
});

test('with planned cells missing, the setup totals are "not testable here" (incomplete), never a failed setup identity', async () => {
  const { buildModel } = await import('../../src/report/model.ts');
  const committed = join(FIXTURE_DIR, '..', '..', '..', 'runs', '20261130-100102-seed-000');
  const dir = join(mkdtempSync(join(tmpdir(), 'vtbench-missing-')), 'run');
  try {
    cpSync(committed, dir, { recursive: true });
    const whole = buildModel(await loadRun(dir)).published.find((p) => p.id === 'setup.totalRequests')!;
    assert.equal(whole.verdict, 'reproduced', 'the committed run: every planned request is there');
    unlinkSync(join(dir, 'cells', 'fixed-c10-r2.json'));
    const m = buildModel(await loadRun(dir));
    for (const id of ['setup.totalRequests', 'setup.failedRequests']) {
      const row = m.published.find((p) => p.id === id)!;
      assert.equal(row.verdict, 'not testable here', id);
      assert.deepEqual(row.reasons, [{ key: 'cellsMissing', v: { n: 1, of: 30 } }], id);
    }
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
});
