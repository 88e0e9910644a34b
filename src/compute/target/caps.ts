/**
 * The caps inventory of a target arm (issue 32): every limit of the service that can cap its
 * throughput, read from the JMX (or actuator) samples and the JVM info, each with the throughput it
 * allows at the measured R(1); and how each cap was used in a cell. Pure. Missing data gives nulls
 * and `saturated: false`, never a guess.
 *
 * Bound of a cap of `limit` units (threads, connections, carriers): limit / R(1) req/s — the rate at
 * which requests could pass if each held one unit for its whole R(1) (Little's law, L = λW, with
 * L ≤ limit and W = R(1)). The CPU's: cores / (CPU-seconds per completed request), the bound of
 * study 002 (src/compute/theory/cell-bounds.ts): a request cannot complete faster than its CPU time
 * spread over every core.
 */
import type { Cap, CapKind, CapUse, JmxSample, TargetArm, TargetCell, TargetJvmInfo } from '../../types/target.ts';

/** share of a cell's samples at the limit (or with waiters) from which a cap is called saturated */
export const SATURATED_SHARE = 0.5;
/** share of the cores in use from which the CPU counts as at its limit in a sample */
export const CPU_FULL_SHARE = 0.95;
/** the source of the caps no MBean exposes */
export const NOT_EXPOSED = 'not exposed over JMX';
/** the source of Tomcat's thread cap on virtual threads */
export const NO_THREAD_LIMIT = 'virtual threads: no thread limit';

/** The samples of one cell's measured phase: t in [t0EpochMs, endEpochMs]. */
export function samplesInCell(cell: Pick<TargetCell, 't0EpochMs' | 'endEpochMs'>, samples: readonly JmxSample[]): JmxSample[] {
  return samples.filter((s) => s.tEpochMs >= cell.t0EpochMs && s.tEpochMs <= cell.endEpochMs);
}

const pos = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;
const maxOf = (xs: readonly (number | null | undefined)[]): number | null => {
  const v = xs.filter(pos);
  return v.length === 0 ? null : Math.max(...v);
};
const boundOf = (limit: number | null, r1: number | null): number | null => (limit !== null && r1 !== null && r1 > 0 ? limit / (r1 / 1000) : null);

/** What the inventory is built from, for one arm. */
export interface CapsInput {
  arm: Pick<TargetArm, 'virtualThreads'>;
  /** every sample of the arm (all its cells) */
  samples: readonly JmxSample[];
  /** the JVM the sampler saw; null in a black-box run */
  jvm: Pick<TargetJvmInfo, 'availableProcessors'> | null;
  /** R(1) of the arm, ms */
  r1Ms: number | null;
  /** the arm's cells at its highest level (the CPU bound's CPU-seconds per request) */
  topCells: readonly Pick<TargetCell, 'targetCpuS' | 'summary'>[];
}

/**
 * The caps inventory of one arm, in this order: Tomcat threads and connections (one of each per
 * connector seen), the Hikari pools seen, the carriers (virtual-thread arms only), the CPU, then the
 * two caps no MBean exposes (async concurrency limit, HTTP client dispatcher) as 'unavailable'.
 * A limit read from the samples is 'measured' with the samples' source (`jmx`/`actuator`); the
 * cores come from the JVM (`jvm`), the CPU bound from the cells' CPU time (`cpu-time`).
 * - Tomcat threads: `max` (maxThreads; the largest read). On virtual threads `max` is −1/null: the
 *   cap is absent (NO_THREAD_LIMIT, said only of an arm known to run on virtual threads; any other
 *   arm: 'maxThreads not read'). No Tomcat MBean: 'unavailable'.
 * - Tomcat connections: `maxConns`. Hikari: `max` (PoolConfig MaximumPoolSize), else `total`.
 * - Carriers: the VirtualThreadScheduler's `parallelism`.
 * - CPU: availableProcessors; bound = cores / (Σ targetCpuS / Σ ok) over `topCells`.
 */
export function capsInventory(input: CapsInput): Cap[] {
  const { samples, r1Ms: r1 } = input;
  const src = samples[0]?.source ?? 'jmx';
  const caps: Cap[] = [];
  const tomcatNames = [...new Set(samples.flatMap((s) => s.tomcat.map((t) => t.name)))];
  if (tomcatNames.length === 0) {
    const why = samples.length === 0 ? 'no samples' : 'no Tomcat MBean (server.tomcat.mbeanregistry.enabled=true)';
    caps.push({ kind: 'tomcat-threads', name: null, limit: null, provenance: 'unavailable', source: input.arm.virtualThreads === true ? NO_THREAD_LIMIT : why, boundRps: null });
    caps.push({ kind: 'tomcat-connections', name: null, limit: null, provenance: 'unavailable', source: why, boundRps: null });
  }
  for (const name of tomcatNames) {
    const rows = samples.flatMap((s) => s.tomcat.filter((t) => t.name === name));
    const max = maxOf(rows.map((t) => t.max));
    if (max === null) caps.push({ kind: 'tomcat-threads', name, limit: null, provenance: 'unavailable', source: input.arm.virtualThreads === true ? NO_THREAD_LIMIT : 'maxThreads not read', boundRps: null });
    else caps.push({ kind: 'tomcat-threads', name, limit: max, provenance: 'measured', source: src, boundRps: boundOf(max, r1) });
    const conns = maxOf(rows.map((t) => t.maxConns));
    caps.push(conns === null
      ? { kind: 'tomcat-connections', name, limit: null, provenance: 'unavailable', source: 'maxConnections not read', boundRps: null }
      : { kind: 'tomcat-connections', name, limit: conns, provenance: 'measured', source: src, boundRps: boundOf(conns, r1) });
  }
  const pools = [...new Set(samples.flatMap((s) => s.hikari.map((h) => h.pool)))];
  if (pools.length === 0) caps.push({ kind: 'hikari-pool', name: null, limit: null, provenance: 'unavailable', source: samples.length === 0 ? 'no samples' : 'no Hikari MBean (spring.datasource.hikari.register-mbeans=true, or no pool)', boundRps: null });
  for (const pool of pools) {
    const rows = samples.flatMap((s) => s.hikari.filter((h) => h.pool === pool));
    const max = maxOf(rows.map((h) => h.max)) ?? maxOf(rows.map((h) => h.total));
    caps.push(max === null
      ? { kind: 'hikari-pool', name: pool, limit: null, provenance: 'unavailable', source: 'pool size not read', boundRps: null }
      : { kind: 'hikari-pool', name: pool, limit: max, provenance: 'measured', source: src, boundRps: boundOf(max, r1) });
  }
  if (input.arm.virtualThreads === true) {
    const par = maxOf(samples.map((s) => s.vt?.parallelism));
    caps.push(par === null
      ? { kind: 'carriers', name: null, limit: null, provenance: 'unavailable', source: 'VirtualThreadScheduler MBean not read', boundRps: null }
      : { kind: 'carriers', name: null, limit: par, provenance: 'measured', source: src, boundRps: boundOf(par, r1) });
  }
  // the JVM's own count (jar tiers), else the actuator's system.cpu.count (black box)
  const cores = input.jvm && pos(input.jvm.availableProcessors) ? input.jvm.availableProcessors : maxOf(samples.map((s) => s.cpus));
  const withCpu = input.topCells.filter((c) => c.targetCpuS !== null);
  const cpuS = withCpu.reduce((a, c) => a + (c.targetCpuS as number), 0);
  const ok = withCpu.reduce((a, c) => a + c.summary.ok, 0);
  const cpuPerReq = withCpu.length > 0 && ok > 0 && cpuS > 0 ? cpuS / ok : null;
  caps.push(cores === null
    ? { kind: 'cpu', name: null, limit: null, provenance: 'unavailable', source: 'JVM not sampled (black box)', boundRps: null }
    : { kind: 'cpu', name: null, limit: cores, provenance: 'measured', source: `${input.jvm ? 'jvm' : 'actuator'}${cpuPerReq === null ? '' : ', cpu-time'}`, boundRps: cpuPerReq === null ? null : cores / cpuPerReq });
  caps.push({ kind: 'async-concurrency-limit', name: null, limit: null, provenance: 'unavailable', source: NOT_EXPOSED, boundRps: null });
  caps.push({ kind: 'http-client-dispatcher', name: null, limit: null, provenance: 'unavailable', source: NOT_EXPOSED, boundRps: null });
  return caps;
}

/** busy and waiting of one cap in one sample; null = not read */
function readCap(kind: CapKind, name: string | null, s: JmxSample): { busy: number | null; waiting: number | null } | null {
  const ok = (x: number | null | undefined): number | null => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : null);
  switch (kind) {
    case 'tomcat-threads':
    case 'tomcat-connections': {
      const t = s.tomcat.find((x) => x.name === name);
      return t ? { busy: ok(kind === 'tomcat-threads' ? t.busy : t.conns), waiting: null } : null;
    }
    case 'hikari-pool': {
      const h = s.hikari.find((x) => x.pool === name);
      return h ? { busy: ok(h.active), waiting: ok(h.pending) } : null;
    }
    case 'carriers':
      return s.vt ? { busy: ok(s.vt.mounted), waiting: ok(s.vt.queued) } : null;
    default:
      return null;
  }
}

/** A cap is judged saturated only from at least this many samples (2 s at 250 ms): one or two samples of a short cell say nothing. */
export const MIN_JUDGED_SAMPLES = 8;

/**
 * How a cap was used in one cell, from the cell's samples (samplesInCell):
 * - busy: Tomcat busy threads / open connections, Hikari active, carriers mounted; CPU: cores in
 *   use between consecutive samples, Δ cpuNs / Δt (a sample pair with a missing or decreasing
 *   counter is skipped);
 * - waiting: Hikari pending threads, scheduler queued virtual threads (max over the samples);
 * - saturatedShare: share of the read samples with busy ≥ limit or waiting > 0 (CPU: busy ≥
 *   CPU_FULL_SHARE × cores); saturated when ≥ SATURATED_SHARE.
 * A cap without a limit and without a waiting count, or with no sample read, has saturatedShare null
 * and saturated false.
 */
export function capUse(cap: Pick<Cap, 'kind' | 'name' | 'limit'>, samples: readonly JmxSample[]): CapUse {
  const reads: { busy: number | null; waiting: number | null }[] = [];
  if (cap.kind === 'cpu') {
    const ss = [...samples].sort((a, b) => a.tEpochMs - b.tEpochMs);
    for (let i = 1; i < ss.length; i++) {
      const a = ss[i - 1]!;
      const b = ss[i]!;
      const dt = b.tEpochMs - a.tEpochMs;
      if (a.cpuNs === null || b.cpuNs === null || dt <= 0 || b.cpuNs < a.cpuNs) continue;
      reads.push({ busy: (b.cpuNs - a.cpuNs) / 1e6 / dt, waiting: null });
    }
  } else if (cap.kind !== 'async-concurrency-limit' && cap.kind !== 'http-client-dispatcher') {
    for (const s of samples) {
      const r = readCap(cap.kind, cap.name, s);
      if (r && (r.busy !== null || r.waiting !== null)) reads.push(r);
    }
  }
  const busy = reads.map((r) => r.busy).filter((x): x is number => x !== null);
  const waiting = reads.map((r) => r.waiting).filter((x): x is number => x !== null);
  const full = cap.limit === null ? null : cap.kind === 'cpu' ? CPU_FULL_SHARE * cap.limit : cap.limit;
  const judged = reads.filter((r) => (full !== null && r.busy !== null) || r.waiting !== null);
  // a sample is at the cap when every unit is busy and, for a cap with waiters (Hikari pending, carriers' queue), someone waits:
  // waiters beside idle units (Hikari pending with idle connections) wait for something else (seen: the CPU). Busy unread: the waiters alone.
  const atCap = (r: { busy: number | null; waiting: number | null }): boolean =>
    r.busy !== null && full !== null ? r.busy >= full - 1e-9 && (r.waiting === null || r.waiting > 0) : r.waiting !== null && r.waiting > 0;
  const sat = judged.filter(atCap).length;
  const share = judged.length === 0 ? null : sat / judged.length;
  return {
    kind: cap.kind,
    name: cap.name,
    samples: reads.length,
    busyMax: busy.length ? Math.max(...busy) : null,
    busyMean: busy.length ? busy.reduce((a, b) => a + b, 0) / busy.length : null,
    waitingMax: waiting.length ? Math.max(...waiting) : null,
    saturatedShare: share,
    saturated: share !== null && share >= SATURATED_SHARE && judged.length >= MIN_JUDGED_SAMPLES,
  };
}

/**
 * The uses of one cap in several cells (the repeats of a level) as one: samples summed, maxima the
 * largest, busyMean and saturatedShare weighted by each cell's samples; saturated only when judged
 * from at least MIN_JUDGED_SAMPLES samples in all. Empty → a use with no data.
 */
export function mergeCapUses(uses: readonly CapUse[], cap: Pick<Cap, 'kind' | 'name'>): CapUse {
  const n = uses.reduce((a, u) => a + u.samples, 0);
  const mx = (xs: (number | null)[]) => { const v = xs.filter((x): x is number => x !== null); return v.length ? Math.max(...v) : null; };
  const wmean = (f: (u: CapUse) => number | null) => {
    const us = uses.filter((u) => f(u) !== null && u.samples > 0);
    const w = us.reduce((a, u) => a + u.samples, 0);
    return w === 0 ? null : us.reduce((a, u) => a + (f(u) as number) * u.samples, 0) / w;
  };
  const share = wmean((u) => u.saturatedShare);
  // the samples the share was judged from, over the cells (as in capUse: too few say nothing)
  const judged = uses.reduce((a, u) => a + (u.saturatedShare === null ? 0 : u.samples), 0);
  return { kind: cap.kind, name: cap.name, samples: n, busyMax: mx(uses.map((u) => u.busyMax)), busyMean: wmean((u) => u.busyMean), waitingMax: mx(uses.map((u) => u.waitingMax)), saturatedShare: share, saturated: share !== null && share >= SATURATED_SHARE && judged >= MIN_JUDGED_SAMPLES };
}
