/**
 * The command line: `npx zx run.mjs [options]` runs an experiment, `npx zx run.mjs report [dir]`
 * renders a report; `compare`, `list`, `resummarize`; `k8s`, `shard` and `merge` are the multi-host
 * flow (src/cli/multihost.ts). Reads like the pipeline: parse (program.ts) -> one command
 * (src/cli/commands/) -> its exit code. One top-level catch turns VtbenchError into one line + hint
 * + exit code (stack only with --debug).
 */
import { resolve } from 'node:path';
import type { Study } from '../types/study.ts';
import { VtbenchError, EXIT, fsError } from '../types/errors.ts';
import { loadThresholds, type Thresholds } from '../report/thresholds/rules.ts';
import { ROOT, newRunId, rawRunOptions, toolVersion, type Io } from './common.ts';
import { checkLang, dirOption, studiesOf, type MainDeps, type PrepareExtra } from './context.ts';
import { parseArgs, refuseForeignOptions, type Parsed } from './program.ts';
import { k8sCommand, mergeCommand, shardOf } from './multihost.ts';
import { listCommand } from './commands/list.ts';
import { resummarizeCommand } from './commands/resummarize.ts';
import { reportCommand } from './commands/report.ts';
import { compareCommand } from './commands/compare.ts';
import { runCommand } from './commands/run.ts';
import { targetCommand, type TargetOpts } from './commands/target.ts';

export { ROOT, newRunId, rawRunOptions, toolVersion, type Io, type MainDeps, type PrepareExtra };

/**
 * Run (or dry-run, resume, list, report) with a study given as an object, registered or not: the
 * same path as `npx zx run.mjs --study <id> ...`. `argv` are the other arguments (e.g. `--profile`,
 * `--runs-dir`, `--no-report`; with `--resume`, `report`, `resummarize` or `compare` the study is the run's own
 * and must be this one or a registered one; `list` lists this study).
 */
export function runStudy(study: Study, argv: readonly string[], io: Io, deps: MainDeps): Promise<number> {
  const others = studiesOf(deps).filter((s) => s.id !== study.id);
  const [first, ...rest] = argv;
  const args = first === 'list' ? ['list', '--study', study.id, ...rest]
    : argv.includes('--resume') || first === 'report' || first === 'resummarize' || first === 'compare' ? [...argv]
      : ['--study', study.id, ...argv];
  return main(args, io, { ...deps, studies: [study, ...others] });
}

/** The command a parse chose, run; returns its exit code. */
async function dispatch({ program, opts, chosen }: Parsed, io: Io, deps: MainDeps): Promise<number> {
  if (chosen.command !== null && chosen.command !== 'run') refuseForeignOptions(program, chosen.command);
  const lang = checkLang(String(chosen.lang ?? opts['lang'] ?? 'en'));
  const studies = studiesOf(deps);
  const json = Boolean(opts['json']) || Boolean(chosen.json);
  switch (chosen.command) {
    case 'list': return listCommand(chosen.study ?? (typeof opts['study'] === 'string' ? opts['study'] : null), json, io, studies);
    case 'k8s': return k8sCommand(chosen.sub ?? {}, io, studies);
    case 'merge': return mergeCommand(chosen.dirs ?? [], chosen.out ?? null, dirOption(opts['runsDir'], 'runs'), io);
    case 'shard': return runCommand({ ...chosen.sub, report: false }, 'en', io, deps, null, shardOf(chosen.sub ?? {}));
    case 'resummarize': return resummarizeCommand(chosen.runDir!, io);
    case 'target': return targetCommand((chosen.sub ?? {}) as TargetOpts, io);
    default: break;
  }
  // a thresholds file is read and checked before anything is measured or rendered
  const thresholdsFile = chosen.thresholds ?? (typeof opts['thresholds'] === 'string' ? opts['thresholds'] : null);
  const thresholds: Thresholds | null = thresholdsFile === null ? null : loadThresholds(resolve(process.cwd(), thresholdsFile));
  if (chosen.command === 'compare') return compareCommand({ runA: chosen.runDir!, runB: chosen.runDirB!, out: chosen.out ?? null, json, thresholds, allowDiff: chosen.allowDiff ?? null, minEffect: chosen.minEffect ?? null }, io, studies);
  if (chosen.command === 'report') return reportCommand({ runDir: chosen.runDir, runsDir: opts['runsDir'], reportDir: chosen.reportDir ?? opts['reportDir'], lang, thresholds }, io, deps);
  return runCommand(opts, lang, io, deps, thresholds);
}

/** The error as the user sees it: one line, its hint, the stack with --debug; returns its exit code. */
function reportError(caught: unknown, argv: readonly string[], debug: boolean, io: Io): number {
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

/**
 * Parse and run. Returns the exit code (never calls process.exit itself).
 */
export async function main(argv: string[], io: Io, deps: MainDeps): Promise<number> {
  let debug = argv.includes('--debug');
  try {
    const parsed = await parseArgs(argv, io, studiesOf(deps));
    if (parsed === null) return 0; // --help
    debug = Boolean(parsed.opts['debug']);
    return await dispatch(parsed, io, deps);
  } catch (caught) {
    return reportError(caught, argv, debug, io);
  }
}
