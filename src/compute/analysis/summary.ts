/**
 * Build `summary.json` from finished cells. Pure: cells and their request columns in, RunSummary out.
 * Per (variant, level): every metric as the median of the repeats (with min, max, n), plus pooled
 * percentiles over all successful requests of all repeats (null unless every repeat's requests
 * are readable). The pipeline writes it after every cell; the report rebuilds it when missing.
 */
import type { CellResult, CompactRequests, RunManifest, RunSummary, SummaryRow } from '../../types/run.ts';
import { SCHEMA_VERSION } from '../../types/run.ts';
import { throughputBoundRps } from '../theory/bounds.ts';
import { openLoopThroughputBoundRps } from '../theory/open-loop.ts';
import { aggregate as agg } from '../stats/aggregate.ts';
import { percentiles, PERCENTILE_DEFINITION } from '../stats/percentiles.ts';

/** Columns of the successful requests of one cell. */
export function successfulColumns(req: CompactRequests): { e2eMs: number[]; queueMs: number[]; execMs: number[] } {
  const e2eMs: number[] = [];
  const queueMs: number[] = [];
  const execMs: number[] = [];
  for (let i = 0; i < req.e2eMs.length; i++) {
    if ((req.error[i] ?? 'other') !== '') continue;
    const e = req.e2eMs[i];
    if (e !== undefined) e2eMs.push(e);
    const q = req.queueMs[i];
    if (q !== null && q !== undefined) queueMs.push(q);
    const x = req.execMs[i];
    if (x !== null && x !== undefined) execMs.push(x);
  }
  return { e2eMs, queueMs, execMs };
}

/**
 * Rows are ordered by variant as the plan first runs it (first cell of the variant in `cellOrder`;
 * variants outside the plan after, by id), then by level.
 * @param manifest the run's id and planned cell order (to list missing cells)
 * @param cells finished cells, any order
 * @param requests per-request columns by cell id (a missing entry makes that row's pooled values null)
 */
export function buildSummary(manifest: Pick<RunManifest, 'runId' | 'cellOrder'>, cells: readonly CellResult[], requests: ReadonlyMap<string, CompactRequests>): RunSummary {
  const groups = new Map<string, CellResult[]>();
  for (const c of cells) {
    const k = `${c.variant}|${c.concurrency}`;
    const g = groups.get(k) ?? [];
    g.push(c);
    groups.set(k, g);
  }
  const firstPlanned = new Map<string, number>();
  manifest.cellOrder.forEach((id, i) => {
    const v = id.replace(/-(c|rate)\d+-r\d+$/, '');
    if (!firstPlanned.has(v)) firstPlanned.set(v, i);
  });
  const rank = (v: string): number => firstPlanned.get(v) ?? Number.MAX_SAFE_INTEGER;
  const keys = [...groups.keys()].sort((a, b) => {
    const i = a.lastIndexOf('|');
    const j = b.lastIndexOf('|');
    const va = a.slice(0, i);
    const vb = b.slice(0, j);
    return rank(va) - rank(vb) || (va < vb ? -1 : va > vb ? 1 : 0) || Number(a.slice(i + 1)) - Number(b.slice(j + 1));
  });
  const rows: SummaryRow[] = keys.map((k) => {
    const g = (groups.get(k) ?? []).slice().sort((a, b) => a.repeat - b.repeat);
    const first = g[0] as CellResult;
    const pooledCols = { e2eMs: [] as number[], queueMs: [] as number[], execMs: [] as number[] };
    let allRequests = true;
    for (const c of g) {
      const r = requests.get(c.cellId);
      if (!r) { allRequests = false; continue; }
      const cols = successfulColumns(r);
      // loops, not push(...xs): a spread of >100k arguments throws RangeError
      for (const v of cols.e2eMs) pooledCols.e2eMs.push(v);
      for (const v of cols.queueMs) pooledCols.queueMs.push(v);
      for (const v of cols.execMs) pooledCols.execMs.push(v);
    }
    const p = (f: 'p50' | 'p95' | 'p99', m: 'e2eMs' | 'queueMs' | 'execMs') => agg(g.map((c) => c.load[m]?.[f] ?? null));
    return {
      variant: first.variant,
      concurrency: first.concurrency,
      repeats: g.length,
      // an open-loop cell's level is its arrival rate λ: min(λ, N/L) (src/compute/theory/open-loop.ts)
      boundRps: first.load.openLoop !== undefined ? openLoopThroughputBoundRps(first.executor, first.concurrency, first.latencyMs) : throughputBoundRps(first.executor, first.concurrency, first.latencyMs),
      throughput: {
        wholeRunRps: agg(g.map((c) => c.load.wholeRunThroughputRps)),
        steadyStateRps: agg(g.map((c) => c.load.steadyStateThroughputRps)),
      },
      e2eMs: { p50: p('p50', 'e2eMs'), p95: p('p95', 'e2eMs'), p99: p('p99', 'e2eMs') },
      queueMs: { p50: p('p50', 'queueMs'), p95: p('p95', 'queueMs'), p99: p('p99', 'queueMs') },
      execMs: { p50: p('p50', 'execMs'), p95: p('p95', 'execMs'), p99: p('p99', 'execMs') },
      errors: {
        count: agg(g.map((c) => c.load.count - c.load.ok)),
        rate: agg(g.map((c) => (c.load.count > 0 ? (c.load.count - c.load.ok) / c.load.count : null))),
      },
      pooled: allRequests && g.length > 0
        ? { e2eMs: percentiles(pooledCols.e2eMs), queueMs: percentiles(pooledCols.queueMs), execMs: percentiles(pooledCols.execMs) }
        : { e2eMs: null, queueMs: null, execMs: null },
      pinnedTotal: agg(g.map((c) => c.pinned?.total ?? null)),
      flags: g.flatMap((c) => c.flags),
    };
  });
  const present = new Set(cells.map((c) => c.cellId));
  return {
    schemaVersion: SCHEMA_VERSION,
    runId: manifest.runId,
    aggregate: 'median of repeats',
    percentileDefinition: PERCENTILE_DEFINITION,
    rows,
    missingCells: manifest.cellOrder.filter((id) => !present.has(id)),
  };
}
