/**
 * Study 002: "10,000 concurrency, 5 scenarios: pool-200 vs pool-500 vs virtual threads"
 * (shared/seeds/002_*.txt, figures in shared/seeds/published.json `002`), on a real PostgreSQL the
 * harness starts (src/adapters/db/postgres.ts) and the mock's plain delay route (`GET /delay?ms=`).
 *
 * One run covers every scenario: each variant is one (scenario, executor, setting) arm and carries
 * its scenario (Variant.scenario), e.g. `io-pool-200`, `cpu-virtual`, `mixed-virtual-structured`,
 * `db10-virtual`, `db200-virtual`, `db10-virtual-sync`. The run's levels per scenario are
 * `scenarioLevels` of the profile (a CPU-bound scenario holds far fewer requests per second than an
 * I/O one). Cell ids stay `<variant>-c<level>-r<repeat>`.
 *
 * Executors (the study's `ExecutorConfig`): `pool-200` and `pool-500` are ThreadPoolExecutor(N, N,
 * LinkedBlockingQueue(10000)) (`platform-pool`), `virtual` one virtual thread per task
 * (`virtual-per-task`). The SUT beans (sut/…, the Java ↔ harness contract of issue 12) behind
 * `GET /api/scenario/{id}`:
 * - `io-http?ms=100`: one blocking HTTP GET to the mock's `/delay` (scenario 1, pure I/O);
 * - `cpu-fib`: recursive fib(n), n calibrated at SUT start to ≈ `bench.fib.target-cpu-ms` of CPU
 *   (scenario 2; the study's fib(40) ≈ 1 s on 8 cores);
 * - `mixed?dbMs=50&userMs=100&logisticsMs=80`: order query (pg_sleep 50 ms), user service (100 ms),
 *   logistics (80 ms), serially (scenario 3: 230 ms);
 * - `mixed-structured`: the same with StructuredTaskScope (JDK 25 preview): (order → user) ∥
 *   logistics, critical path max(50 + 100, 80) = 150 ms (the study says 100 ms);
 * - `db-small?ms=5`: one 5 ms query through HikariCP (scenario 4), pool 10 (Hikari's default, as in
 *   the study) or 200 (`bench.db.pool-size`);
 * - `db-small-synchronized?ms=5`: the same inside `synchronized` (the study's pinning pitfall);
 * - `ws-push` (scenario 5, issue 13, ./ws-push.ts): N held WebSocket connections to `/ws/push`, one
 *   push per second each after 10 ms of blocking work on the variant's executor (the `websocket`
 *   driver; the profile's `durationS` is the hold).
 */
import { fileURLToPath } from 'node:url';
import type { ExecutorSpec, Profile, ProfileValues, Scenario, Variant } from '../../types/study.ts';
import type { StudyPlugin } from '../../report/types.ts';
import { DEFAULT_BIND_ADDRESS } from '../../adapters/jvm/bind.ts';
import { PUBLISHED_002 } from './published.ts';
import { REPORT_002 } from './hook.ts';
import { WS_PUSH, wsPushScenario } from './ws-push.ts';

import { FIB_TARGET_CPU_MS, HIKARI_DEFAULT, HIKARI_LARGE, IO_MS, MIXED_DB_MS, MIXED_LOGISTICS_MS, MIXED_USER_MS, SMALL_DB_MS, STUDY_QUEUE } from './constants.ts';
import { plannedCellS } from './theory.ts';

export * from './constants.ts';

const pool = (threads: number): ExecutorSpec => ({ kind: 'platform-pool', threads, queueCapacity: STUDY_QUEUE });
const VT: ExecutorSpec = { kind: 'virtual-per-task' };

/** The three executors of the study, with their variant-id suffix, label and thread-name prefix. */
const EXECUTORS: readonly { suffix: string; label: string; executor: ExecutorSpec; prefix: string }[] = [
  { suffix: 'pool-200', label: 'pool of 200 platform threads, queue 10,000', executor: pool(200), prefix: 'pool200-' },
  { suffix: 'pool-500', label: 'pool of 500 platform threads, queue 10,000', executor: pool(500), prefix: 'pool500-' },
  { suffix: 'virtual', label: 'one virtual thread per task', executor: VT, prefix: 'vt-' },
];

/** One variant per executor for a scenario, ids `<prefix>-<executor>`. */
function arms(prefix: string, scenario: string, what: string, props?: Record<string, string>): Variant[] {
  return EXECUTORS.map((e) => ({
    id: `${prefix}-${e.suffix}`,
    label: `${what}: ${e.label}`,
    executor: e.executor,
    threadNamePrefix: e.prefix,
    scenario,
    ...(props ? { sutProperties: props } : {}),
  }));
}

const DB10 = { 'bench.db.pool-size': String(HIKARI_DEFAULT) };
const DB200 = { 'bench.db.pool-size': String(HIKARI_LARGE) };

export const VARIANTS_002: readonly Variant[] = [
  ...arms('io', 'io-100ms', 'I/O 100 ms'),
  ...arms('cpu', 'cpu-fib', 'CPU fib'),
  ...arms('mixed', 'mixed', 'mixed serial, Hikari 10', DB10),
  { id: 'mixed-virtual-structured', label: 'mixed with StructuredTaskScope fan-out, Hikari 10: one virtual thread per task', executor: VT, threadNamePrefix: 'vt-', scenario: 'mixed-structured', sutProperties: DB10 },
  ...arms('db10', 'db-small', '5 ms query, Hikari 10', DB10),
  { id: 'db200-virtual', label: '5 ms query, Hikari 200: one virtual thread per task', executor: VT, threadNamePrefix: 'vt-', scenario: 'db-small', sutProperties: DB200 },
  { id: 'db10-virtual-sync', label: '5 ms query inside synchronized, Hikari 10: one virtual thread per task', executor: VT, threadNamePrefix: 'vt-', scenario: 'db-small-synchronized', sutProperties: DB10 },
  ...arms('ws', WS_PUSH, 'WebSocket push, 10 ms per push'),
];

/** The scenario ids of the study, by the source's chapter. */
export const SCENARIO_IDS = ['io-100ms', 'cpu-fib', 'mixed', 'mixed-structured', 'db-small', 'db-small-synchronized', WS_PUSH] as const;

const get = (path: string) => () => ({ method: 'GET' as const, path });

/**
 * The study's scenarios. The five timer-held HTTP scenarios have an alone probe (Scenario.aloneProbe:
 * ≈ 2–4 s per JVM) whose R(1) and holds the report's bounds use (theory.ts boundsFor); cpu-fib does
 * not need one (its hold is the CPU per call measured in each cell).
 */
export const SCENARIOS_002: readonly Scenario[] = [
  {
    id: 'io-100ms', cellTheoreticalS: (exec, o, c) => plannedCellS('io-100ms', exec, c, o.requestsPerWorker), label: `one blocking HTTP GET to the mock's /delay (${IO_MS} ms)`, driver: 'closed-loop-http',
    request: get(`/api/scenario/io-http?ms=${IO_MS}`), serviceTimeMs: () => IO_MS, usesMock: false, usesDelayRoute: true, sutScenario: 'io-http', aloneProbe: { requests: 20 },
  },
  {
    id: 'cpu-fib', cellTheoreticalS: (exec, o, c) => plannedCellS('cpu-fib', exec, c, o.requestsPerWorker), label: `recursive fib(n), n calibrated to ≈ ${FIB_TARGET_CPU_MS} ms of CPU per call on this host`, driver: 'closed-loop-http',
    request: get('/api/scenario/cpu-fib'), serviceTimeMs: () => FIB_TARGET_CPU_MS, usesMock: false, sutScenario: 'cpu-fib',
    sutPropertiesFromRun: (sut): Record<string, string> => {
      const n = runFibN(sut);
      return n === null ? {} : { 'bench.fib.n': String(n) };
    },
  },
  {
    id: 'mixed', cellTheoreticalS: (exec, o, c) => plannedCellS('mixed', exec, c, o.requestsPerWorker), label: `order query ${MIXED_DB_MS} ms, then user service ${MIXED_USER_MS} ms, then logistics ${MIXED_LOGISTICS_MS} ms, serially`, driver: 'closed-loop-http',
    request: get(`/api/scenario/mixed?dbMs=${MIXED_DB_MS}&userMs=${MIXED_USER_MS}&logisticsMs=${MIXED_LOGISTICS_MS}`),
    serviceTimeMs: () => MIXED_DB_MS + MIXED_USER_MS + MIXED_LOGISTICS_MS, usesMock: false, usesDb: true, usesDelayRoute: true, sutScenario: 'mixed', aloneProbe: { requests: 15 },
  },
  {
    id: 'mixed-structured', cellTheoreticalS: (exec, o, c) => plannedCellS('mixed-structured', exec, c, o.requestsPerWorker), label: `(order query ${MIXED_DB_MS} ms → user service ${MIXED_USER_MS} ms) ∥ logistics ${MIXED_LOGISTICS_MS} ms, StructuredTaskScope`, driver: 'closed-loop-http',
    request: get(`/api/scenario/mixed-structured?dbMs=${MIXED_DB_MS}&userMs=${MIXED_USER_MS}&logisticsMs=${MIXED_LOGISTICS_MS}`),
    serviceTimeMs: () => Math.max(MIXED_DB_MS + MIXED_USER_MS, MIXED_LOGISTICS_MS), usesMock: false, usesDb: true, usesDelayRoute: true, sutScenario: 'mixed-structured', aloneProbe: { requests: 15 },
  },
  {
    id: 'db-small', cellTheoreticalS: (exec, o, c) => plannedCellS('db-small', exec, c, o.requestsPerWorker), label: `one ${SMALL_DB_MS} ms PostgreSQL query (pg_sleep) through HikariCP`, driver: 'closed-loop-http',
    request: get(`/api/scenario/db-small?ms=${SMALL_DB_MS}`), serviceTimeMs: () => SMALL_DB_MS, usesMock: false, usesDb: true, sutScenario: 'db-small', aloneProbe: { requests: 150 },
  },
  {
    id: 'db-small-synchronized', cellTheoreticalS: (exec, o, c) => plannedCellS('db-small-synchronized', exec, c, o.requestsPerWorker), label: `the ${SMALL_DB_MS} ms query inside a synchronized block (the study's pinning pitfall)`, driver: 'closed-loop-http',
    request: get(`/api/scenario/db-small-synchronized?ms=${SMALL_DB_MS}`), serviceTimeMs: () => SMALL_DB_MS, usesMock: false, usesDb: true, sutScenario: 'db-small-synchronized', aloneProbe: { requests: 150 },
  },
  wsPushScenario,
];

/**
 * The fib n a run's JVMs share: the n calibrated by the run's first SUT JVM that reported one
 * (`manifest.sut`, in the order the blocks ran; `/bench/info` `fib.n`), null before any. Each JVM
 * calibrates n by its own CPU clock, and neighbouring n differ by φ ≈ 1.6× in work, so without this
 * two variants could run different work (the seed-002 run 20261201-152237 ran fib(36), fib(35) and
 * fib(37) in its three cpu-fib blocks). The `cpu-fib` scenario passes it as `bench.fib.n`
 * (Scenario.sutPropertiesFromRun). Pure.
 */
export function runFibN(sut: Readonly<Record<string, unknown>>): number | null {
  for (const info of Object.values(sut)) {
    const n = (info as { fib?: { n?: unknown } } | null)?.fib?.n;
    if (typeof n === 'number' && Number.isInteger(n) && n > 0) return n;
  }
  return null;
}

/** Every variant, in the source's chapter order. */
const ALL = VARIANTS_002.map((v) => v.id);

/**
 * The study's shape where this host can hold it: JMeter's 10 s ramp (`start: 'ramp'`), closed loop,
 * GET `/api/scenario/{id}`; the levels per scenario are the profiles' (see their descriptions).
 */
const BASE: ProfileValues = {
  scenario: 'io-100ms',
  levels: [1000],
  requestsPerWorker: 4,
  repeats: 1,
  warmupS: 5,
  latencyMs: IO_MS,
  variants: ALL,
  poolSize: null,
  queueCapacity: null,
  start: 'ramp',
  rampMs: 10_000,
  jvmFlags: ['-Xms2g', '-Xmx2g', '-XX:+UseG1GC'],
  mockPort: 19002,
  sutPort: 19082,
  bindAddress: DEFAULT_BIND_ADDRESS,
  samplerIntervalMs: 250,
  pinnedThresholdMs: 20,
  errorFlagThreshold: 0.001,
  connectTimeoutMs: 30_000,
  headersTimeoutMs: 120_000,
  bodyTimeoutMs: 120_000,
};

/** All profiles, default first. */
export const PROFILES_002: readonly Profile[] = [
  {
    name: 'seed-002',
    // Levels cut from the study's 10,000 so the whole run stays ≤ 45 min on a 2-core host (each
    // level holds 2 descriptors per worker in the SUT, under ulimit -n: the engine refuses a level
    // above the host's limit with the reason). Requests per worker: at least
    // requestsPerWorkerForWindow(c, ramp, c / plannedRps, 200, L) at each level (theory.ts), so each
    // cell's all-workers window holds twice the 100 successes the acceptance check needs, counting that
    // worker 0 runs alone and fast early in the ramp (db-small at c = 100 needs 70, at c = 2,000 only 8).
    description: 'the study\'s five scenarios (four over HTTP, scenario 5 over held WebSocket connections) in one run, 1 repeat, 1 s ramp (the study\'s 10 s ramp was 1.7 % of its 600 s cells; these last 5–120 s); levels cut from the study\'s 10,000: io 500/5,000 × 20, cpu 20/200 × 15 (at 20 fib calls/s a round of 10,000 workers takes 500 s), mixed 20/1,000 × 16 (Hikari 10: 200 req/s), fan-out 20/1,000 × 18, db 100/2,000 × 70, sync 100/1,000 × 15, WebSocket 1,000/4,000/10,000 connections held 20 s; requests per worker so that every HTTP cell\'s all-workers window holds ≥ 200 successes (15 SUT starts, and I/O cells held below their planned rate by this host\'s CPU, add to the plan)',
    values: {
      ...BASE,
      rampMs: 1000,
      scenarioLevels: {
        'io-100ms': { levels: [500, 5000], requestsPerWorker: 20 },
        'cpu-fib': { levels: [20, 200], requestsPerWorker: 15 },
        'mixed': { levels: [20, 1000], requestsPerWorker: 16 },
        'mixed-structured': { levels: [20, 1000], requestsPerWorker: 18 },
        'db-small': { levels: [100, 2000], requestsPerWorker: 70 },
        'db-small-synchronized': { levels: [100, 1000], requestsPerWorker: 15 },
        // scenario 5: N held connections (≤ 400 opened per s), each held durationS = 20 s
        [WS_PUSH]: { levels: [1000, 4000, 10_000], requestsPerWorker: 1 },
      },
      durationS: 20,
    },
  },
  {
    name: 'quick',
    // ≤ 8 min wall on a 2-core host: each SUT JVM costs ≈ 22 s beyond its cells (stop, start, warm-up,
    // alone probe, the top level's thread dump), so quick runs pool-200 against virtual threads (pool-500
    // and Hikari 200 only in seed-002) at levels whose cells take seconds. Requests per worker: at least
    // requestsPerWorkerForWindow(c, ramp, c / plannedRps, 200, L) at each level (theory.ts), so each
    // cell's all-workers window holds ≥ 200 successes; cpu-fib starts at c = 20, not 4 (at c = 4 that
    // would take 54 requests per worker, 2,160 at c = 40)
    description: 'pool-200 against virtual threads (plus the fan-out and the synchronized query) at two levels each, 0.5 s ramp, 1 repeat: io 100/500 × 20, cpu 20/30 × 13, mixed 20/100 × 14, fan-out 20/100 × 15, db 50/150 × 58, sync 50/100 × 15; WebSocket: virtual threads at 200/1,000 connections held 5 s; requests per worker so that every HTTP cell\'s all-workers window holds ≥ 200 successes; pool-500 and Hikari 200 are in seed-002 (11 SUT starts, about 22 s each, and I/O cells held below their planned rate by this host\'s CPU, add to the plan)',
    values: {
      ...BASE,
      warmupS: 2,
      rampMs: 500,
      scenarioLevels: {
        'io-100ms': { levels: [100, 500], requestsPerWorker: 20 },
        'cpu-fib': { levels: [20, 30], requestsPerWorker: 13 },
        'mixed': { levels: [20, 100], requestsPerWorker: 14 },
        'mixed-structured': { levels: [20, 100], requestsPerWorker: 15 },
        'db-small': { levels: [50, 150], requestsPerWorker: 58 },
        'db-small-synchronized': { levels: [50, 100], requestsPerWorker: 15 },
        [WS_PUSH]: { levels: [200, 1000], requestsPerWorker: 1 },
      },
      // scenario 5 on virtual threads only (held 5 s)
      variants: ALL.filter((v) => !v.endsWith('pool-500') && v !== 'db200-virtual' && v !== 'ws-pool-200'),
      durationS: 5,
    },
  },
  {
    name: 'smoke',
    description: 'CI check (< 1 min of load): io-virtual, cpu-virtual, mixed-virtual-structured, db10-virtual at one level each, ws-virtual with 5 connections held 3 s',
    values: {
      ...BASE,
      variants: ['io-virtual', 'cpu-virtual', 'mixed-virtual-structured', 'db10-virtual', 'ws-virtual'],
      warmupS: 1,
      rampMs: 500,
      jvmFlags: ['-Xms256m', '-Xmx256m', '-XX:+UseSerialGC'],
      scenarioLevels: {
        'io-100ms': { levels: [20], requestsPerWorker: 3 },
        'cpu-fib': { levels: [2], requestsPerWorker: 2 },
        'mixed-structured': { levels: [10], requestsPerWorker: 2 },
        'db-small': { levels: [20], requestsPerWorker: 5 },
        [WS_PUSH]: { levels: [5], requestsPerWorker: 1 },
      },
      durationS: 3,
    },
  },
];

export const STUDY_002: StudyPlugin = {
  id: '002',
  title: 'pool-200 vs pool-500 vs virtual threads on I/O, CPU, mixed DB + API and small-query scenarios',
  source: 'seeds/002_*.txt',
  sourceSummary: 'docs/studies/002.md',
  variants: VARIANTS_002,
  scenarios: SCENARIOS_002,
  profiles: PROFILES_002,
  comparisons: [
    { baseline: 'io-pool-200', candidate: 'io-virtual' },
    { baseline: 'io-pool-500', candidate: 'io-virtual' },
    { baseline: 'cpu-pool-200', candidate: 'cpu-virtual' },
    { baseline: 'mixed-pool-500', candidate: 'mixed-virtual' },
    { baseline: 'mixed-virtual', candidate: 'mixed-virtual-structured' },
    { baseline: 'db10-pool-500', candidate: 'db10-virtual' },
    { baseline: 'db10-virtual', candidate: 'db200-virtual' },
    { baseline: 'db10-virtual', candidate: 'db10-virtual-sync' },
  ],
  published: PUBLISHED_002,
  templateDir: fileURLToPath(new URL('../../../templates/002/', import.meta.url)),
  // the study's own hook, scenario 5's sections and charts (src/studies/002/ws-push.ts) included
  report: REPORT_002,
};
