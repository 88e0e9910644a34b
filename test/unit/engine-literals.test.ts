/**
 * Issue 11's rule, kept by a test: outside a study's own definition (src/studies/<id>/,
 * templates/<id>/), no code names a study's id, its variants or its published levels and pool
 * size. Comments may cite a study (they explain where a formula comes from); code may not.
 * Numbers that mean something else (HTTP 500, a 32-bit hash, ASCII 32, a 500 ms default poll) are
 * allowed line by line below, each with its reason.
 *
 * Issue 30 extends it to every registered study (src/studies/index.ts): no string literal in the
 * engine's code (src/ outside src/studies/, mock/src, bench, run.mjs) names a study's id, its
 * `seed-<id>` profiles, its scenario ids, the SUT scenarios they reach or its variant ids. The names
 * come from the registry, so a new study is covered without editing this file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STUDIES } from '../../src/studies/index.ts';
import type { ResolvedOptions } from '../../src/types/run.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Code (not comments) that names study 000's choices. */
const STUDY_LITERAL = /'000'|"000"|seed-000|'fixed'|"fixed"|'virtual'|"virtual"|llm-fixed|llm-vt|\bfixedPool\b|\b500\b|\b32\b/;

/** Lines allowed to match, by file, with why. */
const ALLOWED: readonly { file: RegExp; line: RegExp; why: string }[] = [
  { file: /^mock\/src\//, line: /\b500\b/, why: 'HTTP status 500 of the mock' },
  { file: /^mock\/src\/(prng|config)\.ts$/, line: /\b32\b/, why: 'a 32-bit PRNG seed / hash' },
  { file: /^mock\/src\/(latency|config)\.ts$/, line: /'fixed'/, why: "the mock's fixed latency model" },
  { file: /^src\/pipeline\/external\.ts$/, line: /latencyModel.*'fixed'/, why: "an external mock must run the mock's fixed latency model (--latency-model fixed)" },
  { file: /^mock\/src\/completion\.ts$/, line: /'virtual'/, why: "a word of the mock's reply text" },
  { file: /^src\/load\/server-timing\.ts$/, line: /\b32\b/, why: 'ASCII 32 (space)' },
  { file: /^src\/adapters\/process\/parent-watch\.ts$/, line: /\?\? 500\)/, why: 'default poll interval of the parent watch, ms' },
  { file: /^src\/load\/in-process\.ts$/, line: /status < 500/, why: 'the HTTP 4xx class (a job the SUT refused)' },
  { file: /^src\/adapters\/target\/jar-process\.ts$/, line: /status < 500|READY_POLL_MS = 500;/, why: "a target is ready once it answers below the HTTP 5xx class; the readiness poll's interval, ms" },
  { file: /^src\/pipeline\/target\.ts$/, line: /ALIVE_POLL_MS = 500;/, why: 'how often a load phase checks the target lives, ms' },
  { file: /^src\/adapters\/process\/control-token\.ts$/, line: /randomBytes\(32\)/, why: 'the run token is 32 random bytes' },
  { file: /^src\/compute\/stats\/hdr\.ts$/, line: /BUCKET_BITS = 32;/, why: "HdrHistogram's 32-bit bucket counts" },
  { file: /^templates\/engine\/phrases\.en\.json$/, line: /"h\.virtualThread": "virtual"/, why: 'the thread-dump column "virtual" (a JDK thread property, not a variant)' },
];

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(ts|mjs|java|json|md)$/.test(name)) yield p;
  }
}

/** Each line of a TypeScript text without its comments (`//` and block comments): the code left, the raw line, its 0-based index. */
function codeLines(text: string): { line: string; raw: string; i: number }[] {
  const out: { line: string; raw: string; i: number }[] = [];
  let inBlock = false;
  text.split('\n').forEach((raw, i) => {
    let line = raw;
    if (inBlock) {
      const end = line.indexOf('*/');
      if (end < 0) return;
      line = line.slice(end + 2);
      inBlock = false;
    }
    line = line.replace(/\/\*.*?\*\//g, '');
    const open = line.indexOf('/*');
    if (open >= 0) {
      inBlock = true;
      line = line.slice(0, open);
    }
    out.push({ line: line.replace(/(^|[^:'"`])\/\/.*$/, '$1'), raw, i });
  });
  return out;
}

/** The code lines of a file that name a study's choices and are not allowed: `file:line: text`. */
export function studyLiterals(rel: string, text: string): string[] {
  const out: string[] = [];
  for (const { line, raw, i } of codeLines(text)) {
    if (!STUDY_LITERAL.test(line)) continue;
    if (ALLOWED.some((a) => a.file.test(rel) && a.line.test(line))) continue;
    out.push(`${rel}:${i + 1}: ${raw.trim()}`);
  }
  return out;
}

test('the scanner finds a study literal in code and ignores it in comments', () => {
  assert.deepEqual(studyLiterals('src/x.ts', "const v = 'fixed';"), ["src/x.ts:1: const v = 'fixed';"]);
  assert.deepEqual(studyLiterals('src/x.ts', 'const n = 500; // level'), ['src/x.ts:1: const n = 500; // level']);
  assert.deepEqual(studyLiterals('src/x.ts', '/**\n * study 000: 32 / 1.5 s\n */\n// seed-000\nconst a = 1;'), []);
  assert.deepEqual(studyLiterals('mock/src/server.ts', 'reply.code(500)'), []);
  assert.deepEqual(studyLiterals('src/x.ts', 'reply.code(500)'), ['src/x.ts:1: reply.code(500)']);
});

test('no code outside a study definition names study 000, its variants, its top level or its pool size', () => {
  const hits: string[] = [];
  for (const dir of ['src', 'mock/src', 'sut/src/main', 'templates/engine']) {
    for (const f of files(join(ROOT, dir))) {
      const rel = relative(ROOT, f).split('\\').join('/');
      if (rel.startsWith('src/studies/')) continue;
      hits.push(...studyLiterals(rel, readFileSync(f, 'utf8')));
    }
  }
  hits.push(...studyLiterals('run.mjs', readFileSync(join(ROOT, 'run.mjs'), 'utf8')));
  assert.deepEqual(hits, []);
});

/**
 * The names only a study may use: its id, its profiles that carry the id (`seed-003`), its scenario
 * ids and the SUT scenarios they reach (`sutScenario`), the SUT jobs its in-process scenarios start
 * (the last segment of `job().path` under its default profile, e.g. `vt-sweep`), its variant ids.
 */
export function studyNames(studies: readonly Pick<(typeof STUDIES)[number], 'id' | 'profiles' | 'scenarios' | 'variants'>[]): Set<string> {
  const out = new Set<string>();
  for (const s of studies) {
    out.add(s.id);
    for (const p of s.profiles) if (p.name.includes(s.id)) out.add(p.name);
    for (const sc of s.scenarios) {
      out.add(sc.id);
      if (sc.sutScenario !== undefined) out.add(sc.sutScenario);
      const o = { ...s.profiles[0]!.values, study: s.id, profile: s.profiles[0]!.name } as unknown as ResolvedOptions;
      if (sc.job && s.variants[0]) out.add(sc.job(o, s.variants[0], 1).path.split('/').pop()!);
    }
    for (const v of s.variants) out.add(v.id);
  }
  return out;
}

/** String literals ('…', "…", `…` on one line) of a line of code. */
const STRING_LITERAL = /'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g;

/**
 * Engine lines allowed to hold a study's name in a string, with why: a plain word that is also a
 * variant id (`fixed`, `virtual`, `platform`) where it means something else.
 */
const NAME_ALLOWED: readonly { file: RegExp; line: RegExp; why: string }[] = [
  { file: /^mock\/src\/(latency|config)\.ts$/, line: /'fixed'/, why: "the mock's fixed latency model" },
  { file: /^src\/pipeline\/external\.ts$/, line: /latencyModel.*'fixed'/, why: "an external mock must run the mock's fixed latency model" },
  { file: /^mock\/src\/completion\.ts$/, line: /'virtual'|'platform'/, why: "words of the mock's reply text" },
];

/**
 * The code lines of a file whose string literals name a study (`names`) and are not allowed:
 * `file:line: [name] text`. A name with a digit or a hyphen (`003`, `cpu-fib`, `io-pool-200`) is
 * found as a word anywhere in a literal (a route, a message); a plain word (`virtual`, `mixed`) only
 * as a whole literal, so prose that uses the word is not taken for the variant. Comments are skipped.
 */
export function studyNameLiterals(rel: string, text: string, names: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const { line, raw, i } of codeLines(text)) {
    if (NAME_ALLOWED.some((a) => a.file.test(rel) && a.line.test(line))) continue;
    for (const lit of line.match(STRING_LITERAL) ?? []) {
      const body = lit.slice(1, -1);
      const words = body.split(/[^A-Za-z0-9_,\\-]+/); // a comma or an escape stays inside a word: '1,000' and '\\000' are not study 000
      const hit = [...names].find((n) => (/[\d-]/.test(n) ? words.includes(n) : body === n));
      if (hit !== undefined) {
        out.push(`${rel}:${i + 1}: [${hit}] ${raw.trim()}`);
        break;
      }
    }
  }
  return out;
}

test('the name scanner finds a study\'s scenario, variant and id in code, not in comments or prose', () => {
  const names = studyNames(STUDIES);
  for (const n of ['000', '002', '003', '004', 'seed-003', 'cpu-fib', 'io-http', 'sleep-sweep', 'vt-sweep', 'async-burst', 'io-pool-200', 'virtual', 'llm-chat']) assert.ok(names.has(n), n);
  // planted: the engine testing for a scenario, a route of it, a study id, a variant id
  const planted = "if (scenario.sutScenario === 'cpu-fib' && fibN !== null) extra['bench.fib.n'] = String(fibN);";
  assert.deepEqual(studyNameLiterals('src/pipeline/run.ts', planted, names), [`src/pipeline/run.ts:1: [cpu-fib] ${planted}`]);
  assert.equal(studyNameLiterals('src/x.ts', "const p = `/bench/job/x?op=${op}&scenario=sleep-sweep`;", names).length, 1);
  assert.equal(studyNameLiterals('src/x.ts', "if (o.study === '003') return;", names).length, 1);
  assert.equal(studyNameLiterals('src/x.ts', "const v = variants.find((x) => x.id === 'io-pool-200');", names).length, 1);
  assert.equal(studyNameLiterals('src/x.ts', "if (v === 'virtual') return;", names).length, 1);
  // not hits: comments, prose that uses a plain word, numbers that merely contain the digits
  assert.deepEqual(studyNameLiterals('src/x.ts', "// the cpu-fib scenario of study 002\n/* 'sleep-sweep' */\nconst s = 'one virtual thread per task';\nconst n = '1,000';", names), []);
});

test('no code outside src/studies names a registered study\'s id, scenarios or variants', () => {
  const names = studyNames(STUDIES);
  const hits: string[] = [];
  for (const dir of ['src', 'mock/src', 'bench']) {
    for (const f of files(join(ROOT, dir))) {
      const rel = relative(ROOT, f).split('\\').join('/');
      if (rel.startsWith('src/studies/') || !/\.(ts|mjs)$/.test(rel)) continue;
      hits.push(...studyNameLiterals(rel, readFileSync(f, 'utf8'), names));
    }
  }
  hits.push(...studyNameLiterals('run.mjs', readFileSync(join(ROOT, 'run.mjs'), 'utf8'), names));
  assert.deepEqual(hits, []);
});
