/**
 * The terminal's line at the end of a study 003 cell (issue 31 item 6): the sweep's ops/s against
 * its N/L bound, from the study's own answer (JobAnswerCheck.describe), not the HTTP figures the
 * in-process job does not have (which printed "0.0 % of bound" for a level at 91.7 %).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sweepLine, VT_SWEEP_ANSWER, type VtSweepResult } from '../../src/studies/003/sweep.ts';
import { cellEndLine } from '../../src/pipeline/events.ts';
import type { CellResult } from '../../src/types/run.ts';

const RUN = join(import.meta.dirname, '..', '..', 'runs', '20261201-061659-003-seed-003');
const cells = readdirSync(join(RUN, 'cells')).filter((f) => /^[^.]+\.json$/.test(f)).map((f) => JSON.parse(readFileSync(join(RUN, 'cells', f), 'utf8')) as CellResult);
const job = (threads: number) => ({ path: '/bench/job/vt-sweep', tasks: threads, sleepMs: 1000, timeoutMs: 1, params: { op: 'sleep' } });

test('an ok level: ops/s, its share of N/L and the op latency P99, from the committed levels', () => {
  const ok = cells.map((c) => c.sweep as unknown as VtSweepResult).filter((a) => a.outcome === 'ok');
  assert.ok(ok.length > 0);
  for (const a of ok) {
    const bound = (a.threads * 1000) / a.sleepMs;
    assert.equal(sweepLine(job(a.threads), a), `sweep: ${a.threads.toLocaleString('en-US')} threads (sleep), ${a.throughputOpsPerS!.toFixed(0)} ops/s = ${((100 * a.throughputOpsPerS!) / bound).toFixed(1)} % of N/L ${bound.toFixed(0)} ops/s; op latency P99 ${a.latencyP99Ms!.toFixed(0)} ms`);
  }
  const a = { ...ok[0]!, threads: 300_000, sleepMs: 1000, throughputOpsPerS: 275_100 };
  assert.match(sweepLine(job(300_000), a), /^sweep: 300,000 threads \(sleep\), 275100 ops\/s = 91\.7 % of N\/L 300000 ops\/s;/);
});

test('another outcome is named with its reason; the cell-end line prints the study\'s line with the flags, not the HTTP figures', () => {
  const base = cells[0]!.sweep as unknown as VtSweepResult;
  assert.equal(sweepLine(job(16_000), { ...base, threads: 16_000, outcome: 'host-limit', reason: 'file descriptors', throughputOpsPerS: null }), 'sweep: 16,000 threads, outcome host-limit (file descriptors)');
  assert.equal(VT_SWEEP_ANSWER.describe, sweepLine);
  const line = cellEndLine({ type: 'cell-end', cellId: 'x', summary: cells[0]!.load, boundRps: 1, flags: [{ code: 'host-cpu' } as never], durationMs: 1, answerLine: 'sweep: 1 threads' });
  assert.equal(line, '    sweep: 1 threads; flags: host-cpu');
});
