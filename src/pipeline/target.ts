/**
 * A target run (issue 32): measure a service vtbench did not build, per arm, level and repeat.
 *
 * Order: (a PostgreSQL and the mock LLM for the target when asked; {mockUrl}, {dbUrl}, … filled in
 * the user's arguments) → (agent tier: the agent's own cost per task, TaskCostBench without and with
 * it, once per run) → per repeat, per arm: start the jar (tier
 * `jar`/`agent`: JFR with the pinning events, a JMX port, the agent when asked) and its JMX sampler,
 * or take the arm's URL (black box: its actuator sampled when it answers) → warm-up → the alone
 * probe R(1) → each level, lowest first: a closed-loop (or open-loop) cell, its samples, its JFR events, a thread
 * dump mid-cell at the highest level, the agent's records → stop. Every finished cell is written
 * atomically at once (`cells/<id>.json`, `.requests.json.gz`, `.samples.json.gz`); a run started again
 * with the same `--run-id` skips the cells it finds. A target that dies mid-cell gives a failed cell
 * (`cells/<id>.failed.json`, never a measurement) and stops the run with exit 6.
 */
import { mkdirSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runClosedLoop } from '../load/run.ts';
import { runOpenLoop } from '../load/open-loop.ts';
import { summarizeByRequest } from '../load/summarize.ts';
import type { LoadOptions, LoadResult, OpenLoopOptions } from '../types/load.ts';
import type { AgentCellSummary, AgentRecord, JmxSample, TargetArm, TargetCell, TargetManifest, TargetProbe, TargetRequest } from '../types/target.ts';
import type { Jdk } from '../adapters/jvm/jdk.ts';
import { writeJsonAtomic, writeGzJsonAtomic } from '../adapters/store/fsio.ts';
import { compactRequests } from '../adapters/store/run-store.ts';
import { storedRequests } from '../adapters/store/requests-codec.ts';
import { startTargetJar, jcmdThreadDump, type TargetProcess } from '../adapters/target/jar-process.ts';
import { startJmxSampler, jmxFlags, type JmxSamplerHandle } from '../adapters/target/jmx-sampler.ts';
import { startActuatorSampler } from '../adapters/target/actuator.ts';
import { jfrStartFlag, dumpJfr, readJfrEvents } from '../adapters/target/jfr.ts';
import { agentFlag, fetchAgentRecords } from '../adapters/target/agent-client.ts';
import { loadMixOf } from '../compute/target/mix.ts';
import { pinEventsIn } from '../compute/target/pins.ts';
import { agentCellSummary } from '../compute/target/agent.ts';
import { cellThroughputRps } from '../compute/target/inference.ts';
import { summarizeThreadDump } from '../adapters/jvm/threaddump.ts';
import { freePort, startPostgres, findPgBinaries, type DbHandle } from '../adapters/db/postgres.ts';
import { startMockProcess, type MockProcess } from '../adapters/process/mock-process.ts';
import { measureAgentCost } from '../adapters/target/agent-cost.ts';
import { costIsMeasured } from '../compute/target/agent-cost.ts';
import { fillPlaceholders, redactArgs, shortenPaths } from '../compute/target/placeholders.ts';
import { EXIT, VtbenchError } from '../types/errors.ts';
import { interruptedError } from '../adapters/jvm/build.ts';
import { readCpuTicks } from '../adapters/host/host.ts';

/** How often a load phase checks that the target still lives, ms. */
export const ALIVE_POLL_MS = 500;

/** TaskCostBench rounds (each: one JVM without the agent, one with it) and timed tasks per executor, for a run's agent cost. */
export const AGENT_COST_ROUNDS = 3;
export const AGENT_COST_TASKS = 200_000;

/** The header each measured request carries (closed loop `<cell id>.<worker>-<seq>`, open loop `<cell id>.o-<i>`; warm-up `w…`, probe `<worker>-<seq>`), for the agent's records. */
export const REQUEST_ID_HEADER = 'x-vtbench-id';

/** Everything a target run needs, resolved by the CLI (src/cli/commands/target.ts). */
export interface TargetRunOptions {
  manifest: TargetManifest;
  runDir: string;
  /** jar/agent tiers: the JDK that starts the jar and the sampler; null for black box */
  jdk: Jdk | null;
  /** sut/agent/target/vtbench-agent.jar (sampler, agent), built; null for black box */
  agentJar: string | null;
  /** the user's JVM flags (`--target-jvm-arg`, e.g. --enable-preview), before vtbench's own */
  jvmArgs: string[];
  /** the user's arguments for the jar as given (the manifest keeps a redacted copy; these are never recorded) */
  userArgs: string[];
  /** environment for the target (values never recorded) */
  targetEnv: Record<string, string>;
  /** the port the target listens on */
  port: number;
  readyTimeoutMs: number;
  /** per request: connect / headers / body timeouts, ms */
  timeoutMs: number;
  /** lines of progress and results (stderr) */
  log(line: string): void;
  signal?: AbortSignal;
}

/** `<arm>-c<workers>-r<repeat>` (closed loop) or `<arm>-rate<req/s>-r<repeat>` (open loop). */
export function targetCellId(mode: TargetManifest['mode'], arm: string, level: number, repeat: number): string {
  return mode === 'open-loop' ? `${arm}-rate${level}-r${repeat}` : `${arm}-c${level}-r${repeat}`;
}

/**
 * The options of one open-loop phase against `baseUrl`: arrivals at `ratePerS` for `durationS`, the
 * mix's headers resolved from the environment now.
 */
function openLoopOptions(m: TargetManifest, baseUrl: string, ratePerS: number, durationS: number, timeoutMs: number, signal: AbortSignal, idPrefix = ''): OpenLoopOptions {
  const ol = m.openLoop!;
  const first = m.mix.requests[0]!;
  return {
    url: baseUrl,
    path: first.path,
    method: 'GET',
    mix: loadMixOf(m.mix.requests, process.env),
    idHeader: REQUEST_ID_HEADER,
    idPrefix,
    arrivalRatePerS: ratePerS,
    durationS,
    arrival: ol.arrival,
    seed: ol.seed,
    maxInFlight: ol.maxInFlight,
    connectTimeoutMs: Math.min(timeoutMs, 10_000),
    headersTimeoutMs: timeoutMs,
    bodyTimeoutMs: timeoutMs,
    signal,
  };
}

/** The load options of one closed-loop phase against `baseUrl`, the mix's headers resolved from the environment now. */
function loadOptions(mix: readonly TargetRequest[], baseUrl: string, concurrency: number, n: number, timeoutMs: number, signal: AbortSignal, warmup = 0, idPrefix = ''): LoadOptions {
  const first = mix[0]!;
  return {
    url: baseUrl,
    path: first.path,
    method: 'GET',
    // headers resolved from the environment here, for this phase only: never stored
    mix: loadMixOf(mix, process.env),
    idHeader: REQUEST_ID_HEADER,
    idPrefix,
    concurrency,
    requestsPerWorker: n,
    warmupRequestsPerWorker: warmup,
    start: 'together',
    rampMs: 0,
    connectTimeoutMs: Math.min(timeoutMs, 10_000),
    headersTimeoutMs: timeoutMs,
    bodyTimeoutMs: timeoutMs,
    signal,
  };
}

/** The samples of [fromMs, toMs] (epoch). */
function samplesIn(samples: readonly JmxSample[], fromMs: number, toMs: number): JmxSample[] {
  return samples.filter((s) => s.tEpochMs >= fromMs && s.tEpochMs <= toMs);
}

/**
 * CPU-seconds the target used over [fromMs, toMs] (epoch ms), from the JVM's own ProcessCpuTime,
 * interpolated linearly between the readings around each edge; null when an edge lies outside the
 * readings (a cell shorter than the sampling reaches, or samples missing).
 */
export function cpuSecondsOf(samples: readonly JmxSample[], fromMs: number, toMs: number): number | null {
  const xs = samples.filter((s) => s.cpuNs !== null).sort((p, q) => p.tEpochMs - q.tEpochMs);
  const at = (t: number): number | null => {
    const j = xs.findIndex((s) => s.tEpochMs >= t);
    if (j < 0) return null;
    if (xs[j]!.tEpochMs === t) return xs[j]!.cpuNs;
    if (j === 0) return null;
    const a = xs[j - 1]!;
    const b = xs[j]!;
    return a.cpuNs! + ((b.cpuNs! - a.cpuNs!) * (t - a.tEpochMs)) / (b.tEpochMs - a.tEpochMs);
  };
  const a = at(fromMs);
  const b = at(toMs);
  return a === null || b === null || toMs <= fromMs ? null : (b - a) / 1e9;
}

/** The running parts of one arm and repeat. */
interface ArmRuntime {
  arm: TargetArm;
  baseUrl: string;
  target: TargetProcess | null;
  sampler: JmxSamplerHandle | { samples: JmxSample[]; stop(): Promise<void>; ended(): string | null } | null;
  agentPort: number | null;
  jfrDir: string | null;
}

/**
 * Runs every cell of `o.manifest` not already in `o.runDir/cells`.
 * @throws VtbenchError EXIT.notReady when the target, its mock or its database does not start, or the
 *   target dies in a cell (the failed cell is written first); interrupted on abort (also during the
 *   agent's cost measurement, whose other failures are logged and leave `agentCost` unset)
 */
export async function runTarget(o: TargetRunOptions): Promise<void> {
  const m = o.manifest;
  const cellsDir = join(o.runDir, 'cells');
  mkdirSync(cellsDir, { recursive: true });
  mkdirSync(join(o.runDir, 'logs'), { recursive: true });
  const saveManifest = (): void => writeJsonAtomic(join(o.runDir, 'manifest.json'), m);
  saveManifest();
  let db: DbHandle | null = null;
  let mock: MockProcess | null = null;
  const abort = new AbortController();
  const onAbort = (): void => abort.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  const total = m.arms.length * m.levels.length * m.repeats;
  let done = 0;
  const started = Date.now();
  try {
    if (m.db !== null && m.tier !== 'black-box') {
      o.log('starting PostgreSQL for the target …');
      db = await startPostgres({ bin: findPgBinaries(), maxPool: 200, logFile: join(o.runDir, 'logs', 'postgres.log'), database: 'target', seed: false });
      m.db = { serverVersion: db.info.serverVersion };
      // the user's own --target-env wins on a clash (e.g. SPRING_DATASOURCE_URL={dbUrl}?currentSchema=x)
      o.targetEnv = {
        POSTGRES_URL: db.info.url,
        POSTGRES_USER: db.target.user,
        POSTGRES_PASS: db.target.password,
        SPRING_DATASOURCE_URL: db.info.url,
        SPRING_DATASOURCE_USERNAME: db.target.user,
        SPRING_DATASOURCE_PASSWORD: db.target.password,
        ...o.targetEnv,
      };
      saveManifest();
    }
    if (m.mock) {
      o.log(`starting the mock LLM for the target (answers after ${m.mock.latencyMs} ms) …`);
      mock = await startMockProcess({ port: await freePort(), latencyMs: m.mock.latencyMs, logFile: join(o.runDir, 'logs', 'mock.log'), signal: abort.signal });
    }
    fillDownstreams(o, db, mock);
    const cellsLeft = m.arms.some((a) => m.levels.some((l) => Array.from({ length: m.repeats }, (_, i) => i + 1).some((r) => !existsSync(join(cellsDir, `${targetCellId(m.mode, a.id, l, r)}.json`)))));
    if (m.tier === 'agent' && m.agentCost == null && o.jdk && o.agentJar && cellsLeft) {
      // measured beside the cells (not for a finished run continued later); a failure costs this figure only, never the run
      o.log(`measuring the agent's own cost per task (TaskCostBench, ${AGENT_COST_ROUNDS} rounds without and with it) …`);
      try {
        m.agentCost = await measureAgentCost({ jdk: o.jdk, jar: o.agentJar, rounds: AGENT_COST_ROUNDS, tasks: AGENT_COST_TASKS, signal: abort.signal });
        o.log(`  ${m.agentCost.rows.map((r) => `${r.executor} ${r.addedNs >= 0 ? '+' : ''}${r.addedNs.toFixed(0)} ns/task${costIsMeasured(r) ? '' : ' (inside the rounds\' spread: noise, not a cost)'}`).join(', ')}`);
        saveManifest();
      } catch (e) {
        if (abort.signal.aborted) throw interruptedError('the agent\'s cost measurement');
        o.log(`  the agent's cost was not measured (${(e as Error).message.split('\n')[0]}); the report says so`);
      }
    }
    for (let repeat = 1; repeat <= m.repeats; repeat++) {
      for (const arm of m.arms) {
        const ids = m.levels.map((l) => targetCellId(m.mode, arm.id, l, repeat));
        if (ids.every((id) => existsSync(join(cellsDir, `${id}.json`)))) {
          done += ids.length;
          continue;
        }
        const rt = await startArm(o, arm, repeat, abort.signal);
        try {
          await warmAndProbe(o, rt, repeat, abort.signal);
          saveManifest();
          for (const level of m.levels) {
            const id = targetCellId(m.mode, arm.id, level, repeat);
            if (existsSync(join(cellsDir, `${id}.json`))) {
              done++;
              continue;
            }
            const eta = done === 0 ? '' : `, about ${Math.round((((Date.now() - started) / done) * (total - done)) / 60_000)} min left`;
            o.log(`cell ${done + 1}/${total}: ${id} (${arm.label}, ${m.mode === 'open-loop' ? `${level} req/s offered for ${m.durationS} s` : `${level} concurrent`}${eta})`);
            const cell = await runTargetCell(o, rt, level, repeat, level === Math.max(...m.levels), abort.signal);
            done++;
            o.log(`  ${id}: ${cellThroughputRps(cell.summary)?.toFixed(1) ?? '—'} req/s, P95 ${cell.summary.e2eMs?.p95.toFixed(1) ?? '—'} ms, ${cell.summary.count - cell.summary.ok} errors${cell.summary.openLoop?.unsent.inFlightCap ? `, ${cell.summary.openLoop.unsent.inFlightCap} not sent (in-flight cap)` : ''}${cell.pins ? `, ${cell.pins.total} pinned` : ''}${cell.hostCpuBusyShare != null ? `, host CPU ${(cell.hostCpuBusyShare * 100).toFixed(0)} % busy` : ''}`);
          }
        } finally {
          await stopArm(rt);
        }
      }
    }
    m.finishedAt = new Date().toISOString();
    saveManifest();
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    try {
      await mock?.stop();
    } finally {
      await db?.stop();
    }
  }
}

/**
 * Replaces {mockUrl}, {dbUrl}, {dbUser}, {dbPassword} (src/compute/target/placeholders.ts) in the
 * user's arguments, JVM flags and environment values once the downstreams have started (the CLI checked
 * that each one used is provided). Mutates `o`; the manifest keeps the arguments as given (redacted).
 */
function fillDownstreams(o: TargetRunOptions, db: DbHandle | null, mock: MockProcess | null): void {
  const values = {
    ...(mock ? { mockUrl: mock.url } : {}),
    ...(db ? { dbUrl: db.info.url, dbUser: db.target.user, dbPassword: db.target.password } : {}),
  };
  o.userArgs = o.userArgs.map((a) => fillPlaceholders(a, values));
  o.jvmArgs = o.jvmArgs.map((a) => fillPlaceholders(a, values));
  o.targetEnv = Object.fromEntries(Object.entries(o.targetEnv).map(([k, v]) => [k, fillPlaceholders(v, values)]));
}

async function startArm(o: TargetRunOptions, arm: TargetArm, repeat: number, signal: AbortSignal): Promise<ArmRuntime> {
  const m = o.manifest;
  if (m.tier === 'black-box') {
    const baseUrl = arm.url!.replace(/\/$/, '');
    const sampler = await startActuatorSampler({ baseUrl, intervalMs: m.samplerIntervalMs });
    return { arm, baseUrl, target: null, sampler, agentPort: null, jfrDir: null };
  }
  const jdk = o.jdk!;
  const jmxPort = await freePort();
  const jfrDir = join(o.runDir, 'logs', `jfr-${arm.id}-r${repeat}`);
  mkdirSync(jfrDir, { recursive: true });
  const flags = [...o.jvmArgs, jfrStartFlag(jfrDir, m.pinThresholdMs), ...jmxFlags(jmxPort)];
  let agentPort: number | null = null;
  if (m.tier === 'agent') {
    agentPort = await freePort();
    flags.unshift(agentFlag(o.agentJar!, agentPort, REQUEST_ID_HEADER));
  }
  const logFile = join(o.runDir, 'logs', `target-${arm.id}-r${repeat}.log`);
  o.log(`starting the target for ${arm.label} (repeat ${repeat}) …`);
  const t0 = Date.now();
  const target = await startTargetJar({ jdk, jar: m.jar!.path, port: o.port, jvmFlags: flags, properties: arm.properties, userArgs: o.userArgs, env: o.targetEnv, logFile, readyPath: m.mix.requests[0]!.path, readyTimeoutMs: o.readyTimeoutMs, marker: jfrDir, signal });
  o.log(`  ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (pid ${target.pid}, log ${logFile})`);
  const sampler = startJmxSampler({ jdk, agentJar: o.agentJar!, jmxPort, targetPid: target.pid, intervalMs: m.samplerIntervalMs });
  try {
    const info = await Promise.race([sampler.info, new Promise<never>((_, rej) => setTimeout(() => rej(new Error('no answer in 60 s')), 60_000))]);
    // a secret passed as a JVM argument (-Dspring.datasource.password=…) is redacted here too: the JVM reports it
    if (!m.jvm[arm.id]) m.jvm[arm.id] = { ...info, inputArguments: redactArgs(info.inputArguments).map(shortenPaths) };
  } catch (e) {
    await sampler.stop();
    await target.stop();
    throw new VtbenchError(`the JMX sampler could not read the target: ${(e as Error).message}`, 'check that the target JVM accepts the local JMX flags (see logs/)', EXIT.notReady);
  }
  return { arm, baseUrl: target.baseUrl, target, sampler, agentPort, jfrDir };
}

async function stopArm(rt: ArmRuntime): Promise<void> {
  try {
    await rt.sampler?.stop();
  } finally {
    try {
      await rt.target?.stop();
    } finally {
      if (rt.jfrDir) rmSync(rt.jfrDir, { recursive: true, force: true });
    }
  }
}

async function warmAndProbe(o: TargetRunOptions, rt: ArmRuntime, repeat: number, signal: AbortSignal): Promise<void> {
  const m = o.manifest;
  if (m.mode === 'open-loop' && m.openLoop && m.openLoop.warmupS > 0) {
    const rate = Math.max(...m.levels);
    o.log(`  warm-up: ${rate} req/s for ${m.openLoop.warmupS} s (open loop)`);
    const w = await watched(o, rt, signal, (s) => runOpenLoop(openLoopOptions(m, rt.baseUrl, rate, m.openLoop!.warmupS, o.timeoutMs, s)));
    if ('died' in w) throw diedDuring(rt, 'the warm-up');
  } else if (m.mode === 'closed-loop' && m.warmupRequestsPerWorker > 0) {
    const c = Math.max(...m.levels);
    o.log(`  warm-up: ${c} workers × ${m.warmupRequestsPerWorker} requests`);
    const w = await watched(o, rt, signal, (s) => runClosedLoop(loadOptions(m.mix.requests, rt.baseUrl, c, m.warmupRequestsPerWorker, o.timeoutMs, s)));
    if ('died' in w) throw diedDuring(rt, 'the warm-up');
  }
  if (m.aloneProbeRequests > 0) {
    const p = await watched(o, rt, signal, (s) => runClosedLoop(loadOptions(m.mix.requests, rt.baseUrl, 1, m.aloneProbeRequests, o.timeoutMs, s)));
    if ('died' in p) throw diedDuring(rt, 'the alone probe');
    if (p.result.summary.ok === 0) {
      const where = rt.target ? `its log: logs/target-${rt.arm.id}-r${repeat}.log under the run folder` : 'the running service at --url';
      throw new VtbenchError(`${rt.arm.label}: the service at ${rt.baseUrl} answered none of the ${p.result.summary.count} probe requests (${errorsIn(p.result, m.mix.requests)})`, `check the request file's paths and methods against the service (${where}); nothing was measured`, EXIT.notReady);
    }
    const probe: TargetProbe = { arm: rt.arm.id, repeat, requests: p.result.summary.count, ok: p.result.summary.ok, e2eMs: p.result.summary.e2eMs };
    m.probes = [...m.probes.filter((x) => !(x.arm === probe.arm && x.repeat === repeat)), probe];
    o.log(`  alone probe R(1): P50 ${probe.e2eMs?.p50.toFixed(2) ?? '—'} ms over ${probe.ok} requests`);
  }
}

/**
 * The error classes, the error answers' codes and the failing requests of a phase, in words:
 * `40 http errors; statuses 404 ×40; failing: owners GET /ownerz ×40`.
 */
function errorsIn(r: LoadResult, mix: readonly TargetRequest[]): string {
  const e = Object.entries(r.summary.errors).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k} error${n === 1 ? '' : 's'}`);
  const statuses = new Map<number, number>();
  const failing = new Map<number, number>();
  for (const x of r.records) {
    if (x.status !== null && x.status >= 400) statuses.set(x.status, (statuses.get(x.status) ?? 0) + 1);
    if (x.errorClass !== null && x.req !== undefined) failing.set(x.req, (failing.get(x.req) ?? 0) + 1);
  }
  const st = [...statuses].map(([s, n]) => `${s} ×${n}`);
  const fr = [...failing].filter(([k]) => mix[k] !== undefined).map(([k, n]) => `${mix[k]!.name} ${mix[k]!.method} ${mix[k]!.path} ×${n}`);
  return [e.join(', ') || 'no answer', st.length ? `statuses ${st.join(', ')}` : '', fr.length ? `failing: ${fr.join(', ')}` : ''].filter(Boolean).join('; ');
}

function diedDuring(rt: ArmRuntime, what: string): VtbenchError {
  return new VtbenchError(`the target of ${rt.arm.label} died during ${what} (${rt.target?.exit() ?? 'gone'})`, 'read its log under the run\'s logs/', EXIT.notReady);
}

/**
 * Runs `run` while checking every 500 ms that the target still lives; when it dies, the load is
 * aborted and `{ died }` returned (the records so far are not a measurement).
 */
async function watched(o: TargetRunOptions, rt: ArmRuntime, signal: AbortSignal, run: (s: AbortSignal) => Promise<LoadResult>): Promise<{ result: LoadResult } | { died: string; partial: LoadResult | null }> {
  const ac = new AbortController();
  const stop = (): void => ac.abort();
  signal.addEventListener('abort', stop, { once: true });
  let died: string | null = null;
  const timer = setInterval(() => {
    if (rt.target && !rt.target.alive()) {
      died = rt.target.exit() ?? 'gone';
      ac.abort();
    }
  }, ALIVE_POLL_MS);
  try {
    const result = await run(ac.signal);
    if (rt.target && !rt.target.alive()) died ??= rt.target.exit() ?? 'gone';
    if (died !== null) return { died, partial: result };
    if (signal.aborted) throw new VtbenchError('the run was interrupted', 'run again with the same --run-id to continue (finished cells are kept)', EXIT.interrupted);
    return { result };
  } finally {
    clearInterval(timer);
    signal.removeEventListener('abort', stop);
  }
}

async function runTargetCell(o: TargetRunOptions, rt: ArmRuntime, level: number, repeat: number, dumpThreads: boolean, signal: AbortSignal): Promise<TargetCell> {
  const m = o.manifest;
  const id = targetCellId(m.mode, rt.arm.id, level, repeat);
  const cellsDir = join(o.runDir, 'cells');
  const startedAt = new Date();
  // the agent's buffer holds the warm-up's, the probe's and the last cell's records: drop them; a record
  // that reaches it later still cannot match, since every id of this cell starts with its own prefix
  if (rt.agentPort !== null) await fetchAgentRecords(rt.agentPort).catch(() => []);
  const idPrefix = `${id}.`;
  const cpu0 = process.cpuUsage();
  const host0 = readCpuTicks();
  let dump: Promise<string | null> | null = null;
  const events = {
    progress(d: number, t: number) {
      if (dumpThreads && dump === null && rt.target && o.jdk && d >= t / 2) dump = takeDump(o, rt, id);
    },
  };
  const outcome = await watched(o, rt, signal, (s) =>
    m.mode === 'open-loop'
      ? runOpenLoop(openLoopOptions(m, rt.baseUrl, level, m.durationS!, o.timeoutMs, s, idPrefix), events)
      : runClosedLoop(loadOptions(m.mix.requests, rt.baseUrl, level, m.requestsPerWorker, o.timeoutMs, s, 0, idPrefix), events),
  );
  if ('died' in outcome) {
    const failed = { id, reason: `the target died during the cell (${outcome.died})`, at: new Date().toISOString(), requestsBefore: outcome.partial?.summary.count ?? 0 };
    writeJsonAtomic(join(cellsDir, `${id}.failed.json`), failed);
    m.failed.push({ id, reason: failed.reason });
    writeJsonAtomic(join(o.runDir, 'manifest.json'), m);
    throw new VtbenchError(`cell ${id}: ${failed.reason}; it is recorded as a failed cell, not a measurement`, 'read the target log under the run\'s logs/, then run again with the same --run-id to measure the cells left', EXIT.notReady);
  }
  const r = outcome.result;
  if (r.summary.ok === 0) {
    // every request failed: a failed cell, never a measurement of 0 req/s
    const reason = `every request failed (${errorsIn(r, m.mix.requests)})`;
    writeJsonAtomic(join(cellsDir, `${id}.failed.json`), { id, reason, at: new Date().toISOString(), requests: r.summary.count });
    m.failed.push({ id, reason });
    writeJsonAtomic(join(o.runDir, 'manifest.json'), m);
    throw new VtbenchError(`cell ${id}: ${reason}; recorded as a failed cell, not a measurement`, 'check the request file\'s paths, methods and headers against the service (its log is under the run\'s logs/)', EXIT.notReady);
  }
  const cpu = process.cpuUsage(cpu0);
  const host1 = readCpuTicks();
  const hostCpuBusyShare = host0 && host1 && host1.total > host0.total ? (host1.busy - host0.busy) / (host1.total - host0.total) : null;
  const t0 = r.t0EpochMs;
  const lastEnd = r.records.reduce((mx, x) => Math.max(mx, x.endMs), 0);
  const end = t0 + lastEnd;
  // let the sampler take one sample past the end, so the cell's CPU has a closing reading
  await new Promise((res) => setTimeout(res, m.samplerIntervalMs + 50));
  const all = rt.sampler?.samples ?? [];
  const window = samplesIn(all, t0 - m.samplerIntervalMs, end + m.samplerIntervalMs);
  let pins = null;
  if (rt.target && o.jdk && rt.jfrDir) {
    try {
      const file = join(rt.jfrDir, `${id}.jfr`);
      await dumpJfr(o.jdk, rt.target.pid, file);
      pins = pinEventsIn(await readJfrEvents(o.jdk, file), t0, end + 1000, m.pinThresholdMs);
      rmSync(file, { force: true });
    } catch (e) {
      o.log(`  JFR of ${id} not read: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  let agent: AgentCellSummary | null = null;
  if (rt.agentPort !== null) {
    const recs: AgentRecord[] = await fetchAgentRecords(rt.agentPort).catch(() => []);
    writeGzJsonAtomic(join(cellsDir, `${id}.agent.json.gz`), recs);
    agent = agentCellSummary(recs, r.records, m.mode, idPrefix);
  }
  const dumpFile = dump === null ? null : await (dump as Promise<string | null>);
  const cell: TargetCell = {
    id,
    arm: rt.arm.id,
    level,
    repeat,
    mode: m.mode,
    idPrefix,
    startedAt: startedAt.toISOString(),
    endedAt: new Date().toISOString(),
    t0EpochMs: t0,
    endEpochMs: end,
    summary: r.summary,
    byRequest: summarizeByRequest(r.records, m.mix.requests.map((q) => q.name)),
    targetCpuS: cpuSecondsOf(all, t0, end),
    harnessCpuS: (cpu.user + cpu.system) / 1e6,
    hostCpuBusyShare,
    pins,
    threadDump: dumpFile,
    agent,
  };
  writeGzJsonAtomic(join(cellsDir, `${id}.requests.json.gz`), storedRequests(compactRequests(r.records, r.unsent)));
  writeGzJsonAtomic(join(cellsDir, `${id}.samples.json.gz`), window);
  writeJsonAtomic(join(cellsDir, `${id}.json`), cell);
  // measured now: an earlier failed attempt of this cell (a run continued with --run-id) is history, not a gap
  if (m.failed.some((f) => f.id === id)) {
    m.failed = m.failed.filter((f) => f.id !== id);
    rmSync(join(cellsDir, `${id}.failed.json`), { force: true });
    writeJsonAtomic(join(o.runDir, 'manifest.json'), m);
  }
  return cell;
}

/** A mid-cell thread dump of the target (jcmd, JSON, virtual threads included): its summary file, relative to the run; null when it failed. */
async function takeDump(o: TargetRunOptions, rt: ArmRuntime, id: string): Promise<string | null> {
  const dir = join(o.runDir, 'threaddumps');
  mkdirSync(dir, { recursive: true });
  const raw = join(dir, `${id}.json`);
  const at = Date.now();
  try {
    await jcmdThreadDump(o.jdk!, rt.target!.pid, raw);
    const text = readFileSync(raw, 'utf8');
    const summary = summarizeThreadDump(text, `threaddumps/${id}.json.gz`, 0, 'http-nio-');
    writeGzJsonAtomic(join(dir, `${id}.json.gz`), JSON.parse(text));
    rmSync(raw, { force: true });
    writeJsonAtomic(join(dir, `${id}.summary.json`), { ...summary, takenAtEpochMs: at });
    return `threaddumps/${id}.summary.json`;
  } catch (e) {
    o.log(`  thread dump of ${id} failed: ${(e as Error).message.split('\n')[0]}`);
    rmSync(raw, { force: true });
    return null;
  }
}

