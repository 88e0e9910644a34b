/**
 * Study 002's report hook (Study.report, src/report/types.ts): its rows derived once (derive002),
 * its published figures, the acceptance rule per cell, and its own sections, one module per group
 * of placeholders under src/studies/002/sections/, with scenario 5's sections and charts
 * (src/studies/002/ws-push.ts).
 */
import type { StudyReportHook } from '../../report/types.ts';
import type { ReportModel } from '../../report/model.ts';
import type { RenderContext } from '../../report/render-md.ts';
import type { Raw } from '../../report/format.ts';
import { charts, conclusions, derive002, figure, type Derived002 } from './report.ts';
import { wsCharts, wsSections } from './ws-push.ts';
import { aloneSection, cpuBasisText, dbInfo, designTable, hikariLine, sutInfo } from './sections/setup.ts';
import { groupSections } from './sections/groups.ts';
import { criticalPathText, exhaustion, mixedTimings, pinning002 } from './sections/pitfalls.ts';
import { decisionTable, limits, limitsSummary, publishedVsBound } from './sections/verdicts.ts';
import { answer002, answerChart002 } from './answer.ts';

/** The study's own placeholders (pure: model + phrases → Markdown), from its derived rows. */
function sections(model: ReportModel<Derived002>, ctx: RenderContext): Record<string, string | Raw> {
  const rows = model.derived.rows;
  return {
    // test design: scenarios, their holding times and levels
    cpuBasis: cpuBasisText(rows, ctx),
    designTable: designTable(model, ctx),
    dbInfo: dbInfo(model, ctx),
    sutInfo002: sutInfo(model, ctx),
    aloneProbe: aloneSection(model, rows, ctx),
    // one section per scenario group
    ...groupSections(model, rows, ctx),
    criticalPath: criticalPathText(rows, ctx),
    mixedTimings: mixedTimings(rows, ctx),
    // pitfalls: synchronized pinning (JFR), pool exhaustion with the CPU seen during it
    pinning002: pinning002(rows, ctx, model.manifest.options.pinnedThresholdMs),
    exhaustion: exhaustion(rows, ctx),
    hikariVersion: hikariLine(model, ctx),
    publishedVsBound: publishedVsBound(model, rows, ctx),
    limits: limits(rows, ctx),
    limitsSummary: limitsSummary(rows, ctx),
    decisionTable: decisionTable(rows, ctx),
  };
}

/**
 * Study 002's report hook: its derived rows (derive002), the published figures at this run's levels,
 * the acceptance rule per cell, its own sections and charts, with scenario 5's
 * (src/studies/002/ws-push.ts) added, and its answer block and headline chart (./answer.ts).
 */
export const REPORT_002: StudyReportHook<Derived002> = {
  derive: derive002,
  figure: (row, model) => figure(row, model),
  analyse: (model) => ({ conclusions: conclusions(model), followUps: [] }),
  sections: (model, ctx) => ({ ...sections(model, ctx), ...wsSections(model, ctx, model.derived.ws) }),
  charts: (model, t, phrases) => [...answerChart002(model, t, phrases), ...charts(model, t), ...wsCharts(model, t, phrases, model.derived.ws)],
  answer: answer002,
};

