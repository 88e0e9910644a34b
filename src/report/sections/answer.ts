/**
 * Report sections `{{answer}}` (the answer block, issue 31) and `{{headlineChart}}` (the chart that
 * shows the answer, `model.answer.chart`). The block's words come from src/report/answer-text.ts;
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

/** `{{answer}}`: heading, lead sentence (and verdict), one table line per arm, trust line; between the answer markers. */
export function answerMarkdown(model: ReportModel, k: SectionKit): Raw {
  const w = answerWords(model.answer, answerPhrases(model, k.t.phrases));
  const lead = esc(w.verdict ? `${w.lead}${sentenceSep(w.lead)}${w.verdict}` : w.lead);
  const parts = [ANSWER_START, k.t.phrases['answer.heading'] ?? '', `**${lead}**`];
  // each repeat's value beside the median when the repeats disagree (value and ratio columns)
  const cells = w.cells.map((r, i) => r.map((c, j) => {
    const rep = w.repeats[i];
    const extra = j === w.valueCol ? rep?.value : j === w.ratioCol ? rep?.ratio : null;
    return extra ? `${c} (${extra})` : c;
  }));
  if (cells.length > 0) parts.push(table(w.header, cells, w.right.map((r) => (r ? 'r' : 'l'))).md);
  parts.push(esc(w.trust), ANSWER_END);
  return raw(parts.filter((x) => x !== '').join('\n\n'));
}

/** `{{headlineChart}}`: the figure `model.answer.chart` (its title as alt text), or nothing when the block names none or the report did not draw it. */
export function headlineChart(model: ReportModel, figures: readonly { name: string; title: string }[]): Raw {
  const f = figures.find((x) => x.name === model.answer.chart);
  return raw(f ? `![${esc(f.title)}](figures/${f.name}.svg${HEADLINE_FRAGMENT})` : '');
}
