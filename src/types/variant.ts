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

/** The executor kinds the SUT knows (one place on the harness side). */
export const EXECUTOR_KINDS: readonly ExecutorSpec['kind'][] = ['platform-pool', 'virtual-per-task', 'spring-boot-auto'];

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
