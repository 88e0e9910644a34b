/**
 * Issue 34, defect 9: `JAVA_HOME=/nonexistent` was reported as "Maven (mvn) was not found on PATH —
 * install Maven" although Maven is installed: any failure of `mvn -v` was read as "not found". Now
 * `mvn -v` runs with the JDK vtbench found (as the build does), "not found" is said only when there
 * is no `mvn`, and any other failure shows Maven's own words and names JAVA_HOME.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkMaven } from '../../src/adapters/host/prereq.ts';
import { EXIT, VtbenchError } from '../../src/types/errors.ts';

test('JAVA_HOME=/nonexistent with Maven installed: the check passes, Maven runs with the JDK vtbench found', { timeout: 120_000 }, () => {
  const was = process.env['JAVA_HOME'];
  process.env['JAVA_HOME'] = '/nonexistent';
  try {
    assert.match(checkMaven(), /Apache Maven \d/);
  } finally {
    if (was === undefined) delete process.env['JAVA_HOME'];
    else process.env['JAVA_HOME'] = was;
  }
});

test('a mvn that fails (not a missing one): Maven\'s own message is shown and JAVA_HOME named, not "not found on PATH"', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-mvn-'));
  try {
    writeFileSync(join(dir, 'mvn'), '#!/bin/sh\necho "The JAVA_HOME environment variable is not defined correctly," >&2\necho "this environment variable is needed to run this program" >&2\nexit 1\n');
    chmodSync(join(dir, 'mvn'), 0o755);
    assert.throws(() => checkMaven({ PATH: `${dir}:/usr/bin:/bin`, JAVA_HOME: '/nonexistent' }), (e: unknown) => {
      assert.ok(e instanceof VtbenchError);
      assert.equal(e.exitCode, EXIT.prerequisite);
      assert.doesNotMatch(e.message, /not found on PATH/);
      assert.match(e.message, /mvn -v.*failed.*The JAVA_HOME environment variable is not defined correctly/s);
      assert.match(`${e.message} ${e.hint}`, /JAVA_HOME/);
      return true;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('no mvn on PATH: "not found on PATH", install Maven', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-nomvn-'));
  try {
    assert.throws(() => checkMaven({ PATH: dir }), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.prerequisite && /not found on PATH/.test(e.message) && /install/i.test(e.hint));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
