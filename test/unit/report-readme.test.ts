import { loadRun } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildModel } from '../../src/report/model.ts';
import { headlineMarkdown, replaceResults, RESULTS_START, RESULTS_END } from '../../src/report/headline.ts';
import { newestReadmeRun, readmeSource, resultsBlock } from '../../src/cli/readme-results.ts';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { DEFAULT_STUDY, STUDIES, getStudy } from '../../src/studies/index.ts';
import { SCHEMA_VERSION } from '../../src/types/run.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

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

test("README's Results block equals the one generated from the newest committed run of the default study's default profile", async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = readme.slice(readme.indexOf(RESULTS_START) + RESULTS_START.length + 1, readme.indexOf(RESULTS_END) - 1);
  const run = newestReadmeRun(join(ROOT, 'runs'));
  if (run === null) {
    assert.match(block, /no complete .* run committed yet/);
    return;
  }
  assert.equal(block, await resultsBlock(run), 'README.md is stale: run npm run readme:results');
});

test('the README takes the newest complete run of the default study with its first profile (old-format runs, which name no study, included)', () => {
  const def = getStudy(DEFAULT_STUDY);
  assert.deepEqual(readmeSource(), { study: def.id, profile: def.profiles[0]!.name });
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-readme-'));
  try {
    const put = (id: string, manifest: unknown): void => {
      mkdirSync(join(dir, id));
      writeFileSync(join(dir, id, 'manifest.json'), JSON.stringify(manifest));
    };
    const current = (study: string, profile: string, status: string) => ({ schemaVersion: SCHEMA_VERSION, status, options: { study, profile } });
    const profile = def.profiles[0]!.name;
    // the committed run is in the old format: its manifest names no study
    put('1-old', JSON.parse(readFileSync(join(ROOT, 'runs/20261130-100102-seed-000/manifest.json'), 'utf8')));
    assert.equal(newestReadmeRun(dir), join(dir, '1-old'));
    put('2-current', current(def.id, profile, 'complete'));
    put('3-partial', current(def.id, profile, 'partial'));
    put('4-other-profile', current(def.id, 'another-profile', 'complete'));
    put('5-other-study', current('another-study', profile, 'complete'));
    mkdirSync(join(dir, '6-not-a-run'));
    assert.equal(newestReadmeRun(dir), join(dir, '2-current'));
    // another default study: its own first profile
    const toy = { ...def, id: 'toy-readme', profiles: [{ ...def.profiles[0]!, name: 'toy-first' }, ...def.profiles], legacyReaders: undefined };
    assert.equal(newestReadmeRun(dir, [...STUDIES, toy], 'toy-readme'), null);
    put('7-toy', current('toy-readme', 'toy-first', 'complete'));
    assert.equal(newestReadmeRun(dir, [...STUDIES, toy], 'toy-readme'), join(dir, '7-toy'));
    assert.equal(newestReadmeRun(dir), join(dir, '2-current'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("every report the README links exists, with its committed run folder (the README's Results section names them)", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const ids = [...new Set([...readme.matchAll(/\]\(report\/([0-9]{8}-[0-9]{6}-[a-z0-9-]+)\/report\.md\)/g)].map((m) => m[1] as string))];
  assert.ok(ids.length > 0, 'the README links at least one report');
  for (const id of ids) {
    for (const f of [join('report', id, 'report.md'), join('report', id, 'index.html'), join('runs', id, 'manifest.json')]) {
      assert.doesNotThrow(() => readFileSync(join(ROOT, f)), `${f} (linked from README.md) is missing`);
    }
  }
});
