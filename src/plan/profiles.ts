/**
 * Resolving a run's options: a study (src/studies/<id>), one of its profiles (first = default), and
 * flags that override any field. The study owns its variants, scenarios and profiles; this module
 * knows none of them by name. Any field can be overridden by a flag.
 */
import { VtbenchError, EXIT } from '../types/errors.ts';
import { OPTION_SPECS, maxValue, tooLarge, type OptionKey } from './options.ts';
import { makePlan, formatDuration, scenarioOf, isOpenLoop, openLoopDurationS, levelsOf, scenarioOfVariant } from './plan.ts';
import { executorCapacityRps, queueAtEnd, openLoopCellDurationS } from '../compute/theory/open-loop.ts';
import { OPEN_LOOP_DEFAULTS, WEBSOCKET_DEFAULT_HOLD_S } from '../load/driver.ts';
import { jobLimitProblems } from './sut-limits.ts';
import { FD_RESERVE, MAX_PLAN_DURATION_S, SUT_REQUEST_TIMEOUT_MS, maxCellRequests, maxConcurrency, maxRunRequests, maxWebSocketConnections, readHostLimits, type HostLimits } from '../adapters/host/limits.ts';
import type { ResolvedOptions } from '../types/run.ts';
import { executorInfo, type Profile, type Scenario, type Study, type Variant } from '../types/study.ts';
import { driverFor, driverOf, withShards } from '../load/driver.ts';
import { checkStudy } from './study-check.ts';
import { START_COST_S, plannedStarts, startsS } from './starts.ts';

/** The default profile of a study: its first. */
export function defaultProfile(study: Study): Profile {
  const p = study.profiles[0];
  if (!p) throw new Error(`study ${study.id} has no profile`);
  return p;
}

/** One profile's plan in figures: for `run.mjs list`. */
export interface ProfileListing {
  study: string; profile: string; isDefault: boolean; description: string; cells: number; requests: number;
  /** theoretical load and warm-up, s */
  plannedS: number;
  /** the SUT JVM starts and the PostgreSQL start at START_COST_S (src/plan/starts.ts), s; the build excluded */
  startsS: number;
}

/**
 * Every study's profiles with their planned cells, requests and theoretical duration, resolved
 * exactly as a run would resolve them (same bounds against `host`).
 * @throws VtbenchError when a profile does not fit this host (its message names the option)
 */
export function listProfiles(studies: readonly Study[], host: HostLimits = readHostLimits()): ProfileListing[] {
  return studies.flatMap((st) => st.profiles.map((p, i) => {
    const o = resolveOptions(st, p.name, {}, host);
    const plan = makePlan(o, st);
    const starts = startsS(plannedStarts(plan, st, o, { ownDb: true, sutBuild: false }));
    return { study: st.id, profile: p.name, isDefault: i === 0, description: p.description, cells: plan.cells.length, requests: plan.totalRequests, plannedS: plan.theoreticalS, startsS: starts };
  }));
}

/** The listing as text: a study header, then one line per profile. */
export function formatProfileList(rows: readonly ProfileListing[], studies: readonly Study[]): string {
  const lines: string[] = [];
  for (const st of studies) {
    lines.push(`study ${st.id}: ${st.title} (${st.sourceSummary ? `its source summarised in ${st.sourceSummary}` : `source ${st.source}`})`);
    lines.push(`  ${'profile'.padEnd(20)} ${'cells'.padStart(6)} ${'requests'.padStart(10)}   planned duration`);
    for (const r of rows.filter((x) => x.study === st.id)) {
      lines.push(`  ${(r.profile + (r.isDefault ? ' (default)' : '')).padEnd(20)} ${String(r.cells).padStart(6)} ${r.requests.toLocaleString('en-US').padStart(10)}   ≈ ${formatDuration(r.plannedS + r.startsS)} (load and warm-up ≥ ${formatDuration(r.plannedS)} + starts ${formatDuration(r.startsS)})`);
      lines.push(`      ${r.description}`);
    }
  }
  lines.push('', `Planned durations are load and warm-up time from the theoretical bounds plus the starts: each SUT JVM block ≈ ${START_COST_S.sutJvm} s (the previous JVM stopped, this one started), PostgreSQL ≈ ${START_COST_S.postgres} s (measured, src/plan/starts.ts). A run whose sut/ changed since the last build first builds the SUT (≈ ${formatDuration(START_COST_S.sutBuild)} measured with a filled Maven repository; more when Maven must download).`);
  return lines.join('\n');
}

/** Find a study's profile by name or throw a usage error listing the study's profiles. */
export function getProfile(study: Study, name: string): Profile {
  const p = study.profiles.find((x) => x.name === name);
  if (!p) {
    throw new VtbenchError(`--profile: unknown profile '${name}' of study ${study.id}`, `use one of: ${study.profiles.map((x) => x.name).join(', ')}`, EXIT.usage);
  }
  return p;
}

/**
 * The effective variants of a run: the study's variants named in `o.variants` (in that order), with
 * `o.poolSize` / `o.queueCapacity` (when not null) replacing the threads / queue capacity of the
 * platform-pool variant (resolveOptions refuses the flags unless exactly one is selected; a
 * profile's own values, study-check.ts). Copies; the study's own objects are never changed.
 * @throws VtbenchError(EXIT.usage) naming --variants when an id is not the study's
 */
export function effectiveVariants(study: Study, o: Pick<ResolvedOptions, 'variants' | 'poolSize' | 'queueCapacity'>): Variant[] {
  return o.variants.map((id) => {
    const v = study.variants.find((x) => x.id === id);
    if (!v) {
      throw new VtbenchError(`--variants: unknown variant '${id}' of study ${study.id}`, `use one or more of: ${study.variants.map((x) => x.id).join(', ')}`, EXIT.usage);
    }
    const out = structuredClone(v) as Variant;
    const info = executorInfo(out.executor);
    const pool = info.pool(out.executor);
    if (pool) out.executor = info.withPool(out.executor, { threads: o.poolSize ?? pool.threads, queueCapacity: o.queueCapacity ?? pool.queueCapacity });
    return out;
  });
}

/**
 * `--pool-size` / `--queue-capacity` replace one platform pool's values: refuse them when the selected
 * variants hold no platform pool (the flag would do nothing) or two or more (it would make distinct
 * arms identical). A profile's own poolSize/queueCapacity is checked by study-check.ts.
 * @throws VtbenchError(EXIT.usage) naming the flag and the fix
 */
function checkPoolOverrides(study: Study, o: Pick<ResolvedOptions, 'variants'>, raw: Partial<Record<OptionKey, string>>): void {
  const selected = o.variants.map((id) => study.variants.find((x) => x.id === id)).filter((v): v is Variant => v !== undefined);
  const pools = selected.filter((v) => executorInfo(v.executor).pool(v.executor) !== null).map((v) => v.id);
  for (const [key, flag, what] of [['poolSize', 'pool-size', 'size'], ['queueCapacity', 'queue-capacity', 'queue capacity']] as const) {
    if (raw[key] === undefined) continue;
    if (pools.length === 0) {
      throw new VtbenchError(`--${flag}: none of the selected variants (${o.variants.join(', ')}) is a platform pool`, `drop --${flag}`, EXIT.usage);
    }
    if (pools.length > 1) {
      throw new VtbenchError(`--${flag}: would give ${pools.slice(0, -1).join(', ')} and ${pools[pools.length - 1]} the same ${what}`, `select one of them with --variants, or drop --${flag}`, EXIT.usage);
    }
  }
}

/**
 * Study + profile + raw flag values (strings, keyed by option key) -> frozen ResolvedOptions.
 * Throws VtbenchError (exit 2) naming the flag for any bad value, a value above its bound on this
 * host (checkBounds) or an inconsistent combination. The dry run and the run both call this.
 * @param host the host's limits (read from /proc by default; tests pass their own)
 */
export function resolveOptions(study: Study, profileName: string, raw: Partial<Record<OptionKey, string>>, host: HostLimits = readHostLimits()): Readonly<ResolvedOptions> {
  checkStudy(study);
  const profile = getProfile(study, profileName);
  const values = structuredClone(profile.values);
  const out = { study: study.id, profile: profile.name, ...values, variantSpecs: [] } as ResolvedOptions;
  for (const s of OPTION_SPECS) {
    const v = raw[s.key];
    if (v === undefined) continue;
    try {
      (out as unknown as Record<string, unknown>)[s.key] = s.parse(v);
    } catch (e) {
      // a list of ids: the hint names the study's own ids
      const ids = s.key === 'variants' ? study.variants.map((x) => x.id) : s.key === 'scenario' ? study.scenarios.map((x) => x.id) : null;
      if (!(e instanceof VtbenchError) || ids === null) throw e;
      throw new VtbenchError(e.message, `${e.hint}; study ${study.id}'s ${s.key === 'variants' ? 'variants' : 'scenarios'}: ${ids.join(', ')}`, e.exitCode);
    }
  }
  // a flag that sets levels or requests per worker applies to every scenario: it replaces that one
  // field of each per-scenario entry and keeps the other (`--profile smoke --requests-per-worker
  // 1500` keeps each scenario's smoke levels instead of falling back to the study's base levels)
  if (out.scenarioLevels && (raw.levels !== undefined || raw.requestsPerWorker !== undefined)) {
    out.scenarioLevels = Object.fromEntries(Object.entries(out.scenarioLevels).map(([id, e]) => [id, {
      levels: raw.levels !== undefined ? out.levels : e.levels,
      requestsPerWorker: raw.requestsPerWorker !== undefined ? out.requestsPerWorker : e.requestsPerWorker,
    }]));
  }
  if (!study.scenarios.some((x) => x.id === out.scenario)) {
    throw new VtbenchError(`--scenario: unknown scenario '${out.scenario}' of study ${study.id}`, `use one of: ${study.scenarios.map((x) => x.id).join(', ')}`, EXIT.usage);
  }
  driverFor(scenarioOf(study, out.scenario)); // a scenario whose driver is not built yet stops here
  if ((out.shards ?? 1) > 1) {
    withShards(driverFor(scenarioOf(study, out.scenario)), out.shards!); // only closed-loop HTTP shards
    const lowest = Math.min(...out.levels);
    if (out.shards! > lowest) throw new VtbenchError(`--shards ${out.shards}: the level ${lowest} has fewer workers than shards (each shard needs one)`, `give --shards ${lowest} or less, or drop the level`, EXIT.usage);
  }
  checkPoolOverrides(study, out, raw);
  out.variantSpecs = effectiveVariants(study, out);
  for (const v of out.variantSpecs) driverFor(scenarioOfVariant(study, out, v)); // a variant's own scenario must exist and be runnable
  if (out.mockPort === out.sutPort) {
    throw new VtbenchError(`--mock-port and --sut-port are both ${out.mockPort}`, 'give them different ports', EXIT.usage);
  }
  if (out.cpuIsolation && out.sutUrl !== undefined) {
    throw new VtbenchError('--isolate-cpus places the SUT JVM this run starts on its own CPUs; with --sut-url the SUT is someone else\'s', 'drop --isolate-cpus, or pin the external SUT yourself (e.g. taskset -c <cpus> java ...)', EXIT.usage);
  }
  if (out.rampMs === 0) out.rampMs = out.latencyMs;
  checkBounds(out, host, study);
  if (isOpenLoop(study, out)) checkOpenLoopFeasible(out, study, host);
  else checkFeasible(out, study);
  return deepFreeze(out);
}

/** A stated maximum of cells per run (levels × repeats × variants). */
export const MAX_CELLS = 10_000;

/** The SUT's limits file, as the hint names it. */
const SUT_LIMITS_FILE_REL = 'sut/src/main/resources/bench-limits.properties';

/**
 * Every option against its declared maximum (OPTION_SPECS[].max, host-derived ones from `host`),
 * then the plan's totals: one cell's requests (c × n) and the run's requests against the heap
 * (limits.ts: maxCellRequests, maxRunRequests), the planned duration against MAX_PLAN_DURATION_S.
 * An in-process scenario's job parameters against the SUT's own limits (sut-limits.ts).
 * Also used on --resume (the recorded options against this host).
 * @throws VtbenchError(EXIT.usage) naming the flag, the maximum and its reason
 */
export function checkBounds(o: ResolvedOptions, host: HostLimits, study: Study): void {
  checkOptionMaxima(o, host, study);
  // each variant's cells: its scenario's levels and requests per worker
  const variantScenarios = o.variantSpecs.length > 0 ? o.variantSpecs.map((v) => scenarioOfVariant(study, o, v)) : o.variants.map(() => scenarioOf(study, o.scenario));
  const perVariant = variantScenarios.map((sc) => ({ ...levelsOf(o, sc.id), websocket: driverOf(sc).level === 'connections' }));
  checkJobLimits(o, study, variantScenarios);
  checkPlanSize(o, host, study, perVariant);
}

/**
 * Every option against its declared maximum (OPTION_SPECS[].max, host-derived ones from `host`),
 * and each scenario's own levels (ResolvedOptions.scenarioLevels) like --levels. An in-process or
 * WebSocket scenario's levels are not HTTP workers: skipped here (checkJobLimits, checkPlanSize).
 * @throws VtbenchError(EXIT.usage) via tooLarge
 */
function checkOptionMaxima(o: ResolvedOptions, host: HostLimits, study: Study): void {
  const level = driverOf(scenarioOf(study, o.scenario)).level;
  const inProcess = level === 'job';
  const websocket = level === 'connections';
  for (const s of OPTION_SPECS) {
    if (!s.max) continue;
    // an in-process level is no HTTP worker (no descriptors of the harness's): the SUT's job checks its own limits (study 003);
    // a WebSocket level is N held connections, one descriptor each per process: checked below
    if ((inProcess || websocket) && s.key === 'levels') continue;
    const max = maxValue(s.max, host);
    const v = o[s.key] as unknown;
    for (const x of Array.isArray(v) ? v : [v]) {
      if (typeof x === 'number' && x > max) throw tooLarge(s.flag, x, max, s.max.why);
    }
  }
  // per-scenario levels (ResolvedOptions.scenarioLevels) are checked like --levels; a WebSocket
  // scenario's levels are held connections (one descriptor each per process), checked below
  const levelsSpec = OPTION_SPECS.find((x) => x.key === 'levels');
  for (const [id, e] of Object.entries(o.scenarioLevels ?? {})) {
    if (inProcess || !levelsSpec?.max) break;
    const sc = study.scenarios.find((x) => x.id === id);
    if (sc && driverOf(sc).level === 'connections') continue;
    const max = maxValue(levelsSpec.max, host);
    for (const x of e.levels) if (x > max) throw tooLarge('levels', `${x} (scenario ${id})`, max, levelsSpec.max.why);
  }
}

/**
 * An in-process job's parameters, per variant and level, against the ranges the SUT accepts, read
 * from the SUT's own limits file (sut-limits.ts). `variantScenarios[i]` is variant i's scenario.
 * @throws VtbenchError(EXIT.usage) naming the scenario, the level and what the SUT would refuse
 */
function checkJobLimits(o: ResolvedOptions, study: Study, variantScenarios: readonly Scenario[]): void {
  const variantsOf = o.variantSpecs.length > 0 ? o.variantSpecs : o.variants.map((id) => study.variants.find((x) => x.id === id)!);
  for (const [i, v] of variantsOf.entries()) {
    const sc = variantScenarios[i];
    if (!v || !sc || driverOf(sc).level !== 'job' || !sc.job) continue;
    for (const level of levelsOf(o, sc.id).levels) {
      const job = sc.job(o, v, level);
      const problems = jobLimitProblems(job);
      if (problems.length > 0) {
        throw new VtbenchError(`--levels/--duration-s/--latency-ms/--requests-per-worker: scenario ${sc.id}, level ${level}: the SUT would refuse its job ${job.path} (${problems.join('; ')})`,
          `keep the plan within the SUT's limits (${SUT_LIMITS_FILE_REL}, read by the SUT and by this check), e.g. lower --levels`, EXIT.usage);
      }
    }
  }
}

/**
 * The plan's size, per variant (`perVariant`: its levels, requests per worker, and whether it is a
 * WebSocket scenario): WebSocket connections against what the host holds, one cell's requests
 * (c × n) and the run's requests against the heap (limits.ts: maxCellRequests, maxRunRequests), the
 * cell count against MAX_CELLS, the planned duration against MAX_PLAN_DURATION_S.
 * @throws VtbenchError(EXIT.usage) naming the flags, the maximum and its reason
 */
function checkPlanSize(o: ResolvedOptions, host: HostLimits, study: Study, perVariant: readonly (ReturnType<typeof levelsOf> & { websocket: boolean })[]): void {
  const wsMax = maxWebSocketConnections(host);
  for (const lv of perVariant) {
    const c = Math.max(...lv.levels);
    if (lv.websocket && c > wsMax) {
      throw tooLarge('levels', c, wsMax, `each WebSocket connection costs the SUT and the harness one file descriptor each under ulimit -n (${host.openFiles}), less ${FD_RESERVE} per process, and the harness one of ${host.ephemeralPorts} ephemeral ports: this host holds no more (the sweep stops there)`);
    }
  }
  const cellMax = maxCellRequests(host);
  // open loop: a cell's requests are its schedule, λ × D (the level is a rate); WebSocket: N connections × D messages each
  const open = isOpenLoop(study, o);
  const perLevelOf = (lv: (typeof perVariant)[number]): number => (open ? openLoopDurationS(o) : lv.websocket ? (o.durationS ?? WEBSOCKET_DEFAULT_HOLD_S) : lv.requestsPerWorker);
  for (const lv of perVariant) {
    const c = Math.max(...lv.levels);
    const perLevel = perLevelOf(lv);
    if (c * perLevel > cellMax) {
      throw new VtbenchError(
        `--requests-per-worker/--levels: the largest cell would hold ${c.toLocaleString('en-US')} × ${perLevel.toLocaleString('en-US')} ${lv.websocket ? 'messages' : 'requests'}; at most ${cellMax.toLocaleString('en-US')} fit this harness's heap (${Math.round(host.heapLimitBytes / 2 ** 20)} MiB, half of it for ≈512 B per request)`,
        `lower --requests-per-worker to ${Math.max(1, Math.floor(cellMax / c))} or less, or lower --levels`, EXIT.usage);
    }
  }
  const cells = perVariant.reduce((t, lv) => t + lv.levels.length, 0) * o.repeats;
  if (cells > MAX_CELLS) {
    throw new VtbenchError(
      `--levels/--repeats/--variants: the plan would have ${cells.toLocaleString('en-US')} cells; the stated maximum is ${MAX_CELLS.toLocaleString('en-US')} (every cell adds files that summary.json is rebuilt from after each cell)`,
      'fewer --levels, --repeats or --variants, or split the plan into several runs', EXIT.usage);
  }
  // totals by arithmetic first: makePlan itself allocates per cell
  const totalRequests = perVariant.reduce((t, lv) => t + lv.levels.reduce((u, l) => u + l, 0) * perLevelOf(lv), 0) * o.repeats;
  const runMax = maxRunRequests(host);
  if (totalRequests > runMax) {
    throw new VtbenchError(
      `--repeats/--requests-per-worker/--levels: the run would hold ${totalRequests.toLocaleString('en-US')} requests; at most ${runMax.toLocaleString('en-US')} fit the heap when summary.json is rebuilt (≈128 B per request)`,
      'fewer repeats, levels or requests per worker; or split the plan into several runs', EXIT.usage);
  }
  const plan = makePlan(o, study);
  if (plan.theoreticalS > MAX_PLAN_DURATION_S) {
    throw new VtbenchError(
      `--repeats/--requests-per-worker/--levels/--latency-ms: the plan would take at least ${formatDuration(plan.theoreticalS)}; the stated maximum is ${formatDuration(MAX_PLAN_DURATION_S)} (7 days)`,
      'split the plan into several runs', EXIT.usage);
  }
}

/**
 * Refuse plans that cannot measure what they claim, per platform-pool variant (its effective
 * executor): a queue that cannot hold the highest level (AbortPolicy would reject), or a worst-case
 * E2E ((⌈c/N⌉ − 1) × L queue + L call, in lock-step waves) beyond the client's headers timeout or
 * the SUT's request timeout. L is the scenario's service time (Scenario.serviceTimeMs).
 */
function checkFeasible(o: ResolvedOptions, study: Study): void {
  const limit = Math.min(o.headersTimeoutMs, SUT_REQUEST_TIMEOUT_MS);
  const limitName = limit === o.headersTimeoutMs ? 'client headers timeout (--headers-timeout-ms)' : 'SUT request timeout';
  const checked = new Set<string>();
  for (const scenario of [scenarioOf(study, o.scenario), ...o.variantSpecs.map((v) => scenarioOfVariant(study, o, v))]) {
    if (checked.has(scenario.id)) continue;
    checked.add(scenario.id);
    const L = scenario.serviceTimeMs(o);
    if (L >= limit) {
      throw new VtbenchError(`--latency-ms: scenario ${scenario.id} (${scenario.label}): L = ${L} ms per call, not below the ${limit / 1000} s ${limitName}`, `lower L (--latency-ms)${limit === o.headersTimeoutMs ? ' or raise --headers-timeout-ms' : ''}`, EXIT.usage);
    }
  }
  for (const v of o.variantSpecs) {
    const scenario = scenarioOfVariant(study, o, v);
    // a WebSocket level holds connections, not tasks: a full queue is a measured outcome (refused pushes), not a plan error
    if (driverOf(scenario).level === 'connections') continue;
    const L = scenario.serviceTimeMs(o);
    const c = Math.max(...levelsOf(o, scenario.id).levels);
    const pool = executorInfo(v.executor).pool(v.executor);
    if (!pool) continue;
    const { threads, queueCapacity } = pool;
    if (c > threads + queueCapacity) {
      throw new VtbenchError(`--queue-capacity: variant ${v.id}: queue ${queueCapacity} + pool ${threads} cannot hold ${c} concurrent requests; AbortPolicy would reject ${c - threads - queueCapacity} per wave`, `give --queue-capacity ${c - threads} or more, or lower --levels`, EXIT.usage);
    }
    const worstMs = Math.ceil(c / threads) * L;
    if (worstMs >= limit) {
      throw new VtbenchError(`--latency-ms/--levels: variant ${v.id}'s worst E2E would be ≈${Math.round(worstMs / 1000)} s (⌈${c}/${threads}⌉ × ${L} ms), beyond the ${limit / 1000} s ${limitName}`, 'lower --latency-ms or --levels, or raise --pool-size', EXIT.usage);
    }
  }
}

/**
 * Refuse open-loop plans that cannot measure what they claim, at the highest rate λ and the schedule
 * length D (src/compute/theory/open-loop.ts): per platform-pool variant, the backlog at the end of the
 * schedule ((λ − N/L)·D) must fit its queue (beyond it AbortPolicy answers 503 and the queue's growth
 * is cut off), the requests then in flight (backlog + N; λ·L for virtual threads) must fit under
 * --max-in-flight (beyond it sends are refused and the queue stops growing at λ − N/L), and the last
 * request's wait (drain time + L) must end before the client's headers timeout and the SUT's request
 * timeout. --max-in-flight itself must fit the host's descriptors (maxConcurrency).
 * @throws VtbenchError(EXIT.usage) naming the option to change and the value that fits
 */
function checkOpenLoopFeasible(o: ResolvedOptions, study: Study, host: HostLimits): void {
  const rate = Math.max(...o.levels);
  const D = openLoopDurationS(o);
  const L = scenarioOf(study, o.scenario).serviceTimeMs(o);
  const cap = o.maxInFlight ?? OPEN_LOOP_DEFAULTS.maxInFlight;
  const fdMax = maxConcurrency(host);
  if (cap > fdMax) {
    throw new VtbenchError(`--max-in-flight: ${cap} requests in flight need ${2 * cap} SUT file descriptors; this host allows ${fdMax} (ulimit -n ${host.openFiles}, ephemeral ports ${host.ephemeralPorts})`, `give --max-in-flight ${fdMax} or less, or raise ulimit -n`, EXIT.usage);
  }
  const limit = Math.min(o.headersTimeoutMs, SUT_REQUEST_TIMEOUT_MS);
  for (const v of o.variantSpecs) {
    const backlog = Math.ceil(queueAtEnd(v.executor, rate, L, D));
    const capacity = executorCapacityRps(v.executor, L);
    const pool = executorInfo(v.executor).pool(v.executor);
    const inFlight = capacity === null ? Math.ceil((rate * L) / 1000) : backlog + (pool?.threads ?? 0);
    if (pool && backlog > pool.queueCapacity) {
      throw new VtbenchError(
        `--queue-capacity/--duration-s/--levels: variant ${v.id}: at ${rate} req/s for ${D} s its queue reaches ≈${backlog.toLocaleString('en-US')} tasks ((λ − N/L) × D = (${rate} − ${capacity!.toFixed(2)}) × ${D}), beyond its capacity ${pool.queueCapacity.toLocaleString('en-US')}: AbortPolicy would cut the queue's growth`,
        `give --queue-capacity ${backlog} or more, a shorter --duration-s, or lower --levels`, EXIT.usage);
    }
    if (inFlight > cap) {
      throw new VtbenchError(
        `--max-in-flight: variant ${v.id}: at ${rate} req/s for ${D} s ≈${inFlight.toLocaleString('en-US')} requests are in flight at the end of the schedule, above the cap ${cap.toLocaleString('en-US')}: later sends would be refused and the backlog cut`,
        `give --max-in-flight ${Math.min(inFlight, fdMax)} or more${inFlight > fdMax ? ' (beyond this host\'s descriptors: shorten --duration-s or lower --levels)' : ''}`, EXIT.usage);
    }
    const worstMs = (openLoopCellDurationS(v.executor, rate, L, D) - D) * 1000;
    if (worstMs >= limit) {
      throw new VtbenchError(
        `--duration-s/--levels: variant ${v.id}: the last request at ${rate} req/s would wait ≈${Math.round(worstMs / 1000)} s (backlog drain + L), beyond the ${limit / 1000} s ${limit === o.headersTimeoutMs ? 'client headers timeout (--headers-timeout-ms)' : 'SUT request timeout'}`,
        'shorten --duration-s or lower --levels', EXIT.usage);
    }
  }
}

function deepFreeze<T>(o: T): Readonly<T> {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}
