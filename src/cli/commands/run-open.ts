/**
 * The first steps of `run.mjs [options]` (and `--resume`, and `shard`): the run folder and manifest of
 * a new run or of the run to resume, with its options and study; what `--resume` will measure.
 * Nothing here starts a process or writes a file.
 */
import { basename, join, resolve } from 'node:path';
import { hostname as osHostname } from 'node:os';
import { OPTION_SPECS, type OptionKey } from '../../plan/options.ts';
import { defaultProfile, resolveOptions, checkBounds } from '../../plan/profiles.ts';
import { getStudy } from '../../studies/index.ts';
import type { Study } from '../../types/study.ts';
import { readHostLimits } from '../../adapters/host/limits.ts';
import { requireProfileJdk } from '../../adapters/jvm/jdk.ts';
import { VtbenchError, EXIT } from '../../types/errors.ts';
import { RunStore, legacyRunError } from '../../adapters/store/run-store.ts';
import { SCHEMA_VERSION, type ResolvedOptions, type RunManifest } from '../../types/run.ts';
import { hostInfo } from '../../adapters/host/host.ts';
import { recordExternal } from '../../pipeline/external.ts';
import { newRunId, toolVersion, type Io } from '../common.ts';
import { checkShardRun, type ShardRunArgs } from '../multihost.ts';
import { defaultStudyOf, openStore, studiesOf, type MainDeps } from '../context.ts';
import { depVersion, gitState, liveOwner } from '../run-folder.ts';
import type { Opts } from '../program.ts';
import { isTargetRunDir } from '../../report/target/load.ts';

/** A run about to be measured: its study, resolved options, store and manifest (in memory). */
export interface OpenedRun {
  study: Study;
  options: Readonly<ResolvedOptions>;
  store: RunStore;
  manifest: RunManifest;
  /** `--resume` as given, null for a new run */
  resumeId: string | null;
}

/**
 * The run `--resume <id|dir>` names, with its recorded options.
 * @throws VtbenchError: EXIT.usage when run options are given too or the recorded plan exceeds this
 *   host's limits; EXIT.runData when there is no such run, it is still in progress, it was written by
 *   another schema version, or its study is unknown here
 */
export function openResumed(resumeId: string, opts: Opts, raw: Partial<Record<OptionKey, string>>, runsDir: string, deps: MainDeps): OpenedRun {
  const studies = studiesOf(deps);
  const given = [...Object.keys(raw).map((k) => OPTION_SPECS.find((s) => s.key === k)!.flag), ...['study', 'profile'].filter((k) => typeof opts[k] === 'string')];
  if (given.length > 0) {
    throw new VtbenchError(`--resume keeps the run's recorded options; do not also give ${given.map((f) => `--${f}`).join(', ')}`, 'drop those options, or start a new run', EXIT.usage);
  }
  // a bare run id is looked up under --runs-dir; anything with a slash is the run folder itself
  const store = openStore(deps, resumeId.includes('/') ? resolve(process.cwd(), resumeId) : join(runsDir, resumeId));
  if (!store.exists()) throw new VtbenchError(`--resume: no run folder ${store.dir} with a manifest.json`, `list runs with: ls ${runsDir}`, EXIT.runData);
  if (isTargetRunDir(store.dir)) {
    const id = basename(store.dir);
    throw new VtbenchError(`--resume: ${store.dir} is a run of \`target\` (your own service), not a study's run`, `continue it with the same target command and --run-id ${id} (finished cells are kept)`, EXIT.usage);
  }
  const version = store.schemaVersionOnDisk();
  if (typeof version === 'number' && version !== SCHEMA_VERSION) {
    const e = legacyRunError(store.dir, version, 'resumed');
    throw new VtbenchError(`--resume: ${e.message}`, e.hint, e.exitCode);
  }
  const manifest = store.readManifest();
  const owner = liveOwner(store.dir);
  if (owner !== null) {
    throw new VtbenchError(`--resume: run ${manifest.runId} is still in progress (harness pid ${owner})`, `wait for it, or stop it first (kill -INT ${owner}); then resume`, EXIT.runData);
  }
  if (manifest.schemaVersion !== SCHEMA_VERSION) throw new VtbenchError(`--resume: run ${manifest.runId} has schema version ${manifest.schemaVersion}, this tool writes ${SCHEMA_VERSION}`, 'start a new run', EXIT.runData);
  const options = Object.freeze({ ...manifest.options });
  const study = studies.find((x) => x.id === options.study);
  if (!study) throw new VtbenchError(`--resume: run ${manifest.runId} measured study '${options.study}', which this vtbench does not define`, `resume it with the vtbench version that started it (manifest.json: tool.version); known studies: ${studies.map((x) => x.id).join(', ')}`, EXIT.runData);
  try {
    checkBounds(options, readHostLimits(), study); // recorded on another host, perhaps
  } catch (e) {
    if (!(e instanceof VtbenchError)) throw e;
    throw new VtbenchError(`--resume: the recorded plan exceeds this host's limits: ${e.message}`, 'resume on a host with the limits the run was planned on (e.g. a higher ulimit -n), or start a new run', EXIT.usage);
  }
  return { study, options, store, manifest, resumeId };
}

/** A new run's manifest: status running, nothing measured, the host and versions known now. */
function newManifest(runId: string, options: Readonly<ResolvedOptions>): RunManifest {
  const g = gitState();
  return {
    schemaVersion: SCHEMA_VERSION,
    runId,
    tool: { name: 'vtbench', version: toolVersion(), gitCommit: g.commit, gitDirty: g.dirty },
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
}

/**
 * A new run (or one shard of a multi-host run): the study and profile chosen, the options resolved
 * and bounded, a fresh run id and folder under `runsDir` (shard: `<out>/shard-<index>`).
 * @throws VtbenchError(EXIT.usage) for an unknown study, profile or option value, a shard folder
 *   that exists; EXIT.prerequisite when the profile needs a JDK this host lacks
 */
export function openNew(opts: Opts, raw: Partial<Record<OptionKey, string>>, runsDir: string, deps: MainDeps, shardRun: ShardRunArgs | null): OpenedRun {
  const studies = studiesOf(deps);
  const study = typeof opts['study'] === 'string' ? getStudy(opts['study'], studies) : defaultStudyOf(studies);
  const options = resolveOptions(study, typeof opts['profile'] === 'string' ? opts['profile'] : defaultProfile(study).name, raw);
  // a profile that exists to test one JDK (study 000's jdk21) stops here, before anything starts, on a host without it
  requireProfileJdk(study.profiles.find((p) => p.name === options.profile) ?? { name: options.profile });
  const runId = newRunId(study.id, options.profile);
  if (shardRun) checkShardRun(shardRun, options);
  const store = openStore(deps, shardRun ? join(shardRun.dir, `shard-${shardRun.index}`) : join(runsDir, runId));
  if (shardRun && store.exists()) throw new VtbenchError(`shard: ${store.dir} exists: shard ${shardRun.index} already ran into this folder`, 'every attempt needs a fresh shared folder: delete it or give another --out', EXIT.usage);
  const manifest = newManifest(runId, options);
  recordExternal(manifest);
  if (shardRun) manifest.shard = { index: shardRun.index, of: options.shards ?? 1, hostname: osHostname() };
  return { study, options, store, manifest, resumeId: null };
}

/** `--resume`: one line on stderr saying what is done and what will be measured (damaged and failed cells named so). */
export function printResumeTodo(run: OpenedRun, io: Io): void {
  const { store, manifest } = run;
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
