/**
 * The real `main()` run and resume paths without a JVM (issue 10, defects 2, 5 and 6): the SUT is
 * a small HTTP server on port 0 that answers like the SUT (Server-Timing queue/exec), the mock is
 * not needed (fake handle), everything else — options, plan, store, pipeline, load generator,
 * summary, manifest — is the production code.
 * - a truncated cell file is set aside, named, and that cell alone is measured again on --resume;
 * - a file as --runs-dir, a folder under /proc, a read-only filesystem: exit 8 naming the path,
 *   in the dry run too, nothing created;
 * - a full disk mid-run (ENOSPC injected into the store's writer): exit 3 naming the file; finished
 *   cells are kept and --resume completes; a full disk before anything was measured leaves no folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type Io, type MainDeps } from '../../src/cli/main.ts';
import { EXIT } from '../../src/types/errors.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { writeFileAtomic } from '../../src/adapters/store/fsio.ts';
import type { CellResult, CompactRequests } from '../../src/types/run.ts';
import { fakeMainDeps, fakeRunDeps, startInProcessSut } from '../fixtures/fake-run.ts';
import { freePort } from '../fixtures/ports.ts';

const LATENCY_MS = 50;

/** An in-process stand-in SUT answering every request after LATENCY_MS; counts the requests it served. */
const fakeSut = () => startInProcessSut({ latencyMs: LATENCY_MS });

/** Two ports free right now (bound on port 0, then released). */
async function freePorts(): Promise<[number, number]> {
  return [await freePort(), await freePort()];
}

/** A fake run whose every block's SUT is the stand-in at `sutUrl` (no thread dumps); `openStore` injects a writer fault. */
function fakeDeps(sutUrl: string, openStore?: (dir: string) => RunStore): MainDeps {
  return fakeMainDeps(fakeRunDeps({ sut: sutUrl }), openStore ? { openStore } : {});
}

function io(): { io: Io; err: () => string } {
  let err = '';
  const sink = (append: (s: string) => void) => ({ write: (s: string) => { append(String(s)); return true; }, isTTY: false }) as unknown as NodeJS.WriteStream;
  return { io: { stdout: sink(() => {}), stderr: sink((s) => { err += s; }) }, err: () => err };
}

async function runArgs(runsDir: string): Promise<string[]> {
  const [mockPort, sutPort] = await freePorts();
  return ['--profile', 'smoke', '--levels', '2,3', '--requests-per-worker', '2', '--repeats', '1', '--variants', 'virtual', '--latency-ms', String(LATENCY_MS),
    '--warmup-s', '0', '--mock-port', String(mockPort), '--sut-port', String(sutPort), '--runs-dir', runsDir, '--no-report', '--json'];
}


test('--resume after a cell file was truncated: the cell is set aside, named, and measured again; the others are not', { timeout: 120_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-resume-'));
  const sut = await fakeSut();
  try {
    const runsDir = join(tmp, 'runs');
    const first = io();
    assert.equal(await main(await runArgs(runsDir), first.io, fakeDeps(sut.url)), 0, first.err());
    assert.equal(sut.served(), 2 * 2 + 3 * 2);
    const runId = readdirSync(runsDir)[0]!;
    const store = new RunStore(join(runsDir, runId));
    assert.equal(store.readManifest().status, 'complete');
    truncateSync(store.cellPath('virtual-c2-r1'), 50);

    const second = io();
    const code = await main(['--resume', runId, '--runs-dir', runsDir, '--no-report', '--json'], second.io, fakeDeps(sut.url));
    assert.equal(code, 0, second.err());
    assert.match(second.err(), /cell virtual-c2-r1 is damaged \(cells\/virtual-c2-r1\.json: not valid JSON \([^)]*\)\); kept aside as cells\/virtual-c2-r1\.json\.damaged-\d{8}T\d{6}Z, /);
    assert.equal(sut.served(), 10 + 2 * 2, 'only the damaged cell (2 workers × 2) was measured again');
    assert.deepEqual([...store.doneCellIds()].sort(), ['virtual-c2-r1', 'virtual-c3-r1']);
    const m = store.readManifest();
    assert.equal(m.status, 'complete');
    assert.ok(m.notes?.some((n) => /cell virtual-c2-r1 was damaged/.test(n)), JSON.stringify(m.notes));
    assert.equal(readdirSync(join(store.dir, 'cells')).filter((f) => f.includes('.damaged-')).length, 3, 'cell, requests and samples kept aside');
  } finally {
    await sut.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a file given as --runs-dir, or a folder under /proc: exit 8 naming the path, dry run and run alike, and quickly', { timeout: 60_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-fs-'));
  try {
    const file = join(tmp, 'a-file');
    writeFileSync(file, 'x');
    for (const [dir, re] of [[file, /a part of the path is a file, not a folder \(ENOTDIR\)/], [join(file, 'runs'), /ENOTDIR/], ['/proc/forbidden', /\/proc\/forbidden.*\(ENOENT\)/]] as const) {
      for (const dry of [true, false]) {
        const o = io();
        const t0 = Date.now();
        const code = await main([...(await runArgs(dir)), ...(dry ? ['--dry-run'] : [])], o.io, fakeDeps('http://127.0.0.1:9'));
        assert.equal(code, EXIT.outputUnusable, o.err());
        assert.match(o.err(), new RegExp(`error: cannot write --runs-dir ${dir.replace(/[/.]/g, '\\$&')}`));
        assert.match(o.err(), re);
        assert.ok(Date.now() - t0 < 15_000, 'no hang');
      }
    }
    assert.deepEqual(readdirSync(tmp), ['a-file'], 'nothing created');
    const fileHint = io();
    await main([...(await runArgs(file)), '--dry-run'], fileHint.io, fakeDeps('http://127.0.0.1:9'));
    assert.match(fileHint.err(), /hint: .*a-file, or a part of it, is a file, not a folder/, 'a hint that helps (touch would succeed on a file)');
    const empty = io();
    assert.equal(await main([...(await runArgs(tmp)), '--runs-dir', '', '--dry-run'], empty.io, fakeDeps('http://127.0.0.1:9')), EXIT.usage, empty.err());
    assert.match(empty.err(), /error: --runs-dir: an empty folder name/);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

/** Mount a tmpfs (root only); null with the reason when this machine does not allow it. */
function tryMount(dir: string, opts: string): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (e) {
    return `cannot mount a tmpfs here (${String((e as Error).message).split('\n')[0]}); needs root with CAP_SYS_ADMIN`;
  }
}

test('a read-only filesystem as --runs-dir: exit 8 saying read-only (EROFS), not a misleading ENOENT', { timeout: 60_000 }, async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-ro-'));
  const mnt = join(tmp, 'ro');
  mkdirSync(mnt);
  const why = tryMount(mnt, 'ro,size=1m');
  if (why) { t.skip(why); rmSync(tmp, { recursive: true, force: true }); return; }
  try {
    for (const dir of [mnt, join(mnt, 'runs', 'deeper')]) {
      const o = io();
      const code = await main([...(await runArgs(dir)), '--dry-run'], o.io, fakeDeps('http://127.0.0.1:9'));
      assert.equal(code, EXIT.outputUnusable, o.err());
      assert.match(o.err(), /the filesystem is read-only \(EROFS\)/);
      assert.ok(o.err().includes(dir), o.err());
    }
  } finally {
    execFileSync('umount', [mnt]);
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('the write probe gives up after its timeout instead of hanging', async () => {
  const { checkWritable } = await import('../../src/adapters/host/prereq.ts');
  await assert.rejects(checkWritable(tmpdir(), 'runs-dir', 1), (e: Error & { exitCode?: number }) => e.exitCode === EXIT.outputUnusable && /did not answer a write probe within 0\.001 s/.test(e.message));
});

test('writeFileAtomic on a full filesystem: ENOSPC names the file, leaves no temp file, target untouched', { timeout: 30_000 }, (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-full-'));
  const mnt = join(tmp, 'full');
  mkdirSync(mnt);
  const why = tryMount(mnt, 'size=64k');
  if (why) { t.skip(why); rmSync(tmp, { recursive: true, force: true }); return; }
  try {
    const target = join(mnt, 'cells', 'x.json');
    writeFileAtomic(target, 'old');
    assert.throws(() => writeFileAtomic(target, Buffer.alloc(1 << 20, 1)), (e: NodeJS.ErrnoException) => e.code === 'ENOSPC' && e.path === target);
    assert.deepEqual(readdirSync(join(mnt, 'cells')), ['x.json']);
  } finally {
    execFileSync('umount', [mnt]);
    rmSync(tmp, { recursive: true, force: true });
  }
});

/** A store whose writer fails with ENOSPC (as Node reports it after fsio names the path) from the nth cell on. */
function fullDiskFrom(nthCell: number): (dir: string) => RunStore {
  return (dir) => {
    let cells = 0;
    return new (class extends RunStore {
      override writeCell(cell: CellResult, requests: CompactRequests): void {
        if (++cells >= nthCell) {
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write', path: this.requestsPath(cell.cellId) });
        }
        super.writeCell(cell, requests);
      }
    })(dir);
  };
}

test('a disk that fills up mid-run: exit 3 naming the file, finished cells kept, the run marked failed, --resume completes it', { timeout: 120_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-enospc-'));
  const sut = await fakeSut();
  try {
    const runsDir = join(tmp, 'runs');
    const o = io();
    const code = await main(await runArgs(runsDir), o.io, fakeDeps(sut.url, fullDiskFrom(2)));
    assert.equal(code, EXIT.prerequisite, o.err());
    assert.match(o.err(), /error: cannot write .*cells\/virtual-c3-r1\.requests\.json\.gz: no space left on the device \(ENOSPC\)/);
    const tail = o.err().slice(o.err().indexOf('error:')).trim().split('\n');
    assert.equal(tail.length, 2, `one line and a hint, no stack: ${tail.join('\n')}`);
    const runId = readdirSync(runsDir)[0]!;
    const store = new RunStore(join(runsDir, runId));
    assert.deepEqual([...store.doneCellIds()], ['virtual-c2-r1']);
    const m = store.readManifest();
    assert.equal(m.status, 'failed');
    assert.match(m.error ?? '', /ENOSPC/);

    const r = io();
    assert.equal(await main(['--resume', runId, '--runs-dir', runsDir, '--no-report', '--json'], r.io, fakeDeps(sut.url)), 0, r.err());
    assert.equal(store.readManifest().status, 'complete');
    assert.equal(store.doneCellIds().size, 2);
  } finally {
    await sut.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a disk full before anything was measured leaves no run folder behind', { timeout: 120_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-enospc0-'));
  const sut = await fakeSut();
  try {
    const runsDir = join(tmp, 'runs');
    const o = io();
    assert.equal(await main(await runArgs(runsDir), o.io, fakeDeps(sut.url, fullDiskFrom(1))), EXIT.prerequisite, o.err());
    assert.match(o.err(), /nothing was measured; removed the run folder/);
    assert.deepEqual(existsSync(runsDir) ? readdirSync(runsDir) : [], []);
  } finally {
    await sut.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test("a run whose cell file does not validate after writing is never marked complete: exit 7, status failed, and --resume repairs it", { timeout: 120_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-notdone-'));
  const sut = await fakeSut();
  try {
    const runsDir = join(tmp, 'runs');
    // the writer "succeeds" but leaves a truncated cell file for virtual-c3-r1 (a torn write)
    const torn = (dir: string) => new (class extends RunStore {
      override writeCell(cell: CellResult, requests: CompactRequests): void {
        super.writeCell(cell, requests);
        if (cell.cellId === 'virtual-c3-r1') truncateSync(this.cellPath(cell.cellId), 30);
      }
    })(dir);
    const o = io();
    assert.equal(await main(await runArgs(runsDir), o.io, fakeDeps(sut.url, torn)), EXIT.runData, o.err());
    assert.match(o.err(), /ended with 1 of 2 planned cell\(s\) without a valid result: virtual-c3-r1/);
    const runId = readdirSync(runsDir)[0]!;
    const store = new RunStore(join(runsDir, runId));
    assert.equal(store.readManifest().status, 'failed');
    const r = io();
    assert.equal(await main(['--resume', runId, '--runs-dir', runsDir, '--no-report', '--json'], r.io, fakeDeps(sut.url)), 0, r.err());
    assert.match(r.err(), /cell virtual-c3-r1 is damaged/);
    assert.equal(store.readManifest().status, 'complete');
  } finally {
    await sut.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('--resume takes a run folder path (not only an id under --runs-dir), and its dry run says what is left to measure', { timeout: 60_000 }, async () => {
  const { copyRunAsCurrent } = await import('../fixtures/upgrade-run.ts');
  const { FIXTURE_DIR } = await import('../fixtures/upgrade-run.ts');
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-resume-path-'));
  try {
    const dir = join(tmp, 'elsewhere', 'some-run');
    copyRunAsCurrent(FIXTURE_DIR, dir);
    const all = new RunStore(dir).readManifest().cellOrder;
    const complete = io();
    assert.equal(await main(['--resume', dir, '--dry-run', '--no-report'], complete.io, fakeDeps('http://127.0.0.1:9')), 0, complete.err());
    assert.match(complete.err(), new RegExp(`output: ${dir}\\n`), 'the folder given, not runs/<basename>');
    assert.match(complete.err(), new RegExp(`resume: all ${all.length} planned cells have a valid result; nothing left to measure`));
    const victim = all[1]!;
    truncateSync(join(dir, 'cells', `${victim}.json`), 50);
    const damaged = io();
    assert.equal(await main(['--resume', dir, '--dry-run', '--no-report'], damaged.io, fakeDeps('http://127.0.0.1:9')), 0, damaged.err());
    assert.match(damaged.err(), new RegExp(`resume: ${all.length - 1} of ${all.length} planned cells done; to measure: ${victim} \\(damaged\\)`));
    assert.ok(existsSync(join(dir, 'cells', `${victim}.json`)), 'a dry run sets nothing aside');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('--json: a dry run ends with one dry-run event on stdout, an error with one error event carrying the exit code', { timeout: 60_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-json-'));
  try {
    let out = '';
    const sink = (append: (s: string) => void) => ({ write: (s: string) => { append(String(s)); return true; }, isTTY: false }) as unknown as NodeJS.WriteStream;
    const both: Io = { stdout: sink((s) => { out += s; }), stderr: sink(() => {}) };
    assert.equal(await main([...(await runArgs(join(tmp, 'runs'))), '--dry-run'], both, fakeDeps('http://127.0.0.1:9')), 0);
    const dry = out.trim().split('\n').map((l) => JSON.parse(l) as { type: string; ok?: boolean; cells?: number });
    assert.deepEqual(dry.map((e) => e.type), ['dry-run']);
    assert.equal(dry[0]!.ok, true);
    assert.equal(dry[0]!.cells, 2);
    out = '';
    assert.equal(await main([...(await runArgs(join(tmp, 'runs'))), '--levels', '0', '--dry-run'], both, fakeDeps('http://127.0.0.1:9')), EXIT.usage);
    const err = JSON.parse(out.trim()) as { type: string; exitCode: number; message: string };
    assert.equal(err.type, 'error');
    assert.equal(err.exitCode, EXIT.usage);
    assert.match(err.message, /^--levels/);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
