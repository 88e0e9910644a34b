/**
 * Study 002's answer block (StudyReportHook.answer, src/report/answer-types.ts): one row per
 * scenario group at the highest level its arms share, the arms pool-200, pool-500 and virtual
 * threads (and the fan-out for the mixed scenario), each arm's rate in its cell's window (the rate
 * the bounds are checked against, report.ts Row002.windowRps) beside its smallest bound, P95/P99,
 * virtual ÷ pool-200, and what limited each arm, read from the data (limit002). Scenario 5 (held
 * WebSocket connections) is left out of the rows: its figure is messages delivered on time per held
 * connection, not requests per second; the study line (the block's lead) gives every row's ratio and
 * names each WebSocket variant's largest level carried.
 * Pure.
 */
import type { AnswerArm, AnswerBlock, AnswerLimit, AnswerRow } from '../../report/answer-types.ts';
import type { TopLevelSpec } from 'vega-lite';
import type { BaseModel } from '../../report/types.ts';
import type { ReportModel } from '../../report/model.ts';
import type { ChartLabels, ChartSpec } from '../../report/charts.ts';
import { CONFIG, PALETTE, SCHEMA } from '../../report/charts.ts';
import type { CellResult } from '../../types/run.ts';
import { aggregate } from '../../compute/stats/aggregate.ts';
import { cellWindow, serversBoundRps, type Bound } from '../../compute/theory/cell-bounds.ts';
import { executorInfo } from '../../types/study.ts';
import { int, num } from '../../report/format.ts';
import { verdictOf } from '../../report/answer.ts';
import { BOUND_EXCEEDED_LIMIT, REACHED_SHARE, exceeded, pctOfBound, repeatsIfDisagree, round, rowRatio, unknownLimit } from '../answer-common.ts';
import { HOST_FLAGS, type Derived002, type Row002 } from './report.ts';

/**
 * The answer's rows: a scenario group (AnswerRow.scenario; phrase `answer.scenario.<id>` in the
 * chart), its arms in order: the baseline (pool-200) first, the candidate of the ratio (virtual) last.
 */
export const ANSWER_ROWS_002: readonly { id: string; variants: readonly string[] }[] = [
  { id: 'io-100ms', variants: ['io-pool-200', 'io-pool-500', 'io-virtual'] },
  { id: 'cpu-fib', variants: ['cpu-pool-200', 'cpu-pool-500', 'cpu-virtual'] },
  { id: 'db-small-pool-10', variants: ['db10-pool-200', 'db10-pool-500', 'db10-virtual'] },
  { id: 'db-small-pool-200', variants: ['db200-virtual'] },
  { id: 'mixed', variants: ['mixed-pool-200', 'mixed-pool-500', 'mixed-virtual-structured', 'mixed-virtual'] },
  { id: 'db-small-synchronized', variants: ['db10-virtual-sync'] },
];
/** The arms of the row's ratio: virtual ÷ pool-200 (by id suffix). */
const BASELINE_SUFFIX = '-pool-200';
const CANDIDATE_SUFFIX = '-virtual';

/** The host flags that say the host's CPU was taken (by the SUT, the load generator, others). */
const HOST_CPU_FLAGS: readonly string[] = ['host-cpu', 'loadgen-cpu', 'host-other-cpu'];

/** What the limit rule of one arm reads (limit002): the bounds and the evidence of each cap. */
export interface LimitInput002 {
  /** the arm's rate in its window, req/s (null: not measured) */
  x: number | null;
  concurrency: number;
  /** every bound of the cell (report.ts Row002.bounds) */
  bounds: readonly Bound[];
  /** a platform pool's threads N, null for one virtual thread per task */
  threads: number | null;
  /** the pool's peak active threads and peak queue in the window (SUT sampler; median over repeats), null when unsampled */
  peakActive: number | null;
  peakQueue: number | null;
  /** Server-Timing means (median over repeats), ms: the wait for a DB connection (`conn`), for the shared monitor (`lock`); null when not sent */
  connWaitMs: number | null;
  lockWaitMs: number | null;
  /** JFR pinned events of the cell(s), null when not read */
  pinned: number | null;
  /** the SUT's CPU saturated (model.saturation.sutCpu holds one of the cells) */
  sutCpuSaturated: boolean;
  /** the SUT's own CPU ms per request in the window (Row002.sutCpuMsPerRequest) */
  sutCpuMsPerRequest: number | null;
  cores: number;
  /** host CPU busy %, median over repeats */
  hostCpuPct: number | null;
  /** host flags raised in the cells (report.ts HOST_FLAGS) */
  hostFlags: readonly string[];
}

/** The evidence that the cap behind one bound was saturated, as the arm's limit; null when the data do not show it. */
function evidence(b: Bound, i: LimitInput002): AnswerLimit | null {
  const x = i.x!;
  const reached = x >= b.rps * REACHED_SHARE;
  switch (b.kind) {
    case 'executor': {
      const poolBinds = i.threads !== null && serversBoundRps(i.threads, b.inputs['holdMs'] ?? 0) <= b.rps * (1 + 1e-9);
      if (poolBinds) {
        // a platform pool full (N threads busy, tasks queued behind them) at its bound N / L: a pool
        // full far below N / L holds each task longer than L, waiting for something else (the CPU)
        const full = i.peakActive !== null && i.peakQueue !== null && i.peakActive >= i.threads! && i.peakQueue > 0;
        return full && reached ? { kind: 'executor', cap: i.threads, used: i.peakActive, unit: 'threads', source: 'measured' } : null;
      }
      // c / R(1) (or min(c, N) / L with c ≤ N): the closed loop's own workers, nothing in the service
      return reached ? { kind: 'offered-load', cap: i.concurrency, used: null, unit: 'workers', source: 'inferred' } : null;
    }
    case 'dbPool': {
      const pool = b.inputs['pool'] ?? null;
      const hold = b.inputs['dbMs'] ?? null;
      // waiting for a connection at least as long as one is held: a queue at the pool (measured). The busy
      // connections X × hold would only restate the % of this bound (the bound is pool / hold), so none is shown
      if (i.connWaitMs !== null) return hold !== null && i.connWaitMs >= hold ? { kind: 'db-pool', cap: pool, used: null, unit: 'connections', source: 'measured', note: 'conn-wait' } : null;
      return reached ? { kind: 'db-pool', cap: pool, used: null, unit: 'connections', source: 'inferred' } : null;
    }
    case 'lock': {
      const hold = b.inputs['lockMs'] ?? null;
      // the lock's busy share X × hold would restate the % of this bound (1000 / hold req/s): the evidence is the wait
      const note = i.pinned !== null && i.pinned > 0 ? 'lock-pinned' : 'lock-unpinned';
      if (i.lockWaitMs !== null) return hold !== null && i.lockWaitMs >= hold ? { kind: 'lock', cap: null, used: null, unit: '%', source: 'measured', note } : null;
      return reached ? { kind: 'lock', cap: null, used: null, unit: '%', source: 'inferred', note } : null;
    }
    case 'cpu':
    case 'cpuPerCall': {
      if (i.sutCpuSaturated) return { kind: 'cpu', cap: i.cores, used: i.sutCpuMsPerRequest === null ? null : round((x * i.sutCpuMsPerRequest) / 1000), unit: 'cores', source: 'measured' };
      // the CPU all processes need per request bounds the rate, and the host's CPU was taken: the
      // machine (the load generator, the mock, the DB on the same cores), not the code under test
      if (i.hostFlags.some((f) => HOST_CPU_FLAGS.includes(f))) return { kind: 'host', cap: 100, used: round(i.hostCpuPct, 1), unit: '%', source: 'measured' };
      return null;
    }
  }
}

/**
 * What limited one arm, from the data: among the cell's bounds in ascending order, the first whose
 * cap the data show saturated (executor: a platform pool with peak active = N and a queue, the arm at
 * 95 % of N / L or more; DB pool:
 * the wait for a connection at least its hold; lock: the wait for the monitor at least its hold;
 * CPU: the SUT's CPU saturated → 'cpu', else host CPU flags → 'host'; a population bound c / R(1)
 * reached to 95 % → 'offered-load') and that the arm did not exceed (> bound × 1.02: such a bound is
 * skipped). None: 'unknown' with note 'bound-exceeded' when the smallest bound was exceeded, else
 * 'host' when a host flag was raised, else 'unknown' with note 'no-cap-saturated'. Pure.
 */
export function limit002(i: LimitInput002): AnswerLimit {
  if (i.x === null) return unknownLimit('no-data');
  const sorted = [...i.bounds].sort((a, b) => a.rps - b.rps);
  for (const b of sorted) {
    if (exceeded(i.x, b.rps)) continue;
    const e = evidence(b, i);
    if (e !== null) return e;
  }
  if (sorted.length > 0 && exceeded(i.x, sorted[0]!.rps)) return BOUND_EXCEEDED_LIMIT;
  if (i.hostFlags.length > 0) return { kind: 'host', cap: 100, used: round(i.hostCpuPct, 1), unit: '%', source: 'measured', note: 'host-flags' };
  return unknownLimit('no-cap-saturated');
}

const med = (xs: readonly (number | null)[]): number | null => aggregate(xs).median;

/** A cell's executor peaks in its window (samples between the window's ends; the whole cell without a window). */
function peaks(c: CellResult): { active: number | null; queue: number | null } {
  const w = cellWindow(c.load);
  const ss = c.samples.filter((s) => w === null || (s.tEpochMs >= c.t0EpochMs + w.startMs && s.tEpochMs <= c.t0EpochMs + w.endMs));
  if (ss.length === 0) return { active: null, queue: null };
  return { active: Math.max(...ss.map((s) => s.executorActive)), queue: Math.max(...ss.map((s) => s.queueSize)) };
}

/** The limit rule's input for one row of the run (its cells read for the evidence). */
export function limitInput002(model: Pick<BaseModel, 'cells' | 'variantSpecs' | 'saturation' | 'manifest'>, r: Row002): LimitInput002 {
  const cs = model.cells.filter((c) => c.variant === r.variant && c.concurrency === r.concurrency);
  const exec = model.variantSpecs.get(r.variant)?.executor;
  const threads = exec ? executorInfo(exec).pool(exec)?.threads ?? null : null;
  const ps = cs.map(peaks);
  const sat = new Set(model.saturation.sutCpu.map((s) => s.cellId));
  return {
    x: r.windowRps.median, concurrency: r.concurrency, bounds: r.bounds, threads,
    peakActive: med(ps.map((p) => p.active)), peakQueue: med(ps.map((p) => p.queue)),
    connWaitMs: med(cs.map((c) => c.load.timingMs?.['conn']?.mean ?? null)),
    lockWaitMs: med(cs.map((c) => c.load.timingMs?.['lock']?.mean ?? null)),
    pinned: r.pinnedTotal,
    sutCpuSaturated: cs.some((c) => sat.has(c.cellId)),
    sutCpuMsPerRequest: r.sutCpuMsPerRequest,
    cores: model.manifest.host.cores,
    hostCpuPct: r.hostCpuPct,
    hostFlags: r.hostFlags.filter((f) => HOST_FLAGS.includes(f)),
  };
}

/** One arm of a row: its window rate, bound, percentiles and limit. */
function arm002(model: BaseModel<Derived002>, r: Row002): AnswerArm {
  const value = r.windowRps.median;
  const bound = r.smallest?.rps ?? null;
  return {
    variant: r.variant, metric: 'throughput', unit: 'req/s', value,
    repeats: repeatsIfDisagree(r.windowRps.values), bound, pctOfBound: pctOfBound(value, bound),
    p95Ms: r.p95Ms.median, p99Ms: r.p99Ms.median,
    limitedBy: limit002(limitInput002(model, r)),
  };
}

/** The level of a row: the highest level at which the most of its arms have a result. */
function rowLevel(rows: readonly Row002[], variants: readonly string[]): number | null {
  const counts = new Map<number, number>();
  for (const r of rows) if (variants.includes(r.variant)) counts.set(r.concurrency, (counts.get(r.concurrency) ?? 0) + 1);
  let best: [number, number] | null = null;
  for (const [c, n] of counts) if (best === null || n > best[1] || (n === best[1] && c > best[0])) best = [c, n];
  return best?.[0] ?? null;
}

/** The rows of the request scenarios (one per ANSWER_ROWS_002 entry with a result). */
export function rows002Answer(model: BaseModel<Derived002>): AnswerRow[] {
  const rows = model.derived.rows;
  const out: AnswerRow[] = [];
  for (const g of ANSWER_ROWS_002) {
    const level = rowLevel(rows, g.variants);
    if (level === null) continue;
    const at = g.variants.flatMap((v) => rows.filter((r) => r.variant === v && r.concurrency === level));
    const arms = at.map((r) => arm002(model, r));
    const base = at.find((r) => r.variant.endsWith(BASELINE_SUFFIX));
    const cand = at.find((r) => r.variant.endsWith(CANDIDATE_SUFFIX));
    const ratio = base && cand ? rowRatio(base.windowRps, cand.windowRps) : { ratio: null, ratioRepeats: [] };
    out.push({ scenario: g.id, level, levelUnit: 'workers', arms, ...ratio });
  }
  return out;
}

/**
 * The study line, the block's lead: virtual ÷ pool-200 per row with a ratio (phrase
 * `answer.lead002`), with scenario 5 (`answer.lead002.ws`): why it is not in the rows, each variant's
 * largest level carried (ws-capacity.ts) and the share of messages delivered at the highest level
 * tried; scenario 5 alone: `answer.ws002`. Null when the run has neither.
 */
export function studyLine002(model: BaseModel<Derived002>, rows: readonly AnswerRow[]): AnswerBlock['studyLine'] | null {
  const ratios = rows.filter((r) => r.ratio !== null).map((r) => `${r.scenario} ${num(r.ratio, 2)}×`).join(', ');
  const ws = model.derived.ws;
  if (ws.length === 0) return ratios === '' ? null : { key: 'lead002', v: { ratios } };
  const top = Math.max(...ws.flatMap((w) => w.levels.map((l) => l.connections)));
  const carried = ws.map((w) => `${w.variant} ${w.capacity.capacity === null ? '—' : int(w.capacity.capacity)}`).join(', ');
  const delivered = ws.map((w) => {
    const share = med(w.levels.filter((x) => x.connections === top).map((x) => x.summary.deliveredShare));
    return `${w.variant} ${share === null ? '—' : `${num(share * 100, 1)} %`}`;
  }).join(', ');
  const wsV = { carried, top: int(top), delivered };
  return ratios === '' ? { key: 'ws002', v: wsV } : { key: 'lead002.ws', v: { ratios, ...wsV } };
}

/** The figure of the headline chart (charts.ts answerChart002). */
export const ANSWER_CHART_002 = 'answer-002';

/**
 * Study 002's answer block: its rows (rows002Answer) in place of the generic ones, the verdict over
 * their ratios, the generic trust line, the headline chart, the lead with scenario 5 (studyLine002). Pure.
 */
export function answer002(model: BaseModel<Derived002>, generic: AnswerBlock): AnswerBlock {
  const rows = rows002Answer(model);
  const line = studyLine002(model, rows);
  return {
    ...generic,
    ...verdictOf(rows),
    rows,
    chart: rows.length > 0 ? ANSWER_CHART_002 : generic.chart,
    ...(line ? { studyLine: line } : {}),
  };
}

/** A variant's arm as the chart's colour: its id without the scenario prefix (`io-pool-200` → `pool-200`, `db10-virtual-sync` → `virtual-sync`). */
export function armOf(variant: string): string {
  return variant.replace(/^[^-]+-/, '');
}

/**
 * The headline chart (`figures/answer-002.svg`): per answer row, each arm's rate in its window
 * against concurrency (log–log) and the smallest bound of each cell dashed, the rows' scenarios as
 * facets, three a line. Title: phrase `chart.answer002`; facet labels `answer.scenario.<id>`. Pure.
 * @throws Error when a phrase is missing (templates/002/phrases.<lang>.json)
 */
export function answerChart002(model: ReportModel<Derived002>, t: ChartLabels, phrases: Readonly<Record<string, string>>): ChartSpec[] {
  const phrase = (k: string): string => {
    const v = phrases[k];
    if (v === undefined) throw new Error(`phrases: missing "${k}" (templates/002/phrases.<lang>.json)`);
    return v;
  };
  const values: Record<string, unknown>[] = [];
  const order: string[] = [];
  for (const g of ANSWER_ROWS_002) {
    const rs = model.derived.rows.filter((r) => g.variants.includes(r.variant));
    if (rs.length === 0) continue;
    const scenario = phrase(`answer.scenario.${g.id}`);
    order.push(scenario);
    for (const r of rs) {
      const base = { scenario, arm: armOf(r.variant), concurrency: r.concurrency };
      if (r.windowRps.median !== null) values.push({ ...base, series: t.measured, rps: Math.round(r.windowRps.median * 100) / 100 });
      if (r.smallest) values.push({ ...base, series: t.bound, rps: Math.round(r.smallest.rps * 100) / 100 });
    }
  }
  if (values.length === 0) return [];
  const arms = [...new Set(values.map((v) => v['arm'] as string))];
  const title = phrase('chart.answer002');
  return [{ name: ANSWER_CHART_002, title, spec: {
    $schema: SCHEMA, title, config: CONFIG, data: { values },
    facet: { field: 'scenario', type: 'nominal', title: null, sort: order }, columns: 3, resolve: { scale: { y: 'independent', x: 'independent' } },
    spec: { width: 170, height: 140, mark: { type: 'line', point: true }, encoding: {
      x: { field: 'concurrency', type: 'quantitative', title: t.concurrency, scale: { type: 'log' } },
      y: { field: 'rps', type: 'quantitative', title: t.rps, scale: { type: 'log' } },
      color: { field: 'arm', type: 'nominal', title: t.mode, scale: { domain: arms, range: arms.map((_, i) => PALETTE[i % PALETTE.length] as string) } },
      strokeDash: { field: 'series', type: 'nominal', title: t.series, scale: { domain: [t.measured, t.bound], range: [[1, 0], [6, 4]] } },
      detail: { field: 'series' },
    } },
  } as unknown as TopLevelSpec }];
}
