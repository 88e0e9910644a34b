/**
 * Issue 34, defect 9: after `resummarize` skipped a damaged cell the manifest still said
 * `complete`. A run is `complete` only when every planned cell has files that parse and validate
 * (the run's own rule, src/cli/commands/run-session.ts); re-summarizing a run with a damaged cell marks it `failed`,
 * naming the cell, so `--resume` measures it again.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyRunAsCurrent } from '../fixtures/upgrade-run.ts';
import { main, type MainDeps } from '../../src/cli/main.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { capture } from '../fixtures/capture-io.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/run-fixture/', import.meta.url));

test('resummarize of a complete run with a damaged cell: the cell is skipped and the manifest no longer says complete', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-resum-status-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const dir = join(tmp, 'run');
  copyRunAsCurrent(FIXTURE, dir);
  const store = new RunStore(dir);
  assert.equal(store.readManifest().status, 'complete');
  const damaged = store.readManifest().cellOrder[0]!;
  truncateSync(store.cellPath(damaged), 20);
  const out = capture();
  const code = await main(['resummarize', dir], out.io, {} as MainDeps);
  assert.equal(code, 0, out.text());
  assert.match(out.text(), new RegExp(`skipped damaged cell ${damaged}`));
  const m = store.readManifest();
  assert.notEqual(m.status, 'complete');
  assert.equal(m.status, 'failed');
  assert.match(m.error ?? '', new RegExp(`${damaged}.*--resume`));
});

test('resummarize of a complete run whose cells are all sound keeps it complete', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-resum-ok-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const dir = join(tmp, 'run');
  copyRunAsCurrent(FIXTURE, dir);
  const out = capture();
  assert.equal(await main(['resummarize', dir], out.io, {} as MainDeps), 0, out.text());
  assert.equal(new RunStore(dir).readManifest().status, 'complete');
});
