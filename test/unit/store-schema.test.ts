import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSchema } from '../../src/cli/gen-schema.ts';
import { SCHEMA_DIR, SCHEMA_FILES, validate } from '../../src/adapters/store/schema.ts';
import { compactRequests } from '../../src/adapters/store/run-store.ts';

test('committed schema/*.schema.json equal a fresh generation from src/types/run.ts (run npm run schema)', () => {
  for (const [type, file] of Object.entries(SCHEMA_FILES)) {
    assert.equal(readFileSync(join(SCHEMA_DIR, file), 'utf8'), generateSchema(type), `schema/${file} is stale: run npm run schema`);
  }
});

test('compactRequests output validates; a wrong type is reported with its path', () => {
  const req = compactRequests([
    { worker: 0, seq: 0, intendedStartMs: 0, startMs: 0.0004, endMs: 10.12345, e2eMs: 10.12305, status: 200, errorClass: null, serverTiming: { queue: 0.0124, exec: 10 } },
    { worker: 1, seq: 0, intendedStartMs: 0, startMs: 1, endMs: 2, e2eMs: 1, status: null, errorClass: 'reset', serverTiming: {} },
  ]);
  assert.deepEqual(req.e2eMs, [10.123, 1]);
  assert.deepEqual(req.queueMs, [0.012, null]);
  assert.deepEqual(req.status, [200, 0]);
  assert.deepEqual(req.error, ['', 'reset']);
  assert.deepEqual(validate('CompactRequests', req), []);
  const bad = { ...req, e2eMs: ['x'] };
  assert.ok(validate('CompactRequests', bad).some((e) => e.startsWith('/e2eMs/0')));
});
