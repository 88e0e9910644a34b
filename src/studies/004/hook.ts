/**
 * Study 004's report hook (Study.report, src/report/types.ts): both experiments' rows derived once
 * (derive004), the makespan and latency figures, the claims, and its own sections, one module per
 * part under src/studies/004/sections/.
 */
import type { StudyReportHook } from '../../report/types.ts';
import type { ReportModel } from '../../report/model.ts';
import type { RenderContext } from '../../report/render-md.ts';
import type { Raw } from '../../report/format.ts';
import { ASYNC, HTTP, conclusions, derive004, figure, type Derived004 } from './report.ts';
import { bootTable, environment004 } from './sections/boot.ts';
import { asyncSections } from './sections/async.ts';
import { httpSections } from './sections/http.ts';
import { answer004, charts004 } from './answer.ts';

/** The study's own placeholders (pure: model + phrases → Markdown): the experiment the run did, the other one's pointer. */
function sections(model: ReportModel<Derived004>, ctx: RenderContext): Record<string, string | Raw> {
  const { s } = ctx;
  const scenario = model.manifest.options.scenario;
  const env = environment004(ctx);
  return {
    bootTable: bootTable(model, ctx),
    ...(env !== undefined ? { environment: env } : {}),
    ...(scenario === ASYNC
      ? { ...asyncSections(model, ctx), httpTable: s('other.http', { profile: 'seed-004-http' }), httpBounds: '', httpClaims: '' }
      : { asyncTable: s('other.async', { profile: 'seed-004' }), asyncEvidence: '', asyncBreakdown: '' }),
    ...(scenario === HTTP ? httpSections(model, ctx) : {}),
  };
}

/** Study 004's report hook: its rows once (derive004), the makespan and latency figures, the claims, its own sections, its answer block and headline charts (./answer.ts). */
export const REPORT_004: StudyReportHook<Derived004> = {
  derive: derive004,
  figure: (row, model) => figure(row, model),
  analyse: (model) => ({ conclusions: conclusions(model), followUps: [] }),
  sections,
  charts: charts004,
  answer: answer004,
};
