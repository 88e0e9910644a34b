/**
 * Typed fetchers for the SUT's measurement endpoints (shapes in ./api.ts). Each JSON answer is
 * validated (src/adapters/store/answers.ts): a wrong one throws MalformedAnswerError (exit 6) naming the SUT's
 * URL, the endpoint and what was wrong.
 */
import type { PinnedResponse, SamplesResponse, SutInfo, WsPushStats } from '../../types/sut-api.ts';
import { checkAnswer, type AnswerKind } from '../store/answers.ts';
import { describeFetchError } from './fetch-error.ts';

const DEFAULT_TIMEOUT_MS = 10_000;

async function getText(url: string, timeoutMs: number): Promise<string> {
  let res: Response;
  let body: string;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    body = await res.text();
  } catch (e) {
    // "fetch failed" says nothing: name the cause (connection refused to h:p, a timeout, …)
    throw new Error(`GET ${url}: ${describeFetchError(e, url, timeoutMs)}`, { cause: e });
  }
  if (!res.ok) throw new Error(`GET ${url} -> ${res.status}: ${body.slice(0, 300)}`);
  return body;
}

/** GET a JSON answer, validated against the schema of `kind`. */
async function getJson<T>(url: string, timeoutMs: number, kind: AnswerKind): Promise<T> {
  const text = await getText(url, timeoutMs);
  const u = new URL(url);
  return checkAnswer<T>(kind, text, { component: 'SUT', url: u.origin, endpoint: `GET ${u.pathname}` });
}

const trim = (baseUrl: string): string => baseUrl.replace(/\/+$/, '');

export function getInfo(baseUrl: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<SutInfo> {
  return getJson<SutInfo>(`${trim(baseUrl)}/bench/info`, timeoutMs, 'SutInfo');
}

/** Samples with tEpochMs > sinceEpochMs. */
export function getSamples(baseUrl: string, sinceEpochMs: number, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<SamplesResponse> {
  return getJson<SamplesResponse>(`${trim(baseUrl)}/bench/samples?since=${Math.floor(sinceEpochMs)}`, timeoutMs, 'SamplesResponse');
}

export function getPinned(baseUrl: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<PinnedResponse> {
  return getJson<PinnedResponse>(`${trim(baseUrl)}/bench/pinned`, timeoutMs, 'PinnedResponse');
}

/**
 * The raw JSON thread dump (HotSpotDiagnosticMXBean.dumpThreads, JSON format), including virtual
 * threads. Returned as text so it can be stored as-is; in it `tid` may be a string or a number and
 * `threadCount` is a string.
 */
export function getThreadDump(baseUrl: string, timeoutMs = 60_000): Promise<string> {
  return getText(`${trim(baseUrl)}/bench/threaddump`, timeoutMs);
}

/** `GET /bench/ws`: the WebSocket push scenario's settings and counters (reading resets its tick-lag maximum). */
export function getWsStats(baseUrl: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<WsPushStats> {
  return getJson<WsPushStats>(`${trim(baseUrl)}/bench/ws`, timeoutMs, 'WsPushStats');
}
