/**
 * The Markdown of a target report (issue 32), answer first (issue 31): the answer block (lead
 * sentence, the trust line, the headline chart, the table at the highest level and the knee: the
 * order of the studies' reports, so the chart is on the first screen), then
 * the request mix, the inferred concurrency, the caps inventory and their use, the cells, pinning,
 * thread dumps, the agent's split, method and environment. Every column holding a figure names the
 * tier that produced it (measured / inferred / unavailable); a column whose rows differ has a
 * column of its own saying which. Every run string goes through `esc` (format.ts); header values of
 * the request mix are never printed, only their names. Pure: model and phrases in, Markdown out.
 */
import type { AgentCellSummary, Cap, Provenance, TargetCell } from '../../types/target.ts';
import { agentCostPerRequestNs, costIsMeasured, handOffsPerRequest } from '../../compute/target/agent-cost.ts';
import type { Percentiles } from '../../types/load.ts';
import { KNEE_SLACK, meanOf, cellThroughputRps } from '../../compute/target/inference.ts';
import { CPU_FULL_SHARE, SATURATED_SHARE } from '../../compute/target/caps.ts';
import { LIMIT_ORDER, OFFERED_LOAD_SHARE, type TargetLimit } from '../../compute/target/limit.ts';
import { SAME_BAND } from '../../compute/target/verdict.ts';
import { code, esc, fill, int, ms, num, pct, raw, table, type Raw } from '../format.ts';
import type { TargetArmAnalysis } from '../../compute/target/arm.ts';
import type { TargetReportModel } from './model.ts';
import { TARGET_HEADLINE } from './chart.ts';
// the engine's answer markers, which render-html.ts turns into `<section id="answer">`
import { ANSWER_END, ANSWER_START } from '../sections/answer.ts';
import { shortenPaths } from '../../compute/target/placeholders.ts';


type Vals = Record<string, string | Raw>;

/** Phrase lookup and fill over one language's phrases; a missing phrase is a programming error. */
export function targetPhraser(phrases: Readonly<Record<string, string>>, lang: string) {
  return (key: string, v: Vals = {}): Raw => {
    const p = phrases[key];
    if (p === undefined) throw new Error(`templates/target/phrases.${lang}.json: missing "${key}"`);
    return raw(fill(p, v, `templates/target/phrases.${lang}.json:${key}`));
  };
}
type Ph = ReturnType<typeof targetPhraser>;

const rpsN = (x: number | null | undefined): string => num(x ?? null, 1);
const ratioTxt = (x: number | null): string => (x === null ? '—' : `${num(x, 2)}×`);

/** A header with its tier: "Throughput, req/s · measured". */
function col(ph: Ph, key: string, tier: Provenance): Raw {
  return ph('col', { name: ph(`h.${key}`), tier: ph(`tier.${tier}`) });
}

function levelText(ph: Ph, mode: TargetCell['mode'], level: number): Raw {
  return ph(mode === 'open-loop' ? 'level.open' : 'level.closed', { n: int(level) });
}

function capName(ph: Ph, cap: Pick<Cap, 'kind' | 'name'>): Raw {
  return cap.name === null ? ph(`cap.${cap.kind}`) : ph('cap.named', { cap: ph(`cap.${cap.kind}`), name: code(cap.name) });
}

/** a source string of the caps inventory (compute's fixed English texts) in the report's language, else as is */
function sourceText(ph: Ph, phrases: Readonly<Record<string, string>>, s: string): Raw {
  return phrases[`src.${s}`] !== undefined ? ph(`src.${s}`) : raw(esc(s));
}

/**
 * What limited an arm, in words: `limit.<form>.<kind>` with the cap's limit, busy (max), waiting
 * (max), utilisation and saturated share, then `limit.also.<form>` naming the other caps saturated
 * with it; offered load with its share of level / R(1).
 */
export function limitWords(ph: Ph, l: TargetLimit, form: 'lead' | 'short', bound: number | null): Raw {
  if (l.kind === 'offered-load') return ph(`limit.${form}.offered-load`, { util: pct((l.utilisation ?? 0) * 100, 0), bound: rpsN(bound) });
  if (l.kind === 'host-cpu') {
    const others = l.alsoSaturated.length === 0 ? raw('') : ph(`limit.also.${form}`, { caps: raw(l.alsoSaturated.map((c) => capName(ph, c).md).join(', ')) });
    return raw(`${ph(`limit.${form}.host-cpu`, { util: pct((l.utilisation ?? 0) * 100, 0) }).md}${others.md}`);
  }
  if (l.kind === 'not-determined' || !l.cap || !l.use) return ph(`limit.${form}.not-determined`);
  const u = l.use;
  const also = l.alsoSaturated.length === 0 ? raw('') : ph(`limit.also.${form}`, { caps: raw(l.alsoSaturated.map((c) => capName(ph, c).md).join(', ')) });
  const words = ph(`limit.${form}.${l.kind}`, {
    limit: int(l.cap.limit), name: l.cap.name ?? '',
    busy: l.kind === 'cpu' ? num(u.busyMax, 2) : int(u.busyMax), waiting: int(u.waitingMax ?? 0),
    wait: u.waitingMax !== null && u.waitingMax > 0 ? ph(l.kind === 'carriers' ? 'limit.queued' : 'limit.waiting', { n: int(u.waitingMax) }) : raw(''),
    util: pct((l.utilisation ?? 0) * 100, 0), share: pct((u.saturatedShare ?? 0) * 100, 0), cpu: pct(CPU_FULL_SHARE * 100, 0),
  });
  const host = l.hostCpuFull != null ? ph(`limit.hostalso.${form}`, { util: pct(l.hostCpuFull * 100, 0) }) : raw('');
  return raw(`${words.md}${also.md}${host.md}`);
}

function armById(m: TargetReportModel, id: string): TargetArmAnalysis | undefined {
  return m.arms.find((a) => a.arm.id === id);
}

/** The arms in answer order: baseline, candidate, then the others. */
function orderedArms(m: TargetReportModel): TargetArmAnalysis[] {
  if (!m.pair) return m.arms;
  const first = [m.pair.baseline, m.pair.candidate].map((id) => armById(m, id)).filter((a): a is TargetArmAnalysis => a !== undefined);
  return [...first, ...m.arms.filter((a) => !first.includes(a))];
}

/** The lead sentence of the answer (Markdown, bold). */
export function leadSentence(m: TargetReportModel, ph: Ph): Raw {
  const top = m.answerLevels[0];
  if (top === undefined) return ph('lead.none');
  const lv = levelText(ph, m.manifest.mode, top);
  const at = (a: TargetArmAnalysis) => a.levels.find((l) => l.stat.level === top);
  if (m.pair) {
    const b = armById(m, m.pair.baseline) as TargetArmAnalysis;
    const c = armById(m, m.pair.candidate) as TargetArmAnalysis;
    const bl = at(b);
    const cl = at(c);
    const v = m.verdicts.find((x) => x.level === top);
    if (bl && cl && v) {
      return ph(v.verdict === 'same' ? 'lead.same' : 'lead.pair', {
        level: lv, baseline: b.arm.label, candidate: c.arm.label, ratio: num(v.throughputRatio, 2), band: pct(SAME_BAND * 100, 0),
        bx: rpsN(bl.stat.throughputRps), cx: rpsN(cl.stat.throughputRps),
        blimit: limitWords(ph, bl.limit, 'lead', bl.stat.offeredBoundRps), climit: limitWords(ph, cl.limit, 'lead', cl.stat.offeredBoundRps),
      });
    }
  }
  const a = m.arms.find((x) => at(x));
  const al = a ? at(a) : undefined;
  if (!a || !al) return ph('lead.none');
  return ph('lead.single', { level: lv, arm: a.arm.label, x: rpsN(al.stat.throughputRps), limit: limitWords(ph, al.limit, 'lead', al.stat.offeredBoundRps) });
}

function answerTable(m: TargetReportModel, ph: Ph): Raw {
  const rows: (string | Raw)[][] = [];
  const kneeArm = m.arms.find((a) => a.inference.kneeLevel === m.answerLevels[1]) ?? null;
  m.answerLevels.forEach((level, i) => {
    for (const a of orderedArms(m)) {
      const l = a.levels.find((x) => x.stat.level === level);
      if (!l) continue;
      const v = m.pair && a.arm.id === m.pair.candidate ? m.verdicts.find((x) => x.level === level) : undefined;
      rows.push([
        ph(i === 0 ? 'answer.levelTop' : 'answer.levelKnee', { level: int(level), arm: kneeArm?.arm.label ?? '' }), a.arm.label,
        rpsN(l.stat.throughputRps), rpsN(l.stat.offeredBoundRps), ms(l.stat.p95Ms), ms(l.stat.p99Ms),
        v ? ratioTxt(v.throughputRatio) : '—', v ? ratioTxt(v.p95Ratio) : '—',
        limitWords(ph, l.limit, 'short', l.stat.offeredBoundRps), ph(`tier.${l.limit.provenance}`),
      ]);
    }
  });
  return table([
    ph(m.manifest.mode === 'open-loop' ? 'h.rate' : 'h.level'), ph('h.arm'), col(ph, 'throughput', 'measured'), col(ph, m.manifest.mode === 'open-loop' ? 'boundOpen' : 'bound', 'inferred'),
    col(ph, 'p95', 'measured'), col(ph, 'p99', 'measured'), col(ph, 'ratio', 'measured'), col(ph, 'p95Ratio', 'measured'), ph('h.limit'), ph('h.limitTier'),
  ], rows, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'l']);
}

function trustLine(m: TargetReportModel, ph: Ph): Raw {
  const f = m.manifest.failed;
  return ph('trust', {
    tier: m.manifest.tier, tierMeaning: ph(`tierMeaning.${m.manifest.tier}`), cells: int(m.cells.length), repeats: int(m.manifest.repeats),
    failed: f.length === 0 ? ph('trust.noFailed') : ph('trust.failed', { n: int(f.length), ids: f.map((x) => x.id).join(', ') }),
    errors: errorsText(m, ph),
  });
}

/** The measured requests that failed, over every measured cell, by the mix's request (most failures first): a broken path must show in the answer, not only in the cell table. */
function errorsText(m: TargetReportModel, ph: Ph): Raw {
  const total = m.cells.reduce((a, c) => a + c.summary.count, 0);
  const failed = m.cells.reduce((a, c) => a + c.summary.count - c.summary.ok, 0);
  if (failed === 0) return ph('trust.noErrors');
  const by = new Map<string, { n: number; of: number }>();
  for (const c of m.cells) for (const [name, t] of Object.entries(c.byRequest)) {
    const e = by.get(name) ?? { n: 0, of: 0 };
    by.set(name, { n: e.n + t.count - t.ok, of: e.of + t.count });
  }
  const which = [...by].filter(([, e]) => e.n > 0).sort((a, b) => b[1].n - a[1].n).map(([name, e]) => `${code(name).md} ${int(e.n)} / ${int(e.of)}`).join(', ');
  return ph('trust.errors', { n: int(failed), total: int(total), share: pct((failed / total) * 100, 1), which: raw(which) });
}

function answerBlock(m: TargetReportModel, ph: Ph): string {
  return [
    ANSWER_START, '', `## ${ph('answer.heading').md}`, '', `**${leadSentence(m, ph).md}**`, '',
    trustLine(m, ph).md, '',
    `![${ph('chart.title').md}](figures/${TARGET_HEADLINE}.svg#headline)`, '',
    answerTable(m, ph).md, '', ANSWER_END,
  ].join('\n');
}

function mixSection(m: TargetReportModel, ph: Ph): string {
  const mix = m.manifest.mix;
  const total = mix.requests.reduce((a, r) => a + r.weight, 0);
  const rows = mix.requests.map((r) => [
    code(r.name), r.method, code(r.path), int(r.weight), pct(total > 0 ? (r.weight / total) * 100 : null, 0),
    Object.keys(r.headers).length ? raw(Object.keys(r.headers).map((h) => code(h).md).join(', ')) : '—',
    r.body === undefined ? '—' : ph('mix.bodyBytes', { n: int(Buffer.byteLength(r.body, 'utf8')) }),
    ...m.arms.map((a) => {
      const cs = m.cells.filter((c) => c.arm === a.arm.id);
      const n = cs.reduce((s, c) => s + (c.byRequest[r.name]?.count ?? 0), 0);
      const p95 = meanOf(cs.map((c) => c.byRequest[r.name]?.e2eMs?.p95));
      return `${int(n)} / ${ms(p95)}`;
    }),
  ]);
  return [
    `## ${ph('sec.mix').md}`, '', ph('mix.intro', { file: code(shortenPaths(mix.file)), sha: code(mix.sha256.slice(0, 12)), n: int(mix.requests.length) }).md, '',
    table([ph('h.name'), ph('h.method'), ph('h.path'), ph('h.weight'), ph('h.share'), ph('h.headerNames'), ph('h.body'),
      ...m.arms.map((a) => ph('col', { name: ph('h.armRequests', { arm: a.arm.label }), tier: ph('tier.measured') }))], rows).md,
  ].join('\n');
}

function inferenceSection(m: TargetReportModel, ph: Ph): string {
  const rows = m.arms.map((a) => {
    const i = a.inference;
    return [a.arm.label, ms(i.r1Ms), ms(i.r1MeanMs), int(i.probes), rpsN(i.xMaxRps), i.xMaxLevel === null ? '—' : int(i.xMaxLevel), num(i.concurrencyN, 1), i.kneeLevel === null ? ph('knee.none') : int(i.kneeLevel)];
  });
  return [
    `## ${ph('sec.inference').md}`, '', ph('inference.intro', { slack: pct(KNEE_SLACK * 100, 0) }).md, '',
    table([ph('h.arm'), col(ph, 'r1', 'measured'), col(ph, 'r1Mean', 'measured'), ph('h.probes'), col(ph, 'xMax', 'measured'), ph('h.xMaxLevel'), col(ph, 'n', 'inferred'), col(ph, 'knee', 'inferred')], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r']).md,
  ].join('\n');
}

function capsSection(m: TargetReportModel, ph: Ph, phrases: Readonly<Record<string, string>>): string {
  const out = [`## ${ph('sec.caps').md}`, '', ph('caps.intro').md];
  for (const a of m.arms) {
    const rows = a.caps.map((c) => {
      const sat = a.levels.filter((l) => l.uses.some((u) => u.kind === c.kind && u.name === c.name && u.saturated)).map((l) => int(l.stat.level));
      return [capName(ph, c), c.limit === null ? '—' : c.kind === 'cpu' ? ph('caps.cores', { n: int(c.limit) }) : int(c.limit), ph(`tier.${c.provenance}`), sourceText(ph, phrases, c.source), rpsN(c.boundRps), sat.length ? sat.join(', ') : '—'];
    });
    out.push('', `### ${esc(a.arm.label)}`, '', table([ph('h.cap'), ph('h.capLimit'), ph('h.capTier'), ph('h.source'), col(ph, 'capBound', 'inferred'), col(ph, 'saturatedAt', 'measured')], rows, ['l', 'r', 'l', 'l', 'r', 'l']).md);
  }
  return out.join('\n');
}

function usesSection(m: TargetReportModel, ph: Ph): string {
  const rows: (string | Raw)[][] = [];
  for (const a of m.arms) {
    for (const l of a.levels) {
      for (const u of l.uses) {
        const cap = a.caps.find((c) => c.kind === u.kind && c.name === u.name);
        if (!cap || cap.provenance === 'unavailable' || u.samples === 0) continue;
        const f = (x: number | null) => (u.kind === 'cpu' ? num(x, 2) : num(x, 1));
        rows.push([a.arm.label, int(l.stat.level), capName(ph, u), int(u.samples), f(u.busyMean), f(u.busyMax), u.waitingMax === null ? '—' : int(u.waitingMax), pct(u.saturatedShare === null ? null : u.saturatedShare * 100, 0), u.saturated ? ph('yes') : ph('no')]);
      }
    }
  }
  return [
    `## ${ph('sec.uses').md}`, '', ph('uses.intro', { share: pct(SATURATED_SHARE * 100, 0), cpu: pct(CPU_FULL_SHARE * 100, 0) }).md, '',
    rows.length === 0 ? ph('uses.none').md : table([ph('h.arm'), ph('h.level'), ph('h.cap'), col(ph, 'samples', 'measured'), col(ph, 'busyMean', 'measured'), col(ph, 'busyMax', 'measured'), col(ph, 'waitingMax', 'measured'), col(ph, 'satShare', 'measured'), col(ph, 'saturated', 'measured')], rows, ['l', 'r', 'l', 'r', 'r', 'r', 'r', 'r', 'l']).md,
  ].join('\n');
}

function cellsSection(m: TargetReportModel, ph: Ph): string {
  const arms = new Map(m.arms.map((a) => [a.arm.id, a]));
  const cells = [...m.cells].sort((x, y) => (x.arm === y.arm ? x.level - y.level || x.repeat - y.repeat : m.manifest.arms.findIndex((a) => a.id === x.arm) - m.manifest.arms.findIndex((a) => a.id === y.arm)));
  const rows = cells.map((c) => {
    const l = m.cellLimits.get(c.id);
    const errs = Object.values(c.summary.errors).reduce((a, b) => a + b, 0);
    const bound = arms.get(c.arm)?.inference.levels.find((x) => x.level === c.level)?.offeredBoundRps ?? null;
    return [code(c.id), arms.get(c.arm)?.arm.label ?? c.arm, int(c.level), int(c.repeat), rpsN(cellThroughputRps(c.summary)), ms(c.summary.e2eMs?.p50), ms(c.summary.e2eMs?.p95), ms(c.summary.e2eMs?.p99), `${int(errs)} / ${int(c.summary.count)}`, `${num(c.targetCpuS, 2)} / ${num(c.harnessCpuS, 2)}`, l ? limitWords(ph, l, 'short', bound) : '—', l ? ph(`tier.${l.provenance}`) : ph('tier.unavailable')];
  });
  const failed = m.manifest.failed.length === 0 ? [] : ['', ph('cells.failedIntro').md, '', table([ph('h.cell'), ph('h.reason')], m.manifest.failed.map((f) => [code(f.id), f.reason])).md];
  // open loop: sends the in-flight cap refused are not requests, never hidden (src/load/open-loop.ts)
  const refused = cells.filter((c) => (c.summary.openLoop?.unsent.inFlightCap ?? 0) > 0);
  const openLoop = m.manifest.mode !== 'open-loop' ? [] : ['', refused.length === 0
    ? ph('cells.unsentNone', { cap: int(m.manifest.openLoop?.maxInFlight) }).md
    : ph('cells.unsent', { cap: int(m.manifest.openLoop?.maxInFlight), cells: raw(refused.map((c) => `${code(c.id).md} ${int(c.summary.openLoop!.unsent.inFlightCap)} / ${int(c.summary.openLoop!.scheduled)}`).join(', ')) }).md];
  return [
    `## ${ph('sec.cells').md}`, '', ph('cells.intro').md, ...openLoop, '',
    table([ph('h.cell'), ph('h.arm'), ph('h.level'), ph('h.repeat'), col(ph, 'throughput', 'measured'), col(ph, 'p50', 'measured'), col(ph, 'p95', 'measured'), col(ph, 'p99', 'measured'), col(ph, 'errors', 'measured'), col(ph, 'cpuS', 'measured'), ph('h.limit'), ph('h.limitTier')], rows, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'l']).md,
    ...failed,
  ].join('\n');
}

const topEntries = (r: Record<string, number>, n: number): [string, number][] => Object.entries(r).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, n);
const addInto = (acc: Record<string, number>, r: Record<string, number>) => { for (const [k, v] of Object.entries(r)) acc[k] = (acc[k] ?? 0) + v; };

function pinsSection(m: TargetReportModel, ph: Ph): string {
  const out = [`## ${ph('sec.pins').md}`, ''];
  const withPins = m.cells.filter((c) => c.pins !== null);
  if (withPins.length === 0) return [...out, ph('pins.none', { tier: m.manifest.tier }).md].join('\n');
  out.push(ph('pins.intro', { threshold: ms(m.manifest.pinThresholdMs) }).md, '');
  const rows: (string | Raw)[][] = [];
  const reasons: (string | Raw)[][] = [];
  const frames: (string | Raw)[][] = [];
  for (const a of m.arms) {
    const cs = withPins.filter((c) => c.arm === a.arm.id);
    if (cs.length === 0) continue;
    const byReason: Record<string, number> = {};
    const byFrame: Record<string, number> = {};
    for (const c of cs) { addInto(byReason, c.pins!.byReason); addInto(byFrame, c.pins!.byTopFrame); }
    const maxes = cs.map((c) => c.pins!.maxMs).filter((x): x is number => x !== null);
    rows.push([a.arm.label, int(cs.length), int(cs.reduce((s, c) => s + c.pins!.total, 0)), int(cs.reduce((s, c) => s + c.pins!.submitFailed, 0)), maxes.length ? ms(Math.max(...maxes)) : '—', ms(cs[0]!.pins!.thresholdMs)]);
    for (const [k, v] of topEntries(byReason, 10)) reasons.push([a.arm.label, k, int(v)]);
    for (const [k, v] of topEntries(byFrame, 10)) frames.push([a.arm.label, code(k), int(v)]);
  }
  out.push(table([ph('h.arm'), ph('h.cellsJfr'), col(ph, 'pinned', 'measured'), col(ph, 'submitFailed', 'measured'), col(ph, 'pinMax', 'measured'), ph('h.threshold')], rows, ['l', 'r', 'r', 'r', 'r', 'r']).md);
  if (reasons.length) out.push('', `### ${ph('pins.byReason').md}`, '', table([ph('h.arm'), ph('h.reason'), col(ph, 'events', 'measured')], reasons, ['l', 'l', 'r']).md);
  if (frames.length) out.push('', `### ${ph('pins.byFrame').md}`, '', table([ph('h.arm'), ph('h.topFrame'), col(ph, 'events', 'measured')], frames, ['l', 'l', 'r']).md);
  return out.join('\n');
}

function dumpsSection(m: TargetReportModel, ph: Ph): string {
  const out = [`## ${ph('sec.dumps').md}`, ''];
  if (m.dumps.size === 0) return [...out, ph('dumps.none').md].join('\n');
  out.push(ph('dumps.intro').md);
  for (const [id, d] of [...m.dumps.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const groups = [...d.groups].sort((a, b) => b.count - a.count).slice(0, 8);
    out.push('', `### ${code(id).md}`, '', ph('dumps.cell', { threads: int(d.threadCount), pool: int(d.inSocketRead.poolThreads), virtual: int(d.inSocketRead.virtual), other: int(d.inSocketRead.other) }).md, '',
      table([ph('h.namePrefix'), ph('h.virtualThread'), ph('h.state'), ph('h.topFrame'), col(ph, 'threads', 'measured')], groups.map((g) => [code(g.namePrefix), g.virtual ? ph('yes') : ph('no'), g.state, code(g.topFrame), int(g.count)]), ['l', 'l', 'l', 'l', 'r']).md);
  }
  return out.join('\n');
}

function pTriple(ps: (Percentiles | null | undefined)[]): string {
  const f = (k: 'p50' | 'p95' | 'p99') => ms(meanOf(ps.map((p) => p?.[k])));
  return `${f('p50')} / ${f('p95')} / ${f('p99')}`;
}

function agentSection(m: TargetReportModel, ph: Ph): string {
  const out = [`## ${ph('sec.agent').md}`, ''];
  const withAgent = m.cells.filter((c) => c.agent !== null);
  if (withAgent.length === 0) return [...out, ph('agent.none', { tier: m.manifest.tier }).md].join('\n');
  out.push(ph('agent.intro').md, '', agentCostText(m, ph, withAgent.map((c) => c.agent!)), '');
  const rows: (string | Raw)[][] = [];
  const execRows: (string | Raw)[][] = [];
  for (const a of m.arms) {
    for (const level of [...new Set(withAgent.filter((c) => c.arm === a.arm.id).map((c) => c.level))].sort((x, y) => x - y)) {
      const cs = withAgent.filter((c) => c.arm === a.arm.id && c.level === level).map((c) => c.agent!);
      rows.push([a.arm.label, int(level), `${int(cs.reduce((s, x) => s + x.matched, 0))} / ${int(cs.reduce((s, x) => s + x.sent, 0))}`, pTriple(cs.map((x) => x.webWaitMs)), pTriple(cs.map((x) => x.serviceMs))]);
      for (const ex of [...new Set(cs.flatMap((x) => Object.keys(x.byExecutor)))].sort()) {
        const es = cs.map((x) => x.byExecutor[ex]).filter((x) => x !== undefined);
        execRows.push([a.arm.label, int(level), code(ex), int(es.reduce((s, x) => s + x.tasks, 0)), pTriple(es.map((x) => x.waitMs)), pTriple(es.map((x) => x.runMs))]);
      }
    }
  }
  out.push(table([ph('h.arm'), ph('h.level'), col(ph, 'matched', 'measured'), col(ph, 'webWait', 'measured'), col(ph, 'service', 'measured')], rows, ['l', 'r', 'r', 'r', 'r']).md);
  if (execRows.length) out.push('', `### ${ph('agent.executors').md}`, '', table([ph('h.arm'), ph('h.level'), ph('h.executor'), col(ph, 'tasks', 'measured'), col(ph, 'taskWait', 'measured'), col(ph, 'taskRun', 'measured')], execRows, ['l', 'r', 'l', 'r', 'r', 'r']).md);
  return out.join('\n');
}

/**
 * The agent's own cost (issue 32 tier 3), as this run measured it at its start: per executor the
 * medians without and with the agent, and an estimate of what it adds to one request (hand-offs × the
 * largest measured added cost) beside R(1). A run made before the cost was measured per run says so.
 */
function agentCostText(m: TargetReportModel, ph: Ph, cells: readonly AgentCellSummary[]): string {
  const cost = m.manifest.agentCost;
  if (!cost) return ph('agent.costMissing').md;
  const ns = (x: number): string => num(x, 0);
  const rows = cost.rows.map((r) => [code(r.executor), ns(r.withoutNs), ns(r.withNs), `${r.addedNs >= 0 ? '+' : ''}${ns(r.addedNs)}`, `${ns(r.withoutRange[0])}–${ns(r.withoutRange[1])}`, `${ns(r.withRange[0])}–${ns(r.withRange[1])}`, costIsMeasured(r) ? ph('yes') : ph('no')]);
  const out = [ph('agent.cost', { rounds: int(cost.rounds), tasks: int(cost.tasks), jdk: code(cost.jdk) }).md, '',
    table([ph('h.executor'), col(ph, 'costWithout', 'measured'), col(ph, 'costWith', 'measured'), col(ph, 'costAdded', 'measured'), ph('h.costRangeWithout'), ph('h.costRangeWith'), ph('h.costMeasured')], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'l']).md, ''];
  const hand = handOffsPerRequest(cells);
  const perReq = hand === null ? null : agentCostPerRequestNs(cost.rows, hand);
  const r1s = m.arms.map((a) => a.inference.r1Ms).filter((x): x is number => x !== null);
  const r1 = r1s.length ? Math.min(...r1s) : null;
  if (hand === null) return out.join('\n');
  if (perReq === null) out.push(ph('agent.costNoise', { handOffs: num(hand, 1) }).md);
  else out.push(ph('agent.costPerRequest', { handOffs: num(hand, 1), us: num(perReq / 1000, 2), share: r1 === null ? '—' : `${num((perReq / 1e6 / r1) * 100, 4)} %`, r1: ms(r1) }).md);
  out.push('', ph('agent.costWhen', { at: cost.measuredAt }).md);
  return out.join('\n');
}

function methodSection(m: TargetReportModel, ph: Ph): string {
  return [
    `## ${ph('sec.method').md}`, '',
    `- ${ph('method.little').md}`,
    `- ${ph('method.bound').md}`,
    `- ${ph('method.knee', { slack: pct(KNEE_SLACK * 100, 0) }).md}`,
    `- ${ph('method.caps').md}`,
    `- ${ph('method.saturation', { share: pct(SATURATED_SHARE * 100, 0), cpu: pct(CPU_FULL_SHARE * 100, 0) }).md}`,
    `- ${ph('method.limit', { order: LIMIT_ORDER.map((k) => ph(`cap.${k}`).md).join(' → '), offered: pct(OFFERED_LOAD_SHARE * 100, 0) }).md}`,
    `- ${ph('method.verdict', { band: pct(SAME_BAND * 100, 0) }).md}`,
    `- ${ph('method.aggregate').md}`,
    `- ${ph('method.tiers').md}`,
  ].join('\n');
}

function environmentSection(m: TargetReportModel, ph: Ph): string {
  const mf = m.manifest;
  const rows: (string | Raw)[][] = [
    [ph('env.tier'), raw(`${code(mf.tier).md} — ${ph(`tierMeaning.${mf.tier}`).md}`)],
    [ph('env.host'), `${mf.host.cpus} × ${mf.host.cpuModel}; ${mf.host.kernel}; Node ${mf.host.node}`],
    [ph('env.jar'), mf.jar ? raw(`${code(shortenPaths(mf.jar.path)).md}, SHA-256 ${code(mf.jar.sha256).md}`) : '—'],
    [ph('env.db'), mf.db ? `PostgreSQL ${mf.db.serverVersion}` : '—'],
    [ph('env.load'), ph(mf.mode === 'open-loop' ? 'env.loadOpen' : 'env.loadClosed', { levels: mf.levels.map((l) => int(l)).join(', '), repeats: int(mf.repeats), perWorker: int(mf.requestsPerWorker), warmup: int(mf.warmupRequestsPerWorker), probe: int(mf.aloneProbeRequests), duration: mf.durationS === null ? '—' : num(mf.durationS, 0), arrival: !mf.openLoop ? '—' : mf.openLoop.arrival === 'poisson' ? ph('env.arrivalSeeded', { arrival: mf.openLoop.arrival, seed: int(mf.openLoop.seed) }) : mf.openLoop.arrival, cap: int(mf.openLoop?.maxInFlight), warmupS: int(mf.openLoop?.warmupS) })],
    [ph('env.mock'), mf.mock ? ph('env.mockValue', { latency: ms(mf.mock.latencyMs) }) : '—'],
    [ph('env.sampler'), ph(mf.tier === 'black-box' ? 'env.samplerValueBlackBox' : 'env.samplerValue', { interval: ms(mf.samplerIntervalMs), pin: ms(mf.pinThresholdMs) })],
    [ph('env.time'), `${mf.createdAt} → ${mf.finishedAt ?? '—'}`],
  ];
  for (const a of mf.arms) {
    const props = Object.entries(a.properties).map(([k, v]) => code(`--${k}=${v}`).md).join(' ');
    rows.push([ph('env.arm', { arm: a.label }), raw([a.url ? code(a.url).md : '', props].filter(Boolean).join(' ') || '—')]);
    const j = mf.jvm[a.id];
    if (j) rows.push([ph('env.jvm', { arm: a.label }), raw(`${esc(`${j.vmVendor} ${j.vmVersion} (Java ${j.javaVersion}), ${j.availableProcessors} CPUs`)}; ${j.inputArguments.map((x) => code(shortenPaths(x)).md).join(' ') || '—'}`)]);
  }
  return [`## ${ph('sec.env').md}`, '', table([ph('h.what'), ph('h.value')], rows).md].join('\n');
}

/** The report's title (plain text, for the HTML `<title>` too). */
export function targetTitle(m: TargetReportModel, ph: Ph): Raw {
  const mf = m.manifest;
  const service = mf.jar ? mf.jar.path.split(/[\\/]/).pop() ?? mf.jar.path : mf.arms.find((a) => a.url)?.url ?? mf.runId;
  return ph('title', { service, runId: mf.runId });
}

/** The whole Markdown of a target report. */
export function targetMarkdown(m: TargetReportModel, phrases: Readonly<Record<string, string>>, lang: string): string {
  const ph = targetPhraser(phrases, lang);
  return [
    `# ${targetTitle(m, ph).md}`, '',
    answerBlock(m, ph), '',
    `> ${ph('runNote', { runId: code(m.manifest.runId), tier: code(m.manifest.tier) }).md}`, '',
    mixSection(m, ph), '', inferenceSection(m, ph), '', capsSection(m, ph, phrases), '', usesSection(m, ph), '',
    cellsSection(m, ph), '', pinsSection(m, ph), '', dumpsSection(m, ph), '', agentSection(m, ph), '',
    methodSection(m, ph), '', environmentSection(m, ph), '',
  ].join('\n');
}

/** The lead sentence as plain text (for the terminal): Markdown escapes and emphasis removed. */
export function targetAnswerText(m: TargetReportModel, phrases: Readonly<Record<string, string>>, lang: string): string {
  return leadSentence(m, targetPhraser(phrases, lang)).md.replace(/\\(.)/g, '$1').replace(/`/g, '');
}

