/**
 * Load drivers: how a cell's load is generated. A driver turns one cell's plan into raw records and
 * their summary (plan -> run -> raw records -> summary); the pipeline picks it by the scenario's
 * `driver` (src/types/study.ts DriverKind) and stores what it returns. Built: closed-loop HTTP
 * (src/load/run.ts), open-loop HTTP (arrival rate without coordinated omission,
 * src/load/open-loop.ts) and in-process (a timed job the SUT runs itself and reports on,
 * src/load/in-process.ts) and WebSocket (N held connections, one server push per interval on each,
 * src/load/websocket.ts). A kind listed in NOT_BUILT is a typed slot whose registry entry throws a
 * clear VtbenchError until a later issue builds it (none today).
 */
import type { DriverKind, Scenario, Variant } from '../types/study.ts';
import type { ResolvedOptions } from '../types/run.ts';
import { VtbenchError, EXIT } from '../types/errors.ts';
import { runClosedLoop } from './run.ts';
import { runOpenLoop } from './open-loop.ts';
import { runInProcessJob } from './in-process.ts';
import { CONTROL_TOKEN_HEADER } from '../adapters/process/control-token.ts';
import { runWebSocketCell } from './websocket.ts';
import { runClosedLoopSharded } from './shards.ts';
import type { LoadEvents, LoadOptions, LoadResult } from '../types/load.ts';

/** One cell's (or one warm-up's) load, as the pipeline hands it to a driver. */
export interface DriverCellPlan {
  /** the SUT's origin, e.g. http://127.0.0.1:19080 */
  baseUrl: string;
  scenario: Scenario;
  options: Readonly<ResolvedOptions>;
  /** the block's effective variant (the in-process driver's job deadline depends on it); absent in older callers */
  variant?: Variant;
  /** the cell's level: closed-loop workers (c), or for the open loop the arrival rate λ (req/s) */
  concurrency: number;
  /** open loop: the schedule's length, s; default `options.durationS` (the warm-up passes its own) */
  durationS?: number;
  /** measured requests per worker (n) */
  requestsPerWorker: number;
  /** a send later than this after its intended time (ms) counts as late (flags.ts generatorDelayThresholdMs) */
  lateSendThresholdMs: number;
  /** stops the load; the driver returns what finished before, with `aborted` true */
  signal: AbortSignal;
  /** closed loop: no request is sent later than this after t0, ms (LoadOptions.sendUntilMs; warm-ups) */
  sendUntilMs?: number;
  /**
   * the run's control token (src/adapters/process/control-token.ts): sent with every request to a control
   * endpoint of the SUT (`/bench/job/*`, controlHeaders); absent or null: none
   */
  controlToken?: string | null;
}

/**
 * The headers of a request to `path` of the SUT: the JSON content type with a body, and the run's
 * control token when the path is a control endpoint (`/bench/job/*`, sut/…/ControlTokenFilter.java).
 * Undefined when none.
 */
export function requestHeaders(path: string, hasBody: boolean, controlToken: string | null | undefined): Record<string, string> | undefined {
  const h: Record<string, string> = {};
  if (hasBody) h['content-type'] = 'application/json';
  if (controlToken != null && isControlPath(path)) h[CONTROL_TOKEN_HEADER] = controlToken;
  return Object.keys(h).length > 0 ? h : undefined;
}

const withHeaders = (h: Record<string, string> | undefined): { headers?: Record<string, string> } => (h === undefined ? {} : { headers: h });

/** Whether a request path (with or without a query) is one of the SUT's control endpoints. */
export function isControlPath(path: string): boolean {
  const p = path.split('?')[0] ?? '';
  return p === '/bench/job' || p.startsWith('/bench/job/');
}

/**
 * A load driver. `run` generates the load of one cell and returns its raw per-request records and
 * their summary (src/types/load.ts LoadResult, the shape the store writes for a cell).
 */
export interface Driver {
  readonly kind: DriverKind;
  run(plan: DriverCellPlan, events?: LoadEvents): Promise<LoadResult>;
}

/** The closed-loop runner's options of one cell plan (the scenario's request, the run's timeouts and start mode). */
export function closedLoopOptionsOf(p: DriverCellPlan): LoadOptions {
  const req = p.scenario.request(p.options);
  const o = p.options;
  return {
    url: p.baseUrl,
    path: req.path,
    method: req.method,
    ...(req.body !== undefined ? { body: req.body } : {}),
    ...withHeaders(requestHeaders(req.path, req.body !== undefined, p.controlToken)),
    concurrency: p.concurrency,
    requestsPerWorker: p.requestsPerWorker,
    start: o.start,
    rampMs: o.rampMs,
    connectTimeoutMs: o.connectTimeoutMs,
    headersTimeoutMs: o.headersTimeoutMs,
    bodyTimeoutMs: o.bodyTimeoutMs,
    lateSendThresholdMs: p.lateSendThresholdMs,
    signal: p.signal,
    ...(p.sendUntilMs !== undefined ? { sendUntilMs: p.sendUntilMs } : {}),
  };
}

/** The closed-loop HTTP driver: c workers, one connection each, n requests back to back (src/load/run.ts). */
export const closedLoopHttpDriver: Driver = {
  kind: 'closed-loop-http',
  run(p, events) {
    return runClosedLoop(closedLoopOptionsOf(p), events);
  },
};

/**
 * `driver` with its load split over `shards` generator processes (src/load/shards.ts); `driver`
 * itself for one shard. Only the closed-loop HTTP driver shards.
 * @throws VtbenchError(EXIT.usage) for `shards` > 1 with another driver
 */
export function withShards(driver: Driver, shards: number): Driver {
  if (shards <= 1) return driver;
  if (driver.kind !== 'closed-loop-http') {
    throw new VtbenchError(`--shards ${shards}: the ${driver.kind} driver does not shard yet`, 'drop --shards (only closed-loop-http scenarios run over several generator processes)', EXIT.usage);
  }
  return {
    kind: driver.kind,
    run: (p, events) => runClosedLoopSharded(closedLoopOptionsOf(p), shards, events),
  };
}

/** Defaults of the open-loop options a profile may leave out (ResolvedOptions' optional fields). */
export const OPEN_LOOP_DEFAULTS = { durationS: 60, arrival: 'constant', arrivalSeed: 1, maxInFlight: 1000 } as const;

/**
 * The in-process driver: one SUT job per cell (`Scenario.job`, src/load/in-process.ts). The plan's
 * concurrency and requests per worker are not sent: the job's tasks come from `Scenario.job(options)`.
 * @throws VtbenchError(EXIT.usage) when the scenario has no `job`
 */
export const inProcessDriver: Driver = {
  kind: 'in-process',
  run(p) {
    const variant = p.variant;
    const job = variant ? p.scenario.job?.(p.options, variant, p.concurrency) : undefined;
    if (!job || !variant) {
      return Promise.reject(new VtbenchError(`--scenario: scenario ${p.scenario.id} uses the in-process driver but ${variant ? 'defines no job' : 'the cell names no variant'}`, 'give the scenario a job(o, variant) (src/types/study.ts Scenario.job); the pipeline passes the variant', EXIT.usage));
    }
    return runInProcessJob(p.baseUrl, job, p.signal, p.controlToken ?? null);
  },
};

/** What an open-loop (arrival-rate) cell runs with: the cell's level is λ. */
export interface OpenLoopHttpPlan {
  /** requests started per second, independent of answers (no coordinated omission) */
  arrivalRatePerS: number;
  /** measured phase, s */
  durationS: number;
  arrival: 'constant' | 'poisson';
  seed: number;
  /** upper bound of requests in flight (connections), beyond which a send is refused and counted */
  maxInFlight: number;
}

/** The open-loop parameters of a cell plan: λ = the level, the rest from the options (or their defaults). */
export function openLoopPlanOf(p: Pick<DriverCellPlan, 'concurrency' | 'durationS' | 'options'>): OpenLoopHttpPlan {
  const o = p.options;
  return {
    arrivalRatePerS: p.concurrency,
    durationS: p.durationS ?? o.durationS ?? OPEN_LOOP_DEFAULTS.durationS,
    arrival: o.arrival ?? OPEN_LOOP_DEFAULTS.arrival,
    seed: o.arrivalSeed ?? OPEN_LOOP_DEFAULTS.arrivalSeed,
    maxInFlight: o.maxInFlight ?? OPEN_LOOP_DEFAULTS.maxInFlight,
  };
}

/** The open-loop HTTP driver: the scenario's request at λ = the cell's level for `durationS` (src/load/open-loop.ts). */
export const openLoopHttpDriver: Driver = {
  kind: 'open-loop-http',
  run(p, events) {
    const req = p.scenario.request(p.options);
    const o = p.options;
    const ol = openLoopPlanOf(p);
    return runOpenLoop({
      url: p.baseUrl,
      path: req.path,
      method: req.method,
      ...(req.body !== undefined ? { body: req.body } : {}),
      ...withHeaders(requestHeaders(req.path, req.body !== undefined, p.controlToken)),
      ...ol,
      connectTimeoutMs: o.connectTimeoutMs,
      headersTimeoutMs: o.headersTimeoutMs,
      bodyTimeoutMs: o.bodyTimeoutMs,
      lateSendThresholdMs: p.lateSendThresholdMs,
      signal: p.signal,
    }, events);
  },
};

/** The hold of a WebSocket cell when neither the plan nor the options give `durationS`, s (the source study held 60 s). */
export const WEBSOCKET_DEFAULT_HOLD_S = 60;

/**
 * The WebSocket driver (src/load/websocket.ts): the cell's level is N connections, opened over
 * `options.rampMs`, held `durationS` (the plan's, else `options.durationS`, else 60 s) on the
 * scenario's request path (the SUT's `/ws/push`); the SUT's push interval and work are read from its
 * `GET /bench/ws`. Requests per worker are not used (one handshake per connection).
 */
export const websocketDriver: Driver = {
  kind: 'websocket',
  run(p) {
    const o = p.options;
    return runWebSocketCell({
      baseUrl: p.baseUrl,
      path: p.scenario.request(o).path,
      connections: p.concurrency,
      rampMs: o.rampMs,
      holdS: p.durationS ?? o.durationS ?? WEBSOCKET_DEFAULT_HOLD_S,
      connectTimeoutMs: o.connectTimeoutMs,
      signal: p.signal,
    });
  },
};

// ---- typed slots for later issues ----------------------------------------------------------------

/** Issues that build the drivers not built yet (none today; a new DriverKind starts here). */
const NOT_BUILT: Readonly<Partial<Record<DriverKind, string>>> = {};

/** The one error of a driver slot not built yet, naming the scenario that chose it and the issue that builds it. */
function notBuiltError(kind: DriverKind, scenarioId: string): VtbenchError {
  return new VtbenchError(
    `--scenario: scenario ${scenarioId}: load driver '${kind}' is not built yet (see ${NOT_BUILT[kind] ?? 'src/load/driver.ts'}; the slot is typed in src/load/driver.ts)`,
    `choose with --scenario a scenario whose driver is one of: ${(Object.keys(DRIVERS) as DriverKind[]).filter(driverBuilt).join(', ')}`,
    EXIT.usage,
  );
}

function notBuilt(kind: DriverKind): Driver {
  return { kind, run: (p) => Promise.reject(notBuiltError(kind, p.scenario.id)) };
}

/** Every driver kind, built or not. */
export const DRIVERS: Readonly<Record<DriverKind, Driver>> = {
  'closed-loop-http': closedLoopHttpDriver,
  'open-loop-http': openLoopHttpDriver,
  websocket: websocketDriver,
  'in-process': inProcessDriver,
};

/** Whether a driver kind can run today. */
export function driverBuilt(kind: DriverKind): boolean {
  return !(kind in NOT_BUILT);
}

/**
 * The driver of a scenario.
 * @throws VtbenchError(EXIT.usage) when the scenario's driver is a slot not built yet (checked when
 *   the options are resolved, so a run never starts with a driver that cannot run)
 */
export function driverFor(scenario: Pick<Scenario, 'id' | 'driver'>): Driver {
  if (!driverBuilt(scenario.driver)) throw notBuiltError(scenario.driver, scenario.id);
  return DRIVERS[scenario.driver];
}
