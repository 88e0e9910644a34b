/**
 * `compare` on real data: the committed seed-000 run (3 repeats) against itself, against a copy
 * re-summarised through the real code path with no change, and against a copy whose time axis is
 * stretched by 5 % (every request's start, E2E, queue wait and execution time × 1.05, then
 * `resummarizeRun`, src/pipeline/resummarize.ts): latency percentiles 5 % higher, whole-run
 * throughput 1/1.05 − 1 = −4.76 %.
 */
import { loadRun } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyRunAsCurrent } from '../fixtures/upgrade-run.ts';
import { resummarizeRun } from '../../src/pipeline/resummarize.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';

import { compareRuns, type Comparison } from '../../src/report/compare/model.ts';
import type { CompactRequests } from '../../src/types/run.ts';
import type { LoadedRun } from '../../src/report/load.ts';
import { main, type MainDeps } from '../../src/cli/main.ts';
import { EXIT } from '../../src/types/errors.ts';

const COMMITTED = fileURLToPath(new URL('../../runs/20261130-100102-seed-000', import.meta.url));

const r3 = (x: number) => Math.round(x * 1000) / 1000; // the store keeps ms to 3 decimals

/**
 * Copy a run in the current format, multiply every stored time of every request by `factor`
 * (relative to the cell's t0, so throughput scales by 1/factor) and the cell's duration with them, and re-derive the cell summaries
 * and summary.json with resummarizeRun — the same path `npx zx run.mjs resummarize` takes.
 */
export function stretchedCopy(src: string, dst: string, factor: number): void {
  copyRunAsCurrent(src, dst);
  const store = new RunStore(dst);
  for (const id of store.doneCellIds()) {
    const cell = store.readCell(id);
    const req = store.readRequests(id);
    const scaled: CompactRequests = {
      ...req,
      startMs: req.startMs.map((x) => r3(x * factor)),
      e2eMs: req.e2eMs.map((x) => r3(x * factor)),
      queueMs: req.queueMs.map((x) => (x === null ? null : r3(x * factor))),
      execMs: req.execMs.map((x) => (x === null ? null : r3(x * factor))),
    };
    // the cell lasted as much longer as its requests did: its requests stay inside it (raw records are checked for that)
    store.writeCell({ ...cell, durationMs: r3(cell.durationMs * factor) }, scaled);
  }
  resummarizeRun(dst);
}

/** The committed run, loaded once for the tests of this file (compareRuns only reads its inputs). */
let committed: Promise<LoadedRun> | null = null;
const loadCommitted = (): Promise<LoadedRun> => (committed ??= loadRun(COMMITTED));

function verdicts(c: Comparison): Map<string, number> {
  const out = new Map<string, number>();
  for (const cell of c.cells) for (const m of cell.metrics) out.set(m.verdict, (out.get(m.verdict) ?? 0) + 1);
  return out;
}

test('compare: the committed run against itself is inconclusive everywhere (every interval holds 0), every cell matched', async () => {
  const a = await loadCommitted();
  const c = compareRuns(a, a);
  assert.equal(c.cells.length, 10);
  assert.deepEqual(c.onlyInA, []);
  assert.deepEqual(c.onlyInB, []);
  for (const cell of c.cells) {
    for (const m of cell.metrics) {
      assert.equal(m.verdict, 'inconclusive', `${cell.variant}@${cell.level} ${m.metric}`);
      assert.equal(m.diff, 0);
      assert.ok(m.ci !== null && m.ci[0] < 0 && m.ci[1] > 0, `${cell.variant}@${cell.level} ${m.metric}: interval around 0`);
    }
  }
});

test('compare: a 5 % slowdown made through the real resummarize path is detected; the same path with no change is not', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-compare-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  stretchedCopy(COMMITTED, join(tmp, 'same'), 1);
  stretchedCopy(COMMITTED, join(tmp, 'slow'), 1.05);
  const base = await loadCommitted();
  const slowRun = await loadRun(join(tmp, 'slow'));
  const same = compareRuns(base, await loadRun(join(tmp, 'same')));
  const slow = compareRuns(base, slowRun);
  // the unchanged copy: no metric of any cell differs significantly (every interval holds 0)
  assert.deepEqual(Object.fromEntries(verdicts(same)), { inconclusive: 40 });
  // the 5 % slowdown: detected as "slower" everywhere except one metric whose repeats alone spread
  // more than 5 %: fixed@50 E2E P50 (per repeat 2,545 / 2,925 / 2,948 ms, SD 226 ms = 8 % of the
  // mean: at c = 50 > 32 threads answers come at about 1.5 s and 3 s, and the median sits near the step)
  assert.deepEqual(Object.fromEntries(verdicts(slow)), { slower: 39, inconclusive: 1 });
  const p50 = slow.cells.find((x) => x.variant === 'fixed' && x.level === 50)!.metrics.find((m) => m.metric === 'e2e_p50')!;
  assert.match(p50.reason ?? '', /the noise between repeats \(CV \d+\.\d % in A, CV \d+\.\d % in B\) exceeds the minimum effect 5 %/);
  for (const cell of slow.cells) {
    for (const m of cell.metrics) {
      const what = `${cell.variant}@${cell.level} ${m.metric}`;
      const truth = m.metric === 'throughput' ? (1 / 1.05 - 1) * 100 : 5;
      assert.ok(m.diffPct !== null && Math.abs(m.diffPct - truth) < 0.01, `${what}: ${m.diffPct} % vs the ${truth} % made`);
      assert.ok(m.ciPct !== null && m.ciPct[0] <= truth && truth <= m.ciPct[1], `${what}: the interval ${m.ciPct} covers the true shift`);
      if (!(cell.variant === 'fixed' && cell.level === 50 && m.metric === 'e2e_p50')) assert.equal(m.verdict, 'slower', what);
    }
  }
  // and the other way round the same shift reads as faster
  const fast = compareRuns(slowRun, base);
  assert.deepEqual(Object.fromEntries(verdicts(fast)), { faster: 39, inconclusive: 1 });

  // the CI gate: `compare --thresholds thresholds.example.json` passes the unchanged copy and fails
  // the slowed one with exit 9, naming each cell whose E2E P95 is slower; the example's run rules,
  // checked against B, break too (virtual@500 at 313 req/s < 0.97 × 333.3; fixed@500 P95 > 25 s)
  const example = fileURLToPath(new URL('../../thresholds.example.json', import.meta.url));
  let err = '';
  const sink = { write: (s: string) => { err += s; return true; }, isTTY: false } as unknown as NodeJS.WriteStream;
  const quiet = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;
  assert.equal(await main(['compare', COMMITTED, join(tmp, 'same'), '--thresholds', example], { stdout: quiet, stderr: sink }, {} as MainDeps), EXIT.ok, err);
  err = '';
  assert.equal(await main(['compare', COMMITTED, join(tmp, 'slow'), '--thresholds', example], { stdout: quiet, stderr: sink }, {} as MainDeps), EXIT.thresholds, err);
  const broken = err.split('\n').filter((l) => l.startsWith('threshold broken:'));
  assert.equal(broken.length, 12, err);
  assert.match(broken[0]!, /rules\/0 "virtual@500: throughput >= 0.97 \* bound": virtual@500: measured 313.02 req\/s/);
  assert.match(broken[1]!, /rules\/1 "fixed@500: e2e_p95 <= 25000ms": fixed@500: measured 25264.49 ms/);
  assert.ok(broken.slice(2).every((l) => /"compare: e2e_p95 not slower than baseline": \w+@\d+: e2e_p95 slower \(B − A = /.test(l)), err);
});
