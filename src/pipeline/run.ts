/**
 * The run pipeline: plan -> (mock + SUT JVM blocks + closed-loop load) -> runs/<id>/.
 *
 * One mock process for the whole run; a fresh SUT JVM per (variant, repeat) block with the
 * variant's executor and properties and the profile's JVM flags; a warm-up in each JVM; cells in
 * plan order, each loaded by the driver of the run's scenario (src/load/driver.ts); after every cell the cell file and
 * summary.json are written atomically, so a killed run keeps every finished cell and `--resume`
 * continues with the first missing one.
 *
 * Liveness: every child the run depends on (the mock, the block's SUT) is checked before each cell,
 * polled during the warm-up and each cell, and checked again after it (liveness.ts). A cell during
 * which one died, or in which no request succeeded, is not written: it is recorded as failed
 * (failed-cells.ts) and the run stops with EXIT.notReady; `--resume` starts fresh children and
 * measures exactly the missing and failed cells. The mock's statistics are reset before each cell's
 * load, so the figures stored with a cell describe that cell alone (`mock.scope = 'cell'`).
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { setMaxListeners } from 'node:events';
import { driverFor, withShards, type Driver } from '../load/driver.ts';
import { withPodShard, type PodShard } from './pod-shard.ts';
import type { LoadResult, LoadSummary } from '../types/load.ts';
import { levelsOf, scenarioOfVariant, warmupSendUntilMs, type Plan, type PlannedBlock, type PlannedCell } from '../plan/plan.ts';
import { resumeArg } from '../adapters/store/resume-arg.ts';
import { dbSutProperties, type DbHandle } from '../adapters/db/postgres.ts';
import { executorInfo, type Scenario, type Study, type Variant } from '../types/study.ts';
import { RunStore, compactRequests } from '../adapters/store/run-store.ts';
import { buildSummary } from '../compute/analysis/summary.ts';
import { cellHistograms } from '../compute/stats/hdr.ts';
import type { CompactRequests } from '../types/run.ts';
import { SCHEMA_VERSION, type AloneProbe, type CellResult, type PinnedDelta, type ResolvedOptions, type RunManifest } from '../types/run.ts';
import type { PinnedResponse, SutInfo, SutSample } from '../types/sut-api.ts';
import { summarizeThreadDump } from '../adapters/jvm/threaddump.ts';
import { countsDelta } from '../compute/stats/aggregate.ts';
import { computeFlags, generatorDelayThresholdMs } from '../compute/analysis/flags.ts';
import { readCpuTicks, hostCpuPct, readRunCpu, cpusAllowedOf } from '../adapters/host/host.ts';
import { otherCpuShare } from '../compute/analysis/other-cpu.ts';
import { setProcessAffinity } from '../adapters/host/affinity.ts';
import { processTreeCpuMs } from '../adapters/process/proc-cpu.ts';
import { startComponentCpuSampler } from '../adapters/process/cpu-sampler.ts';
import { ChildRegistry } from '../adapters/process/children.ts';
import { timedStart, type Emit } from './events.ts';
import { awaitDump, scheduleDump } from './thread-dump-schedule.ts';
import { LivenessWatch, checkNow, type Death, type LivenessOptions, type Watched } from '../adapters/process/liveness.ts';
import { recordFailedCell, clearFailedCell, unusableLoad, failedCellPath } from './failed-cells.ts';
import { ComponentDiedError } from '../load/component-died.ts';
import { MalformedAnswerError } from '../adapters/store/answers.ts';
import { VtbenchError, EXIT } from '../types/errors.ts';

export type { SutHandle, MockHandle, RunDeps } from './deps.ts';
import type { MockHandle, RunDeps, SutHandle } from './deps.ts';

export interface RunContext {
  /** the run's study (a registered one, or any Study object: the pipeline reads nothing else about it) */
  study: Study;
  options: Readonly<ResolvedOptions>;
  plan: Plan;
  store: RunStore;
  manifest: RunManifest;
  deps: RunDeps;
  emit: Emit;
  signal: AbortSignal;
  children: ChildRegistry;
  /** liveness polling policy (tests shorten it); default DEFAULT_LIVENESS */
  liveness?: Partial<LivenessOptions>;
  /**
   * the run's database is an external server (`--db-url`): `deps.startDb` only connects to it, so no
   * `starting`/`started` lines (nothing is started). Absent or false: the run starts its own PostgreSQL.
   */
  externalDb?: boolean;
  /**
   * this process is one shard of a multi-host run (`run.mjs shard`): every load runs its share of the
   * workers, in step with the other shards (src/pipeline/pod-shard.ts). Absent: the whole load is this
   * process's (or its `--shards` children's on this host).
   */
  pod?: PodShard;
}

/** Samples are pulled from the SUT this often during a cell, so the SUT's ring buffer never wraps. */
const SAMPLE_PULL_MS = 5000;

/** How long after the load and its checks a cell waits for its mid-load thread dump (then stored without one). */
const DUMP_WAIT_MS = 10_000;

/**
 * Run every block of the plan that still has missing cells. Resolves when all cells are done;
 * rejects with the first error (the caller marks the manifest failed and stops the children).
 * On abort, returns early after the current cell's load is aborted (that cell is not written).
 * @throws VtbenchError(EXIT.notReady) when a component died or a cell's result was unusable (the
 *   cell is then in `manifest.failedCells`). Whether every planned cell ended with a valid result is
 *   checked by the caller (main) before it writes the run's status.
 */
export async function executePlan(ctx: RunContext): Promise<void> {
  const unpin = pinHarness(ctx);
  try {
    await executePinned(ctx);
  } finally {
    unpin();
  }
}

/**
 * `--isolate-cpus`: moves every thread of this process (the load generator, and through it the
 * mock, PostgreSQL and load shards it starts, which inherit its CPUs) to the harness's CPUs, and
 * returns what puts it back on the CPUs it had (the SUT's own CPUs are set when its JVM is spawned,
 * src/adapters/jvm/sut-process.ts). Without isolation, nothing.
 * @throws VtbenchError(EXIT.prerequisite) when taskset is missing or refuses
 */
function pinHarness(ctx: RunContext): () => void {
  const iso = ctx.options.cpuIsolation;
  if (!iso) return () => {};
  const set = ctx.deps.setProcessAffinity ?? setProcessAffinity;
  const before = (ctx.deps.cpusAllowed ?? ((p: number) => cpusAllowedOf(p)))(process.pid);
  set(process.pid, iso.harnessCpus);
  ctx.emit({ type: 'info', message: `CPU isolation: harness (load generator, mock, PostgreSQL) on CPUs ${iso.harnessCpus}, SUT JVM on CPUs ${iso.sutCpus}` });
  return () => { if (before !== null) set(process.pid, before); };
}

async function executePinned(ctx: RunContext): Promise<void> {
  const { store, deps, options: o } = ctx;
  const done = store.doneCellIds();
  const pending = ctx.plan.blocks.filter((b) => b.cells.some((c) => !done.has(c.cellId)));
  const needsDb = pending.some((b) => scenarioOfVariant(ctx.study, o, b.variant).usesDb === true);
  const mock = await deps.startMock({ port: o.mockPort, latencyMs: o.latencyMs, logFile: join(store.logsDir, 'mock.log'), signal: ctx.signal, ...(o.mockFaults ? { faults: o.mockFaults } : {}), ...(o.mockStreamHeaders ? { streamHeaders: o.mockStreamHeaders } : {}) });
  if (mock.pid !== null) ctx.children.add({ pid: mock.pid, role: 'mock', marker: mock.marker, stop: mock.stop });
  recordAffinity(ctx, 'harness', process.pid);
  if (mock.pid !== null) recordAffinity(ctx, 'mock', mock.pid);
  store.writeManifest(ctx.manifest);
  let db: DbHandle | null = null;
  try {
    if (needsDb) {
      if (!deps.startDb) throw new VtbenchError('a scenario of this plan queries PostgreSQL, but the run has no database', 'run it through run.mjs (it starts PostgreSQL or uses --db-url)', EXIT.prerequisite);
      const startDb = deps.startDb;
      const connect = () => startDb({ maxPool: maxDbPool(pending.map((b) => b.variant)), logFile: join(store.logsDir, 'postgres.log') });
      // an external database (--db-url) starts nothing: no progress lines for it, as for --sut-url
      db = ctx.externalDb === true ? await connect() : await timedStart(ctx.emit, 'postgres', undefined, connect);
      if (db.pid !== null) ctx.children.add({ pid: db.pid, role: 'postgres', marker: db.marker, stop: db.stop });
      if (db.pid !== null) recordAffinity(ctx, 'postgres', db.pid);
      ctx.manifest.db = db.info;
      store.writeManifest(ctx.manifest);
      ctx.emit({ type: 'info', message: `  PostgreSQL ${db.info.serverVersion} at ${db.info.url} (${db.info.kind}; max_connections ${db.info.settings['max_connections'] ?? '?'}; orders ${db.info.ordersRows} rows)` });
    }
    for (const block of ctx.plan.blocks) {
      if (ctx.signal.aborted) return;
      const todo = block.cells.filter((c) => !done.has(c.cellId));
      if (todo.length === 0) continue;
      await runBlock(ctx, block, todo, mock, db);
    }
  } finally {
    if (db) {
      await db.stop();
      if (db.pid !== null) ctx.children.remove(db.pid);
    }
    await mock.stop();
    if (mock.pid !== null) ctx.children.remove(mock.pid);
  }
}

/**
 * Records in the manifest (not yet written) the CPUs process `pid` of `role` may run on
 * (RunManifest.affinity; deps.cpusAllowed or /proc/<pid>/status). A later start of the same role
 * (a resumed run) replaces the entry.
 */
function recordAffinity(ctx: Pick<RunContext, 'manifest' | 'deps'>, role: string, pid: number): void {
  const read = ctx.deps.cpusAllowed ?? ((p: number) => cpusAllowedOf(p));
  ctx.manifest.affinity = { ...(ctx.manifest.affinity ?? {}), [role]: { pid, cpus: read(pid) } };
}

/** Hikari's default `maximumPoolSize` (the SUT's `bench.db.pool-size` default, HikariCP's own). */
export const HIKARI_DEFAULT_POOL = 10;

/** The largest Hikari pool of these variants (`bench.db.pool-size`, default HIKARI_DEFAULT_POOL). */
export function maxDbPool(variants: readonly Variant[]): number {
  return Math.max(HIKARI_DEFAULT_POOL, ...variants.map((v) => Number(v.sutProperties?.['bench.db.pool-size'] ?? HIKARI_DEFAULT_POOL)));
}

/** The mock route every successful request of a scenario reaches at least once; null: none (flags.ts mockDisagreement). */
export function mockRouteOf(s: Pick<Scenario, 'usesMock' | 'usesDelayRoute'>): 'chat' | 'delay' | null {
  return s.usesMock ? 'chat' : s.usesDelayRoute ? 'delay' : null;
}

/**
 * The SUT JVM's properties for a block beyond the variant's own: the database (`bench.db.*`) when
 * the block's scenario queries one, the mock's origin (`bench.http.base-url`) when it calls the
 * mock's delay route, and what the scenario takes from the run's earlier JVMs
 * (Scenario.sutPropertiesFromRun over `runSut`, the manifest's `sut` so far). The variant's own
 * properties win on a clash. Pure.
 */
export function blockSutProperties(scenario: Scenario, variant: Variant, mockUrl: string, db: DbHandle | null, runSut: Readonly<Record<string, unknown>> = {}): Record<string, string> | null {
  const extra: Record<string, string> = {};
  if (scenario.usesDb && db) Object.assign(extra, dbSutProperties(db.target));
  if (scenario.usesDelayRoute) extra['bench.http.base-url'] = mockUrl;
  if (scenario.sutPropertiesFromRun) Object.assign(extra, scenario.sutPropertiesFromRun(runSut));
  if (Object.keys(extra).length === 0) return null;
  return { ...extra, ...(variant.sutProperties ?? {}) };
}

async function runBlock(ctx: RunContext, block: PlannedBlock, todo: PlannedCell[], mock: MockHandle, db: DbHandle | null): Promise<void> {
  const { store, deps, options: o } = ctx;
  ctx.emit({ type: 'block-start', blockId: block.blockId });
  const blockScenario = scenarioOfVariant(ctx.study, o, block.variant);
  const props = blockSutProperties(blockScenario, block.variant, mock.url, db, ctx.manifest.sut);
  const sutVariant: Variant = props === null ? block.variant : { ...block.variant, sutProperties: props };
  const startSut = () => deps.startSut({ variant: sutVariant, options: o, mockUrl: `${mock.url}/v1`, logFile: join(store.logsDir, `sut-${block.blockId}.log`), signal: ctx.signal });
  // an external SUT (--sut-url) starts nothing: no progress lines for it
  const sut = o.sutUrl === undefined ? await timedStart(ctx.emit, 'sut-jvm', block.blockId, startSut) : await startSut();
  if (sut.pid !== null) ctx.children.add({ pid: sut.pid, role: `sut-${block.blockId}`, marker: sut.marker, stop: sut.stop });
  const watched = watchedOf(block, sut, mock, blockScenario.usesDb ? db : null);
  try {
    ctx.manifest.sut[block.blockId] = sut.info;
    if (sut.pid !== null) recordAffinity(ctx, `sut-${block.blockId}`, sut.pid);
    store.writeManifest(ctx.manifest);
    const mismatches = sutMismatches(block.variant, blockScenario, sut.info);
    if (mismatches.length > 0) {
      throw new VtbenchError(
        `the SUT started for block ${block.blockId} is not the one asked for: ${mismatches.join('; ')}; no load was sent to it`,
        `see ${sut.logFile} and manifest.json (sut.${block.blockId}); rebuild the SUT (sut/) if it is older than this harness, then continue with --resume ${resumeArg(ctx.store.dir, ctx.manifest.runId)}`,
        EXIT.notReady,
      );
    }
    if (block.warmup) {
      const sendUntilMs = block.warmup.durationS === undefined ? warmupSendUntilMs(block.warmup, o) : undefined;
      ctx.emit({ type: 'warmup', blockId: block.blockId, workers: block.warmup.workers, requestsPerWorker: block.warmup.requestsPerWorker, ...(block.warmup.durationS !== undefined ? { durationS: block.warmup.durationS } : { sendUntilS: (sendUntilMs ?? 0) / 1000 }), ...(blockScenario.driver === 'websocket' ? { driver: 'websocket' } : {}) });
      const abort = new AbortController();
      const watch = new LivenessWatch(() => watched, ctx.liveness).start(() => abort.abort());
      try {
        const { driver, scenario } = loadOf(ctx, block.variant);
        await driver.run({ ...cellLoad(ctx, scenario, sut.baseUrl, anySignal(ctx.signal, abort.signal), block.cells[0]?.latencyMs ?? ctx.plan.latencyMs), variant: block.variant, concurrency: block.warmup.workers, requestsPerWorker: block.warmup.requestsPerWorker, ...(block.warmup.durationS !== undefined ? { durationS: block.warmup.durationS } : { sendUntilMs }) });
      } catch (e) {
        // a load process (a shard) that died: as a dead SUT or mock
        if (e instanceof ComponentDiedError) throw diedError(ctx, deathOfLoad(e, store.logsDir), `during the warm-up of block ${block.blockId}`, null);
        throw e;
      } finally {
        await watch.stop();
      }
      if (watch.dead) throw diedError(ctx, watch.dead, `during the warm-up of block ${block.blockId}`, null);
    }
    // a pod of a multi-host run sends a share of every load in step with the other pods: one worker cannot be shared
    if (block.aloneProbe && !ctx.pod) await runAloneProbe(ctx, block, block.aloneProbe.requests, sut, watched);
    const maxLevel = Math.max(...levelsOf(o, blockScenario.id).levels);
    for (const cell of todo) {
      if (ctx.signal.aborted) return;
      const before = await checkNow(watched, ctx.liveness);
      if (before) throw diedError(ctx, before, `before cell ${cell.cellId}`, null);
      const result = await runCell(ctx, cell, block.variant, sut, mock, cell.concurrency === maxLevel && blockScenario.threadDump !== false, watched, blockScenario.usesDb || blockScenario.usesDelayRoute ? { db } : null);
      if (result === null) return; // aborted
    }
  } finally {
    await sut.stop();
    if (sut.pid !== null) ctx.children.remove(sut.pid);
  }
}

/**
 * The block's alone probe (Scenario.aloneProbe): one closed-loop worker sends `requests` requests
 * back to back, and the manifest records their means (RunManifest.aloneProbes, aloneProbeOf) before
 * the cells run. Not a cell: nothing is written to `cells/`, and a probe whose every request failed
 * records null means (the report then falls back to the nominal holding times). Sends stop after
 * 4 × the probe's plan + 10 s, so a stalled SUT cannot hold the run. One worker runs in this process
 * whatever `--shards` says (a single worker cannot be split over generator processes); a pod of a
 * multi-host run skips the probe (runBlock).
 * @throws VtbenchError when a watched component died during the probe (as in the warm-up)
 */
async function runAloneProbe(ctx: RunContext, block: PlannedBlock, requests: number, sut: SutHandle, watched: Watched[]): Promise<void> {
  ctx.emit({ type: 'info', message: `alone probe of block ${block.blockId}: 1 worker, ${requests} requests back to back` });
  const abort = new AbortController();
  const watch = new LivenessWatch(() => watched, ctx.liveness).start(() => abort.abort());
  let result: LoadResult;
  try {
    const scenario = scenarioOfVariant(ctx.study, ctx.options, block.variant);
    const driver = driverFor(scenario);
    const sendUntilMs = 4 * (block.aloneProbe?.theoreticalS ?? 0) * 1000 + 10_000;
    result = await driver.run({ ...cellLoad(ctx, scenario, sut.baseUrl, anySignal(ctx.signal, abort.signal), block.cells[0]?.latencyMs ?? ctx.plan.latencyMs), variant: block.variant, concurrency: 1, requestsPerWorker: requests, sendUntilMs });
  } finally {
    await watch.stop();
  }
  if (watch.dead) throw diedError(ctx, watch.dead, `during the alone probe of block ${block.blockId}`, null);
  if (result.aborted) return;
  // a component that died during the probe's last requests (they then fail fast) is named here, and its
  // failed requests are not recorded as the block's probe
  const after = await checkNow(watched, ctx.liveness);
  if (after) throw diedError(ctx, after, `during the alone probe of block ${block.blockId}`, null);
  const probe = aloneProbeOf(result.summary, requests, new Date().toISOString());
  ctx.manifest.aloneProbes = { ...(ctx.manifest.aloneProbes ?? {}), [block.blockId]: probe };
  ctx.store.writeManifest(ctx.manifest);
  ctx.emit({ type: 'info', message: `alone probe of block ${block.blockId}: ${probe.ok}/${probe.requests} ok, E2E mean ${probe.e2eMeanMs === null ? '—' : probe.e2eMeanMs.toFixed(2)} ms, execution mean ${probe.execMeanMs === null ? '—' : probe.execMeanMs.toFixed(2)} ms` });
}

/**
 * An alone probe's record from its load summary: the means of E2E, execution and every Server-Timing
 * step other than queue and exec (null when absent), the E2E P50. Pure.
 */
export function aloneProbeOf(summary: Pick<LoadSummary, 'count' | 'ok' | 'e2eMs' | 'execMs' | 'timingMs'>, requests: number, atIso: string): AloneProbe {
  // count: requests sent in the measured phase (a send deadline may have cut the probe short)
  const stepMeanMs: Record<string, number> = {};
  for (const [k, p] of Object.entries(summary.timingMs ?? {})) if (k !== 'queue' && k !== 'exec' && p !== null && Number.isFinite(p.mean)) stepMeanMs[k] = p.mean;
  return {
    requests,
    sent: summary.count,
    ok: summary.ok,
    e2eMeanMs: summary.ok > 0 ? (summary.e2eMs?.mean ?? null) : null,
    e2eP50Ms: summary.ok > 0 ? (summary.e2eMs?.p50 ?? null) : null,
    execMeanMs: summary.ok > 0 ? (summary.execMs?.mean ?? null) : null,
    stepMeanMs,
    atIso,
  };
}

/**
 * What differs between the SUT a block asked for and the one `/bench/info` describes: the effective
 * variant's executor (variant id, kind, threads, queue capacity, thread-name prefix) and, when the
 * scenario names one (`Scenario.sutScenario`), whether the SUT serves that scenario bean. Each item
 * names the field, the expected and the reported value. Empty when they agree. Pure.
 */
export function sutMismatches(variant: Variant, scenario: Scenario, info: SutInfo): string[] {
  const e = variant.executor;
  const want: [string, unknown][] = [
    ['variant', variant.id],
    ['kind', e.kind],
    ['threads', executorInfo(e).pool(e)?.threads ?? null],
    ['queueCapacity', executorInfo(e).pool(e)?.queueCapacity ?? null],
    ['threadNamePrefix', variant.threadNamePrefix],
  ];
  const got = info.executor as unknown as Record<string, unknown>;
  const out = want
    .filter(([k, v]) => got[k] !== v)
    .map(([k, v]) => `variant ${variant.id}: executor.${k} is ${JSON.stringify(got[k] ?? null)}, expected ${JSON.stringify(v)}`);
  if (e.kind === 'spring-boot-auto') out.push(...bootMismatches(variant.id, e, info.boot ?? null));
  if (scenario.sutScenario !== undefined && !(info.scenarios ?? []).includes(scenario.sutScenario)) {
    out.push(`scenario ${scenario.id}: the SUT serves scenarios ${JSON.stringify(info.scenarios ?? [])}, expected one to be '${scenario.sutScenario}'`);
  }
  return out;
}

/**
 * What differs between a `spring-boot-auto` variant and Boot's executors as the SUT read them back
 * (`/bench/info` `boot`): the async probe's thread kind, the pool's core size, Tomcat's thread kind
 * and its maxThreads in effect. A SUT that did not get `spring.threads.virtual.enabled` (or the
 * Tomcat size) shows here. Pure.
 */
export function bootMismatches(variantId: string, e: Extract<Variant['executor'], { kind: 'spring-boot-auto' }>, boot: SutInfo['boot'] | null): string[] {
  if (!boot) return [`variant ${variantId}: the SUT reported no boot executors (/bench/info boot), expected them read back`];
  const want: [string, unknown, unknown][] = [
    ['asyncProbeVirtual', boot.asyncProbeVirtual, e.virtualThreads],
    ['asyncCorePoolSize', boot.asyncCorePoolSize, e.asyncCoreThreads],
    ['tomcatVirtualThreads', boot.tomcatVirtualThreads, e.virtualThreads],
    ['tomcatMaxThreads', boot.tomcatMaxThreads, e.tomcatMaxThreads],
  ];
  return want.filter(([, g, w]) => g !== w).map(([k, g, w]) => `variant ${variantId}: boot.${k} is ${JSON.stringify(g ?? null)}, expected ${JSON.stringify(w)}`);
}

/**
 * The components a block's cells depend on, for the liveness checks: the mock, the block's SUT and,
 * when the block's scenario queries it, the run's PostgreSQL (own server: its pid and a TCP probe;
 * `--db-url`: the probe alone). A database that dies mid-cell thus fails the cell like a dead SUT,
 * instead of leaving only failed requests (503 `db_pool_exhausted`) in a cell that looks measured.
 */
export function watchedOf(block: Pick<PlannedBlock, 'blockId'>, sut: SutHandle, mock: MockHandle, db: DbHandle | null): Watched[] {
  const out: Watched[] = [
    { role: 'mock LLM', pid: mock.pid, marker: mock.marker, logFile: mock.logFile, probe: (t) => mock.probe(t) },
    { role: `SUT (${block.blockId})`, pid: sut.pid, marker: sut.marker, logFile: sut.logFile, probe: (t) => sut.probe(t) },
  ];
  if (db) out.push({ role: `PostgreSQL (${db.info.kind === 'own' ? 'own server' : '--db-url'})`, pid: db.pid, marker: db.marker, logFile: db.logFile || db.info.url, probe: (t) => db.probe(t) });
  return out;
}

/** The Death of a load process a driver reported (ComponentDiedError); `logFile` is where to read more. */
function deathOfLoad(e: ComponentDiedError, logFile: string): Death {
  return { ...e.death, logFile };
}

/** An AbortSignal that aborts when either does (many workers listen to it). */
function anySignal(a: AbortSignal, b: AbortSignal): AbortSignal {
  const s = AbortSignal.any([a, b]);
  setMaxListeners(0, s);
  return s;
}

/** The one-line error of a dead component, with the log to read and the way to continue. */
function diedError(ctx: RunContext, d: Death, when: string, failedCellId: string | null): VtbenchError {
  const failed = failedCellId ? `; cell ${failedCellId} is recorded as failed, not as a measurement` : '';
  return new VtbenchError(
    `the ${d.role} died ${when} (${d.cause})${failed}`,
    `see ${d.logFile}; continue with --resume ${resumeArg(ctx.store.dir, ctx.manifest.runId)}`,
    EXIT.notReady,
  );
}

/** The study's own line for a cell's job answer (JobAnswerCheck.describe), or undefined when its job has none. */
function jobAnswerLine(ctx: Pick<RunContext, 'study' | 'options' | 'pod'>, variant: Variant, cell: PlannedCell, answer: unknown): string | undefined {
  const job = loadOf(ctx, variant).scenario.job?.(ctx.options, variant, cell.concurrency);
  return job?.answer?.describe?.(job, answer);
}

/** Whether a driver reports requests done as it goes (closed and open loops over HTTP); a job or held connections do not. */
export function driverCounts(d: Pick<Driver, 'level'>): boolean {
  return d.level === 'workers' || d.level === 'rate';
}

/** A variant's scenario (its own, or the run's) and the driver that loads it (src/load/driver.ts). */
function loadOf(ctx: Pick<RunContext, 'study' | 'options' | 'pod'>, variant: Variant): { scenario: Scenario; driver: Driver } {
  const scenario = scenarioOfVariant(ctx.study, ctx.options, variant);
  if (ctx.pod) return { scenario, driver: podDriver(ctx.pod, driverFor(scenario)) };
  return { scenario, driver: withShards(driverFor(scenario), ctx.options.shards ?? 1) };
}

/** One pod-shard driver per (pod, driver kind): its barrier count must run through every load of the run. */
const podDrivers = new WeakMap<PodShard, Driver>();
function podDriver(pod: PodShard, base: Driver): Driver {
  let d = podDrivers.get(pod);
  if (!d) {
    d = withPodShard(base, pod);
    podDrivers.set(pod, d);
  }
  return d;
}

/** What every load of the run shares (the caller adds concurrency and requests per worker); `latencyMs` is the cell's L. */
function cellLoad(ctx: Pick<RunContext, 'options' | 'plan' | 'deps'>, scenario: Scenario, baseUrl: string, signal: AbortSignal, latencyMs: number) {
  return {
    baseUrl,
    controlToken: ctx.deps.controlToken ?? null,
    scenario,
    options: ctx.options,
    lateSendThresholdMs: generatorDelayThresholdMs(latencyMs),
    signal,
  };
}

/**
 * Pinned counts after minus before; null if either is unknown. `flushed` is true only when both
 * reads waited for the SUT's JFR stream to deliver everything committed before them (the SUT's
 * `GET /bench/pinned` does; a SUT without that answer leaves it absent).
 */
export function pinnedDelta(before: PinnedResponse | null, after: PinnedResponse | null): PinnedDelta | null {
  if (!before || !after) return null;
  const delta: PinnedDelta = { thresholdMs: after.thresholdMs, total: after.total - before.total, byReason: countsDelta(before.byReason, after.byReason), submitFailed: after.submitFailedTotal - before.submitFailedTotal };
  if (typeof before.flushed === 'boolean' && typeof after.flushed === 'boolean') delta.flushed = before.flushed && after.flushed;
  return delta;
}

/**
 * Run one cell and write it. Returns the cell, or null when the run was aborted mid-cell (nothing
 * of that cell is written; resume runs it again from the start).
 *
 * `watched` (the mock and the SUT) are polled during the load and checked after it. When one dies,
 * the load is aborted; a cell during which one died, or in which no request succeeded, is recorded
 * as failed (manifest.failedCells + cells/<id>.failed.json), never written as a cell.
 * @throws VtbenchError(EXIT.notReady) for such a failed cell
 */
export async function runCell(ctx: RunContext, cell: PlannedCell, variant: Variant, sut: SutHandle, mock: MockHandle, takeDump: boolean, watched: readonly Watched[], components: { db: DbHandle | null } | null = null): Promise<CellResult | null> {
  const { store, deps, options: o } = ctx;
  ctx.emit({ type: 'cell-start', cellId: cell.cellId, requests: cell.requests, theoreticalS: cell.theoreticalS, counted: driverCounts(loadOf(ctx, variant).driver) });
  const startedAt = new Date();
  const wallStart = Date.now();
  const pinnedBefore = await deps.getPinned(sut.baseUrl);
  // Reset the mock's statistics last before the load: what is read after the cell is this cell alone.
  const mockBefore = await deps.resetMockStats(mock.url);
  const cpuBefore = readCpuTicks();
  const runCpu = deps.readRunCpu ?? (() => readRunCpu());
  const runCpuBefore = runCpu();
  // components: the mock's and the database's CPU over the load (the CPU bound's service demand)
  // an external mock (--mock-url) has no pid here: its CPU is not available, never guessed
  const componentCpu = () => ({ mock: mock.pid !== null ? processTreeCpuMs(mock.pid) : null, db: components?.db?.pid != null ? processTreeCpuMs(components.db.pid) : null });
  const componentsBefore = components ? componentCpu() : null;
  const fail = cellFailer(ctx, cell, startedAt, wallStart);
  const puller = startSamplePuller(deps, sut.baseUrl, wallStart);
  const dump = takeDump ? scheduleDump(() => deps.getThreadDump(sut.baseUrl), wallStart, (cell.theoreticalS * 1000) / 2) : null;
  // stopped as soon as the driver's run settles, before loadCell waits for the liveness watch to stop
  // (up to a probe round): a dump taken then would be of the drained SUT, stored as the mid-load one
  const loadSettled = (): void => { puller.stop(); dump?.cancel(); };
  const { result, loadDied, componentCpuSamples, dead } = await loadCell(ctx, cell, variant, sut, mock, watched, components, loadSettled).finally(loadSettled);
  if (dead) throw fail(dead.cause, dead, result !== null && result.records.length > 0 ? result.summary : null, null);
  if (loadDied || result === null) {
    const d = deathOfLoad(loadDied!, failedCellPath(store, cell.cellId));
    throw fail(d.cause, d, null, null);
  }
  if (result.aborted || ctx.signal.aborted) return null;
  if (result.refused) throw refusedError(cell, result.refused);
  const cpuAfter = readCpuTicks();
  // only when every component is this run's own process: an external SUT, mock or database on this host would count as "other"
  const other = sut.pid !== null && mock.pid !== null && ctx.externalDb !== true ? otherCpuShare(runCpuBefore, runCpu()) : undefined;
  const componentsAfter = components ? componentCpu() : null;
  await sleep(Math.min(2 * o.samplerIntervalMs, 1000)); // let the sampler record the drained state
  await puller.pull();
  puller.throwIfMalformed();
  const [mockAfter, pinnedAfter] = await Promise.all([deps.getMockStats(mock.url), deps.getPinned(sut.baseUrl)]);
  const mockStats: CellResult['mock'] = mockBefore ? { before: mockBefore, after: mockAfter, scope: 'cell' } : { before: null, after: null };
  // After the load: every component still alive and answering, and at least one success.
  const death = await checkNow(watched, ctx.liveness);
  if (death) throw fail(death.cause, death, result.summary, mockStats);
  const unusable = unusableLoad(result.summary);
  if (unusable) throw fail(unusable, null, result.summary, mockStats);
  // a dump the driver took itself (the websocket watchdog's, at the stall) is the cell's dump
  const dumped = result.stallDump ?? (dump ? await awaitDump(dump, DUMP_WAIT_MS) : null);

  const durationMs = Date.now() - wallStart;
  const host = hostCpuPct(cpuBefore, cpuAfter);
  const flags = computeFlags({
    executor: cell.executor,
    latencyMs: cell.latencyMs,
    t0EpochMs: result.t0EpochMs,
    sutSamples: puller.samples,
    load: result.summary,
    eventLoopLagP99Ms: result.loadgen.eventLoopLagP99Ms,
    eventLoopLagMaxMs: result.loadgen.eventLoopLagMaxMs,
    loadgenCpuPct: result.loadgen.cpuPct,
    hostCpuPct: host,
    errorFlagThreshold: o.errorFlagThreshold,
    ...(sut.pid === null || mock.pid === null ? { hostCpuScope: 'generator' as const } : {}),
    ...(other !== undefined ? { otherCpuShare: other } : {}),
    // a pod of a multi-host run shares the mock with the other pods: its figures are not this pod's
    ...(ctx.pod ? {} : { mock: { before: mockBefore, after: mockAfter, route: mockRouteOf(loadOf(ctx, variant).scenario) } }),
  });
  const threadDump = dumped ? writeCellDump(ctx, cell.cellId, variant, dumped) : null;
  const out = cellResultOf({
    cell, o, startedAt, durationMs, result, samples: puller.samples, mock: mockStats, pinned: pinnedDelta(pinnedBefore, pinnedAfter), hostCpuPct: host, flags, threadDump,
    sutPid: sut.pid, componentCpuMs: componentsBefore && componentsAfter ? { mock: diffOrNull(componentsBefore.mock, componentsAfter.mock), db: diffOrNull(componentsBefore.db, componentsAfter.db) } : null, componentCpuSamples,
  });
  if (out.pinned?.flushed === false) ctx.emit({ type: 'info', message: `  ${cell.cellId}: the SUT answered its pinned counts before JFR confirmed delivery (5 s wait timed out); a late pin may be counted in the next cell` });
  const requests = compactRequests(result.records, result.unsent, result.ws);
  out.hdr = cellHistograms(requests);
  if (other !== undefined) out.otherCpuShare = other;
  store.writeCell(out, requests);
  clearFailedCell(store, ctx.manifest, cell.cellId);
  writeSummary(ctx);
  const job = result.job ? { completed: result.job.completed, tasks: result.job.tasks, makespanMs: result.job.makespanMs, submitMs: result.job.submitMs, theoreticalS: cell.theoreticalS } : undefined;
  const answerLine = result.jobAnswer !== undefined ? jobAnswerLine(ctx, variant, cell, result.jobAnswer) : undefined;
  ctx.emit({ type: 'cell-end', cellId: cell.cellId, summary: result.summary, boundRps: cell.boundRps, flags, durationMs, ...(job ? { job } : {}), ...(answerLine !== undefined ? { answerLine } : {}) });
  return out;
}

/**
 * A cell's failure recorder: records the cell as failed (manifest.failedCells + its `.failed.json`,
 * with what was measured of it), emits `cell-failed`, and returns the error the run stops with
 * (diedError when a component died, else "unusable").
 */
function cellFailer(ctx: RunContext, cell: PlannedCell, startedAt: Date, wallStart: number) {
  return (cause: string, death: Death | null, load: LoadSummary | null, mockStats: CellResult['mock'] | null): VtbenchError => {
    const atIso = death?.atIso ?? new Date().toISOString();
    recordFailedCell(ctx.store, ctx.manifest, {
      cellId: cell.cellId, cause, atIso, component: death ? { role: death.role, pid: death.pid } : null,
      startedAt: startedAt.toISOString(), durationMs: Date.now() - wallStart, load, mock: mockStats,
    });
    ctx.emit({ type: 'cell-failed', cellId: cell.cellId, cause });
    if (death) return diedError(ctx, death, `during cell ${cell.cellId}`, cell.cellId);
    return new VtbenchError(`cell ${cell.cellId} is unusable (${cause}); it is recorded as failed, not as a measurement`, `see the logs in ${ctx.store.logsDir}; continue with --resume ${resumeArg(ctx.store.dir, ctx.manifest.runId)}`, EXIT.notReady);
  };
}

/** The error of a cell whose job the SUT refused (a parameter out of its range): measuring it again cannot succeed, so it is not a failed cell to resume. */
function refusedError(cell: PlannedCell, refused: { status: number; message: string }): VtbenchError {
  return new VtbenchError(
    `the SUT refused cell ${cell.cellId} (HTTP ${refused.status}: ${refused.message}); nothing of it was measured`,
    `the plan asks for more than the SUT accepts (its limits: sut/src/main/resources/bench-limits.properties, which the plan check reads too); start a new run within them — --resume would ask again`,
    EXIT.usage,
  );
}

/**
 * Pulls the SUT's samples every SAMPLE_PULL_MS from `wallStart` on, so a long cell never outruns the
 * SUT's ring buffer. A missed pull is retried at the next tick (the gap shows in the samples); a
 * wrong answer is kept and thrown by `throwIfMalformed` after the load.
 */
function startSamplePuller(deps: RunDeps, baseUrl: string, wallStart: number) {
  const samples: SutSample[] = [];
  let since = wallStart - 1;
  let malformed: MalformedAnswerError | null = null;
  const pull = async () => {
    try {
      const got = await deps.getSamples(baseUrl, since);
      for (const s of got) if (s.tEpochMs > since) samples.push(s);
      for (const s of got) if (s.tEpochMs > since) since = s.tEpochMs;
    } catch (e) {
      if (e instanceof MalformedAnswerError) malformed ??= e;
    }
  };
  const timer = setInterval(() => void pull(), SAMPLE_PULL_MS);
  return {
    samples,
    pull,
    stop: () => clearInterval(timer),
    throwIfMalformed: () => {
      if (malformed) throw malformed;
    },
  };
}

/**
 * The cell's load through its driver, with the liveness watch (a death aborts the load) and the
 * components' CPU sampled around it. A load process that died (a shard of --shards K, another pod of
 * a multi-host run) is returned as `loadDied`, not thrown; `dead` is the watched component that died.
 * `loadSettled` is called once the driver's run has settled (resolved or thrown), before the watch is
 * stopped (which can wait out a probe round).
 */
async function loadCell(ctx: RunContext, cell: PlannedCell, variant: Variant, sut: SutHandle, mock: MockHandle, watched: readonly Watched[], components: { db: DbHandle | null } | null, loadSettled: () => void) {
  const cellAbort = new AbortController();
  const watch = new LivenessWatch(() => watched, ctx.liveness).start(() => cellAbort.abort());
  // the same components' CPU (and the generator's, one shard only) on a timer, bracketing the load; a pod shard (run.mjs shard) generates its share in this process
  const cpuSampler = startComponentCpuSampler({ loadgenInProcess: (ctx.options.shards ?? 1) <= 1 || ctx.pod !== undefined, mockPid: components ? mock.pid : null, dbPid: components?.db?.pid ?? null });
  let result: LoadResult | null = null;
  let loadDied: ComponentDiedError | null = null;
  let componentCpuSamples: CellResult['componentCpuSamples'] = [];
  try {
    const { driver, scenario } = loadOf(ctx, variant);
    cpuSampler.sample();
    result = await driver.run(
      { ...cellLoad(ctx, scenario, sut.baseUrl, anySignal(ctx.signal, cellAbort.signal), cell.latencyMs), variant, concurrency: cell.concurrency, requestsPerWorker: cell.requestsPerWorker },
      { progress: (done, total) => ctx.emit({ type: 'progress', cellId: cell.cellId, done, total }) },
    );
  } catch (e) {
    if (!(e instanceof ComponentDiedError)) throw e;
    loadDied = e;
  } finally {
    loadSettled();
    cpuSampler.sample();
    componentCpuSamples = cpuSampler.stop();
    await watch.stop();
  }
  return { result, loadDied, componentCpuSamples, dead: watch.dead };
}

/** Summarise and store a cell's thread dump; null (and an info line) when it cannot be read. */
function writeCellDump(ctx: RunContext, cellId: string, variant: Variant, dumped: { raw: string; atMs: number }): CellResult['threadDump'] {
  try {
    const threadDump = summarizeThreadDump(dumped.raw, `threaddumps/${cellId}.json.gz`, dumped.atMs, variant.threadNamePrefix, variant.executor.kind);
    ctx.store.writeThreadDump(cellId, dumped.raw, threadDump);
    return threadDump;
  } catch (e) {
    ctx.emit({ type: 'info', message: `  thread dump of ${cellId} unreadable: ${(e as Error).message}` });
    return null;
  }
}

/**
 * The cell file's content from what the cell measured. The samples kept are those from one sampler
 * interval before t0 to two after the load's last end (a WebSocket cell's load lasts through its
 * window and grace, not only its handshakes). A study's own job answer goes to the stored slot
 * `sweep` (CellResult.sweep). Pure.
 */
export function cellResultOf(m: {
  cell: PlannedCell; o: ResolvedOptions; startedAt: Date; durationMs: number; result: LoadResult; samples: readonly SutSample[]; mock: CellResult['mock'];
  pinned: PinnedDelta | null; hostCpuPct: number | null; flags: CellResult['flags']; threadDump: CellResult['threadDump']; sutPid: number | null;
  componentCpuMs: CellResult['componentCpuMs'] | null; componentCpuSamples: CellResult['componentCpuSamples'];
}): CellResult {
  const { cell, o, result } = m;
  const t0 = result.t0EpochMs;
  let lastEndMs = 0;
  for (const r of result.records) if (r.endMs > lastEndMs) lastEndMs = r.endMs; // no spread: cells can hold >100k records
  const ws = result.summary.websocket;
  if (ws) lastEndMs = Math.max(lastEndMs, ws.windowEndMs + ws.graceMs);
  const endEpoch = t0 + lastEndMs;
  return {
    schemaVersion: SCHEMA_VERSION,
    cellId: cell.cellId,
    variant: cell.variant,
    scenario: cell.scenario,
    executor: cell.executor,
    concurrency: cell.concurrency,
    repeat: cell.repeat,
    requestsPerWorker: cell.requestsPerWorker,
    latencyMs: cell.latencyMs,
    start: o.start,
    startedAt: m.startedAt.toISOString(),
    t0EpochMs: t0,
    durationMs: m.durationMs,
    load: result.summary,
    samples: m.samples.filter((s) => s.tEpochMs >= t0 - o.samplerIntervalMs && s.tEpochMs <= endEpoch + 2 * o.samplerIntervalMs),
    mock: m.mock,
    pinned: m.pinned,
    loadgen: { eventLoopLagP99Ms: result.loadgen.eventLoopLagP99Ms, eventLoopLagMaxMs: result.loadgen.eventLoopLagMaxMs, cpuPct: result.loadgen.cpuPct, hostCpuPct: m.hostCpuPct },
    flags: m.flags,
    threadDump: m.threadDump,
    ...(m.sutPid !== null ? { sutPid: m.sutPid } : {}),
    ...(m.componentCpuMs ? { componentCpuMs: m.componentCpuMs } : {}),
    componentCpuSamples: m.componentCpuSamples,
    ...(result.job !== undefined ? { job: result.job } : {}),
    ...(result.jobAnswer !== undefined ? { sweep: result.jobAnswer } : {}),
    ...(result.shards !== undefined ? { shards: result.shards } : {}),
  };
}

/** b − a, or null when either is unknown or the difference is negative (a restarted process). */
function diffOrNull(a: number | null, b: number | null): number | null {
  return a === null || b === null || b < a ? null : b - a;
}

/** Rebuild summary.json from every finished cell on disk. */
export function writeSummary(ctx: Pick<RunContext, 'store' | 'manifest'>): void {
  const { store, manifest } = ctx;
  const cells = store.readDoneCells(manifest.cellOrder);
  const requests = new Map<string, CompactRequests>();
  for (const c of cells) {
    try {
      requests.set(c.cellId, store.readRequests(c.cellId));
    } catch {
      /* unreadable: that row's pooled percentiles become null */
    }
  }
  store.writeSummary(buildSummary(manifest, cells, requests));
}
