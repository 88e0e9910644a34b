import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyRunAsCurrent } from '../fixtures/upgrade-run.ts';
import { fileURLToPath } from 'node:url';
import { resummarizeRun, expandRequests } from '../../src/pipeline/resummarize.ts';
import { RunStore, compactRequests } from '../../src/adapters/store/run-store.ts';
import { validate } from '../../src/adapters/store/schema.ts';
import type { RequestRecord } from '../../src/types/load.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/run-fixture/', import.meta.url));

test('expandRequests inverts compactRequests (to the stored µs)', () => {
  const recs: RequestRecord[] = [
    { worker: 1, seq: 0, intendedStartMs: 0, startMs: 2.5, endMs: 12.75, e2eMs: 10.25, status: 200, errorClass: null, serverTiming: { queue: 0.5, exec: 9 } },
    { worker: 0, seq: 1, intendedStartMs: 0, startMs: 3, endMs: 4, e2eMs: 1, status: null, errorClass: 'reset', serverTiming: {} },
  ];
  // schema 3 stores the intended start: it comes back as recorded
  assert.deepEqual(expandRequests(compactRequests(recs)), recs);
  // schema 2 did not: without a schedule it is the actual start (no send delay known)
  const { intendedStartMs: _i, ...v2 } = compactRequests(recs);
  assert.deepEqual(expandRequests(v2), recs.map((r) => ({ ...r, intendedStartMs: r.startMs })));
});

test('resummarize re-derives summaries from the raw data, leaves the raw data alone, and notes it in the manifest', (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-resum-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const dir = join(tmp, 'run');
  copyRunAsCurrent(FIXTURE, dir);
  const store = new RunStore(dir);
  const before = store.readManifest().cellOrder.filter((id) => store.doneCellIds().has(id)).map((id) => store.readCell(id));
  const rawBefore = readFileSync(store.requestsPath(before[0]!.cellId));
  const ids = resummarizeRun(dir);
  assert.equal(ids.length, before.length);
  for (const b of before) {
    const a = store.readCell(b.cellId);
    assert.equal(a.load.count, b.load.count);
    assert.ok(Math.abs(a.load.wholeRunThroughputRps! - b.load.wholeRunThroughputRps!) < 1e-3 * b.load.wholeRunThroughputRps!, b.cellId);
    assert.deepEqual(validate('CellFile', store.readCellFile(b.cellId)), [], b.cellId);
  }
  assert.deepEqual(readFileSync(store.requestsPath(before[0]!.cellId)), rawBefore);
  assert.equal(store.readManifest().notes?.length, 1);
});
