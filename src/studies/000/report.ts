/**
 * Study 000's part of its report (Study.report, src/report/types.ts): whether a run is comparable
 * with the published figures (mock latency, pool size), how it measures the figures the engine
 * does not know (thread-dump peaks, RSS delta, pinned events, totals), the §15 conclusion rules,
 * the §17 follow-ups, and the sections of templates/000/ that speak of "the fixed pool" and
 * "virtual threads" (summary, hypothesis, §8.2–8.5, §9.1–9.2, §13–17).
 */
import type { PublishedRow, Variant } from '../../types/study.ts';
import type { CellResult, CompactRequests } from '../../types/run.ts';
import { percentiles } from '../../compute/stats/percentiles.ts';
import { aggregate } from '../../compute/stats/aggregate.ts';
import type { BaseModel, ConclusionRow, FigureCheck, FollowUp, StudyReportHook } from '../../report/types.ts';
import type { Reason, ReportModel, RowModel } from '../../report/model.ts';
import { LAT_TOL, rowOf, rssDeltaMiB, sameJdkVersion } from '../../report/model.ts';
import type { RenderContext } from '../../report/render-md.ts';
import { Raw, aggText, code, esc, int, ms, num, pct, raw, rps, table } from '../../report/format.ts';
import { maxOf } from '../../report/stats.ts';
import { setupFact } from './published.ts';
import { dispatcherLimit, SPRING_AI_CALL_TIMEOUT_S, TIMEOUT_PROPERTY } from './arms.ts';
import { FIXED, VIRTUAL, TOP, poolSize, queueCapacity, highestOf, openLoopRun } from './sections/common.ts';
import { makeKit000 } from './sections/kit.ts';
import { summary000 } from './sections/summary.ts';
import { highestTable, lowest, queueTrend, vtTrend } from './sections/results.ts';
import { boundAnalysis, execAnalysis } from './sections/analysis.ts';
import { bottleneck, rateLimiting } from './sections/limits.ts';
import { conclusionsTable, finalData } from './sections/conclusions.ts';

type Diff = Reason | null;
const present = (xs: (Reason | null)[]): Reason[] => xs.filter((x): x is Reason => x !== null);

/** How this run's setup differs from the study's (§5–6). */
function configDiffs(model: BaseModel): { host: Diff; jdk: Diff; n: Diff; repeats: Diff; latency: Diff; pool: Diff; levels: Diff } {
  const m = model.manifest;
  const o = m.options;
  const host = setupFact<string>('host');
  const jdk = setupFact<string>('jdk');
  const n = setupFact<number>('requestsPerWorker');
  const repeats = setupFact<number>('repeats');
  const L = setupFact<number>('mockLatencyMs');
  const N = setupFact<number>('fixedPoolSize');
  const levels = setupFact<string>('concurrencyLevels');
  const hostModel = host.split(',')[0] ?? host;
  return {
    host: m.host.cpuModel.includes(hostModel) ? null : { key: 'diff.host', v: { cpu: m.host.cpuModel, cores: m.host.cores, pub: host } },
    jdk: m.versions.jdk !== null && sameJdkVersion(jdk, m.versions.jdk) ? null : { key: 'diff.jdk', v: { jdk: m.versions.jdk ?? '?', pub: jdk } },
    n: o.requestsPerWorker === n ? null : { key: 'diff.n', v: { n: o.requestsPerWorker, pub: n } },
    repeats: o.repeats === repeats ? null : { key: 'diff.repeats', v: { repeats: o.repeats, pub: repeats } },
    latency: o.latencyMs === L ? null : { key: 'diff.latency', v: { L: o.latencyMs, pub: L } },
    // no fixed arm in this run: its pool size is not part of the setup
    pool: !model.variantSpecs.has(FIXED) || poolSize(model) === N ? null : { key: 'diff.pool', v: { N: poolSize(model), pub: N } },
    levels: o.levels.join('/') === levels ? null : { key: 'diff.levels', v: { levels: o.levels.join('/'), pub: levels } },
  };
}

/**
 * absolute tolerance floors of the figures (the relative band is PublishedRow.tolerance); the engine
 * caps each at ABS_FLOOR_MAX_SHARE of the published value (src/report/model.ts figureTolerance)
 */
const ABS_TOLERANCE: Readonly<Record<string, number>> = { e2eP95Ms: LAT_TOL.abs, e2eP99Ms: 50, queueWaitP95Ms: 10, executionP95Ms: LAT_TOL.abs, errorRate: 0.001 };

function figure(p: PublishedRow, model: BaseModel, runCells: readonly CellResult[]): FigureCheck {
  const d = configDiffs(model);
  const tolerance = { rel: p.tolerance ?? 0, abs: ABS_TOLERANCE[p.metric] ?? 0 };
  const hostSensitive = p.unit === 'ms' || p.unit === 'req/s' || p.unit === 'MiB';
  /** expected reasons of a miss, then host and JDK differences for host-sensitive units */
  const expected = (exp: (Reason | null)[]): Reason[] => {
    const e = present(exp);
    return [...e, ...present(hostSensitive ? [d.host, d.jdk] : []).filter((x) => !e.some((y) => y.key === x.key))];
  };
  const cells = (variant: string | null, c: number | null): CellResult[] => (variant === null || c === null ? [] : runCells.filter((x) => x.variant === variant && x.concurrency === c));
  const peak = (f: (cell: CellResult) => number | null) => () => maxOf(cells(p.variant, p.level).map(f));
  const sampled: Reason = { key: 'sampled', v: { ms: model.manifest.options.samplerIntervalMs } };
  switch (p.metric) {
    case 'throughputRps':
    case 'e2eP95Ms':
    case 'queueWaitP95Ms': return { tolerance, expected: expected([d.n]) };
    case 'e2eP99Ms': return { tolerance, expected: expected([{ key: 'p99Mock' }]) };
    case 'executionP95Ms': return { tolerance, expected: expected([{ key: 'execMock' }]) };
    case 'errorRate': return { tolerance, expected: expected([]) };
    case 'threadDump.poolThreadsInSocketRead': return { tolerance, measured: peak((x) => x.threadDump?.inSocketRead.poolThreads ?? null), expected: expected([]) };
    case 'threadDump.activeThreadsPeak': return { tolerance, measured: peak((x) => maxOf(x.samples.map((s) => s.executorActive))), expected: expected([]) };
    case 'threadDump.activeVirtualTasksPeak': return { tolerance, measured: peak((x) => maxOf(x.samples.map((s) => s.executorActive))), expected: expected([sampled]) };
    case 'threadDump.queuePeak': return { tolerance, measured: peak((x) => maxOf(x.samples.map((s) => s.queueSize))), expected: expected([sampled]) };
    case 'rssDeltaVsFixedAt500MiB': return {
      tolerance,
      measured: () => rssDeltaMiB(rowOf(model, FIXED, TOP)?.resources.peakRssBytes.median ?? null, rowOf(model, VIRTUAL, TOP)?.resources.peakRssBytes.median ?? null),
      expected: expected([{ key: 'rssNotPerThread' }, d.host, d.jdk]),
    };
    // the same rule as the §15 conclusion: at most 1 pinned event per 100 virtual-thread requests
    case 'pinnedEvents': return {
      tolerance: { rel: 0, abs: model.pinRule.allowed }, measured: () => model.pinRule.events, expected: expected([]),
      always: [{ key: 'pinnedMethod', v: { thr: model.pinRule.thresholdMs ?? model.manifest.options.pinnedThresholdMs } }],
    };
    case 'setup.totalRequests':
    case 'setup.failedRequests': {
      // totals: only comparable when the plan is the study's; incomplete when planned cells are missing
      const planDiffs = present([d.n, d.repeats, d.levels]);
      const missing = model.manifest.cellOrder.filter((id) => !runCells.some((x) => x.cellId === id)).length;
      const gate: Reason[] = planDiffs.length ? [{ key: 'planDiffers', parts: planDiffs }] : missing > 0 ? [{ key: 'cellsMissing', v: { n: missing, of: model.totals.plannedCells } }] : [];
      return { tolerance, ownGate: gate, measured: () => (p.metric === 'setup.totalRequests' ? model.totals.count : model.totals.failed) };
    }
    default: return { tolerance, expected: expected([]) };
  }
}


// ---------------------------------------------------------------- conclusions (§15) and follow-ups (§17)

/**
 * The §15 claims that do not depend on how load is applied, so an open-loop run (levels are
 * arrival rates λ) may test them: `execEqual` (execution P95 is the task's own start → finish time
 * from `Server-Timing`, which excludes the queue and so does not depend on the load model),
 * `noPinning` (JFR pinned events per virtual-thread request, counted per cell whatever the arrivals)
 * and `needLimits` (a pool of N threads lets at most N calls reach the upstream at once, virtual
 * threads pass every request on; both hold for arrivals at a rate as for workers). Every other
 * claim of the study is about c closed-loop workers (queues beyond the pool size c > N, throughput
 * and E2E at c workers) and is "not testable here" in an open-loop run.
 */
const LOAD_MODEL_INDEPENDENT: ReadonlySet<string> = new Set(['execEqual', 'noPinning', 'needLimits']);

function conclusions(model: BaseModel): ConclusionRow[] {
  const rows = closedLoopConclusions(model);
  if (!openLoopRun(model)) return rows;
  // an open-loop run: a closed-loop claim is not tested by arrivals at a rate; no closed-loop theory in its evidence
  return rows.map((r) => (r.kind !== 'proven' || LOAD_MODEL_INDEPENDENT.has(r.id) ? r : { ...r, verdict: 'not testable here', evidence: { loadModel: 'open-loop' } }));
}

function closedLoopConclusions(model: BaseModel): ConclusionRow[] {
  const N = poolSize(model);
  const fixedAbove = model.rows.filter((r) => r.variant === FIXED && r.concurrency > N);
  const topFixed = fixedAbove[fixedAbove.length - 1] ?? null;
  const h = highestOf(model);
  const rows: ConclusionRow[] = [];
  const nt = (id: string, kind: ConclusionRow['kind'], evidence: ConclusionRow['evidence'] = {}): ConclusionRow => ({ id, kind, verdict: 'not testable here', evidence });
  // 1 fixed pool queues beyond its size
  if (topFixed && topFixed.queueP95Ms.median !== null) {
    rows.push({ id: 'fixedQueues', kind: 'proven', verdict: topFixed.queueP95Ms.median >= 0.5 * model.latencyMs ? 'reproduced' : 'not reproduced',
      evidence: { concurrency: topFixed.concurrency, queueP95Ms: topFixed.queueP95Ms.median, theoryMs: topFixed.theoryQueueP95Ms } });
  } else rows.push(nt('fixedQueues', 'proven', { reason: 'no fixed level above the pool size' }));
  // 2 fixed E2E mostly queue wait
  if (topFixed?.means) {
    const share = topFixed.means.queueMs / topFixed.means.e2eMs;
    rows.push({ id: 'fixedE2eIsQueue', kind: 'proven', verdict: share > 0.5 ? 'reproduced' : 'not reproduced', evidence: { concurrency: topFixed.concurrency, queueSharePct: share * 100 } });
  } else rows.push(nt('fixedE2eIsQueue', 'proven'));
  // 3 VT cuts queue wait
  if (h && h.concurrency > N && h.baseline.queueP95Ms.median !== null && h.candidate.queueP95Ms.median !== null) {
    rows.push({ id: 'vtCutsQueue', kind: 'proven', verdict: h.queueP95 === 'wins' ? 'reproduced' : 'not reproduced', evidence: { concurrency: h.concurrency, fixedMs: h.baseline.queueP95Ms.median, virtualMs: h.candidate.queueP95Ms.median } });
  } else rows.push(nt('vtCutsQueue', 'proven'));
  // 4 VT raises capacity
  if (h && h.concurrency > N && h.throughput) {
    rows.push({ id: 'vtRaisesCapacity', kind: 'proven', verdict: h.throughput === 'wins' ? 'reproduced' : 'not reproduced', evidence: { concurrency: h.concurrency, fixedRps: h.baseline.wholeRunRps.median, virtualRps: h.candidate.wholeRunRps.median } });
  } else rows.push(nt('vtRaisesCapacity', 'proven'));
  // 5, 6 the headline figures at 500
  const pub = (id: string) => model.published.find((p) => p.id === id);
  for (const [cid, a, b] of [['throughput500', `${FIXED}.throughputRps.${TOP}`, `${VIRTUAL}.throughputRps.${TOP}`], ['e2eP95500', `${FIXED}.e2eP95Ms.${TOP}`, `${VIRTUAL}.e2eP95Ms.${TOP}`]] as const) {
    const pa = pub(a);
    const pb = pub(b);
    if (!pa || !pb || pa.verdict === 'not testable here' || pb.verdict === 'not testable here') rows.push(nt(cid, 'proven', { fixed: pa?.measured ?? null, virtual: pb?.measured ?? null }));
    else rows.push({ id: cid, kind: 'proven', verdict: pa.verdict === 'reproduced' && pb.verdict === 'reproduced' ? 'reproduced' : 'not reproduced', evidence: { fixed: pa.measured, virtual: pb.measured, publishedFixed: pa.published, publishedVirtual: pb.published } });
  }
  // 7 execution P95 equal
  if (h && h.execSame !== null) {
    rows.push({ id: 'execEqual', kind: 'proven', verdict: h.execSame ? 'reproduced' : 'not reproduced', evidence: { concurrency: h.concurrency, fixedMs: h.baseline.execP95Ms.median, virtualMs: h.candidate.execP95Ms.median } });
  } else rows.push(nt('execEqual', 'proven'));
  // 8 no notable pinning: the same rule as the §8.7 row (at most 1 event per 100 virtual-thread requests)
  const pr = model.pinRule;
  if (pr.notable !== null) {
    rows.push({ id: 'noPinning', kind: 'proven', verdict: pr.notable ? 'not reproduced' : 'reproduced', evidence: { events: pr.events, requests: pr.requests, thresholdMs: pr.thresholdMs } });
  } else rows.push(nt('noPinning', 'proven'));
  // 9 VT no substitute for limits: shown by the absence of back-pressure towards the upstream. Measured
  // at the mock only with per-cell statistics; otherwise derived from the per-request timings, where
  // "more" must hold between the virtual lower bound and the fixed upper bound.
  const up = h ? { f: h.baseline.upstream, v: h.candidate.upstream } : null;
  const fixedCeil = up === null ? null : up.f.source === 'mock' ? up.f.peak.median : up.f.source === 'derived' ? (up.f.atMost?.median ?? null) : null;
  const vtFloor = up === null || up.v.source === 'none' ? null : up.v.peak.median;
  if (h && up && up.f.source !== 'none' && up.v.source !== 'none' && fixedCeil !== null && vtFloor !== null) {
    const source = up.f.source === 'mock' && up.v.source === 'mock' ? 'mock' : 'derived';
    // a recommendation (§13), not a measurement: no run can test it. The evidence says what this run
    // shows about back-pressure towards the upstream (§13's rateLimiting sentence reads it)
    rows.push({ id: 'needLimits', kind: 'proven', verdict: 'not testable here',
      evidence: { concurrency: h.concurrency, fixedUpstream: fixedCeil, virtualUpstream: vtFloor, upstreamSource: source } });
  } else rows.push(nt('needLimits', 'proven'));
  // not proven by the study, and not by this run either
  rows.push(nt('realProvider', 'not-proven'));
  rows.push(nt('pinningEverywhere', 'not-proven'));
  rows.push(nt('otherDeps', 'not-proven'));
  rows.push(nt('cpuBound', 'not-proven'));
  const jdk = model.manifest.versions.jdk;
  // running on JDK 21 is a setup identity, not evidence that the results equal a JDK 21 run: that
  // needs a second run to compare with, so this run never marks it reproduced
  rows.push(nt('jdk21', 'not-proven', { jdk: jdk ?? null }));
  const rssDelta = pub(`${VIRTUAL}.rssDeltaVsFixedAt500MiB`);
  const hr = h ? rssDeltaMiB(h.baseline.resources.peakRssBytes.median, h.candidate.resources.peakRssBytes.median) : null;
  rows.push(nt('vtCostNegligible', 'not-proven', { concurrency: h?.concurrency ?? null, rssDeltaMiB: hr, published: rssDelta?.published ?? null }));
  return rows;
}

/** §17: the follow-up experiments the study proposes, with the command that runs each (null = not runnable yet) */
export const FOLLOW_UPS: readonly FollowUp[] = [
  // issue 16: the follow-ups this tool runs are profiles of this study (src/studies/000/index.ts FOLLOW_UP_PROFILES)
  { id: 'jdk21', command: 'npx zx run.mjs --profile jdk21' },
  { id: 'fixed100', command: 'npx zx run.mjs --profile pool-sweep' },
  { id: 'fixed500', command: 'npx zx run.mjs --profile pool-sweep' },
  { id: 'realProvider', command: null },
  { id: 'latency100', command: 'npx zx run.mjs --profile latency-100' },
  { id: 'latency500', command: 'npx zx run.mjs --profile latency-500' },
  { id: 'latency3000', command: 'npx zx run.mjs --profile latency-3000' },
  { id: 'latency10000', command: 'npx zx run.mjs --profile latency-10000' },
  { id: 'connPool', command: null },
  { id: 'bulkhead', command: 'npx zx run.mjs --profile bulkhead' },
  { id: 'faults', command: 'npx zx run.mjs --profile faults' },
  { id: 'resources', command: 'npx zx run.mjs --variants fixed,virtual --levels 50,200,500' },
  { id: 'pinningReal', command: 'npx zx run.mjs --pinned-threshold-ms 0' },
  { id: 'cpuBound', command: null },
];

// ---------------------------------------------------------------- §17 follow-up runs (issue 16)

/**
 * Which §17 follow-up a profile runs (src/studies/000/index.ts FOLLOW_UP_PROFILES), or null for the
 * §5 profiles: `pool-sweep` (pool sizes), `latency` (one mock latency of the sweep).
 */
export function followUpKind(profile: string): 'pool-sweep' | 'latency' | 'bulkhead' | 'faults' | 'streaming' | 'followups' | null {
  if (profile === 'followups') return 'followups';
  if (profile === 'faults') return 'faults';
  if (profile === 'streaming' || profile === 'streaming-quick') return 'streaming';
  if (profile === 'pool-sweep' || profile === 'pool-sweep-quick') return 'pool-sweep';
  if (profile === 'bulkhead' || profile === 'bulkhead-quick') return 'bulkhead';
  if (/^latency-\d+$/.test(profile)) return 'latency';
  return null;
}

/**
 * measured ÷ bound of one cell row, %: whole-run throughput ÷ (min(c, N)/L or c/L), and E2E P95 ÷ its
 * theory (L + the lock-step queue wait (⌈c/N⌉ − 1) × L; L for virtual threads). Null when not computable
 * (no theory for an open-loop cell).
 */
export function followUpRatios(r: Pick<RowModel, 'wholeRunRps' | 'boundRps' | 'e2eP95Ms' | 'theoryE2eP95Ms'>): { throughputPct: number | null; e2eP95Pct: number | null } {
  const x = r.wholeRunRps.median;
  const p95 = r.e2eP95Ms.median;
  return {
    throughputPct: x !== null && r.boundRps > 0 ? (x / r.boundRps) * 100 : null,
    e2eP95Pct: p95 !== null && r.theoryE2eP95Ms !== null && r.theoryE2eP95Ms > 0 ? (p95 / r.theoryE2eP95Ms) * 100 : null,
  };
}

/**
 * The host flags (src/compute/analysis/flags.ts: load generator lag, late sends, host CPU, scheduler delay…) of a
 * variant's cells at level c, distinct codes joined, or '—': where the host, not the SUT, may have set the
 * limit of that row.
 */
function hostFlagText(model: Pick<ReportModel, 'saturation' | 'cells'>, variant: string, c: number): string {
  const ids = new Set(model.cells.filter((x) => x.variant === variant && x.concurrency === c).map((x) => x.cellId));
  const codes = [...new Set(model.saturation.hostFlags.filter((f) => ids.has(f.cellId)).map((f) => f.flag.code))];
  return codes.length ? codes.map((x) => code(x).md).join(', ') : '—';
}

/** K of a variant behind a bulkhead (`bench.bulkhead.permits` among its SUT properties), or null. */
export function bulkheadPermits(v: Pick<Variant, 'sutProperties'> | undefined): number | null {
  const k = Number(v?.sutProperties?.['bench.bulkhead.permits'] ?? NaN);
  return Number.isInteger(k) && k > 0 ? k : null;
}

/** The optional per-request columns of a requests file (Server-Timing entries beyond queue and exec). */
type OptionalColumn = 'permitMs' | 'ttftMs' | 'gapMeanMs' | 'gapMaxMs';

/**
 * A percentile (R type 7, src/compute/stats/percentiles.ts) of one optional column over a cell's successful
 * requests, ms; null when the cell has no such column or no value in it.
 */
export function columnPercentileMs(req: CompactRequests | undefined, column: OptionalColumn, p: 'p50' | 'p95' | 'p99'): number | null {
  const col = req?.[column];
  if (!req || !col) return null;
  const xs: number[] = [];
  for (let i = 0; i < col.length; i++) {
    const x = col[i];
    if (x !== null && x !== undefined && req.error[i] === '') xs.push(x);
  }
  return percentiles(xs)?.[p] ?? null;
}

/**
 * P95 of the permit wait (Server-Timing `permit`, ms) over one cell's successful requests, or null
 * when the cell has no permit column (no bulkhead, or a run before it existed).
 */
export function permitP95Ms(req: CompactRequests | undefined): number | null {
  return columnPercentileMs(req, 'permitMs', 'p95');
}

/**
 * The bulkhead section: per level, fixed-32, virtual and virtual behind Semaphore(K) against their
 * bounds (the bulkhead's is min(c, K)/L: K calls in the upstream at once), where each one's wait
 * happened (executor queue P95, permit P95) and the mock's peak in flight against K.
 */
function bulkheadRun(model: ReportModel, ctx: RenderContext): string[] {
  const { s } = ctx;
  const L = model.latencyMs;
  const bulk = [...model.variantSpecs.values()].find((v) => bulkheadPermits(v) !== null);
  const K = bulkheadPermits(bulk);
  if (!bulk || K === null) return [s('fu.bh.none')];
  const permitAgg = (r: RowModel) => aggregate(model.cells.filter((c) => c.variant === r.variant && c.concurrency === r.concurrency).map((c) => permitP95Ms(model.requests.get(c.cellId))));
  const boundOf = (r: RowModel) => (r.variant === bulk.id ? Math.min(r.concurrency, K) / (L / 1000) : r.boundRps);
  const rows = [...model.rows].sort((a, b) => a.concurrency - b.concurrency);
  const tbl = table(
    [s('h.variant'), s('h.concurrency'), s('h.throughput'), s('h.bound'), s('h.fu.throughputRatio'), s('h.queueP95'), s('h.fu.permitP95'), s('h.fu.mockPeak'), s('h.fu.hostFlags')],
    rows.map((r) => {
      const b = boundOf(r);
      return [esc(ctx.variantName(r.variant)), int(r.concurrency), aggText(r.wholeRunRps, rps), rps(b), pct(r.wholeRunRps.median === null ? null : (r.wholeRunRps.median / b) * 100),
        aggText(r.queueP95Ms, ms), r.variant === bulk.id ? aggText(permitAgg(r), ms) : '—', r.upstream.source === 'mock' ? aggText(r.upstream.peak, int) : '—', raw(hostFlagText(model, r.variant, r.concurrency))];
    }),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
  );
  const bRows = rows.filter((r) => r.variant === bulk.id);
  const peaks = bRows.map((r) => (r.upstream.source === 'mock' ? r.upstream.peak.max : null)).filter((x): x is number => x !== null);
  const peakLine = peaks.length === 0 ? s('fu.bh.peak.none') : s(Math.max(...peaks) <= K ? 'fu.bh.peak.holds' : 'fu.bh.peak.exceeds', { K: int(K), peak: int(Math.max(...peaks)), n: int(peaks.length) });
  return [s('fu.bh.intro', { K: int(K), L: int(L), bound: rps(K / (L / 1000)) }), tbl.md, peakLine];
}

/**
 * Calls that reached the mock in one cell: answered (`served`: successes and injected error answers)
 * plus the calls it reset or held without an answer (mock/src/server.ts); null without per-cell mock
 * statistics.
 */
export function mockCalls(c: Pick<CellResult, 'mock'>): number | null {
  const a = c.mock.after;
  if (!a || c.mock.scope !== 'cell') return null;
  return a.served + (a.faults['reset'] ?? 0) + (a.faults['hang'] ?? 0);
}

/**
 * A variant's client timeout, s: its `bench.okhttp.read-timeout` (`<n>ms`, `<n>s`, `<n>m` or bare ms, as
 * Spring Boot reads a Duration; 0 = none set), else Spring AI 2.0.1's per-call 60 s.
 * @throws Error naming the property when the value is none of those forms
 */
export function clientTimeoutS(v: Pick<Variant, 'sutProperties'> | undefined): number {
  const raw = v?.sutProperties?.[TIMEOUT_PROPERTY];
  if (raw === undefined) return SPRING_AI_CALL_TIMEOUT_S;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(raw.trim());
  if (!m) throw new Error(`${TIMEOUT_PROPERTY}=${raw}: expected <n>ms, <n>s or <n>m`);
  const n = Number(m[1]);
  const s = m[2] === 's' ? n : m[2] === 'm' ? n * 60 : n / 1000;
  return s > 0 ? s : SPRING_AI_CALL_TIMEOUT_S;
}

/**
 * The throughput bound of c closed-loop workers when faults end some calls early or late, req/s, for a
 * variant without retries: c / E[T], with E[T] = (1 − e − h) × L + h × timeout (an error answer comes at
 * once, a reset after L as an answer does, a hung call ends at the client timeout; mock/src/server.ts). With
 * retries the back-off between attempts is not modelled: null.
 */
export function faultBoundRps(c: number, latencyMs: number, f: { errorRate: number; hangRate?: number }, timeoutS: number, retries: number): number | null {
  if (retries > 0) return null;
  const h = f.hangRate ?? 0;
  const expectedS = (1 - f.errorRate - h) * (latencyMs / 1000) + h * timeoutS;
  return expectedS > 0 ? c / expectedS : null;
}

/** Failed requests of a cell by the SUT's status (502 upstream failure, 504 upstream timeout, …), from its requests file. */
export function errorsByStatus(req: CompactRequests | undefined): Map<number, number> {
  const out = new Map<number, number>();
  if (!req) return out;
  for (let i = 0; i < req.status.length; i++) {
    const st = req.status[i] as number;
    if (req.error[i] === 'http') out.set(st, (out.get(st) ?? 0) + 1);
  }
  return new Map([...out].sort((a, b) => a[0] - b[0]));
}

/**
 * The faults section: per cell, client-side requests and their errors by class (a non-2xx answer of the
 * SUT split by its status: 502 an upstream failure, 504 an upstream timeout), the error rate, the
 * throughput against the bound c/L and against the bound with faults (c / E[T], no retries), and retry
 * amplification = calls that reached the mock ÷ requests the clients sent (1 without retries; above 1,
 * each retry is one more upstream call).
 */
function faultsRun(model: ReportModel, ctx: RenderContext): string[] {
  const { s } = ctx;
  const f = model.manifest.options.mockFaults;
  if (!f) return [s('fu.faults.none')];
  const retriesOf = (variant: string) => Number(model.variantSpecs.get(variant)?.sutProperties?.['spring.ai.openai.max-retries'] ?? 0);
  const cells = [...model.cells].sort((a, b) => a.variant.localeCompare(b.variant) || a.concurrency - b.concurrency);
  const tbl = table(
    [s('h.variant'), s('h.concurrency'), s('h.fu.sent'), s('h.fu.errorsByClass'), s('h.fu.errorRate'), s('h.throughput'), s('h.bound'), s('h.fu.throughputRatio'), s('h.steady'), s('h.fu.faultBound'), s('h.fu.steadyFaultRatio'), s('h.fu.mockCalls'), s('h.fu.amplification'), s('h.fu.hostFlags')],
    cells.map((c) => {
      const statuses = errorsByStatus(model.requests.get(c.cellId));
      const split = statuses.size ? ` (${[...statuses].map(([st, n]) => `${int(st)}: ${int(n)}`).join(', ')})` : '';
      const byClass = Object.entries(c.load.errors).filter(([, n]) => n > 0).map(([k, n]) => `${esc(k)} ${int(n)}${k === 'http' ? split : ''}`).join(', ') || '0';
      const up = mockCalls(c);
      const bound = c.concurrency / (c.latencyMs / 1000);
      const x = c.load.wholeRunThroughputRps;
      const fb = faultBoundRps(c.concurrency, c.latencyMs, f, clientTimeoutS(model.variantSpecs.get(c.variant)), retriesOf(c.variant));
      return [esc(ctx.variantName(c.variant)), int(c.concurrency), int(c.load.count), byClass, pct(c.load.count > 0 ? ((c.load.count - c.load.ok) / c.load.count) * 100 : null),
        rps(x), rps(bound), pct(x === null ? null : (x / bound) * 100), rps(c.load.steadyStateThroughputRps), fb === null ? '—' : rps(fb),
        fb === null || c.load.steadyStateThroughputRps === null ? '—' : pct((c.load.steadyStateThroughputRps / fb) * 100), up === null ? '—' : int(up), up === null || c.load.count === 0 ? '—' : num(up / c.load.count, 3),
        raw(hostFlagText(model, c.variant, c.concurrency))];
    }),
    ['l', 'r', 'r', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
  );
  // calls the mock saw beyond what the clients sent, in a variant without Spring AI retries: a layer below retried them
  const hidden = cells.filter((c) => {
    const up = mockCalls(c);
    return retriesOf(c.variant) === 0 && up !== null && up > c.load.count;
  }).map((c) => s('fu.faults.hiddenRetry', { variant: esc(ctx.variantName(c.variant)), c: int(c.concurrency), up: int(mockCalls(c)), sent: int(c.load.count), resets: int(c.mock.after?.faults['reset'] ?? 0), clientResets: int(c.load.errors.reset) }));
  const hangs = (f.hangRate ?? 0) > 0;
  const timeouts = [...new Set(cells.map((c) => clientTimeoutS(model.variantSpecs.get(c.variant))))].sort((a, b) => a - b);
  const intro = s(hangs ? 'fu.faults.intro.hang' : 'fu.faults.intro', { error: pct(f.errorRate * 100, 0), status: int(f.errorStatus), hang: pct((f.hangRate ?? 0) * 100, 0), reset: pct(f.resetRate * 100, 0), seed: int(f.seed), L: int(model.latencyMs), timeouts: timeouts.map((t) => num(t, t < 1 ? 3 : 0)).join(', ') });
  // hung calls: at the mock, and what the clients saw as 504 (the SUT's timeout) per cell
  const hungLines = hangs
    ? cells.map((c) => s('fu.faults.hung', { variant: esc(ctx.variantName(c.variant)), c: int(c.concurrency), hung: int(c.mock.after?.faults['hang'] ?? null), t504: int(errorsByStatus(model.requests.get(c.cellId)).get(504) ?? 0) }))
    : [];
  return [intro, tbl.md, ...(hungLines.length ? [hungLines.join(' ')] : []), ...(hidden.length ? [hidden.join(' ') + ' ' + s('fu.faults.hiddenWhy')] : []), s(hangs ? 'fu.faults.note.hang' : 'fu.faults.note')];
}

/**
 * The throughput bound of c closed-loop streams through OkHttp's dispatcher, req/s: c/T, and D/H when the
 * dispatcher holds each call for H ms (OkHttp counts an async call as running until its response headers
 * arrive: H = L when the mock sends them with the first token, about 0 when it sends them at once, so no
 * cap). T: one stream's duration, ms.
 */
export function streamBoundRps(c: number, D: number, T: number, L: number, headers: 'arrival' | 'first-token'): number {
  const open = c / (T / 1000);
  return headers === 'first-token' ? Math.min(open, D / (L / 1000)) : open;
}

/**
 * The streaming section: per level, each variant's throughput against c/T and against the dispatcher's
 * bound (streamBoundRps; D: the OkHttp dispatcher's limit on calls in flight, 64 as Spring AI 2.0 builds
 * it), the time to first token (P50, P95, and P95 − L: the wait before the mock's first token), the
 * inter-token gaps, the executor's queue wait and the mock's peak of streams in flight; then, per level
 * above D, the capped variant's TTFT against the lifted one's (the dispatcher's hidden queue).
 */
function streamingRun(model: ReportModel, ctx: RenderContext): string[] {
  const { s } = ctx;
  const L = model.manifest.options.latencyMs;
  const headers = model.manifest.options.mockStreamHeaders ?? 'arrival';
  const rows = [...model.rows].sort((a, b) => a.concurrency - b.concurrency || a.variant.localeCompare(b.variant));
  if (!rows.some((r) => model.cells.some((c) => c.variant === r.variant && model.requests.get(c.cellId)?.ttftMs))) return [s('fu.st.none')];
  const cellsOf = (r: RowModel) => model.cells.filter((c) => c.variant === r.variant && c.concurrency === r.concurrency);
  const col = (r: RowModel, column: OptionalColumn, p: 'p50' | 'p95') => aggregate(cellsOf(r).map((c) => columnPercentileMs(model.requests.get(c.cellId), column, p)));
  const info = rows.map((r) => {
    const D = dispatcherLimit(model.variantSpecs.get(r.variant));
    const T = cellsOf(r)[0]?.latencyMs ?? model.latencyMs;
    const ttftP95 = col(r, 'ttftMs', 'p95');
    return { r, D, T, bound: streamBoundRps(r.concurrency, D, T, L, headers), ttftP95 };
  });
  const tbl = table(
    [s('h.variant'), s('h.concurrency'), s('h.fu.dispatcher'), s('h.throughput'), s('h.bound'), s('h.fu.streamBound'), s('h.fu.throughputRatio'), s('h.fu.ttftP50'), s('h.fu.ttftP95'), s('h.fu.ttftWait'), s('h.fu.gapMean'), s('h.fu.gapMaxP95'), s('h.queueP95'), s('h.fu.mockPeak'), s('h.fu.hostFlags')],
    info.map(({ r, D, bound, ttftP95 }) => [
      esc(ctx.variantName(r.variant)), int(r.concurrency), int(D), aggText(r.wholeRunRps, rps), rps(r.boundRps), rps(bound), pct(r.wholeRunRps.median === null ? null : (r.wholeRunRps.median / bound) * 100),
      aggText(col(r, 'ttftMs', 'p50'), ms), aggText(ttftP95, ms), ms(ttftP95.median === null ? null : ttftP95.median - L), aggText(col(r, 'gapMeanMs', 'p50'), ms), aggText(col(r, 'gapMaxMs', 'p95'), ms),
      aggText(r.queueP95Ms, ms), r.upstream.source === 'mock' ? aggText(r.upstream.peak, int) : '—', raw(hostFlagText(model, r.variant, r.concurrency)),
    ]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
  );
  // the hidden queue: at each level above the smallest D, the capped variant's TTFT P95 beside the lifted one's
  const compare: string[] = [];
  for (const c of [...new Set(info.map((x) => x.r.concurrency))]) {
    const at = info.filter((x) => x.r.concurrency === c).sort((a, b) => a.D - b.D);
    const capped = at[0];
    const lifted = at[at.length - 1];
    if (!capped || !lifted || capped === lifted || c <= capped.D || c > lifted.D || capped.ttftP95.median === null || lifted.ttftP95.median === null) continue;
    compare.push(s('fu.st.compare', {
      c: int(c), D: int(capped.D), capped: esc(ctx.variantName(capped.r.variant)), lifted: esc(ctx.variantName(lifted.r.variant)),
      cp95: ms(capped.ttftP95.median), lp95: ms(lifted.ttftP95.median), diff: ms(capped.ttftP95.median - lifted.ttftP95.median),
      cpeak: capped.r.upstream.source === 'mock' ? int(capped.r.upstream.peak.median) : '—', lpeak: lifted.r.upstream.source === 'mock' ? int(lifted.r.upstream.peak.median) : '—',
      cq: ms(capped.r.queueP95Ms.median),
    }));
  }
  const T0 = info[0]?.T ?? model.latencyMs;
  return [
    s('fu.st.intro', { L: int(L), T: int(T0), gaps: int(Math.round(T0 - L)) }),
    s(`fu.st.headers.${headers}`, { L: int(L) }),
    tbl.md,
    compare.length ? compare.join(' ') : s('fu.st.noneAbove'),
    s('fu.st.note'),
  ];
}

/**
 * The section a follow-up run adds under §17: what changed against §5, and per cell the measured
 * throughput and E2E P95 against the bounds (the formulas hold for every L and N, so the ratio is
 * the finding). Empty for the §5 profiles, so their reports stay as they were.
 */
function followUpRun(model: ReportModel, ctx: RenderContext): string {
  const kind = followUpKind(model.manifest.options.profile);
  if (kind === null) return '';
  const { s } = ctx;
  if (kind === 'bulkhead') return [s('fu.run.heading'), ...bulkheadRun(model, ctx)].join('\n\n');
  if (kind === 'faults') return [s('fu.run.heading'), ...faultsRun(model, ctx)].join('\n\n');
  if (kind === 'streaming') return [s('fu.run.heading'), ...streamingRun(model, ctx)].join('\n\n');
  if (kind === 'followups') {
    // the pool sizes over the executor variants, then the bulkhead beside its two arms
    const bulk = new Set([...model.variantSpecs.values()].filter((v) => bulkheadPermits(v) !== null).map((v) => v.id));
    const pools: ReportModel = { ...model, rows: model.rows.filter((r) => !bulk.has(r.variant)) };
    const arms: ReportModel = { ...model, rows: model.rows.filter((r) => r.variant === FIXED || r.variant === VIRTUAL || bulk.has(r.variant)) };
    return [s('fu.run.followups'), sweepRun(pools, ctx, 'pool-sweep', s('fu.run.poolHeading')), s('fu.run.bulkheadHeading'), ...bulkheadRun(arms, ctx), s('fu.run.latencyElsewhere')].join('\n\n');
  }
  return sweepRun(model, ctx, kind, s('fu.run.heading'));
}

/** The pool-size or latency follow-up: every cell's throughput and E2E P95 against their bounds. */
function sweepRun(model: ReportModel, ctx: RenderContext, kind: 'pool-sweep' | 'latency', heading: string): string {
  const { s } = ctx;
  const L = model.latencyMs;
  const threadsOf = (r: RowModel) => (r.executor.kind === 'platform-pool' ? int(r.executor.threads) : '—');
  const rows = model.rows.map((r) => ({ r, q: followUpRatios(r) }));
  const poolSizes = [...new Set(model.variantSpecs.values())].flatMap((v) => (v.executor.kind === 'platform-pool' ? [v.executor.threads] : [])).sort((a, b) => a - b);
  const tp = rows.map((x) => x.q.throughputPct).filter((x): x is number => x !== null);
  const tbl = table(
    [s('h.variant'), s('h.fu.threads'), s('h.concurrency'), s('h.throughput'), s('h.bound'), s('h.fu.throughputRatio'), s('h.e2eP95'), s('h.fu.theoryE2eP95'), s('h.fu.e2eRatio'), s('h.fu.hostFlags')],
    rows.map(({ r, q }) => [esc(ctx.variantName(r.variant)), threadsOf(r), int(r.concurrency), aggText(r.wholeRunRps, rps), rps(r.boundRps), pct(q.throughputPct), aggText(r.e2eP95Ms, ms), ms(r.theoryE2eP95Ms), pct(q.e2eP95Pct), raw(hostFlagText(model, r.variant, r.concurrency))]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
  );
  const range = tp.length ? s('fu.run.range', { lo: num(Math.min(...tp), 1), hi: num(Math.max(...tp), 1), n: int(tp.length) }) : s('fu.run.noCells');
  // a ramp start caps whole-run throughput at n/(n+1) of c/L where nothing queues (the edge effect, §theory)
  const rampEdge = model.manifest.options.start === 'ramp' ? [s('fu.run.rampEdge', { n: int(model.manifest.options.requestsPerWorker), frac: num(model.rampFraction * 100, 1) })] : [];
  // per platform pool above its size: the cap N/L it reached
  const capped = model.rows.filter((r) => r.executor.kind === 'platform-pool' && r.concurrency > r.executor.threads && r.wholeRunRps.median !== null);
  const caps = capped.map((r) => s('fu.run.cap', { variant: esc(ctx.variantName(r.variant)), c: int(r.concurrency), N: int(r.executor.kind === 'platform-pool' ? r.executor.threads : 0), x: rps(r.wholeRunRps.median), bound: rps(r.boundRps) }));
  return [
    heading,
    s(kind === 'pool-sweep' ? 'fu.run.pool' : 'fu.run.latency', { L: int(L), profile: esc(model.manifest.options.profile), sizes: poolSizes.map(int).join(', ') || '—' }),
    tbl.md,
    range,
    ...rampEdge,
    ...(caps.length ? [caps.join(' ')] : []),
    s('fu.run.charts'),
  ].join('\n\n');
}

// ---------------------------------------------------------------- the study's own template sections

/**
 * The study's own placeholders (pure: model + phrases → Markdown), one module each under
 * src/studies/000/sections/. They are rendered in this order: footnotes are numbered in first-use order.
 */
function sections(model: ReportModel, ctx: RenderContext): Record<string, string | Raw> {
  const { P } = ctx;
  const k = makeKit000(model, ctx);
  const L = k.L;
  const parts = {
    summary: summary000(model, k),
    highestTable: highestTable(model, k),
    lowest: lowest(k),
    queueTrend: queueTrend(model, k),
    vtTrend: vtTrend(model, k),
    boundAnalysis: boundAnalysis(model, k),
    execAnalysis: execAnalysis(k),
    rateLimiting: rateLimiting(model, k),
    bottleneck: bottleneck(model, k),
    conclusions: conclusionsTable(model, k),
    finalData: finalData(k),
  };
  const followUpTable = table([ctx.s('h.followUp'), ctx.s('h.command')], model.followUps.map((f) => [P(`fu.${f.id}`), f.command === null ? P('fu.notRunnable') : code(f.command)]));
  const thisRun = followUpRun(model, ctx);
  return {
    ...parts,
    hypothesis: P('hypothesis', { N: int(k.N), queue: int(queueCapacity(model)), L: int(L), Ls: num(L / 1000, 3), bound: num(k.N / (L / 1000), 2) }),
    // static prose of §3, §4 and §7 with an open-loop wording (`<key>@openLoop`: arrivals, not workers)
    mechanism: P('mechanism'),
    architecture: P('architecture'),
    metricThroughput: P('metric.throughput'),
    followUps: thisRun === '' ? followUpTable : raw(`${followUpTable.md}\n\n${thisRun}`),
  };
}

export const REPORT_000: StudyReportHook = {
  gate: (model) => { const d = configDiffs(model); return present([d.latency, d.pool]); },
  figure,
  analyse: (model) => ({ conclusions: conclusions(model), followUps: [...FOLLOW_UPS] }),
  sections,
};
