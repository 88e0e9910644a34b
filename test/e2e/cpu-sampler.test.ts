/**
 * Windowed CPU of the load generator, the mock and PostgreSQL (issue 12, the CPU bound): the
 * interpolation of a cumulative series, the sampler's readings, D from a real cell's samples over
 * the same window as the SUT's, and the old per-cell formula for cells without samples (every run
 * before them: the committed study-002 smoke fixture). The real cell is study 002 smoke's
 * `io-virtual` (the real mock, SUT jar and load generator; no database): it starts one JVM, so run
 * this file under the heavy lock.
 */
import { loadRun, loadTemplates } from '../fixtures/registered.ts';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cellCpu, cellWindow, cumulativeAt, sutCpuMsAt } from '../../src/compute/theory/cell-bounds.ts';
import { ProcessTreeCpu, processTreeCpuMs } from '../../src/adapters/process/proc-cpu.ts';
import { startComponentCpuSampler } from '../../src/adapters/process/cpu-sampler.ts';
import { runStudy } from '../../src/cli/main.ts';
import { realDeps } from '../../src/cli/deps.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { STUDY_002 } from '../../src/studies/002/index.ts';
import type { CellResult } from '../../src/types/run.ts';
import { freePort } from '../fixtures/ports.ts';
import { capture } from '../fixtures/capture-io.ts';
import { type LoadedRun } from '../../src/report/load.ts';
import { buildModel } from '../../src/report/model.ts';
import { buildReport } from '../../src/report/index.ts';
import { rows002 } from '../../src/studies/002/report.ts';

const FIXTURE_002 = fileURLToPath(new URL('../fixtures/study-002/smoke', import.meta.url));

/** The formula of every run before the samples: SUT in the window, the rest per-cell totals over all successes. */
function oldFormula(c: CellResult): number | null {
  const w = cellWindow(c.load);
  if (!w || c.loadgen.cpuPct === null || c.load.wholeRunThroughputRps === null) return null;
  const a = sutCpuMsAt(c.samples, c.t0EpochMs + w.startMs);
  const b = sutCpuMsAt(c.samples, c.t0EpochMs + w.endMs);
  if (a === null || b === null) return null;
  const spanMs = (c.load.ok / c.load.wholeRunThroughputRps) * 1000;
  return (b - a) / w.completions + ((c.loadgen.cpuPct / 100) * spanMs + (c.componentCpuMs?.mock ?? 0) + (c.componentCpuMs?.db ?? 0)) / c.load.ok;
}

function burn(ms: number): void {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x += Math.sqrt(x + 1);
}

describe('a cumulative series at an instant', () => {
  const s = [{ tEpochMs: 1000, v: 10 }, { tEpochMs: 1250, v: null }, { tEpochMs: 1500, v: 60 }, { tEpochMs: 2000, v: 80 }];
  test('interpolated between the samples around it, null values skipped, never extrapolated', () => {
    assert.equal(cumulativeAt(s, (x) => x.v, 1250), 35); // 10 + 0.5 × 50: the null at 1,250 is skipped
    assert.equal(cumulativeAt(s, (x) => x.v, 1500), 60);
    assert.equal(cumulativeAt(s, (x) => x.v, 1750), 70);
    assert.equal(cumulativeAt(s, (x) => x.v, 999), null);
    assert.equal(cumulativeAt(s, (x) => x.v, 2001), null);
    assert.equal(cumulativeAt([], (x: { tEpochMs: number }) => x.tEpochMs, 0), null);
  });
});

describe('the component CPU sampler', () => {
  test('reads this process\'s CPU and a process tree cumulatively; null where not sampled or gone', async () => {
    const tree = new ProcessTreeCpu(process.pid);
    const used0 = process.cpuUsage();
    const once = processTreeCpuMs(process.pid)!;
    const cached = tree.readMs()!;
    const used = process.cpuUsage(used0);
    // the two reads agree up to the CPU this process used between them (every thread: a GC or a JIT
    // compile can take tens of ms on a busy host; CI once saw 60 ms) and /proc's 10 ms clock ticks
    const between = (used.user + used.system) / 1000;
    assert.ok(cached >= once - 20 && cached - once <= between + 20, `cached tree read ${cached} ms vs one-off ${once} ms (this process used ${between.toFixed(1)} ms of CPU between them)`);
    const sampler = startComponentCpuSampler({ loadgenInProcess: true, mockPid: process.pid, dbPid: 2 ** 22 + 1 }, 50);
    sampler.sample();
    burn(300);
    await new Promise((r) => setTimeout(r, 120));
    sampler.sample();
    const xs = sampler.stop();
    assert.ok(xs.length >= 3, `${xs.length} samples: the two taken by hand and the timer's`);
    const first = xs[0]!;
    const last = xs[xs.length - 1]!;
    assert.ok(last.tEpochMs >= first.tEpochMs + 400);
    assert.ok(last.loadgenMs! - first.loadgenMs! >= 250, `process CPU grew ${last.loadgenMs! - first.loadgenMs!} ms over a 300 ms busy loop`);
    assert.ok(last.mockMs! - first.mockMs! >= 250, 'the tree of this process grew too');
    assert.ok(xs.every((x) => x.dbMs === null), 'a pid that does not exist reads null');
    const n = xs.length;
    await new Promise((r) => setTimeout(r, 120));
    assert.equal(xs.length, n, 'stopped: no more samples');
    const sharded = startComponentCpuSampler({ loadgenInProcess: false, mockPid: null, dbPid: null });
    sharded.sample();
    assert.deepEqual(sharded.stop().map((x) => [x.loadgenMs, x.mockMs, x.dbMs]), [[null, null, null]]);
  });
});

describe('the sampler\'s own CPU', () => {
  test('its /proc reads of a large tree are left out of the generator\'s series', async () => {
    // 150 idle children, read every 5 ms: the sampler alone keeps this process busy
    const kids = Array.from({ length: 150 }, () => spawn('sleep', ['20'], { stdio: 'ignore' }));
    try {
      await new Promise((r) => setTimeout(r, 300));
      const u0 = process.cpuUsage();
      const sampler = startComponentCpuSampler({ loadgenInProcess: true, mockPid: process.pid, dbPid: null }, 5);
      sampler.sample();
      await new Promise((r) => setTimeout(r, 800));
      sampler.sample();
      const xs = sampler.stop();
      const u = process.cpuUsage(u0);
      const processMs = (u.user + u.system) / 1000;
      const seriesMs = xs[xs.length - 1]!.loadgenMs! - xs[0]!.loadgenMs!;
      assert.ok(processMs > 150, `the reads cost ${processMs} ms of CPU`);
      assert.ok(seriesMs < 0.3 * processMs, `generator series grew ${seriesMs} ms of the process's ${processMs} ms`);
    } finally {
      for (const k of kids) k.kill();
    }
  });
});

describe('D without component samples (every run before them)', () => {
  test('the committed study-002 smoke cells keep the old formula: SUT in the window, the rest per-cell totals', () => {
    const store = new RunStore(FIXTURE_002);
    const cells = store.readDoneCells(store.readManifest().cellOrder);
    assert.ok(cells.length >= 4);
    for (const c of cells) {
      assert.equal(c.componentCpuSamples, undefined);
      const cpu = cellCpu(c);
      assert.equal(cpu.basis, 'per-cell-totals', c.cellId);
      assert.equal(cpu.parts.loadgen, 'cell');
      assert.equal(cpu.perRequestMs, oldFormula(c), c.cellId);
    }
  });
  test('its report says D is per-cell totals for the generator, the mock and PostgreSQL', async () => {
    const run = await loadRun(FIXTURE_002);
    for (const r of rows002(buildModel(run))) assert.deepEqual(r.cpuBases, ['per-cell-totals'], r.variant);
    for (const lang of ['en', 'zh'] as const) {
      const md = await reportMd(run, lang);
      assert.ok(md.includes(TOTALS[lang]), lang);
      assert.ok(!md.includes(WINDOWED[lang]), lang);
    }
  });
});

/** The study-002 report's Markdown of a loaded run. */
async function reportMd(run: LoadedRun, lang: 'en' | 'zh'): Promise<string> {
  const built = await buildReport(run, await loadTemplates(lang, STUDY_002));
  return built.files.find((f) => f.path === 'report.md')?.content ?? '';
}

/** The phrases of D's measurement, per language: per-cell totals (every run before the samples), windowed, and the exception list. */
const TOTALS = { en: 'they record one total\nper cell, not per window', zh: '它们每个单元只记录一个总量，不分窗口' };
const WINDOWED = { en: 'between the window\'s ends, each interpolated from its own samples', zh: '在窗口两端之间的 CPU（各自由其采样线性插值' };
const EXCEPT = { en: 'Except where a part is one total per cell', zh: '例外：以下单元的部分 CPU 为整个单元的一个总量' };

test('a real cell (study 002 smoke io-virtual) records the samples, bracketing its load; D is taken over its window', { timeout: 300_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-cpu-'));
  try {
    const runsDir = join(tmp, 'runs');
    const out = capture();
    const ports = ['--mock-port', String(await freePort()), '--sut-port', String(await freePort())];
    // 20 workers × 20 requests of 100 ms: about 2 s of load, an all-workers window of well over 100 successes
    const code = await runStudy(STUDY_002, ['--profile', 'smoke', '--variants', 'io-virtual', '--levels', '20', '--requests-per-worker', '20', ...ports, '--runs-dir', runsDir, '--report-dir', join(tmp, 'report'), '--json'], out.io, realDeps());
    assert.equal(code, 0, out.text());
    const [id] = readdirSync(runsDir);
    const store = new RunStore(join(runsDir, id!));
    const [cell] = store.readDoneCells(store.readManifest().cellOrder);
    assert.ok(cell, 'one cell written');
    const xs = cell.componentCpuSamples ?? [];
    assert.ok(xs.length >= 4, `${xs.length} component CPU samples`);
    const lastEnd = cell.t0EpochMs + (cell.load.ok / cell.load.wholeRunThroughputRps!) * 1000;
    assert.ok(xs[0]!.tEpochMs <= cell.t0EpochMs, 'a sample right before the load');
    assert.ok(xs[xs.length - 1]!.tEpochMs >= lastEnd - 1, 'a sample right after the load');
    for (let i = 1; i < xs.length; i++) {
      assert.ok(xs[i]!.tEpochMs >= xs[i - 1]!.tEpochMs);
      assert.ok(xs[i]!.loadgenMs! >= xs[i - 1]!.loadgenMs!, 'the generator\'s CPU is cumulative');
      assert.ok(xs[i]!.mockMs! >= xs[i - 1]!.mockMs!, 'the mock\'s CPU is cumulative');
    }
    assert.ok(xs.every((x) => x.dbMs === null), 'no database in this cell');
    assert.ok(xs[xs.length - 1]!.mockMs! > xs[0]!.mockMs!, 'the mock worked during the load');
    const w = cellWindow(cell.load)!;
    assert.equal(w.kind, 'all-workers');
    const cpu = cellCpu(cell);
    assert.equal(cpu.basis, 'windowed');
    assert.deepEqual(cpu.parts, { loadgen: 'window', mock: 'window', db: null });
    const at = (f: (x: (typeof xs)[number]) => number | null, t: number) => cumulativeAt(xs, f, cell.t0EpochMs + t)!;
    const gen = at((x) => x.loadgenMs, w.endMs) - at((x) => x.loadgenMs, w.startMs);
    const mock = at((x) => x.mockMs, w.endMs) - at((x) => x.mockMs, w.startMs);
    assert.equal(cpu.loadgenMs, gen);
    assert.equal(cpu.mockMs, mock);
    assert.ok(gen > 0 && cpu.sutMs! > 0);
    assert.ok(Math.abs(cpu.perRequestMs! - (cpu.sutMs! + gen + mock) / w.completions) < 1e-9);
    // the mock and generator CPU in the window is below their whole-cell totals (ramp and drain excluded)
    assert.ok(mock <= cell.componentCpuMs!.mock! + 10, `mock ${mock} ms in the window vs ${cell.componentCpuMs!.mock} ms over the cell`);
    // the same cell without its samples: exactly the old per-cell formula
    const old = cellCpu({ ...cell, componentCpuSamples: undefined });
    assert.equal(old.basis, 'per-cell-totals');
    assert.equal(old.perRequestMs, oldFormula(cell));
    // a sharded generator (its series null): the generator's part falls back to its total, the mock's stays windowed
    const sharded = cellCpu({ ...cell, componentCpuSamples: xs.map((x) => ({ ...x, loadgenMs: null })) });
    assert.equal(sharded.basis, 'partly-windowed');
    assert.ok(Math.abs(sharded.perRequestMs! - ((cpu.sutMs! + mock) / w.completions + old.loadgenMs! / cell.load.ok)) < 1e-9);
    // the report says which: windowed for this cell; the exception named when the generator's part is a total
    const run = await loadRun(join(runsDir, id!));
    assert.deepEqual(rows002(buildModel(run)).map((r) => [r.cpuBases, r.cpuTotalParts]), [[['windowed'], []]]);
    const partly: LoadedRun = { ...run, cells: run.cells.map((c) => ({ ...c, componentCpuSamples: c.componentCpuSamples!.map((x) => ({ ...x, loadgenMs: null })) })) };
    assert.deepEqual(rows002(buildModel(partly)).map((r) => [r.cpuBases, r.cpuTotalParts]), [[['partly-windowed'], ['loadgen']]]);
    for (const lang of ['en', 'zh'] as const) {
      const md = await reportMd(run, lang);
      assert.ok(md.includes(WINDOWED[lang]) && !md.includes(TOTALS[lang]) && !md.includes(EXCEPT[lang]), lang);
      const mdPartly = await reportMd(partly, lang);
      assert.ok(mdPartly.includes(WINDOWED[lang]) && mdPartly.includes(EXCEPT[lang]), lang);
      assert.match(mdPartly, lang === 'en' ? /c = 20 \(load generator\)/ : /c = 20 \(压测端\)/);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
