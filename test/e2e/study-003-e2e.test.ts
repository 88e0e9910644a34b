/**
 * Study 003 end to end (issue 15): the `smoke` profile through the real entry point (`runStudy`,
 * the path of `npx zx run.mjs --study 003 --profile smoke`) and the real SUT jar, on free ports:
 * each level in its own JVM (one block per cell), each cell holding the SUT's sweep answer, the
 * report with both knees. Then a socket level far above the host's descriptors is recorded as that
 * level's `host-limit` outcome and the run still completes. Needs a JDK; about a minute. Run it
 * under the heavy lock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStudy, type Io } from '../../src/cli/main.ts';
import { realDeps } from '../../src/cli/deps.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { STUDY_003 } from '../../src/studies/003/index.ts';
import { sweepOf } from '../../src/studies/003/sweep.ts';
import { freePort } from '../fixtures/ports.ts';

function capture(): { io: Io; text: () => string } {
  let buf = '';
  const sink = { write: (s: string) => { buf += s; return true; } } as unknown as NodeJS.WriteStream;
  return { io: { stdout: sink, stderr: sink }, text: () => buf };
}

test('study 003 smoke: a fresh JVM per level, each level the SUT\'s sweep answer, both knees in the report', { timeout: 400_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-003-'));
  try {
    const runsDir = join(tmp, 'runs');
    const reportDir = join(tmp, 'report');
    const out = capture();
    const ports = ['--mock-port', String(await freePort()), '--sut-port', String(await freePort())];
    const code = await runStudy(STUDY_003, ['--profile', 'smoke', ...ports, '--runs-dir', runsDir, '--report-dir', reportDir, '--json'], out.io, realDeps());
    assert.equal(code, 0, out.text());
    const [id] = readdirSync(runsDir);
    const store = new RunStore(join(runsDir, id!));
    const m = store.readManifest();
    assert.equal(m.status, 'complete');
    // one SUT JVM per level
    assert.deepEqual(Object.keys(m.sut).sort(), ['virtual-c1000-r1', 'virtual-c200-r1']);
    const cells = store.readDoneCells(m.cellOrder);
    assert.deepEqual(cells.map((c) => sweepOf(c)?.threads), [200, 1000]);
    const pids = new Set(cells.map((c) => c.sutPid));
    assert.equal(pids.size, 2, 'each level ran in its own JVM');
    for (const c of cells) {
      const s = sweepOf(c)!;
      assert.equal(s.outcome, 'ok', s.reason ?? '');
      assert.equal(s.startedThreads, c.concurrency);
      // a sleep of 50 ms never ends early: every thread completes at most D / L ops in the window
      assert.ok(s.opsInWindow <= c.concurrency * (s.durationMs / s.sleepMs), String(s.opsInWindow));
      assert.ok(s.latencyP50Ms! >= s.sleepMs * 0.99);
      assert.ok(s.samples.length > 0 && s.samples[0]!.parallelism !== null);
    }
    const md = readFileSync(join(reportDir, id!, 'report.md'), 'utf8');
    assert.match(md, /Rule 1, the study's, literally/);
    assert.match(md, /Rule 2, range-independent/);
    assert.match(md, /figures\/sweep-throughput\.svg/);
    assert.doesNotMatch(md, /\{\{|\}\}/);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('study 003: a socket level beyond the host\'s descriptors is stored as its host-limit outcome, the run completes', { timeout: 400_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-003s-'));
  try {
    const runsDir = join(tmp, 'runs');
    const out = capture();
    const ports = ['--mock-port', String(await freePort()), '--sut-port', String(await freePort())];
    const code = await runStudy(STUDY_003, ['--profile', 'smoke', '--scenario', 'socket-sweep', '--levels', '100,1000000', ...ports, '--runs-dir', runsDir, '--report-dir', join(tmp, 'report'), '--json'], out.io, realDeps());
    assert.equal(code, 0, out.text());
    const [id] = readdirSync(runsDir);
    const store = new RunStore(join(runsDir, id!));
    const m = store.readManifest();
    const cells = store.readDoneCells(m.cellOrder);
    assert.deepEqual(cells.map((c) => sweepOf(c)?.outcome), ['ok', 'host-limit']);
    assert.equal(sweepOf(cells[1]!)!.startedThreads, 0);
    assert.equal(sweepOf(cells[1]!)!.throughputOpsPerS, null);
    const md = readFileSync(join(tmp, 'report', id!, 'report.md'), 'utf8');
    assert.match(md, /1,000,000: host-limit/);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
