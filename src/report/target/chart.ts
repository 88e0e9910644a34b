/**
 * The headline chart of a target report: throughput against the level per arm (solid, points), and
 * each arm's inferred bound min(c, N) / R(1) = min(c / R(1), X_max) (dashed): the closed loop's
 * offered load below the inferred concurrency N, the plateau above it. Open loop: the bound is
 * min(λ, X_max). Log axes, like the engine's throughput chart (src/report/charts.ts). Pure.
 */
import type { TopLevelSpec } from 'vega-lite';
import { CONFIG, PALETTE, SCHEMA, forLogScale } from '../charts.ts';
import type { ChartSpec } from '../types.ts';
import type { TargetReportModel } from './model.ts';

/** the headline figure's name: `figures/<name>.svg` */
export const TARGET_HEADLINE = 'target-throughput';

export interface TargetChartLabels { title: string; level: string; rps: string; arm: string; series: string; measured: string; bound: string }

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/** The headline chart spec (TARGET_HEADLINE) of a target model. */
export function targetThroughputChart(model: TargetReportModel, t: TargetChartLabels): ChartSpec {
  const rows: Record<string, unknown>[] = [];
  for (const a of model.arms) {
    const inf = a.inference;
    for (const l of inf.levels) {
      if (l.throughputRps !== null) rows.push({ level: l.level, arm: a.arm.label, series: t.measured, rps: r3(l.throughputRps) });
      const offered = l.offeredBoundRps;
      if (offered !== null && inf.xMaxRps !== null) rows.push({ level: l.level, arm: a.arm.label, series: t.bound, rps: r3(Math.min(offered, inf.xMaxRps)) });
    }
  }
  const kept = forLogScale(rows, 'rps');
  const lvls = [...new Set(model.cells.map((c) => c.level))].filter((x) => x > 0).sort((a, b) => a - b);
  const labels = model.arms.map((a) => a.arm.label);
  const x = { field: 'level', type: 'quantitative' as const, title: t.level, scale: { type: 'log' as const, nice: false, ...(lvls.length ? { domain: [Math.min(...lvls) * 0.8, Math.max(...lvls) * 1.25] } : {}) }, axis: { values: lvls, format: 'd', grid: false } };
  return { name: TARGET_HEADLINE, title: t.title, spec: {
    $schema: SCHEMA, title: t.title, width: 520, height: 280, config: CONFIG,
    data: { values: kept.rows },
    mark: { type: 'line', point: true },
    encoding: {
      x,
      y: { field: 'rps', type: 'quantitative', title: t.rps, scale: { type: 'log' } },
      color: { field: 'arm', type: 'nominal', title: t.arm, sort: labels, scale: { domain: labels, range: labels.map((_, i) => PALETTE[i % PALETTE.length] as string) } },
      strokeDash: { field: 'series', type: 'nominal', title: t.series, sort: [t.measured, t.bound], scale: { domain: [t.measured, t.bound], range: [[1, 0], [6, 4]] } },
      detail: { field: 'series' },
    },
  } as TopLevelSpec };
}
