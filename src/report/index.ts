/**
 * The report stage: runs/<id>/ → report/<id>/{index.html, report.md, figures/*.svg, meta.json}
 * and report/{index.md, index.html}. Reads only the run folder and templates/<study>/; the same input
 * gives byte-identical output. `buildReport` is the pure part (strings only); `renderReport`
 * adds loading and the one writer.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TopLevelSpec } from 'vega-lite';
import { loadRun, type LoadedRun } from './load.ts';
import { buildModel, type ReportModel } from './model.ts';
import { chartSpecs, renderSvg } from './charts.ts';
import { chartLabels, renderMarkdownParts, reportMarkdownOf, templatesForRun, type Templates } from './render-md.ts';
import { escapeHtml, htmlPage, markdown, renderHtml } from './render-html.ts';
import { provSections } from './provenance.ts';
import { esc, int, ms, raw, rps, table } from './format.ts';
import { writeAll, writeAtomic, type OutFile } from './write.ts';
import type { Study } from '../types/study.ts';
import type { StudyPlugin } from './types.ts';
import { driverLevel, primaryPair } from './model.ts';
import { answerLine, answerText } from './answer-text.ts';
import { answerPhrases } from './sections/answer.ts';
import type { AnswerBlock } from './answer-types.ts';
import { frontPageMeta, frontPageTable, readFrontEntries, type FrontEntry, type MetaHighest, type MetaHost } from './front-page.ts';

export type Lang = 'en' | 'zh';
/** the engine's phrases (generic placeholders); a study's phrases.<lang>.json adds and overrides keys */
const ENGINE_TEMPLATE_DIR = fileURLToPath(new URL('../../templates/engine/', import.meta.url));

/**
 * A study's templates: `<study.templateDir>/report.<lang>.md`, and its `phrases.<lang>.json` over
 * the engine's `templates/engine/phrases.<lang>.json` (templates/README.md).
 */
export async function loadTemplates(lang: Lang, study: Pick<Study, 'templateDir'>): Promise<Templates> {
  const [report, engine, own] = await Promise.all([
    readFile(join(study.templateDir, `report.${lang}.md`), 'utf8'),
    readFile(join(ENGINE_TEMPLATE_DIR, `phrases.${lang}.json`), 'utf8'),
    readFile(join(study.templateDir, `phrases.${lang}.json`), 'utf8'),
  ]);
  return { lang, report, phrases: { ...(JSON.parse(engine) as Record<string, string>), ...(JSON.parse(own) as Record<string, string>) } };
}

/** ReportMeta `load`: `in-process` when the run's scenario's driver runs one job per cell (`level` `job`), else `open-loop` for arrival-rate cells, else `closed-loop`. */
function loadWord(model: ReportModel): NonNullable<ReportMeta['load']> {
  return driverLevel(model.study, model.manifest.options.scenario) === 'job' ? 'in-process' : model.openLoop ? 'open-loop' : 'closed-loop';
}

/** What report/index.* lists about one run (report/<id>/meta.json). */
export interface ReportMeta {
  runId: string;
  /** the run's study id */
  study: string;
  profile: string;
  status: string;
  startedAt: string;
  lang: Lang;
  levels: number[];
  /**
   * how the cells were loaded, so the index words the levels and figures right: `closed-loop`
   * (levels are concurrent clients), `open-loop` (levels are arrival rates, req/s) or `in-process`
   * (one timed job per cell, its level read by the study: the E2E time is the job's, and req/s
   * means nothing); absent in a
   * meta.json written before it was recorded (read as closed-loop)
   */
  load?: 'closed-loop' | 'open-loop' | 'in-process';
  /**
   * the study's first comparison at its highest common level: variant ids, whole-run throughput
   * (req/s) and E2E P95 (ms), medians of the repeats; null when the run has no such level
   */
  highest: MetaHighest | null;
  gaps: number;
  /**
   * the run's answer in one line, in the report's language (src/report/answer-text.ts answerLine of
   * the model's answer block); absent in a meta.json written before it was recorded
   */
  answer?: string;
  /** the study's title and the host the run measured on, for the front page (frontPageMeta) */
  studyTitle: string;
  host: MetaHost;
}

export interface BuiltReport {
  model: ReportModel;
  specs: { name: string; title: string; spec: TopLevelSpec }[];
  /** paths relative to report/<id>/ */
  files: OutFile[];
  gaps: string[];
  /** the answer block as plain text for the terminal (answerText), in the report's language */
  answerText: string;
}

/** The figure names a report's Markdown embeds: every image `](figures/<name>.svg)`. Pure. */
export function figuresShown(md: string): Set<string> {
  return new Set([...md.matchAll(/\]\(figures\/([a-z0-9-]+)\.svg(?:#[a-z-]+)?\)/g)].map((m) => m[1] as string));
}

/**
 * Pure apart from chart rendering: loaded run + templates → every output file as a string. Only the
 * charts the Markdown embeds are rendered and written (`figures/<name>.svg`); `specs` lists them all.
 */
export async function buildReport(run: LoadedRun, t: Templates): Promise<BuiltReport> {
  const model = buildModel(run);
  // chart axis titles and names in the run's load model (rate wording for an open-loop run)
  const tRun = templatesForRun(t, model);
  const labels = chartLabels(tRun);
  const specs = [...chartSpecs(model, labels), ...(model.study.report?.charts?.(model, labels, tRun.phrases) ?? [])];
  // the body carries a reference after every value with a provenance: report.md drops them and ends with the
  // appendix by section; the HTML turns each into a link to its row of the HTML appendix (collapsed by section)
  const parts = renderMarkdownParts(model, t, specs.map((s) => ({ name: s.name, title: s.title })));
  // only the charts the report shows are drawn and written (a figure no placeholder names would be dead weight)
  const shown = figuresShown(parts.body);
  const svgs = new Map<string, string>();
  for (const s of specs) if (shown.has(s.name)) svgs.set(s.name, await renderSvg(s.spec));
  const md = reportMarkdownOf(parts.body, parts.book.entries, parts.phrases);
  const titleLine = md.split('\n')[0]?.replace(/^#\s*/, '') ?? model.runId;
  const html = renderHtml(parts.body, svgs, { lang: t.lang, title: titleLine.replace(/\\(.)/g, '$1') },
    { entries: parts.book.entries, phrases: parts.phrases, runId: model.runId, upgradedFrom: run.upgradedFrom ?? null, sections: provSections(parts.body, parts.book.entries) });
  // the answer's words: the run's phrases (open-loop wording) with the variants' labels
  const words = answerPhrases(model, tRun.phrases);
  // report/index.* lists the study's first comparison
  const pair = primaryPair(model);
  const h = pair?.highest ?? null;
  const meta: ReportMeta = {
    runId: model.runId, study: model.manifest.options.study, profile: model.manifest.options.profile, status: model.manifest.status, startedAt: model.manifest.startedAt,
    lang: t.lang, levels: model.levels,
    load: loadWord(model),
    highest: pair && h ? {
      concurrency: h.concurrency, baseline: pair.baseline, candidate: pair.candidate,
      baselineRps: h.baseline.wholeRunRps.median, candidateRps: h.candidate.wholeRunRps.median,
      baselineE2eP95Ms: h.baseline.e2eP95Ms.median, candidateE2eP95Ms: h.candidate.e2eP95Ms.median,
    } : null,
    gaps: model.gaps.length,
    answer: answerLine(model.answer, words),
    ...frontPageMeta(model),
  };
  const files: OutFile[] = [
    ...specs.filter((s) => svgs.has(s.name)).map((s) => ({ path: `figures/${s.name}.svg`, content: svgs.get(s.name) as string })),
    { path: 'report.md', content: md },
    { path: 'index.html', content: html },
    { path: 'meta.json', content: JSON.stringify(meta, null, 2) + '\n' },
  ];
  return { model, specs, files, gaps: model.gaps, answerText: answerText(model.answer, words) };
}

/** What renderReport wrote: the report's folder, the files, the run's gaps, and its answer (block and terminal text). */
export interface RenderedReport {
  outDir: string;
  files: string[];
  gaps: string[];
  answer: AnswerBlock;
  /** the answer block as plain text (answerText), printed by the CLI at the end of `run` and `report` */
  answerText: string;
}

/**
 * Load a run, build its report with its study's templates and write it.
 * @param opts.study a study that is not registered (tests); default: the run's study by `manifest.options.study`
 *   among `opts.studies` (the CLI passes the registered ones)
 */
export async function renderReport(runDir: string, outRoot: string, opts: { lang: Lang; study?: StudyPlugin; studies: readonly StudyPlugin[] }): Promise<RenderedReport> {
  const run = await loadRun(runDir, { ...(opts.study ? { study: opts.study } : {}), studies: opts.studies });
  const built = await buildReport(run, await loadTemplates(opts.lang, run.study));
  // English at report/<id>/, Chinese beside it at report/<id>/zh/, so neither overwrites the other.
  const outDir = opts.lang === 'zh' ? join(outRoot, built.model.runId, 'zh') : join(outRoot, built.model.runId);
  const files = await writeAll(outDir, built.files);
  files.push(...(await renderIndex(outRoot, opts.studies)));
  return { outDir, files, gaps: built.gaps, answer: built.model.answer, answerText: built.answerText };
}

/**
 * Pure: the front page as Markdown (links to report.md) and HTML (links to index.html): one row per
 * report with its answer line, study, host and date (src/report/front-page.ts).
 */
export function indexDocuments(entries: readonly FrontEntry[]): { md: string; html: string } {
  const doc = (target: 'report.md' | 'index.html') =>
    `# vtbench reports\n\n${entries.length} run(s) in this folder, by study, one line each: the run's answer, its study, the host it ran on and when it started. Each run links to its full report (中文: the Chinese copy).\n\n${frontPageTable(entries, { prefix: '', target }).md}\n`;
  return { md: doc('report.md'), html: htmlPage(markdown().render(doc('index.html')), { lang: 'en', title: 'vtbench reports' }) };
}

/**
 * Rewrites report/index.md and report/index.html from every report/<id>/meta.json under `outRoot`.
 * @param studies the registered studies (titles for a meta.json written before it carried one)
 */
export async function renderIndex(outRoot: string, studies: readonly Pick<Study, 'id' | 'title'>[] = []): Promise<string[]> {
  const { md, html } = indexDocuments(await readFrontEntries(outRoot, studies));
  await writeAtomic(join(outRoot, 'index.md'), md);
  await writeAtomic(join(outRoot, 'index.html'), html);
  return [join(outRoot, 'index.md'), join(outRoot, 'index.html')];
}

export { escapeHtml };
