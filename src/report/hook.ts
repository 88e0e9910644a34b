/**
 * The report hook of a study (Study.report): what the generic report engine cannot know about one
 * study. The engine builds the model over any variants and the study's comparisons (rows, bounds,
 * comparisons, published-vs-measured verdicts, flags, pinning, thread dumps, resources); the hook
 * adds the study's own analysis (conclusion rules, follow-ups) once, in the pure model stage, and
 * renders the study's own template sections from the model. A study without a hook renders with
 * the generic placeholders only (templates/README.md).
 */
import type { PublishedRow as PublishedFigure } from '../study/types.ts';
import type { ReportModel, RowModel, Reason, Tolerance } from './model.ts';
import type { RenderContext } from './render-md.ts';
import type { Raw } from './format.ts';
import type { CellResult } from '../store/types.ts';

/**
 * How one published figure is measured and explained in this run. Every field is optional; the
 * engine's defaults: the generic metric of the row (`throughputRps`, `e2eP95Ms`, `e2eP99Ms`,
 * `queueWaitP95Ms`, `executionP95Ms`, `errorRate` of the (variant, level) row), the row's tolerance.
 */
export interface FigureCheck {
  /** the measured value; `row` is the model row of the figure's (variant, level), null when the figure has none */
  measured?: (row: RowModel | null) => number | null;
  tolerance?: Tolerance;
  /** reasons shown whatever the verdict */
  always?: Reason[];
  /** reasons that may explain a miss: shown only when the verdict is "not reproduced" */
  expected?: Reason[];
  /**
   * the figure has its own comparability rule instead of the study's gate (e.g. run totals: only
   * comparable when the plan is the study's). Non-empty: "not tested here" with these reasons, the
   * measured value and its difference still shown; empty: compared.
   */
  ownGate?: Reason[];
}

/** Analysis of a study over the generic model (pure; computed once, in the model stage). */
export interface StudyAnalysis {
  conclusions: ConclusionRow[];
  followUps: FollowUp[];
}

export type Verdict = 'reproduced' | 'not reproduced' | 'not tested here';

export interface ConclusionRow {
  id: string;
  kind: 'proven' | 'not-proven';
  verdict: Verdict;
  /** evidence values, named; renderers phrase them */
  evidence: Record<string, number | string | null>;
}

/** A follow-up experiment of the study: phrase `fu.<id>`, and the command that runs it (null = not runnable by this tool yet). */
export interface FollowUp { id: string; command: string | null }

export interface StudyReportHook {
  /**
   * Reasons why this run cannot be compared with the study's published figures at all (a
   * different service time, pool size…). Non-empty: every figure without `ownGate` is "not tested
   * here" with reason `notComparable` listing these.
   */
  gate?(model: BaseModel): Reason[];
  /** how one published figure is measured and explained (see FigureCheck); `cells` = the run's cells */
  figure?(row: PublishedFigure, model: BaseModel, cells: readonly CellResult[]): FigureCheck;
  /** the study's own analysis: conclusion rules and follow-ups */
  analyse?(model: BaseModel): StudyAnalysis;
  /**
   * the study's own template placeholders, rendered from the model (values may override a generic
   * placeholder of the same name). Pure: model + phrases in, Markdown out.
   */
  sections?(model: ReportModel, ctx: RenderContext): Record<string, string | Raw>;
  /**
   * the study's own charts (vega-lite specs), appended to the engine's; each fills `{{fig:<name>}}`
   * and is written to `figures/<name>.svg`. `t` are the report's chart labels (its language), `phrases`
   * the report's phrases (engine and study, its language: a chart's own titles). Pure.
   */
  charts?(model: ReportModel, t: import('./charts.ts').ChartLabels, phrases: Readonly<Record<string, string>>): import('./charts.ts').ChartSpec[];
}

/** The model before the study's analysis (what `gate`, `figure` and `analyse` see). */
export type BaseModel = Omit<ReportModel, 'conclusions' | 'followUps'>;
