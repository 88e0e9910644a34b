/**
 * Build `summary.json` from finished cells. Pure: cells and their request columns in, RunSummary out.
 * Per (mode, level): every metric as the median of the repeats (with min, max, n), plus pooled
 * percentiles over all requests of all repeats.
 */
import { aggregate } from '../stats/aggregate.ts';
import { percentiles, PERCENTILE_DEFINITION } from '../stats/percentiles.ts';
import { throughputBoundRps } from '../theory/bounds.ts';
import { SCHEMA_VERSION, type CellResult, type CompactRequests, type RunSummary, type SummaryRow, type Mode } from './types.ts';

export interface CellWithRequests {
  cell: CellResult;
  requests: CompactRequests | null;
}

function okValues(req: CompactRequests, col: 'e2eMs' | 'queueMs' | 'execMs'): number[] {
  const out: number[] = [];
  const xs = req[col];
  for (let i = 0; i < xs.length; i++) {
    const v = xs[i];
    if (req.error[i] === '' && v !== null && v !== undefined) out.push(v);
  }
  return out;
}

/**
 * @param runId the run's id
 * @param cells finished cells with their requests (requests may be null if unreadable; pooled
 *   percentiles then cover the readable ones only)
 * @param plannedCellIds every planned cell id, to list the missing ones
 */
export function buildSummary(runId: string, cells: readonly CellWithRequests[], plannedCellIds: readonly string[]): RunSummary {
  const groups = new Map<string, CellWithRequests[]>();
  for (const c of cells) {
    const key = `${c.cell.mode}|${c.cell.concurrency}`;
    const g = groups.get(key) ?? [];
    g.push(c);
    groups.set(key, g);
  }
  const rows: SummaryRow[] = [];
  const modeOrder: Mode[] = ['fixed', 'virtual'];
  const keys = [...groups.keys()].sort((a, b) => {
    const [ma, ca] = a.split('|');
    const [mb, cb] = b.split('|');
    return modeOrder.indexOf(ma as Mode) - modeOrder.indexOf(mb as Mode) || Number(ca) - Number(cb);
  });
  for (const key of keys) {
    const g = groups.get(key)!.sort((a, b) => a.cell.repeat - b.cell.repeat);
    const first = g[0]!.cell;
    const pick = (f: (c: CellResult) => number | null | undefined) => aggregate(g.map((x) => f(x.cell) ?? null));
    const errCount = (c: CellResult) => c.load.count - c.load.ok;
    const pooledOf = (col: 'e2eMs' | 'queueMs' | 'execMs') => {
      const all: number[] = [];
      for (const x of g) if (x.requests) for (const v of okValues(x.requests, col)) all.push(v);
      return percentiles(all);
    };
    rows.push({
      mode: first.mode,
      concurrency: first.concurrency,
      repeats: g.length,
      boundRps: throughputBoundRps(first.mode, first.concurrency, first.poolSize, first.latencyMs),
      throughput: {
        wholeRunRps: pick((c) => c.load.wholeRunThroughputRps),
        steadyStateRps: pick((c) => c.load.steadyStateThroughputRps),
      },
      e2eMs: { p50: pick((c) => c.load.e2eMs?.p50), p95: pick((c) => c.load.e2eMs?.p95), p99: pick((c) => c.load.e2eMs?.p99) },
      queueMs: { p50: pick((c) => c.load.queueMs?.p50), p95: pick((c) => c.load.queueMs?.p95), p99: pick((c) => c.load.queueMs?.p99) },
      execMs: { p50: pick((c) => c.load.execMs?.p50), p95: pick((c) => c.load.execMs?.p95), p99: pick((c) => c.load.execMs?.p99) },
      errors: { count: pick(errCount), rate: pick((c) => (c.load.count > 0 ? errCount(c) / c.load.count : null)) },
      pooled: { e2eMs: pooledOf('e2eMs'), queueMs: pooledOf('queueMs'), execMs: pooledOf('execMs') },
      pinnedTotal: pick((c) => c.pinned?.total),
      flags: g.flatMap((x) => x.cell.flags),
    });
  }
  const done = new Set(cells.map((c) => c.cell.cellId));
  return {
    schemaVersion: SCHEMA_VERSION,
    runId,
    aggregate: 'median of repeats',
    percentileDefinition: PERCENTILE_DEFINITION,
    rows,
    missingCells: plannedCellIds.filter((id) => !done.has(id)),
  };
}
