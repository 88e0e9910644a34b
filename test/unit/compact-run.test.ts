/**
 * Rewriting committed runs in the encoded per-request layout (src/adapters/store/compact-run.ts) and
 * reading both layouts: a committed run in the old layout loads; after compact-run the same folder
 * loads to the same cells and requests and renders the same report; the writer stores new cells
 * encoded and a resumed run accepts them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { loadRun, renderReport } from '../fixtures/registered.ts';
import { compactBytes, compactRun, requestFileNames } from '../../src/adapters/store/compact-run.ts';
import { firstDifference, isEncodedRequests, requestsFromFile } from '../../src/adapters/store/requests-codec.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';

const RUNS = join(import.meta.dirname, '..', '..', 'runs');
/** a committed open-loop run (unsent requests, Server-Timing columns), small enough to render in seconds */
const RUN = '20261201-050041-000-open-loop-quick';

/** Every file of a rendered report folder, path -> bytes. */
function files(dir: string, prefix = ''): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = join(prefix, e.name);
    if (e.isDirectory()) for (const [k, v] of files(dir, rel)) out.set(k, v);
    else out.set(rel, readFileSync(join(dir, rel)));
  }
  return out;
}

test('a committed run in the old layout loads; compacted, it loads to the same cells and requests and renders byte-identical reports', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-compact-'));
  try {
    const dir = join(tmp, RUN);
    cpSync(join(RUNS, RUN), dir, { recursive: true });
    // the committed run is stored encoded since compact-run: write its requests back in the old plain layout
    for (const f of requestFileNames(readdirSync(join(dir, 'cells')))) {
      const path = join(dir, 'cells', f);
      writeFileSync(path, gzipSync(JSON.stringify(requestsFromFile(JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')))), { level: 9 }));
    }
    const before = await loadRun(dir);
    assert.equal(before.requests.size, before.cells.length, 'every cell of the old layout has its requests');
    await renderReport(dir, join(tmp, 'old'), { lang: 'en' });
    await renderReport(dir, join(tmp, 'old'), { lang: 'zh' });

    const done = compactRun(dir);
    assert.deepEqual(done.map((f) => f.outcome), done.map(() => 'rewritten'));
    assert.ok(done.every((f) => f.afterBytes < f.beforeBytes));
    for (const f of requestFileNames(readdirSync(join(dir, 'cells')))) {
      assert.ok(isEncodedRequests(JSON.parse(gunzipSync(readFileSync(join(dir, 'cells', f))).toString('utf8'))), f);
    }
    const after = await loadRun(dir);
    assert.deepEqual(after.gaps, before.gaps);
    assert.deepEqual([...after.requests.keys()], [...before.requests.keys()]);
    for (const [id, req] of before.requests) assert.equal(firstDifference(req, after.requests.get(id)), null, id);
    assert.deepEqual(after.cells, before.cells);
    await renderReport(dir, join(tmp, 'new'), { lang: 'en' });
    await renderReport(dir, join(tmp, 'new'), { lang: 'zh' });
    const [a, b] = [files(join(tmp, 'old')), files(join(tmp, 'new'))];
    assert.deepEqual([...b.keys()].sort(), [...a.keys()].sort());
    for (const [k, v] of a) assert.ok(v.equals(b.get(k)!), `${k} differs`);

    // a second pass changes nothing
    const again = compactRun(dir);
    assert.ok(again.every((f) => f.outcome === 'already encoded' && f.afterBytes === f.beforeBytes));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('compactBytes leaves alone what is not columns, and a file the encoding would not make smaller', () => {
  assert.equal(compactBytes(gzipSync('[1,2,3]')).outcome, 'not columns');
  const tiny = readFileSync(join(RUNS, '20261201-062532-003-seed-003-socket', 'cells', 'virtual-c1000-r1.requests.json.gz'));
  const r = compactBytes(tiny);
  assert.equal(r.outcome, 'not smaller');
  assert.equal(r.bytes, null);
});

test('the writer stores a real cell encoded; the resume check accepts it and it reads back identical', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-compact-'));
  try {
    const src = new RunStore(join(RUNS, '20261201-122539-002-seed-002'));
    const id = src.cellFileIds().find((x) => x.startsWith('ws-')) ?? src.cellFileIds()[0]!;
    const cell = src.readCell(id);
    const req = src.readRequests(id);
    const dst = new RunStore(join(tmp, 'run'));
    dst.init();
    dst.writeCell(cell, req);
    assert.ok(isEncodedRequests(JSON.parse(gunzipSync(readFileSync(dst.requestsPath(id))).toString('utf8'))));
    assert.deepEqual(dst.checkCell(id), []);
    assert.equal(firstDifference(req, dst.readRequests(id)), null);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
