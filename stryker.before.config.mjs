// The "before" measurement: the same mutants (MUTATE of stryker.config.mjs) against the tests that
// existed before test/unit/ — for each module, the files under test/ that import it and run
// in-process (tsx, not bundled: these tests find fixtures from their own import.meta.url). Left out:
// tests that start processes or servers and take minutes (compare-cli and compare-shift import
// compare/model.ts, cpu-sampler and study-002-e2e import theory/cell-bounds.ts, k8s-multihost and
// load-shards import stats/percentiles.ts, pipeline-toy and toy-study import theory/bounds.ts).
//
//   MUTATE_ONLY=src/compute/stats/welch.ts npx stryker run stryker.before.config.mjs
//
// runs one module against its own tests (report: reports/mutation-before/<module>/); without
// MUTATE_ONLY every module against all of these files.
import base, { MUTATE } from './stryker.config.mjs';

/** module → the existing in-process test files that import it */
const EXISTING = {
  'src/compute/stats/aggregate.ts': ['test/unit/report-notebook.test.ts'],
  'src/compute/stats/extremes.ts': [],
  'src/compute/stats/percentiles.ts': ['test/unit/stats-percentiles.test.ts', 'test/unit/report-theory.test.ts', 'test/unit/ws-capacity.test.ts'],
  'src/compute/theory/bounds.ts': ['test/unit/report-theory.test.ts'],
  'src/compute/theory/cell-bounds.ts': ['test/unit/study-002.test.ts'],
  'src/compute/theory/open-loop.ts': ['test/unit/open-loop-theory.test.ts'],
  'src/compute/stats/welch.ts': ['test/unit/compare-stats.test.ts'],
  'src/compute/stats/tdist.ts': ['test/unit/compare-stats.test.ts'],
  'src/report/compare/model.ts': [],
  'src/studies/003/knee.ts': ['test/unit/knee.test.ts'],
  'src/compute/analysis/queue-growth.ts': ['test/unit/open-loop-theory.test.ts'],
  'src/load/server-timing.ts': ['test/unit/load-server-timing.test.ts'],
  'src/report/thresholds/rules.ts:68-176': ['test/unit/thresholds.test.ts'],
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
  // test/unit/thresholds.test.ts reads a recorded run under runs/
  ignorePatterns: ['sut', '/report', '.mutation-build', '.stryker-tmp'],
  timeoutMS: 60000,
  tap: { ...base.tap, testFiles, nodeArgs: ['--import', 'tsx'] },
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `${dir}/mutation.json` },
  tempDirName: '.stryker-tmp-before',
};
