/**
 * Throughput bounds of one closed-loop cell from every resource a request holds, and the smallest
 * of them (pure). Sources: the operational laws (Denning & Buzen, "The Operational Analysis of
 * Queueing Network Models", 1978): a resource of K servers each held D seconds per request bounds
 * throughput at X ≤ K / D (the utilisation law U = X·D ≤ K); for CPU, the service-demand law
 * X ≤ cores / D_cpu with D_cpu the CPU-seconds all processes spend per completed request.
 *
 * - `executor`: min(c, N) / L on a pool of N threads, c / L with one virtual thread per task
 *   (src/theory/bounds.ts throughputBoundRps), L = the time a request holds its thread.
 * - `dbPool`: Hikari pool / DB time per request (10 / 0.005 s = 2,000 req/s; 10 / 0.05 s = 200 req/s).
 * - `lock`: one shared monitor held H ms per request: 1 / H (a `synchronized` method of a singleton).
 * - `cpu`: cores / measured CPU-seconds per completed request (SUT + mock + load generator + DB).
 * - `cpuPerCall`: cores / the CPU time one call costs by itself (cpu-fib: the SUT's calibration).
 */
import type { ExecutorSpec } from '../study/types.ts';
import type { CellResult } from '../store/types.ts';
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
  /** Hikari maximumPoolSize, null when the request takes no DB connection */
  dbPool: number | null;
  /** ms a request holds a DB connection */
  dbMs: number | null;
  /** ms a request holds one shared monitor, null when there is none */
  lockMs: number | null;
  cores: number;
  /** CPU ms per completed request over every process (cellCpuMsPerRequest), null when unknown */
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
  const threads = i.executor.kind === 'platform-pool' ? i.executor.threads : null;
  b.push({ kind: 'executor', rps: throughputBoundRps(i.executor, i.concurrency, i.holdMs), inputs: { concurrency: i.concurrency, ...(threads !== null ? { threads } : {}), holdMs: i.holdMs } });
  if (i.dbPool !== null && i.dbMs !== null && i.dbMs > 0) b.push({ kind: 'dbPool', rps: serversBoundRps(i.dbPool, i.dbMs), inputs: { pool: i.dbPool, dbMs: i.dbMs } });
  if (i.lockMs !== null && i.lockMs > 0) b.push({ kind: 'lock', rps: serversBoundRps(1, i.lockMs), inputs: { lockMs: i.lockMs } });
  if (i.cpuMsPerCall !== null && i.cpuMsPerCall > 0) b.push({ kind: 'cpuPerCall', rps: serversBoundRps(i.cores, i.cpuMsPerCall), inputs: { cores: i.cores, cpuMsPerCall: i.cpuMsPerCall } });
  if (i.cpuMsPerRequest !== null && i.cpuMsPerRequest > 0) b.push({ kind: 'cpu', rps: serversBoundRps(i.cores, i.cpuMsPerRequest), inputs: { cores: i.cores, cpuMsPerRequest: i.cpuMsPerRequest } });
  let smallest: Bound | null = null;
  for (const x of b) if (smallest === null || x.rps < smallest.rps) smallest = x;
  return { bounds: b, smallest };
}

/** CPU ms per completed request of one cell, split by process; `totalMs` null when a part is unknown. */
export interface CellCpu {
  sutMs: number | null;
  loadgenMs: number | null;
  mockMs: number | null;
  dbMs: number | null;
  /** the load's whole span (first send → last answer), ms */
  spanMs: number | null;
  /** Σ of the known parts / successful requests; null when the SUT's or the generator's is unknown or nothing succeeded */
  perRequestMs: number | null;
}

/**
 * The CPU all processes spent on one cell, per successful request (service demand D_cpu): the SUT's
 * process CPU between its first and last sample of the cell (`processCpuTimeNs`), the load
 * generator's (`loadgen.cpuPct` of one core over the load's whole span), the mock's and the
 * database's (`componentCpuMs`, from /proc; 0 when the cell did not record them: the scenario used
 * neither). Null when the SUT's or the generator's part is unknown or no request succeeded.
 */
export function cellCpu(c: Pick<CellResult, 'samples' | 'load' | 'loadgen' | 'componentCpuMs'>): CellCpu {
  const s = c.samples.filter((x) => x.processCpuTimeNs !== null);
  const first = s[0]?.processCpuTimeNs;
  const last = s[s.length - 1]?.processCpuTimeNs;
  const sutMs = first == null || last == null ? null : (last - first) / 1e6;
  const rps = c.load.wholeRunThroughputRps;
  const spanMs = rps !== null && rps > 0 && c.load.ok > 0 ? (c.load.ok / rps) * 1000 : null;
  const loadgenMs = c.loadgen.cpuPct === null || spanMs === null ? null : (c.loadgen.cpuPct / 100) * spanMs;
  const mockMs = c.componentCpuMs?.mock ?? null;
  const dbMs = c.componentCpuMs?.db ?? null;
  const perRequestMs = sutMs === null || loadgenMs === null || c.load.ok === 0 ? null : (sutMs + loadgenMs + (mockMs ?? 0) + (dbMs ?? 0)) / c.load.ok;
  return { sutMs, loadgenMs, mockMs, dbMs, spanMs, perRequestMs };
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
