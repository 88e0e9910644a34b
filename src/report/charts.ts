/**
 * Chart specs (vega-lite, data inline) built from the report model, and their SVG rendering in
 * Node (vega View with renderer 'none' → toSVG; no canvas needed). Text widths are estimated in
 * Node, so every label limit and font size is explicit. Deterministic: same model → same bytes.
 */
import { executorInfo } from '../types/study.ts';
import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';
import { int } from './format.ts';
import { SCATTER_EARLY_SHARE, SPECTRUM_PERCENTILES, type ReportModel } from './model.ts';
export type { ChartSpec, ChartLabels } from './types.ts';
import type { ChartSpec, ChartLabels } from './types.ts';

const FONT = 'Helvetica, Arial, sans-serif';
/** colours of the variants, in the run's variant order (Dark2) */
export const PALETTE = ['#d95f02', '#1b9e77', '#7570b3', '#e7298a', '#66a61e', '#e6ab02', '#a6761d', '#666666'];
export const CONFIG = {
  font: FONT,
  background: 'white',
  axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 120, titleLimit: 360, titleFontWeight: 'normal' as const },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 220, titleLimit: 220, symbolStrokeWidth: 2 },
  header: { labelFontSize: 11, titleFontSize: 12, labelLimit: 240, titleLimit: 300 },
  // without canvas vega estimates text as 0.8 × font size per character (bold 14 px ≈ 11 px), so a
  // 58-character title needs ~650 px; the limit only guards against run-controlled text of any length
  title: { fontSize: 14, limit: 1200, anchor: 'start' as const, fontWeight: 'bold' as const },
  line: { strokeWidth: 2 },
  point: { size: 40, filled: true },
};
export const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
/** a subtitle split after each "; " into lines (vega does not wrap text) */
const lines = (text: string): string[] => text.split(/(?<=;) /);
/** "P50", "P99.9", "P99.99" for 0.5, 0.999, 0.9999 */
export function pLabel(p: number): string {
  return `P${Number((p * 100).toFixed(4))}`;
}
const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * Values for a log-scale field: a log scale cannot show 0 or less (vega maps them to −∞ and every
 * point collapses to one edge), so they are left out and counted; the chart says how many in its
 * subtitle (`droppedLog`).
 */
export function forLogScale<T extends Record<string, unknown>>(rows: readonly T[], field: keyof T): { rows: T[]; dropped: number } {
  const kept = rows.filter((r) => { const v = r[field]; return typeof v === 'number' && Number.isFinite(v) && v > 0; });
  return { rows: kept, dropped: rows.length - kept.length };
}
/** a chart title, with the dropped-values note as subtitle when any were left out */
function titleOf(text: string, dropped: number, t: Pick<ChartLabels, 'droppedLog'>): string | { text: string; subtitle: string } {
  return dropped > 0 ? { text, subtitle: t.droppedLog.replace('{{n}}', String(dropped)) } : text;
}

/**
 * The report's five Vega-Lite chart specs, in this order and with these `name`s (the figure file
 * names, `figures/<name>.svg`): `throughput` (median whole-run requests/s vs concurrency, with the
 * bound and waves bound per variant), `e2e-latency` (median E2E P95/P99 in ms vs concurrency, log
 * scale, with the waves theory P95), `phases` (mean queue wait + execution + overhead, ms, stacked,
 * one panel per variant), `timeseries` (in-flight, queue, platform threads, heap MiB, RSS MiB, CPU %
 * over seconds of the highest level of each variant) and `distribution` (E2E ms by percentile rank
 * at the highest level). Concurrency is on a log axis; values ≤ 0 on a log scale are left out and
 * counted in the subtitle. `t` gives every visible label (chartLabels), so the specs carry the
 * report's language. Pure; throws nothing for a model buildModel returned (an empty run gives
 * charts without data).
 */
/** What every engine chart shares: the model, the labels, the variants' colours, the levels' log axis. */
interface ChartContext {
  model: ReportModel;
  t: ChartLabels;
  MODE_SCALE: { domain: string[]; range: string[] };
  levels: number[];
  xConc: Record<string, unknown>;
  /** the levels are arrival rates (RowModel.openLoop): no closed-loop theory series */
  olRun: boolean;
}

/** Chart `throughput`: throughput against level, with the bounds per variant. */
function throughputChart(x: ChartContext): ChartSpec {
  const { model, t, MODE_SCALE, xConc, olRun } = x;
  // 1 throughput vs concurrency, with the bounds per variant (the data field is named `mode`)
  const thr: Record<string, unknown>[] = [];
  for (const r of model.rows) {
    if (r.wholeRunRps.median !== null) thr.push({ mode: r.variant, concurrency: r.concurrency, series: t.measured, rps: r3(r.wholeRunRps.median) });
    thr.push({ mode: r.variant, concurrency: r.concurrency, series: t.bound, rps: r3(r.boundRps) });
    if (r.wavesWholeRunRps !== null) thr.push({ mode: r.variant, concurrency: r.concurrency, series: t.wavesBound, rps: r3(r.wavesWholeRunRps) });
  }
  return ({ name: 'throughput', title: t.throughput, spec: {
    $schema: SCHEMA, title: t.throughput, width: 520, height: 280, config: CONFIG,
    data: { values: thr },
    mark: { type: 'line', point: true },
    encoding: {
      x: xConc,
      y: { field: 'rps', type: 'quantitative', title: t.rps },
      color: { field: 'mode', type: 'nominal', title: t.mode, scale: MODE_SCALE },
      // an open-loop run draws no closed-loop waves bound, so its legend does not name one
      strokeDash: { field: 'series', type: 'nominal', title: t.series, sort: [t.measured, t.bound, ...(olRun ? [] : [t.wavesBound])], scale: { domain: [t.measured, t.bound, ...(olRun ? [] : [t.wavesBound])], range: [[1, 0], [6, 4], ...(olRun ? [] : [[2, 2]])] } },
      detail: { field: 'series' },
    },
  } as TopLevelSpec });
}

/** Chart `e2e-latency`: E2E P95 and P99 against level (log), with the waves theory for P95. */
function e2eChart(x: ChartContext): ChartSpec {
  const { model, t, MODE_SCALE, xConc, olRun } = x;
  // 2 E2E P95 and P99 vs concurrency (log), with the waves theory for P95
  const e2e: Record<string, unknown>[] = [];
  for (const r of model.rows) {
    if (r.e2eP95Ms.median !== null) e2e.push({ mode: r.variant, concurrency: r.concurrency, series: 'P95', ms: r3(r.e2eP95Ms.median) });
    if (r.e2eP99Ms.median !== null) e2e.push({ mode: r.variant, concurrency: r.concurrency, series: 'P99', ms: r3(r.e2eP99Ms.median) });
    // no closed-loop waves theory for an open-loop row (its level is an arrival rate)
    if (r.theoryE2eP95Ms !== null) e2e.push({ mode: r.variant, concurrency: r.concurrency, series: t.theoryP95, ms: r3(r.theoryE2eP95Ms) });
  }
  const e2eLog = forLogScale(e2e, 'ms');
  return ({ name: 'e2e-latency', title: t.e2e, spec: {
    $schema: SCHEMA, title: titleOf(t.e2e, e2eLog.dropped, t), width: 520, height: 280, config: CONFIG,
    data: { values: e2eLog.rows },
    mark: { type: 'line', point: true },
    encoding: {
      x: xConc,
      y: { field: 'ms', type: 'quantitative', title: t.latencyMs, scale: { type: 'log' } },
      color: { field: 'mode', type: 'nominal', title: t.mode, scale: MODE_SCALE },
      // an open-loop run draws no closed-loop P95 theory, so its legend does not name one
      strokeDash: { field: 'series', type: 'nominal', title: t.series, scale: { domain: ['P95', 'P99', ...(olRun ? [] : [t.theoryP95])], range: [[1, 0], [4, 2], ...(olRun ? [] : [[1, 3]])] } },
      detail: { field: 'series' },
    },
  } as TopLevelSpec });
}

/** Chart `phases`: mean queue wait + execution + overhead, stacked, with the P95 ticks. */
function phasesChart(x: ChartContext): ChartSpec {
  const { model, t, levels } = x;
  // 3 mean queue wait + execution + overhead = mean E2E, stacked, per level and mode
  // with the P95 of queue wait and execution (median of the repeats) as ticks: P95s do not add up, so they are not stacked
  const ph: Record<string, unknown>[] = [];
  for (const r of model.rows) {
    if (r.means) {
      ph.push({ kind: 'mean', mode: r.variant, concurrency: String(r.concurrency), phase: t.queue, order: 1, ms: r3(r.means.queueMs) });
      ph.push({ kind: 'mean', mode: r.variant, concurrency: String(r.concurrency), phase: t.exec, order: 2, ms: r3(r.means.execMs) });
      ph.push({ kind: 'mean', mode: r.variant, concurrency: String(r.concurrency), phase: t.overhead, order: 3, ms: r3(Math.max(0, r.means.overheadMs)) });
    }
    if (r.queueP95Ms.median !== null) ph.push({ kind: 'p95', mode: r.variant, concurrency: String(r.concurrency), phase: t.queue, ms: r3(r.queueP95Ms.median) });
    if (r.execP95Ms.median !== null) ph.push({ kind: 'p95', mode: r.variant, concurrency: String(r.concurrency), phase: t.exec, ms: r3(r.execP95Ms.median) });
  }
  const phaseColor = { field: 'phase', type: 'nominal' as const, title: t.phase, sort: [t.queue, t.exec, t.overhead], scale: { domain: [t.queue, t.exec, t.overhead], range: ['#e7298a', '#7570b3', '#a6a6a6'] } };
  const phX = { field: 'concurrency', type: 'ordinal' as const, title: t.concurrency, sort: levels.map(String), axis: { labelAngle: 0 } };
  return ({ name: 'phases', title: t.phases, spec: {
    $schema: SCHEMA, title: { text: t.phases, subtitle: lines(t.phasesNote) }, config: CONFIG,
    data: { values: ph },
    facet: { column: { field: 'mode', type: 'nominal', title: t.mode, sort: [...model.variants] } },
    spec: {
      width: 240, height: 260,
      layer: [
        { transform: [{ filter: "datum.kind == 'mean'" }], mark: { type: 'bar' },
          encoding: { x: phX, y: { field: 'ms', type: 'quantitative', title: t.ms, stack: 'zero' }, color: phaseColor, order: { field: 'order', type: 'quantitative' } } },
        { transform: [{ filter: "datum.kind == 'p95'" }], mark: { type: 'tick', thickness: 3, size: 26, stroke: '#111111', strokeWidth: 0.6 },
          encoding: { x: phX, y: { field: 'ms', type: 'quantitative' }, color: phaseColor } },
      ],
    },
  } as TopLevelSpec });
}

/** Chart `timeseries`: the SUT samples of each variant's highest level, one panel per metric. */
function timeseriesChart(x: ChartContext): ChartSpec {
  const { model, t, MODE_SCALE } = x;
  // 4 time series of the highest level of each mode, one panel per metric
  const metricLabel: Record<string, string> = { inFlight: t.inFlight, queue: t.queueSize, platformThreads: t.platformThreads, heapMiB: t.heapMiB, rssMiB: t.rssMiB, cpuPct: t.cpuPct };
  const metricOrder = ['inFlight', 'queue', 'platformThreads', 'heapMiB', 'rssMiB', 'cpuPct'].map((k) => metricLabel[k] as string);
  const ts = model.charts.series.map((p) => ({ mode: p.variant, cell: p.cellId, t: p.tS, metric: metricLabel[p.metric] as string, value: p.value }));
  return ({ name: 'timeseries', title: t.timeseries, spec: {
    $schema: SCHEMA, title: t.timeseries, config: CONFIG,
    data: { values: ts },
    facet: { row: { field: 'metric', type: 'nominal', title: null, sort: metricOrder, header: { labelAngle: 0, labelAlign: 'left', labelAnchor: 'start', labelOrient: 'top' } } },
    spec: {
      width: 520, height: 90,
      mark: { type: 'line', strokeWidth: 1.5, interpolate: 'step-after' },
      encoding: {
        x: { field: 't', type: 'quantitative', title: t.timeS, axis: { tickCount: 8 } },
        y: { field: 'value', type: 'quantitative', title: null, axis: { tickCount: 3 } },
        color: { field: 'mode', type: 'nominal', title: t.mode, scale: MODE_SCALE },
        detail: { field: 'cell' },
      },
    },
    // every panel gets its own labelled time axis (a shared one is drawn under the last panel only)
    resolve: { scale: { y: 'independent' }, axis: { x: 'independent' } },
  } as TopLevelSpec });
}

/** Chart `distribution`: E2E by percentile rank, per variant at its highest level. */
function distributionChart(x: ChartContext): ChartSpec {
  const { model, t, MODE_SCALE } = x;
  // 5 latency distribution per mode at the highest level: E2E by percentile rank
  const dist = forLogScale(model.charts.distribution.map((d) => ({ mode: `${d.variant} @${d.concurrency}`, pct: d.pct, ms: d.e2eMs })), 'ms');
  return ({ name: 'distribution', title: t.distribution, spec: {
    $schema: SCHEMA, title: titleOf(t.distribution, dist.dropped, t), width: 520, height: 260, config: CONFIG,
    data: { values: dist.rows },
    mark: { type: 'line', interpolate: 'step-after' },
    encoding: {
      x: { field: 'pct', type: 'quantitative', title: t.percentile, scale: { domain: [0, 100] } },
      y: { field: 'ms', type: 'quantitative', title: t.latencyMs, scale: { type: 'log' } },
      color: { field: 'mode', type: 'nominal', title: t.mode, scale: { range: MODE_SCALE.range } },
    },
  } as TopLevelSpec });
}

/** Chart `latency-scatter`: E2E against send time, per variant at its highest level (whole cell and its start). */
function scatterChart(x: ChartContext): ChartSpec {
  const { model, t, MODE_SCALE } = x;
  // 6 E2E of (a downsampled set of) every request against its send time, per variant at its highest level
  const sc: Record<string, unknown>[] = [];
  const early = t.scatterEarly.replace('{{pct}}', String(SCATTER_EARLY_SHARE * 100));
  let shown = 0;
  let total = 0;
  for (const g of model.charts.scatter) {
    shown += g.points.length;
    total += g.total;
    for (const p of g.points) sc.push({ mode: g.variant, w: t.scatterWhole, s: p.sendS, ms: p.e2eMs });
    for (const p of g.early) sc.push({ mode: g.variant, w: early, s: p.sendS, ms: p.e2eMs });
  }
  const topLevels = [...new Set(model.charts.scatter.map((g) => g.concurrency))].join(', ');
  return ({ name: 'latency-scatter', title: t.scatter, spec: {
    $schema: SCHEMA, config: CONFIG,
    title: { text: t.scatter, subtitle: lines(t.scatterNote.replace('{{shown}}', int(shown)).replace('{{total}}', int(total)).replace('{{c}}', topLevels)) },
    data: { values: sc },
    facet: {
      row: { field: 'mode', type: 'nominal', title: null, sort: [...model.variants], header: { labelAngle: 0, labelAlign: 'left', labelAnchor: 'start', labelOrient: 'top' } },
      column: { field: 'w', type: 'nominal', title: null, sort: [t.scatterWhole, early] },
    },
    spec: {
      width: 330, height: 170,
      mark: { type: 'point', filled: true, size: 9, opacity: 0.55, shape: 'square', aria: false },
      encoding: {
        x: { field: 's', type: 'quantitative', title: t.sendTimeS },
        y: { field: 'ms', type: 'quantitative', title: t.latencyMs, axis: { tickCount: 4 } },
        color: { field: 'mode', type: 'nominal', title: t.mode, scale: MODE_SCALE, legend: null },
      },
    },
    resolve: { scale: { x: 'independent', y: 'independent' }, axis: { x: 'independent' } },
  } as TopLevelSpec });
}

/** Chart `percentiles`: the E2E percentile spectrum per variant and level. */
function spectrumChart(x: ChartContext): ChartSpec {
  const { model, t, levels } = x;
  // 7 E2E percentile spectrum per variant and level: x = 1 / (1 − p) on a log axis (HdrHistogram style)
  const specRows = model.charts.percentiles.map((d) => ({ mode: d.variant, level: d.concurrency, x: r3(1 / (1 - d.p)), label: pLabel(d.p), ms: d.e2eMs }));
  const specLog = forLogScale(specRows, 'ms');
  const xs = SPECTRUM_PERCENTILES.map((p) => r3(1 / (1 - p)));
  return ({ name: 'percentiles', title: t.spectrum, spec: {
    $schema: SCHEMA, title: titleOf(t.spectrum, specLog.dropped, t), config: CONFIG,
    data: { values: specLog.rows },
    facet: { column: { field: 'mode', type: 'nominal', title: t.mode, sort: [...model.variants] } },
    spec: {
      width: 250, height: 240,
      mark: { type: 'line', point: { size: 25 } },
      encoding: {
        x: { field: 'x', type: 'quantitative', title: t.percentileLog, scale: { type: 'log', domain: [xs[0] as number, xs[xs.length - 1] as number], nice: false },
          axis: { values: xs, labelExpr: SPECTRUM_PERCENTILES.map((p) => `datum.value == ${r3(1 / (1 - p))} ? '${pLabel(p)}' : `).join('') + "''", labelAngle: -40, grid: true } },
        y: { field: 'ms', type: 'quantitative', title: t.latencyMs, scale: { type: 'log' } },
        // levels in order, colour-blind-safe sequential colours (viridis), darkest = highest
        color: { field: 'level', type: 'ordinal', title: t.concurrency, sort: levels, scale: { scheme: 'viridis', reverse: true } },
        detail: { field: 'level' },
      },
    },
  } as TopLevelSpec });
}

/** Chart `open-loop-queue`: the pool's executor queue over time at each arrival rate, with λ − N/L; null without open-loop pool cells. */
function openLoopQueueChart(x: ChartContext): ChartSpec | null {
  const { model, t } = x;
  // 8 open loop: the platform pool's executor queue over time at each arrival rate, with λ − N/L
  const olPool = (model.openLoop ?? []).filter((c) => executorInfo(c.executor).pool(c.executor) !== null && c.repeat === 1);
  if (olPool.length > 0) {
    const pts: Record<string, unknown>[] = [];
    for (const c of olPool) {
      const rate = `${c.variant} λ=${c.targetRatePerS}`;
      for (const [tS, q] of c.queueSeries) pts.push({ rate, series: t.measured, tS, queue: q });
      // theory: 0 until L, then (λ − N/L)·(t − L) + (λ·L − N)⁺ during the schedule (a fluid D/D/N queue)
      const Ls = model.latencyMs / 1000;
      const N = executorInfo(c.executor).pool(c.executor)?.threads ?? 0;
      const head = Math.max(0, c.targetRatePerS * Ls - N);
      for (const tS of [0, Ls, c.durationS]) pts.push({ rate, series: t.queueTheory, tS, queue: r3(tS <= Ls ? Math.max(0, c.targetRatePerS * tS - N) : head + c.theorySlopePerS * (tS - Ls)) });
    }
    return ({ name: 'open-loop-queue', title: t.openLoopQueue, spec: {
      $schema: SCHEMA, title: t.openLoopQueue, width: 520, height: 280, config: CONFIG,
      data: { values: pts },
      mark: { type: 'line' },
      encoding: {
        x: { field: 'tS', type: 'quantitative', title: t.timeS },
        y: { field: 'queue', type: 'quantitative', title: t.queueTasks },
        color: { field: 'rate', type: 'nominal', title: t.arrivalRate },
        strokeDash: { field: 'series', type: 'nominal', title: t.series, sort: [t.measured, t.queueTheory], scale: { domain: [t.measured, t.queueTheory], range: [[1, 0], [6, 4]] } },
        detail: { field: 'series' },
      },
    } as TopLevelSpec });
  }
  return null;
}

export function chartSpecs(model: ReportModel, t: ChartLabels): ChartSpec[] {
  const MODE_SCALE = { domain: [...model.variants], range: model.variants.map((_, i) => PALETTE[i % PALETTE.length] as string) };
  const levels = model.levels.filter((c) => c > 0);
  const xConc = { field: 'concurrency', type: 'quantitative' as const, title: t.concurrency, scale: { type: 'log' as const, nice: false, domain: [Math.min(...levels) * 0.8, Math.max(...levels) * 1.25] }, axis: { values: levels, format: 'd', grid: false } };
  const olRun = model.rows.some((r) => r.openLoop);
  const x: ChartContext = { model, t, MODE_SCALE, levels, xConc, olRun };
  const ol = openLoopQueueChart(x);
  return [throughputChart(x), e2eChart(x), phasesChart(x), timeseriesChart(x), distributionChart(x), scatterChart(x), spectrumChart(x), ...(ol ? [ol] : [])];
}

/** vega-lite spec → SVG string (Node, no canvas), its coordinates rounded (compactSvg). */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const compiled = vl.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return compactSvg(await view.toSVG());
  } finally {
    view.finalize();
  }
}

/**
 * An SVG with every decimal number inside its tags (coordinates of `d`, `transform`, `x`, …) rounded
 * to 2 decimals, trailing zeros dropped: vega writes floats like `88.35750000000002`, and a
 * hundredth of a pixel is below what any screen or printer shows, so the picture is the same at a
 * fraction of the bytes (a scatter of 3,000 points shrinks by about a fifth). Text between tags
 * (labels, titles) is left as is. Pure.
 */
export function compactSvg(svg: string): string {
  return svg.replace(/<[^>]*>/g, (tag) => tag.replace(/(-?\d+)\.(\d{3,})/g, (m) => {
    const x = Math.round(Number(m) * 100) / 100;
    return String(Object.is(x, -0) ? 0 : x);
  }));
}

/** One level of a bounds chart: the measured throughput and every bound that applies there. */
export interface BoundsChartLevel {
  /** the level (x), e.g. c workers; > 0 (log axis) */
  level: number;
  /** measured throughput, req/s; null = not measured */
  measuredRps: number | null;
  /** every bound at this level, by name (e.g. "executor min(c, N)/L", "CPU cores / CPU-s per request", "DB pool / DB time"), req/s */
  bounds: readonly { name: string; rps: number }[];
}

/** Labels of a bounds chart (the report's language). */
export interface BoundsChartLabels { title: string; level: string; rps: string; measured: string; smallest: string; series: string }

/**
 * Throughput against every bound on one chart, the smallest bound highlighted (DESIGN.md "Bounds
 * for any cell": name the smallest): each bound a thin dashed line, the smallest bound at each level
 * a thick grey band under them (the binding constraint, which may change from level to level), the
 * measured throughput a solid black line with points. Both axes logarithmic (levels and bounds span
 * decades); non-positive values are left out and counted in the subtitle. For any study: its report
 * hook builds the levels and calls this from `charts`. Pure.
 * @param name the figure's name (`figures/<name>.svg`, `{{fig:<name>}}`)
 * @param palette colours of the bounds in the order of first appearance (default: Dark2 minus the highlight grey)
 */
export function boundsChart(name: string, levels: readonly BoundsChartLevel[], t: BoundsChartLabels & Pick<ChartLabels, 'droppedLog'>, palette: readonly string[] = PALETTE): ChartSpec {
  const names: string[] = [];
  const rows: Record<string, unknown>[] = [];
  for (const lv of levels) {
    let smallest: { name: string; rps: number } | null = null;
    for (const b of lv.bounds) {
      if (!names.includes(b.name)) names.push(b.name);
      rows.push({ level: lv.level, series: b.name, kind: 'bound', rps: r3(b.rps) });
      if (Number.isFinite(b.rps) && (smallest === null || b.rps < smallest.rps)) smallest = b;
    }
    if (smallest) rows.push({ level: lv.level, series: t.smallest, kind: 'smallest', rps: r3(smallest.rps), binding: smallest.name });
    if (lv.measuredRps !== null) rows.push({ level: lv.level, series: t.measured, kind: 'measured', rps: r3(lv.measuredRps) });
  }
  const kept = forLogScale(rows, 'rps');
  const lvls = levels.map((l) => l.level).filter((x) => x > 0);
  const x = { field: 'level', type: 'quantitative' as const, title: t.level, scale: { type: 'log' as const, nice: false, ...(lvls.length ? { domain: [Math.min(...lvls) * 0.8, Math.max(...lvls) * 1.25] } : {}) }, axis: { values: lvls, format: 'd', grid: false } };
  const y = { field: 'rps', type: 'quantitative' as const, title: t.rps, scale: { type: 'log' as const } };
  const domain = [t.measured, t.smallest, ...names];
  const range = ['#111111', '#bdbdbd', ...names.map((_, i) => palette[i % palette.length] as string)];
  const color = { field: 'series', type: 'nominal' as const, title: t.series, scale: { domain, range }, sort: domain };
  return { name, title: t.title, spec: {
    $schema: SCHEMA, title: titleOf(t.title, kept.dropped, t), width: 520, height: 280, config: CONFIG,
    data: { values: kept.rows },
    layer: [
      { transform: [{ filter: "datum.kind == 'smallest'" }], mark: { type: 'line', strokeWidth: 9, opacity: 0.8, strokeCap: 'round' }, encoding: { x, y, color } },
      { transform: [{ filter: "datum.kind == 'bound'" }], mark: { type: 'line', strokeWidth: 1.5, strokeDash: [5, 3], point: { size: 18 } }, encoding: { x, y, color, detail: { field: 'series' } } },
      { transform: [{ filter: "datum.kind == 'measured'" }], mark: { type: 'line', strokeWidth: 2, point: { size: 40, filled: true } }, encoding: { x, y, color } },
    ],
  } as TopLevelSpec };
}
