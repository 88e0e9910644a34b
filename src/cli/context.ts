/**
 * What the commands of the command line share: the dependencies `main` is given (MainDeps), the
 * studies of a call, the output folders' defaults, `--lang`, and the thresholds check after a run
 * or a report. No state: every function answers from its arguments.
 */
import { join, resolve } from 'node:path';
import { STUDIES, DEFAULT_STUDY, getStudy } from '../studies/index.ts';
import type { Study } from '../types/study.ts';
import type { ResolvedOptions } from '../types/run.ts';
import { VtbenchError, EXIT } from '../types/errors.ts';
import { RunStore } from '../adapters/store/run-store.ts';
import type { RunDeps } from '../pipeline/run.ts';
import { loadRun } from '../report/load.ts';
import { checkRun, enforce, type RuleOutcome } from '../report/thresholds/check.ts';
import type { Thresholds } from '../report/thresholds/rules.ts';
import { ROOT, type Io } from './common.ts';

/** Run settings that are not recorded options (they may hold secrets): `--db-url`. */
export interface PrepareExtra {
  /** `--db-url`: an existing PostgreSQL for the database scenarios (null: the harness starts its own) */
  dbUrl: string | null;
  /** the run's abort (SIGINT/SIGTERM): a build in progress stops at once */
  signal?: AbortSignal;
}

/** Everything main needs from outside, so tests can run it in-process with fakes. */
export interface MainDeps {
  /** checks JDK (and Maven), builds the SUT; returns JDK facts and the run dependencies */
  prepare(o: ResolvedOptions, logsDir: string, extra?: PrepareExtra): Promise<{ deps: RunDeps; jdk: { version: string; vendor: string } | null }>;
  /** find the JDK the SUT needs; returns a one-line description; throws VtbenchError if absent */
  checkJdk(): string;
  /** find Maven (the SUT's build); returns its version line; throws VtbenchError(EXIT.prerequisite) if absent */
  checkMaven(): string;
  /**
   * render the report of a run folder (its study found among `studies`); returns the report's folder,
   * gaps and the run's answer block as plain text in `lang` (src/report/answer-text.ts answerText;
   * absent from a stand-in that renders nothing)
   */
  report(runDir: string, outRoot: string, lang: 'en' | 'zh', studies: readonly Study[]): Promise<{ outDir: string; gaps: string[]; answerText?: string }>;
  /** the store of a run folder (default `new RunStore(dir)`; tests inject writer faults here) */
  openStore?(dir: string): RunStore;
  /**
   * the studies --study, `list` and --resume choose from (default STUDIES, src/studies/index.ts);
   * a test runs a study that is not registered by passing it here (see runStudy)
   */
  studies?: readonly Study[];
  /**
   * whether `prepare` will build the SUT jar with Maven (its sources changed since the last build);
   * default false. Only for the progress lines and the planned duration: the build decides itself
   */
  sutBuildNeeded?(): boolean;
}

/** The studies of a call: the injected ones, or the registered STUDIES. */
export function studiesOf(deps: MainDeps): readonly Study[] {
  return deps.studies ?? STUDIES;
}

/** The study run without --study: DEFAULT_STUDY when it is among `studies`, else the first. */
export function defaultStudyOf(studies: readonly Study[]): Study {
  return studies.find((s) => s.id === DEFAULT_STUDY) ?? studies[0] ?? getStudy(DEFAULT_STUDY);
}

/** The store of a run folder: `deps.openStore` (tests inject writer faults there) or a RunStore. */
export function openStore(deps: MainDeps, dir: string): RunStore {
  return deps.openStore ? deps.openStore(dir) : new RunStore(dir);
}

/**
 * A user-given path resolves against the current folder. The defaults are `out/runs/` and
 * `out/report/` of this repository, which git ignores, so a user's run leaves the checkout clean;
 * the committed reference runs and reports (`runs/`, `report/`) change only when named on purpose
 * (`--runs-dir runs`, `--report-dir report`).
 */
export function dirOption(value: unknown, name: 'runs' | 'report'): string {
  const fallback = join(ROOT, 'out', name);
  if (typeof value !== 'string') return fallback;
  if (value.trim() === '') throw new VtbenchError(`--${name}-dir: an empty folder name`, `give a folder, e.g. --${name}-dir ./${name}, or leave the option out for ${fallback}`, EXIT.usage);
  return resolve(process.cwd(), value);
}

/** `--lang`: en or zh. @throws VtbenchError(EXIT.usage) for any other */
export function checkLang(l: string): 'en' | 'zh' {
  if (l !== 'en' && l !== 'zh') throw new VtbenchError(`--lang: unknown language '${l}'`, 'use en or zh', EXIT.usage);
  return l;
}

/**
 * Check a run's rules against its summary (as the report reads it: src/report/load.ts); prints
 * every broken rule to stderr.
 * @throws VtbenchError(EXIT.thresholds) when one is broken
 */
export async function checkRunThresholds(t: Thresholds, runDir: string, io: Io, studies: readonly Study[], written: string): Promise<RuleOutcome[]> {
  const run = await loadRun(runDir, { studies });
  const outcomes = checkRun(t, run);
  enforce(t, outcomes, io.stderr, written);
  return outcomes;
}
