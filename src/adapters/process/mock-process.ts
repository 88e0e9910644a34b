/**
 * Start the mock LLM (mock/src/cli.ts) in its own process for the whole run, output to a log file.
 */
import type { MockFaults } from '../../types/run.ts';
import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { VtbenchError, EXIT } from '../../types/errors.ts';
import { checkAnswer } from '../store/answers.ts';
import { stopChild, tailOf } from '../jvm/sut-process.ts';
import { interruptedError } from '../jvm/build.ts';
import { DEFAULT_BIND_ADDRESS, httpOrigin } from '../jvm/bind.ts';
import type { MockStats } from '../../types/mock.ts';
import { MOCK_NODE_FLAGS } from './node-flags.ts';
import { CONTROL_TOKEN_ENV, CONTROL_TOKEN_HEADER } from './control-token.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface MockProcess {
  pid: number;
  /** base URL without /v1, e.g. http://127.0.0.1:19000 */
  url: string;
  stop(): Promise<void>;
}

/** Wait until `pred` resolves true, polling every `everyMs`; false on timeout. */
export async function waitFor(pred: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await pred().catch(() => false)) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return false;
}

/** The mock's command-line flags of a run's injected faults (mock/src/config.ts); none without faults. */
export function mockFaultArgs(f: MockFaults | undefined): string[] {
  if (!f) return [];
  return ['--error-rate', String(f.errorRate), '--error-status', String(f.errorStatus), '--reset-rate', String(f.resetRate),
    ...(f.hangRate !== undefined ? ['--hang-rate', String(f.hangRate)] : []), '--seed', String(f.seed)];
}

/** The mock's `--parent-pid` flag: `parentPid` (default this process), none for null. */
export function parentPidArgs(parentPid: number | null | undefined): string[] {
  const pid = parentPid === undefined ? process.pid : parentPid;
  return pid === null ? [] : ['--parent-pid', String(pid)];
}

/**
 * Runs with the mock's Node flags (src/adapters/process/node-flags.ts MOCK_NODE_FLAGS). Listens on `host`
 * (default 127.0.0.1, the mock's own default too). The mock exits when
 * `parentPid` does (default: this process, so a harness or test killed with SIGKILL leaves no mock
 * behind; null: it runs until stopped). `controlToken`: the token its control calls need
 * (VTBENCH_CONTROL_TOKEN in its environment); null or absent: none, every control call is refused.
 * @throws VtbenchError(EXIT.notReady) with the log tail if /health does not answer in readyTimeoutMs
 */
export async function startMockProcess(o: { port: number; latencyMs: number; logFile: string; readyTimeoutMs?: number; host?: string; faults?: MockFaults; streamHeaders?: 'arrival' | 'first-token'; parentPid?: number | null; controlToken?: string | null; signal?: AbortSignal }): Promise<MockProcess> {
  const fd = openSync(o.logFile, 'a');
  const host = o.host ?? DEFAULT_BIND_ADDRESS;
  const child = spawn(process.execPath, [...MOCK_NODE_FLAGS, '--import', 'tsx', 'mock/src/cli.ts', '--port', String(o.port), '--host', host, '--latency-ms', String(o.latencyMs), ...mockFaultArgs(o.faults), ...(o.streamHeaders ? ['--stream-headers', o.streamHeaders] : []), ...parentPidArgs(o.parentPid)], {
    cwd: ROOT,
    // the run's control token in the environment (readable by this user only), never in the arguments
    env: childEnvWithToken(o.controlToken ?? null),
    stdio: ['ignore', fd, fd],
    detached: true, // own process group: Ctrl-C reaches the harness only, which stops the mock last
  });
  closeSync(fd);
  const url = httpOrigin(host, o.port);
  let exited = false;
  child.once('exit', () => { exited = true; });
  const ready = await waitFor(async () => {
    if (exited || o.signal?.aborted) return true;
    const r = await request(`${url}/health`);
    await r.body.dump();
    return r.statusCode === 200;
  }, o.readyTimeoutMs ?? 30_000);
  if (o.signal?.aborted) {
    await stopChild(child, 1_000);
    throw interruptedError('the mock start');
  }
  if (!ready || exited) {
    await stopChild(child);
    throw new VtbenchError(`mock LLM did not become ready on port ${o.port}:\n${tailOf(o.logFile, 20)}`, `see ${o.logFile}`, EXIT.notReady);
  }
  return { pid: child.pid!, url, stop: () => stopChild(child) };
}

/**
 * POST /stats/reset of the mock with the run's control token (header x-vtbench-token): forget served, peak in flight, lateness and faults, so what is read
 * afterwards describes what happened since. Returns the snapshot right after the reset; null if the
 * mock does not answer (then nothing read later may be taken as per-cell).
 */
export function resetMockStats(url: string, controlToken: string | null): Promise<MockStats | null> {
  return statsCall(`${url}/stats/reset`, 'POST', controlToken === null ? {} : { [CONTROL_TOKEN_HEADER]: controlToken });
}

/**
 * This process's environment for a child, with VTBENCH_CONTROL_TOKEN set to `token` (removed when
 * null, so a token of the harness's own environment reaches only the children meant to have it).
 */
export function childEnvWithToken(token: string | null): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (token === null) delete env[CONTROL_TOKEN_ENV];
  else env[CONTROL_TOKEN_ENV] = token;
  return env;
}

/** GET /stats of the mock; null if it does not answer. */
export function getMockStats(url: string): Promise<MockStats | null> {
  return statsCall(`${url}/stats`, 'GET');
}

/**
 * One call to the mock's statistics routes (5 s timeouts); null when it does not answer with 200.
 * @throws MalformedAnswerError (exit 6) when it answers 200 with something that is not its statistics
 */
async function statsCall(url: string, method: 'GET' | 'POST', headers: Record<string, string> = {}): Promise<MockStats | null> {
  let text: string;
  try {
    const r = await request(url, { method, headers, headersTimeout: 5000, bodyTimeout: 5000 });
    if (r.statusCode !== 200) { await r.body.dump(); return null; }
    text = await r.body.text();
  } catch {
    return null;
  }
  const u = new URL(url);
  return checkAnswer<MockStats>('MockStats', text, { component: 'mock LLM', url: u.origin, endpoint: `${method} ${u.pathname}` });
}
