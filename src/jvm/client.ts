/** Typed fetchers for the SUT's measurement endpoints (shapes in ./api.ts). */
import type { PinnedResponse, SamplesResponse, SutInfo, WsPushStats } from './api.ts';
import { describeFetchError } from '../core/fetch-error.ts';

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

async function getJson<T>(url: string, timeoutMs: number): Promise<T> {
  return JSON.parse(await getText(url, timeoutMs)) as T;
}

const trim = (baseUrl: string): string => baseUrl.replace(/\/+$/, '');

export function getInfo(baseUrl: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<SutInfo> {
  return getJson<SutInfo>(`${trim(baseUrl)}/bench/info`, timeoutMs);
}

/** Samples with tEpochMs > sinceEpochMs. */
export function getSamples(baseUrl: string, sinceEpochMs: number, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<SamplesResponse> {
  return getJson<SamplesResponse>(`${trim(baseUrl)}/bench/samples?since=${Math.floor(sinceEpochMs)}`, timeoutMs);
}

export function getPinned(baseUrl: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<PinnedResponse> {
  return getJson<PinnedResponse>(`${trim(baseUrl)}/bench/pinned`, timeoutMs);
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
  return getJson<WsPushStats>(`${trim(baseUrl)}/bench/ws`, timeoutMs);
}
