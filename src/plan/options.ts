/**
 * Options of a run, declared once: name, type, description and parser. The same table drives
 * command-line parsing, validation, `--help` and the manifest. Profiles (profiles.ts) give the
 * defaults; flags override any field.
 */
import { isIP } from 'node:net';
import { VtbenchError, EXIT } from '../types/errors.ts';
import { DEFAULT_BIND_ADDRESS } from '../adapters/jvm/bind.ts';
import { MAX_SHARDS } from '../load/shards.ts';
import type { ResolvedOptions, StartMode } from '../types/run.ts';
import { allowedCpus, isolationOf } from '../adapters/host/affinity.ts';
import { FD_RESERVE, JAVA_INT_MAX, NODE_TIMEOUT_MAX_MS, SUT_REQUEST_TIMEOUT_MS, UNDICI_TIMER_RESOLUTION_MS, maxConcurrency, type HostLimits } from '../adapters/host/limits.ts';

/**
 * Keys of ResolvedOptions that a flag may set: all but `study` and `profile` (chosen by --study and
 * --profile) and `variantSpecs` (derived from the study's variants, --variants and the overrides).
 */
export type OptionKey = Exclude<keyof ResolvedOptions, 'study' | 'profile' | 'variantSpecs'>;

/** An option's upper bound: a stated number, or one derived from the host, with the reason. */
export interface OptionMax {
  value: number | ((h: HostLimits) => number);
  /** why this is the maximum, shown in the error and in --help */
  why: string;
}

export interface OptionSpec<K extends OptionKey = OptionKey> {
  key: K;
  /** long flag without dashes, e.g. `latency-ms` */
  flag: string;
  /** value placeholder for --help */
  arg: string;
  description: string;
  /** numeric options (and each item of a numeric list): the upper bound; checked by checkBounds */
  max?: OptionMax;
  /** parse a command-line string; throws VtbenchError naming the flag */
  parse(raw: string): ResolvedOptions[K];
  /** render a value for --help and the plan */
  show(value: ResolvedOptions[K]): string;
}

function usage(flag: string, message: string, hint: string): VtbenchError {
  return new VtbenchError(`--${flag}: ${message}`, hint, EXIT.usage);
}

/** The numeric value of a bound on this host. */
export function maxValue(m: OptionMax, h: HostLimits): number {
  return typeof m.value === 'number' ? m.value : m.value(h);
}

/** The error for a value above its bound (also used by checkBounds). */
export function tooLarge(flag: string, raw: string | number, max: number, why: string): VtbenchError {
  return usage(flag, `${raw} is too large: the maximum is ${max.toLocaleString('en-US')} (${why})`, `give --${flag} ${max} or less`);
}

/**
 * Parse a whole number in [min, max] exactly (digits only; compared as a BigInt, so
 * `99999999999999999999` is "too large", never rounded) or throw naming the flag.
 * @param max inclusive; at most Number.MAX_SAFE_INTEGER (the default)
 */
export function parsePositiveInt(flag: string, raw: string, min = 1, max = Number.MAX_SAFE_INTEGER, why = 'the largest whole number JavaScript represents exactly'): number {
  const s = raw.trim();
  if (/^-\d+$/.test(s)) throw usage(flag, `${raw} is negative`, `give a whole number >= ${min}`);
  if (!/^\d+$/.test(s)) throw usage(flag, `'${raw}' is not a whole number`, `give a whole number >= ${min}, e.g. --${flag} ${Math.max(min, 10)}`);
  const limit = Math.min(max, Number.MAX_SAFE_INTEGER);
  if (BigInt(s) > BigInt(limit)) throw tooLarge(flag, s, limit, limit === Number.MAX_SAFE_INTEGER ? 'the largest whole number JavaScript represents exactly' : why);
  const n = Number(s);
  if (n < min) throw usage(flag, `${raw} is below ${min}`, `give a whole number >= ${min}`);
  return n;
}

/** A plain decimal number (no hex, no Infinity, no blanks) in [min, max], or throw naming the flag. */
function parseNumber(flag: string, raw: string, min: number, max = Infinity): number {
  const s = raw.trim();
  const n = Number(s);
  if (!/^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(s) || !Number.isFinite(n) || n < min || n > max) {
    throw usage(flag, `'${raw}' is not a number in [${min}, ${max === Infinity ? '∞' : max}]`, `give a number from ${min} to ${max === Infinity ? 'any' : max}`);
  }
  return n;
}

/** A whole-number option with a minimum and a declared maximum (static ones checked while parsing). */
function intSpec<K extends OptionKey>(key: K, flag: string, arg: string, description: string, min: number, max: OptionMax): OptionSpec<K> {
  return {
    key, flag, arg, description, max,
    parse: ((r: string) => parsePositiveInt(flag, r, min, typeof max.value === 'number' ? max.value : Number.MAX_SAFE_INTEGER, max.why)) as OptionSpec<K>['parse'],
    show: ((v: number) => String(v)) as unknown as OptionSpec<K>['show'],
  };
}

/** What a null override shows: the study's own value applies. */
export const OWN_VALUE = "each platform-pool variant's own";

/** An override of a variant's value: a whole number, or null (absent) for the variant's own (shown as OWN_VALUE). */
function nullableIntSpec<K extends 'poolSize' | 'queueCapacity'>(key: K, flag: string, arg: string, description: string, min: number, max: OptionMax): OptionSpec<K> {
  return {
    key, flag, arg, description, max,
    parse: ((r: string) => parsePositiveInt(flag, r, min, typeof max.value === 'number' ? max.value : Number.MAX_SAFE_INTEGER, max.why)) as OptionSpec<K>['parse'],
    show: ((v: number | null) => (v === null ? OWN_VALUE : String(v))) as unknown as OptionSpec<K>['show'],
  };
}

/** A comma-separated list; `example` is a valid value of the flag for the hint (e.g. `10,50`). */
function list(raw: string, flag: string, example: string): string[] {
  const items = raw.split(',').map((s) => s.trim());
  if (items.length === 1 && items[0] === '') return [];
  if (items.some((s) => s === '')) throw usage(flag, `'${raw}' has an empty item`, `separate items with single commas, e.g. --${flag} ${example}`);
  return items;
}

/**
 * Parse `--sut-url` / `--mock-url`: an `http:` or `https:` origin (scheme, host, port; no path,
 * query, fragment or credentials); a trailing slash is dropped; the mock's URL is given without
 * `/v1`. Returns the origin, e.g. `http://10.200.0.2:19080`.
 * @throws VtbenchError(EXIT.usage) naming the flag
 */
export function parseComponentUrl(flag: 'sut-url' | 'mock-url', raw: string): string {
  const example = flag === 'sut-url' ? 'http://10.0.0.2:19080' : 'http://10.0.0.3:19000';
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new VtbenchError(`--${flag}: '${raw}' is not a URL`, `give the component's origin, e.g. --${flag} ${example}`, EXIT.usage);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new VtbenchError(`--${flag}: '${raw}' is not an http(s) URL`, `give e.g. --${flag} ${example}`, EXIT.usage);
  if (u.username !== '' || u.password !== '' || u.search !== '' || u.hash !== '' || (u.pathname !== '/' && u.pathname !== '')) {
    const why = flag === 'mock-url' && /\/v1\/?$/.test(u.pathname) ? ' (give it without /v1: the run adds /v1 where the SUT needs it)' : '';
    throw new VtbenchError(`--${flag}: '${raw}' has more than scheme, host and port${why}`, `give only the origin, e.g. --${flag} ${example}`, EXIT.usage);
  }
  return u.origin;
}

const STARTS: readonly StartMode[] = ['together', 'ramp'];

function spec<K extends OptionKey>(s: OptionSpec<K>): OptionSpec<K> {
  return s;
}

/** Ports are 16-bit. */
const PORT: OptionMax = { value: 65535, why: 'TCP ports are 1..65535' };
/** Counts with no natural bound beyond exact integers; the plan's totals bound them (checkBounds). */
const SAFE: OptionMax = { value: Number.MAX_SAFE_INTEGER, why: 'the largest whole number JavaScript represents exactly; the plan totals are bounded separately' };
/** Client timeouts: Node's timer maximum. */
const TIMER: OptionMax = { value: NODE_TIMEOUT_MAX_MS, why: "Node's largest timer delay" };
/** A stated maximum of platform-pool threads (10,000 platform threads, each with its own stack). */
export const MAX_POOL_THREADS = 10_000;

/** The largest seed of the open loop's Poisson schedule (mulberry32 takes an unsigned 4-byte integer). */
const MAX_SEED = 0xffff_ffff;

/** Every option, in --help order. */
export const OPTION_SPECS = [
  spec({
    key: 'levels', flag: 'levels', arg: 'c1,c2,..', description: 'concurrency levels (closed-loop workers per cell)',
    max: { value: maxConcurrency, why: `each worker costs the SUT two file descriptors (inbound + upstream) under ulimit -n, less ${FD_RESERVE} for the JVM, and two ephemeral ports` },
    parse: (raw) => {
      const items = list(raw, 'levels', '10,50');
      if (items.length === 0) throw usage('levels', 'no level given', 'e.g. --levels 10,50,100');
      const levels = items.map((x) => parsePositiveInt('levels', x));
      if (new Set(levels).size !== levels.length) throw usage('levels', `'${raw}' repeats a level`, 'list each level once');
      return [...levels].sort((a, b) => a - b);
    },
    show: (v) => v.join(','),
  }),
  intSpec('requestsPerWorker', 'requests-per-worker', 'n', 'measured requests each worker sends, one after another', 1, SAFE),
  intSpec('repeats', 'repeats', 'n', 'repeats of every cell (a fresh SUT JVM per variant and repeat)', 1, { value: 1000, why: 'a stated maximum: every repeat starts a fresh SUT JVM per variant' }),
  spec({ key: 'warmupS', flag: 'warmup-s', arg: 's', description: 'warm-up per JVM at the highest level, s (not recorded; 0 = none)', max: { value: 3600, why: 'a stated maximum: an hour warms any JIT' }, parse: (r) => parseNumber('warmup-s', r, 0, 3600), show: (v) => `${v}` }),
  intSpec('latencyMs', 'latency-ms', 'ms', 'L, the service time of one call, ms: the mock LLM\'s latency (constant model), or what a scenario makes of it (e.g. a sleep of L)', 1, { value: SUT_REQUEST_TIMEOUT_MS - 1, why: "a call must end within the SUT's 600 s request timeout (application.yml)" }),
  spec({
    key: 'scenario', flag: 'scenario', arg: 'id', description: "the study's scenario every cell measures (the list below names each study's scenarios)",
    parse: (raw) => {
      const id = raw.trim();
      if (!/^[a-z0-9][a-z0-9-]*$/.test(id)) throw usage('scenario', `'${raw}' is not a scenario id`, "give one of the study's scenario ids (lower-case letters, digits, -)");
      return id;
    },
    show: (v) => v,
  }),
  spec({
    key: 'variants', flag: 'variants', arg: 'v1,v2', description: "the study's variants to run, in run order (ids; checked against the study)",
    parse: (raw) => {
      const items = list(raw, 'variants', '<id>,<id>');
      if (items.length === 0) throw usage('variants', 'no variant given', "list one or more of the study's variant ids, comma-separated");
      if (new Set(items).size !== items.length) throw usage('variants', `'${raw}' repeats a variant`, 'list each variant once');
      return items;
    },
    show: (v) => v.join(','),
  }),
  nullableIntSpec('poolSize', 'pool-size', 'N', 'threads of the one selected platform-pool variant (core = max), replacing its own; refused when none or several are selected', 1, { value: MAX_POOL_THREADS, why: 'a stated maximum: each pool thread is a platform thread with its own stack' }),
  nullableIntSpec('queueCapacity', 'queue-capacity', 'n', 'queue capacity of the one selected platform-pool variant (AbortPolicy beyond it), replacing its own; refused when none or several are selected', 0, { value: JAVA_INT_MAX, why: "the SUT's queue capacity is a Java int" }),
  spec({
    key: 'start', flag: 'start', arg: 'mode', description: 'worker start: together (as the study) or ramp (spread over --ramp-ms)',
    parse: (raw) => {
      if (!STARTS.includes(raw as StartMode)) throw usage('start', `unknown start mode '${raw}'`, `use one of: ${STARTS.join(', ')}`);
      return raw as StartMode;
    },
    show: (v) => v,
  }),
  intSpec('rampMs', 'ramp-ms', 'ms', 'ramp length with --start ramp, ms (0 = one latency)', 0, { value: 3_600_000, why: 'a stated maximum: an hour-long ramp measures the ramp, not the executor' }),
  spec({
    key: 'jvmFlags', flag: 'jvm-flags', arg: '"flags"', description: 'SUT JVM flags, space separated',
    parse: (raw) => {
      const flags = raw.split(/\s+/).filter((s) => s.length > 0);
      for (const f of flags) if (!f.startsWith('-')) throw usage('jvm-flags', `'${f}' is not a JVM flag`, 'JVM flags start with -, e.g. --jvm-flags "-Xmx512m -XX:+UseG1GC"');
      return flags;
    },
    show: (v) => v.join(' '),
  }),
  intSpec('mockPort', 'mock-port', 'port', 'port of the mock LLM (on --bind-address)', 1, PORT),
  intSpec('sutPort', 'sut-port', 'port', 'port of the system under test (on --bind-address)', 1, PORT),
  spec({
    key: 'bindAddress', flag: 'bind-address', arg: 'addr', description: 'address the SUT and the mock listen on (an IP literal; 0.0.0.0 = every interface)',
    parse: (raw) => {
      const a = raw.trim();
      if (isIP(a) === 0) throw usage('bind-address', `'${raw}' is not an IP address`, `give an IPv4 or IPv6 literal, e.g. --bind-address ${DEFAULT_BIND_ADDRESS}`);
      return a;
    },
    show: (v) => v ?? DEFAULT_BIND_ADDRESS,
  }),
  intSpec('samplerIntervalMs', 'sampler-interval-ms', 'ms', 'SUT sampling interval, ms', 10, { value: 60_000, why: 'a stated maximum: coarser sampling misses whole cells' }),
  intSpec('pinnedThresholdMs', 'pinned-threshold-ms', 'ms', 'JFR jdk.VirtualThreadPinned threshold, ms (0 = every event)', 0, { value: 60_000, why: 'a stated maximum: a pin that long is already a stall of its own' }),
  spec({ key: 'errorFlagThreshold', flag: 'error-flag-threshold', arg: 'rate', description: 'error rate above which a cell is flagged, 0..1', max: { value: 1, why: 'a rate' }, parse: (r) => parseNumber('error-flag-threshold', r, 0, 1), show: (v) => `${v}` }),
  intSpec('connectTimeoutMs', 'connect-timeout-ms', 'ms', `load generator connect timeout, ms (>= ${UNDICI_TIMER_RESOLUTION_MS}: undici's timer resolution; fires up to 0.5 s late)`, UNDICI_TIMER_RESOLUTION_MS, TIMER),
  intSpec('headersTimeoutMs', 'headers-timeout-ms', 'ms', `load generator headers timeout, ms (must exceed the worst queue wait; >= ${UNDICI_TIMER_RESOLUTION_MS}: undici's timer resolution; fires up to 0.5 s late)`, UNDICI_TIMER_RESOLUTION_MS, TIMER),
  intSpec('bodyTimeoutMs', 'body-timeout-ms', 'ms', `load generator body timeout, ms (>= ${UNDICI_TIMER_RESOLUTION_MS}: undici's timer resolution; fires up to 0.5 s late)`, UNDICI_TIMER_RESOLUTION_MS, TIMER),
  spec({
    key: 'durationS', flag: 'duration-s', arg: 's', description: 'open-loop scenarios: the arrival schedule of every cell, s (its levels are then arrival rates, req/s); WebSocket scenarios: how long every cell holds its connections, s',
    max: { value: 86_400, why: 'a stated maximum: a day of arrivals per cell' },
    parse: (r) => parseNumber('duration-s', r, 0.001, 86_400), show: (v) => (v === undefined ? '(closed loop)' : `${v}`),
  }),
  spec({
    key: 'arrival', flag: 'arrival', arg: 'kind', description: 'open-loop scenarios: constant (every 1/λ) or poisson (exponential gaps, seeded by --arrival-seed)',
    parse: (raw) => {
      if (raw !== 'constant' && raw !== 'poisson') throw usage('arrival', `unknown arrival process '${raw}'`, 'use one of: constant, poisson');
      return raw;
    },
    show: (v) => v ?? '(closed loop)',
  }),
  spec({
    key: 'arrivalSeed', flag: 'arrival-seed', arg: 'n', description: 'open-loop scenarios, --arrival poisson: seed of the schedule (the same seed gives the same arrivals)',
    max: { value: MAX_SEED, why: 'the generator takes an unsigned 4-byte seed' },
    parse: (r) => parsePositiveInt('arrival-seed', r, 0, MAX_SEED, 'the generator takes an unsigned 4-byte seed'), show: (v) => (v === undefined ? '(closed loop)' : `${v}`),
  }),
  spec({
    key: 'maxInFlight', flag: 'max-in-flight', arg: 'n', description: 'open-loop scenarios: most requests in flight at once (one connection each); a send beyond it is refused and counted, never queued',
    max: { value: maxConcurrency, why: `each request in flight costs the SUT two file descriptors (inbound + upstream) under ulimit -n, less ${FD_RESERVE} for the JVM, and two ephemeral ports` },
    parse: (r) => parsePositiveInt('max-in-flight', r, 1), show: (v) => (v === undefined ? '(closed loop)' : `${v}`),
  }),
  intSpec('shards', 'shards', 'K', 'closed-loop cells: split each cell\'s workers over K generator processes on this host, merged from their raw records (1 = one process)', 1, { value: MAX_SHARDS, why: 'a stated maximum: each shard is a Node process of its own' }),
  spec({
    key: 'sutUrl', flag: 'sut-url', arg: 'url', description: 'an external SUT someone else started (origin, e.g. http://10.0.0.2:19080): not started, stopped or read from /proc; every figure over HTTP; the run must select the one variant it reports (src/pipeline/external.ts)',
    parse: (r) => parseComponentUrl('sut-url', r), show: (v) => v ?? '(started here)',
  }),
  spec({
    key: 'mockUrl', flag: 'mock-url', arg: 'url', description: 'an external mock LLM someone else started (origin without /v1): not started or stopped; its figures over HTTP (/stats); needed with --sut-url',
    parse: (r) => parseComponentUrl('mock-url', r), show: (v) => v ?? '(started here)',
  }),
  spec({
    key: 'cpuIsolation', flag: 'isolate-cpus', arg: 'spec',
    description: "CPU isolation: off (the default), auto (the harness — load generator, mock, PostgreSQL — on the lower half of this process's CPUs, the SUT JVM on the rest; 2 CPUs: harness 0, SUT 1) or <sut cpus>/<harness cpus> (e.g. 1/0), set with taskset; the bounds then use the SUT's CPUs. Off by default until a measurement of its effect on run-to-run variation justifies another default",
    parse: (r) => isolationOf(r, allowedCpus()), show: (v) => (v === undefined ? 'off' : `${v.sutCpus}/${v.harnessCpus}`),
  }),
] as const satisfies readonly OptionSpec[];
