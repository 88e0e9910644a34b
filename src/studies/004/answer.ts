/**
 * Study 004's answer block (StudyReportHook.answer, src/report/answer-types.ts) and headline charts.
 * Experiment 1 (`async-burst`): one row, T tasks, arms platform (Boot's pool of N = 8) and virtual
 * threads: the makespan (ms, lower is better; ratio = platform ÷ virtual) against ⌈T/N⌉ × S
 * (theory.ts asyncMakespanTheoryMs), and what limited each (limitAsync004). Experiment 2
 * (`servlet-sleep`): one row, c clients, the whole-run throughput against the smaller of the thread
 * bound and the CPU bound (theory.ts httpBounds), P95/P99, virtual ÷ platform, and what limited each
 * (limitHttp004) — never the CPU bound when the arm ran above it (run 20261201-053137: the platform
 * arm at 1,801.73 req/s against a CPU bound of 1,621.06). Pure.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { AnswerArm, AnswerBlock, AnswerLimit, AnswerRow } from '../../report/answer-types.ts';
import type { BaseModel } from '../../report/types.ts';
import type { ReportModel } from '../../report/model.ts';
import type { ChartLabels, ChartSpec } from '../../report/charts.ts';
import { CONFIG, PALETTE, SCHEMA } from '../../report/charts.ts';
import { aggregate } from '../../compute/stats/aggregate.ts';
import { verdictOf } from '../../report/answer.ts';
import { BOUND_EXCEEDED_LIMIT, REACHED_SHARE, exceeded, pctOfBound, repeatsIfDisagree, round, rowRatio, unknownLimit } from '../answer-common.ts';
import { ASYNC, HTTP, type AsyncRow, type Derived004, type HttpRow } from './report.ts';
import { asyncThreads } from './theory.ts';

/** The host flags that say the host's CPU was taken. */
const HOST_CPU_FLAGS: readonly string[] = ['host-cpu', 'loadgen-cpu', 'host-other-cpu'];

/** The SUT-CPU and host evidence of one variant's cells. */
export interface CpuEvidence004 {
  /** the SUT's CPU saturated in a cell (model.saturation.sutCpu) */
  sutCpuSaturated: boolean;
  /** the SUT's peak CPU in cores (peak processCpuLoad × cores, median over the saturated cells), null when none */
  sutPeakCores: number | null;
  cores: number;
  /** host CPU busy %, median over the cells */
  hostCpuPct: number | null;
  /** flag codes raised in the cells, distinct */
  flags: readonly string[];
}

/** The limit from CPU evidence: the SUT's CPU saturated → 'cpu'; else the host's CPU flagged → 'host'; else null. */
function cpuLimit(e: CpuEvidence004): AnswerLimit | null {
  if (e.sutCpuSaturated) return { kind: 'cpu', cap: e.cores, used: round(e.sutPeakCores), unit: 'cores', source: 'measured' };
  if (e.flags.some((f) => HOST_CPU_FLAGS.includes(f))) return { kind: 'host', cap: 100, used: round(e.hostCpuPct, 1), unit: '%', source: 'measured' };
  return null;
}

/**
 * What limited one arm of experiment 1, from the data. A makespan below its theory ⌈T/N⌉ × S by more
 * than 2 % beat it: 'unknown', 'bound-exceeded'. A pool of N threads: 'executor' when its peak pool
 * threads reached N with tasks queued. One thread per task: 'offered-load' when the makespan is within
 * 95 % of S (all T tasks slept at once), else the SUT's CPU saturated → 'cpu', the host's flagged →
 * 'host'. Otherwise 'unknown', 'no-cap-saturated'.
 */
export function limitAsync004(r: Pick<AsyncRow, 'makespanMs' | 'theoryMs' | 'peakPoolThreads' | 'peakQueue' | 'tasks'>, threads: number | null, e: CpuEvidence004): AnswerLimit {
  const x = r.makespanMs.median;
  if (x === null) return unknownLimit('no-data');
  if (exceeded(x, r.theoryMs, true)) return BOUND_EXCEEDED_LIMIT;
  if (threads !== null) {
    const peak = r.peakPoolThreads.median;
    const full = peak !== null && peak >= threads && (r.peakQueue.median ?? 0) > 0;
    return full ? { kind: 'executor', cap: threads, used: peak, unit: 'threads', source: 'measured' } : cpuLimit(e) ?? unknownLimit('no-cap-saturated');
  }
  if (r.theoryMs / x >= REACHED_SHARE) return { kind: 'offered-load', cap: r.tasks, used: null, unit: 'threads', source: 'inferred' };
  return cpuLimit(e) ?? unknownLimit('no-cap-saturated');
}

/**
 * What limited one arm of experiment 2, from the data: its bounds in ascending order, skipping any it
 * exceeded (> bound × 1.02); the CPU bound → cpuLimit; the thread bound → 'offered-load' on one
 * thread per request when reached to 95 % (c / L: the clients themselves), nothing for Tomcat's pool
 * (its busy threads are not sampled). None: 'unknown', 'bound-exceeded' when the smallest bound was
 * exceeded; else 'host' when a host flag was raised; else 'unknown', 'no-cap-saturated'.
 */
export function limitHttp004(r: Pick<HttpRow, 'throughputRps' | 'threadBoundRps' | 'cpuBoundRps' | 'clients'>, tomcatThreads: number | null, e: CpuEvidence004): AnswerLimit {
  const x = r.throughputRps.median;
  if (x === null) return unknownLimit('no-data');
  const bounds: { kind: 'cpu' | 'threads'; rps: number }[] = [{ kind: 'threads' as const, rps: r.threadBoundRps }, ...(r.cpuBoundRps !== null ? [{ kind: 'cpu' as const, rps: r.cpuBoundRps }] : [])].sort((a, b) => a.rps - b.rps);
  for (const b of bounds) {
    if (exceeded(x, b.rps)) continue;
    const l = b.kind === 'cpu' ? cpuLimit(e) : tomcatThreads === null && x >= b.rps * REACHED_SHARE ? { kind: 'offered-load' as const, cap: r.clients, used: null, unit: 'workers', source: 'inferred' as const } : null;
    if (l !== null) return l;
  }
  if (exceeded(x, bounds[0]!.rps)) return BOUND_EXCEEDED_LIMIT;
  if (e.flags.length > 0) return { kind: 'host', cap: 100, used: round(e.hostCpuPct, 1), unit: '%', source: 'measured', note: 'host-flags' };
  return unknownLimit('no-cap-saturated');
}

/** A variant's CPU evidence from its cells of `scenario`. */
export function cpuEvidence004(model: Pick<BaseModel, 'cells' | 'saturation' | 'manifest'>, variant: string, scenario: string): CpuEvidence004 {
  const cs = model.cells.filter((c) => c.variant === variant && c.scenario === scenario);
  const ids = new Set(cs.map((c) => c.cellId));
  const sat = model.saturation.sutCpu.filter((s) => ids.has(s.cellId));
  const cores = model.manifest.host.cores;
  return {
    sutCpuSaturated: sat.length > 0,
    sutPeakCores: aggregate(sat.map((s) => s.peakCpu * cores)).median,
    cores,
    hostCpuPct: aggregate(cs.map((c) => c.loadgen.hostCpuPct)).median,
    flags: [...new Set(cs.flatMap((c) => c.flags.filter((f) => f.code !== 'errors-above-threshold').map((f) => f.code)))].sort(),
  };
}

/** Experiment 1's row: T tasks, the makespan of each variant against ⌈T/N⌉ × S, platform ÷ virtual. */
export function asyncRow004(model: BaseModel<Derived004>): AnswerRow | null {
  const rs = model.derived.async;
  if (rs.length === 0) return null;
  const arms: AnswerArm[] = rs.map((r) => {
    const exec = model.variantSpecs.get(r.variant)?.executor;
    const threads = exec ? asyncThreads(exec) : null;
    return {
      variant: r.variant, metric: 'makespan', unit: 'ms', value: r.makespanMs.median,
      repeats: repeatsIfDisagree(r.makespanMs.values), bound: r.theoryMs, pctOfBound: pctOfBound(r.makespanMs.median, r.theoryMs, true),
      p95Ms: null, p99Ms: null,
      limitedBy: limitAsync004(r, threads, cpuEvidence004(model, r.variant, ASYNC)),
    };
  });
  const base = rs.find((r) => r.variant === 'platform');
  const cand = rs.find((r) => r.variant === 'virtual');
  const ratio = base && cand ? rowRatio(base.makespanMs, cand.makespanMs, true) : { ratio: null, ratioRepeats: [] };
  return { scenario: ASYNC, level: rs[0]!.tasks, levelUnit: 'tasks', arms, ...ratio };
}

/** Experiment 2's row: c clients, each variant's whole-run throughput against min(thread bound, CPU bound), virtual ÷ platform. */
export function httpRow004(model: BaseModel<Derived004>): AnswerRow | null {
  const rs = model.derived.http;
  if (rs.length === 0) return null;
  const arms: AnswerArm[] = rs.map((r) => {
    const exec = model.variantSpecs.get(r.variant)?.executor;
    const tomcat = exec?.kind === 'spring-boot-auto' && !exec.virtualThreads ? exec.tomcatMaxThreads : exec?.kind === 'platform-pool' ? exec.threads : null;
    const bound = r.cpuBoundRps === null ? r.threadBoundRps : Math.min(r.threadBoundRps, r.cpuBoundRps);
    return {
      variant: r.variant, metric: 'throughput', unit: 'req/s', value: r.throughputRps.median,
      repeats: repeatsIfDisagree(r.throughputRps.values), bound, pctOfBound: pctOfBound(r.throughputRps.median, bound),
      p95Ms: r.p95Ms.median, p99Ms: r.p99Ms.median,
      limitedBy: limitHttp004(r, tomcat, cpuEvidence004(model, r.variant, HTTP)),
    };
  });
  const base = rs.find((r) => r.variant === 'platform');
  const cand = rs.find((r) => r.variant === 'virtual');
  const ratio = base && cand ? rowRatio(base.throughputRps, cand.throughputRps) : { ratio: null, ratioRepeats: [] };
  return { scenario: HTTP, level: rs[0]!.clients, levelUnit: 'clients', arms, ...ratio };
}

/** The headline charts' figures: experiment 1's makespan bars, experiment 2's throughput bars. */
export const MAKESPAN_CHART_004 = 'makespan-004';
export const HTTP_CHART_004 = 'http-004';

/** Study 004's answer block: the rows of the experiment(s) the run has, their verdict, the generic trust line, the headline chart. Pure. */
export function answer004(model: BaseModel<Derived004>, generic: AnswerBlock): AnswerBlock {
  const a = asyncRow004(model);
  const h = httpRow004(model);
  const rows = [a, h].filter((r): r is AnswerRow => r !== null);
  // the generic block of an in-process run says its request rate is not a throughput (studyLine): with
  // the study's own makespan rows the lead is the row's ratio instead
  const { studyLine, ...rest } = generic;
  return { ...rest, ...(rows.length === 0 && studyLine ? { studyLine } : {}), ...verdictOf(rows), rows, chart: a ? MAKESPAN_CHART_004 : h ? HTTP_CHART_004 : generic.chart };
}

const phraseOf = (phrases: Readonly<Record<string, string>>) => (k: string): string => {
  const v = phrases[k];
  if (v === undefined) throw new Error(`phrases: missing "${k}" (templates/004/phrases.<lang>.json)`);
  return v;
};

/**
 * The headline charts (vega-lite): experiment 1's makespan per variant (bars: the median over
 * repeats; dots: each repeat; black ticks: ⌈T/N⌉ × S), log scale in s; experiment 2's throughput per
 * variant (bars: the median; dots: each repeat; ticks: the thread bound and the CPU bound). Titles:
 * phrases `chart.makespan004`, `chart.http004`, with their notes and axes. Pure.
 * @throws Error when a phrase is missing (templates/004/phrases.<lang>.json)
 */
export function charts004(model: ReportModel<Derived004>, t: ChartLabels, phrases: Readonly<Record<string, string>>): ChartSpec[] {
  const p = phraseOf(phrases);
  const out: ChartSpec[] = [];
  const color = (vs: readonly string[]) => ({ field: 'variant', type: 'nominal' as const, title: t.mode, legend: null, scale: { domain: [...vs], range: vs.map((_, i) => PALETTE[i % PALETTE.length] as string) } });
  const rs = model.derived.async;
  if (rs.length > 0) {
    const vs = rs.map((r) => r.variant);
    const bars = rs.flatMap((r) => (r.makespanMs.median === null ? [] : [{ variant: r.variant, s: r.makespanMs.median / 1000 }]));
    const dots = rs.flatMap((r) => r.makespanMs.values.flatMap((v) => (v === null ? [] : [{ variant: r.variant, s: v / 1000 }])));
    const theory = rs.map((r) => ({ variant: r.variant, s: r.theoryMs / 1000, label: p('chart.theory004') }));
    // a log scale needs a domain above 0 and bars that start on it, not at 0
    const all = [...dots.map((d) => d.s), ...theory.map((d) => d.s)].filter((v) => v > 0);
    const lo = Math.pow(10, Math.floor(Math.log10(Math.min(...all))));
    const hi = Math.pow(10, Math.ceil(Math.log10(Math.max(...all))));
    const y = { field: 's', type: 'quantitative' as const, title: p('chart.makespanAxis004'), scale: { type: 'log' as const, domain: [lo, hi] } };
    const x = { field: 'variant', type: 'nominal' as const, title: t.mode, sort: vs, axis: { labelAngle: 0 } };
    const title = { text: p('chart.makespan004'), subtitle: p('chart.makespanNote004') };
    out.push({ name: MAKESPAN_CHART_004, title: title.text, spec: {
      $schema: SCHEMA, title, width: 320, height: 260, config: CONFIG,
      layer: [
        { data: { values: bars }, mark: { type: 'bar', width: 60 }, encoding: { x, y, y2: { datum: lo }, color: color(vs) } },
        { data: { values: dots }, mark: { type: 'point', filled: true, color: '#333333', size: 30 }, encoding: { x, y } },
        { data: { values: theory }, mark: { type: 'tick', color: '#000000', thickness: 3, size: 80 }, encoding: { x, y } },
        { data: { values: theory }, mark: { type: 'text', align: 'left', dx: 44, fontSize: 11 }, encoding: { x, y, text: { field: 'label' } } },
      ],
    } as TopLevelSpec });
  }
  const hs = model.derived.http;
  if (hs.length > 0) {
    const vs = hs.map((r) => r.variant);
    const bars = hs.flatMap((r) => (r.throughputRps.median === null ? [] : [{ variant: r.variant, rps: r.throughputRps.median }]));
    const dots = hs.flatMap((r) => r.throughputRps.values.flatMap((v) => (v === null ? [] : [{ variant: r.variant, rps: v }])));
    const ticks = hs.flatMap((r) => [{ variant: r.variant, rps: r.threadBoundRps, bound: p('chart.threadBound004') }, ...(r.cpuBoundRps === null ? [] : [{ variant: r.variant, rps: r.cpuBoundRps, bound: p('chart.cpuBound004') }])]);
    const y = { field: 'rps', type: 'quantitative' as const, title: t.rps };
    const x = { field: 'variant', type: 'nominal' as const, title: t.mode, sort: vs, axis: { labelAngle: 0 } };
    const title = { text: p('chart.http004'), subtitle: p('chart.httpNote004') };
    out.push({ name: HTTP_CHART_004, title: title.text, spec: {
      $schema: SCHEMA, title, width: 320, height: 260, config: CONFIG,
      layer: [
        { data: { values: bars }, mark: { type: 'bar', width: 60 }, encoding: { x, y, color: color(vs) } },
        { data: { values: dots }, mark: { type: 'point', filled: true, color: '#333333', size: 30 }, encoding: { x, y } },
        { data: { values: ticks }, mark: { type: 'tick', thickness: 3, size: 80 }, encoding: { x, y, color: { field: 'bound', type: 'nominal', title: t.bound, scale: { range: ['#000000', '#a6761d'] } } } },
      ],
      resolve: { scale: { color: 'independent' } },
    } as TopLevelSpec });
  }
  return out;
}
