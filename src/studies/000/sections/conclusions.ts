/** Study 000's `{{conclusions}}` (the §15 rules, proven and not proven, with their evidence) and `{{finalData}}`. Pure. */
import type { ConclusionRow } from '../../../report/types.ts';
import type { ReportModel } from '../../../report/model.ts';
import { int, ms, num, pct, raw, rps, table, type Raw } from '../../../report/format.ts';
import { FIXED, TOP, VIRTUAL } from './common.ts';
import type { Kit000 } from './kit.ts';

/** One evidence value as printed, by its key's unit (…Ms, …Rps, …Pct, …MiB) and the rule. */
function evidenceValue(k: Kit000, c: ConclusionRow, key: string, v: number | string | null): string {
  if (v === null) return '—';
  if (typeof v === 'string') return v;
  if (c.id === 'vtCostNegligible' && key === 'published') return `${num(v, 1)} MiB`;
  if (key === 'thresholdMs') return `${int(v)} ms`;
  if (key === 'theoryMs') return k.ctx.msT(v);
  if (/Ms$/.test(key)) return ms(v);
  if (/Rps$/.test(key) || key === FIXED || key === VIRTUAL || key.startsWith('published')) return c.id === 'e2eP95500' ? ms(v) : rps(v);
  if (/Pct$/.test(key)) return pct(v);
  if (/MiB$/.test(key) || key === 'published') return `${num(v, 1)} MiB`;
  return int(v);
}

/** A rule's evidence: phrase `concl.<id>.ev[.<upstream source>]` filled, '—' without one or without values. */
function evText(k: Kit000, c: ConclusionRow): Raw {
  const { P, t } = k.ctx;
  const e = c.evidence;
  if (e['loadModel'] === 'open-loop') return P('concl.openLoop');
  const src = e['upstreamSource'];
  const key = typeof src === 'string' && t.phrases[`concl.${c.id}.ev.${src}`] !== undefined ? `concl.${c.id}.ev.${src}` : `concl.${c.id}.ev`;
  if (t.phrases[key] === undefined || Object.values(e).every((v) => v === null) || Object.keys(e).length === 0) return raw('—');
  const vals: Record<string, string> = {};
  for (const [name, v] of Object.entries(e)) vals[name] = evidenceValue(k, c, name, v);
  try { return P(key, vals); } catch { return raw('—'); }
}

/** A rule's statement, with the published figures it names. */
function stmt(k: Kit000, id: string): Raw {
  const v: Record<string, string> = {};
  if (id === 'throughput500' || id === 'realProvider') { v['pubFixed'] = rps(k.pubOf(`${FIXED}.throughputRps.${TOP}`)?.published); v['pubVirtual'] = rps(k.pubOf(`${VIRTUAL}.throughputRps.${TOP}`)?.published); }
  if (id === 'e2eP95500') { v['pubFixed'] = ms(k.pubOf(`${FIXED}.e2eP95Ms.${TOP}`)?.published); v['pubVirtual'] = ms(k.pubOf(`${VIRTUAL}.e2eP95Ms.${TOP}`)?.published); }
  return k.ctx.P(`concl.${id}`, v);
}

/** `{{conclusions}}`: the proven and the not-proven rules, each with its verdict and evidence. */
export function conclusionsTable(model: ReportModel, k: Kit000): Raw {
  const { s, verdict } = k.ctx;
  const rows = (kind: ConclusionRow['kind']) => model.conclusions.filter((c) => c.kind === kind).map((c) => [stmt(k, c.id), verdict(c.verdict), evText(k, c)]);
  return raw([
    `### ${s('concl.provenTitle')}`,
    table([s('h.statement'), s('h.verdict'), s('h.evidence')], rows('proven')).md,
    `### ${s('concl.notProvenTitle')}`,
    table([s('h.statement'), s('h.verdict'), s('h.evidence')], rows('not-proven')).md,
  ].join('\n\n'));
}

/** `{{finalData}}`: the headline again, as this run's answer. */
export function finalData(k: Kit000): Raw {
  const h = k.h;
  return h && h.throughput ? raw(`${k.ctx.s('final.inThisRun')}${k.ctx.sentenceSep}${k.headline(h).md}`) : k.ctx.P('summary.noComparison');
}
