/**
 * The facts of a run folder the commands read: its lock (which harness writes it), whether it holds
 * any evidence, whether it has results, the newest one with results; and the versions a new run's
 * manifest records (git state, a dependency's version).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { VtbenchError, EXIT } from '../types/errors.ts';
import { SCHEMA_VERSION } from '../types/run.ts';
import { RunStore } from '../adapters/store/run-store.ts';
import { isOurs } from '../adapters/process/children.ts';
import { ROOT, type Io } from './common.ts';

/** The version of an installed npm package (its package.json), or 'unknown'. */
export function depVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The repository's commit and whether tracked files (outside runs/ and report/) changed; nulls outside git. */
export function gitState(): { commit: string | null; dirty: boolean | null } {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ':!runs', ':!report'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== '';
    return { commit, dirty };
  } catch {
    return { commit: null, dirty: null };
  }
}

/** `<run>/lock.json`: the pid of the harness writing the run, removed when it ends. */
export function lockPath(runDir: string): string {
  return join(runDir, 'lock.json');
}

/** The pid of a live harness that holds the run's lock, or null (no lock, or its owner is gone). */
export function liveOwner(runDir: string): number | null {
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
export function measuredNothing(store: RunStore, builtOk = false): boolean {
  return store.cellFileIds().length === 0 && holdsNothing(store.dir, builtOk);
}

/**
 * The folder-level half of {@link measuredNothing}, for any run folder (a study run's or a target
 * run's): true when `<runDir>/cells` holds no file other than dot-files and `<runDir>/logs` holds no
 * non-empty entry beyond `mock.log` (and `build.log` when `builtOk`). Never throws; an entry that
 * cannot be read counts as empty.
 */
export function holdsNothing(runDir: string, builtOk = false): boolean {
  const cells = join(runDir, 'cells');
  if (existsSync(cells) && readdirSync(cells).some((f) => !f.startsWith('.'))) return false;
  const logsDir = join(runDir, 'logs');
  if (!existsSync(logsDir)) return true;
  // logs that explain nothing: the mock's start line, a build that succeeded (its warnings)
  const nothingToKeep = new Set(['mock.log', ...(builtOk ? ['build.log'] : [])]);
  return readdirSync(logsDir).every((f) => {
    if (nothingToKeep.has(f)) return true;
    try {
      return statSync(join(logsDir, f)).size === 0;
    } catch {
      return true;
    }
  });
}

/** The folder itself or its nearest existing ancestor (for statfs before the folder exists). */
export function nearestExisting(dir: string): string {
  let d = dir;
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  return d;
}

/**
 * Whether a run folder has results: a finished cell in this version's format, or (a run in an older
 * format, which the report reads through its study's reader) any cell file.
 */
export function hasResults(dir: string): boolean {
  const store = new RunStore(dir);
  if (!store.exists()) return false;
  const v = store.schemaVersionOnDisk();
  return v === SCHEMA_VERSION ? store.doneCellIds().size > 0 : typeof v === 'number' && store.cellFileIds().length > 0;
}

/** The newest run folder that has at least one finished cell; says so when it is still running. */
export function newestRun(runsDir: string, io: Io): string {
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
