/**
 * A cell with 300,000 successful requests goes through the real code paths without a RangeError
 * (Node 20 throws when more than ~125,000 elements are spread into one call: push(...xs),
 * Math.max(...xs)). The records are synthetic (a seeded closed loop), everything after them is the
 * product's own code: the load summarizer, the store's writer, buildSummary, loadRun, the report
 * model and both renderers.
 */
import { loadRun, loadTemplates } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarize } from '../../src/load/summarize.ts';
import type { RequestRecord } from '../../src/types/load.ts';
import { RunStore, compactRequests } from '../../src/adapters/store/run-store.ts';
import { buildSummary } from '../../src/compute/analysis/summary.ts';
import { SCHEMA_VERSION, type CellResult, type RunManifest } from '../../src/types/run.ts';
import { STUDY_000 } from '../../src/studies/000/index.ts';

/** study 000's reader of schema 1 (imported through the study: v1.ts and index.ts import each other) */
const V1_READER = STUDY_000.legacyReaders![0]!;
import type { SutSample } from '../../src/types/sut-api.ts';

import { buildReport } from '../../src/report/index.ts';
import { maxOf } from '../../src/report/stats.ts';
import { mulberry32 } from '../../mock/src/prng.ts';
import { FIXTURE_DIR } from '../fixtures/report-helpers.ts';

const C = 100;
const N = 3000; // 300,000 requests
const L = 100;
const INTERVAL_MS = 250;

/** c closed-loop workers, n requests each, service time L plus seeded jitter (ms after t0). */
function closedLoopRecords(): RequestRecord[] {
  const rand = mulberry32(42);
  const out: RequestRecord[] = [];
  for (let w = 0; w < C; w++) {
    let t = rand() * 2;
    for (let seq = 0; seq < N; seq++) {
      const queue = 0.01 + rand() * 0.05;
      const exec = L + rand() * 3 + (rand() < 0.001 ? 40 : 0);
      const e2e = queue + exec + 0.4 + rand() * 0.6;
      out.push({ worker: w, seq, intendedStartMs: t, startMs: t, endMs: t + e2e, e2eMs: e2e, status: 200, errorClass: null, serverTiming: { queue, exec } });
      t += e2e + 0.02;
    }
  }
  return out;
}

test('a cell of 300,000 successful requests: summary, store, summary.json, report model and renderers', { timeout: 120_000 }, async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'vtbench-large-')), 'large-run');
  try {
    const records = closedLoopRecords();
    assert.equal(records.length, 300_000);
    const load = summarize(records, C, N);
    assert.equal(load.ok, 300_000);

    // the fixture is a schema-1 run: its manifest read through study 000's v1 reader is a current one
    const fixture = V1_READER.manifest(JSON.parse(readFileSync(join(FIXTURE_DIR, 'manifest.json'), 'utf8')) as Record<string, unknown>) as RunManifest;
    const cellId = `virtual-c${C}-r1`;
    const manifest: RunManifest = {
      ...fixture, schemaVersion: SCHEMA_VERSION, runId: 'large-run', cellOrder: [cellId],
      options: { ...fixture.options, levels: [C], variants: ['virtual'], variantSpecs: fixture.options.variantSpecs.filter((v) => v.id === 'virtual'), repeats: 1, requestsPerWorker: N, latencyMs: L, warmupS: 0, samplerIntervalMs: INTERVAL_MS },
      sut: { 'virtual-r1': fixture.sut['virtual-r1']! },
    };
    const t0EpochMs = Date.UTC(2030, 0, 1);
    const lastEndMs = maxOf(records.map((r) => r.endMs)) as number;
    const samples: SutSample[] = [];
    for (let t = 0; t <= lastEndMs + INTERVAL_MS; t += INTERVAL_MS) {
      samples.push({
        tEpochMs: t0EpochMs + t, executorActive: C, queueSize: 0, inFlight: C, completed: Math.floor((t / lastEndMs) * 300_000), platformThreads: 40,
        heapUsedBytes: 100e6, heapCommittedBytes: 512e6, rssBytes: 300e6, processCpuLoad: 0.2, processCpuTimeNs: t * 1e5,
        vtSchedulerParallelism: 8, vtSchedulerPoolSize: 8, vtMounted: 8, vtQueued: 0, pinnedTotal: 0, submitFailedTotal: 0, upstreamErrorsTotal: 0,
      });
    }
    const cell: CellResult = {
      schemaVersion: SCHEMA_VERSION, cellId, variant: 'virtual', scenario: fixture.options.scenario, executor: { kind: 'virtual-per-task' }, concurrency: C, repeat: 1, requestsPerWorker: N, latencyMs: L,
      start: 'together', startedAt: new Date(t0EpochMs).toISOString(), t0EpochMs, durationMs: Math.ceil(lastEndMs), load, samples,
      mock: { before: null, after: null }, pinned: { thresholdMs: 20, total: 0, byReason: {}, submitFailed: 0 },
      loadgen: { eventLoopLagP99Ms: 2, eventLoopLagMaxMs: 9, cpuPct: 30, hostCpuPct: 40 }, flags: [], threadDump: null,
    };
    const store = new RunStore(dir);
    store.init();
    store.writeManifest(manifest);
    const req = compactRequests(records);
    store.writeCell(cell, req);
    store.writeSummary(buildSummary(manifest, [store.readCell(cellId)], new Map([[cellId, store.readRequests(cellId)]])));

    const run = await loadRun(dir);
    assert.equal(run.summary.rows[0]?.pooled.e2eMs?.n, 300_000, 'pooled percentiles over all 300,000 requests');
    const built = await buildReport(run, await loadTemplates('en'));
    const md = built.files.find((f) => f.path === 'report.md')?.content ?? '';
    assert.ok(built.files.some((f) => f.path === 'index.html' && f.content.length > 0));
    // the latency distribution covers every request: its 100th percentile is the stored maximum
    const dist = built.model.charts.distribution;
    assert.equal(dist.length, 103);
    assert.equal(dist.find((d) => d.pct === 100)?.e2eMs, Math.round((maxOf(req.e2eMs) as number) * 1000) / 1000);
    assert.match(md, /300,000/);
  } finally {
    rmSync(dirname(dir), { recursive: true, force: true });
  }
});

function dirname(p: string): string {
  return join(p, '..');
}
