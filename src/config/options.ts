/**
 * Options of a run, declared once: name, type, description and parser. The same table drives
 * command-line parsing, validation, `--help` and the manifest. Profiles (profiles.ts) give the
 * defaults; flags override any field.
 */
import { isIP } from 'node:net';
import { VtbenchError, EXIT } from '../cli/errors.ts';
import { DEFAULT_BIND_ADDRESS } from '../jvm/bind.ts';
import type { Mode, ResolvedOptions, StartMode } from '../store/types.ts';

/** Keys of ResolvedOptions that a flag may set (all but `profile`). */
export type OptionKey = Exclude<keyof ResolvedOptions, 'profile'>;

export interface OptionSpec<K extends OptionKey = OptionKey> {
  key: K;
  /** long flag without dashes, e.g. `latency-ms` */
  flag: string;
  /** value placeholder for --help */
  arg: string;
  description: string;
  /** parse a command-line string; throws VtbenchError naming the flag */
  parse(raw: string): ResolvedOptions[K];
  /** render a value for --help and the plan */
  show(value: ResolvedOptions[K]): string;
}

function usage(flag: string, message: string, hint: string): VtbenchError {
  return new VtbenchError(`--${flag}: ${message}`, hint, EXIT.usage);
}

/** Parse a positive integer (>= min) or throw naming the flag. */
export function parsePositiveInt(flag: string, raw: string, min = 1): number {
  const s = raw.trim();
  if (/^-\d+$/.test(s)) throw usage(flag, `${raw} is negative`, `give a whole number >= ${min}`);
  if (!/^\d+$/.test(s)) throw usage(flag, `'${raw}' is not a whole number`, `give a whole number >= ${min}, e.g. --${flag} ${Math.max(min, 10)}`);
  const n = Number(s);
  if (!Number.isSafeInteger(n) || n < min) throw usage(flag, `${raw} is below ${min}`, `give a whole number >= ${min}`);
  return n;
}

function parseNumber(flag: string, raw: string, min: number, max = Infinity): number {
  const n = Number(raw.trim());
  if (raw.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
    throw usage(flag, `'${raw}' is not a number in [${min}, ${max === Infinity ? '∞' : max}]`, `give a number from ${min} to ${max === Infinity ? 'any' : max}`);
  }
  return n;
}

function parsePort(flag: string, raw: string): number {
  const n = parsePositiveInt(flag, raw, 1);
  if (n > 65535) throw usage(flag, `${raw} is not a TCP port`, 'give a port in 1..65535');
  return n;
}

function list(raw: string, flag: string): string[] {
  const items = raw.split(',').map((s) => s.trim());
  if (items.length === 1 && items[0] === '') return [];
  if (items.some((s) => s === '')) throw usage(flag, `'${raw}' has an empty item`, `separate items with single commas, e.g. --${flag} 10,50`);
  return items;
}

const MODES: readonly Mode[] = ['fixed', 'virtual'];
const STARTS: readonly StartMode[] = ['together', 'ramp'];

function spec<K extends OptionKey>(s: OptionSpec<K>): OptionSpec<K> {
  return s;
}

const int = (v: number): string => String(v);

/** Every option, in --help order. */
export const OPTION_SPECS = [
  spec({
    key: 'levels', flag: 'levels', arg: 'c1,c2,..', description: 'concurrency levels (closed-loop workers per cell)',
    parse: (raw) => {
      const items = list(raw, 'levels');
      if (items.length === 0) throw usage('levels', 'no level given', 'e.g. --levels 10,50,100');
      const levels = items.map((x) => parsePositiveInt('levels', x));
      if (new Set(levels).size !== levels.length) throw usage('levels', `'${raw}' repeats a level`, 'list each level once');
      return [...levels].sort((a, b) => a - b);
    },
    show: (v) => v.join(','),
  }),
  spec({ key: 'requestsPerWorker', flag: 'requests-per-worker', arg: 'n', description: 'measured requests each worker sends, one after another', parse: (r) => parsePositiveInt('requests-per-worker', r), show: int }),
  spec({ key: 'repeats', flag: 'repeats', arg: 'n', description: 'repeats of every cell (a fresh SUT JVM per mode and repeat)', parse: (r) => parsePositiveInt('repeats', r), show: int }),
  spec({ key: 'warmupS', flag: 'warmup-s', arg: 's', description: 'warm-up per JVM at the highest level, s (not recorded; 0 = none)', parse: (r) => parseNumber('warmup-s', r, 0, 3600), show: (v) => `${v}` }),
  spec({ key: 'latencyMs', flag: 'latency-ms', arg: 'ms', description: 'mock LLM latency per call, ms (fixed model)', parse: (r) => parsePositiveInt('latency-ms', r), show: int }),
  spec({
    key: 'modes', flag: 'modes', arg: 'm1,m2', description: 'executor modes to run: fixed, virtual',
    parse: (raw) => {
      const items = list(raw, 'modes');
      if (items.length === 0) throw usage('modes', 'no mode given', 'e.g. --modes fixed,virtual');
      for (const m of items) if (!MODES.includes(m as Mode)) throw usage('modes', `unknown mode '${m}'`, `use one or more of: ${MODES.join(', ')}`);
      if (new Set(items).size !== items.length) throw usage('modes', `'${raw}' repeats a mode`, 'list each mode once');
      return items as Mode[];
    },
    show: (v) => v.join(','),
  }),
  spec({ key: 'poolSize', flag: 'pool-size', arg: 'N', description: 'fixed pool threads (core = max)', parse: (r) => parsePositiveInt('pool-size', r), show: int }),
  spec({ key: 'queueCapacity', flag: 'queue-capacity', arg: 'n', description: 'fixed pool queue capacity (AbortPolicy beyond it)', parse: (r) => parsePositiveInt('queue-capacity', r, 0), show: int }),
  spec({
    key: 'start', flag: 'start', arg: 'mode', description: 'worker start: together (as the study) or ramp (spread over --ramp-ms)',
    parse: (raw) => {
      if (!STARTS.includes(raw as StartMode)) throw usage('start', `unknown start mode '${raw}'`, `use one of: ${STARTS.join(', ')}`);
      return raw as StartMode;
    },
    show: (v) => v,
  }),
  spec({ key: 'rampMs', flag: 'ramp-ms', arg: 'ms', description: 'ramp length with --start ramp, ms (0 = one latency)', parse: (r) => parsePositiveInt('ramp-ms', r, 0), show: int }),
  spec({
    key: 'jvmFlags', flag: 'jvm-flags', arg: '"flags"', description: 'SUT JVM flags, space separated',
    parse: (raw) => {
      const flags = raw.split(/\s+/).filter((s) => s.length > 0);
      for (const f of flags) if (!f.startsWith('-')) throw usage('jvm-flags', `'${f}' is not a JVM flag`, 'JVM flags start with -, e.g. --jvm-flags "-Xmx512m -XX:+UseG1GC"');
      return flags;
    },
    show: (v) => v.join(' '),
  }),
  spec({ key: 'mockPort', flag: 'mock-port', arg: 'port', description: 'port of the mock LLM (on --bind-address)', parse: (r) => parsePort('mock-port', r), show: int }),
  spec({ key: 'sutPort', flag: 'sut-port', arg: 'port', description: 'port of the system under test (on --bind-address)', parse: (r) => parsePort('sut-port', r), show: int }),
  spec({
    key: 'bindAddress', flag: 'bind-address', arg: 'addr', description: 'address the SUT and the mock listen on (an IP literal; 0.0.0.0 = every interface)',
    parse: (raw) => {
      const a = raw.trim();
      if (isIP(a) === 0) throw usage('bind-address', `'${raw}' is not an IP address`, `give an IPv4 or IPv6 literal, e.g. --bind-address ${DEFAULT_BIND_ADDRESS}`);
      return a;
    },
    show: (v) => v ?? DEFAULT_BIND_ADDRESS,
  }),
  spec({ key: 'samplerIntervalMs', flag: 'sampler-interval-ms', arg: 'ms', description: 'SUT sampling interval, ms', parse: (r) => parsePositiveInt('sampler-interval-ms', r, 10), show: int }),
  spec({ key: 'pinnedThresholdMs', flag: 'pinned-threshold-ms', arg: 'ms', description: 'JFR jdk.VirtualThreadPinned threshold, ms (0 = every event)', parse: (r) => parsePositiveInt('pinned-threshold-ms', r, 0), show: int }),
  spec({ key: 'errorFlagThreshold', flag: 'error-flag-threshold', arg: 'rate', description: 'error rate above which a cell is flagged, 0..1', parse: (r) => parseNumber('error-flag-threshold', r, 0, 1), show: (v) => `${v}` }),
  spec({ key: 'connectTimeoutMs', flag: 'connect-timeout-ms', arg: 'ms', description: 'load generator connect timeout, ms', parse: (r) => parsePositiveInt('connect-timeout-ms', r), show: int }),
  spec({ key: 'headersTimeoutMs', flag: 'headers-timeout-ms', arg: 'ms', description: 'load generator headers timeout, ms (must exceed the worst queue wait)', parse: (r) => parsePositiveInt('headers-timeout-ms', r), show: int }),
  spec({ key: 'bodyTimeoutMs', flag: 'body-timeout-ms', arg: 'ms', description: 'load generator body timeout, ms', parse: (r) => parsePositiveInt('body-timeout-ms', r), show: int }),
] as const satisfies readonly OptionSpec[];

/** Look up the spec of a key. */
export function optionSpec(key: OptionKey): OptionSpec {
  const s = OPTION_SPECS.find((o) => o.key === key);
  if (!s) throw new Error(`no option spec for ${key}`);
  return s as unknown as OptionSpec;
}
