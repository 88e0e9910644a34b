/**
 * The request a load driver dispatches on every send, built once per cell, and its connections'
 * undici options (shared by the closed- and open-loop drivers).
 */
import type { Dispatcher } from 'undici';
import type { LoadOptions } from '../types/load.ts';

/**
 * The frozen dispatch options of a cell's request: path, method, the body encoded to a Buffer once
 * (absent = none), and the given headers — by default `content-type: application/json` with a
 * body, none without. Pure.
 */
export function dispatchOptionsOf(o: Pick<LoadOptions, 'path' | 'method' | 'body' | 'headers'>): Dispatcher.DispatchOptions {
  return Object.freeze({
    path: o.path,
    method: o.method,
    ...(o.body !== undefined ? { body: Buffer.from(o.body) } : {}),
    headers: o.headers ?? (o.body !== undefined ? { 'content-type': 'application/json' } : {}),
  });
}

/** The client's own idle timeout: far longer than any gap in a closed loop or between arrivals (10 min). */
const CLIENT_KEEP_ALIVE_MS = 600_000;

/**
 * The undici options of a cell's connections (a closed loop's Client per worker, an open loop's
 * Pool): one request at a time per connection (no pipelining), the cell's connect, headers and
 * body timeouts in ms, and an idle keep-alive far longer than any idle gap in a closed loop or
 * between arrivals, so the client closes no connection mid-cell. Pure.
 */
export function connectionOptionsOf(o: { connectTimeoutMs: number; headersTimeoutMs: number; bodyTimeoutMs: number }) {
  return {
    pipelining: 1,
    connectTimeout: o.connectTimeoutMs,
    headersTimeout: o.headersTimeoutMs,
    bodyTimeout: o.bodyTimeoutMs,
    keepAliveTimeout: CLIENT_KEEP_ALIVE_MS,
    keepAliveMaxTimeout: CLIENT_KEEP_ALIVE_MS,
  };
}
