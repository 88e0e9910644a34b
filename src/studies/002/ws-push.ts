/**
 * Study 002, scenario 5 (issue 13): held WebSocket connections, one push per second each, 10 ms of
 * blocking work per push on the variant's executor (sut/…/WsPushService.java), loaded by the
 * `websocket` driver (src/load/websocket.ts). This module holds the scenario, its report model
 * (per-N table, capacity per variant under the rule of src/studies/002/ws-capacity.ts, the bounds and
 * which applies, memory) and its report sections and charts; study 002's index and report hook wire
 * them in.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { ExecutorSpec, PublishedRow, Scenario } from '../../types/study.ts';
import type { StudyReportHook } from '../../report/types.ts';
import type { CellResult } from '../../types/run.ts';
import type { ReportModel } from '../../report/model.ts';
import type { RenderContext } from '../../report/render-md.ts';
import type { ChartLabels, ChartSpec } from '../../report/charts.ts';
import { CONFIG, PALETTE, SCHEMA } from '../../report/charts.ts';
import { WEBSOCKET_DEFAULT_HOLD_S } from '../../load/driver.ts';
import { wsRampMs } from '../../load/websocket.ts';
import { Raw, esc, int, mib, ms, num, pct, raw, table } from '../../report/format.ts';
import { WS_CAPACITY_RULE, wsBounds, wsCapacity, wsCpuBound, wsExecutorBound, wsLevel, type WsBounds, type WsCapacity, type WsLevel } from './ws-capacity.ts';

/** The scenario's id (cells, profiles, `--scenario`). */
export const WS_PUSH = 'ws-push';
/** The SUT's blocking work per message (`bench.ws.work-ms`, the SUT's default), ms: the source study's 10 ms. */
export const WS_WORK_MS = 10;
/** The SUT's push interval (`bench.ws.interval-ms`, the SUT's default), ms: one push per second. */
export const WS_INTERVAL_MS = 1000;
/** Opening handshake → first push → window start: one interval; the driver's grace after the window: max(2 s, 2 intervals); closing: ≈1 s. */
const WS_CELL_OVERHEAD_S = WS_INTERVAL_MS / 1000 + Math.max(2, (2 * WS_INTERVAL_MS) / 1000) + 1;

/**
 * Scenario 5. Its level is N connections; the profile's `durationS` is the hold (the window), its
 * `rampMs` the ramp over which the N connections open (start `ramp`). L (serviceTimeMs) is the work
 * per message. The cell lasts ramp (at most WS_MAX_OPEN_RATE_PER_S connections per s) + one interval + hold + grace + closing.
 */
export const wsPushScenario: Scenario = {
  id: WS_PUSH,
  label: 'WebSocket: N held connections, one push per second, 10 ms of blocking work per push',
  driver: 'websocket',
  request: () => ({ method: 'GET', path: '/ws/push' }),
  serviceTimeMs: () => WS_WORK_MS,
  usesMock: false,
  // the plan adds the run's ramp; a ramp the driver stretches (wsRampMs) adds the rest
  cellTheoreticalS: (_e: ExecutorSpec, o, level) => (o.durationS ?? WEBSOCKET_DEFAULT_HOLD_S) + WS_CELL_OVERHEAD_S + (wsRampMs(level, o.rampMs) - o.rampMs) / 1000,
};

/** One variant's sweep: its levels (one per N; with repeats, a level is carried only when every repeat carried it), capacity and bounds. */
export interface WsVariantModel {
  variant: string;
  executor: ExecutorSpec;
  levels: WsLevel[];
  /** per N: repeats measured, repeats carried */
  repeats: Map<number, { n: number; carried: number }>;
  capacity: WsCapacity;
  bounds: WsBounds;
  /** CPU-ms per message over the SUT and the load generator at the largest carried level (else the largest level) used for the CPU bound; null when unknown */
  cpuMsPerMessage: number | null;
}

/** The WebSocket cells of the run. */
export function wsCells(cells: readonly CellResult[]): CellResult[] {
  return cells.filter((c) => c.load.websocket !== undefined);
}

/**
 * CPU per message on this host, ms: the SUT's (samples in the window) plus the load generator's
 * (its CPU % × the window, over the messages it received). Null when either is unknown. Pure.
 */
export function cpuMsPerMessage(level: WsLevel, c: CellResult): number | null {
  const w = level.summary;
  if (level.sutCpuMsPerMessage === null || c.loadgen.cpuPct === null || w.messagesReceived === 0) return null;
  const wallMs = w.windowEndMs + w.graceMs; // the meter ran from t0 to the end of the grace
  const genMs = (c.loadgen.cpuPct / 100) * wallMs;
  return level.sutCpuMsPerMessage + genMs / w.messagesReceived;
}

/** The scenario's model for every variant with WebSocket cells, in run order. Pure. */
export function wsModel(model: Pick<ReportModel, 'cells' | 'variants' | 'variantSpecs' | 'manifest'>): WsVariantModel[] {
  const cells = wsCells(model.cells);
  const cores = model.manifest.host.cores;
  const out: WsVariantModel[] = [];
  for (const v of model.variants) {
    const mine = cells.filter((c) => c.variant === v).sort((a, b) => a.concurrency - b.concurrency || a.repeat - b.repeat);
    const exec = model.variantSpecs.get(v)?.executor;
    if (mine.length === 0 || !exec) continue;
    const repeats = new Map<number, { n: number; carried: number }>();
    const levels: WsLevel[] = [];
    const cellOf = new Map<WsLevel, CellResult>();
    for (const c of mine) {
      const l = wsLevel(c.load.websocket!, c.samples, c.t0EpochMs);
      const r = repeats.get(c.concurrency) ?? { n: 0, carried: 0 };
      r.n++;
      if (l.carried) r.carried++;
      repeats.set(c.concurrency, r);
      levels.push(l);
      cellOf.set(l, c);
    }
    const perN = [...repeats.entries()].map(([connections, r]) => ({ connections, carried: r.carried === r.n }));
    const capacity = wsCapacity(perN);
    const ref = [...levels].reverse().find((l) => l.connections === (capacity.capacity ?? -1)) ?? levels[levels.length - 1]!;
    const cpu = cpuMsPerMessage(ref, cellOf.get(ref)!);
    const s0 = levels[0]!.summary;
    out.push({
      variant: v, executor: exec, levels, repeats, capacity, cpuMsPerMessage: cpu,
      bounds: wsBounds(wsExecutorBound(exec, s0.workMs, s0.intervalMs), wsCpuBound(cores, cpu, s0.intervalMs), s0.hostMaxConnections),
    });
  }
  return out;
}

/** The source study's capacities (`shared/seeds/published.json` 002 results.websocket.connections: "50,000+" for virtual threads), by variant id. */
export const PUBLISHED_CAPACITY: Readonly<Record<string, { value: number; atLeast: boolean }>> = {
  'ws-pool-200': { value: 5200, atLeast: false },
  'ws-pool-500': { value: 8500, atLeast: false },
  'ws-virtual': { value: 50_000, atLeast: true },
};

/** The source study's memory at its 10,000 connections (results.websocket.memoryMB), MB, by variant id. */
export const PUBLISHED_MEMORY_MB: Readonly<Record<string, number>> = { 'ws-pool-500': 7500, 'ws-virtual': 3800 };

/** How a measured capacity compares with a published one: consistent / measured-higher / measured-lower / untestable (the figure lies beyond what the sweep or host could try). Pure. */
export function capacityVerdict(cap: WsCapacity, bounds: WsBounds, pub: { value: number; atLeast: boolean }): 'consistent' | 'higher' | 'lower' | 'untested' {
  const lo = cap.capacity ?? 0;
  const hi = cap.kind === 'at-least' ? Infinity : (cap.firstFailed ?? Infinity);
  if (pub.atLeast) {
    if (hi !== Infinity && hi <= pub.value) return 'lower';
    return lo >= pub.value ? 'consistent' : 'untested';
  }
  if (pub.value >= lo && pub.value < hi) return 'consistent';
  if (pub.value < lo) return 'higher';
  if (cap.kind === 'at-least' && pub.value > Math.min(cap.maxTried, bounds.host)) return 'untested';
  return 'lower';
}

const capText = (c: WsCapacity): string =>
  c.capacity === null ? `< ${int(c.firstFailed)}` : c.kind === 'at-least' ? `≥ ${int(c.capacity)}` : `${int(c.capacity)} (< ${int(c.firstFailed)})`;

/**
 * The scenario's template sections: `wsRule`, `wsCapacity` (per variant: capacity vs published, the
 * bounds, the one that applies), `wsLevels` (the per-N table every capacity is read from), `wsMemory`
 * (memory and threads at each variant's largest carried level), `wsServer` (the SUT's own counts).
 * Without a WebSocket cell in the run, `wsRule` is the phrase `ws.none` and the rest (charts too) empty. Pure.
 */
export function wsSections(model: ReportModel, ctx: RenderContext, vs: readonly WsVariantModel[] = wsModel(model)): Record<string, string | Raw> {
  const { s, P, variantName } = ctx;
  const none = s('ws.none');
  // no WebSocket cell: no charts either (wsCharts returns none), so their placeholders are emptied here
  if (vs.length === 0) return { wsRule: none, wsCapacity: '', wsLevels: '', wsMemory: '', wsServer: '', 'fig:ws-lateness': '', 'fig:ws-memory': '' };
  const out: Record<string, string | Raw> = {};
  out['wsRule'] = ctx.P('ws.rule', { share: pct(WS_CAPACITY_RULE.minDeliveredShare * 100), p99: ms(WS_CAPACITY_RULE.maxLatenessP99Ms) });
  out['wsCapacity'] = table(
    [s('ws.h.variant'), s('ws.h.capacity'), s('ws.h.published'), s('ws.h.vsPublished'), s('ws.h.executorBound'), s('ws.h.cpuBound'), s('ws.h.hostBound'), s('ws.h.limit')],
    vs.map((v) => {
      const pub = PUBLISHED_CAPACITY[v.variant];
      const verdict = pub ? capacityVerdict(v.capacity, v.bounds, pub) : null;
      return [
        variantName(v.variant), v.capacity.nonMonotone ? raw(`${esc(capText(v.capacity))} ${P('ws.nonMonotone').md}`) : capText(v.capacity),
        pub ? `${pub.atLeast ? '> ' : ''}${int(pub.value)}` : '—',
        verdict ? P(`ws.verdict.${verdict}`) : '—',
        v.bounds.executor === null ? P('ws.noThreadBound') : int(v.bounds.executor),
        v.bounds.cpu === null ? '—' : `${int(v.bounds.cpu)} (${num(v.cpuMsPerMessage, 3)} ms/msg)`,
        int(v.bounds.host),
        P(`ws.limit.${v.bounds.limit}`),
      ];
    }),
    ['l', 'r', 'r', 'l', 'r', 'r', 'r', 'l'],
  );
  out['wsLevels'] = table(
    [s('ws.h.variant'), 'N', s('ws.h.opened'), s('ws.h.delivered'), s('ws.h.lateP50'), s('ws.h.lateP99'), s('ws.h.lateMax'), s('ws.h.gaps'), s('ws.h.drops'), s('ws.h.rejected'), s('ws.h.platformThreads'), s('ws.h.rss'), s('ws.h.heap'), s('ws.h.sutCpu'), s('ws.h.carried')],
    vs.flatMap((v) => v.levels.map((l) => {
      const w = l.summary;
      const drops = Object.entries(w.dropped).map(([k, n]) => `${k} ${int(n)}`).join(', ') || '0';
      const failed = Object.values(w.failedToOpen).reduce((a, b) => a + b, 0);
      return [
        variantName(v.variant), int(w.connections), failed > 0 ? raw(`${int(w.opened)} (${P('ws.failed', { n: int(failed) }).md})`) : int(w.opened),
        `${pct(w.deliveredShare * 100, 2)} (${int(w.messagesInWindow)}/${int(w.messagesExpected)})`,
        ms(w.latenessMs?.p50), ms(w.latenessMs?.p99), ms(w.latenessMs?.max), int(w.seqGaps), drops,
        w.server === null ? '—' : int(w.server.messagesRejected),
        int(l.platformThreadsPeak), mib(l.rssPeakBytes), mib(l.heapPeakBytes), num(l.sutCpuCores, 2),
        l.carried ? P('ws.yes') : P('ws.no', { why: raw(l.why.map((k) => P(`ws.why.${k}`).md).join(', ')) }),
      ];
    })),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'r', 'r', 'r', 'r', 'r', 'l'],
  );
  out['wsMemory'] = table(
    [s('ws.h.variant'), 'N', s('ws.h.rss'), s('ws.h.rssPerConn'), s('ws.h.platformThreads'), s('ws.h.publishedMemory')],
    vs.map((v) => {
      const carried = [...v.levels].reverse().find((x) => x.connections === v.capacity.capacity);
      // no level carried: the largest level measured, said so (it is not a carried level)
      const l = carried ?? v.levels[v.levels.length - 1]!;
      const pubMb = PUBLISHED_MEMORY_MB[v.variant];
      return [variantName(v.variant), carried ? int(l.connections) : raw(`${int(l.connections)} (${P('ws.memNotCarried').md})`), mib(l.rssPeakBytes), l.rssPeakBytes === null ? '—' : `${num(l.rssPeakBytes / l.connections / 1024, 1)} KiB`, int(l.platformThreadsPeak), pubMb === undefined ? '—' : P('ws.publishedMemory', { mb: int(pubMb) })];
    }),
    ['l', 'r', 'r', 'r', 'r', 'l'],
  );
  out['wsServer'] = table(
    [s('ws.h.variant'), 'N', s('ws.h.sent'), s('ws.h.rejected'), s('ws.h.skipped'), s('ws.h.closes'), s('ws.h.tickLate'), s('ws.h.tickLagMax'), s('ws.h.threads')],
    vs.flatMap((v) => v.levels.map((l) => {
      const d = l.summary.server;
      const closes = d ? Object.entries(d.closesByCause).map(([k, n]) => `${k} ${int(n)}`).join(', ') || '0' : '—';
      const threads = Object.entries(l.summary.byThreadPrefix).map(([k, n]) => `${k}N ${int(n)}`).join(', ') || '—';
      return [variantName(v.variant), int(l.connections), d ? int(d.messagesSent) : '—', d ? int(d.messagesRejected) : '—', d ? int(d.messagesSkipped) : '—', closes, d ? int(d.tickLagOver100Ms) : '—', d ? ms(d.tickLagMaxMs) : '—', threads];
    })),
    ['l', 'r', 'r', 'r', 'r', 'l', 'r', 'r', 'l'],
  );
  return out;
}

/**
 * The scenario's charts: lateness P50 and P99 over N per variant (log y, the 100 ms rule drawn), and
 * RSS over N. Empty when the run has no WebSocket cell. Pure.
 */
export function wsCharts(model: ReportModel, t: ChartLabels, phrases: Readonly<Record<string, string>>, vs: readonly WsVariantModel[] = wsModel(model)): ChartSpec[] {
  if (vs.length === 0) return [];
  const phrase = (k: string): string => {
    const v = phrases[k];
    if (v === undefined) throw new Error(`phrases: missing "${k}" (templates/002/phrases.<lang>.json)`);
    return v;
  };
  const title = { lateness: phrase('ws.chart.lateness'), memory: phrase('ws.chart.memory'), connections: phrase('ws.chart.connections') };
  const scale = { domain: vs.map((v) => v.variant), range: vs.map((_, i) => PALETTE[i % PALETTE.length] as string) };
  const x = { field: 'n', type: 'quantitative' as const, title: title.connections };
  const late: Record<string, unknown>[] = [];
  const mem: Record<string, unknown>[] = [];
  for (const v of vs) {
    for (const l of v.levels) {
      const p = l.summary.latenessMs;
      if (p && p.p50 > 0) late.push({ mode: v.variant, n: l.connections, series: 'P50', ms: Math.round(p.p50 * 1000) / 1000 });
      if (p && p.p99 > 0) late.push({ mode: v.variant, n: l.connections, series: 'P99', ms: Math.round(p.p99 * 1000) / 1000 });
      if (l.rssPeakBytes !== null) mem.push({ mode: v.variant, n: l.connections, mib: Math.round((l.rssPeakBytes / 2 ** 20) * 10) / 10 });
    }
  }
  return [
    { name: 'ws-lateness', title: title.lateness, spec: {
      $schema: SCHEMA, title: title.lateness, width: 520, height: 280, config: CONFIG,
      layer: [
        { data: { values: late }, mark: { type: 'line', point: true }, encoding: { x, y: { field: 'ms', type: 'quantitative', title: t.latencyMs, scale: { type: 'log' } }, color: { field: 'mode', type: 'nominal', title: t.mode, scale }, strokeDash: { field: 'series', type: 'nominal', title: t.series }, detail: { field: 'series' } } },
        { data: { values: [{ ms: WS_CAPACITY_RULE.maxLatenessP99Ms }] }, mark: { type: 'rule', strokeDash: [4, 4], color: '#666666' }, encoding: { y: { field: 'ms', type: 'quantitative' } } },
      ],
    } as TopLevelSpec },
    { name: 'ws-memory', title: title.memory, spec: {
      $schema: SCHEMA, title: title.memory, width: 520, height: 280, config: CONFIG,
      data: { values: mem }, mark: { type: 'line', point: true },
      encoding: { x, y: { field: 'mib', type: 'quantitative', title: t.rssMiB }, color: { field: 'mode', type: 'nominal', title: t.mode, scale } },
    } as TopLevelSpec },
  ];
}

/**
 * The report hook of scenario 5 (study 002's `report` until the study has a hook of its own, which
 * then calls these): its sections and charts.
 */
export const wsReportHook: StudyReportHook = {
  sections: wsSections,
  charts: wsCharts,
};

/**
 * Scenario 5's published figures as rows (shared/seeds/published.json 002 results.websocket), at the
 * study's 10,000 connections. Tolerance null: a capacity is read from a sweep as an interval (the
 * largest carried N, below the first failed one), not a point a tolerance applies to, so the
 * comparison is scenario 5's own table (`wsCapacity`: consistent / measured higher / lower / not
 * tested here), not the generic published table.
 */
export const PUBLISHED_WS: readonly PublishedRow[] = [
  ...Object.entries(PUBLISHED_CAPACITY).map(([v, p]) => ({ id: `${v}.connections`, metric: 'connections', scenario: WS_PUSH, variant: v, level: null, unit: 'connections', value: p.value, tolerance: null, setupIdentity: null })),
  ...Object.entries(PUBLISHED_MEMORY_MB).map(([v, mb]) => ({ id: `${v}.memoryMB`, metric: 'memoryMB', scenario: WS_PUSH, variant: v, level: 10_000, unit: 'MB', value: mb, tolerance: null, setupIdentity: null })),
];
