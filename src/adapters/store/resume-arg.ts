/**
 * What `--resume` takes to find a run folder again, for the hints that tell a user how to continue.
 */
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '../jvm/paths.ts';

/** The default `--runs-dir` of a user's runs (git-ignored): `<repo>/out/runs`. */
export const DEFAULT_RUNS_DIR = join(REPO_ROOT, 'out', 'runs');

/**
 * What `--resume` takes to find this run again: the bare id when the folder is
 * `<DEFAULT_RUNS_DIR>/<id>`, else the folder itself (an absolute path, which --resume reads as the
 * folder), single-quoted for the shell when it holds anything but `[A-Za-z0-9_./-]`. So a run under
 * `--runs-dir`, or resumed by its path, is not looked up under out/runs/. Pure.
 */
export function resumeArg(runDir: string, runId: string): string {
  const dir = resolve(runDir);
  if (dir === join(DEFAULT_RUNS_DIR, runId)) return runId;
  return /^[A-Za-z0-9_./-]+$/.test(dir) ? dir : `'${dir.replace(/'/g, `'\\''`)}'`;
}
