/**
 * Throughput bounds of one closed-loop cell from every resource a request holds, and the smallest
 * of them (pure). Sources: the operational laws (Denning & Buzen, "The Operational Analysis of
 * Queueing Network Models", 1978): a resource of K servers each held D seconds per request bounds
 * throughput at X ≤ K / D (the utilisation law U = X·D ≤ K); for CPU, the service-demand law
 * X ≤ cores / D_cpu with D_cpu the CPU-seconds all processes spend per completed request.
 *
 * - `executor`: min(c, N) / L on a pool of N threads, c / L with one virtual thread per task
 *   (src/compute/theory/bounds.ts throughputBoundRps), L = the time a request holds its thread. When the
 *   response time of one request alone, R(1), was measured (RunManifest.aloneProbes): min(c / R(1),
 *   N / L) — the population bound of a closed loop of c workers without think time, X(c) ≤ c / D with
 *   D = R(1) (Lazowska et al., "Quantitative System Performance", 1984, §5.2), beside the servers'
 *   N / L; c / R(1) with one virtual thread per task.
 * - `dbPool`: Hikari pool / DB time per request (10 / 0.005 s = 2,000 req/s; 10 / 0.05 s = 200 req/s).
 * - `lock`: one shared monitor held H ms per request: 1 / H (a `synchronized` method of a singleton).
 * - `cpu`: cores / measured CPU-seconds per completed request (SUT + mock + load generator + DB),
 *   over the same window as the throughput it bounds (cellCpu, cellWindow; the non-SUT parts as
 *   per-cell totals where a cell has no `componentCpuSamples`).
 * - `cpuPerCall`: cores / the CPU time one call costs by itself (cpu-fib: the SUT's calibration).
 */
import { parseCpuList } from '../cpu-list.ts';
import { executorInfo, type ExecutorSpec } from '../../types/study.ts';
import type { CellResult } from '../../types/run.ts';
import { throughputBoundRps } from './bounds.ts';

export type BoundKind = 'executor' | 'dbPool' | 'lock' | 'cpu' | 'cpuPerCall';

/** One bound, req/s, with the inputs that make it. */
export interface Bound {
  kind: BoundKind;
  rps: number;
  /** the inputs, named (units in the names), for the report's arithmetic */
  inputs: Record<string, number>;
}

/** What a cell's bounds are computed from; a null input leaves its bound out. */
export interface BoundInputs {
  executor: ExecutorSpec;
  /** closed-loop workers */
  concurrency: number;
  /** L: ms a request holds its executor thread */
  holdMs: number;
  /** R(1): ms one request takes end to end with no other in the system (the alone probe); absent or null: L */
  aloneE2eMs?: number | null;
  /** Hikari maximumPoolSize, null when the request takes no DB connection */
  dbPool: number | null;
  /** ms a request holds a DB connection */
  dbMs: number | null;
  /** ms a request holds one shared monitor, null when there is none */
  lockMs: number | null;
  cores: number;
  /** CPU ms per completed request over every process, in the window of the throughput it bounds (cellCpu), null when unknown */
  cpuMsPerRequest: number | null;
  /** CPU ms of one call by itself (cpu-fib calibration), null when not a CPU scenario */
  cpuMsPerCall: number | null;
}

/** A cell's bounds and the smallest one (null only if there is none). */
export interface CellBounds {
  bounds: Bound[];
  smallest: Bound | null;
}

/** K servers held `holdMs` each per request: K / (holdMs / 1000) req/s. */
export function serversBoundRps(servers: number, holdMs: number): number {
  return servers / (holdMs / 1000);
}

/**
 * Every bound the inputs allow, and the smallest (ties: the first in the order executor, dbPool,
 * lock, cpuPerCall, cpu).
 * e.g. virtual, c = 1000, L = 5, pool 10, DB 5 ms: executor 200,000, dbPool 2,000 → dbPool.
 */
export function cellBounds(i: BoundInputs): CellBounds {
  const b: Bound[] = [];
  const threads = executorInfo(i.executor).pool(i.executor)?.threads ?? null;
  if (i.aloneE2eMs !== undefined && i.aloneE2eMs !== null && i.aloneE2eMs > 0) {
    const population = serversBoundRps(i.concurrency, i.aloneE2eMs);
    const rps = threads !== null ? Math.min(population, serversBoundRps(threads, i.holdMs)) : population;
    b.push({ kind: 'executor', rps, inputs: { concurrency: i.concurrency, ...(threads !== null ? { threads } : {}), holdMs: i.holdMs, aloneE2eMs: i.aloneE2eMs } });
  } else {
    b.push({ kind: 'executor', rps: throughputBoundRps(i.executor, i.concurrency, i.holdMs), inputs: { concurrency: i.concurrency, ...(threads !== null ? { threads } : {}), holdMs: i.holdMs } });
  }
  if (i.dbPool !== null && i.dbMs !== null && i.dbMs > 0) b.push({ kind: 'dbPool', rps: serversBoundRps(i.dbPool, i.dbMs), inputs: { pool: i.dbPool, dbMs: i.dbMs } });
  if (i.lockMs !== null && i.lockMs > 0) b.push({ kind: 'lock', rps: serversBoundRps(1, i.lockMs), inputs: { lockMs: i.lockMs } });
  if (i.cpuMsPerCall !== null && i.cpuMsPerCall > 0) b.push({ kind: 'cpuPerCall', rps: serversBoundRps(i.cores, i.cpuMsPerCall), inputs: { cores: i.cores, cpuMsPerCall: i.cpuMsPerCall } });
  if (i.cpuMsPerRequest !== null && i.cpuMsPerRequest > 0) b.push({ kind: 'cpu', rps: serversBoundRps(i.cores, i.cpuMsPerRequest), inputs: { cores: i.cores, cpuMsPerRequest: i.cpuMsPerRequest } });
  let smallest: Bound | null = null;
  for (const x of b) if (smallest === null || x.rps < smallest.rps) smallest = x;
  return { bounds: b, smallest };
}

/** Fewest successes in a cell's all-workers window for it to be used (else the whole run is the window). */
export const MIN_WINDOW_COMPLETIONS = 100;

/**
 * The interval a cell's throughput and its CPU bound are both measured over, ms after the load's t0.
 * `all-workers`: [latest first answer, earliest last answer] (LoadSummary.steadyWindow), when it
 * holds at least MIN_WINDOW_COMPLETIONS successes (a cell too short for its ramp holds fewer);
 * `whole-run`: [first send, last answer], the first send taken at t0 (worker 0's slot is 0 ms in
 * every start mode, src/load/schedule.ts), its length the summary's whole-run span (ok / whole-run
 * throughput). `completions`: the successes ending in it.
 */
export interface CellWindow {
  kind: 'all-workers' | 'whole-run';
  startMs: number;
  endMs: number;
  completions: number;
}

/** A cell's window (see CellWindow); null when neither is known (no success). */
export function cellWindow(load: Pick<CellResult['load'], 'steadyWindow' | 'ok' | 'wholeRunThroughputRps'>): CellWindow | null {
  const w = load.steadyWindow;
  if (w && w.endMs > w.startMs && w.completions >= MIN_WINDOW_COMPLETIONS) return { kind: 'all-workers', startMs: w.startMs, endMs: w.endMs, completions: w.completions };
  const rps = load.wholeRunThroughputRps;
  if (rps === null || rps <= 0 || load.ok === 0) return null;
  return { kind: 'whole-run', startMs: 0, endMs: (load.ok / rps) * 1000, completions: load.ok };
}

/** The window's throughput, req/s: completions / its length. */
export function windowRps(w: CellWindow): number {
  return w.completions / ((w.endMs - w.startMs) / 1000);
}

/**
 * A cumulative series' value at `tEpochMs`, linearly interpolated between the two samples around it
 * (in the series' own unit); samples whose value is null are skipped. Null when no sample lies at or
 * before it or none at or after it (never extrapolated).
 */
export function cumulativeAt<S extends { tEpochMs: number }>(samples: readonly S[], value: (s: S) => number | null, tEpochMs: number): number | null {
  let before: { t: number; v: number } | null = null;
  let after: { t: number; v: number } | null = null;
  for (const s of samples) {
    const v = value(s);
    if (v === null) continue;
    if (s.tEpochMs <= tEpochMs && (before === null || s.tEpochMs >= before.t)) before = { t: s.tEpochMs, v };
    if (s.tEpochMs >= tEpochMs && (after === null || s.tEpochMs <= after.t)) after = { t: s.tEpochMs, v };
  }
  if (before === null || after === null) return null;
  const f = after.t === before.t ? 0 : (tEpochMs - before.t) / (after.t - before.t);
  return before.v + f * (after.v - before.v);
}

/**
 * The SUT's cumulative process CPU at `tEpochMs`, ms, linearly interpolated between the two samples
 * around it (`processCpuTimeNs`, every 250 ms by default); null when no sample lies at or before it
 * or none at or after it (never extrapolated).
 */
export function sutCpuMsAt(samples: readonly Pick<CellResult['samples'][number], 'tEpochMs' | 'processCpuTimeNs'>[], tEpochMs: number): number | null {
  const ns = cumulativeAt(samples, (s) => s.processCpuTimeNs, tEpochMs);
  return ns === null ? null : ns / 1e6;
}

/** The CPU a cumulative series grew by between two instants (cumulativeAt at both); null when either end is unknown or it shrank (a restarted process). */
function grewBy<S extends { tEpochMs: number }>(samples: readonly S[], value: (s: S) => number | null, fromEpochMs: number, toEpochMs: number): number | null {
  const a = cumulativeAt(samples, value, fromEpochMs);
  const b = cumulativeAt(samples, value, toEpochMs);
  return a === null || b === null || b < a ? null : b - a;
}

/**
 * How one process's part of D was measured: `window`, its CPU between the window's ends (from the
 * cell's `componentCpuSamples`) over the successes in the window; `cell`, its per-cell total over all
 * the cell's successes; null, not recorded (counted as 0, or D unknown for the generator).
 */
export type CpuPartBasis = 'window' | 'cell' | null;

/** CPU of one cell per successful request, split by process, with the window it was measured in. */
export interface CellCpu {
  /** the window the SUT's CPU and the throughput it bounds are both measured over */
  window: CellWindow | null;
  /** the SUT's process CPU in the window, ms */
  sutMs: number | null;
  /**
   * the load generator's CPU, ms: in the window when `parts.loadgen` is `window`, else over the
   * measured phase (`loadgen.cpuPct` of one core × the whole-run span)
   */
  loadgenMs: number | null;
  /** the mock's and the database's CPU, ms: in the window, or over the cell's load (`componentCpuMs`), per `parts` */
  mockMs: number | null;
  dbMs: number | null;
  /** how each of the generator's, the mock's and the database's parts was measured */
  parts: { loadgen: CpuPartBasis; mock: CpuPartBasis; db: CpuPartBasis };
  /**
   * `windowed`: every recorded part in the window (the cell has `componentCpuSamples`);
   * `per-cell-totals`: the SUT in the window, the others per-cell totals (every run before the
   * samples); `partly-windowed`: some of each (e.g. `--shards K` > 1: the generator's is a total)
   */
  basis: 'windowed' | 'partly-windowed' | 'per-cell-totals';
  /** the load's whole span (first send → last answer), ms */
  spanMs: number | null;
  /**
   * D_cpu = (SUT + windowed parts, ms in the window) / successes in the window + (per-cell parts,
   * ms) / the cell's successes; null when the SUT's or the generator's part is unknown or nothing
   * succeeded
   */
  perRequestMs: number | null;
}

/**
 * The CPU all processes spent per successful request of one cell (service demand D_cpu of the
 * service-demand law X ≤ cores / D_cpu; Denning & Buzen 1978), measured over the same interval as
 * the throughput it bounds (cellWindow): the SUT's process CPU between the window's ends
 * (interpolated from its samples) over the successes ending in the window.
 *
 * The generator, the mock and the database: when the cell has `componentCpuSamples` (sampled about
 * every 250 ms, bracketing the load), each one's CPU between the same window ends, interpolated the
 * same way (never extrapolated), joins the SUT's over the window's successes. Otherwise (runs before
 * the samples; a series that is null, e.g. the generator with `--shards K` > 1, or does not cover the
 * window) that part falls back to its per-cell total over all the cell's successes: `loadgen.cpuPct`
 * × the whole-run span, `componentCpuMs` (absent: 0). That total includes the ramp and the drain,
 * when these processes work at a lower rate than in the window, so it can misstate D for the window.
 */
export function cellCpu(c: Pick<CellResult, 'samples' | 'load' | 'loadgen' | 'componentCpuMs' | 't0EpochMs' | 'componentCpuSamples'>): CellCpu {
  const window = cellWindow(c.load);
  const a = window ? sutCpuMsAt(c.samples, c.t0EpochMs + window.startMs) : null;
  const b = window ? sutCpuMsAt(c.samples, c.t0EpochMs + window.endMs) : null;
  const sutMs = a === null || b === null ? null : b - a;
  const rps = c.load.wholeRunThroughputRps;
  const spanMs = rps !== null && rps > 0 && c.load.ok > 0 ? (c.load.ok / rps) * 1000 : null;
  const cs = c.componentCpuSamples ?? [];
  const windowed = (key: 'loadgenMs' | 'mockMs' | 'dbMs'): number | null =>
    window === null || cs.length === 0 ? null : grewBy(cs, (s) => s[key], c.t0EpochMs + window.startMs, c.t0EpochMs + window.endMs);
  const part = (w: number | null, total: number | null): { ms: number | null; basis: CpuPartBasis } =>
    w !== null ? { ms: w, basis: 'window' } : total !== null ? { ms: total, basis: 'cell' } : { ms: null, basis: null };
  const gen = part(windowed('loadgenMs'), c.loadgen.cpuPct === null || spanMs === null ? null : (c.loadgen.cpuPct / 100) * spanMs);
  const mock = part(windowed('mockMs'), c.componentCpuMs?.mock ?? null);
  const db = part(windowed('dbMs'), c.componentCpuMs?.db ?? null);
  const all = [gen, mock, db];
  const inWindow = all.filter((x) => x.basis === 'window');
  const perCell = all.filter((x) => x.basis === 'cell');
  const basis = inWindow.length === 0 ? 'per-cell-totals' : perCell.length === 0 ? 'windowed' : 'partly-windowed';
  const sum = (xs: typeof all) => xs.reduce((t, x) => t + (x.ms ?? 0), 0);
  let perRequestMs: number | null = null;
  if (window !== null && sutMs !== null && gen.ms !== null && c.load.ok > 0) {
    perRequestMs = inWindow.length === 0
      ? sutMs / window.completions + (gen.ms + (mock.ms ?? 0) + (db.ms ?? 0)) / c.load.ok // the formula of every run before the samples, kept exactly
      : (sutMs + sum(inWindow)) / window.completions + (perCell.length === 0 ? 0 : sum(perCell) / c.load.ok);
  }
  return { window, sutMs, loadgenMs: gen.ms, mockMs: mock.ms, dbMs: db.ms, parts: { loadgen: gen.basis, mock: mock.basis, db: db.basis }, basis, spanMs, perRequestMs };
}

/** Measured ÷ bound, the acceptance: ≤ 1.02 always, ≥ 0.95 where no host flag is raised. */
export const BOUND_UPPER_TOL = 1.02;
export const BOUND_LOWER_SHARE = 0.95;

/** The acceptance verdict of one cell against its smallest bound. */
export type BoundVerdict = 'within' | 'above-bound' | 'below-95' | 'below-95-host-flag' | 'unknown';

/**
 * `above-bound`: throughput > smallest × 1.02 (the theory or the harness is wrong); `below-95`:
 * < 95 % of it with no host flag raised (something unnamed limited the cell); `below-95-host-flag`:
 * the same with a host flag (the host, not the code, may have set the limit); `within` otherwise.
 */
export function boundVerdict(measuredRps: number | null, smallestRps: number | null, hostFlagged: boolean): BoundVerdict {
  if (measuredRps === null || smallestRps === null || smallestRps <= 0) return 'unknown';
  const r = measuredRps / smallestRps;
  if (r > BOUND_UPPER_TOL) return 'above-bound';
  if (r < BOUND_LOWER_SHARE) return hostFlagged ? 'below-95-host-flag' : 'below-95';
  return 'within';
}

/**
 * The SUT's own CPUs when the run isolated it (`--isolate-cpus`, ResolvedOptions.cpuIsolation): the
 * count of its CPU list; null without isolation (the bounds then use the host's cores).
 */
export function isolatedSutCores(o: { cpuIsolation?: { sutCpus: string } }): number | null {
  return o.cpuIsolation ? parseCpuList(o.cpuIsolation.sutCpus).length : null;
}

/**
 * The CPUs and the CPU per request of the service-demand bound X ≤ cores / D_cpu for one cell.
 * Without isolation (`sutCores` null) every process shares the host's cores, so D counts them all
 * (SUT + generator + mock + database: `allMsPerRequest`). With isolation the harness runs on CPUs of
 * its own, so the SUT's ceiling is its own CPUs over its own CPU per request (`sutMsPerRequest`);
 * null when that is unknown (no bound is then drawn rather than a wrong one). Pure.
 */
export function cpuBoundInputs(i: { hostCores: number; sutCores: number | null; allMsPerRequest: number | null; sutMsPerRequest: number | null }): { cores: number; cpuMsPerRequest: number | null } {
  return i.sutCores === null ? { cores: i.hostCores, cpuMsPerRequest: i.allMsPerRequest } : { cores: i.sutCores, cpuMsPerRequest: i.sutMsPerRequest };
}
