/**
 * Report model + templates → Markdown string. Pure. Every sentence with a number comes from a
 * phrase template filled with values from the model; the phrase is chosen by the data (win, tie,
 * loss, zero, missing).
 *
 * The engine fills the GENERIC placeholders below for any study; a study's report hook
 * (Study.report.sections, src/report/types.ts) adds its own. The template contract (which
 * placeholders and phrase keys a study's template may use) is in templates/README.md.
 */
import type { CellFlag, VariantId } from '../types/run.ts';
import type { ChartLabels } from './charts.ts';
import type { LevelComparison, PublishedVerdict, Reason, ReportModel, RowModel, Verdict } from './model.ts';
import { LAT_TOL, PIN_EVENTS_PER_REQUEST, primaryPair, rowOf, rssDeltaMiB } from './model.ts';
import { Raw, aggText, code, esc, fill, int, mib, ms, num, pct, raw, rps, signed, table } from './format.ts';
import { ProvBook, changeProv, countProv, derivedProv, optionProv, provMarkdown, type Provenance } from './provenance.ts';
import { dataAppendix } from './data-appendix.ts';
export type { Templates, FigureRef, RenderContext } from './types.ts';
import type { Templates, FigureRef, RenderContext } from './types.ts';

/** absolute floor below which a latency change is noise: no percent change is shown */
export const CHANGE_FLOOR_MS = 10;

/** suffix of a phrase key that replaces the key's phrase in a run whose levels are arrival rates */
export const OPEN_LOOP_SUFFIX = '@openLoop';

/** Whether a run's levels are arrival rates λ (its rows come from `open-loop-http` cells, RowModel.openLoop). */
export function isOpenLoopRun(model: Pick<ReportModel, 'rows' | 'openLoop'>): boolean {
  return model.openLoop !== null || model.rows.some((r) => r.openLoop);
}

/**
 * The templates for this run's load model: in an open-loop run (isOpenLoopRun) every phrase
 * `<key>@openLoop` (engine or study phrase file) replaces `<key>`, so that a level is called an
 * arrival rate λ and no closed-loop wording or theory is printed; a closed-loop run gets `t`
 * unchanged (the same object). Pure.
 */
export function templatesForRun(t: Templates, model: Pick<ReportModel, 'rows' | 'openLoop'>): Templates {
  if (!isOpenLoopRun(model)) return t;
  const phrases = { ...t.phrases };
  for (const [k, v] of Object.entries(t.phrases)) if (k.endsWith(OPEN_LOOP_SUFFIX)) phrases[k.slice(0, -OPEN_LOOP_SUFFIX.length)] = v;
  return { ...t, phrases };
}

/** Phrase lookup and fill; a missing phrase is a programming error. */
export function phraser(t: Templates) {
  return (key: string, values: Record<string, string | Raw> = {}): Raw => {
    const p = t.phrases[key];
    if (p === undefined) throw new Error(`phrases.${t.lang}.json: missing "${key}"`);
    return raw(fill(p, values, `phrases.${t.lang}.json:${key}`));
  };
}

/**
 * The chart labels of a language: each ChartLabels key `k` from the phrase `chart.<k>` of
 * templates/engine/phrases.<lang>.json (taken as is; `droppedLog` keeps its `{{n}}`).
 * @throws Error when a `chart.*` phrase is missing (a template bug, caught by the report tests)
 */
export function chartLabels(t: Templates): ChartLabels {
  const keys: (keyof ChartLabels)[] = ['throughput', 'e2e', 'phases', 'timeseries', 'distribution', 'concurrency', 'rps', 'latencyMs', 'ms', 'timeS', 'percentile', 'mode',
    'series', 'measured', 'bound', 'wavesBound', 'theoryP95', 'phase', 'queue', 'exec', 'overhead', 'metric', 'value',
    'inFlight', 'queueSize', 'platformThreads', 'heapMiB', 'rssMiB', 'cpuPct', 'droppedLog', 'openLoopQueue', 'queueTasks', 'arrivalRate', 'queueTheory',
    'scatter', 'sendTimeS', 'scatterNote', 'scatterWhole', 'scatterEarly', 'spectrum', 'percentileLog', 'phasesNote', 'p95'];
  const out = {} as ChartLabels;
  for (const k of keys) {
    const v = t.phrases[`chart.${k}`];
    if (v === undefined) throw new Error(`phrases.${t.lang}.json: missing "chart.${k}"`);
    out[k] = v;
  }
  return out;
}

/**
 * The report's Markdown: the study's template `report.<lang>.md` with every `{{placeholder}}`
 * filled, first from the study's own `sections` hook, then from the engine's generic values
 * (templates/README.md lists them); runs of three or more newlines collapse to one blank line.
 * `figures` are the charts to embed: each fills `{{fig:<name>}}` with `![title](figures/<name>.svg)`
 * (a figure the template does not name is not shown). Units as the tables print them: ms,
 * requests/s, MiB, %. Strings from the run are Markdown-escaped. Pure (no I/O).
 * @throws Error when the template names a placeholder nobody fills, or a phrase it needs is missing
 *   from `t.phrases` (engine and study phrases; template bugs, caught by the golden tests)
 */
export function renderMarkdown(model: ReportModel, t0: Templates, figures: readonly FigureRef[]): string {
  const parts = renderMarkdownParts(model, t0, figures);
  return joinProvAppendix(parts.body, provMarkdown(parts.book.entries, parts.phrases));
}

/** The report body followed by its provenance appendix (footnotes), one blank line apart. */
export function joinProvAppendix(body: string, appendix: string): string {
  return appendix === '' ? body : `${body.replace(/\n+$/, '')}\n\n${appendix}\n`;
}

/**
 * The parts of renderMarkdown: the report body (the template filled, then the data appendix) with a
 * footnote reference after every value that has a provenance, and the book of those references.
 * `phrases` are the phrases the body used (the run's load model), for the appendix.
 */
export function renderMarkdownParts(model: ReportModel, t0: Templates, figures: readonly FigureRef[]): { body: string; book: ProvBook; phrases: Record<string, string> } {
  const book = new ProvBook();
  const pv = (text: string, prov: Provenance | null | undefined): Raw => book.md(text, prov);
  // an open-loop run: rate wording (phrases `<key>@openLoop`); the published figures keep their own (closed-loop) level header
  const t = templatesForRun(t0, model);
  const openLoopRun = t !== t0;
  const P = phraser(t);
  const s = (key: string, v: Record<string, string | Raw> = {}) => P(key, v).md;
  const variantName = (id: VariantId): string => (t.phrases[`variant.${id}`] !== undefined ? s(`variant.${id}`) : esc(model.variantSpecs.get(id)?.label ?? id));
  const verdict = (v: Verdict) => P(`verdict.${v.replace(/ /g, '-')}`);
  const o = model.manifest.options;
  const L = model.latencyMs;
  const sentenceSep = t.lang === 'zh' ? '' : ' ';
  const join = (parts: (string | Raw)[]) => raw(parts.map((p) => (p instanceof Raw ? p.md : esc(p))).filter((x) => x !== '').join(sentenceSep));
  const statusText = (st: string): string => t.phrases[`status.${st}`] ?? st;
  const msT = (x: number | null | undefined): string => (x === 0 ? '0' : ms(x));
  const span = (a: number, b: number, f: (x: number) => string): string => (f(a) === f(b) ? f(a) : `${f(a)}–${f(b)}`);
  const latTol = `${num(LAT_TOL.rel * 100, 0)} % / ${int(LAT_TOL.abs)} ms`;
  const sat = model.saturation;
  const m = model.manifest;

  // ------------------------------------------------------------ flags and gaps
  /**
   * a flag's value or threshold in the one unit of its code (listed in src/compute/analysis/flags.ts);
   * unknown codes as plain numbers. Legacy `host-cpu` flags holding the SUT-CPU share were read as
   * `sut-cpu` by the model (upgradeLegacyFlag).
   */
  const flagValue = (flagCode: string, x: number): string | Raw => {
    switch (flagCode) {
      case 'errors-above-threshold': return pct(x * 100, 2);
      case 'loadgen-cpu': return P('unit.pctOfOneCore', { v: num(x, 0) });
      case 'host-cpu': return P('unit.pctOfAllCores', { v: num(x, 0) });
      case 'sut-cpu': return P('unit.shareOfSamples', { v: num(x * 100, 0) });
      case 'loadgen-late-sends': return P('unit.shareOfRequests', { v: num(x * 100, 1) });
      case 'loadgen-lag':
      case 'scheduler-delay': return ms(x);
      case 'concurrency-below-target': return P('unit.workers', { v: int(x) });
      case 'component-disagrees': return int(x);
      default: return num(x, 3);
    }
  };
  const fg: string[] = [];
  fg.push(model.gaps.length ? [s('gaps.intro', { n: int(model.gaps.length) }), ...model.gaps.map((g) => `- ${esc(g)}`)].join('\n') : s('gaps.none'));
  if (model.flags.length) {
    fg.push(s('flags.intro', { n: int(model.flags.length) }));
    fg.push(table([s('h.cell'), s('h.flag'), s('h.message'), s('h.value'), s('h.threshold')],
      model.flags.map(({ cellId, flag }) => [cellId, flag.code, flag.message, flagValue(flag.code, flag.value), flagValue(flag.code, flag.threshold)]), ['l', 'l', 'l', 'r', 'r']).md);
  } else fg.push(s('flags.none'));
  if (sat.schedulerDelay.length || sat.sutCpu.length) fg.push(s('flags.derived'));

  // ------------------------------------------------------------ bounds per variant and level
  const boundsRows: (string | Raw)[][] = [];
  for (const c of model.levels) {
    for (const v of model.variants) {
      const r = rowOf(model, v, c);
      if (!r) continue;
      boundsRows.push([raw(variantName(v)), pv(int(c), r.prov.concurrency), pv(rps(r.boundRps), r.prov.boundRps), pv(int(r.waves), r.prov.waves), pv(msT(r.theoryQueueP95Ms), r.prov.theoryQueueP95Ms), pv(msT(r.theoryQueueMeanMs), r.prov.theoryQueueMeanMs), r.wavesWholeRunRps === null ? '—' : pv(rps(r.wavesWholeRunRps), r.prov.wavesWholeRunRps)]);
    }
  }
  // open loop: the bounds of arrivals at λ (src/compute/theory/open-loop.ts): served min(λ, N/L) or λ, queue growth max(0, λ − N/L)
  const boundsTable = openLoopRun
    ? table([s('h.mode'), s('h.concurrency'), s('h.bound'), s('h.ol.theory')],
      model.levels.flatMap((c) => model.variants.flatMap((v) => { const r = rowOf(model, v, c); return r ? [[raw(variantName(v)), int(c), rps(r.boundRps), num(r.queueGrowthPerS, 2)]] : []; })), ['l', 'r', 'r', 'r'])
    : table([s('h.mode'), s('h.concurrency'), s('h.bound'), s('h.waves'), s('h.theoryQueueP95'), s('h.theoryQueueMean'), raw(s('h.wavesBound', { n: pv(int(o.requestsPerWorker), optionProv('requestsPerWorker')) }))], boundsRows, ['l', 'r', 'r', 'r', 'r', 'r', 'r']);

  // ------------------------------------------------------------ environment
  const sut = model.sutInfo;
  /** per variant: `<id>.threads` and `<id>.queue` (platform pools), `<id>.label`; `list` = one line per variant */
  const execVars: Record<string, string> = {};
  for (const v of model.variantSpecs.values()) {
    execVars[`${v.id}.label`] = v.label;
    if (v.executor.kind === 'platform-pool') { execVars[`${v.id}.threads`] = int(v.executor.threads); execVars[`${v.id}.queue`] = int(v.executor.queueCapacity); }
  }
  execVars['list'] = o.variants.map((id) => { const v = model.variantSpecs.get(id); const e = v?.executor; return `${v?.label ?? id}: ${e?.kind === 'platform-pool' ? `${e.kind}(${int(e.threads)}, queue ${int(e.queueCapacity)})` : (e?.kind ?? '?')}`; }).join('; ');
  /** the template's executor line; the generic list when it names a variant this run did not run (e.g. a pool's `{{<id>.threads}}` in a run without that variant) */
  const executorValue = (): Raw | string => {
    const names = [...(t.phrases['env.executorValue'] ?? '').matchAll(/\{\{([A-Za-z0-9_.:-]+)\}\}/g)].map((x) => x[1] as string);
    return names.every((n) => execVars[n] !== undefined) ? P('env.executorValue', execVars) : execVars['list'] as string;
  };
  const env: [string, string | Raw][] = [
    [s('env.profile'), o.profile],
    [s('env.os'), `${m.host.os} (${m.host.kernel}, ${m.host.arch})`],
    [s('env.cpu'), P('env.cpuValue', { model: m.host.cpuModel, cores: int(m.host.cores) })],
    [s('env.memory'), `${num(m.host.memoryBytes / 1024 ** 3, 1)} GiB`],
    [s('env.jdk'), `${m.versions.jdkVendor ?? '—'} ${m.versions.jdk ?? '—'}`],
    [s('env.spring'), `Spring Boot ${m.versions.springBoot ?? '—'}, Spring AI ${m.versions.springAi ?? '—'}`],
    [s('env.node'), `Node ${m.versions.node}, undici ${m.versions.undici}`],
    [s('env.jvmFlags'), sut ? sut.jvmFlags.join(' ') : o.jvmFlags.join(' ')],
    [s('env.executor'), executorValue()],
    [s('env.mock'), model.mockModel !== null ? P('env.mockValue', { L: int(o.latencyMs), model: model.mockModel }) : `${int(o.latencyMs)} ms`],
    [s('env.levels'), P('env.planValue', { levels: o.levels.join(' / '), n: int(o.requestsPerWorker), repeats: P(o.repeats === 1 ? 'n.repeats.one' : 'n.repeats.many', { n: int(o.repeats) }), warmup: o.warmupS > 0 ? P('env.warmup', { s: int(o.warmupS) }) : P('env.noWarmup'), start: P(`start.${o.start}`) })],
    [s('env.sampler'), `${o.samplerIntervalMs} ms; JFR pinned threshold ${o.pinnedThresholdMs} ms`],
  ];
  if (sut) {
    env.push([s('env.tomcat'), `maxThreads ${sut.tomcat.maxThreads}, maxConnections ${sut.tomcat.maxConnections}, maxKeepAliveRequests ${sut.tomcat.maxKeepAliveRequests}, async timeout ${sut.tomcat.asyncRequestTimeoutMs} ms`]);
    env.push([s('env.okhttp'), `maxIdleConnections ${sut.okhttp.maxIdleConnections}, keepAlive ${sut.okhttp.keepAliveDurationMs} ms`]);
  }
  env.push([s('env.tool'), `vtbench ${m.tool.version}${m.tool.gitCommit ? ` @ ${m.tool.gitCommit.slice(0, 12)}${m.tool.gitDirty ? ' (dirty)' : ''}` : ''}`]);
  env.push([s('env.time'), `${m.startedAt} → ${m.endedAt ?? '—'} (${statusText(m.status)})`]);
  // components by URL and load shards (issue 18): rows and a per-shard table only in runs that had them
  if (m.external) env.push([s('env.external'), P('env.externalValue', { sut: m.external.sut ?? P('env.startedHere'), mock: m.external.mock ?? P('env.startedHere') })]);
  if ((o.shards ?? 1) > 1) env.push([s('env.shards'), P('env.shardsValue', { k: int(o.shards!) })]);
  if (m.mergedShards) env.push([s('env.hosts'), P('env.hostsValue', { k: int(m.mergedShards.length), list: m.mergedShards.map((x) => `${x.index}: ${x.hostname} (${x.host.cores} cores)`).join('; ') })]);
  const shardRows = model.cells.flatMap((c) => (c.shards ?? []).map((x) => [c.cellId, int(x.shard), int(x.workers), int(x.count), x.sendRatePerS === null ? '—' : rps(x.sendRatePerS), ms(x.t0OffsetMs), x.loadgen.cpuPct === null ? '—' : P('unit.pctOfOneCore', { v: num(x.loadgen.cpuPct, 0) })]));
  const envTable = table([s('h.item'), s('h.value')], env);
  const environment = shardRows.length === 0 ? envTable
    : raw([envTable.md, s('shards.intro'), table([s('h.cell'), s('h.shard'), s('h.shardWorkers'), s('h.n'), s('h.sendRate'), s('h.t0Offset'), s('h.shardCpu')], shardRows, ['l', 'r', 'r', 'r', 'r', 'r', 'r']).md].join('\n\n'));

  // ------------------------------------------------------------ method
  const warmup = model.warmups === null || model.warmups.length === 0
    ? P('method.noWarmup')
    // open loop: the warm-up is the lowest arrival rate for warmupS (src/plan/plan.ts), not workers
    : model.openLoop !== null ? P('openLoop.warmup', { warmupS: num(o.warmupS, 0), rate: int(Math.min(...o.levels)) })
    : P('method.warmup', { warmupS: int(o.warmupS), list: raw(model.warmups.map((w) => s('method.warmupMode', { variant: raw(variantName(w.variant)), workers: int(w.workers), k: int(w.requestsPerWorker), s: num(w.theoreticalS, 1) })).join(s('reason.sep'))) });
  const method = model.openLoop !== null
    ? P('openLoop.method', {
      warmup, repeatsText: P(o.repeats === 1 ? 'method.repeats.one' : 'method.repeats.many', { repeats: int(o.repeats), variants: model.variants.map(variantName).join(', ') }),
      durationS: num(model.openLoop[0]!.durationS, 0), arrival: esc(o.arrival ?? 'constant'), maxInFlight: int(model.openLoop[0]!.maxInFlight),
      scheduled: int(model.totals.plannedTotal), cells: int(model.totals.plannedCells),
    })
    : P('method', {
    warmup, repeatsText: P(o.repeats === 1 ? 'method.repeats.one' : 'method.repeats.many', { repeats: int(o.repeats), variants: model.variants.map(variantName).join(', ') }),
    n: int(o.requestsPerWorker), repeats: int(o.repeats),
    levelsSum: o.levels.join(' + '), workers: int(o.levels.reduce((a, b) => a + b, 0)), perRepeat: int(model.totals.plannedPerRepeatPerVariant),
    perVariant: int(model.totals.plannedPerRepeatPerVariant * o.repeats), variantCount: int(o.variants.length), total: int(model.totals.plannedTotal),
    start: P(`start.${o.start}`), cells: int(model.totals.plannedCells),
  });

  // ------------------------------------------------------------ results
  const tt = model.totals;
  // every cell file of the run: one source with a glob, not one per cell
  const sumCells = (field: string, value: number): Provenance => ({ def: 'sumCells', v: { field }, formula: `Σ over ${int(model.cells.length)} cells of ${field} = ${int(value)}`, sources: [{ file: 'cells/*.json', pointer: field }] });
  const countP = sumCells('/load/count', tt.count);
  const okP = sumCells('/load/ok', tt.ok);
  const failedP = derivedProv('failed', `${int(tt.count)} − ${int(tt.ok)} = ${int(tt.failed)}`, [countP, okP]);
  const errorRateText = pct(tt.errorRate === null ? null : tt.errorRate * 100, 3);
  const totals = P('totals', {
    count: pv(int(tt.count), countP), ok: pv(int(tt.ok), okP), failed: pv(int(tt.failed), failedP),
    errorRate: pv(errorRateText, derivedProv('errorRate', tt.errorRate === null ? null : `${int(tt.failed)} / ${int(tt.count)} = ${errorRateText}`, [failedP, countP])),
    planned: pv(int(tt.plannedTotal), { def: 'planned', formula: openLoopRun ? null : `(${o.levels.join(' + ')}) × ${int(o.requestsPerWorker)} × ${int(o.repeats)} × ${int(o.variants.length)} = ${int(tt.plannedTotal)}`, sources: [optionProv('levels'), optionProv('requestsPerWorker'), optionProv('repeats'), optionProv('variants')].flatMap((x) => x.sources) }),
    present: pv(int(tt.presentCells), { def: 'cellsPresent', formula: null, sources: [{ file: 'cells/', pointer: '*.json' }] }),
    cells: pv(int(tt.plannedCells), { def: 'cellsPlanned', formula: null, sources: [{ file: 'manifest.json', pointer: '/cellOrder' }] }),
  });
  const cmpTable = (cmp: LevelComparison | null): Raw => {
    if (!cmp) return P('results.noComparison');
    const f = cmp.baseline;
    const v = cmp.candidate;
    type K = 'wholeRunRps' | 'e2eP95Ms' | 'e2eP99Ms' | 'queueP95Ms' | 'execP95Ms';
    const rel = (k: K, fmt: (x: number) => string): string | Raw => {
      const a = f[k].median;
      const b = v[k].median;
      if (a === null || b === null || a === 0) return '—';
      const text = `${signed(((b - a) / a) * 100, 2)} %`;
      return pv(text, changeProv(a, b, fmt, text, f.prov[k], v.prov[k]));
    };
    /** latencies: no percent change on noise (both below the floor, or closer than it) */
    const relMs = (k: K) => { const a = f[k].median; const b = v[k].median; return a !== null && b !== null && (Math.max(Math.abs(a), Math.abs(b)) < CHANGE_FLOOR_MS || Math.abs(b - a) < CHANGE_FLOOR_MS) ? '—' : rel(k, ms); };
    const both = (a: Raw, b: Raw): Raw => raw(`${a.md} / ${b.md}`);
    const errPct = (r: RowModel) => pv(pct(r.errorRate.median === null ? null : r.errorRate.median * 100, 3), r.prov.errorRate);
    return table([s('h.metric'), variantName(f.variant), variantName(v.variant), s('h.change'), s('h.theory')], [
      [s('m.throughput'), pv(rps(f.wholeRunRps.median), f.prov.wholeRunRps), pv(rps(v.wholeRunRps.median), v.prov.wholeRunRps), rel('wholeRunRps', rps), both(pv(rps(f.boundRps), f.prov.boundRps), pv(rps(v.boundRps), v.prov.boundRps))],
      [s('m.e2eP95'), pv(ms(f.e2eP95Ms.median), f.prov.e2eP95Ms), pv(ms(v.e2eP95Ms.median), v.prov.e2eP95Ms), relMs('e2eP95Ms'), both(pv(ms(f.theoryE2eP95Ms), f.prov.theoryE2eP95Ms), pv(ms(v.theoryE2eP95Ms), v.prov.theoryE2eP95Ms))],
      [s('m.e2eP99'), pv(ms(f.e2eP99Ms.median), f.prov.e2eP99Ms), pv(ms(v.e2eP99Ms.median), v.prov.e2eP99Ms), relMs('e2eP99Ms'), '—'],
      [s('m.queueP95'), pv(ms(f.queueP95Ms.median), f.prov.queueP95Ms), pv(ms(v.queueP95Ms.median), v.prov.queueP95Ms), relMs('queueP95Ms'), both(pv(msT(f.theoryQueueP95Ms), f.prov.theoryQueueP95Ms), pv(msT(v.theoryQueueP95Ms), v.prov.theoryQueueP95Ms))],
      [s('m.execP95'), pv(ms(f.execP95Ms.median), f.prov.execP95Ms), pv(ms(v.execP95Ms.median), v.prov.execP95Ms), relMs('execP95Ms'), pv(`≥ ${ms(L)}`, f.prov.theoryExecMs)],
      [s('m.errorRate'), errPct(f), errPct(v), '—', pv('0 %', f.prov.theoryErrorRate)],
    ], ['l', 'r', 'r', 'r', 'r']);
  };
  /** a row's level with its provenance */
  const lvl = (r: RowModel): Raw => pv(int(r.concurrency), r.prov.concurrency);
  /** a median of the repeats with its spread, with its provenance */
  const ag = (r: RowModel, k: 'wholeRunRps' | 'steadyRps' | 'e2eP50Ms' | 'e2eP95Ms' | 'e2eP99Ms' | 'queueP95Ms' | 'execP95Ms' | 'execP99Ms' | 'errorCount', f: (x: number | null) => string): Raw => pv(aggText(r[k], f), r.prov[k]);
  /** every comparison of the study at every level both variants have */
  const comparisons = model.pairs.length
    ? raw(model.pairs.flatMap((p) => p.levels.map((lv) => `${s('cmp.heading', { baseline: raw(variantName(p.baseline)), candidate: raw(variantName(p.candidate)), c: pv(int(lv.concurrency), lv.baseline.prov.concurrency) })}\n\n${cmpTable(lv).md}`)).join('\n\n'))
    : P('results.noComparison');
  // open loop: no steady-state column (it is a per-worker closed-loop rate; an open-loop cell has no workers)
  const allLevels = openLoopRun
    ? table([s('h.mode'), s('h.concurrency'), s('h.throughput'), s('h.e2eP50'), s('h.e2eP95'), s('h.e2eP99'), s('h.queueP95'), s('h.execP95'), s('h.errors')],
      model.rows.map((r) => [raw(variantName(r.variant)), lvl(r), ag(r, 'wholeRunRps', rps), ag(r, 'e2eP50Ms', ms), ag(r, 'e2eP95Ms', ms), ag(r, 'e2eP99Ms', ms), ag(r, 'queueP95Ms', ms), ag(r, 'execP95Ms', ms), ag(r, 'errorCount', int)]),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'])
    : table([s('h.mode'), s('h.concurrency'), s('h.throughput'), s('h.steady'), s('h.e2eP50'), s('h.e2eP95'), s('h.e2eP99'), s('h.queueP95'), s('h.execP95'), s('h.errors')],
    model.rows.map((r) => [raw(variantName(r.variant)), lvl(r), ag(r, 'wholeRunRps', rps), ag(r, 'steadyRps', rps), ag(r, 'e2eP50Ms', ms), ag(r, 'e2eP95Ms', ms), ag(r, 'e2eP99Ms', ms), ag(r, 'queueP95Ms', ms), ag(r, 'execP95Ms', ms), ag(r, 'errorCount', int)]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']);

  // ------------------------------------------------------------ published vs measured
  const unitFmt = (u: string, x: number | null): string => (x === null ? '—' : u === 'ms' ? ms(x) : u === 'req/s' ? rps(x) : u === 'ratio' ? pct(x * 100, 2) : u === 'MiB' ? `${num(x, 1)} MiB` : int(x));
  const reasonText = (r: Reason): Raw => {
    const v: Record<string, string | Raw> = {};
    // a number in a reason is a fact of this run's setup or of the study's (the reason names which)
    const reasonProv: Provenance = { def: 'reasonValue', v: { reason: r.key, key: '', study: model.study.id }, formula: null, sources: [{ file: 'manifest.json', pointer: '' }, { file: `src/studies/${model.study.id}/published.ts`, pointer: 'SETUP_FACTS' }] };
    for (const [k, x] of Object.entries(r.v ?? {})) {
      const p = { ...reasonProv, v: { ...reasonProv.v, key: k } };
      v[k] = k === 'variant' ? raw(variantName(String(x))) : pv(typeof x === 'number' ? int(x) : x, p);
    }
    if (r.parts) v['list'] = raw(r.parts.map((q) => reasonText(q).md).join(s('reason.sep')));
    return P(`reason.${r.key}`, v);
  };
  const tolProv = (p: PublishedVerdict): Provenance => ({
    def: p.unit === 'events' ? 'tolerancePin' : 'tolerance', v: { id: p.id, study: model.study.id },
    formula: `max(${num(p.tolerance.rel * 100, 0)} % × |${unitFmt(p.unit, p.published)}|, ${unitFmt(p.unit, p.tolerance.abs)}) = ${unitFmt(p.unit, Math.max(p.tolerance.rel * Math.abs(p.published), p.tolerance.abs))}`,
    sources: [{ file: `src/studies/${model.study.id}/published.ts`, pointer: p.id }, { file: `src/studies/${model.study.id}/report.ts`, pointer: 'figure()' }],
  });
  const tolText = (p: PublishedVerdict): string | Raw => {
    if (p.unit === 'events') return P('tol.pinRule', { abs: pv(num(p.tolerance.abs, 1), derivedProv('pinAllowed', `${num(PIN_EVENTS_PER_REQUEST, 2)} × ${int(model.pinRule.requests)} = ${num(p.tolerance.abs, 1)}`, [], undefined, model.cells.filter((x) => x.pinned !== null && x.executor.kind === 'virtual-per-task').map((x) => ({ file: `cells/${x.cellId}.json`, pointer: '/load/count' })))) });
    const parts: string[] = [];
    if (p.tolerance.rel > 0) parts.push(`±${num(p.tolerance.rel * 100, 0)} %`);
    if (p.tolerance.abs > 0 || parts.length === 0) parts.push(`±${unitFmt(p.unit, p.tolerance.abs)}`);
    return pv(parts.join(s('tol.or').replace(/\\(.)/g, '$1')), tolProv(p));
  };
  const diffText = (p: PublishedVerdict): string | Raw => {
    if (p.diff === null) return '—';
    const inputs = [p.prov.measured, p.prov.published];
    const f = (x: number) => unitFmt(p.unit, x);
    if (p.unit === 'ratio') { const text = `${signed(p.diff * 100, 2)} pp`; return pv(text, derivedProv('diff', `${f(p.measured as number)} − ${f(p.published)} = ${text}`, inputs)); }
    const d = signed(p.diff, p.unit === 'req/s' || p.unit === 'ms' ? 2 : p.unit === 'MiB' ? 1 : 0);
    const noise = p.unit === 'ms' && p.measured !== null && (Math.max(Math.abs(p.published), Math.abs(p.measured)) < CHANGE_FLOOR_MS || Math.abs(p.diff) < CHANGE_FLOOR_MS);
    const text = p.diffPct === null || noise ? d : `${d} (${signed(p.diffPct, 1)} %)`;
    return pv(text, derivedProv('diff', `${f(p.measured as number)} − ${f(p.published)} = ${d}${p.diffPct === null || noise ? '' : `; ${d} / ${f(p.published)} = ${signed(p.diffPct, 1)} %`}`, inputs));
  };
  const counts = { reproduced: 0, 'not reproduced': 0, 'not tested here': 0 } as Record<Verdict, number>;
  const counted = model.published.filter((p) => p.identity === null);
  const identities = model.published.filter((p) => p.identity !== null);
  for (const p of counted) counts[p.verdict]++;
  const figName = (p: PublishedVerdict) => P(`fig.${p.metric}`);
  /** the published figure's level: the study's (its published row) */
  const pubLevel = (p: PublishedVerdict): string | Raw => (p.concurrency === null ? '—' : pv(int(p.concurrency), p.prov.published));
  const variantCell = (p: PublishedVerdict): string | Raw => (p.variant === null ? '—' : raw(variantName(p.variant)));
  const cnt = (x: number, what: string) => pv(int(x), countProv(what));
  const pubParts: string[] = [s('published.intro', { n: cnt(counted.length, 'figures'), rep: cnt(counts.reproduced, 'reproduced'), notRep: cnt(counts['not reproduced'], 'notReproduced'), notTested: cnt(counts['not tested here'], 'notTested') }), table(
    [s('h.figure'), s('h.mode'), phraser(t0)('h.concurrency').md, s('h.published'), s('h.measured'), s('h.diff'), s('h.tolerance'), s('h.verdict'), s('h.reason')],
    counted.map((p) => [figName(p), variantCell(p), pubLevel(p),
      pv(unitFmt(p.unit, p.published), p.prov.published), pv(unitFmt(p.unit, p.measured), p.prov.measured),
      diffText(p),
      tolText(p), verdict(p.verdict), raw(p.reasons.map((q) => reasonText(q).md).join(s('reason.sep')))]),
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l', 'l']).md];
  if (identities.length) {
    pubParts.push(s('published.identities', { n: cnt(identities.length, 'identities') }));
    pubParts.push(table([s('h.figure'), s('h.mode'), phraser(t0)('h.concurrency').md, s('h.published'), s('h.measured'), s('h.check'), s('h.why')],
      identities.map((p) => [figName(p), variantCell(p), pubLevel(p),
        pv(unitFmt(p.unit, p.published), p.prov.published), pv(unitFmt(p.unit, p.measured), p.prov.measured),
        p.verdict === 'reproduced' ? P('identity.holds') : p.verdict === 'not reproduced' ? P('identity.fails') : raw(`${verdict(p.verdict).md}${p.reasons.length ? ` (${p.reasons.map((q) => reasonText(q).md).join(s('reason.sep'))})` : ''}`),
        P(`identity.${p.identity as string}`)]),
      ['l', 'l', 'r', 'r', 'r', 'l', 'l']).md);
  }
  const publishedTable = raw(pubParts.join('\n\n'));

  // ------------------------------------------------------------ analysis
  const nOpt = () => pv(int(o.requestsPerWorker), optionProv('requestsPerWorker'));
  const edgeNote = () => s('edge.note', { n: nOpt(), frac: pv(pct(model.rampFraction * 100), derivedProv('rampFraction', `n / (n + 1) = ${int(o.requestsPerWorker)} / ${int(o.requestsPerWorker + 1)} = ${pct(model.rampFraction * 100)}`, [optionProv('requestsPerWorker')])) });
  // open loop: no waves bound and no per-worker steady state (there are no workers)
  const boundTable = openLoopRun
    ? table([s('h.mode'), s('h.concurrency'), s('h.throughput'), s('h.bound'), s('h.pctOfBound')],
      model.rows.map((r) => [raw(variantName(r.variant)), lvl(r), pv(rps(r.wholeRunRps.median), r.prov.wholeRunRps), pv(rps(r.boundRps), r.prov.boundRps), pv(pct(r.pctOfBound), r.prov.pctOfBound)]), ['l', 'r', 'r', 'r', 'r'])
    : table([s('h.mode'), s('h.concurrency'), s('h.throughput'), s('h.bound'), s('h.pctOfBound'), raw(s('h.wavesBound', { n: nOpt() })), s('h.pctOfWaves'), s('h.steady')],
    model.rows.map((r) => [raw(variantName(r.variant)), lvl(r), pv(rps(r.wholeRunRps.median), r.prov.wholeRunRps), pv(rps(r.boundRps), r.prov.boundRps), pv(pct(r.pctOfBound), r.prov.pctOfBound), r.wavesWholeRunRps === null ? '—' : pv(rps(r.wavesWholeRunRps), r.prov.wavesWholeRunRps), pv(pct(r.pctOfWavesBound), r.prov.pctOfWavesBound), pv(rps(r.steadyRps.median), r.prov.steadyRps)]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r']);
  const decomposition = raw(`${table([s('h.mode'), s('h.concurrency'), s('h.meanE2e'), s('h.meanQueue'), s('h.meanExec'), s('h.overhead'), s('h.queueShare'), s('h.n')],
    model.rows.map((r) => r.means
      ? [raw(variantName(r.variant)), lvl(r), pv(ms(r.means.e2eMs), r.prov.meanE2eMs), pv(ms(r.means.queueMs), r.prov.meanQueueMs), pv(ms(r.means.execMs), r.prov.meanExecMs), pv(ms(r.means.overheadMs), r.prov.overheadMs), pv(pct((r.means.queueMs / r.means.e2eMs) * 100), r.prov.queueShare), pv(int(r.means.n), r.prov.meansN)]
      : [raw(variantName(r.variant)), lvl(r), '—', '—', '—', '—', '—', '—']),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r']).md}\n\n${s('decomp.note')}`);
  // open loop: Little's law with c workers does not apply (phrase little.note@openLoop says where L = λW is checked)
  const little = openLoopRun ? P('little.note') : raw(`${table([s('h.mode'), s('h.concurrency'), s('h.meanE2e'), s('h.littleRps'), s('h.measuredRps'), s('h.ratio')],
    model.rows.map((r) => [raw(variantName(r.variant)), lvl(r), pv(ms(r.means?.e2eMs), r.prov.meanE2eMs), pv(rps(r.little?.predictedRps), r.prov.littlePredictedRps), r.little ? raw(`${pv(rps(r.little.measuredRps), r.prov.littleMeasuredRps).md} (${s(`def.${r.little.measuredDefinition}`)})`) : '—', r.little ? pv(pct(r.little.ratio * 100), r.prov.littleRatio) : '—']),
    ['l', 'r', 'r', 'r', 'r', 'r']).md}\n\n${s('little.note')}`);

  // ------------------------------------------------------------ thread dumps (phrase td.<executor kind>)
  const tdParts: string[] = [];
  if (!model.threadDumps.length) tdParts.push(s('td.none'));
  for (const d of model.threadDumps) {
    tdParts.push(`### ${esc(variantName(d.variant))} @ ${int(d.concurrency)} (${esc(d.cellId)})`);
    const otherN = d.otherVirtual.reduce((a, g) => a + g.count, 0);
    const pool = d.executor.kind === 'platform-pool' ? d.executor.threads : null;
    const others = pool === null && otherN > 0
      ? P('td.otherVirtual', { n: int(otherN), names: d.otherVirtual.map((g) => `${g.namePrefix} × ${int(g.count)}`).join(', ') })
      : raw('');
    tdParts.push(s(`td.${d.executor.kind}`, {
      threads: int(d.dump.threadCount), t: num(d.dump.takenAtMs / 1000, 2), inPool: int(d.dump.inSocketRead.poolThreads), inVirtual: int(d.dump.inSocketRead.virtual), other: int(d.dump.inSocketRead.other),
      N: int(pool), active: int(d.peakExecutorActive), queue: int(d.peakQueue), cMinusN: pool === null || openLoopRun ? '—' : int(Math.max(0, d.concurrency - pool)), vthreads: int(d.benchmarkThreads), c: int(d.concurrency),
      prefix: code(d.benchmarkPrefix), others,
    }));
    const frame = (f: string) => (f === '(no stack)' ? s('td.noStack') : f);
    tdParts.push(table([s('h.namePrefix'), s('h.virtualThread'), s('h.state'), s('h.topFrame'), s('h.count')],
      d.dump.groups.map((g) => [g.namePrefix, g.virtual ? s('yes') : s('no'), g.state, frame(g.topFrame), int(g.count)]), ['l', 'l', 'l', 'l', 'r']).md);
    if (d.containers.length) {
      tdParts.push(table([s('h.container'), s('h.count'), s('h.containerRole')],
        d.containers.map((c) => [c.name, int(c.threadCount), c.benchmark ? P('td.benchmarkExecutor', { prefix: code(d.benchmarkPrefix) }) : '']), ['l', 'r', 'l']).md);
    }
    if (d.emptyContainers > 0) tdParts.push(s('td.emptyContainers', { n: int(d.emptyContainers) }));
  }
  const threadDumps = raw(tdParts.join('\n\n'));

  // ------------------------------------------------------------ pinning
  const pinParts: string[] = [];
  const pr = model.pinRule;
  const thr = pr.thresholdMs ?? o.pinnedThresholdMs;
  pinParts.push(s(pr.events === null ? 'pin.noData' : pr.events === 0 ? 'pin.zero' : 'pin.some', { n: int(pr.events), thr: int(thr), req: int(pr.requests), per1000: num(pr.requests ? ((pr.events ?? 0) / pr.requests) * 1000 : null, 2) }));
  if (pr.notable !== null) pinParts.push(s(pr.notable ? 'pin.notable' : 'pin.notNotable', { allowed: num(pr.allowed, 1), req: int(pr.requests) }));
  pinParts.push(s('pin.window', { thr: int(thr) }));
  const reads = model.pinReads;
  if (reads.cellsWithData > 0) {
    pinParts.push(reads.flushed === reads.cellsWithData ? s('pin.flushed') : s('pin.notFlushed', { n: int(reads.cellsWithData - reads.flushed), m: int(reads.cellsWithData) }));
  }
  pinParts.push(table([s('h.mode'), s('h.concurrency'), s('h.threshold'), s('h.events'), s('h.cellsWithData')],
    model.pinning.map((p) => [raw(variantName(p.variant)), int(p.concurrency), p.thresholdMs === null ? '—' : `${int(p.thresholdMs)} ms`, int(p.total), `${p.cellsWithData} / ${p.cells}`]), ['l', 'r', 'r', 'r', 'r']).md);
  if (model.pinningReasons.length) pinParts.push(table([s('h.mode'), s('h.pinReason'), s('h.events')], model.pinningReasons.map((r) => [raw(variantName(r.variant)), r.kind, int(r.count)]), ['l', 'l', 'r']).md);

  // ------------------------------------------------------------ resources
  const resParts: string[] = [];
  resParts.push(table([s('h.mode'), s('h.concurrency'), s('h.peakRss'), s('h.peakHeap'), s('h.meanCpu'), s('h.peakPlatform'), s('h.peakInFlight'), s('h.peakQueue'), s('h.samples')],
    model.rows.map((r) => [raw(variantName(r.variant)), int(r.concurrency), aggText(r.resources.peakRssBytes, mib), aggText(r.resources.peakHeapUsedBytes, mib), aggText(r.resources.meanCpuPct, (x) => pct(x, 2)), aggText(r.resources.peakPlatformThreads, int), aggText(r.resources.peakInFlight, int), aggText(r.resources.peakQueue, int), int(r.resources.samples)]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']).md);
  // the study's first comparison at its highest common level: RSS and platform threads side by side
  const h = primaryPair(model)?.highest ?? null;
  if (h) {
    const fr = h.baseline.resources.peakRssBytes.median;
    const vr = h.candidate.resources.peakRssBytes.median;
    const names = { baseline: raw(variantName(h.baseline.variant)), candidate: raw(variantName(h.candidate.variant)) };
    if (fr !== null && vr !== null) {
      const d = rssDeltaMiB(fr, vr) as number;
      resParts.push(s(Math.abs(d) < 1 ? 'res.rssSame' : d > 0 ? 'res.rssMore' : 'res.rssLess', { ...names, c: int(h.concurrency), fx: mib(fr), vt: mib(vr), delta: num(Math.abs(d), 1) }));
    }
    resParts.push(s('res.platform', { ...names, c: int(h.concurrency), fx: int(h.baseline.resources.peakPlatformThreads.median), vt: int(h.candidate.resources.peakPlatformThreads.median) }));
  }
  const jb = model.jvmBlocks;
  if (jb && jb.split.length > 0) {
    resParts.push(s('res.caveatSplit', { blocks: jb.blocks.join(', '), split: jb.split.map((b) => `${b.blockId} (${b.jvms})`).join(', '), cpuNote: s('res.cpuNote') }));
  } else {
    resParts.push(s('res.caveat', { blocks: (jb ? jb.blocks : Object.keys(m.sut).sort()).join(', ') || '—', cpuNote: s('res.cpuNote') }));
  }
  resParts.push(s('res.seriesNote'));

  // ------------------------------------------------------------ figures
  const figVals: Record<string, Raw> = {};
  for (const f of figures) figVals[`fig:${f.name}`] = raw(`![${esc(f.title)}](figures/${f.name}.svg)`);

  // ------------------------------------------------------------ summary (a study usually has its own: rendered only when used)
  const summary = (): Raw => {
  const summaryParts: Raw[] = [P('summary.setup', {
    profile: o.profile, latencyMs: int(L), levels: model.levels.join(', '), variants: model.variants.map(variantName).join(', '),
    repeatsText: P(o.repeats === 1 ? 'summary.repeats.one' : 'summary.repeats.many', { n: int(o.repeats) }),
    count: int(model.totals.count), ok: int(model.totals.ok), failed: int(model.totals.failed),
  })];
  for (const p of model.pairs) {
    const hi = p.highest;
    if (!hi || !hi.throughput) continue;
    summaryParts.push(P('summary.comparison', {
      baseline: raw(variantName(p.baseline)), candidate: raw(variantName(p.candidate)), c: int(hi.concurrency),
      fx: rps(hi.baseline.wholeRunRps.median), vt: rps(hi.candidate.wholeRunRps.median), ratio: num(hi.throughputRatio, 2),
      fxP95: ms(hi.baseline.e2eP95Ms.median), vtP95: ms(hi.candidate.e2eP95Ms.median),
    }));
  }
  return join(summaryParts);
  };

  /** the open-loop section (src/report/open-loop.ts); '' when the run has no open-loop cells */
  const openLoop = (): string | Raw => {
    const cells = model.openLoop;
    if (cells === null) return '';
    const first = cells[0]!;
    const p3 = (x: { p50: number; p95: number; p99: number } | null) => (x ? `${ms(x.p50)} / ${ms(x.p95)} / ${ms(x.p99)}` : '—');
    const rowsOl = cells.map((c) => [
      raw(`${variantName(c.variant)} λ = ${num(c.targetRatePerS, 0)}${c.repeat > 1 ? ` (r${c.repeat})` : ''}`),
      rps(c.targetRatePerS),
      rps(c.achievedRatePerS),
      `${int(c.sent)} / ${int(c.scheduled)}`,
      int(c.refused),
      c.late === null ? '—' : int(c.late),
      int(c.errors),
      p3(c.e2eFromIntendedMs),
      p3(c.e2eFromSendMs),
      c.fit.slopePerS === null ? '—' : `${num(c.fit.slopePerS, 2)}${c.fit.r2 === null ? '' : ` (r² ${num(c.fit.r2, 3)})`}`,
      c.executor.kind === 'platform-pool' ? num(c.theorySlopePerS, 2) : '0',
      c.slopeRatio === null ? '—' : num(c.slopeRatio, 3),
    ]);
    const tbl = table([s('h.ol.cell'), s('h.ol.target'), s('h.ol.achieved'), s('h.ol.sent'), s('h.ol.refused'), s('h.ol.late', { ms: int(first.lateThresholdMs ?? 0) }), s('h.ol.errors'), s('h.ol.fromIntended'), s('h.ol.fromSend'), s('h.ol.slope'), s('h.ol.theory'), s('h.ol.ratio')],
      rowsOl, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']);
    const fig = value('fig:open-loop-queue');
    return raw([
      s('openLoop.heading'),
      s('openLoop.intro', { durationS: num(first.durationS, 0), arrival: first.cellId.length > 0 ? esc(model.manifest.options.arrival ?? 'constant') : '', maxInFlight: int(first.maxInFlight) }),
      tbl.md,
      s('openLoop.fitNote', { samplerIntervalMs: int(o.samplerIntervalMs) }),
      ...(fig !== undefined ? [fig instanceof Raw ? fig.md : esc(fig)] : []),
      s('openLoop.closedLoopNote'),
    ].join('\n\n'));
  };

  /** the generic placeholders; a function is rendered only when the template uses it and the study does not fill it */
  const generic: Record<string, string | Raw | (() => string | Raw)> = {
    summary,
    title: s('title', { runId: model.runId }),
    fixtureNote: raw([
      model.isFixture ? P('fixtureNote').md : s('runNote', { runId: model.runId, status: statusText(m.status) }),
      // an open-loop run: its levels are arrival rates, which the closed-loop sections read as workers
      ...(model.openLoop !== null ? [s('openLoop.banner')] : []),
    ].join('\n\n')),
    flagsAndGaps: raw(fg.join('\n\n')),
    boundsTable,
    environment,
    method,
    percentileDefinition: model.percentileDefinition,
    samplerIntervalMs: int(o.samplerIntervalMs),
    totals,
    comparisons,
    allLevels,
    publishedTable,
    boundTable,
    decomposition,
    little,
    threadDumps,
    pinning: raw(pinParts.join('\n\n')),
    resources: raw(resParts.join('\n\n')),
    openLoop,
    ...figVals,
  };
  const value = (name: string): string | Raw | undefined => { const g = generic[name]; return typeof g === 'function' ? g() : g; };
  const ctx: RenderContext = {
    t, P, s, variantName, verdict, sentenceSep, join, statusText, msT, span, latTol, reasonText, cmpTable, edgeNote, generic: value, pv,
  };
  const own = model.study.report?.sections?.(model, ctx) ?? {};
  const values: Record<string, string | Raw> = {};
  for (const [, name] of t.report.matchAll(/\{\{([A-Za-z0-9_.:-]+)\}\}/g)) {
    const v = own[name as string] ?? value(name as string);
    if (v !== undefined) values[name as string] = v;
  }
  const body = fill(t.report, values, `report.${t.lang}.md`).replace(/\n{3,}/g, '\n\n');
  return { body: `${body.replace(/\n+$/, '')}\n\n${dataAppendix(model, P)}\n`, book, phrases: t.phrases };
}

export type { RowModel, CellFlag };
