/**
 * The arms a study compares: an executor setup of the SUT and its Spring properties. Plain data,
 * below the study contract (./study.ts) and the run's records (./run.ts), which both name them.
 */
/**
 * How the SUT runs a request's blocking work. Must match the SUT's executor registry
 * (sut/…/ExecutorKinds.java): `bench.executor.kind`, `.threads`, `.queue-capacity`.
 * - `platform-pool`: a ThreadPoolExecutor, core = max = `threads`, bounded queue of
 *   `queueCapacity`, AbortPolicy (a full queue answers 503).
 * - `virtual-per-task`: one new virtual thread per task, no queue.
 * - `spring-boot-auto`: no benchmark executor of the harness's (the SUT's `/api/scenario/*` answer
 *   503): the variant runs on Spring Boot's own auto-configured executors, `@Async` on the
 *   `applicationTaskExecutor` bean and requests on Tomcat's threads, switched by
 *   `spring.threads.virtual.enabled` (study 004). The other fields are what the variant expects to
 *   be in effect; the pipeline checks them against what the SUT reads back from its live beans
 *   (`/bench/info` `boot`, src/pipeline/run.ts sutMismatches):
 *   `virtualThreads` both run on virtual threads; `asyncCoreThreads` the ThreadPoolTaskExecutor's core
 *   size (Boot's default 8), null on virtual threads; `tomcatMaxThreads` Tomcat's worker threads in
 *   effect, null on virtual threads (Tomcat's own getter reads −1 there). The HTTP bounds of
 *   src/compute/theory/bounds.ts use `tomcatMaxThreads` (a request holds a Tomcat thread throughout).
 */
export type ExecutorSpec =
  | { kind: 'platform-pool'; threads: number; queueCapacity: number }
  | { kind: 'virtual-per-task' }
  | { kind: 'spring-boot-auto'; virtualThreads: boolean; asyncCoreThreads: number | null; tomcatMaxThreads: number | null };

/**
 * What the harness needs to know of one executor kind, so that the engine asks the kind instead of
 * testing for it. A new kind is its member of ExecutorSpec and its entry in EXECUTOR_KIND_INFO, then
 * `npm run schema` (the run files record the executor); if its cells take thread dumps, its reading
 * `td.<kind>` (optionally `td.<kind>@openLoop`) in templates/engine/phrases.{en,zh}.json (the report throws
 * on a missing phrase); on the SUT's side its class in sut/…/executors/ and its line in
 * ExecutorKinds.java.
 */
export interface ExecutorKindInfo<E extends ExecutorSpec = ExecutorSpec> {
  /** the executor in words, for the plan (`platform pool 8 threads, queue 10000`) */
  describe(e: E): string;
  /** the `bench.executor.*` properties beyond `.kind` that configure it in the SUT (sut/…/BenchProperties.java) */
  sutProperties(e: E): [string, string][];
  /**
   * the fixed pool of platform threads its tasks run on, as the SUT reports it (`/bench/info` executor
   * `threads`, `queueCapacity`); null when none. Non-null turns on what the harness does for a pool:
   * --pool-size/--queue-capacity (withPool), the queue-capacity bounds checks (src/plan/profiles.ts),
   * the study check of threads >= 1 and queueCapacity >= 0 (src/plan/study-check.ts), and the
   * report's pool lines, slopes and thread-dump reading (src/report)
   */
  pool(e: E): { threads: number; queueCapacity: number } | null;
  /** `e` with its pool's threads and queue capacity replaced (--pool-size, --queue-capacity); `e` itself for a kind whose pool(e) is null */
  withPool(e: E, p: { threads: number; queueCapacity: number }): E;
  /** the thread limit a request meets (src/compute/theory/bounds.ts threadLimit), null when there is none */
  threadLimit(e: E): number | null;
  /**
   * every task runs on a virtual thread of its own: thread dumps count the executor's threads as
   * virtual; the scheduler-delay flag applies; the report looks for a ThreadPerTaskExecutor in dumps
   * and counts its cells' pinning events against the pin rule (src/report/model.ts, sections/published.ts)
   */
  tasksOnVirtualThreads: boolean;
  /**
   * the JDK thread container (`jcmd <pid> Thread.dump_to_file -format=json`, named `<class>@<hash>`)
   * its tasks' threads sit in: the report names the one such container holding the benchmark's
   * threads as the benchmark executor (src/report/model.ts dumpEvidence)
   */
  dumpContainer: RegExp;
}

type KindInfo = { [K in ExecutorSpec['kind']]: ExecutorKindInfo<Extract<ExecutorSpec, { kind: K }>> };

/** Every executor kind the SUT knows, and what the harness needs of it (one place on the harness side). */
export const EXECUTOR_KIND_INFO: Readonly<KindInfo> = {
  'platform-pool': {
    describe: (e) => `platform pool ${e.threads} threads, queue ${e.queueCapacity}`,
    sutProperties: (e) => [['bench.executor.threads', String(e.threads)], ['bench.executor.queue-capacity', String(e.queueCapacity)]],
    pool: (e) => ({ threads: e.threads, queueCapacity: e.queueCapacity }),
    withPool: (_e, p) => ({ kind: 'platform-pool', threads: p.threads, queueCapacity: p.queueCapacity }),
    threadLimit: (e) => e.threads,
    tasksOnVirtualThreads: false,
    dumpContainer: /(^|\.)ThreadPoolExecutor@/,
  },
  'virtual-per-task': {
    describe: () => 'virtual thread per task',
    sutProperties: () => [],
    pool: () => null,
    withPool: (e) => e,
    threadLimit: () => null,
    tasksOnVirtualThreads: true,
    dumpContainer: /ThreadPerTaskExecutor@/,
  },
  'spring-boot-auto': {
    describe: (e) => `Spring Boot's own executors (${e.virtualThreads ? 'virtual threads' : `@Async pool ${e.asyncCoreThreads ?? '?'}, Tomcat ${e.tomcatMaxThreads ?? '?'} threads`})`,
    sutProperties: () => [],
    pool: () => null,
    withPool: (e) => e,
    // a request holds one of Tomcat's worker threads throughout (null on virtual threads)
    threadLimit: (e) => e.tomcatMaxThreads,
    tasksOnVirtualThreads: false,
    // the @Async pool's ThreadPoolExecutor (Spring's ThreadPoolTaskExecutor wraps one)
    dumpContainer: /(^|\.)ThreadPoolExecutor@/,
  },
};

/** The executor kinds the SUT knows. */
export const EXECUTOR_KINDS: readonly ExecutorSpec['kind'][] = Object.keys(EXECUTOR_KIND_INFO) as ExecutorSpec['kind'][];

/** The entry of `e`'s kind in EXECUTOR_KIND_INFO, typed for `e`. */
export function executorInfo(e: ExecutorSpec): ExecutorKindInfo {
  return EXECUTOR_KIND_INFO[e.kind] as ExecutorKindInfo;
}

/**
 * One arm of a comparison. `id` appears in cell ids (`<id>-c<level>-r<repeat>`), file names and
 * summaries, so it is a short slug ([a-z0-9-]); `label` is for people.
 */
export interface Variant {
  id: string;
  label: string;
  executor: ExecutorSpec;
  /** names of the SUT's executor threads: `<prefix><n>` (`bench.executor.thread-name-prefix`) */
  threadNamePrefix: string;
  /** more Spring properties for this variant's SUT, `key -> value` (passed as `--key=value`) */
  sutProperties?: Readonly<Record<string, string>>;
  /**
   * the scenario this variant's cells measure, when a study covers several scenarios in one run
   * (study 002: `io-pool-200`, `cpu-virtual`, `db10-virtual`…: one variant per (scenario, executor,
   * setting)); absent: the run's `options.scenario`. Each cell records its own scenario and L, and the
   * bounds, flags and summaries use the cell's own (src/plan/plan.ts scenarioOfVariant).
   */
  scenario?: string;
}
