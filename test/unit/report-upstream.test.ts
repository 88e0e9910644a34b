/**
 * Upstream concurrency in the report (issue 9, defect 1): the mock's figures only when they
 * describe the cell alone (`mock.scope === 'cell'`); for legacy cells, bounds derived from the
 * per-request timings (src/report/upstream.ts), labelled so; the leaked cumulative gauge is never
 * printed. The derived bounds are checked on hand-checkable requests and on the committed run's
 * recorded data. Failed cells of the manifest are listed as gaps with their cause.
 */
import { loadRun } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { fileURLToPath } from 'node:url';

import { buildModel } from '../../src/report/model.ts';
import { deriveUpstream, maxOverlap } from '../../src/report/upstream.ts';
import type { CellResult, CompactRequests } from '../../src/types/run.ts';
import { fixtureVariant as variant, reportMarkdown as md, section } from '../fixtures/report-helpers.ts';

const COMMITTED = fileURLToPath(new URL('../../runs/20261130-100102-seed-000/', import.meta.url));

function requests(rows: { send: number; e2e: number; q: number | null; x: number | null }[]): CompactRequests {
  return {
    worker: rows.map((_, i) => i), seq: rows.map(() => 0), startMs: rows.map((r) => r.send), e2eMs: rows.map((r) => r.e2e),
    status: rows.map((r) => (r.q === null ? 0 : 200)), error: rows.map((r) => (r.q === null ? 'reset' : '')), queueMs: rows.map((r) => r.q), execMs: rows.map((r) => r.x),
  };
}

test('maxOverlap: half-open intervals, touching ones do not overlap, empty ones are ignored', () => {
  assert.equal(maxOverlap([0, 10], [10, 20]), 1);
  assert.equal(maxOverlap([0, 9.999], [10, 20]), 2);
  assert.equal(maxOverlap([0, 0, 0], [5, 5, 0]), 2);
  assert.equal(maxOverlap([], []), 0);
});

test('deriveUpstream: one thread serving two queued requests back to back is at least 1, at most 2 — never anchored at one end', () => {
  // A: sent at 0, 0.5 ms to the SUT, runs 0.5..100.5, 0.5 ms back → e2e 101. B: sent at 0 in the same burst but
  // accepted 3 ms later, queued until A finished (q = 97.5), runs 100.5..200.5, 0.5 ms back → e2e 201. One thread: the true peak is 1.
  const r = requests([{ send: 0, e2e: 101, q: 0, x: 100 }, { send: 0, e2e: 201, q: 97.5, x: 100 }]);
  assert.deepEqual(deriveUpstream(r), { atLeast: 1, atMost: 2, timed: 2, untimed: 0 });
  // anchoring both executions at send + queue (no time before submit) puts B at 97.5..197.5, overlapping A: 2
  assert.equal(maxOverlap([0, 97.5], [100, 197.5]), 2);
  // an error without Server-Timing counts only toward the upper bound
  assert.deepEqual(deriveUpstream(requests([{ send: 0, e2e: 102, q: 0, x: 100 }, { send: 1, e2e: 50, q: null, x: null }])), { atLeast: 1, atMost: 2, timed: 1, untimed: 1 });
  assert.equal(deriveUpstream(requests([{ send: 0, e2e: 5, q: null, x: null }])), null);
});

test('committed run (real recorded data): the derived fixed-pool peak never exceeds min(c, 32), virtual threads reach c', async () => {
  const run = await loadRun(COMMITTED);
  assert.ok(run.cells.every((c) => (c.mock as { scope?: string }).scope === undefined), 'the committed run is legacy: cumulative mock statistics');
  const leaked = run.cells.filter((c) => (c.mock.after?.peakInFlight ?? 0) > (c.variant === 'fixed' ? Math.min(c.concurrency, (c.executor.kind === 'platform-pool' ? c.executor.threads : c.concurrency)) : c.concurrency));
  assert.ok(leaked.length > 0, 'the committed run has leaked mock peaks (e.g. fixed-c10-r2 = 500)');
  for (const c of run.cells) {
    const d = deriveUpstream(run.requests.get(c.cellId) as CompactRequests);
    assert.ok(d, c.cellId);
    const allowed = c.variant === 'fixed' ? Math.min(c.concurrency, (c.executor.kind === 'platform-pool' ? c.executor.threads : c.concurrency)) : c.concurrency;
    assert.ok(d.atLeast <= allowed, `${c.cellId}: derived ${d.atLeast} > ${allowed}`);
    assert.equal(d.atLeast, allowed, `${c.cellId}: every executor slot was busy at some moment`);
    assert.ok(d.atMost >= d.atLeast, c.cellId);
  }
  const m = buildModel(run);
  for (const r of m.rows) {
    assert.equal(r.upstream.source, 'derived');
    assert.ok((r.upstream.peak.median as number) <= r.upstream.allowed, `${r.variant} ${r.concurrency}`);
    // the timings alone overshoot at wave edges (up to 64 for the 32-thread pool); one call per task caps it
    assert.ok(r.upstream.atMost !== null && r.upstream.atMost.values.every((v) => v !== null && v <= r.upstream.allowed), `${r.variant} ${r.concurrency}: upper bound ${JSON.stringify(r.upstream.atMost?.values)} > ${r.upstream.allowed}`);
  }
  assert.ok(run.cells.some((c) => c.variant === 'fixed' && deriveUpstream(run.requests.get(c.cellId) as CompactRequests)!.atMost > (c.executor.kind === 'platform-pool' ? c.executor.threads : c.concurrency)), 'uncapped, the timing bound of some fixed cell exceeds the pool');
  const concl = m.conclusions.find((c) => c.id === 'needLimits');
  // a recommendation of the study: never judged (issue 31); its evidence is what the run shows
  assert.equal(concl?.verdict, 'not testable here');
  assert.equal(concl?.evidence['upstreamSource'], 'derived');
  assert.equal(concl?.evidence['virtualUpstream'], 500);
  for (const lang of ['en', 'zh'] as const) {
    const doc = await md(run, lang);
    const s13 = section(doc, /^## 13\./);
    assert.doesNotMatch(s13, /at most 500 concurrent calls from the fixed pool|500 fixed/);
    assert.match(s13, lang === 'en' ? /derived from per-request timings, not measured at the mock/ : /由逐请求计时推算，非 Mock 端实测/);
    assert.match(section(doc, /^## 15\./), lang === 'en' ? /derived from per-request timings \(not measured at the mock\): at most \d+ fixed, at least 500 virtual/ : /非 Mock 端实测/);
  }
});

test('a legacy cell with a leaked mock peak never prints it; per-cell statistics (scope = cell) are used as measured', async () => {
  const LEAK = 4242;
  // legacy = no `scope` (whatever the fixture was generated with): the statistics count from the mock's start
  const legacy = await variant((cells) => { for (const c of cells) if (c.mock.after) c.mock = { before: c.mock.before, after: { ...c.mock.after, peakInFlight: LEAK } }; });
  const lm = buildModel(legacy);
  assert.ok(lm.rows.every((r) => r.upstream.source === 'derived' && (r.upstream.peak.median as number) <= r.upstream.allowed));
  for (const lang of ['en', 'zh'] as const) {
    const doc = await md(legacy, lang);
    assert.ok(!doc.includes('4,242') && !doc.includes('4242'), `${lang}: the leaked peak is printed`);
  }

  // per-cell statistics: the mock's own peak, labelled as measured
  const scoped = (fixedPeak: (c: CellResult) => number) => variant((cells) => {
    for (const c of cells) {
      if (!c.mock.after) continue;
      const peakInFlight = c.variant === 'fixed' ? fixedPeak(c) : c.concurrency;
      c.mock = { ...c.mock, after: { ...c.mock.after, peakInFlight }, scope: 'cell' } as CellResult['mock'];
    }
  });
  const ok = await scoped((c) => Math.min(c.concurrency, (c.executor.kind === 'platform-pool' ? c.executor.threads : c.concurrency)));
  const om = buildModel(ok);
  assert.ok(om.rows.every((r) => r.upstream.source === 'mock' && r.upstream.peak.median === r.upstream.allowed));
  assert.equal(om.conclusions.find((c) => c.id === 'needLimits')?.verdict, 'not testable here');
  assert.equal(om.conclusions.find((c) => c.id === 'needLimits')?.evidence['fixedUpstream'], 8);
  const s13 = section(await md(ok), /^## 13\./);
  assert.match(s13, /Measured: at 32 concurrency the mock saw at most 8 concurrent calls from the fixed pool \(its 8 threads act as a limit\) and 32 from virtual threads/);
  assert.match(s13, /\| Fixed pool \| 32 \| 8 \| 8 \(n=2\) \| measured at the mock \(this cell alone\) \|/);
  assert.doesNotMatch(s13, /derived/);
  // a fixed pool that sent as many calls as virtual threads: the evidence shows no back-pressure either (still not a verdict)
  const same = buildModel(await scoped((c) => c.concurrency));
  const sameConcl = same.conclusions.find((c) => c.id === 'needLimits');
  assert.equal(sameConcl?.verdict, 'not testable here');
  assert.equal(sameConcl?.evidence['fixedUpstream'], sameConcl?.evidence['virtualUpstream']);
});

