/**
 * The answer block (src/report/answer-types.ts) in words, from the phrases `answer.*` of
 * templates/engine/phrases.<lang>.json (a study's phrase file may add `answer.<key>` for its
 * `studyLine` and `variant.<id>` for its variants' names). Plain text, no Markdown: the report's
 * section (src/report/sections/answer.ts) escapes it into a table, the terminal prints it aligned
 * (answerText), the front page shows one line (answerLine). Pure.
 */
import { REPEATS_DISAGREE, type AnswerArm, type AnswerBlock, type AnswerLimit, type AnswerRow } from './answer-types.ts';
import { int, ms, num, pct } from './format.ts';

/** Phrases of one language (engine and study), as loaded (src/report/index.ts loadTemplates). */
export type Phrases = Readonly<Record<string, string>>;

/** The block's words: the lead, the verdict sentence, the table (header and cells) and the trust line, plain text. */
export interface AnswerWords {
  lead: string;
  /** the verdict over the rows (null when the block has one row with a ratio or none) */
  verdict: string | null;
  header: string[];
  /** one line per arm, without the repeats */
  cells: string[][];
  /** per line of `cells`: each repeat's value of the arm and each repeat's ratio when they disagree, else null ('' for none of either) */
  repeats: { value: string | null; ratio: string | null }[];
  /** right-aligned columns (numbers), by index */
  right: boolean[];
  /** the columns of the value and of the ratio (where each repeat's value goes) */
  valueCol: number;
  ratioCol: number;
  trust: string;
}

/**
 * A phrase filled with plain values; `{{name}}` without a value throws (a phrase bug).
 * @throws Error when the phrase is missing or names a value not given
 */
export function phrase(p: Phrases, key: string, v: Record<string, string> = {}): string {
  const t = p[key];
  if (t === undefined) throw new Error(`phrases: missing "${key}"`);
  return t.replace(/\{\{([A-Za-z0-9_.:-]+)\}\}/g, (_, name: string) => {
    const x = v[name];
    if (x === undefined) throw new Error(`phrase ${key}: no value for {{${name}}}`);
    return x;
  });
}

/** What goes between two sentences: nothing after a Chinese full stop, else a space. */
export const sentenceSep = (before: string): string => (/[。！？]$/.test(before) ? '' : ' ');

/** A variant's name: the phrase `variant.<id>`, else the id. */
export const variantWord = (p: Phrases, id: string): string => p[`variant.${id}`] ?? id;

/** An arm's value in its unit: req/s, ops/s or ms. */
function valueText(unit: AnswerArm['unit'], x: number | null): string {
  if (x === null) return '—';
  return unit === 'ms' ? ms(x) : `${num(x, 2)} ${unit}`;
}
/** A count or a utilisation: integer when whole, else one decimal. */
const qty = (x: number): string => (Number.isInteger(x) ? int(x) : num(x, 1));
/** A ratio: two decimals and ×. */
const times = (x: number | null): string => (x === null ? '—' : `${num(x, 2)}×`);

/** A row's level in words (`answer.level.<levelUnit>`). */
export function levelWord(p: Phrases, r: Pick<AnswerRow, 'level' | 'levelUnit'>): string {
  return phrase(p, `answer.level.${r.levelUnit.replace(/[^a-z]+/g, '-')}`, { n: int(r.level) });
}

/** What limited an arm, in words: kind, utilisation (used of cap unit) and measured/inferred, then its note when it has one (the unknown's note alone). */
export function limitWord(p: Phrases, l: AnswerLimit): string {
  const kind = phrase(p, `answer.limit.${l.kind}`);
  if (l.kind === 'unknown') return l.note ? phrase(p, 'answer.limit.unknownNote', { note: p[`answer.note.${l.note}`] ?? l.note }) : kind;
  const unit = p[`answer.unit.${l.unit}`] ?? l.unit;
  const util = l.unit === '%' && l.used !== null ? phrase(p, 'answer.util.pct', { used: num(l.used, 0) })
    : l.used !== null && l.cap !== null ? phrase(p, 'answer.util.both', { used: qty(l.used), cap: qty(l.cap), unit })
    : l.cap !== null ? phrase(p, 'answer.util.cap', { cap: qty(l.cap), unit: p[`answer.unitCap.${l.unit}`] ?? unit })
    : l.used !== null ? phrase(p, 'answer.util.used', { used: qty(l.used), unit }) : null;
  const source = phrase(p, `answer.source.${l.source}`);
  const text = util === null ? phrase(p, 'answer.limit.cellNoUtil', { kind, source }) : phrase(p, 'answer.limit.cell', { kind, util, source });
  // a note qualifies every kind (002's host-flags and lock notes, 003's carriers), not only 'unknown'
  return l.note ? phrase(p, 'answer.limit.withNote', { limit: text, note: p[`answer.note.${l.note}`] ?? l.note }) : text;
}

/** The row the lead sentence reads: among the rows of the first row's variants, the highest level with a ratio (else the first row). */
export function headlineRow(block: Pick<AnswerBlock, 'rows'>): AnswerRow | null {
  const first = block.rows[0];
  if (!first) return null;
  const key = (r: AnswerRow) => r.arms.map((a) => a.variant).join('|');
  const same = block.rows.filter((r) => key(r) === key(first) && r.scenario === first.scenario && r.ratio !== null);
  return same.reduce<AnswerRow | null>((best, r) => (best === null || r.level > best.level ? r : best), null) ?? first;
}

/** The lead sentence: the study's own line (`answer.<studyLine.key>`), else the headline row's ratio and P95s, with each repeat's ratio when they disagree. */
export function answerLead(block: AnswerBlock, p: Phrases): string {
  if (block.studyLine) return phrase(p, `answer.${block.studyLine.key}`, Object.fromEntries(Object.entries(block.studyLine.v).map(([k, x]) => [k, typeof x === 'number' ? num(x, Number.isInteger(x) ? 0 : 2) : x])));
  const r = headlineRow(block);
  if (r === null) return phrase(p, 'answer.lead.none');
  const [base, cand] = [r.arms[0], r.arms[r.arms.length - 1]];
  if (r.ratio === null || !base || !cand || base === cand) return phrase(p, 'answer.lead.noRatio', { level: levelWord(p, r) });
  const lead = phrase(p, `answer.lead.${cand.metric}`, {
    candidate: variantWord(p, cand.variant), baseline: variantWord(p, base.variant), ratio: num(r.ratio, 2), level: levelWord(p, r),
    baseP95: ms(base.p95Ms), candP95: ms(cand.p95Ms), baseValue: valueText(base.unit, base.value), candValue: valueText(cand.unit, cand.value),
  });
  if (r.ratioRepeats.length === 0) return lead;
  return `${lead}${sentenceSep(lead)}${phrase(p, 'answer.lead.repeats', { pct: num(REPEATS_DISAGREE * 100, 0), values: r.ratioRepeats.map(times).join(', ') })}`;
}

/** The trust line (`answer.trust`). */
export function trustWord(block: AnswerBlock, p: Phrases): string {
  const t = block.trust;
  const flags = Object.entries(t.flagsByKind);
  return phrase(p, 'answer.trust', {
    cells: int(t.cells), planned: int(t.plannedCells), host: int(t.hostLimited),
    repeats: t.repeats === 1 ? phrase(p, 'answer.trust.repeats.one') : phrase(p, 'answer.trust.repeats.many', { n: int(t.repeats) }),
    flags: flags.length === 0 ? phrase(p, 'answer.trust.noFlags') : phrase(p, 'answer.trust.flags', { list: flags.map(([k, n]) => `${k} ×${int(n)}`).join(', ') }),
    gaps: t.gaps === 0 ? phrase(p, 'answer.trust.noGaps') : phrase(p, 'answer.trust.gaps', { n: int(t.gaps) }),
  });
}

/**
 * The block in words: lead, verdict (when more than one row has a ratio), one table line per arm
 * (scenario when any row has one, level, variant, value, bound, % of bound, P95, P99, ratio on the
 * candidate's line, limited by), each repeat's value beside a value whose repeats disagree, trust.
 */
export function answerWords(block: AnswerBlock, p: Phrases): AnswerWords {
  const scen = block.rows.some((r) => r.scenario !== null);
  const metric = block.rows[0]?.arms[0]?.metric ?? 'throughput';
  const header = [...(scen ? [phrase(p, 'answer.h.scenario')] : []), phrase(p, 'answer.h.level'), phrase(p, 'answer.h.variant'), phrase(p, `answer.h.value.${metric}`),
    phrase(p, 'answer.h.bound'), phrase(p, 'answer.h.pct'), phrase(p, 'answer.h.p95'), phrase(p, 'answer.h.p99'), phrase(p, 'answer.h.ratio'), phrase(p, 'answer.h.limit')];
  const right = [...(scen ? [false] : []), true, false, true, true, true, true, true, true, false];
  const lines = block.rows.flatMap((r) => r.arms.map((a, i) => ({
    cells: [...(scen ? [r.scenario ?? '—'] : []), int(r.level), variantWord(p, a.variant), valueText(a.unit, a.value),
      valueText(a.unit, a.bound), pct(a.pctOfBound), ms(a.p95Ms), ms(a.p99Ms), i === r.arms.length - 1 && i > 0 ? times(r.ratio) : '', limitWord(p, a.limitedBy)],
    repeats: {
      value: a.repeats.length > 0 ? phrase(p, 'answer.repeats', { values: a.repeats.map((x) => valueText(a.unit, x)).join(', ') }) : null,
      ratio: i === r.arms.length - 1 && i > 0 && r.ratioRepeats.length > 0 ? phrase(p, 'answer.repeats', { values: r.ratioRepeats.map(times).join(', ') }) : null,
    },
  })));
  const withRatio = block.rows.filter((r) => r.ratio !== null).length;
  const verdict = block.verdict !== 'none' && withRatio > 1 && block.ratioRange
    // rows of several scenarios (002): 'depends' is on the scenario, not the level
    ? phrase(p, `answer.verdict.${block.verdict}${block.verdict === 'depends' && new Set(block.rows.map((r) => r.scenario)).size > 1 ? '.scenario' : ''}`, { min: num(block.ratioRange[0], 2), max: num(block.ratioRange[1], 2) })
    : null;
  return { lead: answerLead(block, p), verdict, header, cells: lines.map((l) => l.cells), repeats: lines.map((l) => l.repeats), right,
    valueCol: scen ? 3 : 2, ratioCol: scen ? 8 : 7, trust: trustWord(block, p) };
}

/** Display width of a string in a terminal: CJK and full-width characters count two columns. */
function width(s: string): number {
  let w = 0;
  for (const ch of s) w += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 2 : 1;
  return w;
}

/**
 * The block as plain text for the terminal: the lead and verdict, the table in aligned columns
 * (two spaces apart, numbers right-aligned), the trust line; no Markdown. Ends without a newline.
 */
export function answerText(block: AnswerBlock, p: Phrases): string {
  const w = answerWords(block, p);
  const lines = [w.verdict ? `${w.lead}${sentenceSep(w.lead)}${w.verdict}` : w.lead];
  if (w.cells.length > 0) {
    const all = [w.header, ...w.cells];
    const cols = w.header.map((_, i) => Math.max(...all.map((r) => width(r[i] ?? ''))));
    const pad = (s: string, i: number) => { const n = (cols[i] ?? 0) - width(s); return w.right[i] ? ' '.repeat(n) + s : s + ' '.repeat(n); };
    lines.push(`  ${w.header.map(pad).join('  ').trimEnd()}`);
    w.cells.forEach((r, i) => {
      lines.push(`  ${r.map(pad).join('  ').trimEnd()}`);
      // each repeat's value under the line, so the columns stay narrow
      const rep = w.repeats[i];
      const indent = ' '.repeat(cols.slice(0, w.valueCol).reduce((a, b) => a + b + 2, 2));
      if (rep?.value) lines.push(`${indent}↳ ${w.header[w.valueCol]} — ${rep.value}`);
      if (rep?.ratio) lines.push(`${indent}↳ ${w.header[w.ratioCol]} — ${rep.ratio}`);
    });
  }
  lines.push(w.trust);
  return lines.join('\n');
}

/** The one-line answer (report/<id>/meta.json `answer`, the front page): the lead sentence. */
export function answerLine(block: AnswerBlock, p: Phrases): string {
  return answerLead(block, p);
}
