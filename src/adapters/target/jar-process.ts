/**
 * Starts the user's Spring Boot jar for one arm (issue 32, tiers `jar`/`agent`) and waits until it
 * answers HTTP. The arm's Spring properties and the harness's own (the port, Tomcat's and Hikari's
 * MBeans) go on the command line as `--key=value`; the user's arguments follow and win on a clash
 * (Spring Boot: the last occurrence of a command-line property wins). Environment values are passed
 * through the process environment only (never a command line, a log or the run).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { request } from 'undici';
import { EXIT, VtbenchError } from '../../types/errors.ts';
import { refuseJvmInTestTiers, type Jdk } from '../jvm/jdk.ts';
import { stopChild, tailOf } from '../jvm/sut-process.ts';
import { interruptedError } from '../jvm/build.ts';
import { startWatchdog } from '../process/watchdog.ts';

/** How often a starting target is asked whether it is ready, ms. */
export const READY_POLL_MS = 500;

/** Properties vtbench adds to every target JVM so its MBeans exist (DESIGN.md, "JMX names"). */
export const TARGET_HARNESS_PROPERTIES: Readonly<Record<string, string>> = {
  'server.tomcat.mbeanregistry.enabled': 'true',
  'spring.datasource.hikari.register-mbeans': 'true',
};

export interface StartTargetOptions {
  jdk: Jdk;
  jar: string;
  port: number;
  /** JVM flags before `-jar` (JFR, JMX, `-javaagent`) */
  jvmFlags: string[];
  /** the arm's Spring properties */
  properties: Readonly<Record<string, string>>;
  /** the user's own arguments, after ours */
  userArgs: readonly string[];
  /** extra environment (values never logged) */
  env: Readonly<Record<string, string>>;
  logFile: string;
  /** a path that answers once the service is up (the first request of the mix) */
  readyPath: string;
  readyTimeoutMs: number;
  /**
   * a string on this start's command line and on no other process's (e.g. its JFR folder under the
   * run): the watchdog signals the pid only while its command line still holds it; default the jar's path
   */
  marker?: string;
  signal?: AbortSignal;
}

export interface TargetProcess {
  pid: number;
  baseUrl: string;
  /** true while the process has not exited */
  alive(): boolean;
  /** how it exited, or null while alive */
  exit(): string | null;
  stop(): Promise<void>;
}

/** The argument list of the target JVM (pure; for the record and the tests). */
export function targetArgs(o: Pick<StartTargetOptions, 'jar' | 'port' | 'jvmFlags' | 'properties' | 'userArgs'>): string[] {
  const props = { 'server.port': String(o.port), 'server.address': '127.0.0.1', ...TARGET_HARNESS_PROPERTIES, ...o.properties };
  return [...o.jvmFlags, '-jar', o.jar, ...Object.entries(props).map(([k, v]) => `--${k}=${v}`), ...o.userArgs];
}

async function answers(url: string): Promise<number | null> {
  try {
    const r = await request(url, { headersTimeout: 5_000, bodyTimeout: 5_000 });
    await r.body.dump();
    return r.statusCode;
  } catch {
    return null;
  }
}

/**
 * Spawns `java <flags> -jar <jar> --server.port=… <arm properties> <user args>` and waits until
 * `GET <readyPath>` answers with a status below 500.
 * @throws VtbenchError EXIT.notReady with the last lines of the log when it exits first or is not
 *   ready within `readyTimeoutMs`; EXIT.portInUse when the port already answers; interrupted on abort
 */
export async function startTargetJar(o: StartTargetOptions): Promise<TargetProcess> {
  refuseJvmInTestTiers('starting the target JVM');
  const baseUrl = `http://127.0.0.1:${o.port}`;
  if ((await answers(baseUrl + '/')) !== null) throw new VtbenchError(`port ${o.port} for the target already answers`, 'stop what listens there or choose another --target-port', EXIT.portInUse);
  mkdirSync(dirname(o.logFile), { recursive: true });
  const fd = openSync(o.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(join(o.jdk.home, 'bin', 'java'), targetArgs(o), { stdio: ['ignore', fd, fd], detached: true, env: { ...process.env, ...o.env } });
  } finally {
    closeSync(fd);
  }
  let spawnError: Error | null = null;
  child.once('error', (e) => (spawnError = e));
  const exitOf = (): string | null => (spawnError !== null ? `could not start (${(spawnError as Error).message})` : child.exitCode !== null ? `exit ${child.exitCode}` : child.signalCode !== null ? `signal ${child.signalCode}` : null);
  // detached (Ctrl-C reaches the harness, which stops it in order), so a harness killed outright would leave it
  // running: a watchdog stops it then (SIGTERM, 10 s, SIGKILL), only while its command line still holds this start's marker
  const watchdog = child.pid !== undefined ? startWatchdog(child.pid, { name: 'vtbench-target-watchdog', marker: o.marker ?? o.jar, signal: 'TERM', graceS: 10 }) : null;
  const stop = async (graceMs: number): Promise<void> => {
    watchdog?.disarm();
    await stopChild(child, graceMs);
  };
  const handle: TargetProcess = { pid: child.pid ?? -1, baseUrl, alive: () => exitOf() === null, exit: exitOf, stop: () => stop(10_000) };
  const deadline = Date.now() + o.readyTimeoutMs;
  for (;;) {
    if (o.signal?.aborted) {
      await stop(1_000);
      throw interruptedError('the target start');
    }
    const gone = exitOf();
    if (gone !== null) {
      watchdog?.disarm();
      throw new VtbenchError(`the target (${o.jar}) ended before it was ready (${gone}); last lines of ${o.logFile}:\n${tailOf(o.logFile)}`, 'read the target log above; check --target-arg, --target-env and the database options', EXIT.notReady);
    }
    const status = await answers(baseUrl + o.readyPath);
    if (status !== null && status < 500) return handle;
    if (Date.now() > deadline) {
      await stop(5_000);
      throw new VtbenchError(
        `the target was not ready within ${Math.round(o.readyTimeoutMs / 1000)} s (GET ${baseUrl}${o.readyPath} ${status === null ? 'did not answer' : `answered ${status}`}); last lines of ${o.logFile}:\n${tailOf(o.logFile)}`,
        'raise --ready-timeout-s, or check the target log above',
        EXIT.notReady,
      );
    }
    await new Promise((r) => setTimeout(r, READY_POLL_MS));
  }
}

/**
 * A JSON thread dump of any JVM with virtual threads (`jcmd <pid> Thread.dump_to_file -format=json <file>`).
 * @throws Error with jcmd's output when it fails
 */
export function jcmdThreadDump(jdk: Jdk, pid: number, file: string, timeoutMs = 120_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const c = spawn(join(jdk.home, 'bin', 'jcmd'), [String(pid), 'Thread.dump_to_file', '-overwrite', '-format=json', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    c.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const t = setTimeout(() => c.kill('SIGKILL'), timeoutMs);
    c.once('exit', (code) => {
      clearTimeout(t);
      if (code === 0 && !/Exception|not found|error/i.test(out)) resolve();
      else reject(new Error(`jcmd Thread.dump_to_file: ${out.trim().slice(-1000)}`));
    });
  });
}
