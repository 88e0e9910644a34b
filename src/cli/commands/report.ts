/** `run.mjs report [runDir]`: (re)write the report of a run, then check --thresholds against it. */
import { basename, join, resolve } from 'node:path';
import { writeTargetReport } from '../../report/target/index.ts';
import { isTargetRunDir, readTargetRun } from '../../report/target/load.ts';
import { checkTargetRules, checkTargetRun } from '../../report/thresholds/target.ts';
import { enforce } from '../../report/thresholds/check.ts';
import { checkWritable } from '../../adapters/host/prereq.ts';
import type { Thresholds } from '../../report/thresholds/rules.ts';
import { checkRunThresholds, dirOption, studiesOf, type MainDeps } from '../context.ts';
import { newestRun } from '../run-folder.ts';
import type { Io } from '../common.ts';

/** What `report` was given: the run folder (null: the newest with results), the folders as typed. */
export interface ReportArgs {
  runDir: string | null;
  /** `--runs-dir` (where the newest run is looked for) and `--report-dir`, as typed (undefined: the default) */
  runsDir: unknown;
  reportDir: unknown;
  lang: 'en' | 'zh';
  thresholds: Thresholds | null;
}

/**
 * Render the report (stdout: the run's answer block, then its index.html and the count of gaps), then check the thresholds.
 * @throws VtbenchError(EXIT.runData) without a run with results; EXIT.thresholds when a rule is broken
 */
export async function reportCommand(a: ReportArgs, io: Io, deps: MainDeps): Promise<number> {
  const dir = a.runDir !== null ? resolve(process.cwd(), a.runDir) : newestRun(dirOption(a.runsDir, 'runs'), io);
  const reportDir = dirOption(a.reportDir, 'report');
  await checkWritable(reportDir, 'report-dir');
  if (isTargetRunDir(dir)) {
    // a run of `target` (your own service, src/report/target/): its own report and its own rule check
    if (a.thresholds) checkTargetRules(a.thresholds);
    const t = await writeTargetReport(dir, join(reportDir, basename(dir)));
    io.stdout.write(`${t.answerText}\n\nreport written: ${join(reportDir, basename(dir), 'index.html')}\n`);
    if (a.thresholds) enforce(a.thresholds, checkTargetRun(a.thresholds, await readTargetRun(dir)), io.stderr, 'the report is written');
    return 0;
  }
  const r = await deps.report(dir, reportDir, a.lang, studiesOf(deps));
  if (r.answerText) io.stdout.write(`${r.answerText}\n\n`);
  io.stdout.write(`report written: ${join(r.outDir, 'index.html')}${r.gaps.length ? ` (gaps: ${r.gaps.length})` : ''}\n`);
  if (a.thresholds) await checkRunThresholds(a.thresholds, dir, io, studiesOf(deps), 'the report is written');
  return 0;
}
