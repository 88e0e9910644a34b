/**
 * Issue 34, defect 9: a disk that fills up mid-run left `lock.json` behind (and the children's
 * `pids.json` write, failing in the run's cleanup, replaced the run's own error). The disk here is
 * really full: a tmpfs with few inodes (so the 1 GiB free-space check passes), filled at the second
 * cell, so every later write of the run (cell, pids.json, summary, manifest) fails with ENOSPC.
 * Needs root (mount); skipped otherwise.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type Io } from '../../src/cli/main.ts';
import { EXIT } from '../../src/types/errors.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import type { CellResult, CompactRequests } from '../../src/types/run.ts';
import { fakeMainDeps, fakeRunDeps, startInProcessSut } from '../fixtures/fake-run.ts';
import { freePort } from '../fixtures/ports.ts';

const LATENCY_MS = 50;

/** Create empty files under `dir` until the filesystem has no inode left (ENOSPC). */
function fillInodes(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; ; i++) {
    try {
      writeFileSync(join(dir, String(i)), '');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOSPC') return;
      throw e;
    }
  }
}

test('a disk that fills up mid-run: exit 3 with the run\'s own error, no lock.json left, the children stopped', { timeout: 120_000 }, async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-fulllock-'));
  const mnt = join(tmp, 'disk');
  mkdirSync(mnt);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2g,nr_inodes=120', 'tmpfs', mnt], { stdio: 'pipe' });
  } catch (e) {
    t.skip(`cannot mount a tmpfs here (${String((e as Error).message).split('\n')[0]})`);
    rmSync(tmp, { recursive: true, force: true });
    return;
  }
  const sut = await startInProcessSut({ latencyMs: LATENCY_MS });
  try {
    const runsDir = join(mnt, 'runs');
    const children: { pid: number; stop: () => Promise<void> }[] = [];
    const run = fakeRunDeps({ sut: sut.url, marker: 'vtbench-test-full-disk', children });
    let cells = 0;
    const deps = fakeMainDeps(run, {
      // the disk fills up just before the second cell is written
      openStore: (dir) => new (class extends RunStore {
        override writeCell(cell: CellResult, requests: CompactRequests): void {
          if (++cells === 2) fillInodes(join(mnt, 'filler'));
          super.writeCell(cell, requests);
        }
      })(dir),
    });
    let err = '';
    const sink = (append: (s: string) => void) => ({ write: (s: string) => { append(String(s)); return true; }, isTTY: false }) as unknown as NodeJS.WriteStream;
    const io: Io = { stdout: sink(() => {}), stderr: sink((s) => { err += s; }) };
    const args = ['--profile', 'smoke', '--levels', '2,3', '--requests-per-worker', '2', '--repeats', '1', '--variants', 'virtual', '--latency-ms', String(LATENCY_MS),
      '--warmup-s', '0', '--mock-port', String(await freePort()), '--sut-port', String(await freePort()), '--runs-dir', runsDir, '--no-report', '--json'];
    const code = await main(args, io, deps);
    assert.equal(code, EXIT.prerequisite, err);
    assert.match(err, /error: cannot (write|open) .*cells\/\.?virtual-c3-r1.*no space left on the device \(ENOSPC\)/, 'the run\'s own error, not the cleanup\'s');
    const [runId] = readdirSync(runsDir);
    assert.equal(existsSync(join(runsDir, runId!, 'lock.json')), false, 'no lock.json left behind');
    assert.equal(children.length, 2);
    for (const { pid } of children) assert.equal(existsSync(`/proc/${pid}`), false, `child ${pid} stopped`);
  } finally {
    await sut.close();
    execFileSync('umount', [mnt]);
    rmSync(tmp, { recursive: true, force: true });
  }
});
