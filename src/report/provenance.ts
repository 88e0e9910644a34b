/**
 * Provenance of the report's numbers: for every measured or derived value, the definition used,
 * the formula with its inputs filled in, and the run file(s) and JSON path(s) it came from.
 *
 * - The model stage builds a `Provenance` per value (RowModel.prov, src/report/model.ts) from the
 *   loaded run: file names are the run folder's own (`summary.json`, `cells/<cellId>.json`, …),
 *   paths are JSON Pointers (RFC 6901) into them, formulas are built from the same inputs as the
 *   value (src/compute/theory/bounds.ts). Nothing comes from run strings.
 * - The Markdown renderer marks each value with a reference `[^nK]` (`ProvBook.md`) while it
 *   renders; report.md drops the references (`stripProvRefs`), so no figure carries a marker, and
 *   ends with the appendix "How each number was computed", one block per section of the report
 *   (`provSections`, `provMarkdown`).
 * - The HTML renderer turns each reference into a link around the value that shows its provenance
 *   on hover and focus (CSS only: `data-pv` + `::after`, no script) and points to the printable
 *   appendix (`provHtml`, one collapsed block per section). Everything is escaped; markdown-it keeps `html: false`.
 * Ids are given in first-use order, so the same model gives the same bytes.
 */
import type { Agg } from '../types/run.ts';
import type { ExecutorSpec } from '../types/study.ts';
import { threadLimit } from '../compute/theory/bounds.ts';
import { esc, int, ms, num, pct, raw, rps, type Raw } from './format.ts';

/** Where a value comes from: a file (relative to the run folder, or a repository path for study data) and a JSON Pointer or id inside it. */
export interface ProvSource { file: string; pointer: string }

/** How one value was computed. */
export interface Provenance {
  /**
   * the definition: phrase key `prov.<def>` of templates/engine/phrases.<lang>.json, filled with `v`
   * (e.g. `medianOfRepeats` with `{ metric: 'E2E P95', n: '3' }`)
   */
  def: string;
  v?: Record<string, string>;
  /** for derived values: the formula with its inputs, language-neutral (e.g. `min(500, 32) / 1.500 s = 21.33 req/s`); null for a value read as is */
  formula: string | null;
  sources: ProvSource[];
}

/** One numbered entry of a report's provenance appendix. */
export interface ProvEntry {
  /** 1-based, in first-use order */
  id: number;
  /** the value as printed (plain text, as the formatter returned it) */
  text: string;
  prov: Provenance;
}

/** Footnote label of an entry: `n<id>` (the Markdown reference is `[^n<id>]`, the HTML anchor `pv-<id>`). */
export const provLabel = (id: number): string => `n${id}`;

/**
 * The provenance entries of one rendered report, numbered in first-use order. The same printed
 * text with the same provenance shares one entry. Not pure across calls (it accumulates), but
 * deterministic: one per render.
 */
export class ProvBook {
  readonly entries: ProvEntry[] = [];
  private readonly byKey = new Map<string, ProvEntry>();

  /**
   * A value with its provenance as Markdown: the escaped text followed by the footnote reference
   * `[^n<id>]`. A text without a digit ("—", not computable) is returned without a reference.
   */
  md(text: string, prov: Provenance | null | undefined): Raw {
    if (!prov || !/\d/.test(text)) return raw(esc(text));
    const key = JSON.stringify([text, prov]);
    let e = this.byKey.get(key);
    if (!e) {
      e = { id: this.entries.length + 1, text, prov };
      this.entries.push(e);
      this.byKey.set(key, e);
    }
    return raw(`${esc(text)}[^${provLabel(e.id)}]`);
  }
}

// ---------------------------------------------------------------- builders (pure)

/** `cells/<cellId>.json` */
export const cellFile = (cellId: string): string => `cells/${cellId}.json`;
/** `cells/<cellId>.requests.json.gz` */
export const requestsFile = (cellId: string): string => `cells/${cellId}.requests.json.gz`;

/**
 * A median over repeats (src/compute/stats/aggregate.ts): `median(a, b, c) = m` with each repeat's value in
 * repeat order (as `Agg.values` holds them); `—` for a repeat without a value.
 */
export function medianFormula(a: Agg, f: (x: number) => string): string | null {
  if (a.median === null) return null;
  if (a.values.length === 1) return null;
  return `median(${a.values.map((x) => (x === null ? '—' : f(x))).join(', ')}) = ${f(a.median)}`;
}

/** What a RowModel field is, for its provenance: the definition key and the JSON paths of the summary row and of each cell. */
export interface RowMetricSpec {
  /** phrase `prov.metric.<metric>` names the metric */
  metric: string;
  /** JSON Pointer inside a summary row, e.g. `/e2eMs/p95` (the median is at `<pointer>/median`) */
  summary: string;
  /** JSON Pointer inside a cell file */
  cell: string;
}

/** The per-repeat metrics of a row: each a median over the repeats of one value per cell. */
export const ROW_METRICS = {
  wholeRunRps: { metric: 'wholeRunRps', summary: '/throughput/wholeRunRps', cell: '/load/wholeRunThroughputRps' },
  steadyRps: { metric: 'steadyRps', summary: '/throughput/steadyStateRps', cell: '/load/steadyStateThroughputRps' },
  e2eP50Ms: { metric: 'e2eP50Ms', summary: '/e2eMs/p50', cell: '/load/e2eMs/p50' },
  e2eP95Ms: { metric: 'e2eP95Ms', summary: '/e2eMs/p95', cell: '/load/e2eMs/p95' },
  e2eP99Ms: { metric: 'e2eP99Ms', summary: '/e2eMs/p99', cell: '/load/e2eMs/p99' },
  queueP95Ms: { metric: 'queueP95Ms', summary: '/queueMs/p95', cell: '/load/queueMs/p95' },
  execP95Ms: { metric: 'execP95Ms', summary: '/execMs/p95', cell: '/load/execMs/p95' },
  execP99Ms: { metric: 'execP99Ms', summary: '/execMs/p99', cell: '/load/execMs/p99' },
  errorCount: { metric: 'errorCount', summary: '/errors/count', cell: '/load/count − /load/ok' },
  errorRate: { metric: 'errorRate', summary: '/errors/rate', cell: '(/load/count − /load/ok) / /load/count' },
} as const satisfies Record<string, RowMetricSpec>;
export type RowMetric = keyof typeof ROW_METRICS;

/** Where a row's summary comes from: its index in summary.json (null when the summary was recomputed from the cells) and its cells in repeat order. */
export interface RowSource { summaryIndex: number | null; cellIds: string[] }

/**
 * Provenance of a median-of-repeats metric of one row: `summary.json /rows/<i><pointer>/median`
 * (unless recomputed) and each cell's own value.
 * @param f formats one value the way the report prints it (for the formula)
 */
export function medianOfRepeatsProv(spec: RowMetricSpec, a: Agg, src: RowSource, f: (x: number) => string, pdef: string): Provenance {
  const sources: ProvSource[] = [];
  if (src.summaryIndex !== null) sources.push({ file: 'summary.json', pointer: `/rows/${src.summaryIndex}${spec.summary}/median` });
  for (const id of src.cellIds) sources.push({ file: cellFile(id), pointer: spec.cell });
  // the percentile definition only where the metric is a percentile
  return { def: /\/p\d+$/.test(spec.summary) ? 'medianOfRepeatsPct' : 'medianOfRepeats', v: { metric: spec.metric, n: String(a.n), pdef }, formula: medianFormula(a, f), sources };
}

/** Provenance of a pooled mean (all successful requests of all repeats): `summary.json /rows/<i>/pooled/<col>/mean` and the per-request columns. */
export function pooledProv(col: 'e2eMs' | 'queueMs' | 'execMs', field: 'mean' | 'n', src: RowSource, formula: string | null = null): Provenance {
  const sources: ProvSource[] = [];
  if (src.summaryIndex !== null) sources.push({ file: 'summary.json', pointer: `/rows/${src.summaryIndex}/pooled/${col}/${field}` });
  for (const id of src.cellIds) sources.push({ file: requestsFile(id), pointer: `/${col}` });
  return { def: field === 'n' ? 'pooledN' : 'pooledMean', v: { metric: col }, formula, sources };
}

/** A derived value: definition, formula and the union of its inputs' sources (in order, without repeats). */
export function derivedProv(def: string, formula: string | null, inputs: readonly (Provenance | null | undefined)[], v?: Record<string, string>, extra: readonly ProvSource[] = []): Provenance {
  const seen = new Set<string>();
  const sources: ProvSource[] = [];
  for (const s of [...inputs.flatMap((p) => p?.sources ?? []), ...extra]) {
    const k = `${s.file}\u0000${s.pointer}`;
    if (seen.has(k)) continue;
    seen.add(k);
    sources.push(s);
  }
  return { def, ...(v ? { v } : {}), formula, sources };
}

// ---------------------------------------------------------------- appendix renderers (pure)

/** The definition of an entry in the report's language: phrase `prov.<def>` filled with `v` (`metric` names a phrase `prov.metric.<metric>`). */
export function provDefinition(p: Provenance, phrases: Readonly<Record<string, string>>): string {
  const tpl = phrases[`prov.${p.def}`];
  if (tpl === undefined) throw new Error(`phrases: missing "prov.${p.def}" (templates/engine/phrases.<lang>.json)`);
  return tpl.replace(/\{\{([A-Za-z0-9_.-]+)\}\}/g, (_, k: string) => {
    const x = p.v?.[k];
    if (x === undefined) throw new Error(`phrase prov.${p.def}: no value for {{${k}}}`);
    if (k === 'metric' || k === 'what' || k === 'of') return phrases[`prov.metric.${x}`] ?? x;
    return x;
  });
}

/** One source as text: `file pointer`. */
export const sourceText = (s: ProvSource): string => `${s.file} ${s.pointer}`.trimEnd();

/**
 * Sources grouped by JSON path, the files of a group written in brace form as a shell expands it:
 * `cells/fixed-c10-r{1,2,3}.json /load/e2eMs/p95` (common prefix and suffix of the names, the
 * differing middles in their order). Groups in first-appearance order. Pure.
 */
export function groupedSources(sources: readonly ProvSource[]): { files: string; pointer: string }[] {
  const groups = new Map<string, string[]>();
  for (const x of sources) {
    const g = groups.get(x.pointer) ?? [];
    if (!g.includes(x.file)) g.push(x.file);
    groups.set(x.pointer, g);
  }
  return [...groups.entries()].map(([pointer, files]) => ({ pointer, files: braces(files) }));
}

/** `a1b, a2b` → `a{1,2}b` (only when every name differs in one middle part and no middle holds a brace, a comma or a slash). */
function braces(files: readonly string[]): string {
  if (files.length < 2) return files[0] ?? '';
  const first = files[0] as string;
  let pre = first.length;
  for (const f of files) { let i = 0; while (i < pre && i < f.length && f[i] === first[i]) i++; pre = i; }
  let suf = first.length - pre;
  for (const f of files) { let i = 0; while (i < suf && i < f.length - pre && f[f.length - 1 - i] === first[first.length - 1 - i]) i++; suf = i; }
  const mids = files.map((f) => f.slice(pre, f.length - suf));
  // a middle across a folder boundary (`s{eeds/…,rc/…}`) reads worse than the names themselves
  if (mids.some((m) => /[{},/]/.test(m))) return files.join(', ');
  return `${first.slice(0, pre)}{${mids.join(',')}}${first.slice(first.length - suf)}`;
}

/** The sources of a provenance as one line: `files pointer; files pointer; …` (groupedSources). */
export const sourcesText = (sources: readonly ProvSource[]): string => groupedSources(sources).map((g) => `${g.files} ${g.pointer}`.trimEnd()).join('; ');

/**
 * The plain-text provenance of an entry: value, definition, formula and (unless `sources` is false)
 * sources; lines separated by "\n". The HTML's hover text leaves the sources out: the value's link
 * leads to its appendix row, which has them, and a report of 2,000 values would carry each file list twice.
 */
export function provPlain(e: ProvEntry, phrases: Readonly<Record<string, string>>, opts: { sources?: boolean } = {}): string {
  const lbl = (k: string) => phrases[`prov.label.${k}`] ?? k;
  const lines = [`${e.text} — ${provDefinition(e.prov, phrases)}`];
  if (e.prov.formula) lines.push(`${lbl('formula')}: ${e.prov.formula}`);
  if (opts.sources !== false && e.prov.sources.length) lines.push(`${lbl('source')}: ${sourcesText(e.prov.sources)}`);
  return lines.join('\n');
}

/** The provenance entries of one section of a report: the section's heading (plain text) and the entries first used in it. */
export interface ProvSection {
  title: string;
  entries: ProvEntry[];
}

/** A reference `[^n<id>]` as ProvBook.md writes it (not after a backslash: an escaped bracket is text). */
const REF = /(?<!\\)\[\^n(\d+)\]/g;

/** A Markdown heading's text as a reader sees it: references, backslash escapes and code backticks dropped. */
function headingText(line: string): string {
  return line.replace(/^#+\s*/, '').replace(REF, '').replace(/\\(.)/g, '$1').replace(/`/g, '').trim();
}

/**
 * The entries of `entries` grouped by the `#`/`##` section of `body` (the report Markdown with its
 * references) in which each is first referenced, sections and entries in document order; fenced
 * code blocks are skipped (a `# run` line in a shell block is no heading). An entry `body` never
 * references (a generic section the template does not use) is left out: it is in no report. A
 * reference before the first heading goes to a section titled ''. Pure.
 */
export function provSections(body: string, entries: readonly ProvEntry[]): ProvSection[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const sections: ProvSection[] = [];
  const placed = new Set<number>();
  let current: ProvSection | null = null;
  let fence: string | null = null;
  for (const line of body.split('\n')) {
    const f = /^(`{3,}|~{3,})/.exec(line);
    if (fence !== null) { if (f && (f[1] as string)[0] === fence[0] && (f[1] as string).length >= fence.length && line.trim() === f[1]) fence = null; continue; }
    if (f) { fence = f[1] as string; continue; }
    if (/^#{1,2}\s/.test(line)) { current = { title: headingText(line), entries: [] }; sections.push(current); }
    for (const m of line.matchAll(REF)) {
      const e = byId.get(Number(m[1]));
      if (!e || placed.has(e.id)) continue;
      placed.add(e.id);
      if (!current) { current = { title: '', entries: [] }; sections.push(current); }
      current.entries.push(e);
    }
  }
  return sections.filter((x) => x.entries.length > 0);
}

/** The report Markdown without its provenance references `[^n<id>]` (the values as a reader reads them). Pure. */
export function stripProvRefs(body: string): string {
  return body.replace(REF, '');
}

/**
 * The Markdown appendix, out of the reading path: a heading, an intro, and per section of the
 * report (provSections) a `###` heading and one list item per entry (`**value** — definition.
 * formula: `…`. source: `file` `pointer`; …`). The report's values carry no marker; a reader finds
 * a value by its section and its printed text.
 */
export function provMarkdown(sections: readonly ProvSection[], phrases: Readonly<Record<string, string>>): string {
  if (sections.every((x) => x.entries.length === 0)) return '';
  const lbl = (k: string) => phrases[`prov.label.${k}`] ?? k;
  const code = (s: string) => `\`${s.replace(/`/g, '')}\``;
  const item = (e: ProvEntry) => {
    const parts = [`**${esc(e.text)}** — ${esc(provDefinition(e.prov, phrases))}`];
    if (e.prov.formula) parts.push(`${esc(lbl('formula'))}: ${code(e.prov.formula)}`);
    if (e.prov.sources.length) parts.push(`${esc(lbl('source'))}: ${groupedSources(e.prov.sources).map((g) => (g.pointer === '' ? code(g.files) : `${code(g.files)} ${code(g.pointer)}`)).join('; ')}`);
    return `- ${parts.join('. ')}`;
  };
  const blocks = sections.filter((x) => x.entries.length > 0).map((x) => [`### ${esc(x.title || (phrases['prov.section.rest'] ?? ''))}`, x.entries.map(item).join('\n')].join('\n\n'));
  return [`## ${esc(phrases['prov.title'] ?? 'How each number was computed')}`, esc(phrases['prov.intro.md'] ?? ''), ...blocks].join('\n\n');
}

// ---------------------------------------------------------------- the provenance of a report row


/** Every value of a RowModel the report prints, by name. */
export type RowProvKey = RowMetric | 'concurrency' | 'boundRps' | 'waves' | 'wavesWholeRunRps' | 'theoryQueueP95Ms' | 'theoryQueueMeanMs' | 'theoryE2eP95Ms'
  | 'pctOfBound' | 'pctOfWavesBound' | 'meanE2eMs' | 'meanQueueMs' | 'meanExecMs' | 'overheadMs' | 'queueShare' | 'meansN'
  | 'littlePredictedRps' | 'littleMeasuredRps' | 'littleRatio' | 'theoryExecMs' | 'theoryErrorRate' | 'queueGrowthPerS';
export type RowProv = Readonly<Record<RowProvKey, Provenance>>;

/** The parts of a RowModel its provenance reads (structural, so model.ts can pass the row it built). */
export interface RowForProv {
  variant: string; executor: ExecutorSpec; concurrency: number; openLoop: boolean; boundRps: number; waves: number | null; wavesWholeRunRps: number | null;
  theoryQueueP95Ms: number | null; theoryQueueMeanMs: number | null; theoryE2eP95Ms: number | null; queueGrowthPerS: number | null;
  pctOfBound: number | null; pctOfWavesBound: number | null;
  means: { e2eMs: number; queueMs: number; execMs: number; overheadMs: number; n: number } | null;
  little: { predictedRps: number; measuredRps: number; measuredDefinition: 'steady-state' | 'whole-run'; ratio: number } | null;
  wholeRunRps: Agg; steadyRps: Agg; e2eP50Ms: Agg; e2eP95Ms: Agg; e2eP99Ms: Agg; queueP95Ms: Agg; execP95Ms: Agg; execP99Ms: Agg; errorCount: Agg; errorRate: Agg;
}

/** The run-level inputs of a row's provenance. */
export interface RowProvContext {
  /** L, ms */
  latencyMs: number;
  /** n, requests per worker */
  requestsPerWorker: number;
  /** manifest.options.levels (the level's index there is its source) */
  levels: readonly number[];
  /** the percentile definition of the run (summary.json percentileDefinition) */
  percentileDefinition: string;
}

const secs = (msv: number): string => `${num(msv / 1000, 3)} s`;

/**
 * The provenance of every value of one report row (src/report/model.ts RowModel), built from the
 * row's own numbers and the same inputs its theory used (src/compute/theory/bounds.ts). Formulas print
 * their inputs and the result as the report prints it.
 */
export function rowProvenance(r: RowForProv, src: RowSource, ctx: RowProvContext): RowProv {
  const { latencyMs: L, requestsPerWorker: n } = ctx;
  const c = r.concurrency;
  const N = threadLimit(r.executor);
  const sumPtr = (p: string): ProvSource[] => (src.summaryIndex === null ? [] : [{ file: 'summary.json', pointer: `/rows/${src.summaryIndex}${p}` }]);
  const cellPtr = (p: string): ProvSource[] => src.cellIds.map((id) => ({ file: cellFile(id), pointer: p }));
  const li = ctx.levels.indexOf(c);
  const config: ProvSource[] = [{ file: 'manifest.json', pointer: '/options/latencyMs' }, ...cellPtr('/executor').slice(0, 1), ...cellPtr('/latencyMs').slice(0, 1)];
  const med = (k: RowMetric, a: Agg, f: (x: number) => string) => medianOfRepeatsProv(ROW_METRICS[k], a, src, f, ctx.percentileDefinition);
  const fmtRate = (x: number) => pct(x * 100, 3);
  const m: Record<RowMetric, Provenance> = {
    wholeRunRps: med('wholeRunRps', r.wholeRunRps, rps), steadyRps: med('steadyRps', r.steadyRps, rps),
    e2eP50Ms: med('e2eP50Ms', r.e2eP50Ms, ms), e2eP95Ms: med('e2eP95Ms', r.e2eP95Ms, ms), e2eP99Ms: med('e2eP99Ms', r.e2eP99Ms, ms),
    queueP95Ms: med('queueP95Ms', r.queueP95Ms, ms), execP95Ms: med('execP95Ms', r.execP95Ms, ms), execP99Ms: med('execP99Ms', r.execP99Ms, ms),
    errorCount: med('errorCount', r.errorCount, int), errorRate: med('errorRate', r.errorRate, fmtRate),
  };
  const level: Provenance = { def: r.openLoop ? 'levelRate' : 'level', formula: null, sources: [...(li >= 0 ? [{ file: 'manifest.json', pointer: `/options/levels/${li}` }] : []), ...cellPtr('/concurrency')] };
  const boundFormula = r.openLoop
    ? (N === null ? `λ = ${rps(r.boundRps)}` : `min(λ, N / L) = min(${int(c)}, ${int(N)} / ${secs(L)}) = ${rps(r.boundRps)}`)
    : (N === null ? `c / L = ${int(c)} / ${secs(L)} = ${rps(r.boundRps)}` : `min(c, N) / L = min(${int(c)}, ${int(N)}) / ${secs(L)} = ${rps(r.boundRps)}`);
  const bound: Provenance = { def: 'bound', formula: boundFormula, sources: [...sumPtr('/boundRps'), ...config] };
  const W = r.waves;
  const waves: Provenance = { def: 'waves', formula: W === null || N === null ? null : `⌈c / N⌉ = ⌈${int(c)} / ${int(N)}⌉ = ${int(W)}`, sources: config };
  const servers = N === null ? c : Math.min(c, N);
  const wavesBound: Provenance = {
    def: 'wavesBound', sources: [{ file: 'manifest.json', pointer: '/options/requestsPerWorker' }, { file: 'manifest.json', pointer: '/options/start' }, ...config],
    formula: r.wavesWholeRunRps === null ? null : `c·n / (⌈c·n / min(c, N)⌉ × L) = ${int(c * n)} / (⌈${int(c * n)} / ${int(servers)}⌉ × ${secs(L)}) = ${rps(r.wavesWholeRunRps)}`,
  };
  const tq = r.theoryQueueP95Ms;
  const theoryQueueP95: Provenance = {
    def: 'theoryQueueP95', sources: config,
    formula: tq === null ? null : N === null ? `0 ms` : `(⌈c/N⌉ − 1) × L = (${int(W)} − 1) × ${ms(L)} = ${ms(tq)}`,
  };
  const tm = r.theoryQueueMeanMs;
  const theoryQueueMean: Provenance = {
    def: 'theoryQueueMean', sources: config,
    formula: tm === null ? null : N === null ? `0 ms` : `max(0, (c/N − 1) × L) = max(0, (${int(c)}/${int(N)} − 1) × ${ms(L)}) = ${ms(tm)}`,
  };
  const te = r.theoryE2eP95Ms;
  const theoryE2e: Provenance = { def: 'theoryE2eP95', sources: config, formula: te === null || tq === null ? null : `${ms(tq)} + ${ms(L)} = ${ms(te)}` };
  const w = r.wholeRunRps.median;
  const pctOfBound = derivedProv('pctOf', w === null ? null : `${rps(w)} / ${rps(r.boundRps)} = ${pct(r.pctOfBound)}`, [m.wholeRunRps, bound], { what: 'wholeRunRps', of: 'boundRps' });
  const pctOfWaves = derivedProv('pctOf', w === null || r.wavesWholeRunRps === null ? null : `${rps(w)} / ${rps(r.wavesWholeRunRps)} = ${pct(r.pctOfWavesBound)}`, [m.wholeRunRps, wavesBound], { what: 'wholeRunRps', of: 'wavesWholeRunRps' });
  const mm = r.means;
  const meanE2e = pooledProv('e2eMs', 'mean', src);
  const meanQueue = pooledProv('queueMs', 'mean', src);
  const meanExec = pooledProv('execMs', 'mean', src);
  const overhead = derivedProv('overhead', mm ? `${ms(mm.e2eMs)} − ${ms(mm.queueMs)} − ${ms(mm.execMs)} = ${ms(mm.overheadMs)}` : null, [meanE2e, meanQueue, meanExec]);
  const queueShare = derivedProv('queueShare', mm ? `${ms(mm.queueMs)} / ${ms(mm.e2eMs)} = ${pct((mm.queueMs / mm.e2eMs) * 100)}` : null, [meanQueue, meanE2e]);
  const lt = r.little;
  const littlePredicted = derivedProv('little', lt && mm ? `c / mean(E2E) = ${int(c)} / ${secs(mm.e2eMs)} = ${rps(lt.predictedRps)}` : null, [level, meanE2e]);
  const littleMeasured = lt?.measuredDefinition === 'steady-state' ? m.steadyRps : m.wholeRunRps;
  const littleRatio = derivedProv('littleRatio', lt ? `${rps(lt.measuredRps)} / ${rps(lt.predictedRps)} = ${pct(lt.ratio * 100)}` : null, [littleMeasured, littlePredicted]);
  return {
    ...m,
    concurrency: level,
    boundRps: bound, waves, wavesWholeRunRps: wavesBound,
    theoryQueueP95Ms: theoryQueueP95, theoryQueueMeanMs: theoryQueueMean, theoryE2eP95Ms: theoryE2e,
    pctOfBound, pctOfWavesBound: pctOfWaves,
    meanE2eMs: meanE2e, meanQueueMs: meanQueue, meanExecMs: meanExec, overheadMs: overhead, queueShare, meansN: pooledProv('e2eMs', 'n', src),
    littlePredictedRps: littlePredicted, littleMeasuredRps: littleMeasured, littleRatio,
    theoryExecMs: { def: 'theoryExec', formula: `≥ L = ${ms(L)}`, sources: config },
    theoryErrorRate: { def: 'theoryErrors', formula: null, sources: [] },
    queueGrowthPerS: { def: 'queueGrowth', formula: r.queueGrowthPerS === null || N === null ? null : `max(0, λ − N/L) = max(0, ${int(c)} − ${int(N)} / ${secs(L)}) = ${num(r.queueGrowthPerS, 2)}`, sources: config },
  };
}

/** A value of the run's recorded options: `manifest.json /options/<key>` (e.g. `requestsPerWorker`). */
export function optionProv(key: string, index?: number): Provenance {
  return { def: 'option', v: { option: key }, formula: null, sources: [{ file: 'manifest.json', pointer: `/options/${key}${index === undefined ? '' : `/${index}`}` }] };
}

/** A constant of vtbench's rules (the same for every run), e.g. the cap on a tolerance's absolute floor: its name and the source file that defines it. */
export function ruleProv(name: string, file: string): Provenance {
  return { def: 'rule', v: { name }, formula: null, sources: [{ file, pointer: name }] };
}

/** A count of rows of the table it describes (verdicts, figures): read off the table itself. */
export function countProv(what: string): Provenance {
  return { def: 'count', v: { what }, formula: null, sources: [] };
}

/** A relative change (b − a) / a in %, as the comparison tables print it. */
export function changeProv(a: number | null, b: number | null, f: (x: number) => string, text: string, pa: Provenance, pb: Provenance): Provenance {
  return derivedProv('change', a === null || b === null ? null : `(${f(b)} − ${f(a)}) / ${f(a)} = ${text}`, [pa, pb]);
}
