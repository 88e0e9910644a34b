// The "before" measurement: the same mutants (MUTATE of stryker.config.mjs) against the tests that
// existed before test/unit/ — for each module, the files under test/ that import it and run
// in-process (tsx, not bundled: these tests find fixtures from their own import.meta.url). Left out:
// tests that start processes or servers and take minutes (compare-cli and compare-shift import
// compare/model.ts, cpu-sampler and study-002-e2e import theory/cell-bounds.ts, k8s-multihost and
// load-shards import stats/percentiles.ts, pipeline-toy and toy-study import theory/bounds.ts).
//
//   MUTATE_ONLY=src/compare/welch.ts npx stryker run stryker.before.config.mjs
//
// runs one module against its own tests (report: reports/mutation-before/<module>/); without
// MUTATE_ONLY every module against all of these files.
import base, { MUTATE } from './stryker.config.mjs';

/** module → the existing in-process test files that import it */
const EXISTING = {
  'src/stats/aggregate.ts': ['test/report-notebook.test.ts'],
  'src/stats/extremes.ts': [],
  'src/stats/percentiles.ts': ['test/stats-percentiles.test.ts', 'test/report-theory.test.ts', 'test/ws-capacity.test.ts'],
  'src/theory/bounds.ts': ['test/report-theory.test.ts'],
  'src/theory/cell-bounds.ts': ['test/study-002.test.ts'],
  'src/theory/open-loop.ts': ['test/open-loop-theory.test.ts'],
  'src/compare/welch.ts': ['test/compare-stats.test.ts'],
  'src/compare/tdist.ts': ['test/compare-stats.test.ts'],
  'src/compare/model.ts': [],
  'src/analysis/knee.ts': ['test/knee.test.ts'],
  'src/analysis/queue-growth.ts': ['test/open-loop-theory.test.ts'],
  'src/load/server-timing.ts': ['test/load-server-timing.test.ts'],
  'src/thresholds/rules.ts:68-176': ['test/thresholds.test.ts'],
};
if (Object.keys(EXISTING).sort().join() !== [...MUTATE].sort().join()) throw new Error('stryker.before.config.mjs: EXISTING must list exactly the MUTATE entries');

const only = process.env.MUTATE_ONLY;
const mutate = only ? MUTATE.filter((m) => m === only) : MUTATE;
if (mutate.length === 0) throw new Error(`MUTATE_ONLY=${only}: not an entry of MUTATE`);
const testFiles = [...new Set(mutate.flatMap((m) => EXISTING[m]))];
// stats/extremes.ts and compare/model.ts: no existing in-process test imports them, every mutant is
// "no coverage" (their mutant counts are those of the unit-test run)
if (testFiles.length === 0) throw new Error(`MUTATE_ONLY=${only}: no existing in-process test imports it`);
const dir = `reports/mutation-before/${only ? only.replace(/[^A-Za-z0-9.-]+/g, '_') : 'all'}`;

export default {
  ...base,
  mutate,
  buildCommand: undefined,
  // test/thresholds.test.ts reads a recorded run under runs/
  ignorePatterns: ['sut', '/report', '.mutation-build', '.stryker-tmp'],
  timeoutMS: 60000,
  tap: { ...base.tap, testFiles, nodeArgs: ['--import', 'tsx'] },
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `${dir}/mutation.json` },
  tempDirName: '.stryker-tmp-before',
};
