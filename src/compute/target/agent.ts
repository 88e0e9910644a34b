/**
 * The agent's per-request records of one cell, matched to the requests the load generator sent and
 * summarised (issue 32, tier `agent`). Pure. A record matches a measured request when its id is
 * the id of a record of the cell (requestIdOf; warm-up ids `w…` and probes never match). Cells
 * measured since the per-cell prefix carry it in every id (`<cell id>.`, TargetCell.idPrefix), so a record
 * of an earlier cell that reached the agent after that cell's drain (a request the client gave up on)
 * matches no request of this one; older cells have no prefix.
 */
import { percentiles } from '../stats/percentiles.ts';
import type { RequestRecord } from '../../types/load.ts';
import type { AgentCellSummary, AgentRecord } from '../../types/target.ts';

/**
 * The id the load generator sent with a measured request: closed loop `<prefix><worker>-<seq>`, open
 * loop `<prefix>o-<seq>` (src/load/run.ts, src/load/open-loop.ts; prefix = LoadOptions.idPrefix).
 */
export function requestIdOf(r: Pick<RequestRecord, 'worker' | 'seq'>, mode: 'closed-loop' | 'open-loop' = 'closed-loop', prefix = ''): string {
  return mode === 'open-loop' ? `${prefix}o-${r.seq}` : `${prefix}${r.worker}-${r.seq}`;
}

/**
 * @param recs the agent's records drained after the cell (may hold records of earlier phases)
 * @param sent the cell's measured requests
 * @param mode how the cell was driven (the ids differ: requestIdOf)
 * @param prefix the cell's id prefix (TargetCell.idPrefix; '' for cells measured before it)
 */
export function agentCellSummary(recs: readonly AgentRecord[], sent: readonly RequestRecord[], mode: 'closed-loop' | 'open-loop' = 'closed-loop', prefix = ''): AgentCellSummary {
  const ids = new Set(sent.map((r) => requestIdOf(r, mode, prefix)));
  const web: number[] = [];
  const service: number[] = [];
  const byExec = new Map<string, { wait: number[]; run: number[] }>();
  let matched = 0;
  for (const r of recs) {
    if (!ids.has(r.id)) continue;
    matched++;
    if (r.webWaitNs !== null) web.push(r.webWaitNs / 1e6);
    if (r.serviceNs !== null) service.push(r.serviceNs / 1e6);
    for (const t of r.tasks) {
      const e = byExec.get(t.executor) ?? { wait: [], run: [] };
      e.wait.push(t.waitNs / 1e6);
      e.run.push(t.runNs / 1e6);
      byExec.set(t.executor, e);
    }
  }
  const byExecutor: AgentCellSummary['byExecutor'] = {};
  for (const [k, v] of byExec) byExecutor[k] = { tasks: v.wait.length, waitMs: percentiles(v.wait), runMs: percentiles(v.run) };
  return { matched, sent: sent.length, webWaitMs: percentiles(web), serviceMs: percentiles(service), byExecutor };
}
