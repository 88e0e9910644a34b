/**
 * A cell is done only when its files parse, validate against schema/ and agree (issue 10 defect 2):
 * RunStore.doneCellIds, damagedCells and setAsideDamaged on a copy of the fixture run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { parseChecked, validate } from '../../src/adapters/store/schema.ts';
import { FIXTURE_DIR } from '../fixtures/upgrade-run.ts';
import { copyRunAsCurrent } from '../fixtures/upgrade-run.ts';
import { VtbenchError, EXIT } from '../../src/types/errors.ts';

function copy(): { dir: string; store: RunStore; done: () => void } {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-check-'));
  const dir = join(tmp, 'run');
  copyRunAsCurrent(FIXTURE_DIR, dir);
  return { dir, store: new RunStore(dir), done: () => rmSync(tmp, { recursive: true, force: true }) };
}

function editRequests(store: RunStore, id: string, edit: (r: Record<string, unknown[]>) => void): void {
  const r = JSON.parse(gunzipSync(readFileSync(store.requestsPath(id))).toString('utf8')) as Record<string, unknown[]>;
  edit(r);
  writeFileSync(store.requestsPath(id), gzipSync(JSON.stringify(r)));
}

test('every cell of the fixture is done; .failed.json, temp and set-aside files are never cells', () => {
  const { store, dir, done } = copy();
  try {
    assert.equal(store.doneCellIds().size, 12);
    writeFileSync(join(dir, 'cells', 'fixed-c200-r1.failed.json'), '{"cause":"SUT died"}');
    writeFileSync(join(dir, 'cells', '.fixed-c32-r1.json.123.tmp'), '{');
    writeFileSync(join(dir, 'cells', 'fixed-c32-r1.json.damaged-20260101T000000Z'), '{');
    assert.equal(store.doneCellIds().size, 12);
    assert.deepEqual(store.damagedCells(), []);
  } finally {
    done();
  }
});

test('a truncated cell file is not done; it is named with why, and set aside', () => {
  const { store, dir, done } = copy();
  try {
    truncateSync(store.cellPath('fixed-c32-r1'), 100);
    assert.equal(store.doneCellIds().has('fixed-c32-r1'), false);
    assert.equal(store.doneCellIds().size, 11);
    const [d] = store.damagedCells();
    assert.equal(d?.cellId, 'fixed-c32-r1');
    assert.match(d!.problems[0]!, /^cells\/fixed-c32-r1\.json: not valid JSON \(/);
    const moved = store.setAsideDamaged(new Date(Date.UTC(2026, 10, 30, 10, 15, 0)));
    assert.deepEqual(moved[0]!.movedTo, ['cells/fixed-c32-r1.json.damaged-20261130T101500Z', 'cells/fixed-c32-r1.requests.json.gz.damaged-20261130T101500Z', 'cells/fixed-c32-r1.samples.json.gz.damaged-20261130T101500Z']);
    assert.ok(existsSync(join(dir, moved[0]!.movedTo[0]!)));
    assert.equal(existsSync(store.cellPath('fixed-c32-r1')), false);
    assert.deepEqual(store.damagedCells(), [], 'nothing damaged left; the cell is simply missing now');
    // readDoneCells (used for summary.json) never reads it
    assert.equal(store.readDoneCells(store.readManifest().cellOrder).length, 11);
  } finally {
    done();
  }
});

test('one non-numeric latency in a requests file: the cell is not done, and the problem names file and JSON path', () => {
  const { store, done } = copy();
  try {
    editRequests(store, 'virtual-c16-r2', (r) => { r['e2eMs']![17] = 'fast'; });
    assert.equal(store.doneCellIds().has('virtual-c16-r2'), false);
    assert.deepEqual(store.checkCell('virtual-c16-r2'), ['cells/virtual-c16-r2.requests.json.gz: /e2eMs/17 must be number']);
  } finally {
    done();
  }
});

test('requests whose columns disagree, or whose count differs from the cell, are damaged', () => {
  const { store, done } = copy();
  try {
    editRequests(store, 'fixed-c16-r1', (r) => { r['queueMs']!.pop(); });
    assert.match(store.checkCell('fixed-c16-r1')[0]!, /requests\.json\.gz: \/queueMs has 63 entries, \/worker has 64/);
    editRequests(store, 'fixed-c16-r2', (r) => { for (const k of Object.keys(r)) r[k]!.pop(); });
    assert.match(store.checkCell('fixed-c16-r2')[0]!, /holds 63 requests, cells\/fixed-c16-r2\.json \/load\/count says 64/);
    // a cell file that is valid JSON but a string where a number belongs
    const cell = JSON.parse(readFileSync(store.cellPath('virtual-c4-r1'), 'utf8'));
    cell.load.ok = '40';
    writeFileSync(store.cellPath('virtual-c4-r1'), JSON.stringify(cell));
    assert.deepEqual(store.checkCell('virtual-c4-r1'), ['cells/virtual-c4-r1.json: /load/ok must be number']);
    assert.equal(store.doneCellIds().size, 9);
  } finally {
    done();
  }
});

test('a cell written by RunStore (samples in their own file): a damaged samples file makes it not done', () => {
  const { store, done } = copy();
  try {
    const id = 'virtual-c32-r1';
    const cell = store.readCell(id);
    store.writeCell(cell, store.readRequests(id));
    assert.equal(typeof store.readCellFile(id).samplesFile, 'string');
    assert.deepEqual(store.checkCell(id), []);
    truncateSync(store.samplesPath(id), 10);
    assert.match(store.checkCell(id)[0]!, /^cells\/virtual-c32-r1\.samples\.json\.gz: not valid gzip/);
    const moved = store.setAsideDamaged();
    assert.equal(moved[0]!.movedTo.length, 3, 'cell, requests and samples kept aside together');
    assert.equal(readdirSync(join(store.dir, 'cells')).filter((f) => f.startsWith(`${id}.`) && !f.includes('.damaged-')).length, 0);
  } finally {
    done();
  }
});

test('parseChecked: at most three schema errors per file, then a count; per-request files stop at the first error', () => {
  const { dir, done } = copy();
  const cell = JSON.parse(readFileSync(join(dir, 'cells', 'fixed-c32-r1.json'), 'utf8'));
  done();
  Object.assign(cell.load, { ok: 'a', count: 'b', concurrency: 'c', requestsPerWorker: 'd', peakInFlight: 'e' });
  const r = parseChecked('CellFile', 'x.json', Buffer.from(JSON.stringify(cell)), false);
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.problems.length, 4);
  assert.equal(!r.ok && r.problems[3], 'x.json: … and 2 more schema error(s)');
  const bad = { worker: Array.from({ length: 100_000 }, () => 'a'), seq: [], startMs: [], e2eMs: [], status: [], error: [], queueMs: [], execMs: [] };
  assert.deepEqual(validate('CompactRequests', bad), ['/worker/0 must be number']);
});

test('readManifest validates: a truncated or invalid manifest is a VtbenchError (exit 7) naming the file and path', () => {
  const { store, done } = copy();
  try {
    const text = readFileSync(store.manifestPath, 'utf8');
    writeFileSync(store.manifestPath, text.slice(0, 40));
    assert.throws(() => store.readManifest(), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.runData && /manifest\.json: not valid JSON/.test(e.message));
    const m = JSON.parse(text);
    m.cellOrder = 'all';
    writeFileSync(store.manifestPath, JSON.stringify(m));
    assert.throws(() => store.readManifest(), (e: unknown) => e instanceof VtbenchError && /manifest\.json: \/cellOrder must be array/.test(e.message));
  } finally {
    done();
  }
});
