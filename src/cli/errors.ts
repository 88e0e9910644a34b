/**
 * The one error type for expected failures. Every VtbenchError carries a hint (the fix) and a
 * documented exit code; the top-level catch prints `error: <message>\n  hint: <hint>` and exits
 * with `exitCode`. Stack traces only with `--debug`.
 *
 * Exit codes (documented in README.md, "Exit codes"):
 */
export const EXIT = {
  /** bad command-line option or profile */
  usage: 2,
  /** a prerequisite is missing: JDK >= 21, Maven, disk */
  prerequisite: 3,
  /** a port the run needs is in use */
  portInUse: 4,
  /** the Maven build of sut/ failed */
  build: 5,
  /** the SUT or mock did not become ready in time, or died */
  notReady: 6,
  /** the run folder to resume or report is missing, partial beyond use, or of an unknown schema */
  runData: 7,
  /** interrupted by SIGINT/SIGTERM (128 + 2) */
  interrupted: 130,
} as const;

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
