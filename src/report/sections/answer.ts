/**
 * Report sections `{{answer}}` (the answer block's words, issue 31), `{{headlineChart}}` (the chart that
 * shows the answer, `model.answer.chart`) and `{{answerTable}}` (the block's table, which closes it). The block's words come from src/report/answer-text.ts;
 * this module escapes them into Markdown. The block is wrapped in the HTML-comment markers
 * ANSWER_START / ANSWER_END (invisible in rendered Markdown), which the HTML renderer turns into
 * `<section id="answer">`; the headline chart's image source carries `#headline`, which it turns
 * into `id="headline-chart"` (src/report/render-html.ts). Pure.
 */
import type { ReportModel } from '../types.ts';
import { esc, raw, table, type Raw } from '../format.ts';
import { answerWords, sentenceSep, type Phrases } from '../answer-text.ts';
import type { SectionKit } from './kit.ts';

/** The markers around the answer block in the Markdown (a paragraph each). */
export const ANSWER_START = '<!-- answer -->';
export const ANSWER_END = '<!-- /answer -->';
/** The fragment of the headline chart's image source (`figures/<name>.svg#headline`). */
export const HEADLINE_FRAGMENT = '#headline';

/**
 * The phrases the block is worded with: the report's, plus `variant.<id>` = the variant's label
 * (manifest variantSpecs) for each variant of the run the phrases do not name.
 */
export function answerPhrases(model: Pick<ReportModel, 'variants' | 'variantSpecs'>, phrases: Phrases): Phrases {
  const out: Record<string, string> = { ...phrases };
  for (const v of model.variants) {
    const label = model.variantSpecs.get(v)?.label;
    if (out[`variant.${v}`] === undefined && label !== undefined) out[`variant.${v}`] = label;
  }
  return out;
}

/**
 * `{{answer}}`: the start marker, heading, lead sentence (and verdict) and trust line — what the
 * reader who stops after the first screen needs, above the headline chart (`{{headlineChart}}`).
 * The block's table follows the chart (`{{answerTable}}`, which closes the block): a study with
 * many rows (002: one per scenario and arm) would otherwise push the chart below the first screen.
 */
export function answerMarkdown(model: ReportModel, k: SectionKit): Raw {
  const w = answerWords(model.answer, answerPhrases(model, k.t.phrases));
  const lead = esc(w.verdict ? `${w.lead}${sentenceSep(w.lead)}${w.verdict}` : w.lead);
  const parts = [ANSWER_START, k.t.phrases['answer.heading'] ?? '', `**${lead}**`, esc(w.trust)];
  return raw(parts.filter((x) => x !== '').join('\n\n'));
}

/** `{{answerTable}}`: one table line per arm (each repeat's value beside the median when the repeats disagree), then the end marker. */
export function answerTable(model: ReportModel, k: SectionKit): Raw {
  const w = answerWords(model.answer, answerPhrases(model, k.t.phrases));
  const cells = w.cells.map((r, i) => r.map((c, j) => {
    const rep = w.repeats[i];
    const extra = j === w.valueCol ? rep?.value : j === w.ratioCol ? rep?.ratio : null;
    return extra ? `${c} (${extra})` : c;
  }));
  const parts = cells.length > 0 ? [table(w.header, cells, w.right.map((r) => (r ? 'r' : 'l'))).md] : [];
  return raw([...parts, ANSWER_END].join('\n\n'));
}

/** `{{headlineChart}}`: the figure `model.answer.chart` (its title as alt text), or nothing when the block names none or the report did not draw it. */
export function headlineChart(model: ReportModel, figures: readonly { name: string; title: string }[]): Raw {
  const f = figures.find((x) => x.name === model.answer.chart);
  return raw(f ? `![${esc(f.title)}](figures/${f.name}.svg${HEADLINE_FRAGMENT})` : '');
}
