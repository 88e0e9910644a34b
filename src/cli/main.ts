/**
 * The command line: `npx zx run.mjs [options]` runs an experiment, `npx zx run.mjs report [dir]`
 * renders a report; `k8s`, `shard` and `merge` are the multi-host flow (src/cli/multihost.ts). Reads like the pipeline: options -> plan -> prerequisites -> run -> report.
 * One top-level catch turns VtbenchError into one line + hint + exit code (stack only with --debug).
 */
import { Command, CommanderError, Option } from 'commander';
import { setMaxListeners } from 'node:events';
import { execFileSync } from 'node:child_process';
import { readFileSync, existsSync, readdirSync, rmSync, statSync, mkdirSync } from 'node:fs';
import { writeJsonAtomic } from '../adapters/store/fsio.ts';
import { join, resolve, dirname } from 'node:path';
import { OPTION_SPECS } from '../plan/options.ts';
import { defaultProfile, resolveOptions, checkBounds, listProfiles, formatProfileList } from '../plan/profiles.ts';
import { STUDIES, DEFAULT_STUDY, getStudy } from '../studies/index.ts';
import type { Study } from '../types/study.ts';
import { maxValue } from '../plan/options.ts';
import { readHostLimits } from '../adapters/host/limits.ts';
import { makePlan, formatPlan, formatDuration, formatExecutor, planNeedsDb, type Plan } from '../plan/plan.ts';
import { findPgBinaries, parseDbUrl, redactUrl } from '../adapters/db/postgres.ts';
import { requireProfileJdk } from '../adapters/jvm/jdk.ts';
import { VtbenchError, EXIT, exitCodeHelp, fsError } from '../types/errors.ts';
import { RunStore, legacyRunError } from '../adapters/store/run-store.ts';
import { resummarizeRun } from '../pipeline/resummarize.ts';
import { SCHEMA_VERSION, type ResolvedOptions, type RunManifest } from '../types/run.ts';
import { hostInfo } from '../adapters/host/host.ts';
import { ChildRegistry, reapOrphans, isOurs } from '../adapters/process/children.ts';
import { DEFAULT_BIND_ADDRESS, bindWarning } from '../adapters/jvm/bind.ts';
import { checkDisk, checkPorts, checkWritable } from '../adapters/host/prereq.ts';
import { executePlan, writeSummary, type RunDeps } from '../pipeline/run.ts';
import { checkExternalComponents, recordExternal, withExternalComponents } from '../pipeline/external.ts';
import { watchLaunchers } from '../adapters/process/parent-watch.ts';
import { loadRun } from '../report/load.ts';
import { writeAll } from '../report/write.ts';
import { compareRuns } from '../report/compare/model.ts';
import { renderCompareHtml, renderCompareJson, renderCompareMd } from '../report/compare/render.ts';
import { loadThresholds, type Thresholds } from '../report/thresholds/rules.ts';
import { checkCompare, checkRun, enforce, type RuleOutcome } from '../report/thresholds/check.ts';
import { jsonSubscriber, textSubscriber, type Emit } from '../pipeline/events.ts';
import { FsBarrier, podShardDeps } from '../pipeline/pod-shard.ts';
import { ROOT, newRunId, rawRunOptions, toolVersion, type Io } from './common.ts';
export { newRunId, rawRunOptions, toolVersion, type Io };
import { k8sCommand, mergeCommand, shardOf, checkShardRun, DEFAULT_SYNC_TIMEOUT_S, type ShardRunArgs } from './multihost.ts';
import { DEFAULT_PVC, DEFAULT_PVC_SIZE, SHARED_MOUNT } from '../plan/k8s-manifests.ts';
import { hostname as osHostname } from 'node:os';

export { ROOT };

/** Run settings that are not recorded options (they may hold secrets): `--db-url`. */
export interface PrepareExtra {
  /** `--db-url`: an existing PostgreSQL for the database scenarios (null: the harness starts its own) */
  dbUrl: string | null;
  /** the run's abort (SIGINT/SIGTERM): a build in progress stops at once */
  signal?: AbortSignal;
}

/** Everything main needs from outside, so tests can run it in-process with fakes. */
export interface MainDeps {
  /** checks JDK (and Maven), builds the SUT; returns JDK facts and the run dependencies */
  prepare(o: ResolvedOptions, logsDir: string, extra?: PrepareExtra): Promise<{ deps: RunDeps; jdk: { version: string; vendor: string } | null }>;
  /** find the JDK the SUT needs; returns a one-line description; throws VtbenchError if absent */
  checkJdk(): string;
  /** find Maven (the SUT's build); returns its version line; throws VtbenchError(EXIT.prerequisite) if absent */
  checkMaven(): string;
  /** render the report of a run folder (its study found among `studies`); returns the report's folder and gaps */
  report(runDir: string, outRoot: string, lang: 'en' | 'zh', studies: readonly Study[]): Promise<{ outDir: string; gaps: string[] }>;
  /** the store of a run folder (default `new RunStore(dir)`; tests inject writer faults here) */
  openStore?(dir: string): RunStore;
  /**
   * the studies --study, `list` and --resume choose from (default STUDIES, src/studies/index.ts);
   * a test runs a study that is not registered by passing it here (see runStudy)
   */
  studies?: readonly Study[];
}

/** The studies of a call: the injected ones, or the registered STUDIES. */
function studiesOf(deps: MainDeps): readonly Study[] {
  return deps.studies ?? STUDIES;
}

/** The study run without --study: DEFAULT_STUDY when it is among `studies`, else the first. */
function defaultStudyOf(studies: readonly Study[]): Study {
  return studies.find((s) => s.id === DEFAULT_STUDY) ?? studies[0] ?? getStudy(DEFAULT_STUDY);
}

/**
 * Run (or dry-run, resume, list, report) with a study given as an object, registered or not: the
 * same path as `npx zx run.mjs --study <id> ...`. `argv` are the other arguments (e.g. `--profile`,
 * `--runs-dir`, `--no-report`; with `--resume`, `report`, `resummarize` or `compare` the study is the run's own
 * and must be this one or a registered one; `list` lists this study).
 */
export function runStudy(study: Study, argv: readonly string[], io: Io, deps: MainDeps): Promise<number> {
  const others = studiesOf(deps).filter((s) => s.id !== study.id);
  // --resume, `report`, `resummarize` and `compare` take the study from the run's manifest; the
  // study only has to be known. `list` lists this study.
  const [first, ...rest] = argv;
  const args = first === 'list' ? ['list', '--study', study.id, ...rest]
    : argv.includes('--resume') || first === 'report' || first === 'resummarize' || first === 'compare' ? [...argv]
      : ['--study', study.id, ...argv];
  return main(args, io, { ...deps, studies: [study, ...others] });
}

function depVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function gitState(): { commit: string | null; dirty: boolean | null } {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ':!runs', ':!report'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== '';
    return { commit, dirty };
  } catch {
    return { commit: null, dirty: null };
  }
}

/** `<run>/lock.json`: the pid of the harness writing the run, removed when it ends. */
function lockPath(runDir: string): string {
  return join(runDir, 'lock.json');
}

/** The pid of a live harness that holds the run's lock, or null (no lock, or its owner is gone). */
function liveOwner(runDir: string): number | null {
  try {
    const { pid } = JSON.parse(readFileSync(lockPath(runDir), 'utf8')) as { pid: number };
    return pid !== process.pid && isOurs(pid, 'run.mjs') ? pid : null;
  } catch {
    return null;
  }
}

/**
 * True when a run folder holds no evidence: no cell file (valid or not), no failed cell, no
 * non-empty log beyond the mock's start line and, when `builtOk`, the warnings of a build that
 * succeeded. Such a folder is removed when a new run ends, so failures before any measurement (a
 * full disk, a missing prerequisite, a database that does not answer) leave nothing behind; a SUT's
 * or an own PostgreSQL's log, which the error points to, keeps it.
 */
function measuredNothing(store: RunStore, builtOk = false): boolean {
  if (store.cellFileIds().length > 0) return false;
  const cells = join(store.dir, 'cells');
  if (existsSync(cells) && readdirSync(cells).some((f) => !f.startsWith('.'))) return false;
  if (!existsSync(store.logsDir)) return true;
  // logs that explain nothing: the mock's start line, a build that succeeded (its warnings)
  const nothingToKeep = new Set(['mock.log', ...(builtOk ? ['build.log'] : [])]);
  return readdirSync(store.logsDir).every((f) => {
    if (nothingToKeep.has(f)) return true;
    try {
      return statSync(join(store.logsDir, f)).size === 0;
    } catch {
      return true;
    }
  });
}

/** The folder itself or its nearest existing ancestor (for statfs before the folder exists). */
function nearestExisting(dir: string): string {
  let d = dir;
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  return d;
}

function openStore(deps: MainDeps, dir: string): RunStore {
  return deps.openStore ? deps.openStore(dir) : new RunStore(dir);
}

function profileHelp(studies: readonly Study[]): string {
  const lines = ['', 'Studies (--study ID) and their profiles (--profile NAME, first = default; any option above overrides a field):'];
  for (const st of studies) {
    lines.push(`  study ${st.id}${st.id === defaultStudyOf(studies).id ? ' (default)' : ''}: ${st.title}`);
    lines.push(`    variants: ${st.variants.map((v) => `${v.id} (${formatExecutor(v.executor)})`).join(', ')}; scenarios: ${st.scenarios.map((x) => x.id).join(', ')}`);
    st.profiles.forEach((p, i) => {
      lines.push(`    ${p.name}${i === 0 ? ' (default)' : ''}: ${p.description}`);
      lines.push(`        ${OPTION_SPECS.filter((s) => ['levels', 'requestsPerWorker', 'repeats', 'warmupS', 'latencyMs', 'variants', 'poolSize', 'start'].includes(s.key) && p.values[s.key] !== null).map((s) => `--${s.flag} ${(s.show as (v: unknown) => string)(p.values[s.key])}`).join(' ')}`);
    });
  }
  lines.push('', 'Without a command: run the experiment, then write its report.');
  lines.push('', 'Exit codes:', ...exitCodeHelp());
  return lines.join('\n');
}

function buildProgram(io: Io, studies: readonly Study[]): Command {
  const first = defaultStudyOf(studies);
  const firstProfile = defaultProfile(first);
  const program = new Command('run.mjs')
    .description('vtbench: executor variants of a Java service (platform-thread pools, virtual threads) measured over real HTTP, one study at a time.')
    .usage('[options] | report [runs/<id>] [--lang en|zh] | compare <runA> <runB> | list | k8s --shards K --sut-url URL --mock-url URL | shard --out DIR | merge <shard-dir>...')
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s), outputError: () => {} })
    .exitOverride()
    .enablePositionalOptions()
    .allowExcessArguments(false)
    .option('--study <id>', `the study to run: ${studies.map((x) => x.id).join(', ')} (default: ${first.id})`)
    .option('--profile <name>', `a profile of the study (default: its first; ${first.id}: ${first.profiles.map((p) => p.name).join(', ')})`);
  const host = readHostLimits();
  /** every run option (OPTION_SPECS), on the program and on the commands that plan a run (shard, k8s) */
  const addRunOptions = (cmd: Command): Command => {
    for (const s of OPTION_SPECS) {
      const def = (s.show as (v: unknown) => string)(firstProfile.values[s.key]);
      const max = 'max' in s && s.max ? `; max ${maxValue(s.max, host).toLocaleString('en-US')}` : '';
      cmd.addOption(new Option(`--${s.flag} <${s.arg}>`, `${s.description} (${firstProfile.name}: ${def || '""'}${max})`));
    }
    return cmd;
  };
  addRunOptions(program);
  program
    .option('--resume <runId|dir>', 'continue a stopped run with its recorded options: a run id under --runs-dir, or a run folder path')
    .option('--runs-dir <dir>', 'where run folders go (default: out/runs/ of this repository, ignored by git; the committed reference runs are in runs/)')
    .option('--report-dir <dir>', 'where reports go (default: out/report/ of this repository, ignored by git; the committed reports are in report/)')
    .option('--lang <lang>', 'report language: en or zh', 'en')
    .option('--no-report', 'do not render the report after the run')
    .option('--dry-run', 'print the plan and check prerequisites (JDK, Maven, ports, disk, writable output folders), run nothing')
    .option('--json', 'machine-readable events on stdout instead of progress bars')
    .option('--thresholds <file>', 'after the run (and its report) check the rules of this JSON file (thresholds.example.json); exit 9 when one is broken')
    .option('--db-url <url>', 'database scenarios (study 002): use this existing PostgreSQL (jdbc:postgresql://host:port/db?user=u&password=p or postgresql://user:password@host:port/db) instead of starting one; its orders table is created or checked there, and it is never stopped')
    .option('--debug', 'print stack traces');
  program.addHelpText('after', profileHelp(studies));
  program.action(() => {
    chosen.command = 'run';
  });
  program
    .command('report [runDir]')
    .description('(re)write the report of a run (default: the newest run with results)')
    .option('--lang <lang>', 'en or zh')
    .option('--report-dir <dir>', 'where reports go')
    .option('--thresholds <file>', 'then check the rules of this JSON file against the run; exit 9 when one is broken')
    .action((runDir: string | undefined, o: { lang?: string; reportDir?: string; thresholds?: string }) => {
      chosen.command = 'report';
      chosen.runDir = runDir ?? null;
      chosen.lang = o.lang ?? null;
      chosen.reportDir = o.reportDir ?? null;
      chosen.thresholds = o.thresholds ?? null;
    });
  program
    .command('compare <runA> <runB>')
    .description("compare run B against run A (the baseline): cells matched by study, scenario, variant and level; throughput and E2E P50/P95/P99 with a 95 % Welch interval over the repeats and a verdict per cell (Markdown on stdout)")
    .option('--json', 'one JSON line on stdout instead of Markdown')
    .option('--out <dir>', 'also write compare.md, index.html (self-contained) and compare.json into this folder')
    .option('--thresholds <file>', 'check the rules of this JSON file: compare rules against the comparison, run rules against run B; exit 9 when one is broken')
    .action((runA: string, runB: string, o: { json?: boolean; out?: string; thresholds?: string }) => {
      chosen.command = 'compare';
      chosen.runDir = runA;
      chosen.runDirB = runB;
      chosen.json = Boolean(o.json);
      chosen.out = o.out ?? null;
      chosen.thresholds = o.thresholds ?? null;
    });
  program
    .command('list')
    .description('list the studies (or one: --study <id>) and their profiles with planned cells, requests and duration')
    .option('--study <id>', 'list this study only')
    .option('--json', 'one JSON line instead of a table')
    .action((o: { json?: boolean; study?: string }) => {
      chosen.command = 'list';
      chosen.json = Boolean(o.json);
      chosen.study = o.study ?? null;
    });
  addRunOptions(program
    .command('k8s')
    .description(`write (never apply) the Kubernetes manifests of a multi-host run: an Indexed Job of --shards K load generator pods, each running one shard of every cell against --sut-url and writing its shard folder to a shared volume; the volume's claim, a pod to copy the folders back, a Dockerfile and a README with the commands (build, push, apply, copy back, merge)`)
    .option('--study <id>', 'the study (default: the default study)')
    .option('--profile <name>', 'a profile of the study (default: its first)'))
    .option('--image <image>', 'the load generator image the cluster pulls (default: vtbench-loadgen:<tool version>; build it with the Dockerfile written)')
    .option('--name <name>', 'the Job name and its folder on the volume, a DNS-1123 label of at most 50 characters (default: vtbench-<study>-<profile>)')
    .option('--namespace <ns>', 'the namespace of the Job, the claim and the fetch pod (default: kubectl\'s)')
    .option('--pvc <claim>', `the ReadWriteMany PersistentVolumeClaim every pod mounts at ${SHARED_MOUNT} (default: ${DEFAULT_PVC})`)
    .option('--pvc-size <quantity>', `the storage pvc.json asks for (default: ${DEFAULT_PVC_SIZE})`)
    .option('--storage-class <class>', "the claim's storage class (default: the cluster's)")
    .option('--sync-timeout-s <s>', `how long a pod waits for the others to reach a cell's start (default: ${DEFAULT_SYNC_TIMEOUT_S})`)
    .option('--out <dir>', 'where the files go (default: k8s/<name>)')
    .option('--debug', 'print stack traces')
    .action((o: Record<string, string | boolean | undefined>) => {
      chosen.command = 'k8s';
      chosen.sub = o;
    });
  addRunOptions(program
    .command('shard')
    .description('one load generator of a multi-host run (what each pod of the `k8s` Job runs): shard --index of --shards K of every cell\'s workers against the external --sut-url and --mock-url, in step with the other shards; writes <out>/shard-<index> for `merge`')
    .option('--study <id>', 'the study (default: the default study)')
    .option('--profile <name>', 'a profile of the study (default: its first)'))
    .option('--index <i>', 'this shard, 0..K-1 (default: $JOB_COMPLETION_INDEX, which a Kubernetes Indexed Job sets)')
    .option('--out <dir>', 'the folder every shard shares: this shard writes <out>/shard-<index>, the shards meet in <out>/sync (required)')
    .option('--sync-timeout-s <s>', `how long to wait for the other shards at a cell's start (default: ${DEFAULT_SYNC_TIMEOUT_S})`)
    .option('--json', 'machine-readable events on stdout instead of progress bars')
    .option('--debug', 'print stack traces')
    .action((o: Record<string, string | boolean | undefined>) => {
      chosen.command = 'shard';
      chosen.sub = o;
    });
  program
    .command('merge <shardDirs...>')
    .description("merge the K shard folders of a multi-host run (`shard`, the pods of the `k8s` Job) into one run folder that `report` renders: totals summed, percentiles from the merged raw records; the folders must be shards 0..K-1 of one plan, and a cell missing from a shard is recorded as failed, never merged from the others")
    .option('--out <dir>', 'the merged run folder, which must not exist (default: <runs-dir>/<yyyymmdd-hhmmss>-<study>-<profile>, from the earliest shard start)')
    .option('--debug', 'print stack traces')
    .action((dirs: string[], o: { out?: string }) => {
      chosen.command = 'merge';
      chosen.dirs = dirs;
      chosen.out = o.out ?? null;
    });
  program
    .command('resummarize <runDir>')
    .description("re-derive a run's cell summaries and flags from its raw per-request data with this version's definitions")
    .action((runDir: string) => {
      chosen.command = 'resummarize';
      chosen.runDir = runDir;
    });
  return program;
}

/** What the parse chose (set by the commander actions). */
const chosen: {
  command: 'run' | 'report' | 'resummarize' | 'list' | 'compare' | 'k8s' | 'shard' | 'merge' | null; runDir: string | null; lang: string | null; reportDir: string | null; json?: boolean; study?: string | null;
  /** k8s, shard: the command's own options (run options included) */
  sub?: Record<string, string | boolean | undefined> | null;
  /** merge: the shard folders */
  dirs?: string[] | null;
  /** compare: run B (runDir is run A) and --out */
  runDirB?: string | null; out?: string | null;
  /** --thresholds given after the subcommand */
  thresholds?: string | null;
} = { command: null, runDir: null, lang: null, reportDir: null };

/**
 * The options given before a subcommand that it reads; any other (a run option such as --study,
 * --variants, --levels, --resume) would be ignored silently, so it is refused.
 */
const SUBCOMMAND_OPTIONS: Record<'report' | 'resummarize' | 'list' | 'compare' | 'k8s' | 'shard' | 'merge', readonly string[]> = {
  report: ['--runs-dir', '--report-dir', '--lang', '--debug', '--json', '--thresholds'],
  k8s: ['--debug'],
  shard: ['--debug', '--json'],
  merge: ['--runs-dir', '--debug'],
  compare: ['--debug', '--json', '--thresholds'],
  resummarize: ['--debug', '--json'],
  list: ['--study', '--json', '--debug'],
};

/**
 * @throws VtbenchError(EXIT.usage) naming the options given on the command line (before the
 *   subcommand) that `command` does not apply
 */
function refuseForeignOptions(program: Command, command: keyof typeof SUBCOMMAND_OPTIONS): void {
  const allowed = SUBCOMMAND_OPTIONS[command];
  const given = program.options
    .filter((o) => program.getOptionValueSource(o.attributeName()) === 'cli')
    .map((o) => o.long ?? o.flags)
    .filter((f, i, all) => all.indexOf(f) === i && !allowed.includes(f));
  if (given.length > 0) {
    throw new VtbenchError(
      `${given.join(', ')} ${given.length === 1 ? 'does' : 'do'} not apply to \`${command}\``,
      `drop ${given.length === 1 ? 'it' : 'them'}; \`${command}\` takes ${allowed.join(', ')} (npx zx run.mjs ${command} --help)`,
      EXIT.usage);
  }
}

/**
 * A user-given path resolves against the current folder. The defaults are `out/runs/` and
 * `out/report/` of this repository, which git ignores, so a user's run leaves the checkout clean;
 * the committed reference runs and reports (`runs/`, `report/`) change only when named on purpose
 * (`--runs-dir runs`, `--report-dir report`).
 */
function dirOption(value: unknown, name: 'runs' | 'report'): string {
  const fallback = join(ROOT, 'out', name);
  if (typeof value !== 'string') return fallback;
  if (value.trim() === '') throw new VtbenchError(`--${name}-dir: an empty folder name`, `give a folder, e.g. --${name}-dir ./${name}, or leave the option out for ${fallback}`, EXIT.usage);
  return resolve(process.cwd(), value);
}

/**
 * Parse and run. Returns the exit code (never calls process.exit itself).
 */
export async function main(argv: string[], io: Io, deps: MainDeps): Promise<number> {
  Object.assign(chosen, { command: null, runDir: null, lang: null, reportDir: null, json: false, study: null, runDirB: null, out: null, thresholds: null, sub: null, dirs: null });
  let debug = argv.includes('--debug');
  const studies = studiesOf(deps);
  const program = buildProgram(io, studies);
  try {
    try {
      await program.parseAsync(argv, { from: 'user' });
    } catch (e) {
      if (e instanceof CommanderError) {
        if (e.code === 'commander.helpDisplayed' || e.code === 'commander.help' || e.code === 'commander.version') return 0;
        throw new VtbenchError(e.message.replace(/^error: /, ''), 'see --help for the options', EXIT.usage);
      }
      throw e;
    }
    const opts = program.opts<Record<string, string | boolean | undefined>>();
    debug = Boolean(opts['debug']);
    if (chosen.command !== null && chosen.command !== 'run') refuseForeignOptions(program, chosen.command);
    const lang = checkLang(String(chosen.lang ?? opts['lang'] ?? 'en'));
    if (chosen.command === 'list') {
      const one = chosen.study ?? (typeof opts['study'] === 'string' ? opts['study'] : null);
      const listed = one === null ? studies : [getStudy(one, studies)];
      const rows = listProfiles(listed, readHostLimits());
      io.stdout.write((opts['json'] || chosen.json ? JSON.stringify({ type: 'list', studies: listed.map(studyEntry), profiles: rows }) : formatProfileList(rows, listed)) + '\n');
      return EXIT.ok;
    }
    if (chosen.command === 'k8s') return await k8sCommand(chosen.sub ?? {}, io, studies);
    if (chosen.command === 'merge') return mergeCommand(chosen.dirs ?? [], chosen.out ?? null, dirOption(opts['runsDir'], 'runs'), io);
    if (chosen.command === 'shard') {
      const sub = chosen.sub ?? {};
      return await runCommand({ ...sub, report: false }, 'en', io, deps, null, shardOf(sub));
    }
    if (chosen.command === 'resummarize') {
      const dir = resolve(process.cwd(), chosen.runDir!);
      if (!new RunStore(dir).exists()) throw new VtbenchError(`resummarize: no run folder ${dir} with a manifest.json`, 'name a run folder (your runs are under out/runs/, the committed reference runs under runs/)', EXIT.runData);
      if (liveOwner(dir) !== null) throw new VtbenchError(`resummarize: run ${dir} is still in progress`, 'wait until it ends', EXIT.runData);
      const damaged = new RunStore(dir).damagedCells();
      for (const d of damaged) io.stderr.write(`skipped damaged cell ${d.cellId}: ${d.problems.join('; ')}\n`);
      const ids = resummarizeRun(dir);
      io.stdout.write(`re-derived ${ids.length} cell(s) and summary.json of ${dir}${damaged.length ? ` (${damaged.length} damaged cell(s) skipped; --resume measures them again)` : ''}\n`);
      return 0;
    }
    // a thresholds file is read and checked before anything is measured or rendered
    const thresholdsFile = chosen.thresholds ?? (typeof opts['thresholds'] === 'string' ? opts['thresholds'] : null);
    const thresholds = thresholdsFile === null ? null : loadThresholds(resolve(process.cwd(), thresholdsFile));
    if (chosen.command === 'compare') return await compareCommand(thresholds, Boolean(opts['json']) || Boolean(chosen.json), io, studiesOf(deps));
    if (chosen.command === 'report') {
      const dir = chosen.runDir !== null ? resolve(process.cwd(), chosen.runDir) : newestRun(dirOption(opts['runsDir'], 'runs'), io);
      const reportDir = dirOption(chosen.reportDir ?? opts['reportDir'], 'report');
      await checkWritable(reportDir, 'report-dir');
      const r = await deps.report(dir, reportDir, lang, studiesOf(deps));
      io.stdout.write(`report written: ${join(r.outDir, 'index.html')}${r.gaps.length ? ` (gaps: ${r.gaps.length})` : ''}\n`);
      if (thresholds) await checkRunThresholds(thresholds, dir, io, studiesOf(deps), 'the report is written');
      return 0;
    }
    return await runCommand(opts, lang, io, deps, thresholds);
  } catch (caught) {
    const e = caught instanceof VtbenchError ? caught : (fsError(caught) ?? caught);
    const code = e instanceof VtbenchError ? e.exitCode : EXIT.unexpected;
    // --json: the error as one event line on stdout too, so a script reading stdout sees why it ended
    if (argv.includes('--json')) io.stdout.write(JSON.stringify({ type: 'error', message: (e as Error).message ?? String(e), hint: e instanceof VtbenchError ? e.hint : null, exitCode: code }) + '\n');
    if (e instanceof VtbenchError) {
      io.stderr.write(`error: ${e.message}\n${e.hint === '' ? '' : `  hint: ${e.hint}\n`}`); // an empty hint: the message says it all
      if (debug && e.stack) io.stderr.write(e.stack + '\n');
      return e.exitCode;
    }
    io.stderr.write(`error: ${(e as Error).message ?? String(e)}\n`);
    if (debug && (e as Error).stack) io.stderr.write((e as Error).stack + '\n');
    else io.stderr.write('  hint: rerun with --debug for the stack trace\n');
    return EXIT.unexpected;
  }
}

/** A study in `list --json`: its id, title, source, variant ids and scenario ids. */
function studyEntry(st: Study): { id: string; title: string; source: string; variants: string[]; scenarios: string[] } {
  return { id: st.id, title: st.title, source: st.source, variants: st.variants.map((v) => v.id), scenarios: st.scenarios.map((x) => x.id) };
}

function checkLang(l: string): 'en' | 'zh' {
  if (l !== 'en' && l !== 'zh') throw new VtbenchError(`--lang: unknown language '${l}'`, 'use en or zh', EXIT.usage);
  return l;
}

/**
 * Whether a run folder has results: a finished cell in this version's format, or (a run in an older
 * format, which the report reads through its study's reader) any cell file.
 */
function hasResults(dir: string): boolean {
  const store = new RunStore(dir);
  if (!store.exists()) return false;
  const v = store.schemaVersionOnDisk();
  return v === SCHEMA_VERSION ? store.doneCellIds().size > 0 : typeof v === 'number' && store.cellFileIds().length > 0;
}

/** The newest run folder that has at least one finished cell; says so when it is still running. */
function newestRun(runsDir: string, io: Io): string {
  const ids = existsSync(runsDir) ? readdirSync(runsDir).filter((d) => hasResults(join(runsDir, d))).sort() : [];
  if (ids.length === 0) throw new VtbenchError(`no run with results found in ${runsDir}`, 'run an experiment first (npx zx run.mjs list shows the studies and profiles), name a run folder, or give --runs-dir runs before `report` for the committed reference runs', EXIT.runData);
  const dir = join(runsDir, ids[ids.length - 1]!);
  let status: unknown;
  try {
    status = (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { status?: unknown }).status;
  } catch {
    status = 'unreadable';
  }
  if (status !== 'complete') io.stderr.write(`note: the newest run, ${ids[ids.length - 1]}, is ${status}; its report covers the cells finished so far\n`);
  return dir;
}

/**
 * Check a run's rules against its summary (as the report reads it: src/report/load.ts); prints
 * every broken rule to stderr.
 * @throws VtbenchError(EXIT.thresholds) when one is broken
 */
async function checkRunThresholds(t: Thresholds, runDir: string, io: Io, studies: readonly Study[], written: string): Promise<RuleOutcome[]> {
  const run = await loadRun(runDir, { studies });
  const outcomes = checkRun(t, run.summary);
  enforce(t, outcomes, io.stderr, written);
  return outcomes;
}

/**
 * `compare <runA> <runB>`: load both runs (read-only, every file validated), compare, print
 * Markdown (or one JSON line with --json), write the three files with --out, then check
 * --thresholds (the comparison is out before a broken rule ends the command with exit 9).
 */
async function compareCommand(thresholds: Thresholds | null, json: boolean, io: Io, studies: readonly Study[]): Promise<number> {
  const dirA = resolve(process.cwd(), chosen.runDir!);
  const dirB = resolve(process.cwd(), chosen.runDirB!);
  const a = await loadRun(dirA, { studies });
  const b = await loadRun(dirB, { studies });
  const c = compareRuns(a, b);
  const outcomes = thresholds ? checkCompare(thresholds, c, b.summary) : null;
  if (chosen.out) {
    const out = resolve(process.cwd(), chosen.out);
    await checkWritable(out, 'out');
    const paths = await writeAll(out, [
      { path: 'compare.md', content: renderCompareMd(c) },
      { path: 'index.html', content: renderCompareHtml(c) },
      { path: 'compare.json', content: renderCompareJson(c) },
    ]);
    io.stderr.write(`comparison written: ${paths.join(', ')}\n`);
  }
  io.stdout.write(json ? JSON.stringify({ type: 'compare', ...c, thresholds: outcomes }) + '\n' : renderCompareMd(c));
  if (thresholds && outcomes) enforce(thresholds, outcomes, io.stderr, chosen.out ? 'the comparison is printed and written' : 'the comparison is printed');
  return EXIT.ok;
}

async function runCommand(opts: Record<string, string | boolean | undefined>, lang: 'en' | 'zh', io: Io, deps: MainDeps, thresholds: Thresholds | null, shardRun: ShardRunArgs | null = null): Promise<number> {
  const runsDir = shardRun ? shardRun.dir : dirOption(opts['runsDir'], 'runs');
  const raw = rawRunOptions(opts);

  const studies = studiesOf(deps);
  let study: Study;
  let store: RunStore;
  let options: Readonly<ResolvedOptions>;
  let manifest: RunManifest;
  const resumeId = typeof opts['resume'] === 'string' ? opts['resume'] : null;
  if (resumeId) {
    const given = [...Object.keys(raw).map((k) => OPTION_SPECS.find((s) => s.key === k)!.flag), ...['study', 'profile'].filter((k) => typeof opts[k] === 'string')];
    if (given.length > 0) {
      throw new VtbenchError(`--resume keeps the run's recorded options; do not also give ${given.map((f) => `--${f}`).join(', ')}`, 'drop those options, or start a new run', EXIT.usage);
    }
    // a bare run id is looked up under --runs-dir; anything with a slash is the run folder itself
    store = openStore(deps, resumeId.includes('/') ? resolve(process.cwd(), resumeId) : join(runsDir, resumeId));
    if (!store.exists()) throw new VtbenchError(`--resume: no run folder ${store.dir} with a manifest.json`, `list runs with: ls ${runsDir}`, EXIT.runData);
    const version = store.schemaVersionOnDisk();
    if (typeof version === 'number' && version !== SCHEMA_VERSION) {
      const e = legacyRunError(store.dir, version, 'resumed');
      throw new VtbenchError(`--resume: ${e.message}`, e.hint, e.exitCode);
    }
    manifest = store.readManifest();
    const owner = liveOwner(store.dir);
    if (owner !== null) {
      throw new VtbenchError(`--resume: run ${manifest.runId} is still in progress (harness pid ${owner})`, `wait for it, or stop it first (kill -INT ${owner}); then resume`, EXIT.runData);
    }
    if (manifest.schemaVersion !== SCHEMA_VERSION) throw new VtbenchError(`--resume: run ${manifest.runId} has schema version ${manifest.schemaVersion}, this tool writes ${SCHEMA_VERSION}`, 'start a new run', EXIT.runData);
    options = Object.freeze({ ...manifest.options });
    const recorded = studies.find((x) => x.id === options.study);
    if (!recorded) throw new VtbenchError(`--resume: run ${manifest.runId} measured study '${options.study}', which this vtbench does not define`, `resume it with the vtbench version that started it (manifest.json: tool.version); known studies: ${studies.map((x) => x.id).join(', ')}`, EXIT.runData);
    study = recorded;
    try {
      checkBounds(options, readHostLimits(), study); // recorded on another host, perhaps
    } catch (e) {
      if (!(e instanceof VtbenchError)) throw e;
      throw new VtbenchError(`--resume: the recorded plan exceeds this host's limits: ${e.message}`, 'resume on a host with the limits the run was planned on (e.g. a higher ulimit -n), or start a new run', EXIT.usage);
    }
  } else {
    study = typeof opts['study'] === 'string' ? getStudy(opts['study'], studies) : defaultStudyOf(studies);
    options = resolveOptions(study, typeof opts['profile'] === 'string' ? opts['profile'] : defaultProfile(study).name, raw);
    // a profile that exists to test one JDK (study 000's jdk21) stops here, before anything starts, on a host without it
    requireProfileJdk(study.profiles.find((p) => p.name === options.profile) ?? { name: options.profile });
    const runId = newRunId(study.id, options.profile);
    if (shardRun) checkShardRun(shardRun, options);
    store = openStore(deps, shardRun ? join(shardRun.dir, `shard-${shardRun.index}`) : join(runsDir, runId));
    if (shardRun && store.exists()) throw new VtbenchError(`shard: ${store.dir} exists: shard ${shardRun.index} already ran into this folder`, 'every attempt needs a fresh shared folder: delete it or give another --out', EXIT.usage);
    manifest = {
      schemaVersion: SCHEMA_VERSION,
      runId,
      tool: { name: 'vtbench', version: toolVersion(), ...(() => { const g = gitState(); return { gitCommit: g.commit, gitDirty: g.dirty }; })() },
      options,
      startedAt: new Date().toISOString(),
      endedAt: null,
      status: 'running',
      error: null,
      host: hostInfo(),
      versions: { node: process.version, undici: depVersion('undici'), jdk: null, jdkVendor: null, springBoot: null, springAi: null },
      sut: {},
      cellOrder: [],
      plannedDurationS: 0,
    };
    recordExternal(manifest);
    if (shardRun) manifest.shard = { index: shardRun.index, of: options.shards ?? 1, hostname: osHostname() };
  }
  const plan: Plan = makePlan(options, study);
  manifest.cellOrder = plan.cells.map((c) => c.cellId);
  manifest.plannedDurationS = plan.theoreticalS;

  const json = Boolean(opts['json']);
  const dbUrl = typeof opts['dbUrl'] === 'string' ? opts['dbUrl'] : null;
  if (dbUrl !== null) parseDbUrl(dbUrl); // a malformed --db-url stops here (exit 2)
  const needsDb = planNeedsDb(study, options);
  io.stderr.write(formatPlan(options, plan, store.dir) + '\n');
  if (resumeId) {
    // what --resume will measure: the planned cells without a valid result (damaged ones are set aside first)
    const done = store.doneCellIds();
    const damaged = store.damagedCells();
    const todo = manifest.cellOrder.filter((id) => !done.has(id));
    const failed = new Set((manifest.failedCells ?? []).map((f) => f.cellId));
    const tag = (id: string) => (damaged.some((d) => d.cellId === id) ? `${id} (damaged)` : failed.has(id) ? `${id} (failed)` : id);
    io.stderr.write(todo.length === 0
      ? `resume: all ${manifest.cellOrder.length} planned cells have a valid result; nothing left to measure\n`
      : `resume: ${done.size} of ${manifest.cellOrder.length} planned cells done; to measure: ${todo.map(tag).join(', ')}\n`);
  }
  // output folders: probed in a child process with a timeout (creates nothing that stays)
  if (shardRun) mkdirSync(runsDir, { recursive: true });
  await checkWritable(resumeId ? store.dir : runsDir, shardRun ? 'out' : 'runs-dir');
  const barrier = shardRun ? new FsBarrier(join(shardRun.dir, 'sync'), shardRun.index, options.shards ?? 1) : null;
  barrier?.checkFresh();
  if (opts['report'] !== false) await checkWritable(dirOption(opts['reportDir'], 'report'), 'report-dir');
  // only the components this run starts need a port here and a JDK and Maven (src/pipeline/external.ts)
  const localPorts = [...(options.mockUrl === undefined ? [{ flag: 'mock-port', port: options.mockPort }] : []), ...(options.sutUrl === undefined ? [{ flag: 'sut-port', port: options.sutPort }] : [])];
  const checkOurPorts = () => checkPorts(localPorts, options.bindAddress ?? DEFAULT_BIND_ADDRESS);
  const localSut = options.sutUrl === undefined;
  // a bind beyond loopback: say what answers the network (issue 34); the control endpoints need the run's token anyway
  const exposed = bindWarning(options.bindAddress ?? DEFAULT_BIND_ADDRESS, { ...(localSut ? { sutPort: options.sutPort } : {}), ...(options.mockUrl === undefined ? { mockPort: options.mockPort } : {}) });
  if (exposed !== null) io.stderr.write(`warning: ${exposed}\n`);
  if (!localSut || options.mockUrl !== undefined) await checkExternalComponents(options, study);
  if (opts['dryRun']) {
    // read-only checks, then stop
    await checkOurPorts();
    const mvn = localSut ? deps.checkMaven() : `no Maven needed (external SUT at ${options.sutUrl})`;
    const jdk = localSut ? deps.checkJdk() : 'no JDK needed';
    checkDisk(resumeId ? store.dir : nearestExisting(runsDir));
    const ports = localPorts.length === 0 ? 'no local port needed' : `port${localPorts.length > 1 ? 's' : ''} ${localPorts.map((p) => p.port).join(' and ')} free`;
    const pg = needsDb ? `; PostgreSQL ${findPgBinaries(process.env, undefined, dbUrl === null ? 'server' : 'client').version}${dbUrl !== null ? ` client for --db-url ${redactUrl(dbUrl)}` : ''}` : '';
    io.stderr.write(`prerequisites ok: ${jdk}; ${mvn}${pg}; ${ports}; output folders writable\n`);
    if (opts['json']) io.stdout.write(JSON.stringify({ type: 'dry-run', ok: true, runDir: store.dir, study: study.id, profile: options.profile, scenario: options.scenario, variants: [...options.variants], cells: plan.cells.length, totalRequests: plan.totalRequests, theoreticalS: plan.theoreticalS, jdk, maven: mvn }) + '\n');
    return 0;
  }

  // Prerequisites before anything starts.
  await checkOurPorts().catch(async (e) => {
    if (!resumeId) throw e;
    const reaped = await reapOrphans(join(store.dir, 'pids.json'));
    if (reaped.length === 0) throw e;
    io.stderr.write(`stopped ${reaped.length} process(es) left by the killed run: ${reaped.map((r) => `${r.role} (pid ${r.pid})`).join(', ')}\n`);
    await checkOurPorts();
  });
  checkDisk(resumeId ? store.dir : nearestExisting(runsDir));
  if (localSut) deps.checkMaven();
  if (needsDb) findPgBinaries(process.env, undefined, dbUrl === null ? 'server' : 'client');
  const createdRunDir = !existsSync(store.dir);
  try {
    store.init();
    writeJsonAtomic(lockPath(store.dir), { pid: process.pid, startedAt: new Date().toISOString() });
  } catch (e) {
    if (createdRunDir) rmSync(store.dir, { recursive: true, force: true });
    throw fsError(e, `create the run folder ${store.dir}`) ?? e;
  }
  if (resumeId) {
    // a cell is done only when its files parse and validate; a damaged one is kept aside and re-run
    const setAside = store.setAsideDamaged();
    for (const d of setAside) {
      io.stderr.write(`cell ${d.cellId} is damaged (${d.problems.join('; ')}); kept aside as ${d.movedTo.join(', ')}; it is measured again\n`);
      manifest.notes = [...(manifest.notes ?? []), `${new Date().toISOString()}: on resume, cell ${d.cellId} was damaged (${d.problems.join('; ')}); its files were kept aside as ${d.movedTo.join(', ')} and the cell was measured again`];
    }
  }

  const emit: Emit = json ? jsonSubscriber(io.stdout) : textSubscriber(io.stderr, plan);
  const children = new ChildRegistry(join(store.dir, 'pids.json'));
  const abort = new AbortController();
  setMaxListeners(0, abort.signal); // every worker of a cell listens to it
  let interrupted = false;
  const interrupt = (why: string) => {
    interrupted = true;
    io.stderr.write(`\n${why}: stopping (finished cells are kept; continue with --resume ${manifest.runId})\n`);
    abort.abort();
  };
  /**
   * The run's end on disk, the same for every way a run ends: its status and end time in the
   * manifest (or, for a new run that measured nothing, no folder at all), and the lock removed.
   * Synchronous, so the second-signal branch can call it right before it exits.
   */
  const closeRun = (status: RunManifest['status'], builtOk = false): unknown => {
    let failed: unknown = null;
    manifest.status = status;
    manifest.endedAt = new Date().toISOString();
    if (!resumeId && measuredNothing(store, builtOk)) {
      // nothing measured and no log to keep: leave no empty run folder behind
      rmSync(store.dir, { recursive: true, force: true });
      io.stderr.write(`nothing was measured; removed the run folder ${store.dir}\n`);
    } else {
      // each step survives the one before failing (a full disk): the lock is removed whatever happens
      try {
        store.writeManifest(manifest);
      } catch (e) {
        failed = fsError(e, `write ${join(store.dir, 'manifest.json')}`) ?? e;
      } finally {
        try {
          rmSync(lockPath(store.dir), { force: true });
        } catch (e) {
          failed ??= fsError(e, `remove ${lockPath(store.dir)}`) ?? e;
        }
      }
    }
    return failed;
  };
  let prepared = false; // the build (if any) succeeded: its log then holds only warnings
  const onSignal = (sig: NodeJS.Signals) => {
    if (interrupted) {
      // second Ctrl-C: stop now, without waiting for a graceful stop; the manifest still says interrupted
      io.stderr.write(`\n${sig} again: killing every child and exiting\n`);
      children.killAllSync();
      let failed: unknown;
      try {
        failed = closeRun('interrupted', prepared);
      } catch (e) {
        failed = e; // removing an empty run folder can fail too; the exit code stays 130
      }
      if (failed) io.stderr.write(`could not record the interruption in ${store.dir}/manifest.json: ${(failed as Error).message}\n`);
      process.exit(EXIT.interrupted);
    }
    interrupt(sig);
  };
  const onExit = () => children.killAllSync();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', onExit);
  // npx does not pass signals on and its death leaves the run orphaned: stop as on SIGINT (parent-watch.ts)
  const stopWatching = watchLaunchers((why) => {
    if (!interrupted) interrupt(why);
  });
  const t0 = Date.now();
  let status: RunManifest['status'] = 'running';
  let summaryError: unknown = null;
  let cleanupError: unknown = null;
  try {
    const { deps: runDeps, jdk } = await deps.prepare(options, store.logsDir, { dbUrl, signal: abort.signal });
    prepared = true;
    if (jdk) {
      manifest.versions.jdk = jdk.version;
      manifest.versions.jdkVendor = jdk.vendor;
    }
    manifest.status = 'running';
    manifest.error = null; // a resumed run's earlier error is history (failedCells and notes keep it)
    store.writeManifest(manifest);
    const done = store.doneCellIds();
    emit({
      type: 'plan', runId: manifest.runId, runDir: store.dir, study: study.id, profile: options.profile, scenario: options.scenario, variants: [...options.variants], totalRequests: plan.totalRequests, theoreticalS: plan.theoreticalS,
      remainingTheoreticalS: plan.cells.filter((c) => !done.has(c.cellId)).reduce((s, c) => s + c.theoreticalS, 0),
      cells: plan.cells.length, resumedCells: plan.cells.filter((c) => done.has(c.cellId)).length,
    });
    const pod = shardRun && barrier ? { index: shardRun.index, of: options.shards ?? 1, barrier, syncTimeoutMs: shardRun.syncTimeoutS * 1000 } : undefined;
    const external = withExternalComponents(runDeps, options);
    await executePlan({ study, options, plan, store, manifest, deps: pod ? podShardDeps(external, pod.index) : external, emit, signal: abort.signal, children, ...(pod ? { pod } : {}) });
    const first = Object.values(manifest.sut)[0];
    if (first) {
      manifest.versions.springBoot = first.springBootVersion;
      manifest.versions.springAi = first.springAiVersion;
      manifest.versions.jdk = first.jdkVersion;
      manifest.versions.jdkVendor = first.jdkVendor;
    }
    if (!interrupted) {
      // 'complete' only when true: every planned cell has files that parse and validate
      const doneNow = store.doneCellIds();
      const missing = manifest.cellOrder.filter((id) => !doneNow.has(id));
      if (missing.length > 0) {
        throw new VtbenchError(`run ${manifest.runId} ended with ${missing.length} of ${manifest.cellOrder.length} planned cell(s) without a valid result: ${missing.join(', ')}`, `measure them with --resume ${manifest.runId}`, EXIT.runData);
      }
    }
    status = interrupted ? 'interrupted' : 'complete';
  } catch (e) {
    status = interrupted ? 'interrupted' : 'failed';
    const mapped = e instanceof VtbenchError ? e : fsError(e);
    manifest.error = (mapped ?? (e as Error)).message;
    barrier?.fail(manifest.error); // the other shards stop at their next barrier
    throw mapped ?? e;
  } finally {
    // the cleanup never replaces the run's own error, nor stops before the lock is gone: on a full
    // disk every write here fails (pids.json, summary, manifest) — the first is kept and thrown after
    try {
      await children.stopAll();
    } catch (e) {
      cleanupError = fsError(e, `write ${join(store.dir, 'pids.json')}`) ?? e;
    }
    // summary first, the manifest (with its status) last, so a status on disk is never ahead of the data
    try {
      if (store.doneCellIds().size > 0) writeSummary({ store, manifest });
    } catch (e) {
      summaryError = fsError(e, `write ${store.summaryPath}`) ?? e;
      if (status === 'complete') {
        status = 'failed';
        manifest.error = (summaryError as Error).message;
      }
    }
    const closeFailed = closeRun(status, prepared); // always runs: the manifest and the lock come last whatever failed before
    cleanupError ??= closeFailed;
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', onExit);
    stopWatching();
    emit({ type: 'run-end', status: status === 'running' ? 'failed' : status, runDir: store.dir, elapsedS: (Date.now() - t0) / 1000 });
  }
  if (summaryError) throw summaryError;
  if (cleanupError) throw cleanupError;
  io.stderr.write(`wall time ${formatDuration((Date.now() - t0) / 1000)} against a theoretical ${formatDuration(plan.theoreticalS)} (+ JVM starts)\n`);
  if (status === 'interrupted') return EXIT.interrupted;
  if (opts['report'] !== false) {
    const r = await deps.report(store.dir, dirOption(opts['reportDir'], 'report'), lang, studiesOf(deps));
    io.stderr.write(`report: ${join(r.outDir, 'index.html')}\n`);
  }
  // after the run and its report are on disk: a broken rule never loses measured data
  if (thresholds) await checkRunThresholds(thresholds, store.dir, io, studiesOf(deps), `the run${opts['report'] !== false ? ' and its report are' : ' is'} written (${store.dir})`);
  return 0;
}
