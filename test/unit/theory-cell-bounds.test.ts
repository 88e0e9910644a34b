import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BOUND_LOWER_SHARE, BOUND_UPPER_TOL, MIN_WINDOW_COMPLETIONS, boundVerdict, cellBounds, cellCpu, cellWindow, cumulativeAt,
  serversBoundRps, sutCpuMsAt, windowRps, type BoundInputs,
} from '../../src/compute/theory/cell-bounds.ts';
import type { ExecutorSpec } from '../../src/types/study.ts';

const pool = (threads: number): ExecutorSpec => ({ kind: 'platform-pool', threads, queueCapacity: 1000 });
const VT: ExecutorSpec = { kind: 'virtual-per-task' };
const inputs = (o: Partial<BoundInputs>): BoundInputs => ({ executor: VT, concurrency: 10, holdMs: 100, dbPool: null, dbMs: null, lockMs: null, cores: 2, cpuMsPerRequest: null, cpuMsPerCall: null, ...o });

test('serversBoundRps = K / (hold / 1000)', () => {
  assert.equal(serversBoundRps(10, 5), 2000);
  assert.equal(serversBoundRps(1, 4), 250);
});

test('cellBounds: the doc example — virtual, c 1000, L 5 ms, pool 10, DB 5 ms: executor 200,000, dbPool 2,000 is the smallest', () => {
  const r = cellBounds(inputs({ concurrency: 1000, holdMs: 5, dbPool: 10, dbMs: 5 }));
  const executor = { kind: 'executor', rps: 200_000, inputs: { concurrency: 1000, holdMs: 5 } };
  const dbPool = { kind: 'dbPool', rps: 2000, inputs: { pool: 10, dbMs: 5 } };
  assert.deepEqual(r, { bounds: [executor, dbPool], smallest: dbPool });
});

test('cellBounds: every bound in the order executor, dbPool, lock, cpuPerCall, cpu; inputs named', () => {
  // pool 32, c 50, L 1500: 21.33; pool 10 / 5 ms: 2000; lock 4 ms: 250; 2 cores / 4 ms: 500; 2 cores / 10 ms: 200
  const r = cellBounds(inputs({ executor: pool(32), concurrency: 50, holdMs: 1500, dbPool: 10, dbMs: 5, lockMs: 4, cpuMsPerCall: 4, cpuMsPerRequest: 10 }));
  assert.deepEqual(r.bounds, [
    { kind: 'executor', rps: 32 / 1.5, inputs: { concurrency: 50, threads: 32, holdMs: 1500 } },
    { kind: 'dbPool', rps: 2000, inputs: { pool: 10, dbMs: 5 } },
    { kind: 'lock', rps: 250, inputs: { lockMs: 4 } },
    { kind: 'cpuPerCall', rps: 500, inputs: { cores: 2, cpuMsPerCall: 4 } },
    { kind: 'cpu', rps: 200, inputs: { cores: 2, cpuMsPerRequest: 10 } },
  ]);
  assert.equal(r.smallest, r.bounds[0]);
  // without the executor's limit (virtual, c 1000, L 1 ms: 1,000,000) the smallest is the CPU's 200
  const v = cellBounds(inputs({ concurrency: 1000, holdMs: 1, dbPool: 10, dbMs: 5, lockMs: 4, cpuMsPerCall: 4, cpuMsPerRequest: 10 }));
  assert.deepEqual(v.smallest, { kind: 'cpu', rps: 200, inputs: { cores: 2, cpuMsPerRequest: 10 } });
  // the lock alone below the rest
  const l = cellBounds(inputs({ concurrency: 1000, holdMs: 1, lockMs: 50 }));
  assert.deepEqual(l.smallest, { kind: 'lock', rps: 20, inputs: { lockMs: 50 } });
  const c = cellBounds(inputs({ concurrency: 1000, holdMs: 1, cpuMsPerCall: 100 }));
  assert.deepEqual(c.smallest, { kind: 'cpuPerCall', rps: 20, inputs: { cores: 2, cpuMsPerCall: 100 } });
});

test('cellBounds: a null or non-positive input leaves its bound out', () => {
  const only = (o: Partial<BoundInputs>) => cellBounds(inputs(o)).bounds.map((b) => b.kind);
  assert.deepEqual(only({ dbPool: 10, dbMs: null }), ['executor']);
  assert.deepEqual(only({ dbPool: null, dbMs: 5 }), ['executor']);
  assert.deepEqual(only({ dbPool: 10, dbMs: 0 }), ['executor']);
  assert.deepEqual(only({ lockMs: 0 }), ['executor']);
  assert.deepEqual(only({ cpuMsPerCall: 0, cpuMsPerRequest: 0 }), ['executor']);
  assert.deepEqual(only({ cpuMsPerCall: -1, cpuMsPerRequest: -1, lockMs: -1, dbPool: 10, dbMs: -1 }), ['executor']);
});

test('cellBounds: ties go to the first in the order', () => {
  // executor: virtual c 2, L 10 ms → 200; cpu: 2 cores / 10 ms → 200
  const r = cellBounds(inputs({ concurrency: 2, holdMs: 10, cpuMsPerRequest: 10 }));
  assert.equal(r.bounds.length, 2);
  assert.equal(r.smallest!.kind, 'executor');
});

test('cellBounds: with R(1) measured the executor bound is min(c / R(1), N / L) on a pool, c / R(1) on virtual threads', () => {
  // pool 32, c 50, L 1500, R(1) 1600: population 50 / 1.6 = 31.25 > servers 21.33 → 21.33
  assert.deepEqual(cellBounds(inputs({ executor: pool(32), concurrency: 50, holdMs: 1500, aloneE2eMs: 1600 })).bounds, [
    { kind: 'executor', rps: 32 / 1.5, inputs: { concurrency: 50, threads: 32, holdMs: 1500, aloneE2eMs: 1600 } },
  ]);
  // R(1) 5000: population 50 / 5 = 10 < 21.33 → 10
  assert.equal(cellBounds(inputs({ executor: pool(32), concurrency: 50, holdMs: 1500, aloneE2eMs: 5000 })).bounds[0]!.rps, 10);
  // virtual, c 10, R(1) 200 ms: 50 (not c / L = 100)
  assert.deepEqual(cellBounds(inputs({ concurrency: 10, holdMs: 100, aloneE2eMs: 200 })).bounds, [
    { kind: 'executor', rps: 50, inputs: { concurrency: 10, holdMs: 100, aloneE2eMs: 200 } },
  ]);
  // R(1) absent, null or 0: c / L
  for (const aloneE2eMs of [undefined, null, 0]) {
    assert.deepEqual(cellBounds(inputs({ concurrency: 10, holdMs: 100, aloneE2eMs })).bounds, [
      { kind: 'executor', rps: 100, inputs: { concurrency: 10, holdMs: 100 } },
    ], String(aloneE2eMs));
  }
});

const load = (o: { steadyWindow?: { startMs: number; endMs: number; completions: number } | null; ok?: number; wholeRunThroughputRps?: number | null }) =>
  ({ steadyWindow: null, ok: 500, wholeRunThroughputRps: 100, ...o });

test('cellWindow: the all-workers window from 100 completions on, else the whole run, else none', () => {
  assert.equal(MIN_WINDOW_COMPLETIONS, 100);
  assert.deepEqual(cellWindow(load({ steadyWindow: { startMs: 1000, endMs: 3000, completions: 100 } })), { kind: 'all-workers', startMs: 1000, endMs: 3000, completions: 100 });
  // 99 completions, or an empty window: the whole run, 500 ok at 100/s = 5000 ms
  const whole = { kind: 'whole-run', startMs: 0, endMs: 5000, completions: 500 };
  assert.deepEqual(cellWindow(load({ steadyWindow: { startMs: 1000, endMs: 3000, completions: 99 } })), whole);
  assert.deepEqual(cellWindow(load({ steadyWindow: { startMs: 3000, endMs: 3000, completions: 200 } })), whole);
  assert.deepEqual(cellWindow(load({ steadyWindow: { startMs: 3000, endMs: 2000, completions: 200 } })), whole);
  assert.deepEqual(cellWindow(load({})), whole);
  assert.equal(cellWindow(load({ wholeRunThroughputRps: null })), null);
  assert.equal(cellWindow(load({ wholeRunThroughputRps: 0 })), null);
  assert.equal(cellWindow(load({ wholeRunThroughputRps: -1 })), null);
  assert.equal(cellWindow(load({ ok: 0 })), null);
});

test('windowRps = completions / window length', () => {
  assert.equal(windowRps({ kind: 'all-workers', startMs: 1000, endMs: 3000, completions: 100 }), 50);
});

test('cumulativeAt: linear between the samples around t, null samples skipped, never extrapolated; any order', () => {
  const xs = [{ tEpochMs: 3000, v: 300 }, { tEpochMs: 1000, v: null }, { tEpochMs: 2000, v: 100 }, { tEpochMs: 0, v: 0 }];
  const at = (t: number) => cumulativeAt(xs, (s) => s.v, t);
  assert.equal(at(2500), 200); // 100 + ½ · 200
  assert.equal(at(1000), 50); // between 0 (0) and 2000 (100): the null at 1000 is skipped
  assert.equal(at(2000), 100); // on a sample
  assert.equal(at(0), 0);
  assert.equal(at(3000), 300);
  assert.equal(at(-1), null);
  assert.equal(at(3001), null);
  assert.equal(cumulativeAt([], (s: { tEpochMs: number }) => s.tEpochMs, 0), null);
  // several samples on one side: the nearest ones are used
  const ys = [{ tEpochMs: 0, v: 0 }, { tEpochMs: 1000, v: 10 }, { tEpochMs: 3000, v: 50 }, { tEpochMs: 4000, v: 1000 }];
  assert.equal(cumulativeAt(ys, (s) => s.v, 2000), 30);
  assert.equal(cumulativeAt([...ys].reverse(), (s) => s.v, 2000), 30);
});

test('sutCpuMsAt: processCpuTimeNs interpolated, in ms', () => {
  const samples = [{ tEpochMs: 0, processCpuTimeNs: 0 }, { tEpochMs: 2000, processCpuTimeNs: 2e9 }];
  assert.equal(sutCpuMsAt(samples, 1000), 1000);
  assert.equal(sutCpuMsAt(samples, 2001), null);
  assert.equal(sutCpuMsAt([{ tEpochMs: 0, processCpuTimeNs: null }, { tEpochMs: 2000, processCpuTimeNs: 2e9 }], 1000), null);
});

// A cell: t0 10,000; the all-workers window [1000, 3000] ms with 200 successes; the SUT spends 1 CPU-ms
// per ms (2000 ms in the window); 400 ok at 100/s: span 4000 ms
const T0 = 10_000;
const cell = (o: Record<string, unknown> = {}) => ({
  t0EpochMs: T0,
  samples: [{ tEpochMs: T0, processCpuTimeNs: 0 }, { tEpochMs: T0 + 4000, processCpuTimeNs: 4e9 }],
  load: { steadyWindow: { startMs: 1000, endMs: 3000, completions: 200 }, ok: 400, wholeRunThroughputRps: 100 },
  loadgen: { eventLoopLagP99Ms: null, eventLoopLagMaxMs: null, cpuPct: 50, hostCpuPct: null },
  componentCpuMs: { mock: 400, db: null },
  ...o,
}) as unknown as Parameters<typeof cellCpu>[0];
const WINDOW = { kind: 'all-workers', startMs: 1000, endMs: 3000, completions: 200 };

test('cellCpu: per-cell totals (no component samples) — the formula of the runs before the samples', () => {
  // generator: 50 % of a core × 4000 ms = 2000 ms; mock 400 ms; db not recorded
  // D = 2000 / 200 + (2000 + 400 + 0) / 400 = 10 + 6 = 16 ms
  assert.deepEqual(cellCpu(cell()), {
    window: WINDOW, sutMs: 2000, loadgenMs: 2000, mockMs: 400, dbMs: null,
    parts: { loadgen: 'cell', mock: 'cell', db: null }, basis: 'per-cell-totals', spanMs: 4000, perRequestMs: 16,
  });
  // no componentCpuMs at all: mock and db are null (counted as 0): 10 + 2000 / 400 = 15
  const r = cellCpu(cell({ componentCpuMs: undefined }));
  assert.deepEqual([r.mockMs, r.dbMs, r.parts.mock, r.perRequestMs], [null, null, null, 15]);
  // db recorded too: 10 + (2000 + 400 + 200) / 400 = 16.5
  assert.equal(cellCpu(cell({ componentCpuMs: { mock: 400, db: 200 } })).perRequestMs, 16.5);
});

test('cellCpu: windowed — every part between the window ends, over the window\'s successes', () => {
  // components grow linearly over 0..4000 ms: loadgen 0 → 800, mock 0 → 400, db 0 → 200; in [1000, 3000]: 400, 200, 100
  // D = (2000 + 400 + 200 + 100) / 200 = 13.5 ms
  const componentCpuSamples = [
    { tEpochMs: T0, loadgenMs: 0, mockMs: 0, dbMs: 0 },
    { tEpochMs: T0 + 4000, loadgenMs: 800, mockMs: 400, dbMs: 200 },
  ];
  assert.deepEqual(cellCpu(cell({ componentCpuSamples })), {
    window: WINDOW, sutMs: 2000, loadgenMs: 400, mockMs: 200, dbMs: 100,
    parts: { loadgen: 'window', mock: 'window', db: 'window' }, basis: 'windowed', spanMs: 4000, perRequestMs: 13.5,
  });
});

test('cellCpu: partly windowed — a null series falls back to its per-cell total', () => {
  // the generator's series is null (--shards K > 1): its total 2000 ms over 400 ok; mock and db in the window
  // D = (2000 + 200 + 100) / 200 + 2000 / 400 = 11.5 + 5 = 16.5 ms
  const componentCpuSamples = [
    { tEpochMs: T0, loadgenMs: null, mockMs: 0, dbMs: 0 },
    { tEpochMs: T0 + 4000, loadgenMs: null, mockMs: 400, dbMs: 200 },
  ];
  const r = cellCpu(cell({ componentCpuSamples }));
  assert.deepEqual([r.loadgenMs, r.mockMs, r.dbMs], [2000, 200, 100]);
  assert.deepEqual(r.parts, { loadgen: 'cell', mock: 'window', db: 'window' });
  assert.equal(r.basis, 'partly-windowed');
  assert.equal(r.perRequestMs, 16.5);
});

test('cellCpu: a series that shrank (a restarted process) or does not cover the window falls back', () => {
  // mock shrinks 400 → 0: not a window figure, its total 400 is used; db does not reach back to the window start
  const componentCpuSamples = [
    { tEpochMs: T0, loadgenMs: 0, mockMs: 400, dbMs: null },
    { tEpochMs: T0 + 2000, loadgenMs: 400, mockMs: 200, dbMs: 0 },
    { tEpochMs: T0 + 4000, loadgenMs: 800, mockMs: 0, dbMs: 200 },
  ];
  const r = cellCpu(cell({ componentCpuSamples, componentCpuMs: { mock: 400, db: null } }));
  assert.deepEqual([r.loadgenMs, r.mockMs, r.dbMs], [400, 400, null]);
  assert.deepEqual(r.parts, { loadgen: 'window', mock: 'cell', db: null });
  assert.equal(r.basis, 'partly-windowed');
  // (2000 + 400) / 200 + 400 / 400 = 12 + 1 = 13
  assert.equal(r.perRequestMs, 13);
  // no sample series at all ([]) is the same as none
  assert.equal(cellCpu(cell({ componentCpuSamples: [] })).basis, 'per-cell-totals');
});

test('cellCpu: a part that did not grow in the window is 0 CPU there; a series that ends inside the window falls back', () => {
  // db idle (50 → 50) is a window figure of 0; mock starts at 0 but its samples stop before the window ends
  const componentCpuSamples = [
    { tEpochMs: T0, loadgenMs: 0, mockMs: 0, dbMs: 50 },
    { tEpochMs: T0 + 2000, loadgenMs: 400, mockMs: 0, dbMs: 50 },
    { tEpochMs: T0 + 4000, loadgenMs: 800, mockMs: null, dbMs: 50 },
  ];
  const r = cellCpu(cell({ componentCpuSamples, componentCpuMs: { mock: 400, db: 999 } }));
  assert.deepEqual([r.loadgenMs, r.mockMs, r.dbMs], [400, 400, 0]);
  assert.deepEqual(r.parts, { loadgen: 'window', mock: 'cell', db: 'window' });
  // (2000 + 400 + 0) / 200 + 400 / 400 = 12 + 1 = 13
  assert.equal(r.perRequestMs, 13);
});

test('cellCpu: the whole-run span needs a positive throughput and a success', () => {
  // the steady window is known, the whole-run figures are not: no span, so no generator total either
  const steady = { startMs: 1000, endMs: 3000, completions: 200 };
  for (const [ok, wholeRunThroughputRps] of [[400, null], [400, 0], [400, -1], [0, 100]] as const) {
    const r = cellCpu(cell({ load: { steadyWindow: steady, ok, wholeRunThroughputRps } }));
    assert.equal(r.spanMs, null, `ok ${ok}, rps ${wholeRunThroughputRps}`);
    assert.deepEqual([r.loadgenMs, r.parts.loadgen, r.perRequestMs], [null, null, null], `ok ${ok}, rps ${wholeRunThroughputRps}`);
  }
});

test('cellCpu: no window at all, with component samples: every part is its per-cell total', () => {
  const componentCpuSamples = [{ tEpochMs: T0, loadgenMs: 0, mockMs: 0, dbMs: 0 }, { tEpochMs: T0 + 4000, loadgenMs: 800, mockMs: 400, dbMs: 200 }];
  const r = cellCpu(cell({ componentCpuSamples, load: { steadyWindow: null, ok: 0, wholeRunThroughputRps: null } }));
  assert.deepEqual([r.window, r.sutMs, r.loadgenMs, r.mockMs, r.dbMs, r.basis, r.perRequestMs], [null, null, null, 400, null, 'per-cell-totals', null]);
  assert.deepEqual(r.parts, { loadgen: null, mock: 'cell', db: null });
});

test('cellCpu: unknown D — no window, no SUT samples in it, or no generator figure', () => {
  const none = cellCpu(cell({ load: { steadyWindow: null, ok: 0, wholeRunThroughputRps: null } }));
  assert.deepEqual(none, {
    window: null, sutMs: null, loadgenMs: null, mockMs: 400, dbMs: null,
    parts: { loadgen: null, mock: 'cell', db: null }, basis: 'per-cell-totals', spanMs: null, perRequestMs: null,
  });
  // SUT samples end before the window does
  const short = cellCpu(cell({ samples: [{ tEpochMs: T0, processCpuTimeNs: 0 }, { tEpochMs: T0 + 2000, processCpuTimeNs: 2e9 }] }));
  assert.deepEqual([short.sutMs, short.perRequestMs], [null, null]);
  // SUT samples start after the window does
  const late = cellCpu(cell({ samples: [{ tEpochMs: T0 + 2000, processCpuTimeNs: 0 }, { tEpochMs: T0 + 4000, processCpuTimeNs: 2e9 }] }));
  assert.deepEqual([late.sutMs, late.perRequestMs], [null, null]);
  // the generator's CPU not recorded
  const noGen = cellCpu(cell({ loadgen: { eventLoopLagP99Ms: null, eventLoopLagMaxMs: null, cpuPct: null, hostCpuPct: null } }));
  assert.deepEqual([noGen.loadgenMs, noGen.parts.loadgen, noGen.perRequestMs], [null, null, null]);
  // the whole-run window (no steady window): [0, 4000], 400 successes; D = 4000 / 400 + (2000 + 400) / 400 = 16
  const whole = cellCpu(cell({ load: { steadyWindow: null, ok: 400, wholeRunThroughputRps: 100 } }));
  assert.deepEqual(whole.window, { kind: 'whole-run', startMs: 0, endMs: 4000, completions: 400 });
  assert.equal(whole.sutMs, 4000);
  assert.equal(whole.perRequestMs, 16);
});

test('boundVerdict: above 1.02 × the bound, below 95 % (with or without a host flag), within, unknown', () => {
  assert.equal(BOUND_UPPER_TOL, 1.02);
  assert.equal(BOUND_LOWER_SHARE, 0.95);
  assert.equal(boundVerdict(102, 100, false), 'within'); // exactly 1.02
  assert.equal(boundVerdict(102.1, 100, false), 'above-bound');
  assert.equal(boundVerdict(95, 100, false), 'within'); // exactly 0.95
  assert.equal(boundVerdict(94.9, 100, false), 'below-95');
  assert.equal(boundVerdict(94.9, 100, true), 'below-95-host-flag');
  assert.equal(boundVerdict(100, 100, true), 'within');
  assert.equal(boundVerdict(null, 100, false), 'unknown');
  assert.equal(boundVerdict(100, null, false), 'unknown');
  assert.equal(boundVerdict(100, 0, false), 'unknown');
  assert.equal(boundVerdict(-100, -100, false), 'unknown');
});
