/**
 * Contracts of the closed-loop load generator (src/load/). Times are numbers in the unit their
 * name carries; offsets are relative to the run's t0 (the moment `runClosedLoop` started its clock).
 */

/** Error classes of one request. `http` = a response arrived with status >= 400. */
export type ErrorClass = 'connect' | 'reset' | 'timeout' | 'http' | 'other';

/** One measured request. */
export interface RequestRecord {
  /** worker index, 0..c-1 */
  worker: number;
  /** request index within the worker, 0..n-1 */
  seq: number;
  /** when the request was meant to start (start-mode schedule), ms after t0 */
  intendedStartMs: number;
  /** when it was actually sent, ms after t0 (hrtime based) */
  startMs: number;
  /** when the full response body was read (or the error surfaced), ms after t0 */
  endMs: number;
  /** end-to-end latency endMs - startMs, ms (ns precision kept as a fraction) */
  e2eMs: number;
  /** HTTP status, or null when no response arrived */
  status: number | null;
  /** null when the request succeeded (2xx) */
  errorClass: ErrorClass | null;
  /** parsed `Server-Timing` entries: name -> dur in ms, e.g. {queue: 0.012, exec: 1501.2} */
  serverTiming: Record<string, number>;
}

/** Percentile summary of one sample; every field ms; absent sample -> the whole object is null. */
export interface Percentiles {
  n: number;
  min: number;
  mean: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
  max: number;
}

/** Summary of one closed-loop run (one cell). */
export interface LoadSummary {
  concurrency: number;
  requestsPerWorker: number;
  /** records in total (successes + errors) */
  count: number;
  ok: number;
  errors: Record<ErrorClass, number>;
  /** whole run: completed / (last end - first start), req/s — the source study's definition */
  wholeRunThroughputRps: number | null;
  /** completions whose end lies in the window where all workers are active, divided by its length */
  steadyStateThroughputRps: number | null;
  /** the steady-state window, ms after t0: [latest first start, earliest last end]; null if empty */
  steadyWindow: { startMs: number; endMs: number; completions: number } | null;
  /** max number of requests observed in flight at once */
  peakInFlight: number;
  e2eMs: Percentiles | null;
  /** from Server-Timing `queue` (null when the server sent none) */
  queueMs: Percentiles | null;
  /** from Server-Timing `exec` */
  execMs: Percentiles | null;
}
