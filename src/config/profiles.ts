/**
 * Profiles as data. `seed-000` is the source study's experiment (shared/seeds/000, §5–6);
 * `quick` and `smoke` are shorter tours of the same chain. Any field can be overridden by a flag.
 */
import { VtbenchError, EXIT } from '../core/errors.ts';
import { OPTION_SPECS, maxValue, tooLarge, type OptionKey } from './options.ts';
import { makePlan, formatDuration } from './plan.ts';
import { MAX_PLAN_DURATION_S, SUT_REQUEST_TIMEOUT_MS, maxCellRequests, maxRunRequests, readHostLimits, type HostLimits } from './limits.ts';
import type { ResolvedOptions } from '../store/types.ts';
import { DEFAULT_BIND_ADDRESS } from '../jvm/bind.ts';

type ProfileValues = Omit<ResolvedOptions, 'profile'>;

/** Values every profile shares unless it says otherwise. */
const BASE: ProfileValues = {
  levels: [10, 50, 100, 200, 500],
  requestsPerWorker: 40,
  repeats: 3,
  warmupS: 30,
  latencyMs: 1500,
  modes: ['fixed', 'virtual'],
  poolSize: 32,
  queueCapacity: 10000,
  start: 'together',
  rampMs: 0,
  jvmFlags: ['-Xms512m', '-Xmx512m', '-XX:+UseG1GC'],
  mockPort: 19000,
  sutPort: 19080,
  bindAddress: DEFAULT_BIND_ADDRESS,
  samplerIntervalMs: 250,
  pinnedThresholdMs: 20,
  errorFlagThreshold: 0.001,
  connectTimeoutMs: 10_000,
  // Worst fixed-pool queue wait in the default plan is ≈ 22.5 s; larger plans set these higher.
  headersTimeoutMs: 600_000,
  bodyTimeoutMs: 600_000,
};

export interface Profile {
  name: string;
  description: string;
  values: ProfileValues;
}

/** All profiles, default first. */
export const PROFILES: readonly Profile[] = [
  {
    name: 'seed-000',
    description: 'the source study: levels 10..500, 40 req/worker, 3 repeats, 30 s warm-up, 1500 ms mock, fixed-32 vs virtual (~100 min)',
    values: BASE,
  },
  {
    name: 'quick',
    // c × n / N is a whole number at every level above the pool (25 and 75 waves), so the fixed
    // pool's whole-run figure has no half-empty last wave; ramp start gives virtual threads a
    // steady-state window (with `together` every request of a wave ends at once).
    description: 'a real short tour (~4 min): levels 10,100,300, 8 req/worker, 1 repeat, ramp start',
    values: { ...BASE, levels: [10, 100, 300], requestsPerWorker: 8, repeats: 1, warmupS: 5, start: 'ramp' },
  },
  {
    name: 'smoke',
    description: 'CI check of the whole pipeline (<1 min of load): levels 4,32, pool 8, 200 ms mock',
    values: { ...BASE, levels: [4, 32], requestsPerWorker: 3, repeats: 1, warmupS: 1, latencyMs: 200, poolSize: 8, start: 'together' },
  },
];

export const DEFAULT_PROFILE = 'seed-000';

/**
 * The studies this version runs, with the profiles of each. One study so far: the profiles above
 * all measure the call chain of source study 000 (shared/seeds/000_*.txt); issue 11 turns the study
 * into data of its own.
 */
export const STUDIES: readonly { id: string; title: string; source: string; profiles: readonly Profile[] }[] = [
  { id: '000', title: 'fixed platform-thread pool vs virtual threads on a blocking Spring AI call', source: 'shared/seeds/000_*.txt', profiles: PROFILES },
];

/** One profile's plan in figures: for `run.mjs list`. Durations are theoretical (s), JVM starts and the build excluded. */
export interface ProfileListing { study: string; profile: string; isDefault: boolean; description: string; cells: number; requests: number; plannedS: number }

/**
 * Every study's profiles with their planned cells, requests and theoretical duration, resolved
 * exactly as a run would resolve them (same bounds against `host`).
 * @throws VtbenchError when a profile does not fit this host (its message names the option)
 */
export function listProfiles(host: HostLimits = readHostLimits()): ProfileListing[] {
  return STUDIES.flatMap((st) => st.profiles.map((p) => {
    const plan = makePlan(resolveOptions(p.name, {}, host));
    return { study: st.id, profile: p.name, isDefault: p.name === DEFAULT_PROFILE, description: p.description, cells: plan.cells.length, requests: plan.totalRequests, plannedS: plan.theoreticalS };
  }));
}

/** The listing as text: a study header, then one line per profile. */
export function formatProfileList(rows: readonly ProfileListing[]): string {
  const lines: string[] = [];
  for (const st of STUDIES) {
    lines.push(`study ${st.id}: ${st.title} (source ${st.source})`);
    lines.push(`  ${'profile'.padEnd(20)} ${'cells'.padStart(6)} ${'requests'.padStart(10)}   planned duration`);
    for (const r of rows.filter((x) => x.study === st.id)) {
      lines.push(`  ${(r.profile + (r.isDefault ? ' (default)' : '')).padEnd(20)} ${String(r.cells).padStart(6)} ${r.requests.toLocaleString('en-US').padStart(10)}   ≥ ${formatDuration(r.plannedS)}`);
      lines.push(`      ${r.description}`);
    }
  }
  lines.push('', 'Planned durations are load and warm-up time from the theoretical bounds; JVM starts and the build come on top.');
  return lines.join('\n');
}

/** Find a profile by name or throw a usage error listing the known ones. */
export function getProfile(name: string): Profile {
  const p = PROFILES.find((x) => x.name === name);
  if (!p) {
    throw new VtbenchError(`--profile: unknown profile '${name}'`, `use one of: ${PROFILES.map((x) => x.name).join(', ')}`, EXIT.usage);
  }
  return p;
}

/**
 * Profile + raw flag values (strings, keyed by option key) -> frozen ResolvedOptions.
 * Throws VtbenchError (exit 2) naming the flag for any bad value, a value above its bound on this
 * host (checkBounds) or an inconsistent combination. The dry run and the run both call this.
 * @param host the host's limits (read from /proc by default; tests pass their own)
 */
export function resolveOptions(profileName: string, raw: Partial<Record<OptionKey, string>>, host: HostLimits = readHostLimits()): Readonly<ResolvedOptions> {
  const profile = getProfile(profileName);
  const out: ResolvedOptions = { profile: profile.name, ...structuredClone(profile.values) };
  for (const s of OPTION_SPECS) {
    const v = raw[s.key];
    if (v !== undefined) (out as unknown as Record<string, unknown>)[s.key] = s.parse(v);
  }
  if (out.mockPort === out.sutPort) {
    throw new VtbenchError(`--mock-port and --sut-port are both ${out.mockPort}`, 'give them different ports', EXIT.usage);
  }
  if (out.rampMs === 0) out.rampMs = out.latencyMs;
  checkBounds(out, host);
  checkFeasible(out);
  return deepFreeze(out);
}

export { SUT_REQUEST_TIMEOUT_MS };

/** A stated maximum of cells per run (levels × repeats × modes). */
export const MAX_CELLS = 10_000;

/**
 * Every option against its declared maximum (OPTION_SPECS[].max, host-derived ones from `host`),
 * then the plan's totals: one cell's requests (c × n) and the run's requests against the heap
 * (limits.ts: maxCellRequests, maxRunRequests), the planned duration against MAX_PLAN_DURATION_S.
 * Also used on --resume (the recorded options against this host).
 * @throws VtbenchError(EXIT.usage) naming the flag, the maximum and its reason
 */
export function checkBounds(o: ResolvedOptions, host: HostLimits): void {
  for (const s of OPTION_SPECS) {
    if (!s.max) continue;
    const max = maxValue(s.max, host);
    const v = o[s.key] as unknown;
    for (const x of Array.isArray(v) ? v : [v]) {
      if (typeof x === 'number' && x > max) throw tooLarge(s.flag, x, max, s.max.why);
    }
  }
  const c = Math.max(...o.levels);
  const cellMax = maxCellRequests(host);
  if (c * o.requestsPerWorker > cellMax) {
    throw new VtbenchError(
      `--requests-per-worker/--levels: the largest cell would hold ${c.toLocaleString('en-US')} × ${o.requestsPerWorker.toLocaleString('en-US')} requests; at most ${cellMax.toLocaleString('en-US')} fit this harness's heap (${Math.round(host.heapLimitBytes / 2 ** 20)} MiB, half of it for ≈512 B per request)`,
      `lower --requests-per-worker to ${Math.max(1, Math.floor(cellMax / c))} or less, or lower --levels`, EXIT.usage);
  }
  const cells = o.levels.length * o.repeats * o.modes.length;
  if (cells > MAX_CELLS) {
    throw new VtbenchError(
      `--levels/--repeats/--modes: the plan would have ${cells.toLocaleString('en-US')} cells; the stated maximum is ${MAX_CELLS.toLocaleString('en-US')} (every cell adds files that summary.json is rebuilt from after each cell)`,
      'fewer levels or repeats, or split the plan into several runs', EXIT.usage);
  }
  // totals by arithmetic first: makePlan itself allocates per cell
  const totalRequests = o.levels.reduce((t, l) => t + l, 0) * o.requestsPerWorker * o.repeats * o.modes.length;
  const runMax = maxRunRequests(host);
  if (totalRequests > runMax) {
    throw new VtbenchError(
      `--repeats/--requests-per-worker/--levels: the run would hold ${totalRequests.toLocaleString('en-US')} requests; at most ${runMax.toLocaleString('en-US')} fit the heap when summary.json is rebuilt (≈128 B per request)`,
      'fewer repeats, levels or requests per worker; or split the plan into several runs', EXIT.usage);
  }
  const plan = makePlan(o);
  if (plan.theoreticalS > MAX_PLAN_DURATION_S) {
    throw new VtbenchError(
      `--repeats/--requests-per-worker/--levels/--latency-ms: the plan would take at least ${formatDuration(plan.theoreticalS)}; the stated maximum is ${formatDuration(MAX_PLAN_DURATION_S)} (7 days)`,
      'split the plan into several runs', EXIT.usage);
  }
}

/**
 * Refuse plans that cannot measure what they claim: a fixed pool whose queue cannot hold the
 * highest level (AbortPolicy would reject), or a worst-case E2E ((⌈c/N⌉ − 1) × L queue + L call,
 * in lock-step waves) beyond the client's headers timeout or the SUT's request timeout.
 */
function checkFeasible(o: ResolvedOptions): void {
  const c = Math.max(...o.levels);
  const limit = Math.min(o.headersTimeoutMs, SUT_REQUEST_TIMEOUT_MS);
  if (o.latencyMs >= limit) {
    throw new VtbenchError(`--latency-ms: every call takes ${o.latencyMs} ms, not below the ${limit / 1000} s ${limit === o.headersTimeoutMs ? 'client headers timeout (--headers-timeout-ms)' : 'SUT request timeout'}`, 'lower --latency-ms or raise --headers-timeout-ms', EXIT.usage);
  }
  if (o.modes.includes('fixed')) {
    if (c > o.poolSize + o.queueCapacity) {
      throw new VtbenchError(`--queue-capacity: ${o.queueCapacity} + pool ${o.poolSize} cannot hold ${c} concurrent requests; AbortPolicy would reject ${c - o.poolSize - o.queueCapacity} per wave`, `give --queue-capacity ${c - o.poolSize} or more, or lower --levels`, EXIT.usage);
    }
    const worstMs = Math.ceil(c / o.poolSize) * o.latencyMs;
    if (worstMs >= limit) {
      throw new VtbenchError(`--latency-ms/--levels: the fixed pool's worst E2E would be ≈${Math.round(worstMs / 1000)} s (⌈${c}/${o.poolSize}⌉ × ${o.latencyMs} ms), beyond the ${limit / 1000} s ${limit === o.headersTimeoutMs ? 'client headers timeout (--headers-timeout-ms)' : 'SUT request timeout'}`, 'lower --latency-ms or --levels, or raise --pool-size', EXIT.usage);
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
