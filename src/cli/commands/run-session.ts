/**
 * The measuring part of `run.mjs [options]`: prepare (JDK, the SUT build), execute the plan, and
 * close the run on disk the same way however it ends (complete, failed, Ctrl-C once or twice, the
 * launcher gone). A RunSession holds one run's signal handling; nothing lives at module level.
 */
import { setMaxListeners } from 'node:events';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Plan } from '../../plan/plan.ts';
import { formatDuration } from '../../plan/plan.ts';
import { plannedStarts, warmupsS, type RunStarts } from '../../plan/starts.ts';
import { VtbenchError, EXIT, fsError } from '../../types/errors.ts';
import type { RunManifest } from '../../types/run.ts';
import { ChildRegistry } from '../../adapters/process/children.ts';
import { executePlan, writeSummary } from '../../pipeline/run.ts';
import { withExternalComponents } from '../../pipeline/external.ts';
import { watchLaunchers } from '../../adapters/process/parent-watch.ts';
import { jsonSubscriber, textSubscriber, timedStart, type Emit } from '../../pipeline/events.ts';
import { podShardDeps, type FsBarrier } from '../../pipeline/pod-shard.ts';
import type { Io } from '../common.ts';
import type { MainDeps } from '../context.ts';
import { resumeArg } from '../../adapters/store/resume-arg.ts';
import { lockPath, measuredNothing } from '../run-folder.ts';
import type { OpenedRun } from './run-open.ts';

export { resumeArg };

/** A shard's place in a multi-host run (`run.mjs shard`). */
export interface PodArgs {
  index: number;
  of: number;
  barrier: FsBarrier;
  syncTimeoutMs: number;
}

/** What measureRun needs. */
export interface MeasureArgs {
  run: OpenedRun;
  plan: Plan;
  /** `--db-url` (null: the run starts its own PostgreSQL when a scenario needs one) */
  dbUrl: string | null;
  /** `--json`: events as JSON lines on stdout, not progress on stderr */
  json: boolean;
  pod: PodArgs | null;
}

/**
 * The starts of a run (src/plan/starts.ts): SUT JVMs of the blocks still to measure (a resumed
 * run's done cells start none), its own PostgreSQL (not with --db-url) and, with `withBuild`, the
 * SUT build when `deps.sutBuildNeeded` says sut/ changed.
 * @param done the cells already done (null: count every block)
 */
export function runStarts(run: OpenedRun, plan: Plan, dbUrl: string | null, deps: MainDeps, withBuild: boolean, done: ReadonlySet<string> | null = null): RunStarts {
  return plannedStarts(plan, run.study, run.options, { ...(done ? { done } : {}), ownDb: dbUrl === null, sutBuild: withBuild && (deps.sutBuildNeeded?.() ?? false) });
}

/** One run's signal handling and its end on disk. */
class RunSession {
  interrupted = false;
  /** the build (if any) succeeded: its log then holds only warnings */
  prepared = false;
  /** the `--resume` hint was printed (or the folder was removed: no hint) */
  private hinted = false;
  readonly abort = new AbortController();
  readonly children: ChildRegistry;

  constructor(private readonly run: OpenedRun, private readonly io: Io) {
    this.children = new ChildRegistry(join(run.store.dir, 'pids.json'));
    setMaxListeners(0, this.abort.signal); // every worker of a cell listens to it
  }

  /** The `--resume` hint, once, and only while the run folder exists and holds evidence. */
  private resumeHint(): string {
    const { store, resumeId, manifest } = this.run;
    if (this.hinted || !existsSync(store.dir) || (!resumeId && measuredNothing(store, this.prepared))) return '';
    this.hinted = true;
    return `continue with --resume ${resumeArg(store.dir, manifest.runId)}`;
  }

  /** The first Ctrl-C (or the launcher gone): stop gracefully; finished cells are kept. */
  interrupt(why: string): void {
    this.interrupted = true;
    const hint = this.resumeHint();
    this.io.stderr.write(`\n${why}: stopping (finished cells are kept${hint ? `; ${hint}` : ''})\n`);
    this.abort.abort();
  }

  /**
   * The run's end on disk, the same for every way a run ends: its status and end time in the
   * manifest (or, for a new run that measured nothing, no folder at all), and the lock removed.
   * Synchronous, so the second-signal branch can call it right before it exits. Returns the first
   * failure (a full disk), null when none.
   */
  closeRun(status: RunManifest['status']): unknown {
    const { store, manifest, resumeId } = this.run;
    manifest.status = status;
    manifest.endedAt = new Date().toISOString();
    if (!resumeId && measuredNothing(store, this.prepared)) {
      // nothing measured and no log to keep: leave no empty run folder behind
      rmSync(store.dir, { recursive: true, force: true });
      this.hinted = true; // nothing to resume
      this.io.stderr.write(`nothing was measured; removed the run folder ${store.dir}\n`);
      return null;
    }
    // each step survives the one before failing (a full disk): the lock is removed whatever happens
    let failed: unknown = null;
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
    const hint = status === 'interrupted' ? this.resumeHint() : '';
    if (hint) this.io.stderr.write(`${hint}\n`);
    return failed;
  }

  /** SIGINT/SIGTERM: the first stops gracefully; the second kills every child, closes the run and exits 130. */
  readonly onSignal = (sig: NodeJS.Signals): void => {
    if (!this.interrupted) return this.interrupt(sig);
    // second Ctrl-C: stop now, without waiting for a graceful stop; the manifest still says interrupted
    this.io.stderr.write(`\n${sig} again: killing every child and exiting\n`);
    this.children.killAllSync();
    let failed: unknown;
    try {
      failed = this.closeRun('interrupted');
    } catch (e) {
      failed = e; // removing an empty run folder can fail too; the exit code stays 130
    }
    if (failed) this.io.stderr.write(`could not record the interruption in ${this.run.store.dir}/manifest.json: ${(failed as Error).message}\n`);
    process.exit(EXIT.interrupted);
  };

  private readonly onExit = (): void => this.children.killAllSync();

  /** Listen for signals and the launcher's death; returns the function that stops listening. */
  listen(): () => void {
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
    process.on('exit', this.onExit);
    // npx does not pass signals on and its death leaves the run orphaned: stop as on SIGINT (parent-watch.ts)
    const stopWatching = watchLaunchers((why) => {
      if (!this.interrupted) this.interrupt(why);
    });
    return () => {
      process.off('SIGINT', this.onSignal);
      process.off('SIGTERM', this.onSignal);
      process.off('exit', this.onExit);
      stopWatching();
    };
  }

  /** A run error as thrown: an interruption of a run whose folder is gone keeps no `--resume` hint. */
  finalError(e: unknown): unknown {
    if (!(e instanceof VtbenchError) || e.exitCode !== EXIT.interrupted || existsSync(this.run.store.dir)) return e;
    return new VtbenchError(e.message, 'nothing was measured and the run folder is removed: start the run again', e.exitCode);
  }
}

/**
 * Prepare (the SUT build, with its progress lines when it builds), then execute the plan; the SUT's
 * versions go into the manifest. Returns 'complete' or 'interrupted'.
 * @throws VtbenchError(EXIT.runData) when a planned cell ended without a valid result; what
 *   prepare and executePlan throw
 */
async function measure(a: MeasureArgs, s: RunSession, emit: Emit, deps: MainDeps): Promise<RunManifest['status']> {
  const { run: { study, options, store, manifest }, plan } = a;
  const extra = { dbUrl: a.dbUrl, signal: s.abort.signal };
  const prepare = () => deps.prepare(options, store.logsDir, extra);
  const building = options.sutUrl === undefined && (deps.sutBuildNeeded?.() ?? false);
  const { deps: runDeps, jdk } = building ? await timedStart(emit, 'sut-build', undefined, prepare) : await prepare();
  s.prepared = true;
  if (jdk) {
    manifest.versions.jdk = jdk.version;
    manifest.versions.jdkVendor = jdk.vendor;
  }
  manifest.status = 'running';
  manifest.error = null; // a resumed run's earlier error is history (failedCells and notes keep it)
  store.writeManifest(manifest);
  const done = store.doneCellIds();
  const starts = runStarts(a.run, plan, a.dbUrl, deps, false, done);
  emit({
    type: 'plan', runId: manifest.runId, runDir: store.dir, study: study.id, profile: options.profile, scenario: options.scenario, variants: [...options.variants], totalRequests: plan.totalRequests, theoreticalS: plan.theoreticalS,
    remainingTheoreticalS: plan.cells.filter((c) => !done.has(c.cellId)).reduce((t, c) => t + c.theoreticalS, 0),
    remainingWarmupS: warmupsS(plan, done), remainingStarts: { sutJvms: starts.sutJvms, postgres: starts.postgres },
    cells: plan.cells.length, resumedCells: plan.cells.filter((c) => done.has(c.cellId)).length,
  });
  const external = withExternalComponents(runDeps, options);
  const pod = a.pod ?? undefined;
  await executePlan({ study, options, plan, store, manifest, deps: pod ? podShardDeps(external, pod.index) : external, emit, signal: s.abort.signal, children: s.children, ...(pod ? { pod } : {}), ...(a.dbUrl !== null ? { externalDb: true } : {}) });
  const first = Object.values(manifest.sut)[0];
  if (first) {
    manifest.versions.springBoot = first.springBootVersion;
    manifest.versions.springAi = first.springAiVersion;
    manifest.versions.jdk = first.jdkVersion;
    manifest.versions.jdkVendor = first.jdkVendor;
  }
  if (s.interrupted) return 'interrupted';
  // 'complete' only when true: every planned cell has files that parse and validate
  const doneNow = store.doneCellIds();
  const missing = manifest.cellOrder.filter((id) => !doneNow.has(id));
  if (missing.length > 0) {
    throw new VtbenchError(`run ${manifest.runId} ended with ${missing.length} of ${manifest.cellOrder.length} planned cell(s) without a valid result: ${missing.join(', ')}`, `measure them with --resume ${resumeArg(store.dir, manifest.runId)}`, EXIT.runData);
  }
  return 'complete';
}

/**
 * The cleanup after measuring, which never replaces the run's own error nor stops before the lock
 * is gone: the children stopped, the summary written (a failure to write it fails a complete run),
 * then the run closed (manifest last). Returns the final status and the first cleanup failure.
 */
async function finish(a: MeasureArgs, s: RunSession, status: RunManifest['status']): Promise<{ status: RunManifest['status']; summaryError: unknown; cleanupError: unknown }> {
  const { store, manifest } = a.run;
  // on a full disk every write here fails (pids.json, summary, manifest) — the first is kept and thrown after
  let cleanupError: unknown = null;
  let summaryError: unknown = null;
  try {
    await s.children.stopAll();
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
  const closeFailed = s.closeRun(status); // always runs: the manifest and the lock come last whatever failed before
  cleanupError ??= closeFailed;
  return { status, summaryError, cleanupError };
}

/**
 * Measure an opened run whose folder and lock exist: progress on stderr (or JSON lines), Ctrl-C
 * handled, the run closed on disk whatever happens. Returns 'complete' or 'interrupted'.
 * @throws the run's own error first (a failed cell, a component that died, a prerequisite), else
 *   the summary's or the cleanup's failure
 */
export async function measureRun(a: MeasureArgs, io: Io, deps: MainDeps): Promise<RunManifest['status']> {
  const { run: { store, manifest }, plan } = a;
  const emit: Emit = a.json ? jsonSubscriber(io.stdout) : textSubscriber(io.stderr, plan);
  const s = new RunSession(a.run, io);
  const stopListening = s.listen();
  const t0 = Date.now();
  let status: RunManifest['status'] = 'running';
  let runError: unknown = null;
  let ended: Awaited<ReturnType<typeof finish>> | null = null;
  try {
    status = await measure(a, s, emit, deps);
  } catch (e) {
    status = s.interrupted ? 'interrupted' : 'failed';
    const mapped = e instanceof VtbenchError ? e : fsError(e);
    manifest.error = (mapped ?? (e as Error)).message;
    a.pod?.barrier.fail(manifest.error); // the other shards stop at their next barrier
    runError = mapped ?? e;
  } finally {
    ended = await finish(a, s, status);
    stopListening();
    emit({ type: 'run-end', status: ended.status === 'running' ? 'failed' : ended.status, runDir: store.dir, elapsedS: (Date.now() - t0) / 1000 });
  }
  if (runError) throw s.finalError(runError);
  if (ended.summaryError) throw ended.summaryError;
  if (ended.cleanupError) throw ended.cleanupError;
  io.stderr.write(`wall time ${formatDuration((Date.now() - t0) / 1000)} against a theoretical ${formatDuration(plan.theoreticalS)} (+ JVM starts)\n`);
  return ended.status;
}
