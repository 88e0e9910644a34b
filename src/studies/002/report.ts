/**
 * Study 002's part of its report (Study.report, src/report/types.ts): per scenario and variant, the
 * measured throughput and latency beside every bound a request's resources set (executor, DB pool,
 * shared lock, CPU; src/studies/002/theory.ts) and the one that limited it; the acceptance rule of
 * issue 12 per cell (≤ smallest bound × 1.02; ≥ 95 % of it unless a host flag is raised); error
 * answers by their own code (`db_pool_exhausted`); the fan-out's critical path against 150 ms and
 * the study's 100 ms; the pinning pitfall's JFR count; every published figure beside the bound the
 * study's own setup implies and beside this run. Values across repeats are medians (min–max, n).
 */
import type { PublishedRow, Variant } from '../../types/study.ts';
import type { CellResult, Agg } from '../../types/run.ts';
import type { BaseModel, DeriveInput, FigureCheck, StudyReportHook, ConclusionRow } from '../../report/types.ts';
import type { ReportModel } from '../../report/model.ts';
import type { RenderContext } from '../../report/render-md.ts';
import type { ChartLabels, ChartSpec } from '../../report/charts.ts';
import { Raw, aggText, code, int, mib, ms, num, pct, raw, rps, table } from '../../report/format.ts';
import { aggregate } from '../../compute/stats/aggregate.ts';
import { boundVerdict, cellCpu, cellWindow, windowRps as rateInWindowRps, type Bound, type BoundVerdict, type CellCpu, type CellWindow } from '../../compute/theory/cell-bounds.ts';
import { aloneHolding, boundsFor, cellHolding, probesOf, checkPublished, dbPoolOf, holding, MIXED_CRITICAL_PATH_MS, MIXED_STUDY_CLAIM_MS, REQUEST_SCENARIOS, type AloneHolding, type PublishedCheck } from './theory.ts';
import { STUDY_LEVEL } from './published.ts';
import { wsCharts, wsModel, wsSections, type WsVariantModel } from './ws-push.ts';

/** The flags that say the host, not the code under test, may have set the limit (src/compute/analysis/flags.ts). */
export const HOST_FLAGS: readonly string[] = ['loadgen-lag', 'loadgen-late-sends', 'loadgen-cpu', 'host-cpu', 'sut-cpu', 'scheduler-delay'];

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
      const b = boundsFor({ variant: spec, scenario, concurrency: c, cores, cpuMsPerRequest, fibCpuMsPerCall: sutCpuMsPerRequest ?? fibAtStart, alone, inCell });
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
function topRow(rows: readonly Row002[], variant: string): Row002 | null {
  const rs = rows.filter((r) => r.variant === variant);
  return rs.length === 0 ? null : rs[rs.length - 1]!;
}

/**
 * A published figure of 002: measured at this run's highest level of its variant (never the study's
 * 10,000), so its own gate says the levels differ; the bound the study's own setup implies is
 * printed with it (`always`), and "inconsistent as published" when the figure breaks it.
 */
function figure(row: PublishedRow, model: BaseModel<Derived002>): FigureCheck {
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
    ownGate: [{ key: 'level002', v: { c: r ? int(r.concurrency) : '—', published: int(row.level ?? STUDY_LEVEL), cores: int(model.manifest.host.cores) } }],
  };
}

function consistencyReason(c: PublishedCheck): { key: string; v: Record<string, string> } {
  if (c.littleMeanMs !== undefined) return { key: c.verdict === 'inconsistent' ? 'little002.inconsistent' : 'little002.ok', v: { mean: ms(c.littleMeanMs) } };
  const b = c.bound!;
  return { key: c.verdict === 'inconsistent' ? 'bound002.inconsistent' : 'bound002.ok', v: { bound: rps(b.rps), arithmetic: arithmetic(b) } };
}

/** The arithmetic of a bound, e.g. `10 / 0.005 s`, `min(10,000, 200) / 0.1 s`, `2 / 0.1 s`. */
export function arithmetic(b: Pick<Bound, 'kind' | 'inputs'>): string {
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
  }
}

/** Conclusions: the acceptance rule per cell, and the fan-out's critical path. */
function conclusions(model: BaseModel<Derived002>): ConclusionRow[] {
  const rows = model.derived.rows;
  const out: ConclusionRow[] = rows.map((r) => ({
    id: `${r.variant}.c${r.concurrency}.bound`, kind: 'proven',
    verdict: r.verdict === 'within' ? 'reproduced' : r.verdict === 'unknown' || r.verdict === 'below-95-host-flag' ? 'not tested here' : 'not reproduced',
    evidence: { variant: r.variant, c: r.concurrency, measuredRps: r.throughputRps.median, boundRps: r.smallest?.rps ?? null, bound: r.smallest?.kind ?? null, share: r.share, verdict: r.verdict },
  }));
  const cp = criticalPath(rows);
  if (cp) out.push({ id: 'structured.criticalPath', kind: 'proven', verdict: Math.abs(cp.measuredMs - MIXED_CRITICAL_PATH_MS) <= Math.abs(cp.measuredMs - MIXED_STUDY_CLAIM_MS) ? 'reproduced' : 'not reproduced', evidence: { measuredMs: cp.measuredMs, c: cp.c, theoryMs: MIXED_CRITICAL_PATH_MS, studyMs: MIXED_STUDY_CLAIM_MS } });
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

const aggMs = (a: Agg) => aggText(a, (x) => ms(x));

/** The study's own placeholders (pure: model + phrases → Markdown). */
function sections(model: ReportModel<Derived002>, ctx: RenderContext): Record<string, string | Raw> {
  const { s, variantName } = ctx;
  const rows = model.derived.rows;
  const out: Record<string, string | Raw> = {};
  const o = model.manifest.options;

  // test design: scenarios, their holding times and levels
  const scenarios = [...new Set(model.study.variants.filter((v) => o.variants.includes(v.id)).map((v) => v.scenario ?? o.scenario))].filter((id) => REQUEST_SCENARIOS.has(id));
  out['cpuBasis'] = cpuBasisText(rows, ctx);
  out['designTable'] = table([s('h.scenario'), s('h.what'), s('h.holds'), s('h.levels'), s('h.reqPerWorker'), s('h.variants')],
    scenarios.map((id) => {
      const sc = model.study.scenarios.find((x) => x.id === id)!;
      const h = holding(id);
      const lv = o.scenarioLevels?.[id] ?? { levels: o.levels, requestsPerWorker: o.requestsPerWorker };
      const holds = [s('hold.thread', { ms: int(h.threadMs) }), ...(h.dbMs !== null ? [s('hold.db', { ms: int(h.dbMs) })] : []), ...(h.lockMs !== null ? [s('hold.lock', { ms: int(h.lockMs) })] : []), ...(h.cpuMs !== null ? [s('hold.cpu', { ms: int(h.cpuMs) })] : [])].join('; ');
      return [code(id), sc.label, holds, lv.levels.map(int).join(', '), int(lv.requestsPerWorker), o.variants.filter((v) => (model.variantSpecs.get(v)?.scenario ?? o.scenario) === id).map((v) => variantName(v)).join(', ')];
    }), ['l', 'l', 'l', 'r', 'r', 'l']);
  const db = model.manifest.db;
  out['dbInfo'] = db ? ctx.P(db.kind === 'own' ? 'db.own' : 'db.external', { version: db.serverVersion, url: db.url, maxConn: db.settings['max_connections'] ?? '—', buffers: db.settings['shared_buffers'] ?? '—', fsync: db.settings['fsync'] ?? '—', rows: int(db.ordersRows) }) : s('db.none');
  out['sutInfo002'] = sutInfo(model, ctx);
  out['aloneProbe'] = aloneSection(model, rows, ctx);

  // one section per scenario group
  for (const g of GROUPS) {
    const rs = rows.filter((r) => g.scenarios.includes(r.scenario));
    out[`${g.id}Table`] = rs.length === 0 ? s('none') : resultTable(rs, ctx);
    out[`${g.id}Bounds`] = rs.length === 0 ? '' : boundTable(rs, ctx);
    out[`${g.id}Analysis`] = rs.length === 0 ? '' : analysis(rs, ctx, model.manifest.host.cores, model);
  }
  const cp = criticalPath(rows);
  out['criticalPath'] = cp ? ctx.P('cp.text', { measured: ms(cp.measuredMs), c: int(cp.c), theory: int(MIXED_CRITICAL_PATH_MS), study: int(MIXED_STUDY_CLAIM_MS), serial: cp.serialMs === null ? '—' : ms(cp.serialMs), closer: Math.abs(cp.measuredMs - MIXED_CRITICAL_PATH_MS) <= Math.abs(cp.measuredMs - MIXED_STUDY_CLAIM_MS) ? int(MIXED_CRITICAL_PATH_MS) : int(MIXED_STUDY_CLAIM_MS) }) : ctx.P('cp.none');
  const timings = rows.filter((r) => Object.keys(r.timingP50Ms).length > 0);
  out['mixedTimings'] = timings.length === 0 ? '' : table([s('h.variant'), 'c', 'db P50', 'user P50', 'logistics P50', s('h.execP50')],
    timings.map((r) => [variantName(r.variant), int(r.concurrency), ms(r.timingP50Ms['db']), ms(r.timingP50Ms['user']), ms(r.timingP50Ms['logistics']), aggMs(r.execP50Ms)]), ['l', 'r', 'r', 'r', 'r', 'r']);

  // pitfalls: synchronized pinning (JFR), pool exhaustion with the CPU seen during it
  const sync = rows.filter((r) => r.scenario === 'db-small-synchronized');
  out['pinning002'] = sync.length === 0 ? ctx.P('pin002.none') : table([s('h.variant'), 'c', s('h.throughput'), s('h.smallest'), 'P99', s('h.pinned', { threshold: int(o.pinnedThresholdMs) })],
    sync.map((r) => [variantName(r.variant), int(r.concurrency), aggText(r.throughputRps, (x) => rps(x)), r.smallest ? `${rps(r.smallest.rps)} (${s(`bound.${r.smallest.kind}`)})` : '—', aggMs(r.p99Ms), r.pinnedTotal === null ? '—' : int(r.pinnedTotal)]), ['l', 'r', 'r', 'r', 'r', 'r']);
  const exhausted = rows.filter((r) => (r.errorKinds['db_pool_exhausted'] ?? 0) > 0);
  out['exhaustion'] = exhausted.length === 0 ? ctx.P('exh.none') : table([s('h.variant'), 'c', 'db_pool_exhausted', s('h.errorRate'), s('h.hostCpu'), s('h.cpuPerReq')],
    exhausted.map((r) => [variantName(r.variant), int(r.concurrency), int(r.errorKinds['db_pool_exhausted']), aggText(r.errorRate, (x) => pct(x === null ? null : x * 100)), pct(r.hostCpuPct), r.cpuMsPerRequest === null ? '—' : `${num(r.cpuMsPerRequest, 3)} ms`]), ['l', 'r', 'r', 'r', 'r', 'r']);
  out['hikariVersion'] = hikariLine(model, ctx);

  // every published figure: published, the study's own bound, this run
  const checks = new Map(checkPublished(model.study.published, model.study.variants as Variant[]).map((c) => [c.rowId, c]));
  out['publishedVsBound'] = table([s('h.figure'), s('h.published'), s('h.studyBound'), s('h.consistency'), s('h.measured'), s('h.ourBound')],
    // scenario 5's figures (connections carried) are compared in its own section, with its own rule
    model.study.published.filter((p) => p.scenario === null || REQUEST_SCENARIOS.has(p.scenario)).map((p) => {
      const c = checks.get(p.id);
      const r = p.variant ? topRow(rows, p.variant) : null;
      const m = p.metric === 'throughputRps' ? r?.throughputRps.median : p.metric === 'e2eP99Ms' ? r?.p99Ms.median : p.metric === 'memoryMB' && r?.rssMaxBytes.median != null ? r.rssMaxBytes.median / 1e6 : null;
      const unit = (x: number | null | undefined) => (x === null || x === undefined ? '—' : p.unit === 'req/s' ? rps(x) : p.unit === 'ms' ? ms(x) : `${num(x, 0)} MB`);
      const studyBound = c?.littleMeanMs !== undefined ? s('little002.mean', { mean: ms(c.littleMeanMs) }) : c?.bound ? `${rps(c.bound.rps)} = ${arithmetic(c.bound as Bound)} (${s(`bound.${c.bound.kind}`)})` : p.setupIdentity ? s(`identity.${p.setupIdentity}`) : '—';
      const consistency = c ? s(`consistency.${c.verdict}`) : '—';
      const ours = r?.smallest && p.metric === 'throughputRps' ? `${rps(r.smallest.rps)} (${s(`bound.${r.smallest.kind}`)}, c = ${int(r.concurrency)})` : r ? `c = ${int(r.concurrency)}` : '—';
      return [`${variantName(p.variant ?? '')} ${s(`metric.${p.metric}`)}`, unit(p.value as number), studyBound, consistency, unit(m ?? null), ours];
    }), ['l', 'r', 'l', 'l', 'r', 'l']);

  // the acceptance summary: per scenario, the bound that limited each variant
  out['limits'] = table([s('h.scenario'), s('h.variant'), 'c', s('h.windowRps'), s('h.smallest'), s('h.share'), s('h.acceptance'), s('h.hostFlags')],
    rows.map((r) => [code(r.scenario), variantName(r.variant), int(r.concurrency), windowText(r, ctx), r.smallest ? `${rps(r.smallest.rps)} (${s(`bound.${r.smallest.kind}`)})` : '—', pct(r.share === null ? null : r.share * 100), s(`acc.${r.verdict}`), r.hostFlags.length ? r.hostFlags.join(', ') : '—']),
    ['l', 'l', 'r', 'r', 'l', 'r', 'l', 'l']);
  const counts = { within: 0, above: 0, below: 0, flagged: 0 };
  for (const r of rows) {
    if (r.verdict === 'within') counts.within++;
    else if (r.verdict === 'above-bound') counts.above++;
    else if (r.verdict === 'below-95') counts.below++;
    else if (r.verdict === 'below-95-host-flag') counts.flagged++;
  }
  out['limitsSummary'] = s('acc.summary', { n: int(rows.length), within: int(counts.within), above: int(counts.above), below: int(counts.below), flagged: int(counts.flagged) });
  out['decisionTable'] = decisionTable(rows, ctx);
  return out;
}

/** Measured vs theory per (variant, level): throughput, latency, errors, memory. */
function resultTable(rs: readonly Row002[], ctx: RenderContext): Raw {
  const { s, variantName } = ctx;
  return table([s('h.variant'), 'c', s('h.throughput'), 'P50', 'P95', 'P99', s('h.errors'), 'RSS', s('h.heap'), s('h.platformThreads')],
    rs.map((r) => [variantName(r.variant), int(r.concurrency), aggText(r.throughputRps, (x) => rps(x)), aggMs(r.p50Ms), aggMs(r.p95Ms), aggMs(r.p99Ms), errorsText(r, ctx),
      aggText(r.rssMaxBytes, (x) => mib(x)), aggText(r.heapMaxBytes, (x) => mib(x)), aggText(r.platformThreadsMax, (x) => int(x))]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'l', 'r', 'r', 'r']);
}

function errorsText(r: Row002, ctx: RenderContext): string {
  const parts = [...Object.entries(r.errorKinds).map(([k, n]) => `${k} ${int(n)}`), ...Object.entries(r.errorClasses).filter(([k]) => k !== 'http' || Object.keys(r.errorKinds).length === 0).map(([k, n]) => `${k} ${int(n)}`)];
  return parts.length === 0 ? '0' : `${aggText(r.errorRate, (x) => pct(x === null ? null : x * 100, 2))} (${parts.join(', ')})`.replace(/^/, ctx.s('errors.prefix'));
}

/** A row's window rate with the window it was measured in, e.g. `396.36 req/s (all workers)`. */
function windowText(r: Row002, ctx: RenderContext): string {
  const rate = aggText(r.windowRps, (x) => rps(x));
  return r.windowKinds.length === 0 ? rate : `${rate} (${r.windowKinds.map((k) => ctx.s(`win.${k}`)).join(', ')})`;
}

/** Every bound of each (variant, level), the smallest in bold, and the acceptance verdict. */
function boundTable(rs: readonly Row002[], ctx: RenderContext): Raw {
  const { s, variantName } = ctx;
  const kinds: Bound['kind'][] = ['executor', 'dbPool', 'lock', 'cpuPerCall', 'cpu'];
  const used = kinds.filter((k) => rs.some((r) => r.bounds.some((b) => b.kind === k)));
  return table([s('h.variant'), 'c', s('h.windowRps'), ...used.map((k) => s(`bound.${k}`)), s('h.share'), s('h.acceptance')],
    rs.map((r) => [variantName(r.variant), int(r.concurrency), windowText(r, ctx),
      ...used.map((k) => {
        const b = r.bounds.find((x) => x.kind === k);
        if (!b) return '—';
        const t = `${rps(b.rps)} = ${arithmetic(b)}`;
        return r.smallest?.kind === k ? raw(`**${t}**`) : t;
      }),
      pct(r.share === null ? null : r.share * 100), s(`acc.${r.verdict}`)]),
    ['l', 'r', 'r', ...used.map(() => 'l' as const), 'r', 'l']);
}

/** One sentence per variant: what limited it, and the host flags when raised. */
function analysis(rs: readonly Row002[], ctx: RenderContext, cores: number, model: Pick<BaseModel, 'manifest'>): Raw {
  const { s, variantName } = ctx;
  const lines: string[] = [];
  // cpu-fib: the CPU per call the bound uses (the cells') beside the JVM's start-up calibration
  const fibRows = rs.filter((r) => r.scenario === 'cpu-fib' && r.sutCpuMsPerRequest !== null);
  if (fibRows.length > 0) {
    lines.push(s('an.fibIntro'), '');
    for (const v of [...new Set(fibRows.map((r) => r.variant))]) {
      const vr = fibRows.filter((r) => r.variant === v);
      const start = fibCpuMsPerCall(model, v);
      const ns = [...new Set(Object.entries(model.manifest.sut).filter(([b]) => b.startsWith(`${v}-`)).map(([, i]) => (i as unknown as { fib?: { n?: number } }).fib?.n).filter((n): n is number => typeof n === 'number'))];
      const cellMs = vr.map((r) => r.sutCpuMsPerRequest!);
      const ratio = start === null ? '—' : num(start / aggOf(cellMs).median!, 2);
      lines.push(`- ${s('an.fibVariant', { variant: variantName(v), n: ns.length > 0 ? ns.join(', ') : '—', cells: vr.map((r) => `${num(r.sutCpuMsPerRequest!, 1)} (c = ${int(r.concurrency)})`).join(', '), start: start === null ? '—' : num(start, 1), ratio })}`);
    }
    lines.push('');
  }
  for (const v of [...new Set(rs.map((r) => r.variant))]) {
    const vr = rs.filter((r) => r.variant === v);
    const parts = vr.map((r) => s('an.cell', { c: int(r.concurrency), bound: r.smallest ? s(`bound.${r.smallest.kind}`) : '—', share: pct(r.share === null ? null : r.share * 100), flags: r.hostFlags.length ? s('an.flags', { flags: r.hostFlags.join(', ') }) : '' }));
    lines.push(`- ${s('an.variant', { variant: variantName(v), cells: parts.join('; ') })}`);
  }
  if (rs.some((r) => r.smallest?.kind === 'cpu')) lines.push('', s('an.cpuHost', { cores: int(cores) }));
  // below 95 % of the executor bound with no host flag: the nominal holding time against the measured
  // execution and E2E (Little's law: a closed loop of c workers runs at c / E2E)
  for (const r of rs.filter((x) => x.verdict === 'below-95' && x.smallest?.kind === 'executor' && x.e2eMeanMs.median !== null)) {
    const e2e = r.e2eMeanMs.median!;
    if (r.alone?.e2eMs != null) {
      // the bound counted R(1): the rest is what concurrency added to each request on this host
      // which term of min(c / R(1), N / execution alone) bound the cell
      const i = r.smallest!.inputs; // the filter above kept executor-limited rows only
      const poolTerm = i['threads'] !== undefined && i['threads'] / i['holdMs']! < r.concurrency / r.alone.e2eMs;
      lines.push('', s('an.belowNoFlagAlone', {
        term: s(poolTerm ? 'alone.term.pool' : 'alone.term.population'),
        variant: variantName(r.variant), c: int(r.concurrency), alone: ms(r.alone.e2eMs), e2e: ms(e2e),
        exec: r.execMeanMs.median === null ? '—' : ms(r.execMeanMs.median), aloneExec: r.alone.threadMs === null ? '—' : ms(r.alone.threadMs),
        queue: r.queueP50Ms.median === null ? '—' : ms(r.queueP50Ms.median),
        little: rps((r.concurrency / e2e) * 1000), measured: r.windowRps.median === null ? '—' : rps(r.windowRps.median), host: pct(r.hostCpuPct),
      }));
      continue;
    }
    lines.push('', s('an.belowNoFlag', {
      variant: variantName(r.variant), c: int(r.concurrency), nominal: ms(holding(r.scenario).threadMs),
      exec: r.execMeanMs.median === null ? '—' : ms(r.execMeanMs.median), e2e: ms(e2e),
      queue: r.queueP50Ms.median === null ? '—' : ms(r.queueP50Ms.median),
      little: rps((r.concurrency / e2e) * 1000), measured: r.windowRps.median === null ? '—' : rps(r.windowRps.median),
      host: pct(r.hostCpuPct),
    }));
  }
  // above the measured CPU bound: X · D > cores is impossible, so D's per-cell parts are overstated in the window
  const above = rs.filter((r) => r.verdict === 'above-bound' && r.smallest?.kind === 'cpu' && r.windowRps.median !== null && r.cpuMsPerRequest !== null);
  if (above.length > 0) {
    const busy = above.map((r) => (r.windowRps.median! * r.cpuMsPerRequest!) / 1000);
    // every part of D in the window: the per-cell totals cannot explain it
    const windowed = above.every((r) => r.cpuTotalParts.length === 0 && r.cpuBases.includes('windowed'));
    lines.push('', s(windowed ? 'an.cpuAboveWindowed' : 'an.cpuAbove', { cells: above.map((r) => `${variantName(r.variant)}, c = ${int(r.concurrency)}`).join('; '), busy: busy.map((b) => num(b, 2)).join('; '), cores: int(cores) }));
  }
  // the phrases are escaped Markdown already; the list marks are ours
  return raw(lines.join('\n'));
}

/**
 * How D was measured, for the report's "Bounds" paragraph: the per-cell-totals text of every run
 * before the component samples when no cell has them (so those reports render as before), the
 * windowed text when every part of every cell is windowed, else the windowed text and the cells
 * whose parts (named) are per-cell totals.
 */
export function cpuBasisText(rows: readonly Row002[], ctx: RenderContext): Raw {
  if (rows.every((r) => r.cpuBases.every((b) => b === 'per-cell-totals'))) return ctx.P('cpuBasis.totals');
  const totals = rows.filter((r) => r.cpuTotalParts.length > 0);
  if (totals.length === 0) return ctx.P('cpuBasis.windowed');
  const cells = totals.map((r) => `${ctx.variantName(r.variant)}, c = ${int(r.concurrency)} (${r.cpuTotalParts.map((k) => ctx.s(`cpuPart.${k}`)).join(', ')})`).join('; ');
  return ctx.join([ctx.P('cpuBasis.windowed'), ctx.P('cpuBasis.except', { cells })]);
}

/**
 * The holding times measured alone (RunManifest.aloneProbes) beside the nominal ones, per probed
 * variant: requests ok, execution, R(1), the `db` step, and R(1) / nominal thread hold (how far this
 * host's fixed cost per request moves the executor bound). '' when the run has no probe (runs before it).
 */
function aloneSection(model: Pick<BaseModel, 'manifest'>, rows: readonly Row002[], ctx: RenderContext): string | Raw {
  const probes = model.manifest.aloneProbes ?? {};
  const variants = [...new Set(rows.filter((r) => r.alone !== null).map((r) => r.variant))];
  if (variants.length === 0) return '';
  const { s, variantName } = ctx;
  const body = variants.map((v) => {
    const r = rows.find((x) => x.variant === v)!;
    const a = r.alone!;
    const h = holding(r.scenario);
    const ps = probesOf(probes, v);
    const ok = `${int(ps.reduce((t, p) => t + p.ok, 0))} / ${int(ps.reduce((t, p) => t + (p.sent ?? p.requests), 0))}`;
    return [variantName(v), code(r.scenario), ok, ms(h.threadMs), a.threadMs === null ? '—' : ms(a.threadMs), a.e2eMs === null ? '—' : ms(a.e2eMs),
      h.dbMs === null ? '—' : `${ms(h.dbMs)} → ${a.dbMs === null ? '—' : ms(a.dbMs)}`, a.e2eMs === null ? '—' : num(a.e2eMs / h.threadMs, 3)];
  });
  const n = [...new Set(Object.values(probes).map((p) => p.requests))].sort((x, y) => x - y).map(int).join(', ');
  return raw(`${ctx.P('alone.intro', { n }).md}\n\n${table([s('h.variant'), s('h.scenario'), s('alone.ok'), s('alone.nominal'), s('alone.exec'), s('alone.e2e'), s('alone.db'), s('alone.ratio')], body, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r']).md}`);
}

/** What the SUT reported of its scenarios (`/bench/info`: fib calibration, HTTP client, DB pool), per JVM. */
function sutInfo(model: ReportModel, ctx: RenderContext): string | Raw {
  const rowsOut: (string | Raw)[][] = [];
  for (const [block, info] of Object.entries(model.manifest.sut).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const x = info as unknown as { fib?: Record<string, unknown>; http?: Record<string, unknown>; db?: Record<string, unknown> };
    const show = (o: Record<string, unknown> | undefined) => (o ? Object.entries(o).filter(([, v]) => v !== null && typeof v !== 'object').map(([k, v]) => `${k} ${String(v)}`).join(', ') : '—');
    rowsOut.push([block, show(x.fib), show(x.http), show(x.db)]);
  }
  return rowsOut.length === 0 ? ctx.s('none') : table([ctx.s('h.block'), 'fib', ctx.s('h.httpClient'), ctx.s('h.dbPool')], rowsOut, ['l', 'l', 'l', 'l']);
}

/** The HikariCP version the SUT resolved, from `/bench/info` `db.hikariVersion` (issue 2398's `Thread.yield()` spin). */
function hikariLine(model: ReportModel, ctx: RenderContext): string | Raw {
  const versions = [...new Set(Object.values(model.manifest.sut).map((i) => (i as unknown as { db?: { hikariVersion?: unknown } }).db?.hikariVersion).filter((x): x is string => typeof x === 'string'))];
  return versions.length === 0 ? ctx.s('hikari.unknown') : ctx.P('hikari.version', { versions: versions.join(', ') });
}

/** The study's decision tree (§9.1) beside what this run measured per scenario: virtual ÷ best pool at the highest level. */
function decisionTable(rows: readonly Row002[], ctx: RenderContext): Raw {
  const { s } = ctx;
  const line = (g: string, pools: string[], vt: string) => {
    const best = pools.map((p) => topRow(rows, p)).filter((r): r is Row002 => r !== null && r.throughputRps.median !== null).sort((a, b) => b.throughputRps.median! - a.throughputRps.median!)[0];
    const v = topRow(rows, vt);
    const ratio = best && v?.throughputRps.median != null ? v.throughputRps.median / best.throughputRps.median! : null;
    return [s(`dec.${g}.study`), ratio === null ? '—' : `${num(ratio, 2)}× (c = ${int(v!.concurrency)}; ${s(`bound.${v!.smallest?.kind ?? 'executor'}`)})`, s(`dec.${g}.note`)];
  };
  return table([s('h.scenario'), s('h.studySays'), s('h.vtVsPool'), s('h.note')], [
    [s('dec.io'), ...line('io', ['io-pool-200', 'io-pool-500'], 'io-virtual')],
    [s('dec.cpu'), ...line('cpu', ['cpu-pool-200', 'cpu-pool-500'], 'cpu-virtual')],
    [s('dec.mixed'), ...line('mixed', ['mixed-pool-200', 'mixed-pool-500'], 'mixed-virtual')],
    [s('dec.db'), ...line('db', ['db10-pool-200', 'db10-pool-500'], 'db10-virtual')],
  ], ['l', 'l', 'r', 'l']);
}

/** Throughput and P99 per scenario group and variant, with each cell's smallest bound drawn. */
function charts(model: ReportModel<Derived002>, t: ChartLabels): ChartSpec[] {
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

/**
 * Study 002's report hook: its derived rows (derive002), the published figures at this run's levels,
 * the acceptance rule per cell, its own sections and charts, with scenario 5's
 * (src/studies/002/ws-push.ts) added.
 */
export const REPORT_002: StudyReportHook<Derived002> = {
  derive: derive002,
  figure: (row, model) => figure(row, model),
  analyse: (model) => ({ conclusions: conclusions(model), followUps: [] }),
  sections: (model, ctx) => ({ ...sections(model, ctx), ...wsSections(model, ctx, model.derived.ws) }),
  charts: (model, t, phrases) => [...charts(model, t), ...wsCharts(model, t, phrases, model.derived.ws)],
};

/** for tests: the pool of a variant as the theory reads it */
export { dbPoolOf };
