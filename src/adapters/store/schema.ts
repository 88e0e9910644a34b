/**
 * JSON Schemas of the run files, generated from the TypeScript types in types.ts with
 * ts-json-schema-generator (`npm run schema` rewrites schema/*.schema.json; a test checks the
 * committed files equal a fresh generation, so types and schema never drift).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import type { CompactRequests } from '../../types/run.ts';
import { requestsFromFile } from './requests-codec.ts';

export const SCHEMA_DIR = fileURLToPath(new URL('../../../schema/', import.meta.url));

/** Root type name -> schema file. */
export const SCHEMA_FILES = {
  RunManifest: 'manifest.schema.json',
  CellFile: 'cell.schema.json',
  /** a cell with its samples inline (hand-made fixtures; RunStore.readCell accepts both forms) */
  CellResult: 'cell-result.schema.json',
  SutSamples: 'samples.schema.json',
  CompactRequests: 'requests.schema.json',
  RunSummary: 'summary.schema.json',
  ThreadDumpSummary: 'threaddump-summary.schema.json',
} as const;

export type SchemaName = keyof typeof SCHEMA_FILES;

const cache = new Map<SchemaName, ValidateFunction>();

/** File kinds whose arrays grow with the requests or the run time. */
const LARGE: ReadonlySet<SchemaName> = new Set(['CompactRequests', 'SutSamples']);

/** A compiled validator for one file kind. */
export function validator(name: SchemaName): ValidateFunction {
  let v = cache.get(name);
  if (!v) {
    const schema = JSON.parse(readFileSync(join(SCHEMA_DIR, SCHEMA_FILES[name]), 'utf8')) as object;
    // per-request and sample files hold up to millions of values: stop at the first error there,
    // so a file that is wrong everywhere cannot make millions of error objects
    v = new Ajv({ allErrors: !LARGE.has(name), strict: false }).compile(schema);
    cache.set(name, v);
  }
  return v;
}

/**
 * Validate a value; returns a list of readable errors (empty = valid), each `<JSON pointer> <what>`,
 * e.g. `/e2eMs/17 must be number` or `/ must NOT have additional properties (extra)`.
 */
export function validate(name: SchemaName, value: unknown): string[] {
  const v = validator(name);
  if (v(value)) return [];
  return (v.errors ?? []).map((e) => {
    const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty)})` : '';
    return `${e.instancePath || '/'} ${e.message ?? 'invalid'}${extra}`;
  });
}

/** A file read and checked against its schema: its value, or why it is unusable. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** How many schema errors of one file are worth printing (the rest are counted). */
const MAX_PROBLEMS = 3;

/**
 * Parse bytes (gunzip first when `gz`) as JSON and validate against `name` (a per-request file stored
 * encoded, src/adapters/store/requests-codec.ts, is decoded first). Pure. Each problem
 * names the file: `<label>: not valid JSON (…)`, `<label>: /e2eMs/17 must be number`; at most
 * three schema errors, then `<label>: … and N more`.
 * @param label the file as the user should see it, e.g. `cells/<variant>-c10-r1.requests.json.gz`
 */
export function parseChecked<T>(name: SchemaName, label: string, bytes: Buffer, gz: boolean): Checked<T> {
  let text: string;
  try {
    text = gz ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
  } catch (e) {
    return { ok: false, problems: [`${label}: not valid gzip (${firstLine(e)})`] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, problems: [`${label}: not valid JSON (${firstLine(e)})`] };
  }
  if (name === 'CompactRequests') {
    // a per-request file in the encoded layout (format 2) is checked as the columns it decodes to
    try {
      value = requestsFromFile(value);
    } catch (e) {
      return { ok: false, problems: [`${label}: not a valid encoded requests file (${firstLine(e)})`] };
    }
  }
  const errs = validate(name, value);
  if (errs.length === 0) return { ok: true, value: value as T };
  const shown = errs.slice(0, MAX_PROBLEMS).map((x) => `${label}: ${x}`);
  if (errs.length > MAX_PROBLEMS) shown.push(`${label}: … and ${errs.length - MAX_PROBLEMS} more schema error(s)`);
  return { ok: false, problems: shown };
}

/**
 * What a schema cannot say about per-request columns: every column has the same length; so do the
 * columns of an open loop's `unsent` requests (an object of its own columns, CompactRequests.unsent)
 * and those of a WebSocket cell's `ws.messages` and `ws.drops` (CompactRequests.ws), each block on its own.
 * @returns problems, each naming the file and the column (empty = consistent)
 */
export function requestColumnProblems(label: string, req: Record<string, unknown>): string[] {
  const { unsent, timingMs, ws, ...columns } = req;
  const check = (prefix: string, obj: Record<string, unknown>, n0?: { n: number; name: string }): string[] => {
    const cols = Object.entries(obj).filter((x): x is [string, readonly unknown[]] => Array.isArray(x[1]));
    const ref = n0 ?? { n: cols[0]?.[1].length ?? 0, name: `${prefix}/${cols[0]?.[0] ?? ''}` };
    return cols.filter(([, v]) => v.length !== ref.n).map(([k, v]) => `${label}: ${prefix}/${k} has ${v.length} entries, ${ref.name} has ${ref.n}`);
  };
  const first = Object.entries(columns).find((x) => Array.isArray(x[1])) as [string, unknown[]] | undefined;
  const block = (prefix: string, v: unknown): string[] => (v !== null && typeof v === 'object' ? check(prefix, v as Record<string, unknown>) : []);
  const w = ws !== null && typeof ws === 'object' ? (ws as Record<string, unknown>) : {};
  return [
    ...check('', columns),
    // the other Server-Timing columns (CompactRequests.timingMs): as long as the main columns
    ...(timingMs !== null && typeof timingMs === 'object' && first ? check('/timingMs', timingMs as Record<string, unknown>, { n: first[1].length, name: `/${first[0]}` }) : []),
    ...block('/unsent', unsent), ...block('/ws/messages', w['messages']), ...block('/ws/drops', w['drops']),
  ];
}

/** How many impossible values of one requests file are named (the rest are counted). */
const MAX_VALUE_PROBLEMS = 3;

/**
 * Impossible values in a requests file whose shape is valid (CompactRequests, columns of one length):
 * durations (E2E, every Server-Timing column, open-loop and WebSocket times) that are negative or not
 * finite (`1e400` parses as Infinity), a send before the cell's t0 (`startMs`, `intendedStartMs` < 0),
 * an answer after the cell ended (`startMs + e2eMs` beyond the cell's `durationMs`, when given), and
 * HTTP statuses outside 100–599 (0 = no answer). Each names the file, the column and the row, e.g.
 * `cells/x.requests.json.gz: /e2eMs/17 is -5000000000 (a duration is finite and >= 0)`; at most
 * three, then a count. Pure. Part of checkCell, so every reader (resume, report, resummarize, merge)
 * refuses the same files.
 * @param cellDurationMs the cell's `durationMs` (its load lies within it after t0); absent: not checked
 */
export function requestValueProblems(label: string, req: CompactRequests, cellDurationMs?: number): string[] {
  const out: string[] = [];
  let more = 0;
  const bad = (msg: string) => {
    if (out.length < MAX_VALUE_PROBLEMS) out.push(`${label}: ${msg}`);
    else more++;
  };
  const isDur = (x: number) => Number.isFinite(x) && x >= 0;
  const durations = (path: string, col: readonly (number | null)[] | undefined) => {
    if (!col) return;
    for (let i = 0; i < col.length; i++) {
      const x = col[i];
      if (x !== null && x !== undefined && !isDur(x)) bad(`${path}/${i} is ${x} (a duration is finite and >= 0)`);
    }
  };
  durations('/e2eMs', req.e2eMs);
  durations('/startMs', req.startMs);
  durations('/intendedStartMs', req.intendedStartMs);
  durations('/queueMs', req.queueMs);
  durations('/execMs', req.execMs);
  durations('/permitMs', req.permitMs);
  durations('/ttftMs', req.ttftMs);
  durations('/gapMeanMs', req.gapMeanMs);
  durations('/gapMaxMs', req.gapMaxMs);
  for (const [k, col] of Object.entries(req.timingMs ?? {})) durations(`/timingMs/${k}`, col);
  durations('/unsent/intendedStartMs', req.unsent?.intendedStartMs);
  durations('/ws/messages/scheduledMs', req.ws?.messages.scheduledMs);
  durations('/ws/messages/receiveMs', req.ws?.messages.receiveMs);
  durations('/ws/messages/queueMs', req.ws?.messages.queueMs);
  durations('/ws/drops/atMs', req.ws?.drops.atMs);
  for (let i = 0; i < req.status.length; i++) {
    const st = req.status[i]!;
    if (st !== 0 && !(Number.isInteger(st) && st >= 100 && st <= 599)) bad(`/status/${i} is ${st} (an HTTP status is 100–599, or 0 for no answer)`);
  }
  if (cellDurationMs !== undefined && Number.isFinite(cellDurationMs)) {
    for (let i = 0; i < req.e2eMs.length; i++) {
      const end = req.startMs[i]! + req.e2eMs[i]!;
      if (isDur(req.startMs[i]!) && isDur(req.e2eMs[i]!) && end > cellDurationMs + 1) bad(`/startMs/${i} + /e2eMs/${i} = ${end} ms after t0, after the cell ended (its durationMs is ${cellDurationMs})`);
    }
  }
  if (more > 0) out.push(`${label}: … and ${more} more impossible value(s)`);
  return out;
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split('\n')[0] ?? '';
}
