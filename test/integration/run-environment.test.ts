/**
 * The environment of a run (issue 33 items 1, 2 and 6) through the real entry point with the toy
 * study and an in-process stand-in SUT (no JVM; test/fixtures/fake-run.ts): the manifest records the
 * host's cgroup and clock source and each process's CPUs; each cell holds its HdrHistograms and the
 * share of the machine other processes used (from a synthetic /proc/stat reading, injected), flagged
 * above the stated share; `--isolate-cpus` pins the harness for the run and puts it back after.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStudy, type Io } from '../../src/cli/main.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { validate } from '../../src/adapters/store/schema.ts';
import { hdrPercentiles } from '../../src/compute/stats/hdr.ts';
import { resummarizeRun } from '../../src/pipeline/resummarize.ts';
import { allowedCpus } from '../../src/adapters/host/affinity.ts';
import type { RunCpuReading } from '../../src/compute/analysis/other-cpu.ts';
import { TOY_STUDY } from '../fixtures/toy-study/study.ts';
import { fakeMainDeps, fakeRunDeps, startInProcessSut } from '../fixtures/fake-run.ts';
import { freePort } from '../fixtures/ports.ts';

/** Readings whose every step adds 1000 ticks of which `busy` busy and `own` the run's: other share (busy − own) / 1000 per cell. */
function syntheticProcStat(busy: number, own: number): () => RunCpuReading {
  let k = 0;
  return () => { k++; return { busyTicks: k * busy, totalTicks: k * 1000, ownTicks: k * own }; };
}

test('a fake run records the environment, per-cell histograms and other processes\' CPU; --isolate-cpus pins the harness and restores it', { timeout: 120_000 }, async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-env-run-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; }, isTTY: false } as unknown as NodeJS.WriteStream;
  const io: Io = { stdout: sink, stderr: sink };
  const pins: [number, string][] = [];
  const isolate = (allowedCpus() ?? []).length >= 2;
  const run = {
    ...fakeRunDeps({ samplerIntervalMs: 100, sut: () => startInProcessSut(), getThreadDump: async () => JSON.stringify({ threadDump: { threadContainers: [] } }) }),
    readRunCpu: syntheticProcStat(400, 100), // 30 % of the machine used by others in every cell
    setProcessAffinity: (pid: number, cpus: string) => { pins.push([pid, cpus]); },
    cpusAllowed: (pid: number) => (pid === process.pid ? '0-1' : '1'),
  };
  const runsDir = join(tmp, 'runs');
  const argv = ['--profile', 'tiny', '--warmup-s', '0', '--runs-dir', runsDir, '--no-report', '--json', '--mock-port', String(await freePort()), '--sut-port', String(await freePort()), ...(isolate ? ['--isolate-cpus', 'auto'] : [])];
  assert.equal(await runStudy(TOY_STUDY, argv, io, fakeMainDeps(run)), 0, out);
  const store = new RunStore(join(runsDir, readdirSync(runsDir)[0]!));
  const m = store.readManifest();
  assert.deepEqual(validate('RunManifest', m), []);
  assert.ok(m.host.cgroup, 'cgroup limits recorded');
  assert.ok('clockSource' in m.host, 'clock source recorded (null when unreadable)');
  assert.deepEqual(Object.keys(m.affinity ?? {}).sort(), ['harness', 'mock', 'sut-pool-2-r1', 'sut-vt-r1']);
  assert.equal(m.affinity!['harness']!.pid, process.pid);
  assert.equal(m.affinity!['harness']!.cpus, '0-1');
  assert.equal(m.affinity!['sut-vt-r1']!.cpus, '1');
  for (const id of m.cellOrder) {
    const c = store.readCell(id);
    assert.deepEqual(validate('CellFile', store.readCellFile(id)), [], id);
    assert.equal(hdrPercentiles(c.hdr!.e2e)?.n, c.load.ok, `${id}: every success in the E2E histogram`);
    assert.equal(hdrPercentiles(c.hdr!.queue)?.n, c.load.ok, `${id}: the stand-in sends a queue wait with each`);
    assert.ok(Math.abs(hdrPercentiles(c.hdr!.e2e)!.max - c.load.e2eMs!.max) <= c.load.e2eMs!.max / 1000 + 0.002, id);
    assert.ok(Math.abs(c.otherCpuShare! - 0.3) < 1e-9, `${id}: other share ${c.otherCpuShare}`);
    const f = c.flags.find((x) => x.code === 'host-other-cpu');
    assert.ok(f, `${id}: flagged host-other-cpu`);
    assert.equal(f.threshold, 0.1);
  }
  // re-deriving the summaries and flags from the raw requests keeps the flag (the share is the cell's)
  resummarizeRun(store.dir);
  for (const id of m.cellOrder) assert.ok(store.readCell(id).flags.some((x) => x.code === 'host-other-cpu'), `${id}: still flagged after resummarize`);
  if (isolate) {
    assert.ok(m.options.cpuIsolation, 'recorded in the options');
    assert.deepEqual(pins, [[process.pid, m.options.cpuIsolation.harnessCpus], [process.pid, '0-1']], 'pinned for the run, then put back');
    assert.match(out, /CPU isolation: harness \(load generator, mock, PostgreSQL\) on CPUs/);
  } else {
    assert.deepEqual(pins, []);
  }
});

test('below the stated share no cell is flagged', { timeout: 120_000 }, async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-env-run-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  let out = '';
  const sink = { write: (s: string) => { out += s; return true; }, isTTY: false } as unknown as NodeJS.WriteStream;
  const run = { ...fakeRunDeps({ samplerIntervalMs: 100, sut: () => startInProcessSut() }), readRunCpu: syntheticProcStat(150, 100) };
  const runsDir = join(tmp, 'runs');
  const argv = ['--profile', 'tiny', '--warmup-s', '0', '--levels', '2', '--variants', 'vt', '--runs-dir', runsDir, '--no-report', '--json', '--mock-port', String(await freePort()), '--sut-port', String(await freePort())];
  assert.equal(await runStudy(TOY_STUDY, argv, { stdout: sink, stderr: sink }, fakeMainDeps(run)), 0, out);
  const store = new RunStore(join(runsDir, readdirSync(runsDir)[0]!));
  const cells = store.readDoneCells(store.readManifest().cellOrder);
  assert.ok(cells.length > 0);
  for (const c of cells) {
    assert.ok(Math.abs(c.otherCpuShare! - 0.05) < 1e-9);
    assert.ok(!c.flags.some((f) => f.code === 'host-other-cpu'), c.cellId);
  }
});
