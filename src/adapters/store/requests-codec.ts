/**
 * The compact encoding of a per-request file (`cells/<id>.requests.json.gz`, CompactRequests),
 * format `vtbench-requests/2`: the same values, stored so that a compressor finds them smaller.
 * Lossless by construction and checked: every value decodes to exactly what was encoded (Object.is),
 * and encodeRequests refuses a column it cannot store exactly (it keeps that column as it was).
 *
 * Why: a run of study 002 held 35 MB of per-request files (140,000 requests a cell, a dozen timing
 * columns, ms with 3 decimals as JSON text); issue 31 asks a committed run ≤ 15 MB without dropping
 * raw records. Measured on that run (gzip -9 of each column alone, see docs/run-format.md): ms as
 * integer µs and each value stored as its difference from a prediction made of values decoded before
 * it (the previous value; the previous end of the same worker; …) shrinks the timing columns 2–10×.
 *
 * Layout (JSON, then compressed as before):
 *   { format: 'vtbench-requests/2', paths: [leaf paths in the original key order, e.g. 'timingMs/db'],
 *     groups: [{ n, columns: [{ path, raw: [...] } | { path, scale, pred, v: [residuals] }] }] }
 * A group is a set of columns of one length (the requests; `unsent/*`; `ws/messages/*`; `ws/drops/*`).
 * A coded column's value i is (v[i] + prediction_i) / scale (null stays null); `scale` is 1000 for ms
 * (µs integers) and 1 for integer columns. Predictions (Pred) use only values already decoded: the
 * columns before it in the group's stored order (same row) or earlier rows of any column.
 */
import { gzipSync } from 'node:zlib';

/** The format tag of an encoded requests file. */
export const REQUESTS_FORMAT = 'vtbench-requests/2';

/**
 * How value i of a column is predicted, in the column's integer units (value × scale, nulls as 0):
 * - `['none']`: 0
 * - `['delta']`: the column's previous non-null value (0 before the first)
 * - `['ref', c]`: column c's value in the same row (e.g. startMs from intendedStartMs: the send delay remains)
 * - `['endDelta', c]`: the previous row's (self + c) minus this row's c, i.e. self + c is stored as a
 *   difference from the previous row's (e2eMs with c = startMs: the end times, nearly sorted)
 * - `['keyPrevEnd', k, a, b]`: a + b of the previous row with the same key k (0 for the key's first row;
 *   intendedStartMs of a closed loop is its worker's previous start + E2E latency)
 * - `['keyPrev', k]`: the column's value in the previous row with the same key (0 for the first)
 * - `['keyCount', k]`: how many earlier rows have the same key (seq = index within the worker)
 */
export type Pred = ['none'] | ['delta'] | ['ref', string] | ['endDelta', string] | ['keyPrevEnd', string, string, string] | ['keyPrev', string] | ['keyCount', string];

/** One stored column: as it was (`raw`), or coded residuals. */
export type EncodedColumn = { path: string; raw: unknown[] } | { path: string; scale: 1 | 1000; pred: Pred; v: (number | null)[] };

/** An encoded requests file (before compression). */
export interface EncodedRequests {
  format: typeof REQUESTS_FORMAT;
  paths: string[];
  groups: { n: number; columns: EncodedColumn[] }[];
}

type Col = readonly unknown[];

/**
 * Candidate predictions per column (path within its group), tried in order; the encoder keeps the one
 * whose residuals gzip smallest (ties: the earlier). Same-row references (`ref`, `endDelta`) form no
 * cycle, so a decode order always exists. A column not listed is tried with `none` and `delta`.
 */
const CANDIDATES: Record<string, Pred[]> = {
  worker: [['none'], ['delta']],
  seq: [['none'], ['delta'], ['keyCount', 'worker']],
  intendedStartMs: [['delta'], ['keyPrevEnd', 'worker', 'startMs', 'e2eMs']],
  startMs: [['delta'], ['ref', 'intendedStartMs']],
  e2eMs: [['delta'], ['endDelta', 'startMs']],
  execMs: [['delta'], ['ref', 'timingMs/db']],
  'ws/messages/seq': [['none'], ['delta'], ['keyCount', 'ws/messages/conn']],
  'ws/messages/scheduledMs': [['delta'], ['keyPrev', 'ws/messages/conn']],
  'ws/messages/receiveMs': [['delta'], ['ref', 'ws/messages/scheduledMs']],
};

/** Same-row columns a prediction reads (must be decoded before it). */
function sameRowDeps(p: Pred): string[] {
  return p[0] === 'ref' || p[0] === 'endDelta' ? [p[1]] : [];
}

/** Every array leaf of an object with its '/'-joined path, in key order; null when a leaf is not an array or a key holds '/'. */
function leaves(obj: Record<string, unknown>, prefix = ''): [string, Col][] | null {
  const out: [string, Col][] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (k.includes('/') || k === '__proto__' || k === '') return null; // a key a path cannot carry back: store the file as it is
    const path = prefix === '' ? k : `${prefix}/${k}`;
    if (Array.isArray(v)) out.push([path, v]);
    else if (v !== null && typeof v === 'object') {
      const sub = leaves(v as Record<string, unknown>, path);
      if (sub === null) return null;
      out.push(...sub);
    } else return null;
  }
  return out;
}

/** The group of a leaf: `unsent`, `ws/messages`, `ws/drops`, or '' (the requests, timingMs included). */
function groupOf(path: string): string {
  for (const g of ['unsent/', 'ws/messages/', 'ws/drops/']) if (path.startsWith(g)) return g.slice(0, -1);
  return '';
}

/** The integer scale a column can be stored at exactly: 1 (safe integers), 1000 (ms with ≤ 3 decimals), or null. */
export function exactScale(xs: Col): 1 | 1000 | null {
  let ints = true;
  for (const x of xs) {
    if (x === null) continue;
    if (typeof x !== 'number' || Object.is(x, -0)) return null;
    if (!Number.isSafeInteger(x)) {
      ints = false;
      const n = Math.round(x * 1000);
      if (!Number.isSafeInteger(n) || n / 1000 !== x) return null;
    }
  }
  return ints ? 1 : 1000;
}

/** A column's value i in integer units (nulls and non-numbers as 0). */
const unit = (xs: Col, i: number, scale: number): number => { const x = xs[i]; return typeof x === 'number' ? Math.round(x * scale) : 0; };

/**
 * The running state of one prediction over the rows of a group: `at(i)` predicts row i from what is
 * decoded so far, `commit(i)` records row i once the whole row is known. Shared by encoder and decoder,
 * so both compute the same predictions from the same values.
 */
function predictor(p: Pred, self: Col, cols: ReadonlyMap<string, Col>, scale: number): { at(i: number): number; commit(i: number): void } {
  const col = (name: string): Col => cols.get(name) ?? [];
  const key = (c: Col, i: number): unknown => c[i];
  switch (p[0]) {
    case 'none': return { at: () => 0, commit: () => {} };
    case 'delta': {
      let last = 0;
      return { at: () => last, commit: (i) => { if (self[i] !== null) last = unit(self, i, scale); } };
    }
    case 'ref': { const r = col(p[1]); return { at: (i) => unit(r, i, scale), commit: () => {} }; }
    case 'endDelta': {
      const r = col(p[1]);
      let prev = 0;
      return { at: (i) => prev - unit(r, i, scale), commit: (i) => { if (self[i] !== null) prev = unit(self, i, scale) + unit(r, i, scale); } };
    }
    case 'keyPrevEnd': {
      const [k, a, b] = [col(p[1]), col(p[2]), col(p[3])];
      const m = new Map<unknown, number>();
      return { at: (i) => m.get(key(k, i)) ?? 0, commit: (i) => { m.set(key(k, i), unit(a, i, scale) + unit(b, i, scale)); } };
    }
    case 'keyPrev': {
      const k = col(p[1]);
      const m = new Map<unknown, number>();
      return { at: (i) => m.get(key(k, i)) ?? 0, commit: (i) => { if (self[i] !== null) m.set(key(k, i), unit(self, i, scale)); } };
    }
    case 'keyCount': {
      const k = col(p[1]);
      const m = new Map<unknown, number>();
      return { at: (i) => m.get(key(k, i)) ?? 0, commit: (i) => { m.set(key(k, i), (m.get(key(k, i)) ?? 0) + 1); } };
    }
  }
}

/** Residuals of a column under a prediction (encoding; `cols` holds every original column). */
function residuals(self: Col, p: Pred, cols: ReadonlyMap<string, Col>, scale: number): (number | null)[] {
  const pr = predictor(p, self, cols, scale);
  const out: (number | null)[] = new Array<number | null>(self.length);
  for (let i = 0; i < self.length; i++) {
    out[i] = self[i] === null ? null : unit(self, i, scale) - pr.at(i);
    pr.commit(i);
  }
  return out;
}


/** Compressed size of a residual column, the measure the encoder picks a prediction by. */
const cost = (v: readonly (number | null)[]): number => gzipSync(Buffer.from(JSON.stringify(v)), { level: 6 }).length;

/** One column encoded with the prediction whose residuals compress smallest, or raw when no exact scale exists. */
function encodeColumn(path: string, self: Col, cols: ReadonlyMap<string, Col>): EncodedColumn {
  const scale = exactScale(self);
  if (scale === null || self.every((x) => x === null)) return { path, raw: [...self] };
  const usable = (CANDIDATES[path] ?? [['none'], ['delta']]).filter((p) => p.slice(1).every((c) => cols.has(c as string)));
  let best: { pred: Pred; v: (number | null)[]; size: number } | null = null;
  for (const pred of usable) {
    const v = residuals(self, pred, cols, scale);
    const size = cost(v);
    if (best === null || size < best.size) best = { pred, v, size };
  }
  return { path, scale, pred: best!.pred, v: best!.v };
}

/** Columns in an order where every same-row reference comes before the column that reads it (stable otherwise). */
function decodeOrder(columns: EncodedColumn[]): EncodedColumn[] {
  const byPath = new Map(columns.map((c) => [c.path, c] as const));
  const out: EncodedColumn[] = [];
  const seen = new Set<string>();
  const visit = (c: EncodedColumn, stack: Set<string>): void => {
    if (seen.has(c.path)) return;
    if (stack.has(c.path)) throw new Error(`requests codec: same-row references form a cycle at ${c.path}`);
    stack.add(c.path);
    if ('pred' in c) for (const d of sameRowDeps(c.pred)) { const dc = byPath.get(d); if (dc) visit(dc, stack); }
    stack.delete(c.path);
    seen.add(c.path);
    out.push(c);
  };
  for (const c of columns) visit(c, new Set());
  return out;
}

/**
 * Encode a per-request file (pure). Every column of the requests (timingMs included), of `unsent`, of
 * `ws.messages` and of `ws.drops` is stored coded when it holds only numbers (or null) that an integer
 * scale holds exactly, otherwise raw. Nothing is dropped.
 * @returns null when the value is not columns of arrays (it is then stored as it is)
 */
export function encodeRequests(req: object): EncodedRequests | null {
  const all = leaves(req as Record<string, unknown>);
  if (all === null) return null;
  const groups = new Map<string, [string, Col][]>();
  for (const leaf of all) { const g = groupOf(leaf[0]); groups.set(g, [...(groups.get(g) ?? []), leaf]); }
  const out: EncodedRequests = { format: REQUESTS_FORMAT, paths: all.map(([p]) => p), groups: [] };
  for (const [g, cols] of groups) {
    const n = cols[0]![1].length;
    if (cols.some(([, c]) => c.length !== n)) return null; // columns of unequal length: not this layout
    const local = new Map(cols);
    out.groups.push({ n, columns: decodeOrder(cols.map(([p, c]) => encodeColumn(p, c, local))) });
  }
  return out;
}

/** Whether a parsed JSON value is an encoded requests file (format tag). */
export function isEncodedRequests(v: unknown): v is EncodedRequests {
  return v !== null && typeof v === 'object' && (v as { format?: unknown }).format === REQUESTS_FORMAT;
}

/** Decode one group's columns, row by row, into a map path -> values. */
function decodeGroup(n: number, columns: readonly EncodedColumn[], into: Map<string, unknown[]>): void {
  const outs = new Map<string, (number | null)[]>();
  for (const c of columns) {
    const len = 'raw' in c ? c.raw.length : c.v.length;
    if (len !== n) throw new Error(`requests codec: ${c.path} has ${len} values, its group ${n}`);
    if ('raw' in c) into.set(c.path, c.raw);
    else { const out = new Array<number | null>(n); outs.set(c.path, out); into.set(c.path, out); }
  }
  const done = new Set<string>(columns.filter((c) => 'raw' in c).map((c) => c.path));
  const coded: { v: readonly (number | null)[]; scale: number; out: (number | null)[]; pr: ReturnType<typeof predictor> }[] = [];
  for (const c of columns) {
    if ('raw' in c) continue;
    for (const d of sameRowDeps(c.pred)) if (!done.has(d)) throw new Error(`requests codec: ${c.path} reads ${d} of the same row, not decoded before it`);
    for (const d of c.pred.slice(1)) if (!into.has(d)) throw new Error(`requests codec: ${c.path} reads ${d}, which is not stored`);
    done.add(c.path);
    const out = outs.get(c.path)!;
    coded.push({ v: c.v, scale: c.scale, out, pr: predictor(c.pred, out, into, c.scale) });
  }
  for (let i = 0; i < n; i++) {
    for (const c of coded) { const r = c.v[i]; c.out[i] = r === null || r === undefined ? null : (r + c.pr.at(i)) / c.scale; }
    for (const c of coded) c.pr.commit(i);
  }
}

/**
 * Decode an encoded requests file back to the columns it was made of (pure), keys in their original order.
 * @throws Error when the file is inconsistent (a column of the wrong length, a reference to a column not
 *   decoded before it, an unknown prediction)
 */
export function decodeRequests(e: EncodedRequests): Record<string, unknown> {
  const cols = new Map<string, unknown[]>();
  for (const g of e.groups) {
    for (const c of g.columns) if ('pred' in c && !PREDS.has(c.pred[0])) throw new Error(`requests codec: ${c.path} has an unknown prediction ${JSON.stringify(c.pred)}`);
    decodeGroup(g.n, g.columns, cols);
  }
  const out: Record<string, unknown> = {};
  for (const path of e.paths) {
    const parts = path.split('/');
    let o = out;
    for (const k of parts.slice(0, -1)) o = (o[k] ??= {}) as Record<string, unknown>;
    const v = cols.get(path);
    if (v === undefined) throw new Error(`requests codec: ${path} is listed but not stored`);
    o[parts[parts.length - 1]!] = v;
  }
  return out;
}

const PREDS: ReadonlySet<string> = new Set(['none', 'delta', 'ref', 'endDelta', 'keyPrevEnd', 'keyPrev', 'keyCount']);

/**
 * The first place two parsed requests files differ, as a JSON path (e.g. `/e2eMs/17: 12.5 vs 12.499`),
 * or null when they are the same: same keys in the same order, same array lengths, and every value the
 * same by Object.is. Pure.
 */
export function firstDifference(a: unknown, b: unknown, path = ''): string | null {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return `${path || '/'}: an array on one side only`;
    if (a.length !== b.length) return `${path || '/'}: ${a.length} vs ${b.length} values`;
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      const y = b[i];
      if (x !== null && typeof x === 'object') { const d = firstDifference(x, y, `${path}/${i}`); if (d !== null) return d; }
      else if (!Object.is(x, y)) return `${path}/${i}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`;
    }
    return null;
  }
  if (a !== null && typeof a === 'object' && b !== null && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.join('\u0000') !== kb.join('\u0000')) return `${path || '/'}: keys ${ka.join(',')} vs ${kb.join(',')}`;
    for (const k of ka) { const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}/${k}`); if (d !== null) return d; }
    return null;
  }
  return Object.is(a, b) ? null : `${path || '/'}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
}

/**
 * What to store for a per-request file: its encoding, when that decodes back to exactly the same
 * value after a JSON round trip (firstDifference), else the value as it is (the old layout, which
 * every reader still reads). So a fault in the codec costs size, never a record.
 */
export function storedRequests(req: object): EncodedRequests | object {
  const e = encodeRequests(req);
  if (e === null) return req;
  const back = decodeRequests(JSON.parse(JSON.stringify(e)) as EncodedRequests);
  return firstDifference(JSON.parse(JSON.stringify(req)), back) === null ? e : req;
}

/**
 * A parsed requests file in the columns the rest of vtbench reads: decoded when it is encoded
 * (isEncodedRequests), as it is otherwise (files written before format 2).
 * @throws Error from decodeRequests for an inconsistent encoded file
 */
export function requestsFromFile(v: unknown): unknown {
  return isEncodedRequests(v) ? decodeRequests(v) : v;
}
