/**
 * Issue 11's rule, kept by a test: outside a study's own definition (src/studies/<id>/,
 * templates/<id>/), no code names a study's id, its variants or its published levels and pool
 * size. Comments may cite a study (they explain where a formula comes from); code may not.
 * Numbers that mean something else (HTTP 500, a 32-bit hash, ASCII 32, a 500 ms default poll) are
 * allowed line by line below, each with its reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  { file: /^src\/adapters\/process\/control-token\.ts$/, line: /randomBytes\(32\)/, why: 'the run token is 32 random bytes' },
  { file: /^templates\/engine\/phrases\.en\.json$/, line: /"h\.virtualThread": "virtual"/, why: 'the thread-dump column "virtual" (a JDK thread property, not a variant)' },
];

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(ts|mjs|java|json|md)$/.test(name)) yield p;
  }
}

/** The code lines of a file that name a study's choices and are not allowed: `file:line: text`. */
export function studyLiterals(rel: string, text: string): string[] {
  const out: string[] = [];
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
    line = line.replace(/(^|[^:'"`])\/\/.*$/, '$1');
    if (!STUDY_LITERAL.test(line)) return;
    if (ALLOWED.some((a) => a.file.test(rel) && a.line.test(line))) return;
    out.push(`${rel}:${i + 1}: ${raw.trim()}`);
  });
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
