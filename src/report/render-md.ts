/**
 * Report model + templates → Markdown string. Pure. Every sentence with a number comes from a
 * phrase template filled with values from the model; the phrase is chosen by the data (win, tie,
 * loss, zero, missing).
 *
 * The engine fills the GENERIC placeholders below for any study, one module per section
 * (src/report/sections/*.ts); a study's report hook (Study.report.sections, src/report/types.ts)
 * adds its own. The template contract (which placeholders and phrase keys a study's template may
 * use) is in templates/README.md.
 */
import type { CellFlag } from '../types/run.ts';
import type { ReportModel, RowModel } from './model.ts';
import { Raw, esc, fill, int, raw } from './format.ts';
import { ProvBook, provMarkdown, provSections, stripProvRefs, type ProvEntry } from './provenance.ts';
import { dataAppendix } from './data-appendix.ts';
import { makeKit, type SectionKit } from './sections/kit.ts';
import { flagsAndGaps, flagsAppendix } from './sections/flags.ts';
import { boundsTable } from './sections/bounds.ts';
import { environment } from './sections/environment.ts';
import { method } from './sections/method.ts';
import { allLevels, cmpTable, comparisons, totals } from './sections/results.ts';
import { publishedTable, reasonText } from './sections/published.ts';
import { boundTable, decomposition, edgeNote, little } from './sections/analysis.ts';
import { threadDumps } from './sections/thread-dumps.ts';
import { pinning } from './sections/pinning.ts';
import { resources } from './sections/resources.ts';
import { fixtureNote, summary, title } from './sections/summary.ts';
import { openLoop } from './sections/open-loop.ts';
import { answerMarkdown, answerTable, headlineChart } from './sections/answer.ts';
export type { Templates, FigureRef, RenderContext } from './types.ts';
import type { Templates, FigureRef, RenderContext } from './types.ts';
export { OPEN_LOOP_SUFFIX, isOpenLoopRun, templatesForRun, phraser, chartLabels } from './phrases.ts';
export { CHANGE_FLOOR_MS } from './sections/kit.ts';

/**
 * The report's Markdown: the study's template `report.<lang>.md` with every `{{placeholder}}`
 * filled, first from the study's own `sections` hook, then from the engine's generic values
 * (templates/README.md lists them); runs of three or more newlines collapse to one blank line.
 * `figures` are the charts to embed: each fills `{{fig:<name>}}` with `![title](figures/<name>.svg)`
 * (a figure the template does not name is not shown). Units as the tables print them: ms,
 * requests/s, MiB, %. Strings from the run are Markdown-escaped. Pure (no I/O).
 * @throws Error when the template names a placeholder nobody fills, or a phrase it needs is missing
 *   from `t.phrases` (engine and study phrases; template bugs, caught by the golden tests)
 */
export function renderMarkdown(model: ReportModel, t0: Templates, figures: readonly FigureRef[]): string {
  const parts = renderMarkdownParts(model, t0, figures);
  return reportMarkdownOf(parts.body, parts.book.entries, parts.phrases);
}

/**
 * report.md from the parts of renderMarkdown: the body without its provenance references (no figure
 * carries a marker), then the appendix "How each number was computed", one block per section of
 * the body (provenance.ts provSections, provMarkdown). Pure.
 */
export function reportMarkdownOf(body: string, entries: readonly ProvEntry[], phrases: Readonly<Record<string, string>>): string {
  return joinProvAppendix(stripProvRefs(body), provMarkdown(provSections(body, entries), phrases));
}

/** The report body followed by its provenance appendix, one blank line apart. */
export function joinProvAppendix(body: string, appendix: string): string {
  return appendix === '' ? body : `${body.replace(/\n+$/, '')}\n\n${appendix}\n`;
}

/** A generic placeholder's value: text, or a function rendered only when the template uses it and the study does not fill it. */
type GenericValue = string | Raw | (() => string | Raw);

/**
 * The generic placeholders (templates/README.md), each from its section module. The eager ones are
 * rendered here, in this order, whether the template uses them or not: the provenance book numbers
 * footnotes in first-use order, so this order is part of the report's bytes.
 */
function genericSections(model: ReportModel, k: SectionKit, figures: readonly FigureRef[]): Record<string, GenericValue> {
  const o = model.manifest.options;
  const eager: Record<string, GenericValue> = {
    flagsAndGaps: flagsAndGaps(model, k),
    boundsTable: boundsTable(model, k),
    environment: environment(model, k),
    method: method(model, k),
    totals: totals(model, k),
    comparisons: comparisons(model, k),
    allLevels: allLevels(model, k),
    publishedTable: publishedTable(model, k),
    boundTable: boundTable(model, k),
    decomposition: decomposition(model, k),
    little: little(model, k),
    threadDumps: threadDumps(model, k),
    pinning: pinning(model, k),
    resources: resources(model, k),
  };
  const figVals: Record<string, Raw> = {};
  for (const f of figures) figVals[`fig:${f.name}`] = raw(`![${esc(f.title)}](figures/${f.name}.svg)`);
  return {
    ...eager,
    answer: () => answerMarkdown(model, k),
    headlineChart: headlineChart(model, figures),
    answerTable: answerTable(model, k),
    summary: () => summary(model, k),
    title: title(model, k),
    fixtureNote: fixtureNote(model, k),
    percentileDefinition: model.percentileDefinition,
    samplerIntervalMs: int(o.samplerIntervalMs),
    openLoop: () => openLoop(model, k, figVals['fig:open-loop-queue']),
    ...figVals,
  };
}

/**
 * The parts of renderMarkdown: the report body (the template filled, then the data appendix) with a
 * reference `[^n<id>]` after every value that has a provenance (report.md drops them: reportMarkdownOf;
 * the HTML links them), and the book of those references.
 * `phrases` are the phrases the body used (the run's load model), for the appendix.
 */
export function renderMarkdownParts(model: ReportModel, t0: Templates, figures: readonly FigureRef[]): { body: string; book: ProvBook; phrases: Record<string, string> } {
  const book = new ProvBook();
  const k = makeKit(model, t0, book);
  const generic = genericSections(model, k, figures);
  const value = (name: string): string | Raw | undefined => { const g = generic[name]; return typeof g === 'function' ? g() : g; };
  const ctx: RenderContext = {
    t: k.t, P: k.P, s: k.s, variantName: k.variantName, verdict: k.verdict, sentenceSep: k.sentenceSep, join: k.join, statusText: k.statusText,
    msT: k.msT, span: k.span, latTol: k.latTol, pv: k.pv, generic: value,
    reasonText: (r) => reasonText(model, k, r), cmpTable: (cmp) => cmpTable(model, k, cmp), edgeNote: () => edgeNote(model, k),
  };
  const own = model.study.report?.sections?.(model, ctx) ?? {};
  const values: Record<string, string | Raw> = {};
  for (const [, name] of k.t.report.matchAll(/\{\{([A-Za-z0-9_.:-]+)\}\}/g)) {
    const v = own[name as string] ?? value(name as string);
    if (v !== undefined) values[name as string] = v;
  }
  const body = fill(k.t.report, values, `report.${k.t.lang}.md`).replace(/\n{3,}/g, '\n\n');
  // the appendices after the template: the per-cell flags (the template's {{flagsAndGaps}} groups them), then the data
  const appendices = [flagsAppendix(model, k), dataAppendix(model, k.P)].filter((x) => x !== '');
  return { body: `${body.replace(/\n+$/, '')}\n\n${appendices.join('\n\n')}\n`, book, phrases: k.t.phrases };
}

export type { RowModel, CellFlag };
