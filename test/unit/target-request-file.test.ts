/**
 * The request file of `target --requests` (src/compute/target/request-file.ts, src/adapters/target/request-file.ts):
 * every bad line is refused before anything starts, naming its line; defaults, body forms and
 * `${env:NAME}` references.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { parseRequestFile, resolveHeaderValue, envRefsOf, MAX_WEIGHT } from '../../src/compute/target/request-file.ts';
import { readRequestFile } from '../../src/adapters/target/request-file.ts';
import { EXIT, VtbenchError } from '../../src/types/errors.ts';

const F = 'reqs.jsonl';
const OK = '{"name":"ok","path":"/ok"}';

/** Asserts `text` is refused with `reqs.jsonl line <line>: ` and a message matching `what`; returns the error. */
function refused(text: string, line: number, what: RegExp, env: NodeJS.ProcessEnv = {}): VtbenchError {
  let caught: unknown;
  try {
    parseRequestFile(text, F, env);
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof VtbenchError, `refused: ${text}`);
  assert.equal(caught.exitCode, EXIT.usage);
  assert.ok(caught.message.startsWith(`${F} line ${line}: `), caught.message);
  assert.match(caught.message, what);
  assert.match(caught.hint, /--requests/);
  assert.match(caught.hint, /one JSON object per line/);
  assert.match(caught.hint, /\{"name":"owners","method":"GET","path":"\/owners\?lastName="\}/);
  return caught;
}

test('defaults: GET, no headers, no body, weight 1; line numbers count blank and # lines', () => {
  const text = ['# the mix', '', '{"name":"owners","path":"/owners?lastName="}', '   ', '  # indented comment', '{"name":"vets","method":"POST","path":"/vets","weight":3}'].join('\n');
  const rs = parseRequestFile(text, F, {});
  assert.deepEqual(rs, [
    { name: 'owners', method: 'GET', path: '/owners?lastName=', headers: {}, weight: 1, line: 3 },
    { name: 'vets', method: 'POST', path: '/vets', headers: {}, weight: 3, line: 6 },
  ]);
  assert.ok(!('body' in rs[0]!), 'no body key without a body');
});

test('CRLF line ends and a leading BOM are accepted', () => {
  const rs = parseRequestFile(`\uFEFF${OK}\r\n\r\n{"name":"b","path":"/b"}\r\n`, F, {});
  assert.deepEqual(rs.map((r) => [r.name, r.line]), [['ok', 1], ['b', 3]]);
});

test('body: a string is sent as-is with no content-type added; a JSON value is stringified with application/json', () => {
  const text = [
    '{"name":"text","method":"POST","path":"/t","body":"a=1&b=2","headers":{"Content-Type":"application/x-www-form-urlencoded"}}',
    '{"name":"raw","method":"POST","path":"/r","body":"{\\"x\\":1}"}',
    '{"name":"json","method":"PUT","path":"/j","body":{"firstName":"Ada","pets":[1,2]}}',
    '{"name":"typed","method":"PATCH","path":"/p","body":[1],"headers":{"CONTENT-TYPE":"application/merge-patch+json"}}',
    '{"name":"num","method":"POST","path":"/n","body":42}',
    '{"name":"false","method":"POST","path":"/f","body":false}',
  ].join('\n');
  const [text1, raw, json, typed, num, fals] = parseRequestFile(text, F, {});
  assert.equal(text1!.body, 'a=1&b=2');
  assert.deepEqual(text1!.headers, { 'Content-Type': 'application/x-www-form-urlencoded' });
  assert.equal(raw!.body, '{"x":1}');
  assert.deepEqual(raw!.headers, {}, 'a string body gets no content-type');
  assert.equal(json!.body, '{"firstName":"Ada","pets":[1,2]}');
  assert.deepEqual(json!.headers, { 'content-type': 'application/json' });
  assert.equal(typed!.body, '[1]');
  assert.deepEqual(typed!.headers, { 'CONTENT-TYPE': 'application/merge-patch+json' }, 'the file\'s content-type wins, whatever its case');
  assert.equal(num!.body, '42');
  assert.equal(fals!.body, 'false');
});

test('a null body is refused (leave it out for none)', () => {
  refused(`${OK}\n{"name":"x","method":"POST","path":"/x","body":null}`, 2, /"body" is null/);
});

test('env references: checked at parse time, kept unresolved, resolved by resolveHeaderValue', () => {
  const env = { API_TOKEN: 's3cret', TENANT: 't1' };
  const [r] = parseRequestFile('{"name":"a","path":"/a","headers":{"authorization":"Bearer ${env:API_TOKEN}","x-tenant":"${env:TENANT}-${env:TENANT}"}}', F, env);
  assert.deepEqual(r!.headers, { authorization: 'Bearer ${env:API_TOKEN}', 'x-tenant': '${env:TENANT}-${env:TENANT}' });
  assert.equal(resolveHeaderValue(r!.headers['authorization']!, env), 'Bearer s3cret');
  assert.equal(resolveHeaderValue(r!.headers['x-tenant']!, env), 't1-t1');
  assert.equal(resolveHeaderValue('plain ${other} $x', env), 'plain ${other} $x', 'only ${env:…} is special');
  assert.deepEqual(envRefsOf('${env:A}${env:B_2} ${env:A}'), ['A', 'B_2', 'A']);
  assert.equal(resolveHeaderValue('${env:EMPTY}', { EMPTY: '' }), '', 'set to empty is set');
});

test('an unset env reference names the line and the variable, never a value', () => {
  const e = refused(`${OK}\n${OK.replace('"ok"', '"b"')}\n{"name":"a","path":"/a","headers":{"authorization":"Bearer \${env:API_TOKEN}","x-k":"\${env:SET}"}}`, 3, /\$\{env:API_TOKEN\}.*API_TOKEN is not set/, { SET: 'visible-value' });
  assert.doesNotMatch(e.message, /visible-value/);
});

test('resolveHeaderValue refuses an unset variable and a value with a line break, naming the variable only', () => {
  assert.throws(() => resolveHeaderValue('${env:NOPE}', {}), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && /NOPE/.test(e.message));
  assert.throws(() => resolveHeaderValue('x ${env:BAD}', { BAD: 'ab\r\nevil: 1' }), (e: unknown) => e instanceof VtbenchError && /BAD/.test(e.message) && !/evil/.test(e.message));
});

test('a malformed env reference is refused', () => {
  refused('{"name":"a","path":"/a","headers":{"x":"${env:1BAD}"}}', 1, /malformed \$\{env:…\}/);
  refused(`${OK}\n{"name":"a","path":"/a","headers":{"x":"\${env:OPEN"}}`, 2, /malformed/);
});

test('JSON syntax errors name the line and carry the parser\'s message', () => {
  const e = refused(`${OK}\n\n{"name":"a","path":"/a",}`, 3, /not valid JSON \(/);
  let parserMessage = '';
  try { JSON.parse('{"name":"a","path":"/a",}'); } catch (x) { parserMessage = (x as Error).message; }
  assert.ok(parserMessage !== '' && e.message.includes(parserMessage), e.message);
  refused('{"name":"a","path":"/a"} trailing', 1, /not valid JSON/);
  refused(`${OK}\n{"name":"a",\n"path":"/a"}`, 2, /not valid JSON/); // one object per line: no object spans lines
});

test('a line that is not an object is refused', () => {
  refused('["a"]', 1, /: must be a JSON object$/);
  refused(`${OK}\n"text"`, 2, /: must be a JSON object$/);
  refused(`${OK}\nnull`, 2, /: must be a JSON object$/);
});

test('unknown fields are refused, naming the field and the known ones', () => {
  refused(`${OK}\n{"name":"a","path":"/a","heders":{}}`, 2, /unknown field "heders" \(fields: name, method, path, headers, body, weight\)/);
});

test('missing name or path', () => {
  refused('{"path":"/a"}', 1, /missing field "name"/);
  refused(`${OK}\n{"name":"a"}`, 2, /missing field "path"/);
  refused(`${OK}\n{}`, 2, /missing field "name".*missing field "path"|missing field "path".*missing field "name"/);
});

test('name must be a slug of 1..40', () => {
  refused('{"name":"Owners","path":"/a"}', 1, /"name" must be 1 to 40 characters of a-z, 0-9 and -/);
  refused('{"name":"","path":"/a"}', 1, /"name" must be/);
  refused(`{"name":"${'a'.repeat(41)}","path":"/a"}`, 1, /"name" must be/);
  assert.equal(parseRequestFile(`{"name":"${'a'.repeat(40)}","path":"/a"}`, F, {}).length, 1);
  refused('{"name":7,"path":"/a"}', 1, /"name" must be a string/);
});

test('method must be one of TARGET_METHODS (upper case)', () => {
  refused(`${OK}\n{"name":"a","method":"get","path":"/a"}`, 2, /"method" must be one of GET, POST, PUT, PATCH, DELETE, HEAD/);
  refused('{"name":"a","method":"TRACE","path":"/a"}', 1, /"method" must be one of/);
});

test('path must start with / and hold no space or control character', () => {
  refused('{"name":"a","path":"owners"}', 1, /"path" must start with \//);
  refused('{"name":"a","path":"http://x/owners"}', 1, /"path" must start with \//);
  refused(`${OK}\n{"name":"a","path":"/owners?q=a b"}`, 2, /"path" holds a space or control character/);
  refused('{"name":"a","path":42}', 1, /"path" must be a string/);
});

test('headers: an object of strings, valid names, none the client owns, none twice', () => {
  refused('{"name":"a","path":"/a","headers":{"x-n":1}}', 1, /header "x-n" must be a string/);
  refused('{"name":"a","path":"/a","headers":["x"]}', 1, /"headers" must be an object/);
  refused(`${OK}\n{"name":"a","path":"/a","headers":{"bad name":"v"}}`, 2, /header name "bad name" is not a valid HTTP header name/);
  refused('{"name":"a","path":"/a","headers":{"Host":"example.com"}}', 1, /header "Host" is set by vtbench's HTTP client/);
  refused('{"name":"a","path":"/a","headers":{"content-length":"3"}}', 1, /header "content-length" is set by vtbench/);
  refused('{"name":"a","path":"/a","headers":{"X-A":"1","x-a":"2"}}', 1, /header "x-a" is given twice \("X-A" and "x-a"\)/);
  refused('{"name":"a","path":"/a","headers":{"x-a":"1\\r\\nx-b: 2"}}', 1, /header "x-a" holds a line break/);
});

test('weight: an integer from 1 to MAX_WEIGHT', () => {
  refused('{"name":"a","path":"/a","weight":0}', 1, new RegExp(`"weight" must be an integer from 1 to ${MAX_WEIGHT}`));
  refused(`${OK}\n{"name":"a","path":"/a","weight":1.5}`, 2, /"weight" must be an integer/);
  refused('{"name":"a","path":"/a","weight":"2"}', 1, /"weight" must be an integer/);
  refused(`{"name":"a","path":"/a","weight":${MAX_WEIGHT + 1}}`, 1, /"weight" must be an integer from 1/);
  assert.equal(parseRequestFile(`{"name":"a","path":"/a","weight":${MAX_WEIGHT}}`, F, {})[0]!.weight, MAX_WEIGHT);
});

test('several problems of one line are all named', () => {
  refused('{"name":"A","path":"x","weight":0}', 1, /"name" must be.*"path" must start.*"weight" must be/);
});

test('a repeated name names both lines', () => {
  refused(`{"name":"owners","path":"/a"}\n# c\n{"name":"vets","path":"/v"}\n{"name":"owners","path":"/b"}`, 4, /name "owners" is already used on line 1/);
});

test('a file with no request is refused', () => {
  for (const text of ['', '\n\n', '# only a comment\n  \n']) {
    assert.throws(() => parseRequestFile(text, F, {}), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && e.message.startsWith(`${F}: holds no request`) && /--requests/.test(e.hint), JSON.stringify(text));
  }
});

test('readRequestFile: the bytes\' SHA-256, the file as given, the parsed requests; unreadable and non-UTF-8 files refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-reqfile-'));
  try {
    const path = join(dir, 'mix.jsonl');
    const text = '{"name":"a","path":"/a","weight":3,"headers":{"x":"${env:K}"}}\n{"name":"b","path":"/b"}\n';
    writeFileSync(path, text);
    const mix = readRequestFile(path, { K: 'v' });
    assert.equal(mix.file, path);
    assert.equal(mix.sha256, createHash('sha256').update(text).digest('hex'));
    assert.deepEqual(mix.requests.map((r) => [r.name, r.weight, r.line]), [['a', 3, 1], ['b', 1, 2]]);
    assert.throws(() => readRequestFile(path, {}), (e: unknown) => e instanceof VtbenchError && e.message.startsWith(`${path} line 1: `) && /K is not set/.test(e.message));
    assert.throws(() => readRequestFile(join(dir, 'missing.jsonl')), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && /^--requests .*missing\.jsonl: cannot read it \(ENOENT\)/.test(e.message));
    const latin1 = join(dir, 'latin1.jsonl');
    writeFileSync(latin1, Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d, 0x0a]));
    assert.throws(() => readRequestFile(latin1), (e: unknown) => e instanceof VtbenchError && /not UTF-8/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
