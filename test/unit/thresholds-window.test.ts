/**
 * Windowed threshold rules (issue 33 item 5): the windows of a cell (src/compute/analysis/windows.ts),
 * the rule's text and structured forms with their errors (src/report/thresholds/rules.ts), and the
 * check over a committed run's real per-request records with its last 10 s made slow
 * (src/report/thresholds/window.ts): the whole-run rule holds, the `last:10s` and `every:10s`
 * rules catch the collapse and name the value, the limit, the window and the cell.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { cellWindows, metricInWindow, parseWindow, windowText, windowValues } from '../../src/compute/analysis/windows.ts';
import { parseRuleText, readThresholds, ruleText } from '../../src/report/thresholds/rules.ts';
import { checkRun } from '../../src/report/thresholds/check.ts';
import { EXIT, VtbenchError } from '../../src/types/errors.ts';
import { summarize } from '../../src/load/summarize.ts';
import { buildSummary } from '../../src/compute/analysis/summary.ts';
import { expandRequests } from '../../src/pipeline/resummarize.ts';
import type { CellResult, CompactRequests } from '../../src/types/run.ts';
import type { LoadedRun } from '../../src/report/load.ts';
import { loadRun } from '../fixtures/registered.ts';

const COMMITTED = fileURLToPath(new URL('../../runs/20261130-100102-seed-000', import.meta.url));

/** Requests as columns: [startMs, e2eMs, error] each. */
const req = (...rows: [number, number, string][]): CompactRequests => ({
  worker: rows.map(() => 0), seq: rows.map((_, i) => i), startMs: rows.map((r) => r[0]), e2eMs: rows.map((r) => r[1]),
  status: rows.map((r) => (r[2] === '' ? 200 : 503)), error: rows.map((r) => r[2]) as CompactRequests['error'], queueMs: rows.map(() => null), execMs: rows.map(() => null),
});

test('parseWindow / windowText: steady, last:<N>s, every:<N>s; anything else is null', () => {
  assert.deepEqual(parseWindow('steady'), { kind: 'steady' });
  assert.deepEqual(parseWindow('last:10s'), { kind: 'last', seconds: 10 });
  assert.deepEqual(parseWindow('every:2.5s'), { kind: 'every', seconds: 2.5 });
  for (const bad of ['last:0s', 'last:10', 'every:s', 'first:10s', 'whole', '']) assert.equal(parseWindow(bad), null, bad);
  assert.deepEqual(['steady', 'last:10s', 'every:2.5s'].map((t) => windowText(parseWindow(t)!)), ['steady', 'last:10s', 'every:2.5s']);
});

test('cellWindows and metricInWindow: requests belong to the window they end in; every:N leaves out a short tail', () => {
  // ends at 1, 2, 3, 4.5, 10 s
  const r = req([0, 1000, ''], [0, 2000, ''], [1000, 2000, 'http'], [2000, 2500, ''], [5000, 5000, '']);
  assert.deepEqual(cellWindows({ kind: 'last', seconds: 3 }, r, null), [[7000, 10000]]);
  assert.deepEqual(cellWindows({ kind: 'steady' }, r, { startMs: 1000, endMs: 4500 }), [[1000, 4500]]);
  assert.deepEqual(cellWindows({ kind: 'steady' }, r, null), []);
  const every = cellWindows({ kind: 'every', seconds: 4 }, r, null);
  // from the first answer (1 s): [1, 5], [5, 9]; the tail (9, 10] is shorter than 4 s and left out
  assert.deepEqual(every.map(([s, e]) => [Math.round(s), Math.round(e)]), [[1000, 5000], [5000, 9000]]);
  // a cell shorter than N: one window over all its answers
  assert.equal(cellWindows({ kind: 'every', seconds: 60 }, r, null).length, 1);
  // (1, 4.5]: the answers at 2, 3 (failed) and 4.5 s; the one at 1 s ends on the open edge
  const w = (m: Parameters<typeof metricInWindow>[0]) => metricInWindow(m, r, 1000, 4500);
  assert.equal(w('throughput').value, 2 / 3.5);
  assert.equal(w('error_rate').value, 1 / 3);
  assert.equal(w('e2e_p50').value, 2250);
  assert.equal(w('throughput').count, 3);
  assert.equal(metricInWindow('e2e_p95', r, 20000, 30000).value, null);
  assert.equal(metricInWindow('error_rate', r, 20000, 30000).value, null);
  assert.deepEqual(windowValues({ kind: 'last', seconds: 1 }, 'e2e_p99', r, null).map((x) => x.value), [5000]);
});

test('rules: a window in the text form (` over <window>`) and the structured form; an unknown window is refused naming the rule', () => {
  assert.deepEqual(parseRuleText('fixed@500: e2e_p95 <= 25000ms over last:10s'), { rule: { cell: 'fixed@500', metric: 'e2e_p95', op: '<=', value: 25000, window: 'last:10s' } });
  assert.deepEqual(parseRuleText('*@*: throughput >= 0.9 * bound over steady'), { rule: { cell: '*@*', metric: 'throughput', op: '>=', value: 0.9, of: 'bound', window: 'steady' } });
  assert.equal(ruleText({ cell: 'v@5', metric: 'error_rate', op: '<=', value: 0.01, window: 'every:5s' }), 'v@5: error_rate <= 0.01 over every:5s');
  const t = readThresholds({ rules: ['v@5: e2e_p95 <= 9ms over every:5s', { cell: 'v@5', metric: 'throughput', op: '>=', value: 1, window: 'steady' }] }, 'f.json');
  assert.deepEqual(t.rules.map((r) => r.text), ['v@5: e2e_p95 <= 9ms over every:5s', 'v@5: throughput >= 1 req/s over steady']);
  for (const doc of [{ rules: ['v@5: e2e_p95 <= 9ms over last:10'] }, { rules: [{ cell: 'v@5', metric: 'e2e_p95', op: '<=', value: 9, window: 'first:10s' }] }]) {
    assert.throws(() => readThresholds(doc, 'f.json'), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && /rules\/0 .*unknown window '(last:10|first:10s)' \(windows: steady, last:<N>s, every:<N>s/.test(e.message), JSON.stringify(doc));
  }
});

/**
 * The committed run with its fixed@500 cells' last 10 s made slow: every request that ended in a
 * repeat's last 10 s takes three times as long; each cell's summary is then derived again through
 * the real path (summarize, as `resummarize` does) and summary.json rebuilt (buildSummary).
 */
async function collapsed(): Promise<LoadedRun> {
  const run = await loadRun(COMMITTED);
  const requests = new Map(run.requests);
  const cells: CellResult[] = run.cells.map((c) => {
    if (!(c.variant === 'fixed' && c.concurrency === 500)) return c;
    const r = run.requests.get(c.cellId)!;
    const lastEnd = Math.max(...r.e2eMs.map((e, i) => r.startMs[i]! + e));
    const e2eMs = r.e2eMs.map((e, i) => (r.startMs[i]! + e > lastEnd - 10_000 ? e * 3 : e));
    const slow = { ...r, e2eMs };
    requests.set(c.cellId, slow);
    const load = summarize(expandRequests(slow), c.concurrency, c.requestsPerWorker);
    return { ...c, load: { ...c.load, ...load } };
  });
  return { ...run, cells, requests, summary: buildSummary(run.manifest, cells, requests) };
}

test('a windowed rule catches a collapse in the last 10 s of a cell that the whole-run rule misses', async () => {
  const base = await loadRun(COMMITTED);
  const slow = await collapsed();
  const rules = readThresholds({
    rules: [
      'fixed@500: e2e_p95 <= 25000ms',
      'fixed@500: e2e_p95 <= 25000ms over last:10s',
      'fixed@500: e2e_p95 <= 25000ms over every:10s',
      'fixed@500: e2e_p95 <= 25000ms over steady',
    ],
  }, 'w.json');
  // before the collapse every rule holds
  assert.deepEqual(checkRun(rules, base).map((o) => o.status), ['held', 'held', 'held', 'held']);
  const out = checkRun(rules, slow);
  assert.deepEqual(out.map((o) => o.status), ['held', 'broken', 'broken', 'held'], out.map((o) => o.detail).join('\n'));
  // the whole run's P95 barely moved (the slowed requests are about 1 % of the cell's)
  assert.ok(out[0]!.measured! < 25000 && out[0]!.measured! > 24000, String(out[0]!.measured));
  // the broken rule names the value, the window and its place, the repeat's cell and the limit
  assert.ok(out[1]!.measured! > 50000, String(out[1]!.measured));
  assert.match(out[1]!.detail, /^fixed@500: measured \d+(\.\d+)? ms over last:10s \(the last 10 s, \d+(\.\d)? s–\d+(\.\d)? s after the start of fixed-c500-r\d, \d+ request\(s\); worst of 3 repeat\(s\)\), limit <= 25000 ms$/);
  assert.match(out[2]!.detail, /^fixed@500: measured \d+(\.\d+)? ms over every:10s \(the worst of \d+ 10-second window\(s\)(; \d+ window\(s\) without a value left out)?, .* after the start of fixed-c500-r\d, /);
});

test('a windowed rule on a cell without per-request records, or without a steady window, cannot be checked and breaks', async () => {
  const base = await loadRun(COMMITTED);
  const noRecords = { ...base, requests: new Map([...base.requests].filter(([id]) => id !== 'virtual-c10-r2')) };
  const t = readThresholds({ rules: ['virtual@10: throughput >= 1 over last:10s', 'virtual@50: throughput >= 1 over steady'] }, 'w.json');
  const noSteady = { ...noRecords, cells: noRecords.cells.map((c) => (c.cellId === 'virtual-c50-r3' ? { ...c, load: { ...c.load, steadyWindow: null } } : c)) };
  const out = checkRun(t, noSteady);
  assert.deepEqual(out.map((o) => o.status), ['broken', 'broken']);
  assert.match(out[0]!.detail, /virtual@10: throughput over last:10s cannot be checked: the per-request records of virtual-c10-r2 are missing or unreadable/);
  assert.match(out[1]!.detail, /virtual@50: throughput over steady cannot be checked: virtual-c50-r3 has no steady window/);
  // with them, both hold: throughput in the steady window and the last 10 s is far above 1 req/s
  assert.deepEqual(checkRun(t, base).map((o) => o.status), ['held', 'held']);
});
