/**
 * Report model + templates → Markdown string. Pure. Every sentence with a number comes from a
 * phrase template filled with values from the model; the phrase is chosen by the data (win, tie,
 * loss, zero, missing).
 */
import type { CellFlag, Mode } from '../store/types.ts';
import type { ChartLabels } from './charts.ts';
import type { LevelComparison, Reason, ReportModel, RowModel, Verdict } from './model.ts';
import { LAT_TOL, rssDeltaMiB } from './model.ts';
import { Raw, aggText, code, esc, fill, int, mib, ms, num, pct, raw, rps, signed, table } from './format.ts';

export interface Templates {
  lang: 'en' | 'zh';
  report: string;
  phrases: Record<string, string>;
}

/** absolute floor below which a latency change is noise: no percent change is shown */
export const CHANGE_FLOOR_MS = 10;

export interface FigureRef { name: string; title: string }

/** Phrase lookup and fill; a missing phrase is a programming error. */
export function phraser(t: Templates) {
  return (key: string, values: Record<string, string | Raw> = {}): Raw => {
    const p = t.phrases[key];
    if (p === undefined) throw new Error(`phrases.${t.lang}.json: missing "${key}"`);
    return raw(fill(p, values, `phrases.${t.lang}.json:${key}`));
  };
}

export function chartLabels(t: Templates): ChartLabels {
  const keys: (keyof ChartLabels)[] = ['throughput', 'e2e', 'phases', 'timeseries', 'distribution', 'concurrency', 'rps', 'latencyMs', 'ms', 'timeS', 'percentile', 'mode',
    'series', 'measured', 'bound', 'wavesBound', 'theoryP95', 'phase', 'queue', 'exec', 'overhead', 'metric', 'value',
    'inFlight', 'queueSize', 'platformThreads', 'heapMiB', 'rssMiB', 'cpuPct', 'droppedLog'];
  const out = {} as ChartLabels;
  for (const k of keys) {
    const v = t.phrases[`chart.${k}`];
    if (v === undefined) throw new Error(`phrases.${t.lang}.json: missing "chart.${k}"`);
    out[k] = v;
  }
  return out;
}

export function renderMarkdown(model: ReportModel, t: Templates, figures: readonly FigureRef[]): string {
  const P = phraser(t);
  const s = (key: string, v: Record<string, string | Raw> = {}) => P(key, v).md;
  const modeName = (m: Mode) => s(`mode.${m}`);
  const verdict = (v: Verdict) => P(`verdict.${v.replace(/ /g, '-')}`);
  const o = model.manifest.options;
  const L = model.latencyMs;
  const N = model.poolSize;
  const rowOf = (m: Mode, c: number) => model.rows.find((r) => r.mode === m && r.concurrency === c) ?? null;
  /** sentences after each other: a space in English, nothing after a Chinese full stop */
  const sentenceSep = t.lang === 'zh' ? '' : ' ';
  const join = (parts: (string | Raw)[]) => raw(parts.map((p) => (p instanceof Raw ? p.md : esc(p))).filter((x) => x !== '').join(sentenceSep));
  /** a run's status word (complete, interrupted, …) in the report's language; unknown ones as they are */
  const statusText = (st: string): string => t.phrases[`status.${st}`] ?? st;
  const outcome = (cmp: LevelComparison | null) => cmp?.throughput ?? null;
  /** a theoretical value: an exact zero is written "0", not "0.000 ms" */
  const msT = (x: number | null | undefined): string => (x === 0 ? '0' : ms(x));
  /** one value when the range is a single value as printed, else "a–b" */
  const span = (a: number, b: number, f: (x: number) => string): string => (f(a) === f(b) ? f(a) : `${f(a)}–${f(b)}`);

  // ------------------------------------------------------------ summary
  const summaryParts: Raw[] = [P('summary.setup', {
    profile: o.profile, latencyMs: int(L), poolSize: int(N), levels: model.levels.join(', '),
    repeatsText: P(o.repeats === 1 ? 'summary.repeats.one' : 'summary.repeats.many', { n: int(o.repeats) }),
    count: int(model.totals.count), ok: int(model.totals.ok), failed: int(model.totals.failed),
  })];
  const headline = (cmp: LevelComparison | null): Raw => {
    if (!cmp || !cmp.throughput) return P('summary.noComparison');
    const v = {
      c: int(cmp.concurrency), fx: rps(cmp.fixed.wholeRunRps.median), vt: rps(cmp.virtual.wholeRunRps.median),
      ratio: num(cmp.throughputRatio, 2), fxP95: ms(cmp.fixed.e2eP95Ms.median), vtP95: ms(cmp.virtual.e2eP95Ms.median),
    };
    return P(`summary.throughput.${cmp.throughput}`, v);
  };
  summaryParts.push(headline(model.highest));
  if (model.highest && model.highest.throughput) {
    const h = model.highest;
    const pctOf = (x: number | null, b: number) => (x === null ? '—' : num((x / b) * 100, 1));
    summaryParts.push(P('summary.steady', {
      rampNote: o.start === 'ramp' ? P('summary.rampNote', { frac: num(model.rampFraction * 100, 1) }) : '',
      fxS: rps(h.fixed.steadyRps.median), fxPct: pctOf(h.fixed.steadyRps.median, h.fixed.boundRps), fxB: rps(h.fixed.boundRps),
      vtS: rps(h.virtual.steadyRps.median), vtPct: pctOf(h.virtual.steadyRps.median, h.virtual.boundRps), vtB: rps(h.virtual.boundRps),
    }));
  }
  const sat = model.saturation;
  const latTol = `${num(LAT_TOL.rel * 100, 0)} % / ${int(LAT_TOL.abs)} ms`;
  /** the likely cause when virtual threads queued or executed slower: busy carrier threads (host CPU) */
  const carrierCause = (cmp: LevelComparison): Raw | null => {
    const v = { carriers: int(sat.carriers), c: int(cmp.concurrency), vtQueue: ms(cmp.virtual.queueP95Ms.median), thr: ms(sat.queueThresholdMs) };
    if (cmp.vtQueueDelayed) return P('cause.carriers.queue', v);
    if (cmp.execSlowerVirtual) return P('cause.carriers.exec', v);
    return null;
  };
  if (model.highest && model.highest.execSame !== null) {
    const h = model.highest;
    const key = h.execSame ? (outcome(h) === 'wins' ? 'summary.exec.sameWins' : 'summary.exec.same') : 'summary.exec.differs';
    summaryParts.push(P(key, { fxExec: ms(h.fixed.execP95Ms.median), vtExec: ms(h.virtual.execP95Ms.median), diffPct: signed((h.execP95RelDiff as number) * 100, 1), tol: latTol }));
    const cause = carrierCause(h);
    if (cause) summaryParts.push(cause);
  }
  if (model.isFixture) summaryParts.push(P('summary.fixture'));

  // ------------------------------------------------------------ flags and gaps
  /**
   * a flag's value or threshold in the one unit of its code (listed in src/pipeline/flags.ts);
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

  // ------------------------------------------------------------ hypothesis
  const boundsRows: (string | Raw)[][] = [];
  for (const c of model.levels) {
    for (const m of model.modes) {
      const r = rowOf(m, c);
      if (!r) continue;
      boundsRows.push([modeName(m) && raw(modeName(m)), int(c), rps(r.boundRps), int(r.waves), msT(r.theoryQueueP95Ms), msT(r.theoryQueueMeanMs), r.wavesWholeRunRps === null ? '—' : rps(r.wavesWholeRunRps)]);
    }
  }
  const boundsTable = table([s('h.mode'), s('h.concurrency'), s('h.bound'), s('h.waves'), s('h.theoryQueueP95'), s('h.theoryQueueMean'), s('h.wavesBound', { n: int(o.requestsPerWorker) })], boundsRows, ['l', 'r', 'r', 'r', 'r', 'r', 'r']);

  // ------------------------------------------------------------ environment
  const m = model.manifest;
  const sut = model.sutInfo;
  const env: [string, string | Raw][] = [
    [s('env.profile'), o.profile],
    [s('env.os'), `${m.host.os} (${m.host.kernel}, ${m.host.arch})`],
    [s('env.cpu'), P('env.cpuValue', { model: m.host.cpuModel, cores: int(m.host.cores) })],
    [s('env.memory'), `${num(m.host.memoryBytes / 1024 ** 3, 1)} GiB`],
    [s('env.jdk'), `${m.versions.jdkVendor ?? '—'} ${m.versions.jdk ?? '—'}`],
    [s('env.spring'), `Spring Boot ${m.versions.springBoot ?? '—'}, Spring AI ${m.versions.springAi ?? '—'}`],
    [s('env.node'), `Node ${m.versions.node}, undici ${m.versions.undici}`],
    [s('env.jvmFlags'), sut ? sut.jvmFlags.join(' ') : o.jvmFlags.join(' ')],
    [s('env.executor'), P('env.executorValue', { N: int(o.poolSize), queue: int(o.queueCapacity) })],
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
  const environment = table([s('h.item'), s('h.value')], env);

  // ------------------------------------------------------------ method
  const warmup = model.warmups === null || model.warmups.length === 0
    ? P('method.noWarmup')
    : P('method.warmup', { warmupS: int(o.warmupS), list: raw(model.warmups.map((w) => s('method.warmupMode', { mode: raw(modeName(w.mode)), workers: int(w.workers), k: int(w.requestsPerWorker), s: num(w.theoreticalS, 1) })).join(s('reason.sep'))) });
  const method = P('method', {
    warmup, repeatsText: P(o.repeats === 1 ? 'method.repeats.one' : 'method.repeats.many', { repeats: int(o.repeats), modes: model.modes.map(modeName).join(', ') }),
    n: int(o.requestsPerWorker), repeats: int(o.repeats),
    levelsSum: o.levels.join(' + '), workers: int(o.levels.reduce((a, b) => a + b, 0)), perRepeat: int(model.totals.plannedPerRepeatPerMode),
    perMode: int(model.totals.plannedPerRepeatPerMode * o.repeats), modeCount: int(o.modes.length), total: int(model.totals.plannedTotal),
    start: P(`start.${o.start}`), cells: int(model.totals.plannedCells),
  });

  // ------------------------------------------------------------ results
  const totals = P('totals', {
    count: int(model.totals.count), ok: int(model.totals.ok), failed: int(model.totals.failed), errorRate: pct(model.totals.errorRate === null ? null : model.totals.errorRate * 100, 3),
    planned: int(model.totals.plannedTotal), present: int(model.totals.presentCells), cells: int(model.totals.plannedCells),
  });
  const cmpTable = (cmp: LevelComparison | null): Raw => {
    if (!cmp) return P('results.noComparison');
    const f = cmp.fixed;
    const v = cmp.virtual;
    const rel = (a: number | null, b: number | null) => (a === null || b === null || a === 0 ? '—' : `${signed(((b - a) / a) * 100, 2)} %`);
    /** latencies: no percent change on noise (both below the floor, or closer than it) */
    const relMs = (a: number | null, b: number | null) => (a !== null && b !== null && (Math.max(Math.abs(a), Math.abs(b)) < CHANGE_FLOOR_MS || Math.abs(b - a) < CHANGE_FLOOR_MS) ? '—' : rel(a, b));
    return table([s('h.metric'), modeName('fixed'), modeName('virtual'), s('h.change'), s('h.theory')], [
      [s('m.throughput'), rps(f.wholeRunRps.median), rps(v.wholeRunRps.median), rel(f.wholeRunRps.median, v.wholeRunRps.median), `${rps(f.boundRps)} / ${rps(v.boundRps)}`],
      [s('m.e2eP95'), ms(f.e2eP95Ms.median), ms(v.e2eP95Ms.median), relMs(f.e2eP95Ms.median, v.e2eP95Ms.median), `${ms(f.theoryE2eP95Ms)} / ${ms(v.theoryE2eP95Ms)}`],
      [s('m.e2eP99'), ms(f.e2eP99Ms.median), ms(v.e2eP99Ms.median), relMs(f.e2eP99Ms.median, v.e2eP99Ms.median), '—'],
      [s('m.queueP95'), ms(f.queueP95Ms.median), ms(v.queueP95Ms.median), relMs(f.queueP95Ms.median, v.queueP95Ms.median), `${msT(f.theoryQueueP95Ms)} / ${msT(v.theoryQueueP95Ms)}`],
      [s('m.execP95'), ms(f.execP95Ms.median), ms(v.execP95Ms.median), relMs(f.execP95Ms.median, v.execP95Ms.median), `≥ ${ms(L)}`],
      [s('m.errorRate'), pct(f.errorRate.median === null ? null : f.errorRate.median * 100, 3), pct(v.errorRate.median === null ? null : v.errorRate.median * 100, 3), '—', '0 %'],
    ], ['l', 'r', 'r', 'r', 'r']);
  };
  const highestTable = model.highest
    ? raw(`${s(o.repeats === 1 ? 'results.highestIntro.one' : 'results.highestIntro', { c: int(model.highest.concurrency) })}\n\n${cmpTable(model.highest).md}\n\n${headline(model.highest).md}`)
    : P('results.noComparison');
  let lowest: Raw;
  if (model.lowest && model.lowest !== model.highest && model.lowest.throughput) {
    const lo = model.lowest;
    const key = lo.concurrency <= N ? `lowest.belowPool.${lo.throughput}` : `lowest.abovePool.${lo.throughput}`;
    lowest = raw(`${cmpTable(lo).md}\n\n${s(key, { c: int(lo.concurrency), N: int(N), fx: rps(lo.fixed.wholeRunRps.median), vt: rps(lo.virtual.wholeRunRps.median), fxP95: ms(lo.fixed.e2eP95Ms.median), vtP95: ms(lo.virtual.e2eP95Ms.median), diffPct: signed(((lo.throughputRatio ?? 1) - 1) * 100, 1) })}`);
  } else lowest = P('results.noComparison');

  const pubOf = (id: string) => model.published.find((p) => p.id === id) ?? null;
  const fixedRows = model.rows.filter((r) => r.mode === 'fixed');
  const queueTrend = fixedRows.length
    ? raw(`${table([s('h.concurrency'), s('h.queueP95'), s('h.theoryQueueP95'), s('h.pctOfTheory'), s('h.execP95'), s('h.published')], fixedRows.map((r) => [
        int(r.concurrency), aggText(r.queueP95Ms, ms), msT(r.theoryQueueP95Ms),
        r.queueP95Ms.median !== null && r.theoryQueueP95Ms > 0 ? pct((r.queueP95Ms.median / r.theoryQueueP95Ms) * 100) : '—',
        aggText(r.execP95Ms, ms), ms(pubOf(`fixed.queueWaitP95Ms.${r.concurrency}`)?.published ?? null),
      ]), ['r', 'r', 'r', 'r', 'r', 'r']).md}\n\n${s('queueTrend.note', { N: int(N), L: int(L) })}`)
    : P('results.noMode', { mode: modeName('fixed') });
  const vtRows = model.rows.filter((r) => r.mode === 'virtual');
  const vtTrend = vtRows.length
    ? raw(`${table([s('h.concurrency'), s('h.throughput'), s('h.bound'), s('h.pctOfBound'), s('h.wavesBound', { n: int(o.requestsPerWorker) }), s('h.pctOfWaves'), s('h.published')], vtRows.map((r) => [
        int(r.concurrency), aggText(r.wholeRunRps, rps), rps(r.boundRps), pct(r.pctOfBound), r.wavesWholeRunRps === null ? '—' : rps(r.wavesWholeRunRps), pct(r.pctOfWavesBound),
        rps(pubOf(`virtual.throughputRps.${r.concurrency}`)?.published ?? null),
      ]), ['r', 'r', 'r', 'r', 'r', 'r', 'r']).md}\n\n${s('edge.note', { n: int(o.requestsPerWorker), frac: pct(model.rampFraction * 100) })}`)
    : P('results.noMode', { mode: modeName('virtual') });
  const allLevels = table([s('h.mode'), s('h.concurrency'), s('h.throughput'), s('h.steady'), s('h.e2eP50'), s('h.e2eP95'), s('h.e2eP99'), s('h.queueP95'), s('h.execP95'), s('h.errors')],
    model.rows.map((r) => [raw(modeName(r.mode)), int(r.concurrency), aggText(r.wholeRunRps, rps), aggText(r.steadyRps, rps), aggText(r.e2eP50Ms, ms), aggText(r.e2eP95Ms, ms), aggText(r.e2eP99Ms, ms), aggText(r.queueP95Ms, ms), aggText(r.execP95Ms, ms), aggText(r.errorCount, int)]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']);
  const unitFmt = (u: string, x: number | null): string => (x === null ? '—' : u === 'ms' ? ms(x) : u === 'req/s' ? rps(x) : u === 'ratio' ? pct(x * 100, 2) : u === 'MiB' ? `${num(x, 1)} MiB` : int(x));
  const reasonText = (r: Reason): Raw => {
    const v: Record<string, string | Raw> = {};
    for (const [k, x] of Object.entries(r.v ?? {})) v[k] = k === 'mode' ? raw(modeName(x as Mode)) : typeof x === 'number' ? int(x) : x;
    if (r.parts) v['list'] = raw(r.parts.map((q) => reasonText(q).md).join(s('reason.sep')));
    return P(`reason.${r.key}`, v);
  };
  const tolText = (p: ReportModel['published'][number]): string | Raw => {
    if (p.unit === 'events') return P('tol.pinRule', { abs: num(p.tolerance.abs, 1) });
    const parts: string[] = [];
    if (p.tolerance.rel > 0) parts.push(`±${num(p.tolerance.rel * 100, 0)} %`);
    if (p.tolerance.abs > 0 || parts.length === 0) parts.push(`±${unitFmt(p.unit, p.tolerance.abs)}`);
    return parts.join(s('tol.or'));
  };
  const diffText = (p: ReportModel['published'][number]): string => {
    if (p.diff === null) return '—';
    if (p.unit === 'ratio') return `${signed(p.diff * 100, 2)} pp`;
    const d = signed(p.diff, p.unit === 'req/s' || p.unit === 'ms' ? 2 : p.unit === 'MiB' ? 1 : 0);
    const noise = p.unit === 'ms' && p.measured !== null && (Math.max(Math.abs(p.published), Math.abs(p.measured)) < CHANGE_FLOOR_MS || Math.abs(p.diff) < CHANGE_FLOOR_MS);
    return p.diffPct === null || noise ? d : `${d} (${signed(p.diffPct, 1)} %)`;
  };
  const counts = { reproduced: 0, 'not reproduced': 0, 'not tested here': 0 } as Record<Verdict, number>;
  const counted = model.published.filter((p) => p.identity === null);
  const identities = model.published.filter((p) => p.identity !== null);
  for (const p of counted) counts[p.verdict]++;
  const figName = (p: ReportModel['published'][number]) => P(`fig.${p.id.replace(/^(fixed|virtual)\./, '').replace(/\.\d+$/, '')}`);
  const pubParts: string[] = [s('published.intro', { n: int(counted.length), rep: int(counts.reproduced), notRep: int(counts['not reproduced']), notTested: int(counts['not tested here']) }), table(
    [s('h.figure'), s('h.mode'), s('h.concurrency'), s('h.published'), s('h.measured'), s('h.diff'), s('h.tolerance'), s('h.verdict'), s('h.reason')],
    counted.map((p) => [figName(p), p.mode === 'both' ? '—' : raw(modeName(p.mode)), p.concurrency === null ? '—' : int(p.concurrency),
      unitFmt(p.unit, p.published), unitFmt(p.unit, p.measured),
      diffText(p),
      tolText(p), verdict(p.verdict), raw(p.reasons.map((q) => reasonText(q).md).join(s('reason.sep')))]),
    ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'l', 'l']).md];
  if (identities.length) {
    pubParts.push(s('published.identities', { n: int(identities.length) }));
    pubParts.push(table([s('h.figure'), s('h.mode'), s('h.concurrency'), s('h.published'), s('h.measured'), s('h.check'), s('h.why')],
      identities.map((p) => [figName(p), p.mode === 'both' ? '—' : raw(modeName(p.mode)), p.concurrency === null ? '—' : int(p.concurrency),
        unitFmt(p.unit, p.published), unitFmt(p.unit, p.measured),
        p.verdict === 'reproduced' ? P('identity.holds') : p.verdict === 'not reproduced' ? P('identity.fails') : raw(`${verdict(p.verdict).md}${p.reasons.length ? ` (${p.reasons.map((q) => reasonText(q).md).join(s('reason.sep'))})` : ''}`),
        P(`identity.${p.identity as string}`)]),
      ['l', 'l', 'r', 'r', 'r', 'l', 'l']).md);
  }
  const publishedTable = raw(pubParts.join('\n\n'));

  // ------------------------------------------------------------ analysis
  const boundTable = table([s('h.mode'), s('h.concurrency'), s('h.throughput'), s('h.bound'), s('h.pctOfBound'), s('h.wavesBound', { n: int(o.requestsPerWorker) }), s('h.pctOfWaves'), s('h.steady')],
    model.rows.map((r) => [raw(modeName(r.mode)), int(r.concurrency), rps(r.wholeRunRps.median), rps(r.boundRps), pct(r.pctOfBound), r.wavesWholeRunRps === null ? '—' : rps(r.wavesWholeRunRps), pct(r.pctOfWavesBound), rps(r.steadyRps.median)]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r']);
  const above = fixedRows.filter((r) => r.concurrency > N && r.wholeRunRps.median !== null);
  let boundSentence: Raw;
  if (above.length) {
    const vals = above.map((r) => r.wholeRunRps.median as number);
    const pcts = above.map((r) => r.pctOfBound as number);
    const wp = above.map((r) => r.pctOfWavesBound).filter((x): x is number => x !== null);
    const n1 = (x: number) => num(x, 1);
    boundSentence = P(above.length === 1 ? 'bound.fixedAbove.one' : 'bound.fixedAbove', {
      levels: above.map((r) => int(r.concurrency)).join(', '), thr: span(Math.min(...vals), Math.max(...vals), (x) => num(x, 2)), bound: rps(above[0]?.boundRps),
      pctBound: span(Math.min(...pcts), Math.max(...pcts), n1), pctWaves: wp.length ? span(Math.min(...wp), Math.max(...wp), n1) : '—',
    });
  } else boundSentence = P('bound.noFixedAbove', { N: int(N) });
  const boundAnalysis = raw(`${boundTable.md}\n\n${boundSentence.md}\n\n${s('edge.note', { n: int(o.requestsPerWorker), frac: pct(model.rampFraction * 100) })}`);
  let execAnalysis: Raw;
  if (model.highest && model.highest.execSame !== null) {
    const h = model.highest;
    const cause = carrierCause(h);
    execAnalysis = raw([P(h.execSame ? 'exec.same' : 'exec.differs', { c: int(h.concurrency), fx: ms(h.fixed.execP95Ms.median), vt: ms(h.virtual.execP95Ms.median), diffPct: signed((h.execP95RelDiff as number) * 100, 2), L: int(L), tol: latTol }).md, cause?.md ?? ''].filter((x) => x !== '').join(sentenceSep));
  } else execAnalysis = P('results.noComparison');
  const decomposition = raw(`${table([s('h.mode'), s('h.concurrency'), s('h.meanE2e'), s('h.meanQueue'), s('h.meanExec'), s('h.overhead'), s('h.queueShare'), s('h.n')],
    model.rows.map((r) => r.means
      ? [raw(modeName(r.mode)), int(r.concurrency), ms(r.means.e2eMs), ms(r.means.queueMs), ms(r.means.execMs), ms(r.means.overheadMs), pct((r.means.queueMs / r.means.e2eMs) * 100), int(r.means.n)]
      : [raw(modeName(r.mode)), int(r.concurrency), '—', '—', '—', '—', '—', '—']),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r']).md}\n\n${s('decomp.note')}`);
  const little = raw(`${table([s('h.mode'), s('h.concurrency'), s('h.meanE2e'), s('h.littleRps'), s('h.measuredRps'), s('h.ratio')],
    model.rows.map((r) => [raw(modeName(r.mode)), int(r.concurrency), ms(r.means?.e2eMs), rps(r.little?.predictedRps), r.little ? `${rps(r.little.measuredRps)} (${s(`def.${r.little.measuredDefinition}`)})` : '—', r.little ? pct(r.little.ratio * 100) : '—']),
    ['l', 'r', 'r', 'r', 'r', 'r']).md}\n\n${s('little.note')}`);

  // ------------------------------------------------------------ thread dumps
  const tdParts: string[] = [];
  if (!model.threadDumps.length) tdParts.push(s('td.none'));
  for (const d of model.threadDumps) {
    tdParts.push(`### ${esc(modeName(d.mode))} @ ${int(d.concurrency)} (${esc(d.cellId)})`);
    const otherN = d.otherVirtual.reduce((a, g) => a + g.count, 0);
    const others = d.mode === 'virtual' && otherN > 0
      ? P('td.otherVirtual', { n: int(otherN), names: d.otherVirtual.map((g) => `${g.namePrefix} × ${int(g.count)}`).join(', ') })
      : raw('');
    tdParts.push(s(d.mode === 'fixed' ? 'td.fixed' : 'td.virtual', {
      threads: int(d.dump.threadCount), t: num(d.dump.takenAtMs / 1000, 2), inPool: int(d.dump.inSocketRead.fixedPool), inVirtual: int(d.dump.inSocketRead.virtual), other: int(d.dump.inSocketRead.other),
      N: int(N), active: int(d.peakExecutorActive), queue: int(d.peakQueue), cMinusN: int(Math.max(0, d.concurrency - N)), vthreads: int(d.benchmarkThreads), c: int(d.concurrency),
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
    model.pinning.map((p) => [raw(modeName(p.mode)), int(p.concurrency), p.thresholdMs === null ? '—' : `${int(p.thresholdMs)} ms`, int(p.total), `${p.cellsWithData} / ${p.cells}`]), ['l', 'r', 'r', 'r', 'r']).md);
  if (model.pinningReasons.length) pinParts.push(table([s('h.mode'), s('h.pinReason'), s('h.events')], model.pinningReasons.map((r) => [raw(modeName(r.mode)), r.kind, int(r.count)]), ['l', 'l', 'r']).md);

  // ------------------------------------------------------------ resources
  const resParts: string[] = [];
  resParts.push(table([s('h.mode'), s('h.concurrency'), s('h.peakRss'), s('h.peakHeap'), s('h.meanCpu'), s('h.peakPlatform'), s('h.peakInFlight'), s('h.peakQueue'), s('h.samples')],
    model.rows.map((r) => [raw(modeName(r.mode)), int(r.concurrency), aggText(r.resources.peakRssBytes, mib), aggText(r.resources.peakHeapUsedBytes, mib), aggText(r.resources.meanCpuPct, (x) => pct(x, 2)), aggText(r.resources.peakPlatformThreads, int), aggText(r.resources.peakInFlight, int), aggText(r.resources.peakQueue, int), int(r.resources.samples)]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']).md);
  if (model.highest) {
    const h = model.highest;
    const fr = h.fixed.resources.peakRssBytes.median;
    const vr = h.virtual.resources.peakRssBytes.median;
    if (fr !== null && vr !== null) {
      const d = rssDeltaMiB(fr, vr) as number;
      resParts.push(s(Math.abs(d) < 1 ? 'res.rssSame' : d > 0 ? 'res.rssMore' : 'res.rssLess', { c: int(h.concurrency), fx: mib(fr), vt: mib(vr), delta: num(Math.abs(d), 1) }));
    }
    resParts.push(s('res.platform', { c: int(h.concurrency), fx: int(h.fixed.resources.peakPlatformThreads.median), vt: int(h.virtual.resources.peakPlatformThreads.median) }));
  }
  const jb = model.jvmBlocks;
  if (jb && jb.split.length > 0) {
    resParts.push(s('res.caveatSplit', { blocks: jb.blocks.join(', '), split: jb.split.map((b) => `${b.blockId} (${b.jvms})`).join(', '), cpuNote: s('res.cpuNote') }));
  } else {
    resParts.push(s('res.caveat', { blocks: (jb ? jb.blocks : Object.keys(m.sut).sort()).join(', ') || '—', cpuNote: s('res.cpuNote') }));
  }
  resParts.push(s('res.seriesNote'));

  // ------------------------------------------------------------ rate limiting, bottleneck
  // upstream concurrency: the mock's figures only when they describe the cell alone; else derived bounds (never the cumulative gauge)
  const h = model.highest;
  const rateParts: string[] = [];
  if (h && h.fixed.upstream.source === 'mock' && h.virtual.upstream.source === 'mock' && h.fixed.upstream.peak.median !== null && h.virtual.upstream.peak.median !== null) {
    const fx = h.fixed.upstream.peak.median;
    const vt = h.virtual.upstream.peak.median;
    rateParts.push(s(vt > fx ? 'rate.more' : 'rate.notMore', { c: int(h.concurrency), fx: int(fx), vt: int(vt), N: int(N) }));
  } else {
    const up = model.conclusions.find((c) => c.id === 'needLimits');
    if (h && up && up.verdict !== 'not tested here') {
      rateParts.push(s(up.verdict === 'reproduced' ? 'rate.derived.more' : 'rate.derived.notMore', {
        c: int(h.concurrency), vtLo: int(up.evidence['virtualUpstream'] as number), fxHi: int(up.evidence['fixedUpstream'] as number),
        fxLo: int(h.fixed.upstream.peak.median), N: int(N),
      }));
    } else rateParts.push(s('rate.noData'));
  }
  if (model.rows.some((r) => r.upstream.source !== 'none')) {
    const upText = (u: RowModel['upstream']): string | Raw => {
      if (u.source === 'none' || u.peak.median === null) return '—';
      if (u.source === 'mock') return aggText(u.peak, int);
      return P('upstream.range', { lo: int(u.peak.median), hi: int(u.atMost?.median ?? null) });
    };
    rateParts.push(s('rate.tableIntro'));
    rateParts.push(table([s('h.mode'), s('h.concurrency'), s('h.allowed'), s('h.upstream'), s('h.source')],
      model.rows.map((r) => [raw(modeName(r.mode)), int(r.concurrency), int(r.upstream.allowed), upText(r.upstream), P(`src.${r.upstream.source}`)]), ['l', 'r', 'r', 'r', 'l']).md);
    if (model.rows.some((r) => r.upstream.source === 'derived')) rateParts.push(s('rate.derivedMethod'));
  }
  const rateLimiting = raw(rateParts.join('\n\n'));
  const bnParts: Raw[] = [];
  const topV = vtRows[vtRows.length - 1];
  if (topV && topV.e2eP99Ms.median !== null) {
    bnParts.push(P('bn.tail', { c: int(topV.concurrency), p95: ms(topV.e2eP95Ms.median), p99: ms(topV.e2eP99Ms.median), x99: ms(topV.execP99Ms.median), pub: ms(pubOf('virtual.e2eP99Ms.500')?.published ?? null) }));
  }
  if (sat.schedulerDelay.length) {
    bnParts.push(P('bn.schedulerDelay', { cells: sat.schedulerDelay.map((x) => `${x.cellId} (${ms(x.queueP95Ms)})`).join(', '), thr: ms(sat.queueThresholdMs), carriers: int(sat.carriers) }));
  }
  if (sat.sutCpu.length) {
    bnParts.push(P('bn.sutCpu', { cells: raw(sat.sutCpu.map((x) => `${esc(x.cellId)} (${s('bn.peak', { v: pct(x.peakCpu * 100, 0) })}, ${s('unit.shareOfSamples', { v: num(x.share * 100, 0) })})`).join(', ')), thr: pct(sat.cpuThreshold * 100, 0), share: pct(sat.cpuShareThreshold * 100, 0) }));
  }
  if (sat.hostFlags.length) {
    bnParts.push(P('bn.flags', { n: int(sat.hostFlags.length), cells: [...new Set(sat.hostFlags.map((f) => f.cellId))].join(', ') }));
    // a stall of the generator inflates latencies by at most its length: say how long the longest was
    let lag: { cellId: string; flag: CellFlag } | null = null;
    for (const f of sat.hostFlags) if (f.flag.code === 'loadgen-lag' && (lag === null || f.flag.value > lag.flag.value)) lag = f;
    if (lag) bnParts.push(P('bn.lagMax', { ms: ms(lag.flag.value), cell: lag.cellId }));
  }
  if (!sat.saturated) bnParts.push(P('bn.noFlags', { thr: ms(sat.queueThresholdMs), cpu: pct(sat.cpuThreshold * 100, 0), share: pct(sat.cpuShareThreshold * 100, 0) }));
  bnParts.push(P('bn.notMeasured'));

  // ------------------------------------------------------------ conclusions
  const evText = (c: ReportModel['conclusions'][number]): Raw => {
    const e = c.evidence;
    const fmtV = (k: string, v: number | string | null): string => {
      if (v === null) return '—';
      if (typeof v === 'string') return v;
      if (c.id === 'vtCostNegligible' && k === 'published') return `${num(v, 1)} MiB`;
      if (k === 'thresholdMs') return `${int(v)} ms`;
      if (k === 'theoryMs') return msT(v);
      if (/Ms$/.test(k)) return ms(v);
      if (/Rps$/.test(k) || k === 'fixed' || k === 'virtual' || k.startsWith('published')) return c.id === 'e2eP95500' ? ms(v) : rps(v);
      if (/Pct$/.test(k)) return pct(v);
      if (/MiB$/.test(k) || k === 'published') return `${num(v, 1)} MiB`;
      return int(v);
    };
    const src = e['upstreamSource'];
    const key = typeof src === 'string' && t.phrases[`concl.${c.id}.ev.${src}`] !== undefined ? `concl.${c.id}.ev.${src}` : `concl.${c.id}.ev`;
    if (t.phrases[key] === undefined || Object.values(e).every((v) => v === null) || Object.keys(e).length === 0) return raw('—');
    const vals: Record<string, string> = {};
    for (const [k, v] of Object.entries(e)) vals[k] = fmtV(k, v);
    try { return P(key, vals); } catch { return raw('—'); }
  };
  const stmt = (id: string): Raw => {
    const v: Record<string, string> = {};
    if (id === 'throughput500' || id === 'realProvider') { v['pubFixed'] = rps(pubOf('fixed.throughputRps.500')?.published); v['pubVirtual'] = rps(pubOf('virtual.throughputRps.500')?.published); }
    if (id === 'e2eP95500') { v['pubFixed'] = ms(pubOf('fixed.e2eP95Ms.500')?.published); v['pubVirtual'] = ms(pubOf('virtual.e2eP95Ms.500')?.published); }
    return P(`concl.${id}`, v);
  };
  const conclusions = raw([
    `### ${s('concl.provenTitle')}`,
    table([s('h.statement'), s('h.verdict'), s('h.evidence')], model.conclusions.filter((c) => c.kind === 'proven').map((c) => [stmt(c.id), verdict(c.verdict), evText(c)])).md,
    `### ${s('concl.notProvenTitle')}`,
    table([s('h.statement'), s('h.verdict'), s('h.evidence')], model.conclusions.filter((c) => c.kind === 'not-proven').map((c) => [stmt(c.id), verdict(c.verdict), evText(c)])).md,
  ].join('\n\n'));

  const finalData = h && h.throughput ? raw(`${s('final.inThisRun')}${sentenceSep}${headline(h).md}`) : P('summary.noComparison');

  const followUps = table([s('h.followUp'), s('h.command')], model.followUps.map((f) => [P(`fu.${f.id}`), f.command === null ? P('fu.notRunnable') : code(f.command)]));

  // ------------------------------------------------------------ figures
  const figVals: Record<string, Raw> = {};
  for (const f of figures) figVals[`fig:${f.name}`] = raw(`![${esc(f.title)}](figures/${f.name}.svg)`);

  return fill(t.report, {
    title: s('title', { runId: model.runId }),
    fixtureNote: model.isFixture ? P('fixtureNote') : raw(s('runNote', { runId: model.runId, status: statusText(m.status) })),
    summary: join(summaryParts),
    flagsAndGaps: raw(fg.join('\n\n')),
    hypothesis: P('hypothesis', { N: int(N), queue: int(o.queueCapacity), L: int(L), Ls: num(L / 1000, 3), bound: num(N / (L / 1000), 2) }),
    boundsTable,
    environment,
    method,
    percentileDefinition: model.percentileDefinition,
    samplerIntervalMs: int(o.samplerIntervalMs),
    totals,
    highestTable,
    lowest,
    queueTrend,
    vtTrend,
    allLevels,
    publishedTable,
    boundAnalysis,
    execAnalysis,
    decomposition,
    little,
    threadDumps,
    pinning: raw(pinParts.join('\n\n')),
    resources: raw(resParts.join('\n\n')),
    rateLimiting,
    bottleneck: join(bnParts),
    conclusions,
    finalData,
    followUps,
    ...figVals,
  }, `report.${t.lang}.md`).replace(/\n{3,}/g, '\n\n');
}

export type { RowModel };
