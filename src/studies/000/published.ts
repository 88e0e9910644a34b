/**
 * The figures study 000 published (shared/seeds/000_*.txt §5–§15), as typed rows. Values as
 * printed in the source; `tolerance` is the relative band of "reproduced" (the absolute floor of
 * each figure is in ./report.ts ABS_TOLERANCE); `setupIdentity` marks a value that holds by
 * construction of the setup (shown apart, never counted as a reproduction); `untestable` marks a value
 * the study did not measure (its verdict is "not testable here" whatever the run). Setup facts (tolerance
 * null) are not compared: the report's gate checks this run's setup against them.
 * The row order is the order of the report's §8.7 table.
 */
import type { PublishedRow } from '../../types/study.ts';

type Level = number;
const SCENARIO = 'llm-chat';

function perLevel(variant: string, metric: string, unit: string, tolerance: number, values: Record<Level, number>): PublishedRow[] {
  return Object.entries(values)
    .sort((a, b) => Number(a[0]) - Number(b[0]))
    .map(([lv, value]) => ({ id: `${variant}.${metric}.${lv}`, metric, scenario: SCENARIO, variant, level: Number(lv), unit, value, tolerance, setupIdentity: null }));
}
function one(variant: string | null, metric: string, level: number | null, unit: string, value: number, tolerance: number, setupIdentity: string | null = null, id = `${variant ?? 'setup'}.${metric}${level === null ? '' : `.${level}`}`, untestable?: string): PublishedRow {
  return { id, metric, scenario: SCENARIO, variant, level, unit, value, tolerance, setupIdentity, ...(untestable !== undefined ? { untestable } : {}) };
}
function fact(metric: string, unit: string, value: number | string): PublishedRow {
  return { id: `setup.${metric}`, metric: `setup.${metric}`, scenario: null, variant: null, level: null, unit, value, tolerance: null, setupIdentity: null };
}

/** The setup the study describes (§5–6): not compared, read by the report's comparability gate. */
export const SETUP_FACTS: readonly PublishedRow[] = [
  fact('mockLatencyMs', 'ms', 1500),
  fact('fixedPoolSize', 'threads', 32),
  fact('fixedQueueCapacity', 'tasks', 10000),
  fact('rejectionPolicy', '', 'AbortPolicy'),
  fact('concurrencyLevels', 'workers', '10/50/100/200/500'),
  fact('warmupS', 's', 30),
  fact('requestsPerWorker', 'requests', 40),
  fact('repeats', '', 3),
  fact('aggregate', '', 'median of repeats'),
  fact('sutHeap', '', '-Xms512m -Xmx512m'),
  fact('gc', '', 'G1'),
  fact('jdk', '', 'Temurin 25.0.3'),
  fact('springBoot', '', '4.1.0'),
  fact('springAi', '', '2.0.0'),
  fact('host', '', 'Apple M4, 10 cores, 24 GiB, macOS arm64'),
];

/** The compared figures, in the order of the §8.7 table. */
export const FIGURES: readonly PublishedRow[] = [
  ...perLevel('fixed', 'throughputRps', 'req/s', 0.05, { 10: 6.63, 500: 21.24 }),
  ...perLevel('fixed', 'e2eP95Ms', 'ms', 0.05, { 10: 1513, 500: 24140 }),
  ...perLevel('fixed', 'queueWaitP95Ms', 'ms', 0.05, { 50: 1508.61, 100: 4518.57, 200: 9046.99, 500: 22624.26 }),
  ...perLevel('fixed', 'executionP95Ms', 'ms', 0.05, { 500: 1512 }),
  ...perLevel('fixed', 'errorRate', 'ratio', 0, { 500: 0 }),
  // every pool thread runs one task that blocks 1.5 s in the mock's socket read: the same identity as the active peak
  one('fixed', 'threadDump.poolThreadsInSocketRead', 500, 'threads', 32, 0, 'poolInSocketRead'),
  one('fixed', 'threadDump.activeThreadsPeak', 500, 'threads', 32, 0, 'poolFull'),
  one('fixed', 'threadDump.queuePeak', 500, 'tasks', 468, 0.02, 'closedLoopQueue'),
  ...perLevel('virtual', 'throughputRps', 'req/s', 0.05, { 10: 6.63, 50: 33.15, 100: 66.18, 200: 131.37, 500: 325.52 }),
  ...perLevel('virtual', 'e2eP95Ms', 'ms', 0.05, { 10: 1512, 500: 1520 }),
  ...perLevel('virtual', 'e2eP99Ms', 'ms', 0.1, { 500: 1950 }),
  ...perLevel('virtual', 'queueWaitP95Ms', 'ms', 0.05, { 500: 3.65 }),
  ...perLevel('virtual', 'executionP95Ms', 'ms', 0.05, { 500: 1518 }),
  ...perLevel('virtual', 'errorRate', 'ratio', 0, { 500: 0 }),
  one('virtual', 'threadDump.activeVirtualTasksPeak', 500, 'tasks', 500, 0.02, 'closedLoopInFlight'),
  one('virtual', 'threadDump.queuePeak', 500, 'tasks', 0, 0.02, 'noQueue'),
  one('virtual', 'rssDeltaVsFixedAt500MiB', 500, 'MiB', 156, 0.5, null, 'virtual.rssDeltaVsFixedAt500MiB'),
  // all virtual cells: no (variant, level) row. The study's 0 came from -Djdk.tracePinnedThreads, a flag JDK 24
  // removed, on its JDK 25: not a count, so no run can reproduce it (the §15 pinning rule tests the claim)
  one(null, 'pinnedEvents', null, 'events', 0, 0, null, 'virtual.pinnedEvents', 'pinnedNotACount'),
  one(null, 'setup.totalRequests', null, 'requests', 206400, 0, 'plannedTotal', 'setup.totalRequests'),
  one(null, 'setup.failedRequests', null, 'requests', 0, 0, null, 'setup.failedRequests'),
];

/** Everything study 000 published (Study.published): the compared figures, then the setup facts. */
export const PUBLISHED_000: readonly PublishedRow[] = [...FIGURES, ...SETUP_FACTS];

/** A setup fact by metric name (`setup.<name>`). @throws Error when the study has no such fact (a programming error) */
export function setupFact<T extends number | string>(name: string): T {
  const r = SETUP_FACTS.find((x) => x.metric === `setup.${name}`);
  if (!r) throw new Error(`study 000 publishes no setup fact ${name}`);
  return r.value as T;
}
