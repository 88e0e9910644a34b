/**
 * A new target run that fails before it measured anything leaves no run folder behind (as a study
 * run does; docs/exit-codes.md), while a folder whose logs explain the failure, or that holds a cell,
 * is kept (`holdsNothing`, src/cli/run-folder.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { targetCommand } from '../../src/cli/commands/target.ts';
import { holdsNothing } from '../../src/cli/run-folder.ts';
import { EXIT, VtbenchError } from '../../src/types/errors.ts';

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

test('a black-box run whose service answers nothing: exit 6, and no run folder is left', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-target-none-'));
  try {
    const requests = join(dir, 'r.jsonl');
    writeFileSync(requests, '{"name":"home","path":"/"}\n');
    const err: string[] = [];
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => (err.push(s), true) } } as unknown as Parameters<typeof targetCommand>[1];
    const runsDir = join(dir, 'runs');
    await assert.rejects(
      targetCommand({ requests, url: [`http://127.0.0.1:${await closedPort()}`], levels: '1', warmupRequests: '0', aloneProbe: '3', runsDir, runId: 'dead', report: false }, io),
      (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.notReady && /answered none of the 3 probe requests/.test(e.message),
    );
    assert.deepEqual(readdirSync(runsDir), [], 'the run folder was removed');
    assert.match(err.join(''), /nothing was measured; removed the run folder .*dead/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('holdsNothing: empty cells and logs, the mock\'s log, an empty log hold nothing; a cell or a log with text is evidence', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-holds-'));
  try {
    assert.equal(holdsNothing(join(dir, 'absent')), true);
    mkdirSync(join(dir, 'cells'));
    mkdirSync(join(dir, 'logs'));
    writeFileSync(join(dir, 'cells', '.tmp-x.json'), '{');
    writeFileSync(join(dir, 'logs', 'mock.log'), 'mock listening\n');
    writeFileSync(join(dir, 'logs', 'target-a-r1.log'), '');
    assert.equal(holdsNothing(dir), true);
    writeFileSync(join(dir, 'logs', 'build.log'), '[WARNING] x\n');
    assert.equal(holdsNothing(dir), false, 'a build log is evidence unless the build succeeded');
    assert.equal(holdsNothing(dir, true), true);
    writeFileSync(join(dir, 'logs', 'target-a-r1.log'), 'Error: Invalid or corrupt jarfile\n');
    assert.equal(holdsNothing(dir, true), false, 'the target\'s own log explains the failure');
    rmSync(join(dir, 'logs'), { recursive: true });
    writeFileSync(join(dir, 'cells', 'a-c1-r1.json'), '{}');
    assert.equal(holdsNothing(dir), false);
    assert.equal(existsSync(dir), true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
