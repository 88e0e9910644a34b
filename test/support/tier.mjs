/**
 * Run one test tier: its files two at a time (`--test-concurrency=2`; the unit tier's files shared
 * among four processes, see GROUPS), except the files named in ALONE, which then run one at a time
 * with nothing beside them. Each batch ends with its own
 * slowest files and tests (test/support/slowest-reporter.mjs) and summary; the exit code is 1 when
 * either batch failed.
 *
 *   node test/support/tier.mjs unit          (npm run test:unit)
 *   node test/support/tier.mjs integration   (npm run test:integration)
 *   npm run test:unit -- --test-name-pattern=knee   (further arguments go to node --test)
 *
 * Two at a time is safe because every test file picks free ports (test/fixtures/ports.ts, port 0),
 * writes only under its own mkdtemp folder, and finds its child processes by pid or by its own
 * marker, never by scanning for anyone's. Most of a tier's time is spent waiting (mock latency,
 * process starts), so a second file fills the idle core.
 * VTBENCH_TEST_CONCURRENCY=N runs N processes at a time (1: one at a time, e.g. to time a tier file by file).
 *
 * Neither tier may start Maven or a JVM (docs/architecture.md, "Tests in tiers"). Three guards, in the
 * tests' environment:
 *  - VTBENCH_NO_JVM=1: the SUT build and the SUT start (buildSut, startSut in src/adapters/jvm/)
 *    refuse with a VtbenchError before they spawn anything;
 *  - JAVA_HOME=test/support/no-jvm/jdk, a fake JDK 25 that findJdk (src/adapters/jvm/jdk.ts) takes
 *    first: whatever spawns the `java` of the JDK found runs its bin/java, which exits 97 and says why;
 *  - `mvn` and `java` on the PATH are test/support/no-jvm/, which also exit 97 and say why.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Files whose assertions bound wall-clock time tightly (send lateness, event-loop lag, queue waits
 * of a few ms, a 1 s undici timer), so a neighbour's CPU load could break them on a 2-core machine.
 */
const ALONE = {
  unit: [],
  integration: [
    'load-open-loop', // sends > 100 ms late after a 400 ms stall, from-intended P95 > actual P95 + 100 ms
    'load-stall', // no loadgen-lag flag in a normal run (threshold about 75 ms)
    'load-run', // together vs ramp start offsets, one connection per worker
    'load-websocket', // pushes within the interval
    'config-bounds', // undici's headers timeout fires after about 1 s
    'bench-mock', // lateness of the mock's answers
    'mock-delay', // the mock's delay exact to a few ms
    'mock-http', // five requests 20 ms apart all reach the mock within the first two's 200 ms; in flight 4 read 15 ms into a 30 ms latency
    'mock-wire', // each answer (latency 5 ms) must arrive within a 150 ms read window
    'pipeline-toy', // queue wait P95 < 20 ms on the unbounded executor
  ],
};

/**
 * Files of a grouped tier that keep a process of their own: their assertions bound wall-clock time
 * (a 2.3 s sleep read back as a progress line's seconds, a timer count, a 120 ms start), so neither
 * another file's loading nor a heap grown by other files' committed runs (a longer GC pause) may
 * run inside them.
 */
const OWN = { unit: ['pipeline-events', 'thread-dump-schedule', 'progress-eta'], integration: [] };
const [tier, ...extra] = process.argv.slice(2);
if (!(tier in ALONE)) {
  process.stderr.write(`usage: node test/support/tier.mjs ${Object.keys(ALONE).join('|')}\n`);
  process.exit(2);
}
const dir = join('test', tier);
const files = readdirSync(dir).filter((f) => f.endsWith('.test.ts')).sort();
/** A test file's name without `.test.ts`, as ALONE and OWN list it. */
const nameOf = (f) => f.replace(/\.test\.ts$/, '');
for (const [list, names] of [['ALONE', ALONE[tier]], ['OWN', OWN[tier]]]) {
  const unknown = names.filter((n) => !files.includes(`${n}.test.ts`));
  if (unknown.length > 0) {
    process.stderr.write(`test/support/tier.mjs: ${list} names files that do not exist in ${dir}: ${unknown.join(', ')}\n`);
    process.exit(2);
  }
}
const alone = files.filter((f) => ALONE[tier].includes(nameOf(f)));
const together = files.filter((f) => !alone.includes(f));
const pairs = Number(process.env['VTBENCH_TEST_CONCURRENCY'] ?? 2);
if (!Number.isInteger(pairs) || pairs < 1) {
  process.stderr.write(`VTBENCH_TEST_CONCURRENCY=${process.env['VTBENCH_TEST_CONCURRENCY']}: give a whole number of processes, 1 or more\n`);
  process.exit(2);
}

/**
 * Tiers whose files share processes: GROUPS[tier] processes each import a share of the files, instead
 * of one process per file. A unit file is pure (no process, no socket, no global it leaves changed),
 * so sharing is safe, and it saves each file's own start: Node, tsx and the modules it imports
 * (vega-lite, the schemas). Measured on this 2-core host: the unit tier took 143 s and 274 CPU-s
 * with a process per file, 67 s and 112 CPU-s in 4 groups (53 s once the groups imported statically). Integration files start processes and
 * set their environment, so each keeps its own.
 *
 * Each group's entry imports its files statically: every file's top-level code runs before any test
 * starts, and the tests then run one at a time in file order (a dynamic import per file would let
 * one file's tests run while the next file loads). A file that fails to load fails its whole group
 * loudly (the entry's error names the file); the other groups still run.
 */
const GROUPS = { unit: 4, integration: 0 };

/**
 * Entry files for `names` (files of `dir`): the OWN files as they are, the rest split into `n`
 * shares (round robin over the sorted names), each imported by an entry written to a
 * folder (node_modules/.cache/vtbench-tier/<tier>/). Returns the paths to run and the folder to remove.
 */
function groupEntries(names, n) {
  // a fixed folder inside the checkout's node_modules (ignored by git): a run stopped by Ctrl-C, which
  // skips the clean-up below, leaves one folder that the next run replaces, not one per run in /tmp
  const tmp = resolve('node_modules', '.cache', 'vtbench-tier', tier);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const own = names.filter((f) => OWN[tier].includes(nameOf(f)));
  const rest = names.filter((f) => !own.includes(f));
  const shares = Array.from({ length: Math.min(n, rest.length) }, () => []);
  rest.forEach((f, i) => shares[i % shares.length].push(resolve(dir, f)));
  const entries = shares.map((files, i) => {
    const entry = join(tmp, `${tier}-group-${i + 1}.test.mjs`);
    writeFileSync(entry, `${files.map((f) => `import ${JSON.stringify(pathToFileURL(f).href)};`).join('\n')}\n`);
    return entry;
  });
  return { paths: [...own.map((f) => join(dir, f)), ...entries], tmp };
}

/** Run `names` (files of `dir`) with node --test at `concurrency`; true when every test passed. */
function batch(names, concurrency) {
  if (names.length === 0) return true;
  const grouped = GROUPS[tier] > 0 ? groupEntries(names, GROUPS[tier]) : null;
  const paths = grouped ? grouped.paths : names.map((f) => join(dir, f));
  const args = ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=./test/support/slowest-reporter.mjs', ...extra, ...paths];
  const env = { ...process.env, VTBENCH_NO_JVM: '1', JAVA_HOME: resolve('test/support/no-jvm/jdk'), PATH: [resolve('test/support/no-jvm'), process.env['PATH'] ?? ''].join(delimiter) };
  try {
    const r = spawnSync(process.execPath, args, { stdio: 'inherit', env });
    return r.status === 0;
  } finally {
    if (grouped) rmSync(grouped.tmp, { recursive: true, force: true });
  }
}

const ok = [batch(together, pairs), batch(alone, 1)];
process.exit(ok.every(Boolean) ? 0 : 1);
