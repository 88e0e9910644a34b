import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseServerTiming, parseServerTimingEntries, parseHtmlFloat } from '../../src/load/server-timing.ts';
import { classifyError, classifyStatus } from '../../src/load/errors.ts';

test('parseServerTiming: names and durations', () => {
  assert.deepEqual(parseServerTiming('queue;dur=1.5, exec;dur=100.25'), { queue: 1.5, exec: 100.25 });
  assert.deepEqual(parseServerTiming('queue;dur=0'), { queue: 0 });
  assert.deepEqual(parseServerTiming('  a ; dur = 2 ,b;DUR=3'), { a: 2, b: 3 });
});

test('parseServerTiming: desc (quoted, with commas and semicolons) is tolerated', () => {
  assert.deepEqual(parseServerTiming('db;desc="users, orders; x";dur=12.5, app;dur=3'), { db: 12.5, app: 3 });
  assert.deepEqual(parseServerTiming('cpu;dur=2.4;desc=plain'), { cpu: 2.4 });
  assert.deepEqual(parseServerTiming('x;desc="a \\" b";dur=1'), { x: 1 });
});

test('parseServerTiming: entries without a valid dur are left out; first of a repeated name wins', () => {
  assert.deepEqual(parseServerTiming('miss, cache;desc=hit, queue;dur=abc, exec;dur=4'), { exec: 4 });
  assert.deepEqual(parseServerTiming('exec;dur=1, exec;dur=2'), { exec: 1 });
  assert.deepEqual(parseServerTiming('exec;dur='), {});
  assert.deepEqual(parseServerTiming('queue;dur=1, db;dur=, exec;dur=2'), { queue: 1, exec: 2 }, 'a later scenario\'s empty db entry');
});

test('parseServerTiming: absent, empty and multi-line headers', () => {
  assert.deepEqual(parseServerTiming(undefined), {});
  assert.deepEqual(parseServerTiming(null), {});
  assert.deepEqual(parseServerTiming(''), {});
  assert.deepEqual(parseServerTiming(',,;'), {});
  assert.deepEqual(parseServerTiming(['queue;dur=1', 'exec;dur=2']), { queue: 1, exec: 2 });
  assert.deepEqual(parseServerTiming(['queue junk;dur=1', 'exec;dur=2']), { exec: 2 }, 'junk ending one line does not hide the next');
});

// ---- the spec's rules; each of these failed with the parser before (src/load/server-timing.ts at 19baee9)

test('Server-Timing spec: the first dur wins even when it is invalid or incomplete', () => {
  // web-platform-tests "duplicate param names" / "incomplete params"
  assert.deepEqual(parseServerTiming('exec;dur=foo;dur=567.8'), {});
  assert.deepEqual(parseServerTiming('exec;dur;dur=123.4;desc=description'), {});
  assert.deepEqual(parseServerTiming('exec;dur=;dur=123.4'), {});
  assert.deepEqual(parseServerTiming('exec;dur=123.4;dur=567.8'), { exec: 123.4 });
  assert.deepEqual(parseServerTiming('exec;DuR=5;dur=6'), { exec: 5 }, 'param names are case-insensitive, also for "first"');
});

test('Server-Timing spec: hexadecimal and trailing junk are not a number read completely', () => {
  assert.deepEqual(parseServerTiming('exec;dur=0x10'), {}, 'Number("0x10") would say 16');
  assert.deepEqual(parseServerTiming('exec;dur=12ms'), {});
  assert.deepEqual(parseServerTiming('exec;dur=Infinity, queue;dur=1e400'), {});
  assert.deepEqual(parseServerTiming('exec;dur=1e3, queue;dur=.5, x;dur=-2, y;dur=1.'), { exec: 1000, queue: 0.5, x: -2, y: 1 });
  assert.deepEqual(parseServerTiming('exec;dur="7.25"'), { exec: 7.25 }, 'a quoted value is a value');
  assert.deepEqual(parseServerTiming('exec;dur=\t42\t'), { exec: 42 }, 'tabs are OWS');
});

test('Server-Timing spec: names are tokens; junk after a name ends the header', () => {
  // "nonsense - extraneous characters after entry name token"
  assert.deepEqual(parseServerTiming('queue junk;dur=5, exec;dur=3'), {});
  assert.deepEqual(parseServerTiming('met=ric;dur=5, exec;dur=3'), {});
  assert.deepEqual(parseServerTiming('"queue";dur=5'), {});
  assert.deepEqual(parseServerTimingEntries('metric1==   ""foo,metric2').map((e) => e.name), ['metric1']);
  assert.deepEqual(parseServerTimingEntries("aB3!#$%&'*+-.^_`|~").map((e) => e.name), ["aB3!#$%&'*+-.^_`|~"]);
  for (const junk of [' ', '=', '[', ']', ';', ',', '=;', ';=', '=,', ',=', ';,', ',;', '=;,']) assert.deepEqual(parseServerTimingEntries(junk), [], JSON.stringify(junk));
});

test('Server-Timing spec: junk after a param value is skipped; junk after a param name ends the metric', () => {
  assert.deepEqual(parseServerTiming('db;desc=d1 d2;dur=12'), { db: 12 });
  assert.deepEqual(parseServerTiming('db;desc="d1" d2;dur=12'), { db: 12 });
  assert.deepEqual(parseServerTiming('db;dur=1 2;desc=x, app;dur=3'), { db: 1, app: 3 });
  // "nonsense - extraneous characters after param name token": dur is present but has no value
  assert.deepEqual(parseServerTimingEntries('metric;dur foo=12'), [{ name: 'metric', duration: 0, description: '', durationValid: false }]);
  assert.deepEqual(parseServerTiming('metric;foo dur=12'), {});
});

test('parseServerTimingEntries: the spec\'s view — every entry, duration 0 when absent or an error', () => {
  const e = (name: string, duration = 0, description = '', durationValid = false) => ({ name, duration, description, durationValid });
  // the spec's own example headers
  assert.deepEqual(parseServerTimingEntries(['miss, db;dur=53, app;dur=47.2', 'customView, dc;desc=atl', 'cache;desc="Cache Read";dur=23.2', 'total;dur=123.4']), [
    e('miss'), e('db', 53, '', true), e('app', 47.2, '', true), e('customView'), e('dc', 0, 'atl'), e('cache', 23.2, 'Cache Read', true), e('total', 123.4, '', true),
  ]);
  assert.deepEqual(parseServerTimingEntries('metric;dur=12.3;desc=d1,metric;dur=45.6;desc=d2'), [e('metric', 12.3, 'd1', true), e('metric', 45.6, 'd2', true)], 'repeated names are kept');
  assert.deepEqual(parseServerTimingEntries('m;dur=0x10'), [e('m', 0)], 'hex reads as 0 followed by junk');
  assert.deepEqual(parseServerTimingEntries('m;dur=12ms'), [e('m', 12)], 'the rules read a prefix: duration 12, not read completely');
  assert.deepEqual(parseServerTimingEntries('m;dur=foo;desc=a;desc=b'), [e('m', 0, 'a')]);
  assert.deepEqual(parseServerTimingEntries('m;desc="descr\\"iption"'), [e('m', 0, 'descr"iption')]);
  assert.deepEqual(parseServerTimingEntries('m;desc="\\\\"'), [e('m', 0, '\\')]);
  assert.deepEqual(parseServerTimingEntries('m;desc="unterminated'), [e('m', 0, '')]);
  assert.deepEqual(parseServerTimingEntries('m;desc=\\'), [e('m', 0, '')]);
  assert.deepEqual(parseServerTimingEntries('MeTrIc;DeSc=DeScRiPtIoN'), [e('MeTrIc', 0, 'DeScRiPtIoN')]);
});

test('parseServerTiming: a metric named __proto__ is a plain key', () => {
  const r = parseServerTiming('__proto__;dur=1');
  assert.equal(Object.getPrototypeOf(r), Object.prototype);
  assert.deepEqual(Object.entries(r), [['__proto__', 1]]);
});

test('parseHtmlFloat: HTML rules for parsing floating-point number values', () => {
  assert.deepEqual(parseHtmlFloat('123.4'), { value: 123.4, complete: true });
  assert.deepEqual(parseHtmlFloat('  -1.5e-3'), { value: -0.0015, complete: true });
  assert.deepEqual(parseHtmlFloat('+7'), { value: 7, complete: true });
  assert.deepEqual(parseHtmlFloat('-0'), { value: 0, complete: true }, '−0 is not in the value set');
  assert.deepEqual(parseHtmlFloat('1e'), { value: 1, complete: false }, 'an exponent without digits is ignored');
  assert.deepEqual(parseHtmlFloat('0x1A'), { value: 0, complete: false });
  assert.deepEqual(parseHtmlFloat('0.1'), { value: 0.1, complete: true }, 'correctly rounded');
  for (const bad of ['', ' ', '-', '+', '.', '.e1', 'e1', 'abc', 'Infinity', 'NaN', '1e999', '-1e999']) assert.equal(parseHtmlFloat(bad), null, JSON.stringify(bad));
});

test('classifyError maps undici and OS error codes', () => {
  const e = (code: string, cause?: unknown) => Object.assign(new Error(code), { code, cause });
  assert.equal(classifyError(e('UND_ERR_CONNECT_TIMEOUT')), 'connect');
  assert.equal(classifyError(e('ECONNREFUSED')), 'connect');
  assert.equal(classifyError(e('ECONNRESET')), 'reset');
  assert.equal(classifyError(e('UND_ERR_SOCKET')), 'reset');
  assert.equal(classifyError(e('UND_ERR_HEADERS_TIMEOUT')), 'timeout');
  assert.equal(classifyError(e('UND_ERR_BODY_TIMEOUT')), 'timeout');
  assert.equal(classifyError(e('UND_ERR', e('ECONNREFUSED'))), 'connect', 'cause is looked at');
  assert.equal(classifyError(new Error('x')), 'other');
  assert.equal(classifyError('weird'), 'other');
});

test('classifyStatus: 2xx ok, >= 400 http, 1xx/3xx other', () => {
  assert.equal(classifyStatus(200), null);
  assert.equal(classifyStatus(204), null);
  assert.equal(classifyStatus(503), 'http');
  assert.equal(classifyStatus(429), 'http');
  assert.equal(classifyStatus(302), 'other');
});
