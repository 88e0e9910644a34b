/**
 * A study is data written by hand (src/studies/<id>/, or a test fixture): the engine checks its
 * shape once before using it, so a mistake in a definition is named where it is, not found later as
 * a strange cell id or a SUT that refuses to start. Pure.
 */
import { EXECUTOR_KINDS, executorInfo, type Study } from '../types/study.ts';
import { VtbenchError, EXIT } from '../types/errors.ts';
import { reservedSutProperties } from '../adapters/jvm/sut-process.ts';

/** Ids that appear in cell ids, file names and Spring properties: lower-case letters, digits, `-`. */
const SLUG = /^[a-z0-9][a-z0-9-]*$/;

/** Profile names go into run ids (`<date>-<time>-<study>-<profile>`) and folder names: a slug that may hold dots. */
const PROFILE_NAME = /^[a-z0-9][a-z0-9.-]*$/;

/**
 * A study by id among `studies` (the registry, src/studies/index.ts, passes its own).
 * @throws VtbenchError(EXIT.usage) naming --study and the known ids
 */
export function getStudy<S extends Study>(id: string, studies: readonly S[]): S {
  const s = studies.find((x) => x.id === id);
  if (!s) throw new VtbenchError(`--study: unknown study '${id}'`, `use one of: ${studies.map((x) => x.id).join(', ')} (npx zx run.mjs list shows them)`, EXIT.usage);
  return s;
}

/** Everything wrong with a study definition; empty when it is usable. */
export function studyProblems(s: Study): string[] {
  const out: string[] = [];
  const dupes = (xs: readonly string[]) => xs.filter((x, i) => xs.indexOf(x) !== i);
  if (!SLUG.test(s.id)) out.push(`id '${s.id}' is not a slug (a-z, 0-9, -)`);
  if (s.variants.length === 0) out.push('no variant');
  if (s.scenarios.length === 0) out.push('no scenario');
  if (s.profiles.length === 0) out.push('no profile (the first is the default)');
  for (const v of s.variants) {
    if (!SLUG.test(v.id)) out.push(`variant id '${v.id}' is not a slug (a-z, 0-9, -)`);
    if (v.threadNamePrefix === '') out.push(`variant ${v.id}: empty threadNamePrefix`);
    const e = v.executor;
    if (!EXECUTOR_KINDS.includes(e.kind)) out.push(`variant ${v.id}: unknown executor kind '${String(e.kind)}' (known: ${EXECUTOR_KINDS.join(', ')})`);
    const pool = EXECUTOR_KINDS.includes(e.kind) ? executorInfo(e).pool(e) : null;
    if (pool) {
      if (!Number.isInteger(pool.threads) || pool.threads < 1) out.push(`variant ${v.id}: threads ${pool.threads} is not a whole number >= 1`);
      if (!Number.isInteger(pool.queueCapacity) || pool.queueCapacity < 0) out.push(`variant ${v.id}: queueCapacity ${pool.queueCapacity} is not a whole number >= 0`);
    }
    const reserved = reservedSutProperties(v);
    if (reserved.length > 0) out.push(`variant ${v.id}: sutProperties set ${reserved.join(', ')}, which the harness sets from the executor and the options`);
  }
  for (const x of s.scenarios) if (!SLUG.test(x.id)) out.push(`scenario id '${x.id}' is not a slug (a-z, 0-9, -)`);
  for (const v of s.variants) {
    if (v.scenario !== undefined && !s.scenarios.some((x) => x.id === v.scenario)) out.push(`variant ${v.id}: scenario '${v.scenario}' is not a scenario of the study`);
  }
  for (const d of dupes(s.variants.map((v) => v.id))) out.push(`variant id '${d}' twice`);
  for (const d of dupes(s.scenarios.map((x) => x.id))) out.push(`scenario id '${d}' twice`);
  for (const d of dupes(s.profiles.map((p) => p.name))) out.push(`profile '${d}' twice`);
  const ids = new Set(s.variants.map((v) => v.id));
  const scenarioIds = new Set(s.scenarios.map((x) => x.id));
  for (const c of s.comparisons) {
    for (const id of [c.baseline, c.candidate]) if (!ids.has(id)) out.push(`comparison ${c.baseline} -> ${c.candidate}: no variant '${id}'`);
  }
  for (const p of s.profiles) {
    if (!PROFILE_NAME.test(p.name)) out.push(`profile name '${p.name}' is not a slug (a-z, 0-9, '.', '-'; it goes into run ids and folder names)`);
    const v = p.values;
    for (const id of v.variants) if (!ids.has(id)) out.push(`profile ${p.name}: variants name '${id}', which is not a variant of the study (known: ${[...ids].join(', ')})`);
    if (v.variants.length === 0) out.push(`profile ${p.name}: no variant selected`);
    if (!scenarioIds.has(v.scenario)) out.push(`profile ${p.name}: scenario '${v.scenario}' is not a scenario of the study (known: ${[...scenarioIds].join(', ')})`);
    for (const [id, e] of Object.entries(v.scenarioLevels ?? {})) {
      if (!scenarioIds.has(id)) out.push(`profile ${p.name}: scenarioLevels names '${id}', which is not a scenario of the study`);
      if (e.levels.length === 0 || e.levels.some((x, i) => !Number.isInteger(x) || x < 1 || (i > 0 && x <= e.levels[i - 1]!))) out.push(`profile ${p.name}: scenarioLevels.${id}.levels must be ascending whole numbers >= 1`);
      if (!Number.isInteger(e.requestsPerWorker) || e.requestsPerWorker < 1) out.push(`profile ${p.name}: scenarioLevels.${id}.requestsPerWorker must be a whole number >= 1`);
    }
    const pools = v.variants.filter((id) => { const e = s.variants.find((x) => x.id === id)?.executor; return e !== undefined && EXECUTOR_KINDS.includes(e.kind) && executorInfo(e).pool(e) !== null; });
    for (const [key, value] of [['poolSize', v.poolSize], ['queueCapacity', v.queueCapacity]] as const) {
      if (value !== null && pools.length > 1) out.push(`profile ${p.name}: ${key} ${value} would give ${pools.join(', ')} the same value`);
    }
  }
  for (const r of s.published) {
    if (r.variant !== null && !ids.has(r.variant)) out.push(`published row ${r.id}: no variant '${r.variant}'`);
    if (r.scenario !== null && !scenarioIds.has(r.scenario)) out.push(`published row ${r.id}: no scenario '${r.scenario}'`);
  }
  for (const d of dupes(s.published.map((r) => r.id))) out.push(`published row id '${d}' twice`);
  return out;
}

/**
 * @throws Error naming the study and every problem (a definition error, not a user's option)
 */
export function checkStudy(s: Study): void {
  const p = studyProblems(s);
  if (p.length > 0) throw new Error(`study ${s.id}: ${p.join('; ')}`);
}
