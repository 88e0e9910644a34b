/**
 * Study 003's part of its report (Study.report, src/report/types.ts): the sweep levels from the
 * cells' `sweep` answers (./sweep.ts VtSweepResult), the knee under both rules of
 * src/studies/003/knee.ts (and whether each moves when the last level is removed), the published figures
 * beside the measured ones with the host difference and per-core scaling, and the curves. Values
 * across repeats are the median of the ok repeats (min–max, n beside), never an average; a level
 * whose repeats did not all end `ok` shows its outcomes, and the curve ends before the first such level.
 */
import type { CellResult } from '../../types/run.ts';
import { sweepOf, type VtSweepResult } from './sweep.ts';
import type { StudyReportHook } from '../../report/types.ts';
import type { ReportModel } from '../../report/model.ts';
import type { RenderContext } from '../../report/render-md.ts';
import type { ChartLabels, ChartSpec } from '../../report/charts.ts';
import type { TopLevelSpec } from 'vega-lite';
import { aggText, int, ms, num, pct, raw, table, type Raw } from '../../report/format.ts';
import { aggregate } from '../../compute/stats/aggregate.ts';
import type { Agg } from '../../types/run.ts';
import { MIN_GAIN_PER_DOUBLING, STUDY_RULE_003, doublingRuleKnee, studyRuleKnee, type SweepPoint } from './knee.ts';
import { PUBLISHED_003, PUBLISHED_HOST_003 } from './published.ts';

/** One level of the sweep, over its repeats. */
export interface SweepLevel {
  threads: number;
  op: string;
  sleepMs: number;
  durationMs: number;
  /** outcome of each repeat, in repeat order */
  outcomes: VtSweepResult['outcome'][];
  reasons: string[];
  ok: boolean;
  throughputOpsPerS: Agg;
  /** N / L: every thread completing one op per L (no overhead) */
  idealOpsPerS: number | null;
  startRatePerS: Agg;
  latencyMeanMs: Agg; latencyP50Ms: Agg; latencyP99Ms: Agg; latencyMaxMs: Agg;
  overshootP50Ms: Agg; overshootP99Ms: Agg; overshootMaxMs: Agg;
  jitterPct: Agg;
  gcPauseSharePct: Agg;
  heapPerThreadBytes: Agg; rssPerThreadBytes: Agg;
  parallelism: number | null; poolSizeMax: Agg; mountedMax: Agg; queuedMax: Agg;
  hostLimitThreads: number | null;
  cpus: number | null;
}

const agg = (xs: readonly (number | null)[]): Agg => aggregate(xs);
const maxOf = (xs: readonly (number | null)[]): number | null => xs.reduce<number | null>((m, x) => (x === null ? m : m === null ? x : Math.max(m, x)), null);

/** The sweep levels of a run (pure): cells with a `sweep` answer, by level, repeats in order. */
export function sweepLevels(cells: readonly CellResult[]): SweepLevel[] {
  const by = new Map<number, VtSweepResult[]>();
  for (const c of [...cells].sort((a, b) => a.repeat - b.repeat)) {
    const sweep = sweepOf(c);
    if (!sweep) continue;
    by.set(c.concurrency, [...(by.get(c.concurrency) ?? []), sweep]);
  }
  return [...by.entries()].sort((a, b) => a[0] - b[0]).map(([threads, all]) => {
    const oks = all.filter((s) => s.outcome === 'ok');
    const f = (g: (s: VtSweepResult) => number | null): Agg => agg(oks.map(g));
    const s0 = all[0]!;
    return {
      threads, op: s0.op, sleepMs: s0.sleepMs, durationMs: s0.durationMs,
      outcomes: all.map((s) => s.outcome), reasons: all.filter((s) => s.outcome !== 'ok').map((s) => s.reason ?? s.outcome),
      ok: oks.length === all.length,
      throughputOpsPerS: f((s) => s.throughputOpsPerS),
      idealOpsPerS: s0.sleepMs > 0 ? threads / (s0.sleepMs / 1000) : null,
      startRatePerS: f((s) => s.startRatePerS),
      latencyMeanMs: f((s) => s.latencyMeanMs), latencyP50Ms: f((s) => s.latencyP50Ms), latencyP99Ms: f((s) => s.latencyP99Ms), latencyMaxMs: f((s) => s.latencyMaxMs),
      overshootP50Ms: f((s) => s.overshootP50Ms), overshootP99Ms: f((s) => s.overshootP99Ms), overshootMaxMs: f((s) => s.overshootMaxMs),
      jitterPct: f((s) => s.jitterPct), gcPauseSharePct: f((s) => s.gcPauseSharePct),
      heapPerThreadBytes: f((s) => s.heapPerThreadBytes), rssPerThreadBytes: f((s) => s.rssPerThreadBytes),
      parallelism: maxOf(oks.flatMap((s) => s.samples.map((x) => x.parallelism))),
      poolSizeMax: f((s) => maxOf(s.samples.map((x) => x.poolSize))),
      mountedMax: f((s) => maxOf(s.samples.map((x) => x.mountedVirtualThreads))),
      queuedMax: f((s) => maxOf(s.samples.map((x) => x.queuedVirtualThreads))),
      hostLimitThreads: s0.hostLimitThreads,
      cpus: s0.availableProcessors,
    };
  });
}

/** The curve the knee rules read: the ok levels before the first level with a failed repeat. */
export function curvePoints(levels: readonly SweepLevel[]): SweepPoint[] {
  const out: SweepPoint[] = [];
  for (const l of levels) {
    if (!l.ok || l.throughputOpsPerS.median === null) break;
    out.push({ threads: l.threads, throughputOpsPerS: l.throughputOpsPerS.median, p99Ms: l.latencyP99Ms.median, jitterPct: l.jitterPct.median });
  }
  return out;
}

/** Both rules on the curve and on the curve without its last level (pure). */
export function knees(points: readonly SweepPoint[]) {
  const study = studyRuleKnee(points);
  const doubling = doublingRuleKnee(points);
  const shorter = points.slice(0, -1);
  return {
    study, doubling,
    studyWithoutLast: points.length > 1 ? studyRuleKnee(shorter).kneeThreads : null,
    doublingWithoutLast: points.length > 1 ? doublingRuleKnee(shorter).kneeThreads : null,
    lastLevel: points.length > 0 ? points[points.length - 1]!.threads : null,
  };
}

/**
 * Each repeat's own curve (pure): per repeat, its levels in order with their `ok` sweep answer, ending
 * before its first level whose outcome is not `ok` (as curvePoints does for the medians).
 */
export function repeatCurves(cells: readonly CellResult[]): { repeat: number; points: SweepPoint[] }[] {
  const byRepeat = new Map<number, { threads: number; sweep: VtSweepResult }[]>();
  for (const c of cells) {
    const sweep = sweepOf(c);
    if (sweep) byRepeat.set(c.repeat, [...(byRepeat.get(c.repeat) ?? []), { threads: c.concurrency, sweep }]);
  }
  return [...byRepeat.entries()].sort((a, b) => a[0] - b[0]).map(([repeat, xs]) => {
    const points: SweepPoint[] = [];
    for (const { threads, sweep } of xs.sort((a, b) => a.threads - b.threads)) {
      if (sweep.outcome !== 'ok' || sweep.throughputOpsPerS === null) break;
      points.push({ threads, throughputOpsPerS: sweep.throughputOpsPerS, p99Ms: sweep.latencyP99Ms, jitterPct: sweep.jitterPct });
    }
    return { repeat, points };
  });
}

/** The knee under each rule per repeat (pure): a knee from the medians stands only if the repeats give it too (issue 31). */
export interface RepeatKnee { repeat: number; study: number | null; doubling: number | null }

/** Both rules on each repeat's own curve (repeatCurves). */
export function repeatKnees(cells: readonly CellResult[]): RepeatKnee[] {
  return repeatCurves(cells).map(({ repeat, points }) => ({ repeat, study: studyRuleKnee(points).kneeThreads, doubling: doublingRuleKnee(points).kneeThreads }));
}

/**
 * The sentence on the repeats under one rule: none with fewer than 2 repeats; "each repeat gives the
 * same knee" when every repeat's knee equals the medians' knee; else each repeat's knee and that the
 * medians' knee is not settled.
 */
function repeatKneeText(ctx: RenderContext, per: readonly RepeatKnee[], rule: 'study' | 'doubling', knee: number | null): string {
  if (per.length < 2) return '';
  const show = (n: number | null): string => (n === null ? ctx.s('knee.none') : int(n));
  const list = per.map((r) => ctx.s('knee.repeat', { r: String(r.repeat), knee: show(r[rule]) })).join(ctx.s('knee.sep'));
  return ctx.s(per.every((r) => r[rule] === knee) ? 'knee.repeatsAgree' : 'knee.repeatsDisagree', { n: String(per.length), list, knee: show(knee) });
}

const b = (x: number | null): string => (x === null ? '—' : `${num(x, 0)} B`);
const kib = (x: number | null): string => (x === null ? '—' : `${num(x / 1024, 2)} KiB`);
const ops = (x: number | null): string => (x === null ? '—' : `${num(x, 0)} ops/s`);

function sections(model: ReportModel<Derived003>, ctx: RenderContext): Record<string, string | Raw> {
  const s = ctx.s;
  const levels = model.derived.levels;
  const out: Record<string, string | Raw> = {};
  const l0 = levels[0];
  out['sweepSetup'] = l0 ? s('sweep.setup', { op: l0.op, L: String(l0.sleepMs), D: num(l0.durationMs / 1000, 0), levels: levels.map((l) => int(l.threads)).join(', '), cpus: String(l0.cpus ?? '?') }) : s('sweep.none');
  out['sweepTable'] = levels.length === 0 ? s('sweep.none') : table(
    [s('h.threads'), s('h.outcome'), s('h.throughput'), s('h.ideal'), s('h.ofIdeal'), s('h.startRate'), s('h.latMean'), s('h.latP50'), s('h.latP99'), s('h.latMax')],
    levels.map((l) => [int(l.threads), l.ok ? 'ok' : `${l.outcomes.join(', ')}`, aggText(l.throughputOpsPerS, ops), ops(l.idealOpsPerS),
      pct(l.throughputOpsPerS.median !== null && l.idealOpsPerS ? (l.throughputOpsPerS.median / l.idealOpsPerS) * 100 : null),
      aggText(l.startRatePerS, (x) => (x === null ? '—' : `${num(x, 0)} /s`)), aggText(l.latencyMeanMs, ms), aggText(l.latencyP50Ms, ms), aggText(l.latencyP99Ms, ms), aggText(l.latencyMaxMs, ms)]),
    ['r', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']);
  out['schedTable'] = levels.length === 0 ? s('sweep.none') : table(
    [s('h.threads'), s('h.overP50'), s('h.overP99'), s('h.overMax'), s('h.jitter'), s('h.parallelism'), s('h.poolMax'), s('h.mountedMax'), s('h.queuedMax')],
    levels.map((l) => [int(l.threads), aggText(l.overshootP50Ms, ms), aggText(l.overshootP99Ms, ms), aggText(l.overshootMaxMs, ms), aggText(l.jitterPct, (x) => pct(x, 2)),
      l.parallelism === null ? '—' : int(l.parallelism), aggText(l.poolSizeMax, int), aggText(l.mountedMax, int), aggText(l.queuedMax, int)]),
    ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']);
  out['memTable'] = levels.length === 0 ? s('sweep.none') : table(
    [s('h.threads'), s('h.gcShare'), s('h.heapPerThread'), s('h.rssPerThread')],
    levels.map((l) => [int(l.threads), aggText(l.gcPauseSharePct, (x) => pct(x, 2)), aggText(l.heapPerThreadBytes, kib), aggText(l.rssPerThreadBytes, kib)]),
    ['r', 'r', 'r', 'r']);
  const failed = levels.filter((l) => !l.ok);
  out['failedLevels'] = failed.length === 0 ? s('sweep.noFailed') : raw(failed.map((l) => `- ${int(l.threads)}: ${l.outcomes.join(', ')} — ${[...new Set(l.reasons)].map((r) => r.replace(/[\r\n]+/g, ' ')).join('; ')}`).join('\n'));
  const k = knees(curvePoints(levels));
  const kneeText = (n: number | null): string => (n === null ? s('knee.none') : int(n));
  out['kneeStudy'] = raw([
    s('knee.studyRule', { L: String(levels[0]?.sleepMs ?? '?'), p99JumpPct: String(STUDY_RULE_003.p99JumpPct), p99AbsMs: String(STUDY_RULE_003.p99AbsMs), jitterJumpPct: String(STUDY_RULE_003.jitterJumpPct), jitterAbsPct: String(STUDY_RULE_003.jitterAbsPct), knee: kneeText(k.study.kneeThreads) }),
    '',
    k.study.steps.length === 0 ? s('sweep.none') : table([s('h.step'), s('h.p99Jump'), s('h.p99Abs'), s('h.jitterJump'), s('h.jitterAbs'), s('h.fires')],
      k.study.steps.map((x) => [`${int(x.from)} → ${int(x.to)}`, yn(x.p99Jump), yn(x.p99Abs), yn(x.jitterJump), yn(x.jitterAbs), yn(x.fires)]), ['l', 'l', 'l', 'l', 'l', 'l']).md,
    '',
    k.lastLevel === null ? '' : k.studyWithoutLast === k.study.kneeThreads ? s('knee.stable', { last: int(k.lastLevel), knee: kneeText(k.study.kneeThreads) }) : s('knee.moves', { last: int(k.lastLevel), knee: kneeText(k.study.kneeThreads), without: kneeText(k.studyWithoutLast) }),
    '',
    repeatKneeText(ctx, model.derived.repeatKnees, 'study', k.study.kneeThreads),
  ].join('\n'));
  out['kneeDoubling'] = raw([
    s('knee.doublingRule', { minGainPct: num(MIN_GAIN_PER_DOUBLING * 100, 0), knee: kneeText(k.doubling.kneeThreads) }),
    '',
    k.doubling.steps.length === 0 ? s('sweep.none') : table([s('h.step'), s('h.gainPerDoubling'), s('h.below')],
      k.doubling.steps.map((x) => [`${int(x.from)} → ${int(x.to)}`, x.gainPerDoubling === null ? '—' : pct(x.gainPerDoubling * 100, 1), yn(x.below)]), ['l', 'r', 'l']).md,
    '',
    k.lastLevel === null ? '' : k.doublingWithoutLast === k.doubling.kneeThreads ? s('knee.stable', { last: int(k.lastLevel), knee: kneeText(k.doubling.kneeThreads) }) : s('knee.moves', { last: int(k.lastLevel), knee: kneeText(k.doubling.kneeThreads), without: kneeText(k.doublingWithoutLast) }),
    '',
    repeatKneeText(ctx, model.derived.repeatKnees, 'doubling', k.doubling.kneeThreads),
  ].join('\n'));
  // published vs measured, at the same N when this run has it
  const cpus = l0?.cpus ?? null;
  out['publishedVs'] = table(
    [s('h.figure'), s('h.threads'), s('h.published'), s('h.publishedPerCore'), s('h.measured'), s('h.measuredPerCore'), s('h.note')],
    PUBLISHED_003.map((r) => {
      const l = levels.find((x) => x.threads === r.level && x.ok) ?? null;
      const v = r.value as number;
      const perCore = r.metric === 'throughputRps';
      const m = l === null ? null : r.metric === 'throughputRps' ? l.throughputOpsPerS.median : r.metric === 'avgLatencyMs' ? l.latencyMeanMs.median : l.gcPauseSharePct.median;
      const fmt = r.metric === 'throughputRps' ? (x: number | null) => (x === null ? '—' : num(x, 0)) : r.metric === 'avgLatencyMs' ? ms : (x: number | null) => pct(x, 2);
      return [s(`fig.${r.metric}`), int(r.level), `${fmt(v)}${r.metric === 'throughputRps' ? ' req/s' : ''}`,
        perCore ? `${num(v / PUBLISHED_HOST_003.cores, 0)} req/s` : '—',
        l === null ? s('pub.notMeasured') : `${fmt(m)}${r.metric === 'throughputRps' ? ' ops/s' : ''}`,
        perCore && m !== null && cpus ? `${num(m / cpus, 0)} ops/s` : '—',
        s(`pub.note.${r.metric}`)];
    }), ['l', 'r', 'r', 'r', 'r', 'r', 'l']);
  out['hostDiff'] = s('pub.hostDiff', { cores: String(PUBLISHED_HOST_003.cores), memoryGB: String(PUBLISHED_HOST_003.memoryGB), jdk: PUBLISHED_HOST_003.jdk, ourCores: String(cpus ?? model.manifest.host.cores), ourJdk: String(Object.values(model.manifest.sut)[0]?.jdkVersion ?? '?') });
  return out;
}

const yn = (x: boolean): string => (x ? '✔' : '✘');

/**
 * The sweep's charts: ops/s against N with N / L (the answer block's headline chart, answer.ts), each
 * repeat's own curve beside the medians when the run has more than one repeat (phrase
 * `chart.repeat003`), and the latency above L.
 * @throws Error when that phrase is missing (templates/003/phrases.<lang>.json)
 */
function charts(model: ReportModel<Derived003>, t: ChartLabels, phrases: Readonly<Record<string, string>>): ChartSpec[] {
  const levels = model.derived.levels;
  if (levels.length === 0) return [];
  const ns = levels.map((l) => l.threads);
  const x = { field: 'threads', type: 'quantitative' as const, title: 'N (virtual threads)', scale: { type: 'log' as const, nice: false, domain: [Math.min(...ns) * 0.8, Math.max(...ns) * 1.25] }, axis: { values: ns, format: '~s', grid: false } };
  const thr: Record<string, unknown>[] = [];
  const lat: Record<string, unknown>[] = [];
  for (const l of levels) {
    if (l.ok && l.throughputOpsPerS.median !== null) thr.push({ threads: l.threads, series: t.measured, v: l.throughputOpsPerS.median });
    if (l.idealOpsPerS !== null) thr.push({ threads: l.threads, series: 'N / L', v: l.idealOpsPerS });
  }
  const repeats = [...new Set(model.cells.map((c) => c.repeat))].sort((a, b) => a - b);
  if (repeats.length > 1) {
    const label = phrases['chart.repeat003'];
    if (label === undefined) throw new Error('phrases: missing "chart.repeat003" (templates/003/phrases.<lang>.json)');
    for (const c of [...model.cells].sort((a, b) => a.repeat - b.repeat || a.concurrency - b.concurrency)) {
      const sw = sweepOf(c);
      if (sw?.outcome === 'ok' && sw.throughputOpsPerS !== null) thr.push({ threads: sw.threads, series: label.replace('{{n}}', String(c.repeat)), v: sw.throughputOpsPerS });
    }
  }
  for (const l of levels) {
    if (l.ok) for (const [name, a] of [['P50', l.overshootP50Ms], ['P99', l.overshootP99Ms], ['max', l.overshootMaxMs]] as const) if (a.median !== null && a.median > 0) lat.push({ threads: l.threads, series: `overshoot ${name}`, v: a.median });
  }
  const CONFIG = { font: 'Helvetica, Arial, sans-serif', background: 'white', axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 120, titleLimit: 360 }, legend: { labelFontSize: 11, labelLimit: 220 }, title: { fontSize: 14, limit: 1200, anchor: 'start' as const } };
  const line = (name: string, title: string, values: Record<string, unknown>[], yTitle: string, yLog: boolean): ChartSpec => ({
    name, title,
    spec: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json', title, width: 520, height: 280, config: CONFIG,
      data: { values }, mark: { type: 'line', point: true },
      encoding: { x, y: { field: 'v', type: 'quantitative', title: yTitle, ...(yLog ? { scale: { type: 'log' } } : {}) }, color: { field: 'series', type: 'nominal', title: t.series } },
    } as TopLevelSpec,
  });
  return [
    line('sweep-throughput', `${t.throughput} — ${levels[0]!.op}`, thr, 'ops/s', true),
    line('sweep-overshoot', `latency above L — ${levels[0]!.op}`, lat, 'ms', true),
  ];
}

/** Study 003's derived data (hook `derive`, ReportModel.derived): the sweep's levels, computed once per report. */
export interface Derived003 {
  levels: SweepLevel[];
  /** the knee under each rule on each repeat's own curve (repeatKnees): the medians' knee stands only where they agree */
  repeatKnees: RepeatKnee[];
}

/** Study 003's report hook: the sweep's levels once, its own sections and charts. */
export const REPORT_003: StudyReportHook<Derived003> = { derive: (model) => ({ levels: sweepLevels(model.cells), repeatKnees: repeatKnees(model.cells) }), sections, charts };
