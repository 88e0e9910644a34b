/**
 * The shared helpers of the engine's report sections (src/report/sections/*.ts): phrase lookup,
 * variant names, provenance-marked values, built once per render from the model and the templates.
 * Pure except for the provenance book, which numbers footnotes in first-use order (so the order in
 * which sections are rendered is part of the output: src/report/render-md.ts keeps it).
 */
import type { VariantId } from '../../types/run.ts';
import type { RenderContext, ReportModel, RowModel, Templates, Verdict } from '../types.ts';
import { LAT_TOL } from '../model.ts';
import { Raw, aggText, esc, int, ms, num, raw } from '../format.ts';
import type { ProvBook, Provenance } from '../provenance.ts';
import { phraser, templatesForRun } from '../phrases.ts';

/** The helpers every section shares: RenderContext's base part plus the run's load model and two row formatters. */
export interface SectionKit extends Omit<RenderContext, 'reasonText' | 'cmpTable' | 'edgeNote' | 'generic'> {
  /** the templates as given (closed-loop wording; the published figures keep their own level header) */
  t0: Templates;
  /** the run's levels are arrival rates (src/report/phrases.ts isOpenLoopRun) */
  openLoopRun: boolean;
  /** a row's level with its provenance */
  lvl: (r: RowModel) => Raw;
  /** a median of the repeats with its spread, with its provenance */
  ag: (r: RowModel, k: AggKey, f: (x: number | null) => string) => Raw;
}

/** The row metrics `SectionKit.ag` prints. */
export type AggKey = 'wholeRunRps' | 'steadyRps' | 'e2eP50Ms' | 'e2eP95Ms' | 'e2eP99Ms' | 'queueP95Ms' | 'execP95Ms' | 'execP99Ms' | 'errorCount';

/**
 * The section kit of one render: `t0` the report's templates (engine and study phrases, its language),
 * `book` the render's provenance book (every `pv` adds to it). An open-loop run gets the
 * `<key>@openLoop` phrases (templatesForRun).
 */
export function makeKit(model: ReportModel, t0: Templates, book: ProvBook): SectionKit {
  const pv = (text: string, prov: Provenance | null | undefined): Raw => book.md(text, prov);
  const t = templatesForRun(t0, model);
  const P = phraser(t);
  const s = (key: string, v: Record<string, string | Raw> = {}) => P(key, v).md;
  const variantName = (id: VariantId): string => (t.phrases[`variant.${id}`] !== undefined ? s(`variant.${id}`) : esc(model.variantSpecs.get(id)?.label ?? id));
  const sentenceSep = t.lang === 'zh' ? '' : ' ';
  return {
    t, t0, P, s, variantName, pv, sentenceSep,
    openLoopRun: t !== t0,
    verdict: (v: Verdict) => P(`verdict.${v.replace(/ /g, '-')}`),
    join: (parts: (string | Raw)[]) => raw(parts.map((p) => (p instanceof Raw ? p.md : esc(p))).filter((x) => x !== '').join(sentenceSep)),
    statusText: (st: string): string => t.phrases[`status.${st}`] ?? st,
    msT: (x: number | null | undefined): string => (x === 0 ? '0' : ms(x)),
    span: (a: number, b: number, f: (x: number) => string): string => (f(a) === f(b) ? f(a) : `${f(a)}–${f(b)}`),
    latTol: `${num(LAT_TOL.rel * 100, 0)} % / ${int(LAT_TOL.abs)} ms`,
    lvl: (r: RowModel): Raw => pv(int(r.concurrency), r.prov.concurrency),
    ag: (r, k, f) => pv(aggText(r[k], f), r.prov[k]),
  };
}

/** absolute floor below which a latency change is noise: no percent change is shown */
export const CHANGE_FLOOR_MS = 10;
