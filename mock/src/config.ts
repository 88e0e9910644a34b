/**
 * Every option of the mock, declared once (flag, value name, default, description, rule) and used
 * for CLI parsing, validation and `--help` alike. `resolveMockConfig` validates once and freezes.
 */
import { EXIT, VtbenchError } from '../../src/types/errors.ts';
import { ERROR_STATUSES, type ErrorStatus, type FaultParams } from './faults.ts';
import { LATENCY_MODELS, type LatencyModel, type LatencyParams } from './latency.ts';

/** When a stream's response headers are written (MockConfig.streamHeaders). */
export const STREAM_HEADERS = ['arrival', 'first-token'] as const;
export type StreamHeaders = (typeof STREAM_HEADERS)[number];

export interface MockConfig extends LatencyParams, FaultParams {
  /** seed of every random draw (latency, faults) */
  seed: number;
  /** stream: interval between content chunks after the first token, ms */
  interTokenMs: number;
  /**
   * stream: when the response headers go out: `arrival` (at once, before the first token) or
   * `first-token` (with the first token, as a server that answers only once the model produces output)
   */
  streamHeaders: StreamHeaders;
  /** tokens (words) in every answer, unless the request's max tokens is smaller */
  completionTokens: number;
  /** model listed by /v1/models and used when a request names none */
  model: string;
  /** `Retry-After` of injected 429s and over-capacity 429s, s */
  retryAfterS: number;
  /** max chat requests held at once; beyond it 429 (0 = unlimited) */
  maxConcurrent: number;
  /** HTTP keep-alive idle timeout, ms; longer than any client's idle time */
  keepAliveTimeoutMs: number;
  /** time allowed to receive the request headers, ms */
  headersTimeoutMs: number;
  /** fastify request logging (off in benchmarks: it costs on the hot path) */
  log: boolean;
}

/** Where the mock listens (not part of MockConfig: the same config can listen anywhere). */
export interface ListenOptions {
  port: number;
  host: string;
}

type Kind =
  | { type: 'int'; min: number; max: number }
  | { type: 'number'; min: number; max: number; minExclusive?: boolean }
  | { type: 'enum'; choices: readonly (string | number)[] }
  | { type: 'string' }
  | { type: 'bool' };

export interface OptionSpec<T> {
  /** long flag, e.g. `--latency-ms` */
  flag: string;
  /** value placeholder in --help; '' for a boolean switch */
  arg: string;
  description: string;
  default: T;
  kind: Kind;
}

const rate = (what: string): OptionSpec<number> => ({
  flag: `--${what}-rate`,
  arg: 'p',
  description: `probability (0..1) of an injected ${what === 'error' ? 'error answer (status from --error-status, at once)' : what === 'hang' ? 'hang (never answered)' : 'connection reset (TCP RST after the drawn latency)'}`,
  default: 0,
  kind: { type: 'number', min: 0, max: 1 },
});

export const MOCK_OPTIONS: { readonly [K in keyof MockConfig]: OptionSpec<MockConfig[K]> } = {
  latencyModel: {
    flag: '--latency-model', arg: 'model', default: 'fixed',
    description: `latency model: ${LATENCY_MODELS.join(' | ')} (stream: time to first token)`,
    kind: { type: 'enum', choices: LATENCY_MODELS },
  },
  latencyMs: {
    flag: '--latency-ms', arg: 'ms', default: 1500,
    description: 'fixed: the latency; normal: the mean; lognormal: the median',
    kind: { type: 'number', min: 0, max: 3_600_000 },
  },
  latencyMinMs: {
    flag: '--latency-min-ms', arg: 'ms', default: 1000,
    description: 'uniform: lower bound', kind: { type: 'number', min: 0, max: 3_600_000 },
  },
  latencyMaxMs: {
    flag: '--latency-max-ms', arg: 'ms', default: 2000,
    description: 'uniform: upper bound', kind: { type: 'number', min: 0, max: 3_600_000 },
  },
  latencySdMs: {
    flag: '--latency-sd-ms', arg: 'ms', default: 100,
    description: 'normal: standard deviation (draws below 0 become 0)',
    kind: { type: 'number', min: 0, max: 3_600_000 },
  },
  latencySigma: {
    flag: '--latency-sigma', arg: 's', default: 0.25,
    description: 'lognormal: sigma of the underlying normal',
    kind: { type: 'number', min: 0, max: 10, minExclusive: true },
  },
  seed: {
    flag: '--seed', arg: 'n', default: 42,
    description: 'seed of the latency and fault draws', kind: { type: 'int', min: 0, max: 2 ** 32 - 1 },
  },
  interTokenMs: {
    flag: '--inter-token-ms', arg: 'ms', default: 20,
    description: 'stream: interval between chunks after the first token',
    kind: { type: 'number', min: 0, max: 60_000 },
  },
  streamHeaders: {
    flag: '--stream-headers', arg: 'when', default: 'arrival',
    description: `stream: when the response headers are sent: ${STREAM_HEADERS.join(' | ')} (at once, or with the first token)`,
    kind: { type: 'enum', choices: STREAM_HEADERS },
  },
  completionTokens: {
    flag: '--completion-tokens', arg: 'n', default: 16,
    description: 'tokens in every answer (fewer if the request sets max tokens)',
    kind: { type: 'int', min: 1, max: 100_000 },
  },
  model: {
    flag: '--model', arg: 'id', default: 'vtbench-mock',
    description: 'model id of /v1/models, used when a request names none', kind: { type: 'string' },
  },
  errorRate: rate('error'),
  errorStatus: {
    flag: '--error-status', arg: 'code', default: 500,
    description: `status of injected errors: ${ERROR_STATUSES.join(' | ')} (429 carries Retry-After)`,
    kind: { type: 'enum', choices: ERROR_STATUSES },
  },
  hangRate: rate('hang'),
  resetRate: rate('reset'),
  retryAfterS: {
    flag: '--retry-after-s', arg: 's', default: 1,
    description: 'Retry-After of 429 answers', kind: { type: 'int', min: 0, max: 86_400 },
  },
  maxConcurrent: {
    flag: '--max-concurrent', arg: 'n', default: 0,
    description: 'capacity: chat requests held at once, beyond it 429 (0 = unlimited)',
    kind: { type: 'int', min: 0, max: 10_000_000 },
  },
  keepAliveTimeoutMs: {
    flag: '--keep-alive-timeout-ms', arg: 'ms', default: 650_000,
    description: 'HTTP keep-alive idle timeout (must exceed any client idle time)',
    kind: { type: 'int', min: 1, max: 2_147_483_647 },
  },
  headersTimeoutMs: {
    flag: '--headers-timeout-ms', arg: 'ms', default: 60_000,
    description: 'time allowed to receive request headers', kind: { type: 'int', min: 1, max: 2_147_483_647 },
  },
  log: {
    flag: '--log', arg: '', default: false,
    description: 'log every request (fastify logger; off by default, it costs on the hot path)',
    kind: { type: 'bool' },
  },
};

export const LISTEN_OPTIONS: { readonly [K in keyof ListenOptions]: OptionSpec<ListenOptions[K]> } = {
  port: {
    flag: '--port', arg: 'n', default: 9000,
    description: 'TCP port (0 = any free port)', kind: { type: 'int', min: 0, max: 65535 },
  },
  host: {
    flag: '--host', arg: 'addr', default: '127.0.0.1',
    description: 'address to bind (loopback by default)', kind: { type: 'string' },
  },
};

/** How the mock process lives (not part of MockConfig or ListenOptions: only the CLI uses it). */
export interface ProcessOptions {
  /** pid whose exit stops the mock (src/adapters/process/parent-watch.ts `watchProcess`); 0 = none */
  parentPid: number;
}

export const PROCESS_OPTIONS: { readonly [K in keyof ProcessOptions]: OptionSpec<ProcessOptions[K]> } = {
  parentPid: {
    flag: '--parent-pid', arg: 'pid', default: 0,
    description: 'exit (0) within about a second of the process with this pid exiting; the harness passes its own pid, so a mock never outlives a killed harness (0 = never)',
    // Linux's PID_MAX_LIMIT, 2^22
    kind: { type: 'int', min: 0, max: 4_194_304 },
  },
};

function defaultsOf<T>(specs: { readonly [K in keyof T]: OptionSpec<T[K]> }): T {
  const out: Partial<T> = {};
  for (const k of Object.keys(specs) as (keyof T)[]) out[k] = specs[k].default;
  return out as T;
}

export const DEFAULT_MOCK_CONFIG: Readonly<MockConfig> = Object.freeze(defaultsOf<MockConfig>(MOCK_OPTIONS));

function usage(message: string, hint: string): VtbenchError {
  return new VtbenchError(message, hint, EXIT.usage);
}

function rule(kind: Kind): string {
  switch (kind.type) {
    case 'int': return `an integer from ${kind.min} to ${kind.max}`;
    case 'number': return `a number ${kind.minExclusive ? '>' : '>='} ${kind.min} and <= ${kind.max}`;
    case 'enum': return `one of ${kind.choices.join(', ')}`;
    case 'string': return 'a non-empty string';
    case 'bool': return 'true or false';
  }
}

/** Checks one typed value against its spec; throws a usage error naming the flag and the rule. */
function checkValue<T>(spec: OptionSpec<T>, value: unknown, shown: unknown = value): T {
  const k = spec.kind;
  const bad = () =>
    usage(`${spec.flag} ${typeof shown === 'string' ? JSON.stringify(shown) : String(shown)} is invalid`, `give ${spec.flag} ${rule(k)} (default ${String(spec.default)})`);
  switch (k.type) {
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < k.min || value > k.max) throw bad();
      break;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value) || value > k.max) throw bad();
      if (k.minExclusive ? value <= k.min : value < k.min) throw bad();
      break;
    case 'enum':
      if (!k.choices.includes(value as string | number)) throw bad();
      break;
    case 'string':
      if (typeof value !== 'string' || value.length === 0) throw bad();
      break;
    case 'bool':
      if (typeof value !== 'boolean') throw bad();
      break;
  }
  return value as T;
}

/** Converts a CLI string to the option's type (numbers via Number, enums of numbers too); then checks it. */
export function parseOptionValue<T>(spec: OptionSpec<T>, raw: string | boolean): T {
  const k = spec.kind;
  let value: unknown = raw;
  if (typeof raw === 'string') {
    const numeric = k.type === 'int' || k.type === 'number' || (k.type === 'enum' && typeof k.choices[0] === 'number');
    if (numeric && raw.trim() !== '') value = Number(raw);
  }
  return checkValue(spec, value, raw);
}

/** Validates a partial config over the defaults (unknown keys, types, ranges, cross-field rules) and freezes it. */
export function resolveMockConfig(partial: Partial<MockConfig> = {}): Readonly<MockConfig> {
  const out = { ...DEFAULT_MOCK_CONFIG } as Record<string, unknown>;
  for (const [key, value] of Object.entries(partial)) {
    if (value === undefined) continue;
    const spec = (MOCK_OPTIONS as Record<string, OptionSpec<unknown> | undefined>)[key];
    if (!spec) throw usage(`unknown mock option "${key}"`, `use one of: ${Object.keys(MOCK_OPTIONS).join(', ')}`);
    out[key] = checkValue(spec, value);
  }
  const c = out as unknown as MockConfig;
  if (c.latencyModel === 'uniform' && c.latencyMinMs > c.latencyMaxMs) {
    throw usage(
      `--latency-min-ms ${c.latencyMinMs} is above --latency-max-ms ${c.latencyMaxMs}`,
      'give --latency-min-ms <= --latency-max-ms for --latency-model uniform',
    );
  }
  if (c.latencyModel === 'lognormal' && c.latencyMs <= 0) {
    throw usage('--latency-ms 0 is invalid for --latency-model lognormal', 'give --latency-ms > 0 (the median)');
  }
  const total = c.errorRate + c.hangRate + c.resetRate;
  if (total > 1 + 1e-12) {
    throw usage(
      `--error-rate + --hang-rate + --reset-rate = ${total} exceeds 1`,
      'lower the fault rates so that they sum to at most 1',
    );
  }
  return Object.freeze(c);
}

export function resolveListenOptions(partial: Partial<ListenOptions>, defaults: ListenOptions): Readonly<ListenOptions> {
  return Object.freeze({
    port: checkValue(LISTEN_OPTIONS.port, partial.port ?? defaults.port),
    host: checkValue(LISTEN_OPTIONS.host, partial.host ?? defaults.host),
  });
}
