/**
 * Issue 31 item 4's size limits on what is committed: the HTML of a report (English and Chinese)
 * ≤ 2 MB, a report's whole folder (en + zh + figures) ≤ 4 MB, a run folder ≤ 15 MB. MB here is
 * 1,000,000 bytes (the issue's "11 MB" for the 10,770,633-byte 002 report folder); sizes are the
 * files' lengths, not disk blocks. One test per folder; a failure lists the folder's largest files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MB = 1_000_000;
export const LIMITS = { reportHtml: 2 * MB, reportFolder: 4 * MB, runFolder: 15 * MB } as const;

/** Every file under `dir` (recursive) with its length in bytes, largest first. */
export function filesBySize(dir: string): { path: string; bytes: number }[] {
  const out: { path: string; bytes: number }[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push({ path: relative(dir, p), bytes: statSync(p).size });
    }
  };
  walk(dir);
  return out.sort((a, b) => b.bytes - a.bytes || (a.path < b.path ? -1 : 1));
}

/** `10.77 MB` */
export function mb(bytes: number): string {
  return `${(bytes / MB).toFixed(2)} MB`;
}

/** null when `files` sum to at most `limit` bytes, else the sentence that says by how much and what is largest. */
export function overLimit(what: string, files: readonly { path: string; bytes: number }[], limit: number): string | null {
  const total = files.reduce((s, f) => s + f.bytes, 0);
  if (total <= limit) return null;
  const top = files.slice(0, 5).map((f) => `${f.path} ${mb(f.bytes)}`).join(', ');
  return `${what} is ${mb(total)} (${total} bytes), over the limit of ${limit / MB} MB (issue 31 item 4); largest files: ${top}`;
}

/** the folders directly under `dir` (sorted), none when it does not exist */
function folders(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort() : [];
}

for (const id of folders(join(ROOT, 'report'))) {
  test(`report/${id}: each index.html ≤ 2 MB, the folder ≤ 4 MB`, () => {
    const files = filesBySize(join(ROOT, 'report', id));
    const problems = [
      ...files.filter((f) => /(^|\/)index\.html$/.test(f.path)).map((f) => overLimit(`report/${id}/${f.path}`, [f], LIMITS.reportHtml)),
      overLimit(`report/${id}/`, files, LIMITS.reportFolder),
    ].filter((p): p is string => p !== null);
    assert.deepEqual(problems, [], problems.join('\n'));
  });
}

/**
 * Runs known to be over the run limit, each with the size it may not grow past (bytes) and why. The
 * 002 run's per-request files are stored losslessly in the encoded layout (36.4 → 20.2 MB,
 * npm run compact-run); what is left is measured noise at µs resolution plus 5.2 MB of per-message
 * WebSocket records, which are raw records: reaching 15 MB means dropping them (issue 31 item 4 left
 * open). An entry must still be over the limit (else the test says to remove it) and not above its ceiling.
 */
export const OVER_LIMIT_RUNS: Readonly<Record<string, { ceiling: number; why: string }>> = {
  '20261201-205110-002-seed-002': { ceiling: 20_300_000, why: 'raw per-request and per-message WebSocket records, stored losslessly encoded' },
};

for (const id of folders(join(ROOT, 'runs'))) {
  const known = OVER_LIMIT_RUNS[id];
  test(`runs/${id}: the run folder ≤ 15 MB${known ? ` (known over: ≤ ${mb(known.ceiling)}, ${known.why})` : ''}`, () => {
    const files = filesBySize(join(ROOT, 'runs', id));
    if (known) {
      assert.notEqual(overLimit(`runs/${id}/`, files, LIMITS.runFolder), null, `runs/${id}/ is now within 15 MB: remove it from OVER_LIMIT_RUNS`);
      const problem = overLimit(`runs/${id}/`, files, known.ceiling);
      assert.equal(problem, null, problem ?? '');
      return;
    }
    const problem = overLimit(`runs/${id}/`, files, LIMITS.runFolder);
    assert.equal(problem, null, problem ?? '');
  });
}

test('overLimit: at the limit passes, one byte over fails and names the largest files', () => {
  const files = [{ path: 'zh/index.html', bytes: 3 * MB }, { path: 'figures/a.svg', bytes: MB }];
  assert.equal(overLimit('report/x/', files, 4 * MB), null);
  const msg = overLimit('report/x/', [...files, { path: 'meta.json', bytes: 1 }], 4 * MB);
  assert.equal(msg, 'report/x/ is 4.00 MB (4000001 bytes), over the limit of 4 MB (issue 31 item 4); largest files: zh/index.html 3.00 MB, figures/a.svg 1.00 MB, meta.json 0.00 MB');
  assert.ok(folders(join(ROOT, 'report')).length > 0 && folders(join(ROOT, 'runs')).length > 0, 'committed reports and runs are found');
});
