/**
 * Starting and stopping the SUT JVM. Output goes to a log file; readiness is `GET /bench/info` = 200.
 */
import { withAffinity } from '../host/affinity.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { EXIT, VtbenchError } from '../../types/errors.ts';
import type { PinningMode, SutInfo } from '../../types/sut-api.ts';
import { getInfo } from './client.ts';
import { refuseJvmInTestTiers, requireSutJdk, type Jdk } from './jdk.ts';
import { interruptedError } from './build.ts';
import { DEFAULT_BIND_ADDRESS, connectHostOf, httpOrigin } from './bind.ts';
import { executorInfo, type Variant } from '../../types/study.ts';
import { CONTROL_TOKEN_ENV } from '../process/control-token.ts';

export interface StartSutOptions {
  jdk: Jdk;
  jarPath: string;
  port: number;
  /** `server.address` of the SUT; default {@link DEFAULT_BIND_ADDRESS} (loopback only) */
  bindAddress?: string;
  /** OpenAI-compatible base URL, ending in /v1 */
  mockBaseUrl: string;
  /** the effective variant the JVM runs (its executor, thread-name prefix and SUT properties) */
  variant: Variant;
  /** JVM flags; the profiles own the defaults (src/plan/profiles.ts), there is no second default here */
  jvmFlags: readonly string[];
  samplerIntervalMs: number;
  pinnedThresholdMs: number;
  logFile: string;
  readyTimeoutMs: number;
  /** what the LLM call is wrapped in (sut/…/PinningMode.java); default none */
  pinning?: PinningMode;
  /** more `--key=value` Spring arguments */
  extraArgs?: readonly string[];
  /** SIGTERM -> SIGKILL grace in stop(); default 5000 ms */
  stopGraceMs?: number;
  /**
   * `bench.parent-pid`: the SUT stops when this process is gone (sut/…/ParentExitStopper.java);
   * default this process, so a harness or test killed with SIGKILL leaves no JVM behind; null = none
   */
  parentPid?: number | null;
  /**
   * the run's control token (src/adapters/process/control-token.ts): the SUT's `/bench/job/*` answer only a call
   * that carries it (sut/…/ControlTokenFilter.java); given in the JVM's environment
   * (VTBENCH_CONTROL_TOKEN), never on its command line. Null or absent: none, every job call is refused.
   */
  controlToken?: string | null;
  /** the run's abort (SIGINT/SIGTERM): a start in progress stops the JVM at once and rejects as interrupted */
  signal?: AbortSignal;
  /** `--isolate-cpus`: the CPUs the JVM may run on (cpulist, e.g. `1`), set by a `taskset -c` prefix; absent: every CPU */
  cpus?: string;
}

export interface SutProcess {
  pid: number;
  baseUrl: string;
  info: SutInfo;
  /** SIGTERM, then SIGKILL after the grace period; resolves once the process has exited */
  stop(): Promise<void>;
}

/**
 * Spring properties the harness sets from the variant's executor and the run's options; a variant's
 * `sutProperties` may not set them (its executor and the options say them once).
 */
export const HARNESS_SUT_PROPERTIES: readonly string[] = [
  'server.port', 'server.address', 'bench.variant', 'bench.executor.kind', 'bench.executor.threads',
  'bench.executor.queue-capacity', 'bench.executor.thread-name-prefix', 'bench.sampler.interval-ms',
  'bench.pinned.threshold-ms', 'spring.ai.openai.base-url', 'bench.parent-pid',
];

/**
 * A variant's `sutProperties` that collide with what the harness sets (HARNESS_SUT_PROPERTIES);
 * empty when none. Checked when a run's options are resolved.
 */
export function reservedSutProperties(v: Pick<Variant, 'sutProperties'>): string[] {
  return Object.keys(v.sutProperties ?? {}).filter((k) => HARNESS_SUT_PROPERTIES.includes(k));
}

/**
 * Flags every SUT JVM needs whatever the profile: `--enable-preview`, since the jar is compiled with it
 * (sut/pom.xml) for JDK 25's StructuredTaskScope (JEP 505, the `mixed-structured` scenario); a JVM
 * without it refuses to load the jar's classes. Before the profile's flags.
 */
export const SUT_JVM_FLAGS: readonly string[] = ['--enable-preview'];

/**
 * The java command line (without the executable); exported for tests and the run manifest.
 * `--bench.parent-pid` is this process unless `parentPid` says otherwise. Every
 * Spring property appears once (Spring joins repeated command-line values with commas): a
 * variant's `sutProperties` replace the harness's defaults (`bench.pinning`) in place and come
 * after the rest; `extraArgs` are appended as given.
 * @throws Error when a variant's sutProperties set a property of HARNESS_SUT_PROPERTIES
 */
export function sutArgs(o: StartSutOptions): string[] {
  const v = o.variant;
  const reserved = reservedSutProperties(v);
  if (reserved.length > 0) throw new Error(`variant ${v.id}: sutProperties set ${reserved.join(', ')}, which the harness sets from the variant's executor and the run's options`);
  const props: [string, string][] = [
    ['server.port', String(o.port)],
    ['server.address', o.bindAddress ?? DEFAULT_BIND_ADDRESS],
    ...executorProperties(v),
    ['bench.pinning', o.pinning ?? 'none'],
    ['bench.sampler.interval-ms', String(o.samplerIntervalMs)],
    ['bench.pinned.threshold-ms', String(o.pinnedThresholdMs)],
    ['spring.ai.openai.base-url', o.mockBaseUrl],
  ];
  const parentPid = o.parentPid === undefined ? process.pid : o.parentPid;
  if (parentPid !== null) props.push(['bench.parent-pid', String(parentPid)]);
  for (const [k, val] of Object.entries(v.sutProperties ?? {})) {
    const at = props.findIndex(([key]) => key === k);
    if (at >= 0) props[at] = [k, val];
    else props.push([k, val]);
  }
  return [...SUT_JVM_FLAGS, ...o.jvmFlags, '-jar', o.jarPath, ...props.map(([k, val]) => `--${k}=${val}`), ...(o.extraArgs ?? [])];
}

/**
 * A Spring property whose value is a secret (a password, secret, token, credential or key of an
 * API): it never goes on the JVM's command line, where `ps` shows it to every local user for the
 * whole run (issue 34), but into the JVM's environment.
 */
export const SECRET_SUT_PROPERTY = /password|secret|token|credential|api-?key/i;

/**
 * The environment variable Spring Boot binds to a property (relaxed binding of
 * SystemEnvironmentPropertySource: dots become underscores, dashes are dropped, upper case), e.g.
 * `bench.db.password` -> `BENCH_DB_PASSWORD`.
 */
export function springEnvName(property: string): string {
  return property.replace(/-/g, '').replace(/\./g, '_').toUpperCase();
}

/**
 * The SUT's command line and the environment it needs beyond this process's: {@link sutArgs}
 * without the secret properties ({@link SECRET_SUT_PROPERTY}), which go to `env` under their
 * Spring names ({@link springEnvName}) instead. `extraArgs` are given as they are.
 */
/**
 * The SUT's whole command: the JDK's `java` with sutLaunch's arguments, behind `taskset -c <cpus>`
 * when the JVM gets its own CPUs (`o.cpus`, --isolate-cpus; taskset execs java, so the pid is the
 * JVM's). Pure.
 */
export function sutSpawnCommand(o: StartSutOptions): { cmd: string; args: string[]; env: Record<string, string> } {
  const { args, env } = sutLaunch(o);
  return { ...withAffinity(join(o.jdk.home, 'bin', 'java'), args, o.cpus), env };
}

export function sutLaunch(o: StartSutOptions): { args: string[]; env: Record<string, string> } {
  const env: Record<string, string> = {};
  const props = { ...(o.variant.sutProperties ?? {}) };
  for (const [k, val] of Object.entries(props)) {
    if (!SECRET_SUT_PROPERTY.test(k)) continue;
    env[springEnvName(k)] = val;
    delete props[k];
  }
  if (o.controlToken != null) env[CONTROL_TOKEN_ENV] = o.controlToken;
  return { args: sutArgs({ ...o, variant: { ...o.variant, sutProperties: props } }), env };
}

/**
 * The Spring properties that say a variant's executor (the SUT's executor registry,
 * sut/…/ExecutorKinds.java): `bench.variant`, `bench.executor.kind`, for a platform pool
 * `.threads` and `.queue-capacity`, and `.thread-name-prefix`.
 */
export function executorProperties(v: Variant): [string, string][] {
  const e = v.executor;
  return [
    ['bench.variant', v.id],
    ['bench.executor.kind', e.kind],
    ...executorInfo(e).sutProperties(e),
    ['bench.executor.thread-name-prefix', v.threadNamePrefix],
  ];
}

/** Last `lines` lines of a log file, for error messages; '(no log)' if it does not exist. */
export function tailOf(file: string, lines = 30): string {
  if (!existsSync(file)) return '(no log)';
  return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
}

function portAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, ms);
    const onExit = (): void => {
      clearTimeout(t);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

/** Stop a child: SIGTERM, then SIGKILL after graceMs; resolves once it has exited. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if (await waitForExit(child, graceMs)) return;
  child.kill('SIGKILL');
  await waitForExit(child, 10_000);
}

/** Resolves after `ms`, or at once when `signal` aborts. */
const sleep = (ms: number, signal?: AbortSignal): Promise<void> => new Promise((r) => {
  if (signal?.aborted) return r();
  const t = setTimeout(done, ms);
  function done(): void {
    clearTimeout(t);
    signal?.removeEventListener('abort', done);
    r();
  }
  signal?.addEventListener('abort', done, { once: true });
});

/**
 * Spawns `java <flags> -jar <jar> --server.port=… --bench.variant=… --bench.executor.kind=…`, waits until /bench/info
 * answers 200.
 * @throws VtbenchError {@link EXIT.prerequisite} in the unit and integration test tiers (refuseJvmInTestTiers);
 *   {@link EXIT.portInUse} when the port already answers;
 *   {@link EXIT.notReady} (with the log tail) when the JVM exits early or is not ready in time
 */
export async function startSut(o: StartSutOptions): Promise<SutProcess> {
  refuseJvmInTestTiers('starting the SUT JVM');
  requireSutJdk(o.jdk);
  const bindAddress = o.bindAddress ?? DEFAULT_BIND_ADDRESS;
  if (await portAnswers(connectHostOf(bindAddress), o.port)) {
    throw new VtbenchError(`port ${o.port} for the SUT is already in use`, 'stop what listens there or choose another SUT port', EXIT.portInUse);
  }
  mkdirSync(dirname(o.logFile), { recursive: true });
  const fd = openSync(o.logFile, 'a');
  let child: ChildProcess;
  try {
    // own process group: a terminal's Ctrl-C reaches the harness only, which stops the SUT in order
    // secrets (a database password) through the environment: /proc/<pid>/environ is readable by this user only
    const { cmd, args, env } = sutSpawnCommand(o);
    const inherited = { ...process.env };
    delete inherited[CONTROL_TOKEN_ENV]; // only the run's own token, when it has one
    child = spawn(cmd, args, { stdio: ['ignore', fd, fd], detached: true, env: { ...inherited, ...env } });
  } finally {
    closeSync(fd); // the child holds its own copy
  }
  const graceMs = o.stopGraceMs ?? 5_000;
  const baseUrl = httpOrigin(bindAddress, o.port);
  let spawnError: Error | null = null;
  child.once('error', (e) => (spawnError = e));

  const deadline = Date.now() + o.readyTimeoutMs;
  while (true) {
    if (o.signal?.aborted) {
      await stopChild(child, 1_000);
      throw interruptedError('the SUT start');
    }
    if (spawnError !== null || child.exitCode !== null || child.signalCode !== null) {
      const how = spawnError !== null ? `could not be started (${(spawnError as Error).message})` : `exited with ${child.exitCode ?? child.signalCode}`;
      throw new VtbenchError(
        `the SUT ${how} before it was ready; last lines of ${o.logFile}:\n${tailOf(o.logFile)}`,
        'read the SUT log above; a bad bench.* value is named on its own line',
        EXIT.notReady,
      );
    }
    try {
      const info = await getInfo(baseUrl, 2_000);
      const pid = child.pid ?? -1;
      return { pid, baseUrl, info, stop: () => stopChild(child, graceMs) };
    } catch {
      /* not ready yet */
    }
    if (Date.now() > deadline) {
      await stopChild(child, 1_000);
      throw new VtbenchError(
        `the SUT was not ready within ${o.readyTimeoutMs} ms (GET ${baseUrl}/bench/info); last lines of ${o.logFile}:\n${tailOf(o.logFile)}`,
        'raise the ready timeout or check the SUT log',
        EXIT.notReady,
      );
    }
    await sleep(200, o.signal);
  }
}
