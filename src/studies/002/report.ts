/**
 * Study 002's part of its report (Study.report, src/report/types.ts): per scenario and variant, the
 * measured throughput and latency beside every bound a request's resources set (executor, DB pool,
 * shared lock, CPU; src/studies/002/theory.ts) and the one that limited it; the acceptance rule of
 * issue 12 per cell (≤ smallest bound × 1.02; ≥ 95 % of it unless a host flag is raised); error
 * answers by their own code (`db_pool_exhausted`); the fan-out's critical path against 150 ms and
 * the study's 100 ms; the pinning pitfall's JFR count; every published figure beside the bound the
 * study's own setup implies and beside this run. Values across repeats are medians (min–max, n).
 * This file holds the model stage (rows002, derive002, figures, conclusions) and the charts; the
 * sections are one module per group under ./sections/, the hook that joins them is ./hook.ts.
 */
import type { PublishedRow, Variant } from '../../types/study.ts';
import type { CellResult, Agg } from '../../types/run.ts';
import type { BaseModel, DeriveInput, FigureCheck, ConclusionRow } from '../../report/types.ts';
import type { ReportModel } from '../../report/model.ts';
import type { ChartLabels, ChartSpec } from '../../report/charts.ts';
import { int, ms, num, rps } from '../../report/format.ts';
import { aggregate } from '../../compute/stats/aggregate.ts';
import { boundVerdict, cellCpu, cpuBoundInputs, isolatedSutCores, cellWindow, windowRps as rateInWindowRps, type Bound, type BoundVerdict, type CellCpu, type CellWindow } from '../../compute/theory/cell-bounds.ts';
import { aloneHolding, boundsFor, cellHolding, checkPublished, dbPoolOf, LITTLE_P99_SLACK, MIXED_CRITICAL_PATH_MS, MIXED_STUDY_CLAIM_MS, REQUEST_SCENARIOS, type AloneHolding, type PublishedCheck, type StudyBoundKind } from './theory.ts';
import { STUDY_LEVEL } from './published.ts';
import { wsModel, type WsVariantModel } from './ws-push.ts';

/** The flags that say the host, not the code under test, may have set the limit (src/compute/analysis/flags.ts). */
export const HOST_FLAGS: readonly string[] = ['loadgen-lag', 'loadgen-late-sends', 'loadgen-cpu', 'host-cpu', 'host-other-cpu', 'sut-cpu', 'scheduler-delay'];

/** The report's scenario groups, in the source's chapter order. */
export const GROUPS: readonly { id: string; scenarios: readonly string[] }[] = [
  { id: 'io', scenarios: ['io-100ms'] },
  { id: 'cpu', scenarios: ['cpu-fib'] },
  { id: 'mixed', scenarios: ['mixed', 'mixed-structured'] },
  { id: 'db', scenarios: ['db-small', 'db-small-synchronized'] },
];

/** One (variant, level) of the run with its bounds and the acceptance verdict. */
export interface Row002 {
  variant: string;
  scenario: string;
  concurrency: number;
  repeats: number;
  /** whole run: successes / (last answer − first send), the study's definition (JMeter's summary) */
  throughputRps: Agg;
  /**
   * the rate in the cell's window (cellWindow: every worker in the loop, else the whole run): what
   * the bounds are checked against, so the ramp and the drain of a short cell do not count as a
   * limit; the CPU bound's D is measured over the same window
   */
  windowRps: Agg;
  /** the window kinds of the repeats, distinct, sorted */
  windowKinds: CellWindow['kind'][];
  p50Ms: Agg;
  p95Ms: Agg;
  p99Ms: Agg;
  execP50Ms: Agg;
  /** means over the cell's successes (median over repeats): E2E, execution (Server-Timing `exec`), queue wait P50, ms */
  e2eMeanMs: Agg;
  execMeanMs: Agg;
  queueP50Ms: Agg;
  errorRate: Agg;
  /** error answers by code, summed over repeats */
  errorKinds: Record<string, number>;
  /** other errors by class, summed */
  errorClasses: Record<string, number>;
  /** CPU ms per successful request over SUT + generator + mock + DB, in the window (cellCpu; median over repeats) */
  cpuMsPerRequest: number | null;
  /** the SUT's own CPU ms per successful request in the window (cellCpu sutMs / window successes; median over repeats) */
  sutCpuMsPerRequest: number | null;
  /** how the repeats' D was measured (CellCpu.basis), distinct, sorted */
  cpuBases: CellCpu['basis'][];
  /** the parts of D (`loadgen`, `mock`, `db`) a repeat took as a per-cell total, not in the window, distinct, sorted */
  cpuTotalParts: string[];
  /** host CPU busy % during the cell (median) */
  hostCpuPct: number | null;
  bounds: Bound[];
  smallest: Bound | null;
  /** median throughput / smallest bound */
  share: number | null;
  verdict: BoundVerdict;
  hostFlags: string[];
  rssMaxBytes: Agg;
  heapMaxBytes: Agg;
  platformThreadsMax: Agg;
  /** other Server-Timing entries: median over repeats of each entry's P50, ms */
  timingP50Ms: Record<string, number>;
  pinnedTotal: number | null;
  /** what one request of the variant held alone (the blocks' alone probes), null when not probed; the bounds use it */
  alone: AloneHolding | null;
}

const aggOf = (xs: readonly (number | null)[]): Agg => aggregate(xs);
const maxOf = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => (b > a ? b : a), xs[0]!));

/**
 * The SUT's start-up fib CPU per call for a variant's JVMs (`/bench/info` `fib.cpuMsPerCall`), median;
 * null when absent. Context only since the cells measure it (rows002): one JVM's start-up figure was
 * 2.6× its cells' (run 20261201-152237, cpu-pool-500: 119 ms against 43–57 ms).
 */
export function fibCpuMsPerCall(model: Pick<BaseModel, 'manifest'>, variant: string): number | null {
  const xs: number[] = [];
  for (const [block, info] of Object.entries(model.manifest.sut)) {
    if (!block.startsWith(`${variant}-`)) continue;
    const fib = (info as unknown as { fib?: { cpuMsPerCall?: unknown } }).fib;
    if (typeof fib?.cpuMsPerCall === 'number' && fib.cpuMsPerCall > 0) xs.push(fib.cpuMsPerCall);
  }
  return aggOf(xs).median;
}

/** Every (variant, level) of the run (pure). */
export function rows002(model: Pick<BaseModel, 'cells' | 'variants' | 'variantSpecs' | 'manifest'>): Row002[] {
  const out: Row002[] = [];
  const cores = model.manifest.host.cores;
  // --isolate-cpus: the CPU bounds are the SUT's own CPUs over its own CPU per request (cpuBoundInputs)
  const sutCores = isolatedSutCores(model.manifest.options);
  for (const v of model.variants) {
    const spec = model.variantSpecs.get(v);
    // scenario 5's cells (held WebSocket connections) have their own section and bounds
    const cellsV = model.cells.filter((c) => c.variant === v && c.load.e2eMs !== undefined && REQUEST_SCENARIOS.has(c.scenario));
    if (!spec || cellsV.length === 0) continue;
    const fibAtStart = fibCpuMsPerCall(model, v);
    const alone = aloneHolding(model.manifest.aloneProbes, v);
    for (const c of [...new Set(cellsV.map((x) => x.concurrency))].sort((a, b) => a - b)) {
      const cs = cellsV.filter((x) => x.concurrency === c).sort((a, b) => a.repeat - b.repeat);
      const scenario = cs[0]!.scenario;
      const p = (f: (e: NonNullable<CellResult['load']['e2eMs']>) => number) => aggOf(cs.map((x) => (x.load.e2eMs ? f(x.load.e2eMs) : null)));
      const cpus = cs.map((x) => cellCpu(x));
      const holds = cs.map((x) => cellHolding(x.load.timingMs));
      const inCell = { dbMs: aggOf(holds.map((x) => x.dbMs)).median, lockMs: aggOf(holds.map((x) => x.lockMs)).median };
      const cpuMsPerRequest = aggOf(cpus.map((x) => x.perRequestMs)).median;
      const sutCpuMsPerRequest = aggOf(cpus.map((x) => (x.sutMs !== null && x.window !== null && x.window.completions > 0 ? x.sutMs / x.window.completions : null))).median;
      // cpu-fib's CPU per call: what the SUT spent per call in this cell's window (the fib, plus about
      // 0.1 ms of HTTP handling); the JVM's start-up calibration only where the cell has no SUT CPU
      const cpuIn = cpuBoundInputs({ hostCores: cores, sutCores, allMsPerRequest: cpuMsPerRequest, sutMsPerRequest: sutCpuMsPerRequest });
      const b = boundsFor({ variant: spec, scenario, concurrency: c, cores: cpuIn.cores, cpuMsPerRequest: cpuIn.cpuMsPerRequest, fibCpuMsPerCall: sutCpuMsPerRequest ?? fibAtStart, alone, inCell });
      const throughputRps = aggOf(cs.map((x) => x.load.wholeRunThroughputRps));
      const hostFlags = [...new Set(cs.flatMap((x) => x.flags.filter((f) => HOST_FLAGS.includes(f.code)).map((f) => f.code)))].sort();
      const errorKinds: Record<string, number> = {};
      const errorClasses: Record<string, number> = {};
      for (const x of cs) {
        for (const [k, n] of Object.entries(x.load.errorKinds ?? {})) errorKinds[k] = (errorKinds[k] ?? 0) + n;
        for (const [k, n] of Object.entries(x.load.errors)) if (n > 0) errorClasses[k] = (errorClasses[k] ?? 0) + n;
      }
      const timingNames = [...new Set(cs.flatMap((x) => Object.keys(x.load.timingMs ?? {})))].sort();
      const timingP50Ms: Record<string, number> = {};
      for (const k of timingNames) {
        const m = aggOf(cs.map((x) => x.load.timingMs?.[k]?.p50 ?? null)).median;
        if (m !== null) timingP50Ms[k] = m;
      }
      const windows = cs.map((x) => cellWindow(x.load));
      const windowRps = aggOf(windows.map((w) => (w === null ? null : rateInWindowRps(w))));
      const windowKinds = [...new Set(windows.flatMap((w) => (w === null ? [] : [w.kind])))].sort();
      const share = windowRps.median !== null && b.smallest ? windowRps.median / b.smallest.rps : null;
      const pinned = cs.map((x) => x.pinned?.total ?? null).filter((x): x is number => x !== null);
      out.push({
        variant: v, scenario, concurrency: c, repeats: cs.length, throughputRps, windowRps, windowKinds,
        p50Ms: p((e) => e.p50), p95Ms: p((e) => e.p95), p99Ms: p((e) => e.p99),
        execP50Ms: aggOf(cs.map((x) => x.load.execMs?.p50 ?? null)),
        e2eMeanMs: p((e) => e.mean),
        execMeanMs: aggOf(cs.map((x) => x.load.execMs?.mean ?? null)),
        queueP50Ms: aggOf(cs.map((x) => x.load.queueMs?.p50 ?? null)),
        errorRate: aggOf(cs.map((x) => (x.load.count > 0 ? (x.load.count - x.load.ok) / x.load.count : null))),
        errorKinds, errorClasses, cpuMsPerRequest, sutCpuMsPerRequest,
        cpuBases: [...new Set(cpus.map((x) => x.basis))].sort(),
        cpuTotalParts: [...new Set(cpus.flatMap((x) => Object.entries(x.parts).filter(([, b]) => b === 'cell').map(([k]) => k)))].sort(),
        hostCpuPct: aggOf(cs.map((x) => x.loadgen.hostCpuPct)).median,
        bounds: b.bounds, smallest: b.smallest, share,
        verdict: boundVerdict(windowRps.median, b.smallest?.rps ?? null, hostFlags.length > 0),
        hostFlags,
        rssMaxBytes: aggOf(cs.map((x) => maxOf(x.samples.flatMap((s) => (s.rssBytes !== null ? [s.rssBytes] : []))))),
        heapMaxBytes: aggOf(cs.map((x) => maxOf(x.samples.map((s) => s.heapUsedBytes)))),
        platformThreadsMax: aggOf(cs.map((x) => maxOf(x.samples.map((s) => s.platformThreads)))),
        timingP50Ms,
        pinnedTotal: pinned.length === 0 ? null : pinned.reduce((a, b2) => a + b2, 0),
        alone,
      });
    }
  }
  return out;
}

/** Study 002's derived data (hook `derive`, ReportModel.derived): computed once per report, read by its figures, conclusions, sections and charts. */
export interface Derived002 {
  /** every (variant, level) of the request scenarios (rows002) */
  rows: Row002[];
  /** scenario 5's model per variant with WebSocket cells (src/studies/002/ws-push.ts wsModel) */
  ws: WsVariantModel[];
}

/** The hook's `derive`: the rows and scenario 5's model, once (pure). */
export function derive002(model: DeriveInput): Derived002 {
  return { rows: rows002(model), ws: wsModel(model) };
}

/** The highest level's row of a variant, or null. */
export function topRow(rows: readonly Row002[], variant: string): Row002 | null {
  const rs = rows.filter((r) => r.variant === variant);
  return rs.length === 0 ? null : rs[rs.length - 1]!;
}

/**
 * A published figure of 002: measured at this run's highest level of its variant (never the study's
 * 10,000), so its own gate says the levels differ; the bound the study's own setup implies is
 * printed with it (`always`), and "inconsistent as published" when the figure breaks it.
 */
export function figure(row: PublishedRow, model: BaseModel<Derived002>): FigureCheck {
  const rows = model.derived.rows;
  const r = row.variant ? topRow(rows, row.variant) : null;
  const measured = (): number | null => {
    if (!r) return null;
    if (row.metric === 'throughputRps') return r.throughputRps.median;
    if (row.metric === 'e2eP99Ms') return r.p99Ms.median;
    if (row.metric === 'memoryMB') return r.rssMaxBytes.median === null ? null : r.rssMaxBytes.median / 1e6;
    return null;
  };
  const chk = checkPublished([row, ...model.study.published.filter((p) => p.metric === 'throughputRps' && p.variant === row.variant)], model.study.variants as Variant[]).find((c) => c.rowId === row.id);
  const always = chk ? [consistencyReason(chk)] : [];
  return {
    measured,
    always,
    // the study's own statements rule the figure out: no run can reproduce it
    ...(chk?.verdict === 'inconsistent' ? { inconsistent: always } : {}),
    ownGate: [{ key: 'level002', v: { c: r ? int(r.concurrency) : '—', published: int(row.level ?? STUDY_LEVEL), cores: int(model.manifest.host.cores) } }],
  };
}

function consistencyReason(c: PublishedCheck): { key: string; v: Record<string, string> } {
  if (c.littleMeanMs !== undefined) return { key: c.verdict === 'inconsistent' ? 'little002.inconsistent' : 'little002.ok', v: { mean: ms(c.littleMeanMs), slack: `${num(LITTLE_P99_SLACK * 100, 0)} %` } };
  const b = c.bound!;
  const key = b.kind === 'studyCpu' ? 'studyCpu002' : 'bound002';
  return { key: `${key}.${c.verdict === 'inconsistent' ? 'inconsistent' : 'ok'}`, v: { bound: rps(b.rps), arithmetic: arithmetic(b) } };
}

/** The arithmetic of a bound, e.g. `10 / 0.005 s`, `min(10,000, 200) / 0.1 s`, `2 / 0.1 s`. */
export function arithmetic(b: { kind: StudyBoundKind; inputs: Bound['inputs'] }): string {
  // whole ms (nominal holds) to the ms, measured ones to 10 µs
  const s = (x: number | undefined) => num((x ?? 0) / 1000, Number.isInteger(x ?? 0) ? 3 : 5).replace(/\.?0+$/, '');
  const i = b.inputs;
  switch (b.kind) {
    case 'executor':
      if (i['aloneE2eMs'] !== undefined) return i['threads'] !== undefined ? `min(${int(i['concurrency'])} / ${s(i['aloneE2eMs'])} s, ${int(i['threads'])} / ${s(i['holdMs'])} s)` : `${int(i['concurrency'])} / ${s(i['aloneE2eMs'])} s`;
      return i['threads'] !== undefined ? `min(${int(i['concurrency'])}, ${int(i['threads'])}) / ${s(i['holdMs'])} s` : `${int(i['concurrency'])} / ${s(i['holdMs'])} s`;
    case 'dbPool': return `${int(i['pool'])} / ${s(i['dbMs'])} s`;
    case 'lock': return `1 / ${s(i['lockMs'])} s`;
    case 'cpuPerCall': return `${int(i['cores'])} / ${s(i['cpuMsPerCall'])} s`;
    case 'cpu': return `${int(i['cores'])} / ${num((i['cpuMsPerRequest'] ?? 0) / 1000, 5)} s`;
    // as the study prints it (§4.3): "8 核 × 1000ms / 50ms = 160 QPS/核 = 1,280 QPS", i.e. 8 × (8 × 1 s / 0.05 s)
    case 'studyCpu': return `${int(i['cores'])} × (${int(i['cores'])} × 1 s / ${s(i['cpuMs'])} s)`;
  }
}

/** Conclusions: the acceptance rule per cell, and the fan-out's critical path. */
export function conclusions(model: BaseModel<Derived002>): ConclusionRow[] {
  const rows = model.derived.rows;
  const out: ConclusionRow[] = rows.map((r) => ({
    id: `${r.variant}.c${r.concurrency}.bound`, kind: 'proven',
    verdict: r.verdict === 'within' ? 'reproduced' : r.verdict === 'unknown' || r.verdict === 'below-95-host-flag' ? 'not testable here' : 'not reproduced',
    evidence: { variant: r.variant, c: r.concurrency, measuredRps: r.throughputRps.median, boundRps: r.smallest?.rps ?? null, bound: r.smallest?.kind ?? null, share: r.share, verdict: r.verdict },
    // a cell reaching its own bound (N / L, the pool, the lock, the CPU) checks this run's setup, not the study
    identity: 'boundReached',
  }));
  const cp = criticalPath(rows);
  // the study's statement is 100 ms: reproduced when the measured critical path is nearer to it than to max(50 + 100, 80) = 150 ms
  if (cp) out.push({ id: 'structured.criticalPath', kind: 'proven', verdict: Math.abs(cp.measuredMs - MIXED_STUDY_CLAIM_MS) < Math.abs(cp.measuredMs - MIXED_CRITICAL_PATH_MS) ? 'reproduced' : 'not reproduced', evidence: { measuredMs: cp.measuredMs, c: cp.c, theoryMs: MIXED_CRITICAL_PATH_MS, studyMs: MIXED_STUDY_CLAIM_MS } });
  return out;
}

/** The fan-out's critical path: `virtual-structured`'s execution P50 at its lowest level (least waiting for a DB connection). */
export function criticalPath(rows: readonly Row002[]): { measuredMs: number; c: number; serialMs: number | null } | null {
  const st = rows.filter((r) => r.variant === 'mixed-virtual-structured' && r.execP50Ms.median !== null);
  if (st.length === 0) return null;
  const low = st[0]!;
  const serial = rows.find((r) => r.variant === 'mixed-virtual' && r.concurrency === low.concurrency);
  return { measuredMs: low.execP50Ms.median!, c: low.concurrency, serialMs: serial?.execP50Ms.median ?? null };
}

/** Throughput and P99 per scenario group and variant, with each cell's smallest bound drawn. */
export function charts(model: ReportModel<Derived002>, t: ChartLabels): ChartSpec[] {
  const rows = model.derived.rows;
  const group = (sc: string) => GROUPS.find((g) => g.scenarios.includes(sc))?.id ?? sc;
  const thr: Record<string, unknown>[] = [];
  const lat: Record<string, unknown>[] = [];
  for (const r of rows) {
    if (r.throughputRps.median !== null) thr.push({ scenario: group(r.scenario), variant: r.variant, concurrency: r.concurrency, series: t.measured, rps: Math.round(r.throughputRps.median * 100) / 100 });
    if (r.smallest) thr.push({ scenario: group(r.scenario), variant: r.variant, concurrency: r.concurrency, series: t.bound, rps: Math.round(r.smallest.rps * 100) / 100 });
    if (r.p99Ms.median !== null && r.p99Ms.median > 0) lat.push({ scenario: group(r.scenario), variant: r.variant, concurrency: r.concurrency, ms: Math.round(r.p99Ms.median * 1000) / 1000 });
  }
  const CONFIG = { font: 'Helvetica, Arial, sans-serif', background: 'white', axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 120 }, legend: { labelFontSize: 11, labelLimit: 220 }, header: { labelFontSize: 12 }, title: { fontSize: 14, anchor: 'start' as const, limit: 1200 } };
  const facet = { field: 'scenario', type: 'nominal' as const, title: null, sort: GROUPS.map((g) => g.id) };
  return [
    { name: 'throughput-002', title: t.throughput, spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json', title: t.throughput, config: CONFIG, data: { values: thr },
      facet: { column: facet }, resolve: { scale: { y: 'independent', x: 'independent' } },
      spec: { width: 200, height: 220, mark: { type: 'line', point: true }, encoding: {
        x: { field: 'concurrency', type: 'quantitative', title: t.concurrency, scale: { type: 'log' } },
        y: { field: 'rps', type: 'quantitative', title: t.rps, scale: { type: 'log' } },
        color: { field: 'variant', type: 'nominal', title: t.mode },
        strokeDash: { field: 'series', type: 'nominal', title: t.series, scale: { domain: [t.measured, t.bound], range: [[1, 0], [6, 4]] } },
        detail: { field: 'series' },
      } },
    } as unknown as ChartSpec['spec'] },
    { name: 'p99-002', title: t.e2e, spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json', title: 'P99', config: CONFIG, data: { values: lat },
      facet: { column: facet }, resolve: { scale: { y: 'independent', x: 'independent' } },
      spec: { width: 200, height: 220, mark: { type: 'line', point: true }, encoding: {
        x: { field: 'concurrency', type: 'quantitative', title: t.concurrency, scale: { type: 'log' } },
        y: { field: 'ms', type: 'quantitative', title: t.latencyMs, scale: { type: 'log' } },
        color: { field: 'variant', type: 'nominal', title: t.mode },
      } },
    } as unknown as ChartSpec['spec'] },
  ];
}

/** for tests: the pool of a variant as the theory reads it */
export { dbPoolOf };
