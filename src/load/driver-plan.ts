/**
 * What every load driver shares: the plan of one cell's load as the pipeline hands it to a driver
 * (DriverCellPlan), the Driver interface, and the options the drivers derive from a plan (the
 * closed-loop runner's, the open loop's, the WebSocket hold). The drivers themselves are one module
 * each in src/load/drivers/, registered in src/load/driver.ts.
 */
import type { DriverKind, Scenario, Variant } from '../types/study.ts';
import type { ResolvedOptions } from '../types/run.ts';
import { CONTROL_TOKEN_HEADER } from '../adapters/process/control-token.ts';
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

/** `{ headers: h }`, or nothing when `h` is undefined (a request option). */
export const withHeaders = (h: Record<string, string> | undefined): { headers?: Record<string, string> } => (h === undefined ? {} : { headers: h });

/** Whether a request path (with or without a query) is one of the SUT's control endpoints. */
export function isControlPath(path: string): boolean {
  const p = path.split('?')[0] ?? '';
  return p === '/bench/job' || p.startsWith('/bench/job/');
}

/**
 * What one level of a cell is, for a driver (the plan, its bounds checks and the report ask this,
 * never the driver's kind):
 * - `workers`: closed-loop HTTP workers, each sending `requestsPerWorker` requests back to back
 *   (a cell's requests c × n; levels checked against the host's descriptors like --levels);
 * - `rate`: an arrival rate λ, req/s, for `durationS` (open loop: cell ids `<v>-rate<λ>-r<k>`, the
 *   open-loop plan, bounds and report);
 * - `connections`: N held connections (a cell's requests are its N opening handshakes, its own
 *   warm-up and descriptor check; a full queue is a measured outcome, not a plan error);
 * - `job`: one timed job the SUT runs itself per cell (no HTTP workers of the harness's: levels not
 *   checked as such, the scenario's job checked against the SUT's limits; the report's index says
 *   `in-process`).
 */
export type DriverLevel = 'workers' | 'rate' | 'connections' | 'job';

/**
 * A load driver. `run` generates the load of one cell and returns its raw per-request records and
 * their summary (src/types/load.ts LoadResult, the shape the store writes for a cell). Its other
 * fields say what the plan, the pipeline and the report need to know of the kind, so that they ask
 * the driver instead of testing for its kind (a new kind is its module in src/load/drivers/ and its
 * line in DRIVERS, src/load/driver.ts).
 */
export interface Driver {
  readonly kind: DriverKind;
  /** what one level of a cell is (DriverLevel) */
  readonly level: DriverLevel;
  /** a block's alone probe (Scenario.aloneProbe: n closed-loop HTTP requests of the scenario, one at a time) runs before its cells */
  readonly aloneProbe: boolean;
  /** its requests go to the SUT's control endpoints (`/bench/job/*`): an external SUT needs the run's control token */
  readonly controlCalls: boolean;
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

/** Defaults of the open-loop options a profile may leave out (ResolvedOptions' optional fields). */
export const OPEN_LOOP_DEFAULTS = { durationS: 60, arrival: 'constant', arrivalSeed: 1, maxInFlight: 1000 } as const;

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

/** The hold of a WebSocket cell when neither the plan nor the options give `durationS`, s (the source study held 60 s). */
export const WEBSOCKET_DEFAULT_HOLD_S = 60;

