/**
 * The command line's shape (commander): the run options on the program, the commands (`report`,
 * `compare`, `list`, `k8s`, `shard`, `merge`, `resummarize`), their help, and what a parse chose.
 * A parse writes into its own Chosen object (parseArgs), never into module state.
 */
import { Command, CommanderError, Option } from 'commander';
import { OPTION_SPECS, maxValue } from '../plan/options.ts';
import { defaultProfile } from '../plan/profiles.ts';
import { formatExecutor } from '../plan/plan.ts';
import { readHostLimits } from '../adapters/host/limits.ts';
import type { Study } from '../types/study.ts';
import { VtbenchError, EXIT, exitCodeHelp } from '../types/errors.ts';
import { DEFAULT_PVC, DEFAULT_PVC_SIZE, SHARED_MOUNT } from '../plan/k8s-manifests.ts';
import { DEFAULT_SYNC_TIMEOUT_S } from './multihost.ts';
import { defaultStudyOf } from './context.ts';
import type { Io } from './common.ts';
import { TARGET_DEFAULTS } from './commands/target.ts';

/** Options as commander gives them: camelCase attribute -> value as typed (or a flag's boolean). */
export type Opts = Record<string, string | boolean | undefined>;

/** What a parse chose (set by the commander actions): the command and its own arguments. */
export interface Chosen {
  command: 'run' | 'report' | 'resummarize' | 'list' | 'compare' | 'k8s' | 'shard' | 'merge' | 'target' | null; runDir: string | null; lang: string | null; reportDir: string | null; json?: boolean; study?: string | null;
  /** k8s, shard: the command's own options (run options included) */
  sub?: Opts | null;
  /** merge: the shard folders */
  dirs?: string[] | null;
  /** compare: run B (runDir is run A) and --out */
  runDirB?: string | null; out?: string | null;
  /** compare: --allow-diff and --min-effect as typed (null: not given) */
  allowDiff?: string | null; minEffect?: string | null;
  /** --thresholds given after the subcommand */
  thresholds?: string | null;
}

/** A parsed command line: the program's own options, what the commands chose, and the program (for refuseForeignOptions). */
export interface Parsed {
  program: Command;
  opts: Opts;
  chosen: Chosen;
}

/** The help's tail: every study with its variants, scenarios and profiles, then the exit codes. */
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

/** Adds every run option (OPTION_SPECS) to a command, its help naming the default study's first profile's value and the host's maximum. */
type AddRunOptions = (cmd: Command) => Command;

/** The AddRunOptions of these studies (the program and the commands that plan a run: shard, k8s). */
function runOptionsAdder(studies: readonly Study[]): AddRunOptions {
  const firstProfile = defaultProfile(defaultStudyOf(studies));
  const host = readHostLimits();
  return (cmd) => {
    for (const s of OPTION_SPECS) {
      const value = firstProfile.values[s.key];
      const def = value === undefined ? 'not set' : (s.show as (v: unknown) => string)(value);
      const maxN = 'max' in s && s.max ? maxValue(s.max, host) : null;
      // a bound of Number.MAX_SAFE_INTEGER only keeps the value an exact integer: no maximum worth printing (the plan's own size checks apply)
      const max = maxN !== null && maxN < Number.MAX_SAFE_INTEGER ? `; max ${maxN.toLocaleString('en-US')}` : '';
      cmd.addOption(new Option(`--${s.flag} <${s.arg}>`, `${s.description} (${firstProfile.name}: ${def || '""'}${max})`));
    }
    return cmd;
  };
}

/** The program itself: the run (no command), its options and help. */
function rootProgram(io: Io, studies: readonly Study[], chosen: Chosen, addRunOptions: AddRunOptions): Command {
  const first = defaultStudyOf(studies);

  const program = new Command('run.mjs')
    .description('vtbench: executor variants of a Java service (platform-thread pools, virtual threads) measured over real HTTP, one study at a time.')
    .usage('[options] | report [runs/<id>] [--lang en|zh] | compare <runA> <runB> | list | resummarize <run folder> | k8s --shards K --sut-url URL --mock-url URL | shard --out DIR | merge <shard-dir>...')
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s), outputError: () => {} })
    .exitOverride()
    .enablePositionalOptions()
    .allowExcessArguments(false)
    .option('--study <id>', `the study to run: ${studies.map((x) => x.id).join(', ')} (default: ${first.id})`)
    .option('--profile <name>', `a profile of the study (default: its first; ${first.id}: ${first.profiles.map((p) => p.name).join(', ')})`);
  addRunOptions(program);
  program
    .option('--resume <runId|dir>', 'continue a stopped run with its recorded options: a run id under --runs-dir, or a run folder path')
    .option('--runs-dir <dir>', 'where run folders go (default: out/runs/ of this repository, ignored by git; the committed reference runs are in runs/)')
    .option('--report-dir <dir>', 'where reports go (default: out/report/ of this repository, ignored by git; the committed reports are in report/)')
    .option('--lang <lang>', 'the report language named first (a run writes both, English at report/<id>/, Chinese at report/<id>/zh/): en or zh', 'en')
    .option('--no-report', 'do not render the report after the run')
    .option('--dry-run', 'print the plan and check prerequisites (JDK, Maven, ports, disk, writable output folders), run nothing')
    .option('--json', 'machine-readable events on stdout instead of progress bars')
    .option('--thresholds <file>', 'after the run (and its report) check the rules of this JSON file (thresholds.example.json); exit 9 when one is broken')
    .option('--db-url <url>', 'database scenarios: use this existing PostgreSQL (jdbc:postgresql://host:port/db?user=u&password=p or postgresql://user:password@host:port/db) instead of starting one; its orders table is created or checked there, and it is never stopped')
    .option('--debug', 'print stack traces');
  program.addHelpText('after', profileHelp(studies));
  program.action(() => {
    chosen.command = 'run';
  });
  return program;
}

/** `report`, `compare` and `list`: the commands that read runs or studies. */
function addReadCommands(program: Command, chosen: Chosen): void {
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
    .option('--thresholds <file>', 'check the rules of this JSON file: compare rules against the comparison, run rules against run B; exit 9 when one is broken, 11 when a compare rule is inconclusive')
    .option('--allow-diff <kinds>', 'compare although the runs differ in these (comma-separated: study, scenario, jdk, cores, quota, pool, latency, load, isolation, or all); without it such runs are not comparable (exit 10)')
    .option('--min-effect <pct>', 'the minimum effect, % of the baseline mean (default 5%): a run whose repeats spread more (coefficient of variation) makes a verdict "inconclusive"; a compare rule passes an interval around 0 whose slow end stays below it')
    .action((runA: string, runB: string, o: { json?: boolean; out?: string; thresholds?: string; allowDiff?: string; minEffect?: string }) => {
      chosen.command = 'compare';
      chosen.runDir = runA;
      chosen.runDirB = runB;
      chosen.json = Boolean(o.json);
      chosen.out = o.out ?? null;
      chosen.thresholds = o.thresholds ?? null;
      chosen.allowDiff = o.allowDiff ?? null;
      chosen.minEffect = o.minEffect ?? null;
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
}

/** `k8s`, `shard` and `merge`: the multi-host flow (src/cli/multihost.ts). */
function addMultihostCommands(program: Command, chosen: Chosen, addRunOptions: AddRunOptions): void {
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
    .action((o: Opts) => {
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
    .action((o: Opts) => {
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
}

const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

/** `target`: measure your own service (src/cli/commands/target.ts, issue 32). */
function addTargetCommand(program: Command, chosen: Chosen): void {
  const d = TARGET_DEFAULTS;
  program
    .command('target')
    .description('measure your own Spring Boot service on platform vs virtual threads: a jar vtbench starts per arm (--target-jar: JFR pinning, a thread dump, JMX samples of Tomcat, Hikari and the virtual-thread scheduler; --agent adds per-request queue wait) or running URLs (--url: black box, plus its actuator when exposed); the report names what limited each arm. docs/your-own-service.md walks through it')
    .option('--requests <file>', 'the request mix: one JSON object per line {"name","method","path","headers","body","weight"} (required)')
    .option('--target-jar <jar>', 'your Spring Boot jar: started once per arm and repeat with --spring.threads.virtual.enabled=false (arm platform) and =true (arm virtual)')
    .option('--url <[arm=]url>', 'a running service to measure as a black box (repeat for two arms, e.g. --url platform=http://127.0.0.1:8080 --url virtual=http://127.0.0.1:8081)', collect)
    .option('--agent', 'with --target-jar: load the vtbench Java agent (per-request wait for a web-server thread and for every executor hand-off)')
    .option('--target-arg <arg>', 'an argument for the jar, after vtbench\'s own (repeatable), e.g. --target-arg=--spring.profiles.active=postgres', collect)
    .option('--target-jvm-arg <flag>', 'a JVM flag for the jar, before vtbench\'s own (repeatable), e.g. --target-jvm-arg=--enable-preview or --target-jvm-arg=-Xmx2g', collect)
    .option('--target-env <NAME[=VALUE]>', 'an environment variable for the jar (repeatable); NAME alone copies it from your environment, so a secret never reaches the command line', collect)
    .option('--target-db <postgres|none>', 'postgres: vtbench starts a PostgreSQL for the target and passes POSTGRES_URL/USER/PASS and SPRING_DATASOURCE_URL/USERNAME/PASSWORD; {dbUrl}, {dbUser} (and {dbPassword} in --target-env only) name them in your own options (default: none)')
    .option('--target-mock <latency-ms>', 'with --target-jar: vtbench starts its mock LLM (OpenAI-compatible, answering after latency-ms) for the target; {mockUrl} in --target-arg, --target-jvm-arg or --target-env is its origin without /v1, e.g. --target-arg=--spring.ai.openai.base-url={mockUrl}/v1')
    .option('--arms <list>', 'with --target-jar: the built-in arms to run (default: platform,virtual)')
    .option('--arm <id:key=value,…>', 'with --target-jar: an arm of your own, its Spring properties (repeatable)', collect)
    .option('--levels <list>', `closed-loop concurrencies, ascending (default: ${d.levels})`)
    .option('--rates <list>', 'open loop instead of --levels: arrival rates, req/s, ascending (each cell sends on a schedule for --duration-s, whatever the answers take)')
    .option('--duration-s <s>', `open loop: each cell's schedule, s (default: ${d.durationS})`)
    .option('--arrival <constant|poisson>', `open loop: arrivals every 1/λ or with exponential gaps (default: ${d.arrival})`)
    .option('--arrival-seed <n>', `open loop, poisson: the schedule's seed (default: ${d.arrivalSeed})`)
    .option('--max-in-flight <n>', `open loop: most requests in flight; a send beyond it is refused and counted, never queued (default: ${d.maxInFlight})`)
    .option('--warmup-s <s>', `open loop: unmeasured seconds at the highest rate after each start (default: ${d.warmupS})`)
    .option('--requests-per-worker <n>', `measured requests per worker and cell (default: ${d.requestsPerWorker})`)
    .option('--warmup-requests <n>', `unmeasured requests per worker at the highest level after each start (default: ${d.warmupRequests})`)
    .option('--alone-probe <n>', `requests sent one at a time after the warm-up, for R(1) (default: ${d.aloneProbe})`)
    .option('--repeats <n>', `starts of each arm (default: ${d.repeats})`)
    .option('--pinned-threshold-ms <ms>', `JFR jdk.VirtualThreadPinned threshold, ms, as for a study run (default: ${d.pinThresholdMs}; 0 = every event)`)
    // the name this option had before it took the study runs' name; kept so existing scripts still run
    .addOption(new Option('--pin-threshold-ms <ms>').hideHelp())
    .option('--sampler-interval-ms <ms>', `JMX / actuator sampling interval (default: ${d.samplerIntervalMs})`)
    .option('--target-port <port>', 'the port the jar listens on (default: a free one)')
    .option('--ready-timeout-s <s>', `how long a start may take until the first request of the mix answers (default: ${d.readyTimeoutS})`)
    .option('--timeout-s <s>', `per-request timeout (default: ${d.timeoutS})`)
    .option('--run-id <id>', 'the run folder\'s name under --runs-dir (out/runs/ by default); an existing target run of that name is continued (default: <time>-target-<jar>)')
    .option('--runs-dir <dir>', 'where runs go (default: out/runs/, ignored by git)')
    .option('--report-dir <dir>', 'where reports go (default: out/report/, ignored by git)')
    .option('--no-report', 'measure only')
    .option('--thresholds <file>', 'after the run, check the rules of this JSON file (cells as <arm>@<level>, e.g. "virtual@200: e2e_p95 <= 500ms"); exit 9 when one is broken; read before anything starts')
    .option('--debug', 'print stack traces')
    .action((o: Opts) => {
      chosen.command = 'target';
      chosen.sub = o;
    });
}

/** The whole command line; its actions write what the parse chose into `chosen`. */
function buildProgram(io: Io, studies: readonly Study[], chosen: Chosen): Command {
  const addRunOptions = runOptionsAdder(studies);
  const program = rootProgram(io, studies, chosen, addRunOptions);
  addReadCommands(program, chosen);
  addMultihostCommands(program, chosen, addRunOptions);
  addTargetCommand(program, chosen);
  program
    .command('resummarize <runDir>')
    .description("re-derive a run's cell summaries and flags from its raw per-request data with this version's definitions")
    .action((runDir: string) => {
      chosen.command = 'resummarize';
      chosen.runDir = runDir;
    });
  return program;
}

/**
 * Parse a command line. Returns null when it only asked for help (printed on io.stdout).
 * @throws VtbenchError(EXIT.usage) for an unknown option, a missing argument and the like
 */
export async function parseArgs(argv: readonly string[], io: Io, studies: readonly Study[]): Promise<Parsed | null> {
  const chosen: Chosen = { command: null, runDir: null, lang: null, reportDir: null, json: false, study: null, runDirB: null, out: null, allowDiff: null, minEffect: null, thresholds: null, sub: null, dirs: null };
  const program = buildProgram(io, studies, chosen);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.help' || e.code === 'commander.version') return null;
      throw new VtbenchError(e.message.replace(/^error: /, ''), 'see --help for the options', EXIT.usage);
    }
    throw e;
  }
  return { program, opts: program.opts<Opts>(), chosen };
}

/**
 * The options given before a subcommand that it reads; any other (a run option such as --study,
 * --variants, --levels, --resume) would be ignored silently, so it is refused.
 */
const SUBCOMMAND_OPTIONS: Readonly<Record<'report' | 'resummarize' | 'list' | 'compare' | 'k8s' | 'shard' | 'merge' | 'target', readonly string[]>> = {
  report: ['--runs-dir', '--report-dir', '--lang', '--debug', '--json', '--thresholds'],
  k8s: ['--debug'],
  shard: ['--debug', '--json'],
  merge: ['--runs-dir', '--debug'],
  target: ['--debug'],
  compare: ['--debug', '--json', '--thresholds'],
  resummarize: ['--debug', '--json'],
  list: ['--study', '--json', '--debug'],
};

/**
 * @throws VtbenchError(EXIT.usage) naming the options given on the command line (before the
 *   subcommand) that `command` does not apply
 */
export function refuseForeignOptions(program: Command, command: keyof typeof SUBCOMMAND_OPTIONS): void {
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
