/**
 * The verdict rules of issue 31, each with a case that flips it: over models built from the
 * committed runs, with one input moved (a measured value, a published figure, a repeat's throughput),
 * never the verdict itself.
 * - a tolerance is relative to the published value: an absolute floor never admits more than
 *   ABS_FLOOR_MAX_SHARE of it (000: queue-wait P95 3.65 ms vs 10.64 ms);
 * - a figure the source did not measure, or a recommendation, is "not testable here" whatever the run;
 * - a published figure the source's own statements rule out is "inconsistent as published", from
 *   what the source states (002: the mixed scenario's CPU bound 1,280 QPS, not an assumed pool of 10),
 *   with Little's law only beyond a stated slack;
 * - a cell is never said to be limited by a bound it exceeded (004: 111 % of the CPU estimate);
 * - a setup identity is shown apart (004: minimum E2E behind a 50 ms sleep, makespan vs ⌈T/N⌉ × S);
 * - a knee from repeats that disagree says so, with each repeat's (003);
 * - request totals do not count a WebSocket cell's handshakes (002).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadRun } from '../fixtures/registered.ts';
import { ABS_FLOOR_MAX_SHARE, buildModel, figureTolerance, verdictOf } from '../../src/report/model.ts';
import type { LoadedRun } from '../../src/report/load.ts';
import type { CellResult, SummaryRow } from '../../src/types/run.ts';
import type { PublishedRow, Variant } from '../../src/types/study.ts';
import { PUBLISHED_002 } from '../../src/studies/002/published.ts';
import { checkPublished, LITTLE_P99_SLACK } from '../../src/studies/002/theory.ts';
import { STUDY_002 } from '../../src/studies/002/index.ts';
import { repeatKnees } from '../../src/studies/003/report.ts';
import { httpRows, conclusions as conclusions004, LIMIT_BAND, type Derived004 } from '../../src/studies/004/report.ts';
import type { VtSweepResult } from '../../src/studies/003/sweep.ts';
import type { BaseModel } from '../../src/report/types.ts';

const runDir = (id: string): string => fileURLToPath(new URL(`../../runs/${id}/`, import.meta.url));
/** A committed run without its per-request data (the verdicts do not read it; the model builds faster). */
async function run(id: string): Promise<LoadedRun> {
  const r = await loadRun(runDir(id));
  return { ...r, requests: new Map() };
}

test('an absolute floor never admits more than ABS_FLOOR_MAX_SHARE of the published value: 000\'s queue-wait P95 3.65 ms is not reproduced by 10.64 ms', async () => {
  // the old rule, max(5 % × 3.65 ms, 10 ms), admitted 10.64 ms (2.9×); the cap makes the floor 25 % of 3.65 ms
  assert.equal(verdictOf(3.65, 10.64, { rel: 0.05, abs: 10 }).verdict, 'reproduced', 'the uncapped floor');
  const tol = figureTolerance({ rel: 0.05, abs: 10 }, 3.65);
  assert.deepEqual(tol, { rel: 0.05, abs: ABS_FLOOR_MAX_SHARE * 3.65, statedAbs: 10 });
  assert.equal(verdictOf(3.65, 10.64, tol).verdict, 'not reproduced');
  // a floor below the cap is kept as stated; a published 0 admits no difference
  assert.deepEqual(figureTolerance({ rel: 0.05, abs: 20 }, 1512), { rel: 0.05, abs: 20 });
  assert.equal(figureTolerance({ rel: 0, abs: 0.001 }, 0).abs, 0);

  const r = await run('20261130-100102-seed-000');
  const id = 'virtual.queueWaitP95Ms.500';
  const before = buildModel(r).published.find((p) => p.id === id)!;
  assert.equal(before.verdict, 'not reproduced');
  assert.ok(before.measured !== null && before.measured > 10, `measured ${before.measured}`);
  assert.equal(before.tolerance.statedAbs, 10);
  // the same figure measured within 25 % of 3.65 ms is reproduced
  const summary = structuredClone(r.summary);
  const row = summary.rows.find((x: SummaryRow) => x.variant === 'virtual' && x.concurrency === 500)!;
  row.queueMs.p95.median = 3.65 * (1 + ABS_FLOOR_MAX_SHARE) - 0.01;
  assert.equal(buildModel({ ...r, summary }).published.find((p) => p.id === id)!.verdict, 'reproduced');
  row.queueMs.p95.median = 3.65 * (1 + ABS_FLOOR_MAX_SHARE) + 0.01;
  assert.equal(buildModel({ ...r, summary }).published.find((p) => p.id === id)!.verdict, 'not reproduced');
});

test('000: pinned events (the study\'s 0 is not a count) and "virtual threads do not replace rate limiting" (a recommendation) are not testable; socket-read threads are a setup identity', async () => {
  const r = await run('20261130-100102-seed-000');
  const m = buildModel(r);
  const pin = m.published.find((p) => p.id === 'virtual.pinnedEvents')!;
  assert.equal(pin.verdict, 'not testable here');
  assert.deepEqual(pin.reasons, [{ key: 'pinnedNotACount' }]);
  // whatever the run counts: 0 or 5,000 pinned events, still not testable (the §15 pinning rule judges the count)
  const cells = r.cells.map((c) => (c.variant === 'virtual' ? { ...c, pinned: { thresholdMs: 20, total: 5000, byReason: {}, submitFailed: 0 } } : c));
  const many = buildModel({ ...r, cells });
  assert.equal(many.published.find((p) => p.id === 'virtual.pinnedEvents')!.verdict, 'not testable here');
  assert.equal(many.conclusions.find((c) => c.id === 'noPinning')!.verdict, 'not reproduced', 'the pinning rule still judges this run');
  // the upstream concurrency is derived from the per-request timings: the full run
  const limits = buildModel(await loadRun(runDir('20261130-100102-seed-000'))).conclusions.find((c) => c.id === 'needLimits')!;
  assert.equal(limits.verdict, 'not testable here');
  assert.ok((limits.evidence['virtualUpstream'] as number) > (limits.evidence['fixedUpstream'] as number), 'the evidence is still shown');
  const socket = m.published.find((p) => p.id === 'fixed.threadDump.poolThreadsInSocketRead.500')!;
  assert.equal(socket.identity, 'poolInSocketRead');
});

/** Study 002's published rows with one value replaced. */
const with002 = (id: string, value: number): PublishedRow[] => PUBLISHED_002.map((p) => (p.id === id ? { ...p, value } : p));
const check = (rows: readonly PublishedRow[], id: string) => checkPublished(rows, STUDY_002.variants as Variant[]).find((c) => c.rowId === id)!;

test('002: the mixed scenario is judged against the CPU bound the study states (1,280 QPS), not an assumed pool of 10; 870 QPS = 200 / 0.23 s keeps its executor bound', () => {
  const virt = check(PUBLISHED_002, 'mixed-virtual.throughputRps');
  assert.equal(virt.verdict, 'inconsistent');
  assert.equal(virt.bound?.kind, 'studyCpu');
  assert.equal(virt.bound?.rps, 1280);
  assert.equal(check(PUBLISHED_002, 'mixed-virtual-structured.throughputRps').verdict, 'inconsistent');
  // below the study's CPU bound the same figure is consistent (no DB-pool bound of 10 / 0.05 s = 200 QPS is assumed)
  assert.equal(check(with002('mixed-virtual.throughputRps', 1200), 'mixed-virtual.throughputRps').verdict, 'consistent');
  const p200 = check(PUBLISHED_002, 'mixed-pool-200.throughputRps');
  assert.equal(p200.verdict, 'consistent');
  assert.equal(p200.bound?.kind, 'executor');
  assert.ok(Math.abs((p200.bound?.rps ?? 0) - 200 / 0.23) < 1e-6);
  assert.equal(check(with002('mixed-pool-200.throughputRps', 900), 'mixed-pool-200.throughputRps').verdict, 'inconsistent', 'above 200 / 0.23 s');
  // scenario 4 states Hikari's 10: 10 / 0.005 s = 2,000 QPS
  assert.equal(check(PUBLISHED_002, 'db10-virtual.throughputRps').bound?.kind, 'dbPool');
});

test('002: a P99 below Little\'s mean N / X is inconsistent only beyond the stated slack (I/O pool-200: 5,200 vs 5,494.5 ms is 5.4 % below)', () => {
  const io = check(PUBLISHED_002, 'io-pool-200.e2eP99Ms');
  assert.ok(Math.abs((io.littleMeanMs ?? 0) - 10_000 / 1820 * 1000) < 1e-6);
  assert.equal(io.verdict, 'consistent');
  const below = (1 - LITTLE_P99_SLACK) * (io.littleMeanMs ?? 0) - 1;
  assert.equal(check(with002('io-pool-200.e2eP99Ms', below), 'io-pool-200.e2eP99Ms').verdict, 'inconsistent');
  assert.equal(check(PUBLISHED_002, 'io-virtual.e2eP99Ms').verdict, 'inconsistent', '180 ms against 1,018 ms');
});

test('002: the pinning P99 (2 s, then 320 ms after ReentrantLock) belongs to the mixed scenario, not to the 5 ms synchronized variant', () => {
  const pinned = PUBLISHED_002.filter((p) => p.value === 2000 && p.unit === 'ms');
  assert.equal(pinned.length, 1);
  assert.equal(pinned[0]!.scenario, 'mixed');
  assert.equal(pinned[0]!.variant, 'mixed-virtual');
  assert.ok(!PUBLISHED_002.some((p) => p.variant === 'db10-virtual-sync'));
  // its own metric: Little's law with the round-2 throughput (4,120 QPS) does not judge it
  assert.equal(checkPublished(PUBLISHED_002, STUDY_002.variants as Variant[]).some((c) => c.rowId === pinned[0]!.id), false);
});

test('002: the model calls the figures the study rules out "inconsistent as published", before the level gate; the request total leaves out the WebSocket handshakes', async () => {
  const r = await run('20261201-205110-002-seed-002');
  const m = buildModel(r);
  const v = (id: string) => m.published.find((p) => p.id === id)!;
  assert.equal(v('mixed-virtual.throughputRps').verdict, 'inconsistent as published');
  assert.equal(v('mixed-virtual.throughputRps').reasons[0]?.key, 'studyCpu002.inconsistent');
  assert.equal(v('mixed-pool-200.throughputRps').verdict, 'not testable here', 'consistent, and measured at other levels than 10,000');
  assert.equal(v('io-pool-200.e2eP99Ms').verdict, 'not testable here');
  // flip: a study whose mixed-virtual figure keeps its CPU bound
  const study = { ...r.study, published: with002('mixed-virtual.throughputRps', 1200) };
  assert.equal(buildModel({ ...r, study }).published.find((p) => p.id === 'mixed-virtual.throughputRps')!.verdict, 'not testable here');
  // totals: request cells only; the 9 WebSocket cells apart, with the share of messages delivered at 10,000
  const ws = r.cells.filter((c) => c.load.websocket !== undefined);
  assert.equal(ws.length, 9);
  assert.equal(m.totals.count, r.cells.reduce((s, c) => s + c.load.count, 0) - ws.reduce((s, c) => s + c.load.count, 0));
  assert.equal(m.totals.held?.cells, 9);
  assert.equal(m.totals.held?.topLevel, 10_000);
  assert.ok((m.totals.held?.deliveredMin ?? 1) < 0.01 && Math.abs((m.totals.held?.deliveredMax ?? 0) - 0.84) < 0.01, JSON.stringify(m.totals.held));
});

/** 004's HTTP run with each cell's whole-run throughput scaled for one variant. */
function scaled(r: LoadedRun, variant: string, factor: number): LoadedRun {
  return { ...r, cells: r.cells.map((c) => (c.variant === variant ? { ...c, load: { ...c.load, wholeRunThroughputRps: (c.load.wholeRunThroughputRps ?? 0) * factor } } : c)) };
}

test('004: a variant is never limited by a bound it exceeded; "above 150 ms" is not testable when virtual threads are above 150 ms too', async () => {
  const r = await run('20261201-053137-004-seed-004-http');
  const m = buildModel(r) as unknown as BaseModel<Derived004>;
  const pl = m.derived.http.find((x) => x.variant === 'platform')!;
  assert.equal(pl.smaller, 'cpu');
  assert.ok(pl.shareOfSmaller !== null && pl.shareOfSmaller > 1 + LIMIT_BAND, `share ${pl.shareOfSmaller}`);
  assert.equal(pl.limit, 'none');
  // the same cells at 90 % of the CPU estimate: limited by the CPU
  const slower = buildModel(scaled(r, 'platform', 0.9 / (pl.shareOfSmaller as number))) as unknown as BaseModel<Derived004>;
  assert.equal(httpRows(slower, slower.manifest.host.cores).find((x) => x.variant === 'platform')!.limit, 'cpu');

  const claim = (mm: BaseModel<Derived004>, id: string) => conclusions004(mm).find((c) => c.id === id)!;
  assert.equal(claim(m, 'platform.p50Above150').verdict, 'reproduced', 'virtual threads\' median is below 150 ms');
  for (const id of ['platform.p90Above150', 'platform.p95Above150', 'platform.p99Above150']) {
    assert.equal(claim(m, id).verdict, 'not testable here', id);
    assert.equal(claim(m, id).evidence['why'], 'controlAbove', id);
  }
  // flip: virtual threads' P95 below 150 ms makes the platform's P95 statement testable (and reproduced)
  const cells = r.cells.map((c) => (c.variant === 'virtual' && c.load.e2eMs ? { ...c, load: { ...c.load, e2eMs: { ...c.load.e2eMs, p95: 140 } } } : c));
  const lowVt = buildModel({ ...r, cells }) as unknown as BaseModel<Derived004>;
  assert.equal(claim(lowVt, 'platform.p95Above150').verdict, 'reproduced');
  // "max below 100 ms": not testable while the CPU limited virtual threads; judged once they exceed that estimate
  assert.equal(claim(m, 'virtual.maxBelow100').verdict, 'not testable here');
  const vt = m.derived.http.find((x) => x.variant === 'virtual')!;
  const faster = buildModel(scaled(r, 'virtual', 1.1 / (vt.shareOfSmaller as number))) as unknown as BaseModel<Derived004>;
  assert.equal(claim(faster, 'virtual.maxBelow100').verdict, 'not reproduced');
  // minimum E2E behind a 50 ms sleep: a setup identity
  assert.equal(m.published.find((p) => p.id === 'platform.e2eMinMs.500')!.identity, 'sleepMinimum');
});

test('004: the makespan against its own ⌈T/N⌉ × S is a setup identity, never a reproduction', async () => {
  const m = buildModel(await run('20261201-054821-004-seed-004'));
  const c = m.conclusions.find((x) => x.id === 'platform.makespanVsTheory')!;
  assert.equal(c.identity, 'wavesOfPool');
});

test('003: the knee from the medians of repeats that disagree is given per repeat (repeat 1 alone: 200,000 under the range-independent rule)', async () => {
  const r = await run('20261201-061659-003-seed-003');
  const per = repeatKnees(r.cells);
  assert.deepEqual(per.map((x) => [x.repeat, x.doubling]), [[1, 200_000], [2, 300_000]]);
  // flip: repeat 1's 300,000 level given repeat 2's throughput, the repeats agree
  const sweep = (c: CellResult) => c.sweep as unknown as VtSweepResult;
  const r2at300k = sweep(r.cells.find((c) => c.repeat === 2 && c.concurrency === 300_000)!).throughputOpsPerS;
  const cells: CellResult[] = r.cells.map((c) => (c.repeat === 1 && c.concurrency === 300_000 ? { ...c, sweep: { ...sweep(c), throughputOpsPerS: r2at300k } as unknown as CellResult['sweep'] } : c));
  assert.deepEqual(repeatKnees(cells).map((x) => x.doubling), [300_000, 300_000]);
});
