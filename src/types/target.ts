/**
 * Contracts of `run.mjs target`: measuring a Spring Boot service vtbench did not build (issue 32).
 * Three tiers, each named in the run and the report:
 * - `black-box`: vtbench is given URLs; it sees only the client side (plus the service's actuator
 *   when it answers);
 * - `jar`: vtbench starts the user's jar once per arm and repeat, with JFR, a JSON thread dump and
 *   JMX samples every 250 ms (sut/agent JmxSampler);
 * - `agent`: `jar` plus the vtbench Java agent (sut/agent), which times each request's wait for a
 *   web-server thread and every executor task it hands off.
 * Times are in the unit their name carries; `…EpochMs` is wall-clock epoch ms.
 */
import type { LoadSummary, Percentiles } from './load.ts';

/** How vtbench reaches the service; see the file comment. */
export type TargetTier = 'black-box' | 'jar' | 'agent';

/** Where a figure of the report came from. */
export type Provenance = 'measured' | 'inferred' | 'unavailable';

/** HTTP methods a request file may use. */
export const TARGET_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export type TargetMethod = (typeof TARGET_METHODS)[number];

/**
 * One request of a request file (one JSON object per line; src/adapters/target/request-file.ts).
 * Header values may hold `${env:NAME}`: resolved from vtbench's environment when the request is sent,
 * stored and reported unresolved (a secret never reaches a run or a report).
 */
export interface TargetRequest {
  /** slug [a-z0-9-], unique in the file; names the request in the report */
  name: string;
  method: TargetMethod;
  /** path and query, starting with `/` */
  path: string;
  headers: Record<string, string>;
  /** sent as-is; absent = no body */
  body?: string;
  /** relative share of the mix, an integer ≥ 1 */
  weight: number;
  /** its line in the file, 1-based */
  line: number;
}

/** The request mix of a run: the file's requests and where they came from. */
export interface RequestMix {
  /** the file as given (relative to the working directory), for the record */
  file: string;
  /** SHA-256 of the file's bytes, hex */
  sha256: string;
  requests: TargetRequest[];
}

/** One arm of a target run: one way the service runs (platform threads, virtual threads, or the user's own). */
export interface TargetArm {
  /** slug [a-z0-9-]: `platform`, `virtual`, or the user's */
  id: string;
  label: string;
  /** black-box: the origin measured (e.g. http://127.0.0.1:8080); jar/agent: null (vtbench starts it) */
  url: string | null;
  /** jar/agent: the Spring properties this arm passes (`--key=value`), e.g. spring.threads.virtual.enabled=true */
  properties: Record<string, string>;
  /** what the arm is meant to run requests on; null = not known (a black-box arm the user named) */
  virtualThreads: boolean | null;
}

/** One line of the JMX sampler (sut/agent JmxSampler), every `intervalMs`. Null = not read (MBean absent or −1). */
export interface JmxSample {
  tEpochMs: number;
  /** the JVM's CPU time so far, ns (OperatingSystem ProcessCpuTime) */
  cpuNs: number | null;
  /** 0..1 of the whole machine (ProcessCpuLoad) */
  cpuLoad: number | null;
  heapUsedBytes: number | null;
  heapCommittedBytes: number | null;
  rssBytes: number | null;
  /** live platform threads (ThreadMXBean ThreadCount) */
  threads: number | null;
  gcCount: number | null;
  gcTimeMs: number | null;
  /** jdk.management:type=VirtualThreadScheduler */
  vt: { parallelism: number | null; poolSize: number | null; mounted: number | null; queued: number | null } | null;
  /** Tomcat:type=ThreadPool,name=* (needs server.tomcat.mbeanregistry.enabled=true); `max` is −1/null on virtual threads */
  tomcat: { name: string; busy: number | null; threads: number | null; max: number | null; conns: number | null; maxConns: number | null }[];
  /** com.zaxxer.hikari:type=Pool (*) and type=PoolConfig (*) (needs spring.datasource.hikari.register-mbeans=true) */
  hikari: { pool: string; active: number | null; idle: number | null; pending: number | null; total: number | null; max: number | null }[];
  /** the CPUs the JVM sees (actuator `system.cpu.count`, black box); absent/null when not read (jar tiers have TargetJvmInfo.availableProcessors) */
  cpus?: number | null;
  /** how the sample was read: JMX (jar/agent tiers) or the service's actuator (black box) */
  source: 'jmx' | 'actuator';
}

/** The target JVM as the sampler first saw it (the JmxSampler's `info` line). */
export interface TargetJvmInfo {
  vmVendor: string;
  vmVersion: string;
  javaVersion: string;
  /** JVM flags, secrets redacted (`***`) */
  inputArguments: string[];
  availableProcessors: number;
  pid: number;
}

/** Pinning and submit failures of one cell, from JFR (`jdk.VirtualThreadPinned`, `jdk.VirtualThreadSubmitFailed`). */
export interface PinEvents {
  /** the recording's threshold for jdk.VirtualThreadPinned, ms */
  thresholdMs: number;
  total: number;
  /** by `pinnedReason`, class names folded to their kind (DESIGN.md: JDK 25 puts class names in it) */
  byReason: Record<string, number>;
  /** by the top application frame of the event's stack (`Class.method`) */
  byTopFrame: Record<string, number>;
  /** longest pinned event, ms; null when none */
  maxMs: number | null;
  submitFailed: number;
}

/** One request the agent (tier 3) saw, keyed by the id the load generator sent. */
export interface AgentRecord {
  /** the `x-vtbench-id` header: closed loop `<prefix><worker>-<seq>`, open loop `<prefix>o-<i>`, prefix = the cell's TargetCell.idPrefix (src/compute/target/agent.ts requestIdOf) */
  id: string;
  /** submit → start of the web-server task that served it, ns; null when not seen */
  webWaitNs: number | null;
  /** the servlet container's service() entry → exit, ns */
  serviceNs: number | null;
  tasks: { executor: string; waitNs: number; runNs: number }[];
}

/** One limit of the service that can cap its throughput (the caps inventory). */
export type CapKind = 'tomcat-threads' | 'tomcat-connections' | 'hikari-pool' | 'async-concurrency-limit' | 'http-client-dispatcher' | 'carriers' | 'cpu';

export interface Cap {
  kind: CapKind;
  /** the pool or connector it belongs to (`http-nio-8080`, `HikariPool-1`), or null */
  name: string | null;
  /** its size (threads, connections, cores); null when unknown */
  limit: number | null;
  /** where `limit` came from */
  provenance: Provenance;
  /** how: `jmx`, `actuator`, `jvm`, `cpu-time`, or the reason it is unavailable */
  source: string;
  /**
   * the throughput it allows, req/s, if every request held it for the whole R(1) (limit / R(1)); for
   * `cpu`: cores / CPU-seconds per request (study 002's CPU bound). Null when not computable.
   */
  boundRps: number | null;
}

/** How one cap was used in one cell (from the samples taken during the cell's measured phase). */
export interface CapUse {
  kind: CapKind;
  name: string | null;
  /** samples read in the cell */
  samples: number;
  busyMax: number | null;
  busyMean: number | null;
  /** waiting for it (Hikari pending, VT scheduler queued), max over the samples; null when not read */
  waitingMax: number | null;
  /** share of samples with busy ≥ limit or waiting > 0 (CPU: ≥ 95 % of the cores), 0..1 */
  saturatedShare: number | null;
  /** saturatedShare ≥ 0.5 */
  saturated: boolean;
}

/** The alone probe of one arm and repeat: one request at a time, back to back (R(1)). */
export interface TargetProbe {
  arm: string;
  repeat: number;
  requests: number;
  ok: number;
  /** e2e percentiles of the probe's successes, ms */
  e2eMs: Percentiles | null;
}

/** One measured cell of a target run, as stored in `cells/<id>.json`. */
export interface TargetCell {
  /** `<arm>-c<level>-r<repeat>` (closed loop) or `<arm>-rate<rate>-r<repeat>` (open loop) */
  id: string;
  arm: string;
  /** closed loop: workers; open loop: arrivals per second */
  level: number;
  repeat: number;
  mode: 'closed-loop' | 'open-loop';
  /**
   * prepended to every `x-vtbench-id` the cell sent (`<cell id>.`, e.g. `fixed-c100-r1.`), so agent
   * records of another cell, the warm-up or the probe never match; absent in cells measured before it
   */
  idPrefix?: string;
  startedAt: string;
  endedAt: string;
  /** epoch ms of the load generator's t0 and of its last answer: the measured phase */
  t0EpochMs: number;
  endEpochMs: number;
  summary: LoadSummary;
  /** per request of the mix, by name */
  byRequest: Record<string, { count: number; ok: number; e2eMs: Percentiles | null }>;
  /** the target's CPU over the measured phase, CPU-seconds; null when not read (black box) */
  targetCpuS: number | null;
  /** the harness's own CPU over the measured phase (this process), CPU-seconds */
  harnessCpuS: number | null;
  /**
   * share of all the host's CPUs busy over the cell (/proc/stat, every process: the target, the
   * harness, a database), 0..1; null when not read. On a host the target shares, this is the CPU cap
   * that matters: the target's own CPU can stay below its cores while the machine is full.
   */
  hostCpuBusyShare?: number | null;
  /** JFR counts in the measured phase; null when not recorded (black box) */
  pins: PinEvents | null;
  /** the cell's thread dump summary file (`threaddumps/<id>.summary.json`), when one was taken */
  threadDump: string | null;
  /** agent tier: per-request web-server wait and hand-off wait/run, summarised; null otherwise */
  agent: AgentCellSummary | null;
}

/** The agent's records of one cell, summarised (the raw records stay in `cells/<id>.agent.json.gz`). */
export interface AgentCellSummary {
  /** records matched to a request the generator sent */
  matched: number;
  /** requests sent in the measured phase */
  sent: number;
  webWaitMs: Percentiles | null;
  serviceMs: Percentiles | null;
  /** per executor class: submit → start and start → end of the tasks requests handed to it */
  byExecutor: Record<string, { tasks: number; waitMs: Percentiles | null; runMs: Percentiles | null }>;
}

/**
 * What the agent adds to each task handed to an executor: `TaskCostBench` (sut/agent) without and with
 * the agent, `rounds` times each, the order alternating; medians over rounds, ns per task.
 */
export interface AgentCost {
  measuredAt: string;
  jdk: string;
  tasks: number;
  rounds: number;
  rows: AgentCostRow[];
}

/** One executor's row of AgentCost: medians over rounds, ns per task; ratio = with / without. */
export interface AgentCostRow {
  executor: string;
  rounds: number;
  withoutNs: number;
  withNs: number;
  addedNs: number;
  ratio: number;
  /** min and max over rounds, ns per task */
  withoutRange: [number, number];
  withRange: [number, number];
}

/** What a target run is: stored as `manifest.json` (`kind: 'target'`). */
export interface TargetManifest {
  kind: 'target';
  schemaVersion: 1;
  runId: string;
  createdAt: string;
  tier: TargetTier;
  /** jar/agent: the jar as given and its SHA-256; null for black box */
  jar: { path: string; sha256: string; args: string[]; env: string[]; jvmArgs?: string[] } | null;
  mix: RequestMix;
  arms: TargetArm[];
  /** closed-loop worker counts, or open-loop arrival rates (req/s) */
  levels: number[];
  mode: 'closed-loop' | 'open-loop';
  repeats: number;
  requestsPerWorker: number;
  /** open loop: the schedule's length per cell, s */
  durationS: number | null;
  /** open loop: how arrivals are spaced, the Poisson seed, the most requests in flight (a send beyond it is refused and counted) and the warm-up at the highest rate, s; absent/null for closed loop */
  openLoop?: { arrival: 'constant' | 'poisson'; seed: number; maxInFlight: number; warmupS: number } | null;
  warmupRequestsPerWorker: number;
  aloneProbeRequests: number;
  samplerIntervalMs: number;
  pinThresholdMs: number;
  /** a PostgreSQL vtbench started for the target (`--target-db postgres`), its version; null when none */
  db: { serverVersion: string } | null;
  /** the mock LLM vtbench started for the target (`--target-mock`): its latency, ms; absent/null when none */
  mock?: { latencyMs: number } | null;
  /** agent tier: the agent's own cost per task, measured on this host at the run's start (absent in runs before it was measured) */
  agentCost?: AgentCost | null;
  /** per arm id: the JVM the sampler saw (jar/agent), first repeat */
  jvm: Record<string, TargetJvmInfo>;
  host: { cpus: number; cpuModel: string; kernel: string; node: string };
  probes: TargetProbe[];
  /** cells that failed, with why (a dead target, a timeout): never measurements */
  failed: { id: string; reason: string; logTail?: string }[];
  finishedAt: string | null;
}
