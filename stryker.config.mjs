// Mutation testing of the pure modules (no I/O) with StrykerJS: `npm run test:mutation`.
//
// Runner: @stryker-mutator/tap-runner. Node's built-in test runner has no Stryker runner of its own;
// a test file that uses node:test, run as `node --import tsx <file>` with stdout not a terminal,
// prints TAP, which this runner reads. It runs each test file in its own Node process (a file is one
// "test" to Stryker) with Stryker's hook preloaded, so it measures coverage per test file and runs
// only the files that reach a mutant. (The `command` runner would run every test for every mutant,
// with no coverage analysis.) Versions 9.6.1: the last line whose engines allow Node 20 (10.x needs
// Node >= 22).
//
// Speed: tsx costs every test process ~0.5 s of CPU to start (2-4 s of wall time on a loaded 2-core
// machine), paid once per test file per mutant. So `buildCommand` bundles each unit test file with
// the (instrumented) sources it imports into one plain .mjs in the sandbox (esbuild, which tsx already
// brings; packages stay external), and the runner starts those with plain `node`: about 3x faster.
// The bundles sit three folders deep (.mutation-build/t/unit/), as src/<layer>/<part>/x.ts does, so
// code that finds files from its own import.meta.url (src/adapters/store/schema.ts: ../../../schema/)
// still finds them.
//
// Reports: reports/mutation/ (git-ignored). Concurrency 1: a shared 2-core machine.

/** What is mutated: the pure modules, written once. */
export const MUTATE = [
  'src/compute/stats/aggregate.ts',
  'src/compute/stats/extremes.ts',
  'src/compute/stats/percentiles.ts',
  'src/compute/theory/bounds.ts',
  'src/compute/theory/cell-bounds.ts',
  'src/compute/theory/open-loop.ts',
  'src/compute/stats/welch.ts',
  'src/compute/stats/tdist.ts',
  // model.ts takes two loaded runs and returns a Comparison; it reads no file: all of it is pure
  'src/report/compare/model.ts',
  'src/studies/003/knee.ts',
  'src/compute/analysis/queue-growth.ts',
  'src/load/server-timing.ts',
  // rules.ts: isCompareRule, unitOf, holds, show, ruleText, parseRuleText and readThresholds (lines 74-207).
  // Left out: the schema loader `validator` (reads schema/thresholds.schema.json) and
  // `loadThresholds` (reads the user's file).
  'src/report/thresholds/rules.ts:74-207',
];

/** The unit tests of those modules (test/unit/, one file per module), bundled by BUILD. */
export const TESTS = [
  'analysis-knee', 'analysis-queue-growth', 'compare-model', 'compare-tdist', 'compare-welch', 'server-timing-values',
  'stats-aggregate', 'stats-extremes', 'percentiles-values', 'theory-bounds', 'theory-cell-bounds', 'theory-open-loop', 'thresholds-rules',
].map((name) => `test/unit/${name}.test.ts`);
export const BUILD = `esbuild ${TESTS.join(' ')} --bundle --platform=node --format=esm --target=node20 --packages=external --outdir=.mutation-build/t/unit --out-extension:.js=.mjs --log-level=warning`;
export const UNIT_TESTS = ['.mutation-build/t/unit/*.test.mjs'];

// MUTATE_ONLY=<an entry of MUTATE> runs that module alone (reports in reports/mutation/<entry>/),
// e.g. to re-check one module after changing its tests
const only = process.env.MUTATE_ONLY;
if (only && !MUTATE.includes(only)) throw new Error(`MUTATE_ONLY=${only}: not an entry of MUTATE`);
const reportDir = only ? `reports/mutation/${only.replace(/[^A-Za-z0-9.-]+/g, '_')}` : 'reports/mutation';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'tap',
  // run in the sandbox after the sources are instrumented (no shell: esbuild expands the glob itself)
  buildCommand: BUILD,
  tap: {
    testFiles: UNIT_TESTS,
    // plain node (the bundles are JavaScript); Stryker's hook (-r) is put before the file
    nodeArgs: [],
    // stop reading a file's TAP at its first failing test: the mutant is killed already
    forceBail: true,
  },
  mutate: only ? [only] : MUTATE,
  coverageAnalysis: 'perTest',
  concurrency: 1,
  // on top of 1.5 × the file's own time: a mutant that loops forever is cut off after this
  timeoutMS: 5000,
  // large folders no unit test reads (the SUT's Java sources and build, recorded runs, the top-level report/)
  ignorePatterns: ['sut', '/runs', '/report', '.mutation-build', '.stryker-tmp-before'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `${reportDir}/mutation.html` },
  jsonReporter: { fileName: `${reportDir}/mutation.json` },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
