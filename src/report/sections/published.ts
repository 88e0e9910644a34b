/** Report section `{{publishedTable}}`: the study's published figures beside this run's, with verdicts and reasons. Pure (adds footnotes to the kit's book). */
import { executorInfo } from '../../types/study.ts';
import { VERDICTS, type PublishedVerdict, type Reason, type ReportModel, type Verdict } from '../types.ts';
import { ABS_FLOOR_MAX_SHARE, PIN_EVENTS_PER_REQUEST } from '../model.ts';
import { int, ms, num, pct, raw, rps, signed, table, type Raw } from '../format.ts';
import { countProv, derivedProv, ruleProv, type Provenance } from '../provenance.ts';
import { phraser } from '../phrases.ts';
import { CHANGE_FLOOR_MS, type SectionKit } from './kit.ts';

/** A published figure's value in its unit: ms, req/s, ratio (as %), MiB, else a count. */
export const unitFmt = (u: string, x: number | null): string => (x === null ? '—' : u === 'ms' ? ms(x) : u === 'req/s' ? rps(x) : u === 'ratio' ? pct(x * 100, 2) : u === 'MiB' ? `${num(x, 1)} MiB` : int(x));

/** A reason (phrase `reason.<key>`); its numbers are facts of this run's setup or of the study's (the reason names which). */
export function reasonText(model: ReportModel, k: SectionKit, r: Reason): Raw {
  const v: Record<string, string | Raw> = {};
  const reasonProv: Provenance = { def: 'reasonValue', v: { reason: r.key, key: '', study: model.study.id }, formula: null, sources: [{ file: 'manifest.json', pointer: '' }, { file: `src/studies/${model.study.id}/published.ts`, pointer: 'SETUP_FACTS' }] };
  for (const [key, x] of Object.entries(r.v ?? {})) {
    const p = { ...reasonProv, v: { ...reasonProv.v, key } };
    v[key] = key === 'variant' ? raw(k.variantName(String(x))) : k.pv(typeof x === 'number' ? int(x) : x, p);
  }
  if (r.parts) v['list'] = raw(r.parts.map((q) => reasonText(model, k, q).md).join(k.s('reason.sep')));
  return k.P(`reason.${r.key}`, v);
}

/** How a figure's tolerance is computed: max(rel × |published|, abs), abs = min(stated floor, ABS_FLOOR_MAX_SHARE × |published|) when the cap applies. */
function tolProv(model: ReportModel, p: PublishedVerdict): Provenance {
  const f = (x: number) => unitFmt(p.unit, x);
  const abs = p.tolerance.statedAbs === undefined ? f(p.tolerance.abs) : `min(${f(p.tolerance.statedAbs)}, ${num(ABS_FLOOR_MAX_SHARE * 100, 0)} % × |${f(p.published)}|)`;
  return {
    def: p.unit === 'events' ? 'tolerancePin' : 'tolerance', v: { id: p.id, study: model.study.id },
    formula: `max(${num(p.tolerance.rel * 100, 0)} % × |${f(p.published)}|, ${abs}) = ${f(Math.max(p.tolerance.rel * Math.abs(p.published), p.tolerance.abs))}`,
    sources: [{ file: `src/studies/${model.study.id}/published.ts`, pointer: p.id }, { file: `src/studies/${model.study.id}/report.ts`, pointer: 'figure()' }],
  };
}

/** A figure's tolerance as printed; the pinning rule's allowed events for a figure counted in events. */
function tolText(model: ReportModel, k: SectionKit, p: PublishedVerdict): string | Raw {
  const { P, pv, s } = k;
  // the pinning rule's allowance, as the rule states it (not a band around the published value, so never capped)
  const allowed = p.tolerance.statedAbs ?? p.tolerance.abs;
  if (p.unit === 'events') return P('tol.pinRule', { abs: pv(num(allowed, 1), derivedProv('pinAllowed', `${num(PIN_EVENTS_PER_REQUEST, 2)} × ${int(model.pinRule.requests)} = ${num(allowed, 1)}`, [], undefined, model.cells.filter((x) => x.pinned !== null && executorInfo(x.executor).tasksOnVirtualThreads).map((x) => ({ file: `cells/${x.cellId}.json`, pointer: '/load/count' })))) });
  const parts: string[] = [];
  if (p.tolerance.rel > 0) parts.push(`±${num(p.tolerance.rel * 100, 0)} %`);
  if (p.tolerance.abs > 0 || parts.length === 0) parts.push(`±${unitFmt(p.unit, p.tolerance.abs)}`);
  const text = parts.join(s('tol.or').replace(/\\(.)/g, '$1'));
  return pv(p.tolerance.statedAbs === undefined ? text : `${text}${s('tol.capped', { stated: unitFmt(p.unit, p.tolerance.statedAbs), share: `${num(ABS_FLOOR_MAX_SHARE * 100, 0)} %` })}`, tolProv(model, p));
}

/** Measured − published, in percentage points for a ratio, with the relative change unless it is latency noise. */
function diffText(k: SectionKit, p: PublishedVerdict): string | Raw {
  const { pv } = k;
  if (p.diff === null) return '—';
  const inputs = [p.prov.measured, p.prov.published];
  const f = (x: number) => unitFmt(p.unit, x);
  if (p.unit === 'ratio') { const text = `${signed(p.diff * 100, 2)} pp`; return pv(text, derivedProv('diff', `${f(p.measured as number)} − ${f(p.published)} = ${text}`, inputs)); }
  const d = signed(p.diff, p.unit === 'req/s' || p.unit === 'ms' ? 2 : p.unit === 'MiB' ? 1 : 0);
  const noise = p.unit === 'ms' && p.measured !== null && (Math.max(Math.abs(p.published), Math.abs(p.measured)) < CHANGE_FLOOR_MS || Math.abs(p.diff) < CHANGE_FLOOR_MS);
  const text = p.diffPct === null || noise ? d : `${d} (${signed(p.diffPct, 1)} %)`;
  return pv(text, derivedProv('diff', `${f(p.measured as number)} − ${f(p.published)} = ${d}${p.diffPct === null || noise ? '' : `; ${d} / ${f(p.published)} = ${signed(p.diffPct, 1)} %`}`, inputs));
}

/** `{{publishedTable}}`: the counted figures with their verdicts, then the setup identities apart (never counted as reproductions). */
export function publishedTable(model: ReportModel, k: SectionKit): Raw {
  const { P, s, pv, variantName, verdict } = k;
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>;
  const counted = model.published.filter((p) => p.identity === null);
  const identities = model.published.filter((p) => p.identity !== null);
  for (const p of counted) counts[p.verdict]++;
  const figName = (p: PublishedVerdict) => P(`fig.${p.metric}`);
  /** the published figure's level: the study's (its published row) */
  const pubLevel = (p: PublishedVerdict): string | Raw => (p.concurrency === null ? '—' : pv(int(p.concurrency), p.prov.published));
  const variantCell = (p: PublishedVerdict): string | Raw => (p.variant === null ? '—' : raw(variantName(p.variant)));
  const cnt = (x: number, what: string) => pv(int(x), countProv(what));
  const reasons = (p: PublishedVerdict) => p.reasons.map((q) => reasonText(model, k, q).md).join(s('reason.sep'));
  const pubParts: string[] = [s('published.intro', { n: cnt(counted.length, 'figures'), rep: cnt(counts.reproduced, 'reproduced'), notRep: cnt(counts['not reproduced'], 'notReproduced'), incons: cnt(counts['inconsistent as published'], 'inconsistent'), notTested: cnt(counts['not testable here'], 'notTested'), floorShare: pv(`${num(ABS_FLOOR_MAX_SHARE * 100, 0)} %`, ruleProv('ABS_FLOOR_MAX_SHARE', 'src/report/model.ts')) }), table(
    [s('h.figure'), s('h.mode'), phraser(k.t0)('h.concurrency').md, s('h.published'), s('h.measured'), s('h.diff'), s('h.tolerance'), s('h.verdict'), s('h.reason')],
    counted.map((p) => [figName(p), variantCell(p), pubLevel(p),
      pv(unitFmt(p.unit, p.published), p.prov.published), pv(unitFmt(p.unit, p.measured), p.prov.measured),
      diffText(k, p),
      tolText(model, k, p), verdict(p.verdict), raw(reasons(p))]),
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l', 'l']).md];
  if (identities.length) {
    pubParts.push(s('published.identities', { n: cnt(identities.length, 'identities') }));
    pubParts.push(table([s('h.figure'), s('h.mode'), phraser(k.t0)('h.concurrency').md, s('h.published'), s('h.measured'), s('h.check'), s('h.why')],
      identities.map((p) => [figName(p), variantCell(p), pubLevel(p),
        pv(unitFmt(p.unit, p.published), p.prov.published), pv(unitFmt(p.unit, p.measured), p.prov.measured),
        p.verdict === 'reproduced' ? P('identity.holds') : p.verdict === 'not reproduced' ? P('identity.fails') : raw(`${verdict(p.verdict).md}${p.reasons.length ? ` (${reasons(p)})` : ''}`),
        P(`identity.${p.identity as string}`)]),
      ['l', 'l', 'r', 'r', 'r', 'l', 'l']).md);
  }
  return raw(pubParts.join('\n\n'));
}
