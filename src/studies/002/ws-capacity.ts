/**
 * Study 002 scenario 5 (issue 13): how many held WebSocket connections a variant carries on time,
 * and the bounds beside it. Pure functions over stored cells (src/load/websocket.ts summaries and the
 * SUT's samples); the report only formats what these return.
 *
 * Rule (stated in the report): a level of N connections is **carried** when at least 99.9 % of the
 * expected messages (N × hold / interval, every connection asked for) arrived with their scheduled
 * time inside the window, the lateness P99 (receive − scheduled, which includes the work by
 * construction) is at most 100 ms, and the progress watchdog did not fire. A variant's **capacity** is
 * the largest N of its sweep that is carried.
 *
 * Bounds, connections at one message per interval I with W ms of blocking work per message:
 * - executor: a pool of T threads produces at most T / W messages per ms, i.e. T × I / W connections
 *   (200 threads, 10 ms, 1 s → 20,000; issue 13); virtual threads have no thread bound (null);
 * - CPU (service demand law): cores / CPU-ms per message × I, the CPU per message measured over the
 *   SUT and the load generator (both on this host);
 * - host: the connections this host's descriptors and ports allow (src/adapters/host/limits.ts).
 * The smallest bound is named as the limit that applies.
 */
import type { ExecutorSpec } from '../../types/study.ts';
import type { WebSocketSummary } from '../../types/load.ts';
import type { SutSample } from '../../types/sut-api.ts';

/** The capacity rule's thresholds. */
export const WS_CAPACITY_RULE = { minDeliveredShare: 0.999, maxLatenessP99Ms: 100 } as const;

/** Why a level was not carried (phrase keys of the report: `ws.why.<code>`). */
export type WsNotCarried = 'delivered' | 'lateness' | 'no-progress' | 'no-messages';

/** Whether one level (cell) is carried under WS_CAPACITY_RULE, and the reasons when not. Pure. */
export function carried(s: WebSocketSummary): { carried: boolean; why: WsNotCarried[] } {
  const why: WsNotCarried[] = [];
  if (s.latenessMs === null) why.push('no-messages');
  if (s.deliveredShare < WS_CAPACITY_RULE.minDeliveredShare) why.push('delivered');
  if (s.latenessMs !== null && s.latenessMs.p99 > WS_CAPACITY_RULE.maxLatenessP99Ms) why.push('lateness');
  if (s.noProgress !== null) why.push('no-progress');
  return { carried: why.length === 0, why };
}

/** One swept level of one variant, as the per-N table shows it. */
export interface WsLevel {
  connections: number;
  summary: WebSocketSummary;
  carried: boolean;
  why: WsNotCarried[];
  /** SUT samples during the window: peaks of live platform threads, RSS and heap; null without samples */
  platformThreadsPeak: number | null;
  rssPeakBytes: number | null;
  heapPeakBytes: number | null;
  /** SUT CPU over the cell, cores (Δ process CPU time / Δ wall between the first and last sample); null without two samples */
  sutCpuCores: number | null;
  /** SUT CPU per message sent, ms (Δ process CPU time / messages the SUT sent in the cell); null when unknown */
  sutCpuMsPerMessage: number | null;
}

/** The peak of a sample field over samples in [fromEpochMs, toEpochMs]; null when none. */
function peak(samples: readonly SutSample[], f: (s: SutSample) => number | null): number | null {
  let m: number | null = null;
  for (const s of samples) {
    const v = f(s);
    if (v !== null && (m === null || v > m)) m = v;
  }
  return m;
}

/**
 * One level from its cell: the rule, and the SUT's memory, threads and CPU from the samples taken
 * during the window (`t0EpochMs` + the window's bounds). Pure.
 */
export function wsLevel(s: WebSocketSummary, samples: readonly SutSample[], t0EpochMs: number): WsLevel {
  const inWindow = samples.filter((x) => x.tEpochMs >= t0EpochMs + s.windowStartMs && x.tEpochMs <= t0EpochMs + s.windowEndMs);
  const c = carried(s);
  let cores: number | null = null;
  let perMsg: number | null = null;
  const first = inWindow[0];
  const last = inWindow[inWindow.length - 1];
  if (first && last && last !== first && first.processCpuTimeNs !== null && last.processCpuTimeNs !== null) {
    const cpuMs = (last.processCpuTimeNs - first.processCpuTimeNs) / 1e6;
    cores = cpuMs / (last.tEpochMs - first.tEpochMs);
    const sent = last.wsMessagesSent !== undefined && first.wsMessagesSent !== undefined ? last.wsMessagesSent - first.wsMessagesSent : null;
    perMsg = sent !== null && sent > 0 ? cpuMs / sent : null;
  }
  return {
    connections: s.connections,
    summary: s,
    carried: c.carried,
    why: c.why,
    platformThreadsPeak: peak(inWindow, (x) => x.platformThreads),
    rssPeakBytes: peak(inWindow, (x) => x.rssBytes),
    heapPeakBytes: peak(inWindow, (x) => x.heapUsedBytes),
    sutCpuCores: cores,
    sutCpuMsPerMessage: perMsg,
  };
}

/** A variant's capacity over its sweep. */
export interface WsCapacity {
  /** the largest carried N; null when no level was carried */
  capacity: number | null;
  /** `within`: a larger level failed, so capacity lies in [capacity, next level); `at-least`: every level up to the largest tried was carried; `below`: none was */
  kind: 'within' | 'at-least' | 'below';
  /** the smallest level above `capacity` that was not carried; null when none */
  firstFailed: number | null;
  /** the largest level tried */
  maxTried: number;
  /** a level below `capacity` was not carried (the sweep is not monotone: noise or a transient) */
  nonMonotone: boolean;
}

/**
 * The capacity of one variant from its levels (any order; one entry per N — repeats are summarised
 * by the caller). Pure.
 * @throws RangeError for an empty sweep
 */
export function wsCapacity(levels: readonly Pick<WsLevel, 'connections' | 'carried'>[]): WsCapacity {
  if (levels.length === 0) throw new RangeError('wsCapacity: no levels');
  const sorted = [...levels].sort((a, b) => a.connections - b.connections);
  const ok = sorted.filter((l) => l.carried);
  const maxTried = sorted[sorted.length - 1]!.connections;
  if (ok.length === 0) return { capacity: null, kind: 'below', firstFailed: sorted[0]!.connections, maxTried, nonMonotone: false };
  const capacity = ok[ok.length - 1]!.connections;
  const above = sorted.find((l) => l.connections > capacity && !l.carried);
  const nonMonotone = sorted.some((l) => l.connections < capacity && !l.carried);
  return { capacity, kind: above ? 'within' : 'at-least', firstFailed: above?.connections ?? null, maxTried, nonMonotone };
}

/** The bounds of one variant, connections, and which applies. */
export interface WsBounds {
  /** T × I / W for a platform pool of T threads; null for virtual threads (no thread bound) */
  executor: number | null;
  /** cores × I / (CPU-ms per message over SUT + load generator); null when the CPU per message is unknown */
  cpu: number | null;
  /** what this host's descriptors and ports allow */
  host: number;
  /** the smallest of the three */
  limit: 'executor' | 'cpu' | 'host';
  limitValue: number;
}

/**
 * Connections a platform pool carries by its threads: T threads × I / W (T / W messages per ms,
 * each connection wanting one per I ms). Null for an executor without a thread limit. Pure.
 */
export function wsExecutorBound(exec: ExecutorSpec, workMs: number, intervalMs: number): number | null {
  if (exec.kind !== 'platform-pool' || workMs <= 0) return null;
  return (exec.threads * intervalMs) / workMs;
}

/**
 * Connections the CPU carries (service demand law): `cores` × I / D, D = CPU-ms per message summed
 * over the processes on this host (SUT and load generator). Null when D is unknown or 0. Pure.
 */
export function wsCpuBound(cores: number, cpuMsPerMessage: number | null, intervalMs: number): number | null {
  if (cpuMsPerMessage === null || !(cpuMsPerMessage > 0)) return null;
  return (cores * intervalMs) / cpuMsPerMessage;
}

/** The three bounds and the smallest, named. Pure. */
export function wsBounds(executor: number | null, cpu: number | null, host: number): WsBounds {
  const cands: [WsBounds['limit'], number][] = [['host', host]];
  if (cpu !== null) cands.push(['cpu', cpu]);
  if (executor !== null) cands.push(['executor', executor]);
  cands.sort((a, b) => a[1] - b[1]);
  const [limit, limitValue] = cands[0]!;
  return { executor, cpu, host, limit, limitValue };
}
