/**
 * The study's own check of a stored job answer on read (src/report/load.ts checkJobAnswers): the
 * run's JSON Schema holds study 003's sweep level only as "an object", so a damaged level must be
 * left out here, with a gap, as it was when the schema described it.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkJobAnswers } from '../../src/report/load.ts';
import { STUDY_003 } from '../../src/studies/003/index.ts';
import type { CellResult, RunManifest } from '../../src/types/run.ts';

const RUN = join(import.meta.dirname, '..', '..', 'runs', '20261201-061659-003-seed-003');
const manifest = JSON.parse(readFileSync(join(RUN, 'manifest.json'), 'utf8')) as RunManifest;
const cells = readdirSync(join(RUN, 'cells')).filter((f) => /^[^.]+\.json$/.test(f)).map((f) => JSON.parse(readFileSync(join(RUN, 'cells', f), 'utf8')) as CellResult);

test('the committed sweep levels pass their study\'s check on read, with no gap', () => {
  assert.ok(cells.length > 0 && cells.every((c) => c.sweep !== undefined));
  const gaps: string[] = [];
  assert.equal(checkJobAnswers(STUDY_003, manifest, cells, gaps).length, cells.length);
  assert.deepEqual(gaps, []);
});

test('a damaged sweep level (threads not the level asked for, an ok level without its throughput) is left out with a gap', () => {
  const [first, second, ...rest] = cells;
  const wrongThreads = { ...first!, sweep: { ...first!.sweep!, threads: 7 } };
  const noThroughput = { ...second!, sweep: { ...second!.sweep!, outcome: 'ok', throughputOpsPerS: null } };
  const gaps: string[] = [];
  const kept = checkJobAnswers(STUDY_003, manifest, [wrongThreads, noThroughput, ...rest], gaps);
  assert.equal(kept.length, rest.length);
  assert.equal(gaps.length, 2);
  assert.match(gaps[0]!, new RegExp(`cells/${first!.cellId}\\.json: the study refuses its stored job answer \\(the level ran 7 threads, ${first!.concurrency} were asked for\\); the cell is left out`));
  assert.match(gaps[1]!, /an ok level has throughputOpsPerS = null/);
});

test('a cell whose job cannot be rebuilt is kept, with a gap saying its answer was not checked', () => {
  const stray = { ...cells[0]!, variant: 'not-a-variant' };
  const gaps: string[] = [];
  assert.equal(checkJobAnswers(STUDY_003, manifest, [stray], gaps).length, 1);
  assert.match(gaps[0]!, /its job answer was not checked \(the study has no job with a check for variant not-a-variant/);
});
