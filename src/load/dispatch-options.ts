/**
 * The request a load driver dispatches on every send, built once per cell, and its connections'
 * undici options (shared by the closed- and open-loop drivers).
 */
import type { Dispatcher } from 'undici';
import type { LoadOptions } from '../types/load.ts';
import { mixOrder } from '../compute/target/mix.ts';

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

/** Dispatch options whose headers are a flat `[name, value, …]` array (undici's raw form). */
export type RawHeaderDispatchOptions = Dispatcher.DispatchOptions & { headers: string[] };

/**
 * The requests of a cell with a mix or an id header (LoadOptions.mix, LoadOptions.idHeader), built
 * once per cell. A driver takes one options object per mix entry and per connection (`make`), and per
 * request only writes the id into its last header slot: no object per request. An options object
 * must not be written while undici may still read it (a closed-loop worker has one request in flight;
 * the open loop's Pool may queue the object, so it reuses one only after its request finished).
 */
export interface RequestSet {
  /** the mix's send order (mixOrder of the weights), null without a mix (every request is entry 0) */
  readonly order: readonly number[] | null;
  /** entries: the mix's length, or 1 */
  readonly entries: number;
  /** whether `make`'s objects end with the id header, whose value (the last element of `headers`) the driver sets per request */
  readonly hasId: boolean;
  /** prepended to every id (LoadOptions.idPrefix; '' when none) */
  readonly idPrefix: string;
  /**
   * Options for entry k: path, method, the body's bytes (encoded once per cell, shared), headers as a
   * flat array ending with `idHeader, ''` when an id header is given. With an id header a new mutable
   * object per call; without one the entry's one frozen object.
   */
  make(k: number): RawHeaderDispatchOptions;
}

/**
 * The RequestSet of a cell, or null when it has neither a mix nor an id header (the driver then
 * sends dispatchOptionsOf's one frozen object, as before). A mix entry's headers are sent as given
 * (no content-type added); without a mix the cell's request follows dispatchOptionsOf's rule. A
 * header named like the id header (any case) is dropped in favour of the id. Pure.
 * @throws RangeError for an empty mix, a weight that is not an integer >= 1 (mixOrder), an id
 *   header name that is not an HTTP token, or an id prefix with other than letters, digits, `.`, `_`, `-`
 */
export function requestSetOf(o: Pick<LoadOptions, 'path' | 'method' | 'body' | 'headers' | 'mix' | 'idHeader' | 'idPrefix'>): RequestSet | null {
  const { mix, idHeader } = o;
  const idPrefix = o.idPrefix ?? '';
  if (!/^[0-9A-Za-z._-]*$/.test(idPrefix)) throw new RangeError(`load: idPrefix may hold letters, digits, '.', '_' and '-' only (got ${JSON.stringify(idPrefix)})`);
  if (mix === undefined && idHeader === undefined) return null;
  if (idHeader !== undefined && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(idHeader)) throw new RangeError(`load: idHeader must be an HTTP header name (got ${JSON.stringify(idHeader)})`);
  if (mix !== undefined && mix.length === 0) throw new RangeError('load: mix must hold at least one request');
  const idLower = idHeader?.toLowerCase();
  const template = (e: { path: string; method: string; body?: string; headers: Record<string, string> }): RawHeaderDispatchOptions => {
    const headers: string[] = [];
    for (const [k, v] of Object.entries(e.headers)) if (k.toLowerCase() !== idLower) headers.push(k, v);
    return { path: e.path, method: e.method, ...(e.body !== undefined ? { body: Buffer.from(e.body) } : {}), headers } as RawHeaderDispatchOptions;
  };
  const templates = mix === undefined
    ? [template({ path: o.path, method: o.method, ...(o.body !== undefined ? { body: o.body } : {}), headers: o.headers ?? (o.body !== undefined ? { 'content-type': 'application/json' } : {}) })]
    : mix.map((e) => template({ path: e.path, method: e.method, ...(e.body !== undefined ? { body: e.body } : {}), headers: e.headers ?? {} }));
  const order = mix === undefined ? null : mixOrder(mix.map((e) => e.weight));
  if (idHeader === undefined) {
    const frozen = templates.map((t) => Object.freeze({ ...t, headers: Object.freeze(t.headers) as string[] }));
    return { order, entries: templates.length, hasId: false, idPrefix, make: (k) => frozen[k] as RawHeaderDispatchOptions };
  }
  return {
    order,
    entries: templates.length,
    hasId: true,
    idPrefix,
    make: (k) => {
      const t = templates[k] as RawHeaderDispatchOptions;
      return { ...t, headers: [...t.headers, idHeader, ''] };
    },
  };
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
