/**
 * Study 004: "Java 20 virtual threads in Spring Boot 3.1, I/O-bound tests" (shared/seeds/004_*.txt),
 * reproduced with Spring Boot's own executors and the one switch `spring.threads.virtual.enabled`.
 *
 * Variants (executor kind `spring-boot-auto`: no executor of the harness's; what Boot built is read
 * back from the SUT's live beans and checked after each start, src/pipeline/run.ts bootMismatches):
 * - `platform`: Boot's auto-configured `applicationTaskExecutor` (ThreadPoolTaskExecutor, 8 core
 *   threads, unbounded queue, so never more than 8) and Tomcat's default 200 worker threads (the
 *   SUT's application.yml raises them to 400 for study 000, so the variant sets 200 back).
 * - `virtual`: `spring.threads.virtual.enabled=true`: `@Async` on a SimpleAsyncTaskExecutor with a
 *   virtual thread per task, Tomcat's requests on virtual threads.
 *
 * Scenarios (a run measures one; each profile names its scenario):
 * - `async-burst` (experiment 1, driver `in-process`): the SUT's `POST /bench/job/async-burst`
 *   calls an `@Async` method sleeping S ms T times and waits for all (sut/…/AsyncBurstJob.java). In
 *   its cells the level is 1 (one job), `requestsPerWorker` = T and `latencyMs` = S, so
 *   `--requests-per-worker` and `--latency-ms` change T and S.
 * - `servlet-sleep` (experiment 2, driver `closed-loop-http`): `GET /api/servlet/sleep?ms=S`
 *   sleeps on the Tomcat thread itself, no hand-off; 500 clients × 20 requests = 10,000.
 */
import { fileURLToPath } from 'node:url';
import type { Profile, ProfileValues, Scenario, Variant } from '../../types/study.ts';
import type { StudyPlugin } from '../../report/types.ts';
import { DEFAULT_BIND_ADDRESS } from '../../adapters/jvm/bind.ts';
import { asyncJobTimeoutMs, asyncMakespanTheoryMs } from './theory.ts';
import { PUBLISHED_004 } from './published.ts';
import { REPORT_004 } from './hook.ts';

/** Spring Boot's default core size of `applicationTaskExecutor` (spring.task.execution.pool.core-size). */
export const BOOT_ASYNC_CORE_THREADS = 8;
/** Tomcat's default worker threads (server.tomcat.threads.max), the source study's setting. */
export const TOMCAT_DEFAULT_MAX_THREADS = 200;

export const VARIANTS_004: readonly Variant[] = [
  {
    id: 'platform',
    label: "Boot's applicationTaskExecutor (pool of 8) + Tomcat 200 platform threads",
    executor: { kind: 'spring-boot-auto', virtualThreads: false, asyncCoreThreads: BOOT_ASYNC_CORE_THREADS, tomcatMaxThreads: TOMCAT_DEFAULT_MAX_THREADS },
    threadNamePrefix: 'task-',
    sutProperties: { 'spring.threads.virtual.enabled': 'false', 'server.tomcat.threads.max': String(TOMCAT_DEFAULT_MAX_THREADS) },
  },
  {
    id: 'virtual',
    label: 'spring.threads.virtual.enabled=true (@Async and Tomcat on virtual threads)',
    executor: { kind: 'spring-boot-auto', virtualThreads: true, asyncCoreThreads: null, tomcatMaxThreads: null },
    threadNamePrefix: 'task-',
    sutProperties: { 'spring.threads.virtual.enabled': 'true', 'server.tomcat.threads.max': String(TOMCAT_DEFAULT_MAX_THREADS) },
  },
];

export const SCENARIOS_004: readonly Scenario[] = [
  {
    id: 'async-burst',
    label: 'T calls of an @Async method sleeping S ms on applicationTaskExecutor, waited for (in the SUT)',
    driver: 'in-process',
    request: (o) => ({ method: 'POST', path: `/bench/job/async-burst?tasks=${o.requestsPerWorker}&sleepMs=${o.latencyMs}` }),
    serviceTimeMs: (o) => o.latencyMs,
    usesMock: false,
    job: (o, v) => ({ path: '/bench/job/async-burst', tasks: o.requestsPerWorker, sleepMs: o.latencyMs, timeoutMs: asyncJobTimeoutMs(v.executor, o.requestsPerWorker, o.latencyMs) }),
    cellTheoreticalS: (exec, o) => asyncMakespanTheoryMs(exec, o.requestsPerWorker, o.latencyMs) / 1000,
  },
  {
    id: 'servlet-sleep',
    label: 'GET that sleeps S ms on the Tomcat request thread itself (no hand-off)',
    driver: 'closed-loop-http',
    request: (o) => ({ method: 'GET', path: `/api/servlet/sleep?ms=${o.latencyMs}` }),
    serviceTimeMs: (o) => o.latencyMs,
    usesMock: false,
  },
];

/** Values the profiles share: the source study's S = 50 ms, 3 repeats, no warm-up (a JUnit test). */
const BASE: ProfileValues = {
  scenario: 'async-burst',
  levels: [1],
  requestsPerWorker: 100_000,
  repeats: 3,
  warmupS: 0,
  latencyMs: 50,
  variants: ['platform', 'virtual'],
  poolSize: null,
  queueCapacity: null,
  start: 'together',
  rampMs: 0,
  jvmFlags: ['-Xms1g', '-Xmx1g', '-XX:+UseG1GC'],
  mockPort: 19004,
  sutPort: 19084,
  bindAddress: DEFAULT_BIND_ADDRESS,
  samplerIntervalMs: 250,
  pinnedThresholdMs: 20,
  errorFlagThreshold: 0.001,
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 60_000,
  bodyTimeoutMs: 60_000,
};

/**
 * Experiment 2: 500 clients (the study's JMeter threads) × 20 = 10,000 requests, started over 1 s
 * (JMeter's default ramp-up; the study states none), a 2 s warm-up per JVM (the study states none).
 */
const HTTP: ProfileValues = { ...BASE, scenario: 'servlet-sleep', levels: [500], requestsPerWorker: 20, warmupS: 2, start: 'ramp', rampMs: 1000 };

/** All profiles, default first. */
export const PROFILES_004: readonly Profile[] = [
  {
    name: 'seed-004',
    description: 'experiment 1 as published: 100,000 @Async calls of 50 ms, 3 repeats (platform ≈ 3 × 625 s ≈ 32 min)',
    values: BASE,
  },
  {
    name: 'seed-004-http',
    description: 'experiment 2 as published: GET sleeping 50 ms on the Tomcat thread, 500 clients × 20 = 10,000 requests, 3 repeats',
    values: { ...HTTP },
  },
  {
    name: 'quick',
    description: 'experiment 1 with 10,000 @Async calls of 50 ms, 1 repeat (platform ≈ 62.5 s)',
    values: { ...BASE, requestsPerWorker: 10_000, repeats: 1 },
  },
  {
    name: 'quick-http',
    description: 'experiment 2, 1 repeat',
    values: { ...HTTP, repeats: 1 },
  },
  {
    name: 'smoke',
    description: 'CI check of the in-process driver: 400 @Async calls of 20 ms, 1 repeat (platform 50 waves ≈ 1 s)',
    values: { ...BASE, requestsPerWorker: 400, latencyMs: 20, repeats: 1, jvmFlags: ['-Xms256m', '-Xmx256m', '-XX:+UseSerialGC'] },
  },
];

export const STUDY_004: StudyPlugin = {
  id: '004',
  title: "Spring Boot's own executors on platform vs virtual threads: an @Async burst and Tomcat",
  source: 'seeds/004_*.txt',
  sourceSummary: 'docs/studies/004.md',
  variants: VARIANTS_004,
  scenarios: SCENARIOS_004,
  profiles: PROFILES_004,
  comparisons: [{ baseline: 'platform', candidate: 'virtual' }],
  published: PUBLISHED_004,
  templateDir: fileURLToPath(new URL('../../../templates/004/', import.meta.url)),
  report: REPORT_004,
};
