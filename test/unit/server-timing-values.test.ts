import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHtmlFloat, parseServerTiming, parseServerTimingEntries } from '../../src/load/server-timing.ts';

const entry = (name: string, duration = 0, description = '', durationValid = false) => ({ name, duration, description, durationValid });

test('parseHtmlFloat: integers, fractions, signs, and whether the whole string was read', () => {
  assert.deepEqual(parseHtmlFloat('12'), { value: 12, complete: true });
  assert.deepEqual(parseHtmlFloat('1.5'), { value: 1.5, complete: true });
  assert.deepEqual(parseHtmlFloat('100.25'), { value: 100.25, complete: true });
  assert.deepEqual(parseHtmlFloat('1.'), { value: 1, complete: true }); // the dot belongs to the number
  assert.deepEqual(parseHtmlFloat('.5'), { value: 0.5, complete: true });
  assert.deepEqual(parseHtmlFloat('-.5'), { value: -0.5, complete: true });
  assert.deepEqual(parseHtmlFloat('-5'), { value: -5, complete: true });
  assert.deepEqual(parseHtmlFloat('+5'), { value: 5, complete: true });
  assert.deepEqual(parseHtmlFloat('1.5.3'), { value: 1.5, complete: false });
  assert.deepEqual(parseHtmlFloat('12ms'), { value: 12, complete: false });
  assert.deepEqual(parseHtmlFloat('0x10'), { value: 0, complete: false });
  assert.deepEqual(parseHtmlFloat('5:'), { value: 5, complete: false }); // ':' (58) is not a digit
  assert.deepEqual(parseHtmlFloat('5/'), { value: 5, complete: false }); // '/' (47) is not a digit
  assert.deepEqual(parseHtmlFloat('1.5/'), { value: 1.5, complete: false });
  assert.deepEqual(parseHtmlFloat('0'), { value: 0, complete: true });
  // every digit, 0 to 9 (the ends of the range), in each part
  assert.deepEqual(parseHtmlFloat('9876543210'), { value: 9876543210, complete: true });
  assert.deepEqual(parseHtmlFloat('9.09e9'), { value: 9.09e9, complete: true });
  assert.deepEqual(parseHtmlFloat('.9'), { value: 0.9, complete: true });
});

test('parseHtmlFloat: the exponent, with its sign read as written (1e+3 is 1000, not 0.001)', () => {
  assert.deepEqual(parseHtmlFloat('1e3'), { value: 1000, complete: true });
  assert.deepEqual(parseHtmlFloat('1E3'), { value: 1000, complete: true });
  assert.deepEqual(parseHtmlFloat('1e+3'), { value: 1000, complete: true });
  assert.deepEqual(parseHtmlFloat('1e-3'), { value: 0.001, complete: true });
  assert.deepEqual(parseHtmlFloat('2.5e2'), { value: 250, complete: true });
  assert.deepEqual(parseHtmlFloat('1e12'), { value: 1e12, complete: true });
  // an exponent without digits is not part of the number
  assert.deepEqual(parseHtmlFloat('1e'), { value: 1, complete: false });
  assert.deepEqual(parseHtmlFloat('1e+'), { value: 1, complete: false });
  assert.deepEqual(parseHtmlFloat('1e-'), { value: 1, complete: false });
  assert.deepEqual(parseHtmlFloat('1ex'), { value: 1, complete: false });
  assert.deepEqual(parseHtmlFloat('1e3x'), { value: 1000, complete: false });
  assert.deepEqual(parseHtmlFloat('1e:'), { value: 1, complete: false });
  assert.deepEqual(parseHtmlFloat('1e/'), { value: 1, complete: false });
  assert.deepEqual(parseHtmlFloat('1e3/'), { value: 1000, complete: false });
  // underflow reads as 0; −0 becomes 0
  assert.deepEqual(parseHtmlFloat('1e-400'), { value: 0, complete: true });
  const negZero = parseHtmlFloat('-0')!;
  assert.ok(Object.is(negZero.value, 0), 'not −0');
  assert.equal(negZero.complete, true);
});

test('parseHtmlFloat: leading HTML whitespace (TAB, LF, FF, CR, SPACE) is skipped, VT is not', () => {
  for (const ws of ['\t', '\n', '\f', '\r', ' ', ' \t\r\n\f ']) assert.deepEqual(parseHtmlFloat(`${ws}7`), { value: 7, complete: true }, JSON.stringify(ws));
  assert.equal(parseHtmlFloat('\v7'), null);
  // trailing whitespace is not part of the number
  assert.deepEqual(parseHtmlFloat('7 '), { value: 7, complete: false });
});

test('parseHtmlFloat: errors — nothing, a lone sign or dot, no digit, a magnitude that rounds to infinity', () => {
  for (const s of ['', '   ', '-', '+', '.', '.x', '-.', 'x', 'e3', '/1', ':1', '--1', '+-1', '1e400', '-1e400']) {
    assert.equal(parseHtmlFloat(s), null, JSON.stringify(s));
  }
});

test('entries: names, durations and descriptions; OWS (space and tab) around separators', () => {
  assert.deepEqual(parseServerTimingEntries('queue;dur=1.5, exec;dur=100.25'), [entry('queue', 1.5, '', true), entry('exec', 100.25, '', true)]);
  assert.deepEqual(parseServerTimingEntries(' \tdb \t; \tdur \t= \t5 \t, \tapp;desc=x'), [entry('db', 5, '', true), entry('app', 0, 'x', false)]);
  assert.deepEqual(parseServerTimingEntries('miss'), [entry('miss')]);
  assert.deepEqual(parseServerTimingEntries('a,b'), [entry('a'), entry('b')]);
});

test('entries: every tchar is part of a name, and each neighbour of the ranges 0-9, A-Z, a-z is not', () => {
  const all = "!#$%&'*+-.^_`|~09AZaz";
  assert.deepEqual(parseServerTimingEntries(`${all};dur=1`), [entry(all, 1, '', true)]);
  for (const c of ['0', '9', 'A', 'Z', 'a', 'z', '!', '#', '$', '%', '&', "'", '*', '+', '-', '.', '^', '_', '`', '|', '~']) {
    assert.deepEqual(parseServerTimingEntries(`${c};dur=2`), [entry(c, 2, '', true)], c);
  }
  // not tchars: '/' (47), ':' (58), '@' (64), '[' (91), '{' (123), '"', '(', ')', '<', '>', '?', '\\', ']', '}', '=', ';'
  for (const c of ['/', ':', '@', '[', '{', '"', '(', ')', '<', '>', '?', '\\', ']', '}', '=', ';', '\x7f']) {
    assert.deepEqual(parseServerTimingEntries(`${c};dur=2`), [], c);
    if (c !== ';') assert.deepEqual(parseServerTimingEntries(`m${c}x;dur=2, n;dur=3`), [entry('m')], `junk after a name: ${c}`);
  }
});

test('entries: parameter names are case-insensitive; the first dur and the first desc win', () => {
  assert.deepEqual(parseServerTimingEntries('a;DuR=5;DESC=x'), [entry('a', 5, 'x', true)]);
  assert.deepEqual(parseServerTimingEntries('a;dur=5;dur=7;desc=one;desc=two'), [entry('a', 5, 'one', true)]);
  // the first occurrence wins even when incomplete or invalid
  assert.deepEqual(parseServerTimingEntries('a;dur;dur=5'), [entry('a', 0, '', false)]);
  assert.deepEqual(parseServerTimingEntries('a;dur=;dur=5'), [entry('a', 0, '', false)]);
  assert.deepEqual(parseServerTimingEntries('a;dur=foo;dur=5'), [entry('a', 0, '', false)]);
  assert.deepEqual(parseServerTimingEntries('a;dur=12ms'), [entry('a', 12, '', false)]);
  // a parameter without '=' has an empty value
  assert.deepEqual(parseServerTimingEntries('a;desc;dur=1'), [entry('a', 1, '', true)]);
  // other parameters are read and ignored
  assert.deepEqual(parseServerTimingEntries('a;x=1;dur=2;y'), [entry('a', 2, '', true)]);
});

test('entries: quoted strings — escapes, commas and semicolons inside, unterminated is an empty value', () => {
  assert.deepEqual(parseServerTimingEntries('cache;desc="hit, warm; ok";dur=0.3'), [entry('cache', 0.3, 'hit, warm; ok', true)]);
  assert.deepEqual(parseServerTimingEntries('a;desc="say \\"hi\\" \\\\ \\x";dur=1'), [entry('a', 1, 'say "hi" \\ x', true)]);
  assert.deepEqual(parseServerTimingEntries('a;dur="2"'), [entry('a', 2, '', true)]);
  assert.deepEqual(parseServerTimingEntries('a;desc="" ;dur=1'), [entry('a', 1, '', true)]);
  // a quoted value that ends with a separator: the separator is inside the string
  assert.deepEqual(parseServerTimingEntries('a;desc="x,";dur=1, b'), [entry('a', 1, 'x,', true), entry('b')]);
  assert.deepEqual(parseServerTimingEntries('a;desc=";";dur=1'), [entry('a', 1, ';', true)]);
  // unterminated: empty value, and the rest of the field is the string
  assert.deepEqual(parseServerTimingEntries('a;desc="abc;dur=1'), [entry('a', 0, '', false)]);
  assert.deepEqual(parseServerTimingEntries('a;desc="abc\\'), [entry('a', 0, '', false)]);
  assert.deepEqual(parseServerTimingEntries('a;dur="5'), [entry('a', 0, '', false)]);
});

test('entries: junk after a value is skipped to the next ; or ,', () => {
  assert.deepEqual(parseServerTimingEntries('db;desc=d1 d2;dur=5'), [entry('db', 5, 'd1', true)]);
  assert.deepEqual(parseServerTimingEntries('db;desc="q"junk;dur=5,n'), [entry('db', 5, 'q', true), entry('n')]);
  assert.deepEqual(parseServerTimingEntries('db;dur=5 x y, n;dur=1'), [entry('db', 5, '', true), entry('n', 1, '', true)]);
  // a value that is neither a token nor a quoted string is empty, then skipped
  assert.deepEqual(parseServerTimingEntries('db;dur=(5);desc=z'), [entry('db', 0, 'z', false)]);
});

test('entries: junk after a parameter name, or a separator without a parameter, ends the metric and the header', () => {
  assert.deepEqual(parseServerTimingEntries('metric==""foo;dur=1,m2'), [entry('metric')]);
  assert.deepEqual(parseServerTimingEntries('m;;dur=5, n;dur=1'), [entry('m')]);
  assert.deepEqual(parseServerTimingEntries('m;dur@=5, n;dur=1'), [entry('m')]);
  assert.deepEqual(parseServerTimingEntries('m;'), [entry('m')]);
  assert.deepEqual(parseServerTimingEntries('m,'), [entry('m')]);
  assert.deepEqual(parseServerTimingEntries('m;dur=1,,n'), [entry('m', 1, '', true)]);
  assert.deepEqual(parseServerTimingEntries('m;dur='), [entry('m', 0, '', false)]);
});

test('entries: null, undefined, empty and several header lines, each parsed on its own', () => {
  assert.deepEqual(parseServerTimingEntries(null), []);
  assert.deepEqual(parseServerTimingEntries(undefined), []);
  assert.deepEqual(parseServerTimingEntries(''), []);
  assert.deepEqual(parseServerTimingEntries('   '), []);
  assert.deepEqual(parseServerTimingEntries([]), []);
  assert.deepEqual(parseServerTimingEntries(['a;dur=1, =junk, b;dur=9', 'c;dur=2']), [entry('a', 1, '', true), entry('c', 2, '', true)]);
  // repeated names are separate entries
  assert.deepEqual(parseServerTimingEntries('a;dur=1, a;dur=2'), [entry('a', 1, '', true), entry('a', 2, '', true)]);
});

test('parseServerTiming: name → ms for complete durations only; the first valid entry of a name wins', () => {
  assert.deepEqual(parseServerTiming('queue;dur=1.5, exec;dur=1e+3, miss, db;dur=, x;dur=0x10, y;dur=12ms'), { queue: 1.5, exec: 1000 });
  assert.deepEqual(parseServerTiming('a;dur=x, a;dur=2, a;dur=3'), { a: 2 });
  assert.deepEqual(parseServerTiming('a;dur=0'), { a: 0 });
  assert.deepEqual(parseServerTiming(['a;dur=1', 'b;dur=2', 'a;dur=3']), { a: 1, b: 2 });
  assert.deepEqual(parseServerTiming(null), {});
  assert.deepEqual(parseServerTiming(undefined), {});
});

test('parseServerTiming: a metric named __proto__ is a plain own key, the prototype untouched', () => {
  const r = parseServerTiming('__proto__;dur=7, b;dur=1');
  assert.equal(Object.getPrototypeOf(r), Object.prototype);
  assert.ok(Object.hasOwn(r, '__proto__'));
  assert.deepEqual(Object.entries(r), [['__proto__', 7], ['b', 1]]);
  const d = Object.getOwnPropertyDescriptor(r, '__proto__')!;
  assert.deepEqual(d, { value: 7, enumerable: true, writable: true, configurable: true });
  // the first valid __proto__ wins, as for any name
  const twice = parseServerTiming('__proto__;dur=7, __proto__;dur=8');
  assert.deepEqual(Object.entries(twice), [['__proto__', 7]]);
});
