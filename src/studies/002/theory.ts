/**
 * Study 002's theory (pure): which resources each variant's request holds, for how long, and the
 * bounds they set (src/compute/theory/cell-bounds.ts); and the bounds the study's own description implies
 * for its published figures, so a figure above them is "inconsistent as published" with the
 * arithmetic.
 *
 * Holding times by construction (the Java ↔ harness contract of issue 12):
 * - io-100ms: the executor thread 100 ms; no DB.
 * - cpu-fib: the thread for one call's CPU time (≈ 100 ms calibrated); bound cores / CPU per call.
 * - mixed: the thread 50 + 100 + 80 = 230 ms; one DB connection 50 ms (the order query).
 * - mixed-structured: the request's thread for the critical path max(50 + 100, 80) = 150 ms (the
 *   user call needs the order's user_id, so it cannot start before the query ends; the study says
 *   100 ms, the longest single call); one DB connection 50 ms.
 * - db-small: the thread 5 ms; one DB connection 5 ms.
 * - db-small-synchronized: as db-small, and one monitor shared by every request for the 5 ms query
 *   (the study's `public synchronized Order getOrder` on a singleton service): 1 / 5 ms = 200 req/s
 *   whatever the executor. (If the SUT's monitor were per request there would be no lock bound; the
 *   report prints which monitor the SUT declares.)
 * Little's law (closed loop, no think time, JMeter's threads): mean E2E = N / X, and a P99 well below
 * the mean is impossible when every request waits in the same FIFO queue (LITTLE_P99_SLACK).
 */
import type { ExecutorSpec, Variant } from '../../types/study.ts';
import type { PublishedRow } from '../../types/study.ts';
import { cellBounds, serversBoundRps, type BoundInputs, type BoundKind, type CellBounds } from '../../compute/theory/cell-bounds.ts';
import { throughputBoundRps } from '../../compute/theory/bounds.ts';
import { availableParallelism } from 'node:os';
import type { AloneProbe } from '../../types/run.ts';
import { aggregate } from '../../compute/stats/aggregate.ts';
import { FIB_TARGET_CPU_MS, HIKARI_DEFAULT, IO_MS, MIXED_DB_MS, MIXED_LOGISTICS_MS, MIXED_USER_MS, SMALL_DB_MS } from './constants.ts';
import { cellMinDurationS } from '../../compute/theory/bounds.ts';
import { STUDY_CORES, STUDY_LEVEL, STUDY_MIXED_CPU_BOUND_RPS, STUDY_MIXED_CPU_MS } from './published.ts';

/** The resources one request of a scenario holds, ms (null: not held). */
export interface Holding {
  /** the executor thread (L) */
  threadMs: number;
  /** one DB connection */
  dbMs: number | null;
  /** one monitor shared by all requests */
  lockMs: number | null;
  /** CPU by itself (cpu-fib), nominal; the SUT's calibration replaces it */
  cpuMs: number | null;
}

/** Serial sum and fan-out critical path of the mixed scenario, ms. */
export const MIXED_SERIAL_MS = MIXED_DB_MS + MIXED_USER_MS + MIXED_LOGISTICS_MS;
export const MIXED_CRITICAL_PATH_MS = Math.max(MIXED_DB_MS + MIXED_USER_MS, MIXED_LOGISTICS_MS);
/** What the study states for the fan-out ("总耗时从 230ms 降到 100ms（最长查询时间）"). */
export const MIXED_STUDY_CLAIM_MS = 100;

/**
 * The study's request scenarios, which `holding` describes and the per-cell bounds cover; scenario 5
 * (`ws-push`, held WebSocket connections) has its own rule and bounds (src/studies/002/ws-push.ts).
 */
export const REQUEST_SCENARIOS: ReadonlySet<string> = new Set(['io-100ms', 'cpu-fib', 'mixed', 'mixed-structured', 'db-small', 'db-small-synchronized']);

/**
 * What one request of `scenario` holds (see the module comment).
 * @throws Error for a scenario that is not the study's
 */
export function holding(scenario: string): Holding {
  switch (scenario) {
    case 'io-100ms': return { threadMs: IO_MS, dbMs: null, lockMs: null, cpuMs: null };
    case 'cpu-fib': return { threadMs: FIB_TARGET_CPU_MS, dbMs: null, lockMs: null, cpuMs: FIB_TARGET_CPU_MS };
    case 'mixed': return { threadMs: MIXED_SERIAL_MS, dbMs: MIXED_DB_MS, lockMs: null, cpuMs: null };
    case 'mixed-structured': return { threadMs: MIXED_CRITICAL_PATH_MS, dbMs: MIXED_DB_MS, lockMs: null, cpuMs: null };
    case 'db-small': return { threadMs: SMALL_DB_MS, dbMs: SMALL_DB_MS, lockMs: null, cpuMs: null };
    case 'db-small-synchronized': return { threadMs: SMALL_DB_MS, dbMs: SMALL_DB_MS, lockMs: SMALL_DB_MS, cpuMs: null };
    default: throw new Error(`study 002 has no scenario '${scenario}'`);
  }
}

/** A variant's Hikari pool: its `bench.db.pool-size`, else Hikari's default 10. */
export function dbPoolOf(v: Pick<Variant, 'sutProperties'>): number {
  const p = v.sutProperties?.['bench.db.pool-size'];
  return p === undefined ? HIKARI_DEFAULT : Number(p);
}

/** What one request held with no other in the system (the alone probe, aloneHolding), ms; null: not measured. */
export interface AloneHolding {
  /** R(1): end to end */
  e2eMs: number | null;
  /** the executor thread: the SUT's execution */
  threadMs: number | null;
  /** one DB connection: `db` − `conn` (the SUT's `db` step runs from asking for a connection to returning it, Orders.read) */
  dbMs: number | null;
  /** the shared monitor: the whole `db` step, inside `synchronized` (DbSmallSynchronizedScenario) */
  lockMs: number | null;
}

/** The holds measured in a cell (Server-Timing means over its successes, median over repeats), ms; null: not sent. */
export interface CellHolding {
  /** one connection: `db` − `conn` (the SUT's `db` step runs from asking for a connection to returning it, `conn` is the wait for one: Orders.read) */
  dbMs: number | null;
  /** the shared monitor: the whole `db` step, which db-small-synchronized runs inside `synchronized` */
  lockMs: number | null;
}

/** Holds from Server-Timing step means (`timingMs` of a cell, or a probe's steps), null each when `db` is absent. Pure. */
export function cellHolding(timingMs: Readonly<Record<string, { mean: number }>> | undefined): CellHolding {
  const db = timingMs?.['db']?.mean;
  if (db === undefined || !Number.isFinite(db)) return { dbMs: null, lockMs: null };
  return { dbMs: db - (timingMs?.['conn']?.mean ?? 0), lockMs: db };
}

/** The alone probes of a variant's blocks (keys `${variant}-r${repeat}`), in key order. Pure. */
export function probesOf(probes: Readonly<Record<string, AloneProbe>> | undefined, variant: string): AloneProbe[] {
  return Object.entries(probes ?? {}).filter(([b]) => /^(.*)-r\d+$/.exec(b)?.[1] === variant).map(([, p]) => p);
}

/**
 * A variant's alone holding times: the medians over its blocks' alone probes (RunManifest.aloneProbes,
 * keyed `${variant}-r${repeat}`); null when no block of the variant has a probe with successes. Pure.
 */
export function aloneHolding(probes: Readonly<Record<string, AloneProbe>> | undefined, variant: string): AloneHolding | null {
  const ps = probesOf(probes, variant).filter((p) => p.ok > 0);
  if (ps.length === 0) return null;
  const med = (xs: readonly (number | null)[]) => aggregate(xs).median;
  const holds = ps.map((p) => cellHolding(Object.fromEntries(Object.entries(p.stepMeanMs).map(([k, mean]) => [k, { mean }]))));
  return {
    e2eMs: med(ps.map((p) => p.e2eMeanMs)),
    threadMs: med(ps.map((p) => p.execMeanMs)),
    dbMs: med(holds.map((h) => h.dbMs)),
    lockMs: med(holds.map((h) => h.lockMs)),
  };
}

/**
 * The bounds of one cell of study 002: the scenario's holding times, the variant's executor and
 * pool, the host's cores, the cell's measured CPU per request, and (cpu-fib) the SUT's calibrated
 * CPU per call (null: the nominal target). With `alone` (not for cpu-fib, whose hold is its CPU per
 * call): the executor bound becomes min(c / R(1), N / the execution alone). With `inCell`: the DB-pool
 * and lock bounds use the holds measured in the cell itself (the utilisation law U = X·S ≤ K with S
 * measured over the same cell, Denning & Buzen 1978), else those measured alone; each missing figure
 * keeps its nominal value. (A connection or the lock is held for less time under load than alone —
 * run 20261201-205110, db10-virtual-sync: 6.38 ms alone, 5.93 ms at c = 1,000 — so a bound from
 * the alone hold is no bound for a busy cell. The executor's N / S keeps the hold alone: a thread's
 * execution in a cell includes its waits for the DB pool, the lock and the CPU, which have their own
 * bounds.)
 */
export function boundsFor(o: { variant: Pick<Variant, 'sutProperties' | 'executor'>; scenario: string; concurrency: number; cores: number; cpuMsPerRequest: number | null; fibCpuMsPerCall: number | null; alone?: AloneHolding | null; inCell?: CellHolding | null }): CellBounds {
  const h = holding(o.scenario);
  const a = h.cpuMs === null ? (o.alone ?? null) : null;
  const inputs: BoundInputs = {
    executor: o.variant.executor,
    concurrency: o.concurrency,
    holdMs: h.cpuMs !== null ? (o.fibCpuMsPerCall ?? h.threadMs) : (a?.threadMs ?? h.threadMs),
    aloneE2eMs: a?.e2eMs ?? null,
    dbPool: h.dbMs !== null ? dbPoolOf(o.variant) : null,
    dbMs: h.dbMs !== null ? (o.inCell?.dbMs ?? a?.dbMs ?? h.dbMs) : null,
    lockMs: h.lockMs !== null ? (o.inCell?.lockMs ?? a?.lockMs ?? h.lockMs) : null,
    cores: o.cores,
    cpuMsPerRequest: o.cpuMsPerRequest,
    cpuMsPerCall: h.cpuMs !== null ? (o.fibCpuMsPerCall ?? h.cpuMs) : null,
  };
  return cellBounds(inputs);
}

/** The executor of a published variant id of the study (`io-pool-200` → pool of 200…). */
function executorOfStudyVariant(v: Variant): ExecutorSpec {
  return v.executor;
}

/** A bound of the study's own statements: a cell bound's kind, or `studyCpu`, the CPU bound the study states for its mixed scenario (§4.3). */
export type StudyBoundKind = BoundKind | 'studyCpu';

/** One published figure against what the study's own setup allows. */
export interface PublishedCheck {
  rowId: string;
  /** `consistent`: within every bound of the study's setup; `inconsistent`: above one (see `bound`) */
  verdict: 'consistent' | 'inconsistent';
  /** the bound the figure breaks or the smallest one it keeps, req/s, with its kind and inputs */
  bound: { kind: StudyBoundKind; rps: number; inputs: Record<string, number> } | null;
  /** P99 rows: Little's law mean E2E = N / X at the study's published X, ms */
  littleMeanMs?: number;
}

/**
 * How far below Little's law's mean N / X a published P99 may lie and still be consistent (0..1).
 * N / X assumes every one of JMeter's 10,000 threads is always inside a request; each thread also
 * spends part of its loop outside one (reading the response, its listeners, a new connection), so
 * fewer requests are in flight and the mean is lower. A client that keeps 90 % or more of its threads
 * in a request explains a P99 up to 10 % below N / X (the I/O pool-200 P99 5,200 ms is 5.4 % below
 * 5,494.5 ms); a larger gap needs the client to idle for a tenth of every loop or more, which the
 * study's plan (no timer) does not have.
 */
export const LITTLE_P99_SLACK = 0.1;

/**
 * The study prints its figures to two or three significant digits (870, 1,950, 4,120 QPS): a figure
 * is above a bound only when it exceeds it by more than this share, so 870 QPS keeps the pool-200
 * bound 200 / 0.23 s = 869.6 QPS it equals.
 */
export const PUBLISHED_ROUNDING = 0.005;

/** The study's throughput bounds of one published variant (see checkPublished). */
function studyBounds(v: Variant, scenario: string): { kind: StudyBoundKind; rps: number; inputs: Record<string, number> }[] {
  const h = holding(scenario);
  const exec = executorOfStudyVariant(v);
  const bounds: { kind: StudyBoundKind; rps: number; inputs: Record<string, number> }[] = [{ kind: 'executor', rps: throughputBoundRps(exec, STUDY_LEVEL, h.threadMs), inputs: { concurrency: STUDY_LEVEL, ...(exec.kind === 'platform-pool' ? { threads: exec.threads } : {}), holdMs: h.threadMs } }];
  // the study's fib(40) costs ≈ 1 s of CPU on its 8 cores
  if (h.cpuMs !== null) bounds.push({ kind: 'cpuPerCall', rps: serversBoundRps(STUDY_CORES, 1000), inputs: { cores: STUDY_CORES, cpuMsPerCall: 1000 } });
  // the mixed scenarios: the CPU bound the study states (§4.3); it names no pool size for them
  if (scenario === 'mixed' || scenario === 'mixed-structured') bounds.push({ kind: 'studyCpu', rps: STUDY_MIXED_CPU_BOUND_RPS, inputs: { cores: STUDY_CORES, cpuMs: STUDY_MIXED_CPU_MS } });
  // scenario 4 only: the study states Hikari's default 10 there (§5.3, §10.3) and 200 after tuning (§5.4)
  else if (h.dbMs !== null) bounds.push({ kind: 'dbPool', rps: serversBoundRps(dbPoolOf(v), h.dbMs), inputs: { pool: dbPoolOf(v), dbMs: h.dbMs } });
  if (h.lockMs !== null) bounds.push({ kind: 'lock', rps: serversBoundRps(1, h.lockMs), inputs: { lockMs: h.lockMs } });
  return bounds;
}

/**
 * Each published throughput figure against the bounds of the study's own statements: 10,000
 * closed-loop threads, 8 cores, the executor with the holding times above; for the mixed scenarios the
 * CPU bound the study states (§4.3, 1,280 QPS) and no DB pool (the study gives a pool size only for
 * scenario 4); for scenario 4 the Hikari pool it states (10, or 200 after §5.4). Each P99 figure
 * against Little's law: with N threads, throughput X and think time Z, the mean E2E is N / X − Z;
 * JMeter's plan has no timer (Z = 0), so a P99 more than LITTLE_P99_SLACK below N / X is inconsistent
 * unless each thread idled that long between requests (the load generator, not the server, then set
 * the pace).
 */
export function checkPublished(rows: readonly PublishedRow[], variants: readonly Variant[]): PublishedCheck[] {
  const out: PublishedCheck[] = [];
  const qps = new Map<string, number>();
  for (const r of rows) if (r.metric === 'throughputRps' && typeof r.value === 'number' && r.variant) qps.set(r.variant, r.value);
  for (const r of rows) {
    const v = variants.find((x) => x.id === r.variant);
    if (!v || r.scenario === null || !REQUEST_SCENARIOS.has(r.scenario) || typeof r.value !== 'number') continue;
    if (r.metric === 'throughputRps') {
      const bounds = studyBounds(v, r.scenario);
      const broken = bounds.filter((b) => r.value as number > b.rps * (1 + PUBLISHED_ROUNDING)).sort((a, b) => a.rps - b.rps);
      const smallest = bounds.reduce((a, b) => (b.rps < a.rps ? b : a));
      out.push(broken.length ? { rowId: r.id, verdict: 'inconsistent', bound: broken[0]! } : { rowId: r.id, verdict: 'consistent', bound: smallest });
    } else if (r.metric === 'e2eP99Ms') {
      const x = qps.get(r.variant!);
      if (x === undefined) continue;
      const littleMeanMs = (STUDY_LEVEL / x) * 1000;
      out.push({ rowId: r.id, verdict: r.value < (1 - LITTLE_P99_SLACK) * littleMeanMs ? 'inconsistent' : 'consistent', bound: null, littleMeanMs });
    }
  }
  return out;
}

/**
 * The rate a cell is planned at, req/s: the smallest bound known before the run — the executor, the
 * DB pool at Hikari's default 10 (a larger pool only raises it), the shared lock, and for cpu-fib
 * this host's cores / the nominal CPU per call. The measured CPU bound is not known before the run,
 * so an I/O cell on a small host runs slower than this.
 */
export function plannedRps(scenario: string, exec: ExecutorSpec, c: number, cores: number = availableParallelism()): number {
  const h = holding(scenario);
  const b = cellBounds({ executor: exec, concurrency: c, holdMs: h.threadMs, dbPool: h.dbMs !== null ? HIKARI_DEFAULT : null, dbMs: h.dbMs, lockMs: h.lockMs, cores, cpuMsPerRequest: null, cpuMsPerCall: h.cpuMs });
  return b.smallest?.rps ?? throughputBoundRps(exec, c, h.threadMs);
}

/**
 * The planned duration of one cell, s: the closed loop's minimum (src/compute/theory/bounds.ts
 * cellMinDurationS) at plannedRps (the plan adds the ramp).
 */
export function plannedCellS(scenario: string, exec: ExecutorSpec, c: number, requestsPerWorker: number, cores: number = availableParallelism()): number {
  const h = holding(scenario);
  return Math.max(cellMinDurationS(exec, c, h.threadMs, requestsPerWorker), (c * requestsPerWorker) / plannedRps(scenario, exec, c, cores));
}

/**
 * Requests per worker a closed-loop cell needs for its all-workers window (cellWindow) to hold
 * `completions` successes: ⌈1 + a + completions / c⌉, where a is what worker 0 answers during the ramp.
 * Derivation: worker i starts at i·R/c, so the latest first answer comes at ≈ R + E2E and the earliest
 * last answer is worker 0's; after the ramp the window holds X·E2E = c successes per request each
 * worker makes (Little's law, no think time, X = c / E2E). During the ramp only k(t) = c·t/R workers
 * share the rate X, so worker 0's E2E is max(L, k(t) / X), L being a request's time alone (the
 * scenario's holding time): a = ∫₀ᴿ dt / max(L, c·t / (R·X)) = (R / E2E)·(1 + ln(E2E / L)) when
 * L < E2E, else R / E2E. (Before, a was R / E2E alone: a db-small cell at c = 100, 40 requests per
 * worker, ended worker 0 before the ramp did — its window held no 100 successes and the rate fell
 * back to the whole run, seed-002 run 20261201-152237, db10-pool-500.) E2E here is c / plannedRps:
 * an upper estimate of the rate, so a lower one of E2E and of the window. Workers whose E2E spread
 * widely (an unfair scheduler: virtual threads running fib on 2 carriers) end the window earlier
 * than this; such a cell falls back to the whole run.
 * e.g. db-small, c = 100, R = 1,000 ms, E2E = 50 ms, L = 5 ms, 200 successes:
 * ⌈1 + 20 · (1 + ln 10) + 2⌉ = 70; mixed, c = 20, R = 500 ms, E2E = L = 230 ms: ⌈1 + 2.17 + 10⌉ = 14.
 * @param minE2eMs L, ms (omitted: E2E, the old model)
 */
export function requestsPerWorkerForWindow(c: number, rampMs: number, e2eMs: number, completions: number, minE2eMs: number = e2eMs): number {
  const duringRamp = (rampMs / e2eMs) * (minE2eMs < e2eMs ? 1 + Math.log(e2eMs / minE2eMs) : 1);
  return Math.ceil(1 + duringRamp + completions / c - 1e-9);
}
