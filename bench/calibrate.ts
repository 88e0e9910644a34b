/**
 * bench:calibrate — the load generator straight at the mock LLM (fixed latency L, own process):
 * how close does it get to the closed-loop bound c / L, and how much does it add to E2E?
 *
 *   npm run bench:calibrate [-- --json] [--requests-per-worker 5] [--latency-ms 1500] [--levels 500,2000]
 *
 * Per cell: a fresh mock child, warm connections (one unrecorded request per worker), then
 * n measured requests per worker, start `together` or `ramp` (ramp over one latency).
 * throughputRps is the steady-state definition (src/load/summarize.ts: per-worker rates after the first answer, summed);
 * wholeRunRps = completed / (last end - first start). overhead = E2E - L over successful requests.
 * Targets (ramp rows only): >= 99.9 % of the bound at c = 500 and >= 99.8 % at 2000; overhead
 * P99 <= 5 ms at 500 and <= 10 ms at 2000. Numbers are printed as measured, never tuned.
 */
import { parseArgs } from 'node:util';
import { runClosedLoop } from '../src/load/run.ts';
import { percentiles } from '../src/compute/stats/percentiles.ts';
import { openFileLimit, startMockChild } from './lib/mock-child.ts';
import { table } from './lib/table.ts';
import { failWith, positiveIntOf } from './lib/args.ts';
import type { LoadResult } from '../src/types/load.ts';

const TARGETS: Record<number, { pctOfBound: number; overheadP99Ms: number }> = {
  500: { pctOfBound: 99.9, overheadP99Ms: 5 },
  2000: { pctOfBound: 99.8, overheadP99Ms: 10 },
};

interface Row {
  concurrency: number;
  start: 'together' | 'ramp';
  requestsPerWorker: number;
  latencyMs: number;
  throughputRps: number | null;
  wholeRunRps: number | null;
  boundRps: number;
  pctOfBound: number | null;
  wholeRunPctOfBound: number | null;
  overheadP50Ms: number | null;
  overheadP95Ms: number | null;
  overheadP99Ms: number | null;
  overheadMaxMs: number | null;
  ok: number;
  errors: number;
  peakInFlight: number;
  mockLatenessP99Ms: number | null;
  /** generator's own scheduling delay: actual - intended start, P99, ms */
  startDelayP99Ms: number | null;
  loadgenLagP99Ms: number | null;
  loadgenCpuPct: number | null;
  verdict: 'PASS' | 'FAIL' | null;
  failed: string[];
}

const fail: (message: string) => never = (message) => failWith('calibrate', message);
const positiveInt = (flag: string, raw: string): number => positiveIntOf('calibrate', flag, raw);

/** The parsed command line. */
interface CalibrateArgs {
  json: boolean;
  /** measured requests per worker */
  n: number;
  /** the mock's fixed latency L, ms */
  latencyMs: number;
  /** the concurrencies c, in order */
  levels: number[];
}

/** Parses the command line; exits 2 naming the flag on a bad one. */
function parseCalibrateArgs(): CalibrateArgs {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        json: { type: 'boolean', default: false },
        'requests-per-worker': { type: 'string', default: '5' },
        'latency-ms': { type: 'string', default: '1500' },
        levels: { type: 'string', default: '500,2000' },
      },
      strict: true,
    });
  } catch (err) {
    fail(`${(err as Error).message} (options: --json, --requests-per-worker N, --latency-ms MS, --levels A,B)`);
  }
  return {
    json: parsed.values.json === true,
    n: positiveInt('requests-per-worker', parsed.values['requests-per-worker'] ?? '5'),
    latencyMs: positiveInt('latency-ms', parsed.values['latency-ms'] ?? '1500'),
    levels: (parsed.values.levels ?? '').split(',').map((s) => positiveInt('levels', s.trim())),
  };
}

const BODY = JSON.stringify({ model: 'vtbench-mock', messages: [{ role: 'user', content: 'Say hello' }] });

/** One cell: a fresh mock child at latency L, c workers × n requests (one warm-up each), measured; returns its row. */
async function runCell(c: number, start: 'together' | 'ramp', a: CalibrateArgs, log: (s: string) => void): Promise<Row> {
  const { n, latencyMs } = a;
  log(`c=${c} start=${start}: starting mock (latency ${latencyMs} ms) ...`);
  const mock = await startMockChild(['--latency-ms', String(latencyMs)]);
  try {
    const res = await runClosedLoop({
      url: mock.url,
      path: '/v1/chat/completions',
      method: 'POST',
      body: BODY,
      headers: { 'content-type': 'application/json', authorization: 'Bearer dummy' },
      concurrency: c,
      requestsPerWorker: n,
      warmupRequestsPerWorker: 1,
      start,
      rampMs: latencyMs,
      connectTimeoutMs: 10_000,
      headersTimeoutMs: 10 * latencyMs + 30_000,
      bodyTimeoutMs: 30_000,
    });
    const stats = (await mock.stats()) as { latenessMs: { p99: number } | null };
    const row = rowOf(c, start, a, res, stats.latenessMs?.p99 ?? null);
    log(`  steady ${row.throughputRps?.toFixed(2)} req/s (${row.pctOfBound?.toFixed(3)} % of ${row.boundRps.toFixed(2)}), overhead P99 ${row.overheadP99Ms?.toFixed(2)} ms`);
    return row;
  } finally {
    await mock.stop();
  }
}

/** A cell's row from its load result: rates against the bound c / L, overhead = E2E − L over successes, and (ramp rows with a target) the verdict. Pure. */
function rowOf(c: number, start: 'together' | 'ramp', a: CalibrateArgs, res: LoadResult, mockLatenessP99Ms: number | null): Row {
  const { n, latencyMs } = a;
  const s = res.summary;
  const overhead = percentiles(res.records.filter((r) => r.errorClass === null).map((r) => r.e2eMs - latencyMs));
  const boundRps = c / (latencyMs / 1000);
  const pct = (x: number | null) => (x === null ? null : (100 * x) / boundRps);
  const row: Row = {
    concurrency: c,
    start,
    requestsPerWorker: n,
    latencyMs,
    throughputRps: s.steadyStateThroughputRps,
    wholeRunRps: s.wholeRunThroughputRps,
    boundRps,
    pctOfBound: pct(s.steadyStateThroughputRps),
    wholeRunPctOfBound: pct(s.wholeRunThroughputRps),
    overheadP50Ms: overhead?.p50 ?? null,
    overheadP95Ms: overhead?.p95 ?? null,
    overheadP99Ms: overhead?.p99 ?? null,
    overheadMaxMs: overhead?.max ?? null,
    ok: s.ok,
    errors: s.count - s.ok,
    peakInFlight: s.peakInFlight,
    mockLatenessP99Ms,
    startDelayP99Ms: percentiles(res.records.map((r) => r.startMs - r.intendedStartMs))?.p99 ?? null,
    loadgenLagP99Ms: res.loadgen.eventLoopLagP99Ms,
    loadgenCpuPct: res.loadgen.cpuPct,
    verdict: null,
    failed: [],
  };
  const target = TARGETS[c];
  if (start === 'ramp' && target) {
    if (row.pctOfBound === null || row.pctOfBound < target.pctOfBound) row.failed.push(`pctOfBound < ${target.pctOfBound}`);
    if (row.overheadP99Ms === null || row.overheadP99Ms > target.overheadP99Ms) row.failed.push(`overheadP99Ms > ${target.overheadP99Ms}`);
    if (row.errors > 0) row.failed.push('errors > 0');
    row.verdict = row.failed.length === 0 ? 'PASS' : 'FAIL';
  }
  return row;
}

/** The text output: one table row per cell, then what the columns mean. */
function formatCalibrate(rows: readonly Row[], a: CalibrateArgs): string {
  const headers = ['concurrency', 'start', 'throughputRps', 'wholeRunRps', 'boundRps', 'pctOfBound', 'wholeRun%', 'overheadP50Ms', 'overheadP99Ms', 'mockLateP99Ms', 'startDelayP99Ms', 'errors', 'lagP99Ms', 'cpu%', 'verdict'];
  const cells = rows.map((r) => [r.concurrency, r.start, r.throughputRps, r.wholeRunRps, r.boundRps, r.pctOfBound === null ? null : r.pctOfBound.toFixed(3), r.wholeRunPctOfBound, r.overheadP50Ms, r.overheadP99Ms, r.mockLatenessP99Ms, r.startDelayP99Ms, r.errors, r.loadgenLagP99Ms, r.loadgenCpuPct, r.verdict === null ? '(no target)' : r.verdict === 'PASS' ? 'PASS' : `FAIL: ${r.failed.join(', ')}`]);
  return `${table(headers, cells)}\n` +
    `\nL = ${a.latencyMs} ms, ${a.n} measured requests per worker, 1 warm-up; throughputRps = steady state (per-worker rates after the first answer, summed); wholeRunRps = completed / (last end - first start); overhead = E2E - L; mockLateP99Ms = the mock's own lateness (part of the overhead); startDelayP99Ms = generator start - intended start; lagP99Ms / cpu% = this process's event-loop lag and CPU.\n`;
}

async function main(): Promise<void> {
  const args = parseCalibrateArgs();
  const maxC = Math.max(...args.levels);
  const limit = await openFileLimit();
  const needed = 2 * maxC + 256;
  if (limit < needed) {
    fail(`open-file limit (ulimit -n) is ${limit}, need >= ${needed} for c = ${maxC} (client + mock socket per worker, plus margin); raise it with 'ulimit -n ${needed}'`);
  }

  const log = (s: string) => {
    if (!args.json) process.stderr.write(`${s}\n`);
  };
  const rows: Row[] = [];
  for (const c of args.levels) {
    for (const start of ['together', 'ramp'] as const) rows.push(await runCell(c, start, args, log));
  }

  if (args.json) {
    process.stdout.write(`${JSON.stringify({ bench: 'calibrate', latencyMs: args.latencyMs, requestsPerWorker: args.n, targets: TARGETS, rows }, null, 2)}\n`);
  } else {
    process.stdout.write(formatCalibrate(rows, args));
  }
  if (rows.some((r) => r.verdict === 'FAIL')) process.exitCode = 1;
}

await main();
