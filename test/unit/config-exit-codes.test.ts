/**
 * One source for the exit codes (issue 9, defect 11): EXIT and EXIT_MEANINGS in src/types/errors.ts.
 * The table in docs/exit-codes.md (moved there from the README) and --help are checked against it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EXIT, EXIT_MEANINGS, exitCodeTable, fsError } from '../../src/types/errors.ts';
import { main, type Io, type MainDeps } from '../../src/cli/main.ts';

const EXIT_CODES_DOC = fileURLToPath(new URL('../../docs/exit-codes.md', import.meta.url));

test("docs/exit-codes.md's exit-code table is the one made from EXIT (paste exitCodeTable() output between the markers)", () => {
  const md = readFileSync(EXIT_CODES_DOC, 'utf8');
  const m = /<!-- exit-codes:start[^>]*-->\n([\s\S]*?)\n<!-- exit-codes:end -->/.exec(md);
  assert.ok(m, 'docs/exit-codes.md has the exit-codes markers');
  assert.equal(m[1], exitCodeTable());
});

test('exit codes are distinct and each has a meaning', () => {
  const codes = Object.values(EXIT);
  assert.equal(new Set(codes).size, codes.length);
  for (const k of Object.keys(EXIT) as (keyof typeof EXIT)[]) assert.ok(EXIT_MEANINGS[k].length > 0, k);
});

test('--help lists every exit code with its meaning, and every option with its maximum', async () => {
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; } } as unknown as NodeJS.WriteStream;
  const io: Io = { stdout: sink, stderr: sink };
  const code = await main(['--help'], io, {} as MainDeps);
  assert.equal(code, 0);
  for (const k of Object.keys(EXIT) as (keyof typeof EXIT)[]) {
    assert.match(out, new RegExp(`^ +${EXIT[k]}  ${EXIT_MEANINGS[k].replace(/`/g, '').replace(/[()≥.,;/]/g, '.').slice(0, 30)}`, 'm'), `exit ${EXIT[k]} in --help`);
  }
  assert.match(out, /--levels <c1,c2,..>[\s\S]*?max [\d,]+\)/);
  assert.match(out, /--mock-port <port>[\s\S]*?max 65,535\)/);
});

test('fsError: disk space → 3, every other errno of a file operation → 8, with the path; anything else is not mapped', () => {
  const errno = (code: string, path = '/x/runs/cells/a.json', syscall = 'open') => Object.assign(new Error(`${code}: …`), { code, path, syscall });
  for (const c of ['ENOSPC', 'EDQUOT']) {
    const e = fsError(errno(c));
    assert.equal(e?.exitCode, EXIT.prerequisite, c);
    assert.match(e!.message, /^cannot open \/x\/runs\/cells\/a\.json: .* \(E(NOSPC|DQUOT)\)$/);
  }
  for (const c of ['ENOTDIR', 'EACCES', 'EPERM', 'EROFS', 'ENOENT', 'EISDIR', 'ELOOP', 'ENAMETOOLONG', 'EEXIST', 'EIO']) {
    const e = fsError(errno(c));
    assert.equal(e?.exitCode, EXIT.outputUnusable, c);
    assert.ok(e!.message.includes('/x/runs/cells/a.json') && e!.message.includes(c), e!.message);
    assert.ok(!e!.message.includes('\n') && e!.hint.length > 0);
  }
  assert.equal(fsError(errno('EROFS'), undefined, EXIT.runData)?.exitCode, EXIT.runData);
  assert.equal(fsError(new Error('plain')), null);
  assert.equal(fsError(Object.assign(new Error('x'), { code: 'ECONNREFUSED', syscall: 'connect' })), null, 'not a file error');
  assert.equal(fsError(null), null);
});
