/**
 * The encoded per-request layout (src/adapters/store/requests-codec.ts): real cells of every committed
 * run come back identical (every value, Object.is; keys in order), the choice of prediction is real,
 * and an inconsistent encoded file is refused instead of read wrong.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decodeRequests, encodeRequests, exactScale, firstDifference, isEncodedRequests, requestsFromFile, storedRequests, type EncodedRequests } from '../../src/adapters/store/requests-codec.ts';

const RUNS = join(import.meta.dirname, '..', '..', 'runs');

/** Per committed run: its per-request files of at most 120 KB on disk, at most 6 (keeps the test to seconds). */
function realFiles(): string[] {
  const out: string[] = [];
  for (const run of readdirSync(RUNS).sort()) {
    const cells = join(RUNS, run, 'cells');
    const small = readdirSync(cells).filter((f) => f.endsWith('.requests.json.gz') && statSync(join(cells, f)).size <= 120_000).sort();
    out.push(...small.slice(0, 6).map((f) => join(cells, f)));
  }
  return out;
}

const parse = (path: string): unknown => JSON.parse(gunzipSync(readFileSync(path)).toString('utf8'));
/** A committed requests file's columns (decoded when it is stored encoded, as the committed runs are since compact-run). */
const read = (path: string): Record<string, unknown> => requestsFromFile(parse(path)) as Record<string, unknown>;
/** Through JSON text, as a file would carry it. */
const viaJson = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

test('real cells of every committed run decode to exactly what was encoded (every value, key order)', () => {
  const files = realFiles();
  const runs = new Set(files.map((f) => f.split('/').slice(-3)[0]));
  assert.equal(runs.size, readdirSync(RUNS).length, 'every committed run contributes cells');
  let coded = 0;
  for (const f of files) {
    const original = read(f);
    const e = encodeRequests(original);
    assert.ok(e !== null, f);
    const back = decodeRequests(viaJson(e));
    assert.equal(firstDifference(original, back), null, f);
    assert.equal(JSON.stringify(back), JSON.stringify(original), f);
    coded += e.groups.flatMap((g) => g.columns).filter((c) => 'pred' in c).length;
  }
  assert.ok(coded > files.length * 3, `most columns are coded, not raw (${coded} coded columns in ${files.length} files)`);
});

test('the large cells of study 002 (timing columns, WebSocket messages) come back identical and smaller', () => {
  const dir = join(RUNS, '20261201-205110-002-seed-002', 'cells');
  for (const name of ['db10-pool-200-c100-r1', 'ws-virtual-c1000-r1']) {
    const path = join(dir, `${name}.requests.json.gz`);
    const original = read(path);
    const stored = storedRequests(original);
    assert.ok(isEncodedRequests(stored), `${name} is stored encoded`);
    assert.equal(firstDifference(original, requestsFromFile(viaJson(stored))), null, name);
    assert.ok(JSON.stringify(stored).length < JSON.stringify(original).length, name);
  }
});

test('closed loop: seq is stored as its difference from the index within the worker (all zero), intended start from the previous end', () => {
  const original = read(join(RUNS, '20261201-205110-002-seed-002', 'cells', 'db10-pool-200-c100-r1.requests.json.gz'));
  const cols = new Map(encodeRequests(original)!.groups[0]!.columns.map((c) => [c.path, c] as const));
  const seq = cols.get('seq')!;
  assert.ok('pred' in seq);
  assert.deepEqual(seq.pred, ['keyCount', 'worker']);
  assert.ok(seq.v.every((x) => x === 0));
  const intended = cols.get('intendedStartMs')!;
  assert.ok('pred' in intended && intended.pred[0] === 'keyPrevEnd' && intended.scale === 1000);
});

test('exactScale: integers at 1, ms with up to 3 decimals at 1000, anything else (or -0, strings) none', () => {
  assert.equal(exactScale([1, 2, null, 300000]), 1);
  assert.equal(exactScale([45.662, 0.001, null, 12]), 1000);
  assert.equal(exactScale([0.1 + 0.2]), null);
  assert.equal(exactScale([1.0005]), null);
  assert.equal(exactScale([-0]), null);
  assert.equal(exactScale(['']), null);
});

test('a column no integer scale holds exactly is stored raw, and still comes back identical', () => {
  const original = { worker: [0, 1, 0], seq: [0, 0, 1], startMs: [0.1 + 0.2, 1.5, 2.25], e2eMs: [1, 2, 3], status: [200, 200, 0], error: ['', '', 'timeout'] };
  const e = encodeRequests(original)!;
  const start = e.groups[0]!.columns.find((c) => c.path === 'startMs')!;
  assert.ok('raw' in start);
  assert.equal(firstDifference(original, decodeRequests(viaJson(e))), null);
});

test('a file whose keys a path cannot carry, or whose columns differ in length, is not encoded (stored as it is)', () => {
  assert.equal(encodeRequests({ e2eMs: [1], timingMs: { 'a/b': [1] } }), null);
  assert.equal(encodeRequests({ e2eMs: [1, 2], startMs: [1] }), null);
  assert.equal(encodeRequests({ e2eMs: [1], note: 'x' }), null);
  const plain = { e2eMs: [1, 2], startMs: [1] };
  assert.equal(storedRequests(plain), plain);
});

test('firstDifference names the first differing value, length, key or key order; null only when identical', () => {
  assert.equal(firstDifference({ a: [1, 2.5] }, { a: [1, 2.5] }), null);
  assert.equal(firstDifference({ a: [1, 2.5] }, { a: [1, 2.499] }), '/a/1: 2.5 vs 2.499');
  assert.equal(firstDifference({ a: [1] }, { a: [1, 2] }), '/a: 1 vs 2 values');
  assert.equal(firstDifference({ a: [0] }, { a: [-0] }), '/a/0: 0 vs 0');
  assert.equal(firstDifference({ a: [], b: [] }, { b: [], a: [] }), '/: keys a,b vs b,a');
  assert.equal(firstDifference({ t: { db: [null] } }, { t: { db: [0] } }), '/t/db/0: null vs 0');
});

test('an inconsistent encoded file is refused: a wrong length, a same-row reference decoded later, an unknown prediction', () => {
  const base = (): EncodedRequests => viaJson(encodeRequests(read(join(RUNS, '20261201-050041-000-open-loop-quick', 'cells', 'fixed-rate15-r1.requests.json.gz')))!);
  const shorter = base();
  const c0 = shorter.groups[0]!.columns.find((c) => 'pred' in c)!;
  if ('v' in c0) c0.v.pop();
  assert.throws(() => decodeRequests(shorter), /has \d+ values, its group \d+/);
  const swapped = base();
  swapped.groups[0]!.columns.reverse();
  const refers = swapped.groups[0]!.columns.some((c) => 'pred' in c && (c.pred[0] === 'ref' || c.pred[0] === 'endDelta'));
  if (refers) assert.throws(() => decodeRequests(swapped), /not decoded before it/);
  const unknown = base();
  const c1 = unknown.groups[0]!.columns.find((c) => 'pred' in c)!;
  if ('pred' in c1) (c1 as { pred: unknown }).pred = ['guess'];
  assert.throws(() => decodeRequests(unknown), /unknown prediction/);
});

test('a file in the old layout is read as it is', () => {
  // an in-process cell's one-request file: encoding would not make it smaller, so it stays plain
  const original = parse(join(RUNS, '20261201-061659-003-seed-003', 'cells', 'virtual-c10000-r1.requests.json.gz'));
  assert.equal(isEncodedRequests(original), false);
  assert.equal(requestsFromFile(original), original);
});
