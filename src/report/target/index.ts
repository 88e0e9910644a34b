/**
 * The report of a target run (issue 32), English and Chinese: reads the run folder (load.ts),
 * computes (model.ts over src/compute/target/), words it (render.ts with
 * templates/target/phrases.<lang>.json), draws the headline chart (chart.ts, vega-lite → SVG) and
 * turns the Markdown into the engine's self-contained HTML page (render-html.ts renderHtml: the
 * answer markers become `<section id="answer">`, the `#headline` figure `<figure id="headline-chart">`).
 *
 * Files, relative to the report's folder (`report/<runId>/` by writeTargetReport), named as the
 * engine's reports are (report.md, index.html, meta.json: the front page and the README's results
 * table link `<id>/report.md` and read `<id>/meta.json`, src/report/front-page.ts):
 *   report.md, index.html, meta.json, figures/target-throughput.svg,
 *   zh/report.md, zh/index.html, zh/meta.json, zh/figures/target-throughput.svg
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSvg } from '../charts.ts';
import { renderHtml } from '../render-html.ts';
import { writeAll, type OutFile } from '../write.ts';
import type { FrontEntry, MetaHighest } from '../front-page.ts';
import type { TargetArm } from '../../types/target.ts';
import { readTargetRun, type TargetRunFiles } from './load.ts';
import { buildTargetModel, type TargetReportModel } from './model.ts';
import { targetAnswerText, targetMarkdown, targetPhraser, targetTitle } from './render.ts';
import { TARGET_HEADLINE, targetThroughputChart } from './chart.ts';

const TEMPLATE_DIR = fileURLToPath(new URL('../../../templates/target/', import.meta.url));
export const TARGET_LANGS = ['en', 'zh'] as const;
export type TargetLang = (typeof TARGET_LANGS)[number];
/** the Markdown file of a report folder (the engine's name, which the front page links) */
export const TARGET_MD = 'report.md';
/** meta.json's `study` of a target report (the front page groups reports by it) */
export const TARGET_STUDY = 'target';

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

/**
 * The model with each arm's label in the report's language: the phrase `arm.<id>` of `phrases` when
 * the manifest's label is that phrase's English text (the pipeline's default label of a default
 * arm); a label the user gave stays as given. Pure.
 */
export function withArmLabels(model: TargetReportModel, phrases: Readonly<Record<string, string>>, en: Readonly<Record<string, string>>): TargetReportModel {
  const label = (a: TargetArm): string => {
    const k = `arm.${a.id}`;
    const local = phrases[k];
    return local !== undefined && en[k] === a.label ? local : a.label;
  };
  return {
    ...model,
    manifest: { ...model.manifest, arms: model.manifest.arms.map((a) => ({ ...a, label: label(a) })) },
    arms: model.arms.map((x) => ({ ...x, arm: { ...x.arm, label: label(x.arm) } })),
  };
}

/** One language's files (`prefix` '' or 'zh/'). */
async function languageFiles(base: TargetReportModel, lang: TargetLang, prefix: string): Promise<OutFile[]> {
  const phrases = await targetPhrases(lang);
  const model = withArmLabels(base, phrases, await targetPhrases('en'));
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
    { path: `${prefix}${TARGET_MD}`, content: md },
    { path: `${prefix}index.html`, content: html },
    { path: `${prefix}meta.json`, content: JSON.stringify(targetMeta(model, phrases, lang), null, 2) + '\n' },
  ];
}

/**
 * meta.json of a target report: the fields the front page reads (FrontEntry, src/report/front-page.ts)
 * plus `lang`, `levels` and `tier`. `highest`: the compared arms at the answer's highest level
 * (throughput: the mean over repeats of the steady-state rate, P95: the mean of the repeats'), null
 * without two compared arms there. `status`: complete when the run finished, else interrupted.
 */
export function targetMeta(model: TargetReportModel, phrases: Readonly<Record<string, string>>, lang: TargetLang): FrontEntry & { lang: TargetLang; levels: number[]; tier: string } {
  const mf = model.manifest;
  const top = model.answerLevels[0];
  const at = (id: string | undefined) => model.arms.find((a) => a.arm.id === id)?.levels.find((l) => l.stat.level === top)?.stat ?? null;
  const b = at(model.pair?.baseline);
  const c = at(model.pair?.candidate);
  const highest: MetaHighest | null = model.pair && b && c && top !== undefined ? {
    concurrency: top, baseline: model.pair.baseline, candidate: model.pair.candidate,
    baselineRps: b.throughputRps, candidateRps: c.throughputRps, baselineE2eP95Ms: b.p95Ms, candidateE2eP95Ms: c.p95Ms,
  } : null;
  const jvm = mf.arms.map((a) => mf.jvm[a.id]).find((j) => j !== undefined);
  return {
    runId: mf.runId, study: TARGET_STUDY, studyTitle: phrases['meta.studyTitle'] ?? TARGET_STUDY, status: mf.finishedAt === null ? 'interrupted' : 'complete',
    startedAt: mf.createdAt, load: mf.mode, highest, gaps: mf.failed.length, answer: targetAnswerText(model, phrases, lang),
    host: { cpuModel: mf.host.cpuModel, cores: mf.host.cpus, jdk: jvm?.vmVersion ?? null },
    lang, levels: [...mf.levels], tier: mf.tier,
  };
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
