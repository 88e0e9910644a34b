/**
 * `run.mjs [options]`: run an experiment (also `--resume` and `shard`). Reads like the pipeline:
 * open the run (run-open.ts) -> plan -> checks (a dry run stops after them) -> prerequisites and
 * the run folder -> measure (run-session.ts) -> report -> thresholds.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '../../adapters/store/fsio.ts';
import { makePlan, formatPlan, planNeedsDb, type Plan } from '../../plan/plan.ts';
import { formatStarts, loadLeftS, startsS, type RunStarts } from '../../plan/starts.ts';
import { findPgBinaries, parseDbUrl, redactUrl } from '../../adapters/db/postgres.ts';
import { EXIT, fsError } from '../../types/errors.ts';
import { reapOrphans } from '../../adapters/process/children.ts';
import { DEFAULT_BIND_ADDRESS, bindWarning } from '../../adapters/jvm/bind.ts';
import { checkDisk, checkPorts, checkWritable } from '../../adapters/host/prereq.ts';
import { checkExternalComponents } from '../../pipeline/external.ts';
import { FsBarrier } from '../../pipeline/pod-shard.ts';
import type { Thresholds } from '../../report/thresholds/rules.ts';
import { rawRunOptions, type Io } from '../common.ts';
import type { ShardRunArgs } from '../multihost.ts';
import { checkRunThresholds, dirOption, studiesOf, type MainDeps } from '../context.ts';
import { lockPath, nearestExisting } from '../run-folder.ts';
import type { Opts } from '../program.ts';
import { openNew, openResumed, printResumeTodo, type OpenedRun } from './run-open.ts';
import { measureRun, runStarts } from './run-session.ts';

/** What the checks of a run need besides the opened run: the plan, the folders, the ports it binds. */
interface RunChecks {
  plan: Plan;
  runsDir: string;
  dbUrl: string | null;
  needsDb: boolean;
  localSut: boolean;
  /** the ports this run binds itself (mock, SUT), with their flags for the error */
  localPorts: { flag: string; port: number }[];
  checkOurPorts: () => Promise<void>;
  /** the starts the plan's duration adds (src/plan/starts.ts) */
  starts: RunStarts;
  /** the load and warm-up still to run, s (the whole plan's unless --resume finds cells done) */
  loadLeftS: number;
}

/** The checks' inputs, and the warning of a bind beyond loopback printed (issue 34). */
function runChecks(run: OpenedRun, plan: Plan, starts: RunStarts, done: ReadonlySet<string>, runsDir: string, dbUrl: string | null, io: Io): RunChecks {
  const { options } = run;
  // only the components this run starts need a port here and a JDK and Maven (src/pipeline/external.ts)
  const localPorts = [...(options.mockUrl === undefined ? [{ flag: 'mock-port', port: options.mockPort }] : []), ...(options.sutUrl === undefined ? [{ flag: 'sut-port', port: options.sutPort }] : [])];
  const localSut = options.sutUrl === undefined;
  // a bind beyond loopback: say what answers the network (issue 34); the control endpoints need the run's token anyway
  const exposed = bindWarning(options.bindAddress ?? DEFAULT_BIND_ADDRESS, { ...(localSut ? { sutPort: options.sutPort } : {}), ...(options.mockUrl === undefined ? { mockPort: options.mockPort } : {}) });
  if (exposed !== null) io.stderr.write(`warning: ${exposed}\n`);
  return {
    plan, starts, loadLeftS: loadLeftS(plan, done), runsDir, dbUrl, localSut, localPorts,
    needsDb: planNeedsDb(run.study, options),
    checkOurPorts: () => checkPorts(localPorts, options.bindAddress ?? DEFAULT_BIND_ADDRESS),
  };
}

/** `--dry-run`: the read-only checks, one line saying what was found (and one JSON line with --json). */
async function dryRun(run: OpenedRun, c: RunChecks, json: boolean, io: Io, deps: MainDeps): Promise<number> {
  const { options, study, store, resumeId } = run;
  await c.checkOurPorts();
  const mvn = c.localSut ? deps.checkMaven() : `no Maven needed (external SUT at ${options.sutUrl})`;
  const jdk = c.localSut ? deps.checkJdk() : 'no JDK needed';
  checkDisk(resumeId ? store.dir : nearestExisting(c.runsDir));
  const ports = c.localPorts.length === 0 ? 'no local port needed' : `port${c.localPorts.length > 1 ? 's' : ''} ${c.localPorts.map((p) => p.port).join(' and ')} free`;
  const pg = c.needsDb ? `; PostgreSQL ${findPgBinaries(process.env, undefined, c.dbUrl === null ? 'server' : 'client').version}${c.dbUrl !== null ? ` client for --db-url ${redactUrl(c.dbUrl)}` : ''}` : '';
  io.stderr.write(`prerequisites ok: ${jdk}; ${mvn}${pg}; ${ports}; output folders writable\n`);
  if (json) io.stdout.write(JSON.stringify({ type: 'dry-run', ok: true, runDir: store.dir, study: study.id, profile: options.profile, scenario: options.scenario, variants: [...options.variants], cells: c.plan.cells.length, totalRequests: c.plan.totalRequests, theoreticalS: c.plan.theoreticalS, plannedS: c.loadLeftS + startsS(c.starts), jdk, maven: mvn }) + '\n');
  return 0;
}

/**
 * The prerequisites before anything starts (ports, with a killed run's orphans reaped on --resume;
 * disk; Maven and the JDK for a local SUT; PostgreSQL's binaries), then the run folder with its lock. A damaged cell of a
 * resumed run is set aside, said on stderr and noted in the manifest.
 * @throws VtbenchError for a missing prerequisite; an fs error naming the run folder
 */
async function prepareRunFolder(run: OpenedRun, c: RunChecks, io: Io, deps: MainDeps): Promise<void> {
  const { store, manifest, resumeId } = run;
  await c.checkOurPorts().catch(async (e) => {
    if (!resumeId) throw e;
    const reaped = await reapOrphans(join(store.dir, 'pids.json'));
    if (reaped.length === 0) throw e;
    io.stderr.write(`stopped ${reaped.length} process(es) left by the killed run: ${reaped.map((r) => `${r.role} (pid ${r.pid})`).join(', ')}\n`);
    await c.checkOurPorts();
  });
  checkDisk(resumeId ? store.dir : nearestExisting(c.runsDir));
  if (c.localSut) {
    deps.checkMaven();
    deps.checkJdk(); // before the build's progress line (prepare finds the JDK first) and before the run folder exists
  }
  if (c.needsDb) findPgBinaries(process.env, undefined, c.dbUrl === null ? 'server' : 'client');
  const createdRunDir = !existsSync(store.dir);
  try {
    store.init();
    writeJsonAtomic(lockPath(store.dir), { pid: process.pid, startedAt: new Date().toISOString() });
  } catch (e) {
    if (createdRunDir) rmSync(store.dir, { recursive: true, force: true });
    throw fsError(e, `create the run folder ${store.dir}`) ?? e;
  }
  if (!resumeId) return;
  // a cell is done only when its files parse and validate; a damaged one is kept aside and re-run
  for (const d of store.setAsideDamaged()) {
    io.stderr.write(`cell ${d.cellId} is damaged (${d.problems.join('; ')}); kept aside as ${d.movedTo.join(', ')}; it is measured again\n`);
    manifest.notes = [...(manifest.notes ?? []), `${new Date().toISOString()}: on resume, cell ${d.cellId} was damaged (${d.problems.join('; ')}); its files were kept aside as ${d.movedTo.join(', ')} and the cell was measured again`];
  }
}

/**
 * Run an experiment: a new run, `--resume`, or one shard (`shardRun`). Returns the exit code: 0, or
 * EXIT.interrupted after Ctrl-C.
 * @throws VtbenchError (usage, prerequisites, a failed run, a broken threshold); fs errors mapped
 */
export async function runCommand(opts: Opts, lang: 'en' | 'zh', io: Io, deps: MainDeps, thresholds: Thresholds | null, shardRun: ShardRunArgs | null = null): Promise<number> {
  const runsDir = shardRun ? shardRun.dir : dirOption(opts['runsDir'], 'runs');
  const raw = rawRunOptions(opts);
  const resumeId = typeof opts['resume'] === 'string' ? opts['resume'] : null;
  const run = resumeId ? openResumed(resumeId, opts, raw, runsDir, deps) : openNew(opts, raw, runsDir, deps, shardRun);
  const { options, store, manifest } = run;
  const plan = makePlan(options, run.study);
  manifest.cellOrder = plan.cells.map((c) => c.cellId);
  manifest.plannedDurationS = plan.theoreticalS;

  const dbUrl = typeof opts['dbUrl'] === 'string' ? opts['dbUrl'] : null;
  if (dbUrl !== null) parseDbUrl(dbUrl); // a malformed --db-url stops here (exit 2)
  io.stderr.write(formatPlan(options, plan, store.dir) + '\n');
  const done = resumeId ? store.doneCellIds() : new Set<string>();
  const starts = runStarts(run, plan, dbUrl, deps, true, done);
  io.stderr.write(formatStarts(plan, starts, done) + '\n');
  if (resumeId) printResumeTodo(run, io);
  // output folders: probed in a child process with a timeout (creates nothing that stays)
  if (shardRun) mkdirSync(runsDir, { recursive: true });
  await checkWritable(resumeId ? store.dir : runsDir, shardRun ? 'out' : 'runs-dir');
  const barrier = shardRun ? new FsBarrier(join(shardRun.dir, 'sync'), shardRun.index, options.shards ?? 1) : null;
  barrier?.checkFresh();
  if (opts['report'] !== false) await checkWritable(dirOption(opts['reportDir'], 'report'), 'report-dir');
  const checks = runChecks(run, plan, starts, done, runsDir, dbUrl, io);
  if (!checks.localSut || options.mockUrl !== undefined) await checkExternalComponents(options, run.study);
  if (opts['dryRun']) return dryRun(run, checks, Boolean(opts['json']), io, deps);

  await prepareRunFolder(run, checks, io, deps);
  const pod = shardRun && barrier ? { index: shardRun.index, of: options.shards ?? 1, barrier, syncTimeoutMs: shardRun.syncTimeoutS * 1000 } : null;
  const status = await measureRun({ run, plan, dbUrl, json: Boolean(opts['json']), pod }, io, deps);
  if (status === 'interrupted') return EXIT.interrupted;
  // the run ends with its answer (issue 31), then where the report is; --no-report builds no model, so no answer
  if (opts['report'] !== false) {
    const r = await deps.report(store.dir, dirOption(opts['reportDir'], 'report'), lang, studiesOf(deps));
    // a new run writes both languages (issue 31): `--lang`'s report, then the other beside it (report/<id>/ and report/<id>/zh/)
    await deps.report(store.dir, dirOption(opts['reportDir'], 'report'), lang === 'en' ? 'zh' : 'en', studiesOf(deps));
    // the answer is the run's result: stdout (stderr under --json, whose stdout is the event stream)
    if (r.answerText) (opts['json'] ? io.stderr : io.stdout).write(`\n${r.answerText}\n\n`);
    io.stderr.write(`report: ${join(r.outDir, 'index.html')}\n`);
  } else {
    io.stderr.write(`no report: answer not computed (\`npx zx run.mjs report ${store.dir}\` writes the report and prints it)\n`);
  }
  // after the run and its report are on disk: a broken rule never loses measured data
  if (thresholds) await checkRunThresholds(thresholds, store.dir, io, studiesOf(deps), `the run${opts['report'] !== false ? ' and its report are' : ' is'} written (${store.dir})`);
  return 0;
}
