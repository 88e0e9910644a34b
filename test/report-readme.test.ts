import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRun } from '../src/report/load.ts';
import { buildModel } from '../src/report/model.ts';
import { headlineMarkdown, replaceResults, RESULTS_START, RESULTS_END } from '../src/report/headline.ts';
import { newestCompleteSeedRun, resultsBlock } from '../src/report/readme-results.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

test('headline table of the fixture: one row per mode and level, % of bound from the data', async () => {
  const model = buildModel(await loadRun(join(ROOT, 'test/fixtures/run-fixture')));
  const md = headlineMarkdown(model, 'report/x');
  const rows = md.split('\n').filter((l) => /^\| (fixed-|virtual)/.test(l));
  assert.equal(rows.length, model.rows.length);
  const r = model.rows.find((x) => x.variant === 'fixed' && x.concurrency === 32)!;
  const expectedPct = ((r.wholeRunRps.median! / r.boundRps) * 100).toFixed(1);
  assert.ok(rows.some((l) => l.startsWith('| fixed-') && l.includes('| 32 |') && l.includes(`${expectedPct} %`)), md);
  assert.match(md, /\(report\/x\/report\.md\)/);
});

test('replaceResults swaps only the marked block and refuses a README without markers', () => {
  const doc = `a\n${RESULTS_START}\nold\n${RESULTS_END}\nb\n`;
  assert.equal(replaceResults(doc, 'new'), `a\n${RESULTS_START}\nnew\n${RESULTS_END}\nb\n`);
  assert.throws(() => replaceResults('no markers', 'x'));
});

test("README's Results block equals the one generated from the newest committed seed-000 run", async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = readme.slice(readme.indexOf(RESULTS_START) + RESULTS_START.length + 1, readme.indexOf(RESULTS_END) - 1);
  const run = newestCompleteSeedRun(join(ROOT, 'runs'));
  if (run === null) {
    assert.match(block, /no complete seed-000 run committed yet/);
    return;
  }
  assert.equal(block, await resultsBlock(run), 'README.md is stale: run npm run readme:results');
});
