/**
 * The one error type for expected failures, shared by the harness and the mock (src/types/, so the
 * mock, its own process, does not import the CLI). Every VtbenchError carries a hint (the fix) and a
 * documented exit code; the top-level catch prints `error: <message>\n  hint: <hint>` and exits
 * with `exitCode`. Stack traces only with `--debug`.
 *
 * Exit codes (documented in docs/exit-codes.md):
 */
export const EXIT = {
  /** done */
  ok: 0,
  /** unexpected error (rerun with --debug for the stack) */
  unexpected: 1,
  /** bad command-line option or profile */
  usage: 2,
  /** a prerequisite is missing: JDK >= 21, Maven, disk space (also a disk that fills up mid-run) */
  prerequisite: 3,
  /** a port the run needs is in use */
  portInUse: 4,
  /** the Maven build of sut/ failed */
  build: 5,
  /** the SUT, mock, PostgreSQL or a load shard did not become ready in time, died, or answered with the wrong shape */
  notReady: 6,
  /** the run folder to resume or report is missing, partial beyond use, or of an unknown schema */
  runData: 7,
  /** an output folder or file cannot be written: not a folder, read-only, no permission, or it hangs (e.g. under /proc) */
  outputUnusable: 8,
  /** a `--thresholds` rule is broken (each broken rule was printed; the run, report or comparison was written first) */
  thresholds: 9,
  /** `compare` (or a `--thresholds` compare rule) of runs that differ in what changes the bounds or the host, without `--allow-diff` naming it */
  notComparable: 10,
  /** a `--thresholds` compare rule is inconclusive (neither faster nor slower could be shown), and no rule is broken */
  inconclusive: 11,
  /** interrupted by SIGINT/SIGTERM (128 + 2) */
  interrupted: 130,
} as const;

/**
 * What each exit code means, for the user. The table in docs/exit-codes.md and `--help` are made
 * from this (test/unit/config-exit-codes.test.ts checks docs/exit-codes.md against it).
 */
export const EXIT_MEANINGS: Record<keyof typeof EXIT, string> = {
  ok: 'done',
  unexpected: 'unexpected error (rerun with `--debug` for the stack)',
  usage: 'bad option or profile (the message names it), or a plan beyond a stated or host limit',
  prerequisite: 'missing prerequisite: JDK ≥ 21, Maven, disk space (also a disk that fills up mid-run; finished cells are kept)',
  portInUse: 'a port the run needs is in use',
  build: 'the Maven build of `sut/` failed (the tail of its log is printed)',
  notReady: 'the SUT, the mock, PostgreSQL or a load shard did not become ready in time, died, or answered with the wrong shape (the message names it and its log or URL)',
  runData: 'a run folder to resume or report is missing or unusable',
  outputUnusable: 'an output folder (`--runs-dir`, `--report-dir`) cannot be written: not a folder, read-only, no permission, or it does not answer (e.g. under `/proc`)',
  thresholds: 'a `--thresholds` rule is broken: each broken rule is printed with its cell, measured value and limit; the run, its report or the comparison is written first',
  notComparable: 'not comparable: `compare` (or a `--thresholds` compare rule) of runs that differ in what changes the bounds or the host (JDK major, cores or CPU quota, pool size, mock latency, load model, study or scenario, CPU isolation); the differences are printed; `--allow-diff <kinds>` compares anyway. A broken rule (9) takes precedence',
  inconclusive: 'a `--thresholds` compare rule is inconclusive: the 95 % interval includes 0, or the noise between a run\'s repeats exceeds `--min-effect` and reaches the interval\'s end nearest 0; no rule is broken and the runs are comparable (9 and 10 take precedence). 11 says the data cannot tell, not that there is no regression: rerun with more repeats or on a quieter host',
  interrupted: 'interrupted (Ctrl-C); finished cells are kept, `--resume` continues',
};

/** The exit-code table of docs/exit-codes.md (Markdown), from EXIT and EXIT_MEANINGS. */
export function exitCodeTable(): string {
  const rows = (Object.keys(EXIT) as (keyof typeof EXIT)[]).map((k) => `| ${EXIT[k]} | ${EXIT_MEANINGS[k]} |`);
  return ['| code | meaning |', '|---|---|', ...rows].join('\n');
}

/** The exit codes as plain text lines for --help. */
export function exitCodeHelp(): string[] {
  return (Object.keys(EXIT) as (keyof typeof EXIT)[]).map((k) => `  ${String(EXIT[k]).padStart(3)}  ${EXIT_MEANINGS[k].replace(/`/g, '')}`);
}

export class VtbenchError extends Error {
  /**
   * @param message what went wrong, one line, naming the option or thing at fault
   * @param hint the fix, one line
   * @param exitCode one of {@link EXIT}
   */
  constructor(message: string, public readonly hint: string, public readonly exitCode: number) {
    super(message);
    this.name = 'VtbenchError';
  }
}


/** What each errno of a file operation means to the user (one line, no jargon beyond the code). */
const FS_REASONS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exhausted',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder where a file was expected',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the filesystem is read-only',
  ENOENT: 'it does not exist and cannot be created there',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the path is too long',
  EEXIST: 'something else already exists there',
  EMFILE: 'too many open files in this process (ulimit -n)',
  ENFILE: 'too many open files on the host',
  EIO: 'an I/O error on the device',
  EBUSY: 'the device or file is busy',
  ETIMEDOUT: 'the filesystem did not answer in time',
};

/**
 * The one mapping from a file-system error (Node's errno errors: `code`, `syscall`, `path`) to a
 * VtbenchError with the documented exit code and a one-line message naming the path: disk space
 * (ENOSPC, EDQUOT) → EXIT.prerequisite (3); every other errno of a file operation → the
 * `unusable` code, EXIT.outputUnusable (8) by default (a reader passes EXIT.runData).
 * @param what what was being done, e.g. `write the run folder` (default: from the syscall)
 * @returns null when `e` is not an errno error of a file operation (then it stays unexpected)
 */
export function fsError(e: unknown, what?: string, unusable: number = EXIT.outputUnusable): VtbenchError | null {
  const err = e as NodeJS.ErrnoException | null;
  if (!err || typeof err !== 'object' || typeof err.code !== 'string' || !(err.code in FS_REASONS)) return null;
  if (typeof err.path !== 'string' && typeof err.syscall !== 'string') return null;
  const path = err.path ?? '(unknown path)';
  const doing = what ?? (err.syscall ? `${err.syscall} ${path}` : `use ${path}`);
  const reason = `${FS_REASONS[err.code]} (${err.code})`;
  if (err.code === 'ENOSPC' || err.code === 'EDQUOT') {
    return new VtbenchError(`cannot ${doing}: ${reason}`, `free disk space on the filesystem of ${path}, or give --runs-dir/--report-dir on another disk; finished cells are kept (--resume continues)`, EXIT.prerequisite);
  }
  const hint = err.code === 'ENOTDIR' || err.code === 'EEXIST'
    ? `${path}, or a part of it, is a file, not a folder: give --runs-dir/--report-dir a folder`
    : `give --runs-dir/--report-dir a writable folder (check: mkdir -p ${path} && touch ${path}/.probe && rm ${path}/.probe)`;
  return new VtbenchError(`cannot ${doing}: ${reason}`, hint, unusable);
}
