/**
 * What a run spends before and between its loads: the SUT jar's build, one SUT JVM start per block,
 * one PostgreSQL start. The plan's theoretical duration (plan.ts) leaves them out; the planned
 * duration printed by `list` and before a run, and the run's ETA, add them from START_COST_S. Pure.
 */
import type { ResolvedOptions } from '../types/run.ts';
import type { Study } from '../types/study.ts';
import { formatDuration, scenarioOfVariant, type Plan } from './plan.ts';

/**
 * Start costs, s: typical figures on this project's 2-core host, never tuned to make a run look
 * shorter. Where each comes from:
 * - `sutJvm`: what one JVM block costs beyond its planned warm-up and alone probe: the previous SUT
 *   stopped, this one started until /bench/info answers, the block's unplanned work. The committed
 *   runs (runs/, 9 runs with a plan this version makes, 55 block changes) spent between one block's
 *   last cell end and the next block's first cell start, less that block's planned warm-up and probe,
 *   7.8 to 91.6 s, median 18.4 s (p25 11.8 s); Spring Boot alone logs "process running for" 5.95 to
 *   7.81 s in the three SUT logs that record it. 18 s.
 * - `postgres`: an own PostgreSQL (initdb, start, the orders table): startPostgres
 *   (src/adapters/db/postgres.ts) measured 3 times on 2026-12-02 on this host, shared with other
 *   work: 3.91, 3.33, 3.45 s. 4 s.
 * - `sutBuild`: the SUT jar's Maven build when sut/ changed since the last build (src/adapters/jvm/build.ts
 *   skips it otherwise): measured on 2026-12-02 in a fresh clone (`npx zx run.mjs --profile quick`,
 *   the Maven repository ~/.m2 already filled, the host shared with other work, load average 12):
 *   the run folder at 11:38:01, the jar and logs/build.log at 11:38:31, 30 s. A first build on a host
 *   whose Maven repository is empty adds Maven's downloads, which this figure leaves out. 30 s.
 */
export const START_COST_S = { sutJvm: 18, postgres: 4, sutBuild: 30 } as const;

/** The starts a run still has ahead of it. */
export interface RunStarts {
  /** SUT JVMs to start: one per block with a cell still to measure (0 with an external SUT, --sut-url) */
  sutJvms: number;
  /** an own PostgreSQL to start (a database scenario still to measure, no --db-url) */
  postgres: boolean;
  /** the SUT jar to build (sut/ changed since the last build; never with an external SUT) */
  sutBuild: boolean;
}

/**
 * The starts of a plan's remaining blocks.
 * @param done cells with a valid result (a resumed run's); their blocks start no JVM
 * @param ownDb whether the run starts its own PostgreSQL (false with --db-url)
 * @param sutBuild whether the SUT jar must be built first (ignored with an external SUT)
 */
export function plannedStarts(plan: Plan, study: Pick<Study, 'id' | 'scenarios'>, o: ResolvedOptions, x: { done?: ReadonlySet<string>; ownDb: boolean; sutBuild: boolean }): RunStarts {
  const done = x.done ?? new Set<string>();
  const pending = plan.blocks.filter((b) => b.cells.some((c) => !done.has(c.cellId)));
  const localSut = o.sutUrl === undefined;
  return {
    sutJvms: localSut ? pending.length : 0,
    postgres: x.ownDb && pending.some((b) => scenarioOfVariant(study, o, b.variant).usesDb === true),
    sutBuild: localSut && x.sutBuild,
  };
}

/** The starts' planned time, s: sutJvms × START_COST_S.sutJvm + the PostgreSQL start + the build. */
export function startsS(s: RunStarts): number {
  return s.sutJvms * START_COST_S.sutJvm + (s.postgres ? START_COST_S.postgres : 0) + (s.sutBuild ? START_COST_S.sutBuild : 0);
}

/**
 * One line for the plan printed before a run: the planned duration, the plan's load and warm-up
 * time plus its starts, each named with its cost, e.g.
 * `  planned duration ≈ 2 min 52 s: load and warm-up 1 min 40 s + 4 SUT JVM blocks × 18 s (stop, start)`.
 * With `done` (a resumed run's cells with a valid result) the cells, warm-ups and starts still to
 * run: `  planned duration left ≈ …: load and warm-up still to run …`.
 */
export function formatStarts(plan: Plan, s: RunStarts, done: ReadonlySet<string> = new Set()): string {
  const parts = [
    ...(s.sutJvms > 0 ? [`${s.sutJvms} SUT JVM block${s.sutJvms === 1 ? '' : 's'} × ${START_COST_S.sutJvm} s (stop, start)`] : []),
    ...(s.postgres ? [`PostgreSQL start ${START_COST_S.postgres} s`] : []),
    ...(s.sutBuild ? [`the SUT build ${formatDuration(START_COST_S.sutBuild)} (sut/ changed since the last build)`] : []),
  ];
  const resumed = plan.cells.some((c) => done.has(c.cellId));
  const loadS = loadLeftS(plan, done);
  const load = `load and warm-up ${resumed ? 'still to run ' : ''}${formatDuration(loadS)}`;
  return `  planned duration ${resumed ? 'left ' : ''}≈ ${formatDuration(loadS + startsS(s))}: ${parts.length === 0 ? `${load}, nothing to start here` : [load, ...parts].join(' + ')}`;
}

/** The planned warm-ups and alone probes of the blocks with a cell not in `done`, s. */
export function warmupsS(plan: Plan, done: ReadonlySet<string> = new Set()): number {
  return plan.blocks.filter((b) => b.cells.some((c) => !done.has(c.cellId))).reduce((t, b) => t + (b.warmup?.theoreticalS ?? 0) + (b.aloneProbe?.theoreticalS ?? 0), 0);
}

/**
 * The load and warm-up still to run, s: the plan's theoretical duration when no cell is done, else
 * the cells not in `done` plus the warm-ups and alone probes of their blocks (warmupsS).
 */
export function loadLeftS(plan: Plan, done: ReadonlySet<string> = new Set()): number {
  if (!plan.cells.some((c) => done.has(c.cellId))) return plan.theoreticalS;
  return plan.cells.filter((c) => !done.has(c.cellId)).reduce((t, c) => t + c.theoreticalS, 0) + warmupsS(plan, done);
}
