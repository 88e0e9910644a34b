/**
 * The request a load driver dispatches on every send, built once per cell (shared by the closed-
 * and open-loop drivers).
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
