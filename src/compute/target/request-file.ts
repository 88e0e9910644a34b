/**
 * The request file of `run.mjs target --requests <file>` (issue 32): the requests a target run sends,
 * parsed and checked before anything starts — pure, no I/O (src/adapters/target/request-file.ts reads
 * the file).
 *
 * Format: JSON Lines (https://jsonlines.org): one JSON object per line; blank lines and lines whose
 * first non-blank character is `#` are skipped. Fields:
 * - `name`    required; a slug [a-z0-9-]{1,40}, unique in the file (names the request in the report)
 * - `method`  one of TARGET_METHODS (src/types/target.ts); default GET
 * - `path`    required; path and query, starting with `/`; no spaces or control characters
 *             (percent-encode them), as undici sends only those (node_modules/undici/lib/core/request.js)
 * - `headers` an object of string values; default {}. A value may hold `${env:NAME}`: NAME must be set
 *             in the environment when the file is read; the header stays unresolved in the TargetRequest
 *             (resolveHeaderValue substitutes it when the request is sent), so no secret reaches a run
 *             or a report. Headers vtbench's HTTP client owns (host, content-length, connection,
 *             transfer-encoding, keep-alive, upgrade, expect) are refused.
 * - `body`    a string, sent as-is; or any other JSON value except null, sent as its JSON.stringify
 *             text with `content-type: application/json` unless the headers name a content-type.
 *             (null is refused: leave `body` out for no body.)
 * - `weight`  an integer 1..MAX_WEIGHT, the request's share of the mix; default 1
 * Unknown fields are refused (a typo such as `"heders"` would otherwise be dropped silently).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { EXIT, VtbenchError } from '../../types/errors.ts';
import { TARGET_METHODS, type TargetMethod, type TargetRequest } from '../../types/target.ts';

/** The largest weight of one request (keeps the mix's order, of length Σ weights, small). */
export const MAX_WEIGHT = 10_000;

/** The fix printed with every error of a request file. */
export const REQUEST_FILE_HINT =
  '--requests takes a file of one JSON object per line (blank lines and # comments skipped), e.g. ' +
  '{"name":"owners","method":"GET","path":"/owners?lastName="}; fields: name (a-z, 0-9, -), method, path, headers, body, weight';

const FIELDS = ['name', 'method', 'path', 'headers', 'body', 'weight'] as const;

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'path'],
  properties: {
    name: { type: 'string', pattern: '^[a-z0-9-]{1,40}$' },
    method: { enum: [...TARGET_METHODS] },
    path: { type: 'string', pattern: '^/' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    body: {},
    weight: { type: 'integer', minimum: 1, maximum: MAX_WEIGHT },
  },
} as const;

let compiled: ValidateFunction | null = null;
/** The compiled schema of one line (compiled once). */
function lineValidator(): ValidateFunction {
  return (compiled ??= new Ajv({ allErrors: true, strict: true }).compile(SCHEMA));
}

/** Headers the HTTP client sets itself or refuses (undici: host, content-length, connection, …). */
const OWNED_HEADERS: ReadonlySet<string> = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'keep-alive', 'upgrade', 'expect']);
/** An HTTP header name: RFC 9110 §5.6.2 token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Characters a header value may hold (undici's headerCharRegex, negated): tab, visible ASCII, obs-text. */
const BAD_HEADER_CHAR = /[^\t\x20-\x7e\x80-\xff]/;
/** Characters a request path may not hold (undici's invalidPathRegex). */
const BAD_PATH_CHAR = /[^\u0021-\u00ff]/;
/** An environment reference in a header value: `${env:NAME}`, NAME a POSIX-style variable name. */
const ENV_REF = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;
/** Anything that opens an environment reference (a malformed one is an error, not literal text). */
const ENV_OPEN = '${env:';

/** The environment variables a header value refers to (`${env:NAME}`), in order, repeats kept. Pure. */
export function envRefsOf(value: string): string[] {
  return [...value.matchAll(ENV_REF)].map((m) => m[1] as string);
}

/**
 * A header value with every `${env:NAME}` replaced by NAME's value in `env` (used when the request is
 * sent; the stored request keeps the reference). Pure. Errors name the variable, never a value.
 * @throws VtbenchError (EXIT.usage) when a referenced variable is not set, or its value holds a
 *   character a header cannot carry (a line break, a control character)
 */
export function resolveHeaderValue(value: string, env: NodeJS.ProcessEnv): string {
  if (!value.includes(ENV_OPEN)) return value;
  return value.replace(ENV_REF, (_, name: string) => {
    const v = env[name];
    if (v === undefined) throw new VtbenchError(`a request header refers to \${env:${name}}, which is not set`, `set ${name} in the environment vtbench runs in`, EXIT.usage);
    if (BAD_HEADER_CHAR.test(v)) throw new VtbenchError(`the environment variable ${name} (used in a request header) holds a line break or control character`, `set ${name} to a value a header can carry`, EXIT.usage);
    return v;
  });
}

const ARTICLE: Record<string, string> = { integer: 'an', object: 'an', array: 'an' };

/** One ajv error of a line as words (the field first). */
function ajvProblem(e: ErrorObject): string {
  const field = e.instancePath.split('/').filter((s) => s !== '');
  const at = field.length === 0 ? 'the line' : field[0] === 'headers' && field.length > 1 ? `header "${field.slice(1).join('/')}"` : `"${field[0]}"`;
  switch (e.keyword) {
    case 'additionalProperties':
      return `unknown field "${String((e.params as { additionalProperty: string }).additionalProperty)}" (fields: ${FIELDS.join(', ')})`;
    case 'required':
      return `missing field "${String((e.params as { missingProperty: string }).missingProperty)}"`;
    case 'type':
      return field.length === 0 ? 'must be a JSON object' : `${at} must be ${ARTICLE[String(e.params.type)] ?? 'a'} ${String(e.params.type)}`;
    case 'enum':
      return `"method" must be one of ${TARGET_METHODS.join(', ')}`;
    case 'pattern':
      return field[0] === 'name' ? '"name" must be 1 to 40 characters of a-z, 0-9 and -' : '"path" must start with /';
    case 'minimum':
    case 'maximum':
      return `"weight" must be an integer from 1 to ${MAX_WEIGHT}`;
    default:
      return `${at} ${e.message ?? 'is invalid'}`;
  }
}

/** The problems ajv cannot find in one line's object (already valid against SCHEMA). */
function extraProblems(o: { path: string; headers?: Record<string, string>; body?: unknown }, env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  if (BAD_PATH_CHAR.test(o.path)) out.push('"path" holds a space or control character (percent-encode it, e.g. %20)');
  const seen = new Map<string, string>();
  for (const [k, v] of Object.entries(o.headers ?? {})) {
    const lower = k.toLowerCase();
    if (!TOKEN.test(k)) out.push(`header name "${k}" is not a valid HTTP header name`);
    else if (OWNED_HEADERS.has(lower)) out.push(`header "${k}" is set by vtbench's HTTP client; leave it out`);
    const before = seen.get(lower);
    if (before !== undefined) out.push(`header "${k}" is given twice ("${before}" and "${k}")`);
    seen.set(lower, k);
    if (BAD_HEADER_CHAR.test(v)) out.push(`header "${k}" holds a line break or control character`);
    const refs = envRefsOf(v);
    if (v.split(ENV_OPEN).length - 1 !== refs.length) out.push(`header "${k}" holds a malformed \${env:…} reference (write \${env:NAME}, NAME of letters, digits and _)`);
    for (const name of new Set(refs)) if (env[name] === undefined) out.push(`header "${k}" refers to \${env:${name}}, but ${name} is not set in the environment`);
  }
  if (o.body === null) out.push('"body" is null: leave the field out for no body, or give the text as a string');
  return out;
}

/** The error of line `line` of `file`. */
const lineError = (file: string, line: number, what: string): VtbenchError => new VtbenchError(`${file} line ${line}: ${what}`, REQUEST_FILE_HINT, EXIT.usage);

/**
 * Parse and check a request file's text (format in the module doc). Pure.
 * @param text the file's text (UTF-8 decoded; a leading BOM and CRLF line ends are accepted)
 * @param file the file as the user gave it, for messages
 * @param env the environment `${env:NAME}` references are checked against (never copied into the result)
 * @returns the requests in file order, defaults filled in (`line` 1-based), headers unresolved
 * @throws VtbenchError (EXIT.usage), hint REQUEST_FILE_HINT, message `<file> line <n>: <what is wrong>`
 *   (all problems of that line, `; `-joined) for the first bad line; `<file> line <n>: name "x" is
 *   already used on line <m>` for a repeated name; `<file>: holds no request …` when no line is a request
 */
export function parseRequestFile(text: string, file: string, env: NodeJS.ProcessEnv): TargetRequest[] {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  const out: TargetRequest[] = [];
  const lineOf = new Map<string, number>();
  const validate = lineValidator();
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const src = (lines[i] as string).replace(/\r$/, '');
    const trimmed = src.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    let value: unknown;
    try {
      value = JSON.parse(src);
    } catch (e) {
      throw lineError(file, line, `not valid JSON (${(e as Error).message})`);
    }
    if (!validate(value)) {
      const problems = [...new Set((validate.errors ?? []).map(ajvProblem))];
      // "must be a JSON object" says it all for an array, a number, a string
      throw lineError(file, line, problems.includes('must be a JSON object') ? 'must be a JSON object' : problems.join('; '));
    }
    const o = value as { name: string; method?: TargetMethod; path: string; headers?: Record<string, string>; body?: unknown; weight?: number };
    const extra = extraProblems(o, env);
    if (extra.length > 0) throw lineError(file, line, extra.join('; '));
    const first = lineOf.get(o.name);
    if (first !== undefined) throw lineError(file, line, `name "${o.name}" is already used on line ${first}`);
    lineOf.set(o.name, line);
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    let body: string | undefined;
    if (typeof o.body === 'string') body = o.body;
    else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    out.push({ name: o.name, method: o.method ?? 'GET', path: o.path, headers, ...(body !== undefined ? { body } : {}), weight: o.weight ?? 1, line });
  }
  if (out.length === 0) {
    throw new VtbenchError(`${file}: holds no request (${lines.length} line${lines.length === 1 ? '' : 's'}, all blank or # comments)`, REQUEST_FILE_HINT, EXIT.usage);
  }
  return out;
}
