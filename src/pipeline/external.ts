/**
 * Components by URL: `--sut-url` and `--mock-url` point a run at a SUT or a mock LLM that someone
 * else started (another host, another network namespace, a Kubernetes Service).
 *
 * What changes for an external component:
 * - the run never starts, stops or signals it; it has no pid here (`SutHandle.pid`/`MockHandle.pid`
 *   null), so it is neither in `pids.json` nor in the child registry;
 * - liveness is its health probe alone (`GET /bench/info`, `GET /health`): a component that stops
 *   answering is a failed cell after `failuresToDeath` probes, never a hang (liveness.ts);
 * - every figure of it comes over HTTP, as for a local one (`/bench/samples`, `/bench/pinned`,
 *   `/bench/threaddump`, `/stats`); nothing of it is read from /proc: the cells carry no `sutPid`,
 *   and the host-CPU figure covers the load generator's host only (flags.ts `hostCpuScope`);
 * - the manifest lists it under `external` with its origin.
 *
 * An external SUT runs one executor and cannot be restarted per variant or repeat, so the run is
 * refused unless it selects exactly one variant and that variant (and the scenario, the sampler
 * interval and the pinned threshold) is what the SUT reports at `/bench/info`; its repeats then share
 * that one JVM (a note in the manifest says so). An external SUT calls the mock it was started with,
 * so `--sut-url` needs `--mock-url` naming that same mock; an external mock must answer with the
 * run's latency (fixed model) and faults. Each refusal names the option and the fix.
 */
import type { ExternalComponents, ResolvedOptions, RunManifest } from '../types/run.ts';
import type { Study } from '../types/study.ts';
import { driverOf } from '../load/driver.ts';
import type { SutInfo } from '../types/sut-api.ts';
import type { MockStats } from '../types/mock.ts';
import { getInfo } from '../adapters/jvm/client.ts';
import { scenarioOfVariant } from '../plan/plan.ts';
import { VtbenchError, EXIT } from '../types/errors.ts';
import { MalformedAnswerError } from '../adapters/store/answers.ts';
import { httpProbe } from '../adapters/process/liveness.ts';
import { getMockStats } from '../adapters/process/mock-process.ts';
import { CONTROL_TOKEN_ENV } from '../adapters/process/control-token.ts';
import { sutMismatches, type MockHandle, type RunDeps, type SutHandle } from './run.ts';

/** Time for one look-up of an external component before the run (its `/bench/info` or `/stats`). */
export const EXTERNAL_LOOKUP_TIMEOUT_MS = 10_000;

/** The external components of a run's options (`manifest.external`), or null when every component is local. Pure. */
export function externalOf(o: Pick<ResolvedOptions, 'sutUrl' | 'mockUrl'>): ExternalComponents | null {
  if (o.sutUrl === undefined && o.mockUrl === undefined) return null;
  return { ...(o.sutUrl !== undefined ? { sut: o.sutUrl } : {}), ...(o.mockUrl !== undefined ? { mock: o.mockUrl } : {}) };
}

/** `http://h:p/v1/` -> `http://h:p` (the mock's origin as a SUT names it). Pure. */
export function mockOriginOf(mockBaseUrl: string): string {
  return mockBaseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/**
 * Why an external SUT cannot serve this run, one line per reason; empty when it can. Pure.
 * `info` is its `/bench/info`. The SUT must be the run's one variant (executor as sutMismatches
 * checks it) with the scenario bean, sample at the run's interval, count pins at the run's threshold,
 * and call the mock the run reads (`--mock-url`).
 */
export function externalSutProblems(o: Readonly<ResolvedOptions>, study: Study, info: SutInfo): string[] {
  const out: string[] = [];
  if (o.variantSpecs.length !== 1) {
    out.push(`an external SUT runs one executor (it reports variant '${info.executor.variant}') and cannot be restarted per variant, but the run selects ${o.variantSpecs.length} variants (${o.variants.join(', ')}): give --variants ${info.executor.variant}`);
  } else {
    out.push(...sutMismatches(o.variantSpecs[0]!, scenarioOfVariant(study, o, o.variantSpecs[0]!), info).map((m) => `${m} (start the SUT with that executor, or select the variant it runs with --variants)`));
  }
  if (info.samplerIntervalMs !== o.samplerIntervalMs) out.push(`the SUT samples every ${info.samplerIntervalMs} ms, the run expects ${o.samplerIntervalMs} ms: give --sampler-interval-ms ${info.samplerIntervalMs}`);
  if (info.pinnedThresholdMs !== o.pinnedThresholdMs) out.push(`the SUT counts pins of ${info.pinnedThresholdMs} ms or more, the run expects ${o.pinnedThresholdMs} ms: give --pinned-threshold-ms ${info.pinnedThresholdMs}`);
  const calls = mockOriginOf(info.mockBaseUrl);
  if (o.mockUrl === undefined) {
    out.push(`the SUT calls the mock at ${info.mockBaseUrl}, which this run would neither start nor read: give --mock-url ${calls} (as the load generator reaches it)`);
  } else if (calls !== o.mockUrl) {
    out.push(`the SUT calls the mock at ${info.mockBaseUrl}, but --mock-url is ${o.mockUrl}: the mock figures would describe another mock; give --mock-url ${calls}, reachable from here at that address`);
  }
  return out;
}

/**
 * Why an external mock cannot serve this run; empty when it can. Pure. `stats` is its `/stats`:
 * its `config` must be the fixed latency model at the run's L and the run's injected faults (none
 * unless the profile sets them), or the theory beside every figure would be of another service.
 */
export function externalMockProblems(o: Readonly<ResolvedOptions>, stats: MockStats): string[] {
  const c = stats.config;
  const out: string[] = [];
  if (c['latencyModel'] !== 'fixed') out.push(`the mock's latency model is ${JSON.stringify(c['latencyModel'] ?? null)}, the run's theory needs 'fixed': start it with --latency-model fixed`);
  if (c['latencyMs'] !== o.latencyMs) out.push(`the mock answers after ${JSON.stringify(c['latencyMs'] ?? null)} ms, the run plans L = ${o.latencyMs} ms: give --latency-ms ${String(c['latencyMs'])}, or start the mock with --latency-ms ${o.latencyMs}`);
  const f = o.mockFaults;
  const want: [string, unknown][] = [['errorRate', f?.errorRate ?? 0], ['resetRate', f?.resetRate ?? 0], ['hangRate', 0]];
  if (f) want.push(['errorStatus', f.errorStatus], ['seed', f.seed]);
  for (const [k, v] of want) if (c[k] !== v) out.push(`the mock's ${k} is ${JSON.stringify(c[k] ?? null)}, the run's profile expects ${JSON.stringify(v)}: start the mock with the profile's faults`);
  return out;
}

/**
 * Look up the run's external components before anything is measured and refuse a run they cannot
 * serve. Returns the external SUT's `/bench/info` (null without `--sut-url`).
 * @throws VtbenchError(EXIT.notReady) when a component does not answer, MalformedAnswerError (also 6)
 *   when it answers with the wrong shape; EXIT.usage when it answers but does not fit the run (every
 *   reason listed, each with its fix)
 */
export async function checkExternalComponents(o: Readonly<ResolvedOptions>, study: Study, env: NodeJS.ProcessEnv = process.env): Promise<SutInfo | null> {
  const problems: string[] = [];
  let info: SutInfo | null = null;
  if (o.sutUrl !== undefined) {
    try {
      info = await getInfo(o.sutUrl, EXTERNAL_LOOKUP_TIMEOUT_MS);
    } catch (e) {
      if (e instanceof MalformedAnswerError) throw e; // it answered, wrongly: named as such
      throw new VtbenchError(`--sut-url: the external SUT at ${o.sutUrl} did not answer GET /bench/info (${(e as Error).message})`, 'start it first and check the address from this host (curl <url>/bench/info), or drop --sut-url to start the SUT here', EXIT.notReady);
    }
    problems.push(...externalSutProblems(o, study, info).map((p) => `--sut-url: ${p}`));
    // a driver's control calls (the in-process driver's jobs) need the token the SUT was started with (sut/…/ControlTokenFilter.java)
    const jobs = o.variantSpecs.some((v) => driverOf(scenarioOfVariant(study, o, v)).controlCalls);
    if (jobs && !env[CONTROL_TOKEN_ENV]) problems.push(`--sut-url: ${CONTROL_TOKEN_ENV} is not set here: the run's jobs (POST /bench/job/*) answer only the token the SUT was started with; start the SUT with ${CONTROL_TOKEN_ENV}=<a secret> in its environment and run vtbench with the same`);
  }
  if (o.mockUrl !== undefined) {
    const stats = await getMockStats(o.mockUrl);
    if (stats === null) throw new VtbenchError(`--mock-url: the external mock at ${o.mockUrl} did not answer GET /stats`, 'start it first (npm run mock -- --host <addr> --port <port> --latency-ms <L>) and check the address from this host, or drop --mock-url to start the mock here', EXIT.notReady);
    problems.push(...externalMockProblems(o, stats).map((p) => `--mock-url: ${p}`));
    // its control calls (the reset before each cell) need the token it was started with (src/adapters/process/control-token.ts)
    if (!env[CONTROL_TOKEN_ENV]) problems.push(`--mock-url: ${CONTROL_TOKEN_ENV} is not set here: the harness resets the external mock's figures before each cell with the token the mock was started with; start the mock with ${CONTROL_TOKEN_ENV}=<a secret> in its environment and run vtbench with the same`);
  }
  if (problems.length > 0) {
    throw new VtbenchError(`the external component(s) cannot serve this run:\n  ${problems.join('\n  ')}`, 'fix each line as it says; nothing was measured', EXIT.usage);
  }
  return info;
}

/**
 * Record the external components in a new run's manifest (`external`, and a note when an external
 * SUT serves more than one repeat: its repeats share one JVM, unlike a local run's fresh JVM per
 * repeat). Mutates `manifest`; a run without external components is left unchanged.
 */
export function recordExternal(manifest: RunManifest): void {
  const ext = externalOf(manifest.options);
  if (ext === null) return;
  manifest.external = ext;
  if (ext.sut !== undefined && manifest.options.repeats > 1) {
    manifest.notes = [...(manifest.notes ?? []), `the SUT was external (${ext.sut}): its ${manifest.options.repeats} repeats ran on the one JVM someone else started, not on a fresh JVM each`];
  }
}

/** A handle on an external mock: no pid, health probe `GET /health`, stop does nothing. */
export function externalMockHandle(url: string): MockHandle {
  return {
    pid: null, url, marker: '', logFile: `(the log of the external mock at ${url})`,
    probe: (t) => httpProbe(`${url}/health`, t),
    stop: async () => {},
  };
}

/**
 * A handle on an external SUT for one block: its `/bench/info` read now (so the manifest records
 * what served the block), no pid, health probe `GET /bench/info`, stop does nothing.
 * @throws VtbenchError(EXIT.notReady) when it does not answer
 */
export async function externalSutHandle(url: string): Promise<SutHandle> {
  let info: SutInfo;
  try {
    info = await getInfo(url, EXTERNAL_LOOKUP_TIMEOUT_MS);
  } catch (e) {
    if (e instanceof MalformedAnswerError) throw e;
    throw new VtbenchError(`the external SUT at ${url} did not answer GET /bench/info (${(e as Error).message})`, 'check that it still runs; continue with --resume <run id> once it answers', EXIT.notReady);
  }
  return {
    pid: null, baseUrl: url, info, marker: '', logFile: `(the log of the external SUT at ${url})`,
    probe: (t) => httpProbe(`${url}/bench/info`, t),
    stop: async () => {},
  };
}

/**
 * The run's dependencies with every external component addressed by URL: `startMock`/`startSut`
 * return handles on the external ones instead of starting processes (the local SUT of a run with
 * only `--mock-url` is pointed at that mock by the pipeline). Without `--sut-url` and `--mock-url`
 * returns `deps` itself.
 */
export function withExternalComponents(deps: RunDeps, o: Pick<ResolvedOptions, 'sutUrl' | 'mockUrl'>): RunDeps {
  const { sutUrl, mockUrl } = o;
  if (sutUrl === undefined && mockUrl === undefined) return deps;
  return {
    ...deps,
    ...(mockUrl !== undefined ? { startMock: async () => externalMockHandle(mockUrl) } : {}),
    ...(sutUrl !== undefined ? { startSut: () => externalSutHandle(sutUrl) } : {}),
  };
}
