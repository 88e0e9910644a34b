/** Shared helpers of the report tests. */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURE_DIR = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'run-fixture');
export const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), 'golden');

/**
 * Compare `actual` with test/golden/<name>. On mismatch write <name>-changed next to it and fail.
 * UPDATE_GOLDEN=1 rewrites the golden instead (never set in CI).
 */
export function assertGolden(name: string, actual: string): void {
  const path = join(GOLDEN_DIR, name);
  const changed = `${path}-changed`;
  if (process.env['UPDATE_GOLDEN'] === '1') {
    if (process.env['CI']) assert.fail('UPDATE_GOLDEN must not be set in CI');
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(path, actual);
    rmSync(changed, { force: true });
    return;
  }
  assert.ok(existsSync(path), `golden file ${path} is missing; create it with UPDATE_GOLDEN=1 and review it`);
  const expected = readFileSync(path, 'utf8');
  if (expected !== actual) {
    writeFileSync(changed, actual);
    assert.fail(`${name} differs from its golden file; the new output is in ${changed} (diff them; if the change is intended, rerun with UPDATE_GOLDEN=1)`);
  }
  rmSync(changed, { force: true });
}
