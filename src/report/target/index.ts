/**
 * The report of a target run (issue 32), English and Chinese: reads the run folder (load.ts),
 * computes (model.ts over src/compute/target/), words it (render.ts with
 * templates/target/phrases.<lang>.json), draws the headline chart (chart.ts, vega-lite → SVG) and
 * turns the Markdown into the engine's self-contained HTML page (render-html.ts renderHtml: the
 * answer markers become `<section id="answer">`, the `#headline` figure `<figure id="headline-chart">`).
 *
 * Files, relative to the report's folder (`report/<runId>/` by writeTargetReport):
 *   index.md, index.html, figures/target-throughput.svg,
 *   zh/index.md, zh/index.html, zh/figures/target-throughput.svg
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSvg } from '../charts.ts';
import { renderHtml } from '../render-html.ts';
import { writeAll, type OutFile } from '../write.ts';
import { readTargetRun, type TargetRunFiles } from './load.ts';
import { buildTargetModel, type TargetReportModel } from './model.ts';
import { targetAnswerText, targetMarkdown, targetPhraser, targetTitle } from './render.ts';
import { TARGET_HEADLINE, targetThroughputChart } from './chart.ts';

const TEMPLATE_DIR = fileURLToPath(new URL('../../../templates/target/', import.meta.url));
export const TARGET_LANGS = ['en', 'zh'] as const;
export type TargetLang = (typeof TARGET_LANGS)[number];

/** templates/target/phrases.<lang>.json */
export async function targetPhrases(lang: TargetLang): Promise<Record<string, string>> {
  return JSON.parse(await readFile(join(TEMPLATE_DIR, `phrases.${lang}.json`), 'utf8')) as Record<string, string>;
}

/** What renderTargetReport gives back. */
export interface TargetReport {
  /** every file of the report, paths relative to the report's folder */
  files: OutFile[];
  model: TargetReportModel;
  /** the English lead sentence as plain text (for the terminal) */
  answerText: string;
}

/** One language's files (`prefix` '' or 'zh/'). */
async function languageFiles(model: TargetReportModel, lang: TargetLang, prefix: string): Promise<OutFile[]> {
  const phrases = await targetPhrases(lang);
  const ph = targetPhraser(phrases, lang);
  const md = targetMarkdown(model, phrases, lang);
  const spec = targetThroughputChart(model, {
    title: phrases['chart.title'] as string, level: phrases[model.manifest.mode === 'open-loop' ? 'chart.rate' : 'chart.level'] as string, rps: phrases['chart.rps'] as string,
    arm: phrases['chart.arm'] as string, series: phrases['chart.series'] as string, measured: phrases['chart.measured'] as string, bound: phrases['chart.bound'] as string,
  });
  const svg = await renderSvg(spec.spec);
  const title = targetTitle(model, ph).md.replace(/\\(.)/g, '$1').replace(/`/g, '');
  const html = renderHtml(md, new Map([[TARGET_HEADLINE, svg]]), { lang, title });
  return [
    { path: `${prefix}figures/${TARGET_HEADLINE}.svg`, content: svg },
    { path: `${prefix}index.md`, content: md },
    { path: `${prefix}index.html`, content: html },
  ];
}

/**
 * Build the report of a target run from its folder (or from a run already read). Pure apart from
 * reading the run and the phrase files, and rendering the chart.
 * @param run the run folder (manifest.json, cells/, threaddumps/), or its files as readTargetRun gives them
 * @returns the files (English at the root, Chinese under zh/), the model, the lead sentence as text
 * @throws Error when the folder is not a target run (readTargetRun) or a phrase is missing
 */
export async function renderTargetReport(run: string | TargetRunFiles): Promise<TargetReport> {
  const files = typeof run === 'string' ? await readTargetRun(run) : run;
  const model = buildTargetModel(files);
  const out = [...(await languageFiles(model, 'en', '')), ...(await languageFiles(model, 'zh', 'zh/'))];
  return { files: out, model, answerText: targetAnswerText(model, await targetPhrases('en'), 'en') };
}

/**
 * renderTargetReport, then write every file atomically under `outDir` (the CLI passes
 * `report/<runId>`). Returns the paths written and the lead sentence.
 */
export async function writeTargetReport(runDir: string, outDir: string): Promise<{ paths: string[]; answerText: string }> {
  const r = await renderTargetReport(runDir);
  return { paths: await writeAll(outDir, r.files), answerText: r.answerText };
}
