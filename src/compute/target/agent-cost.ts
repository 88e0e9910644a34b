/**
 * The agent's own cost per task (issue 32 tier 3): what `-javaagent:vtbench-agent.jar` adds to each task
 * handed to an executor, from `dev.vtbench.agent.bench.TaskCostBench` (sut/agent) run without and with
 * the agent. Pure: parsing its output and the medians over rounds. Median: src/compute/stats/percentiles.ts
 * (p50, type 7). Used by `npm run bench:agent` and by every agent-tier target run (stated in its report).
 */
import type { AgentCostRow } from '../../types/target.ts';
import { percentiles } from '../stats/percentiles.ts';

/** One line of TaskCostBench: an executor's mean cost of a task, in ns. */
export interface TaskCost {
  executor: string;
  tasks: number;
  nsPerTask: number;
}

/**
 * Parses TaskCostBench's stdout (one JSON object per line; other lines ignored).
 * @throws Error when a JSON line lacks executor/tasks/nsPerTask
 */
export function parseTaskCosts(stdout: string): TaskCost[] {
  const out: TaskCost[] = [];
  for (const line of stdout.split('\n')) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    const o = JSON.parse(t) as Partial<TaskCost>;
    if (typeof o.executor !== 'string' || typeof o.tasks !== 'number' || typeof o.nsPerTask !== 'number') {
      throw new Error(`not a TaskCostBench line: ${t}`);
    }
    out.push({ executor: o.executor, tasks: o.tasks, nsPerTask: o.nsPerTask });
  }
  return out;
}

/**
 * Per executor (in first-seen order): the median ns/task over the rounds without and with the agent,
 * added = with − without, ratio = with / without, and each side's range.
 * @throws Error when an executor is missing from a round of either side
 */
export function agentCostRows(without: TaskCost[][], withAgent: TaskCost[][]): AgentCostRow[] {
  const names = [...new Set([...without, ...withAgent].flat().map((c) => c.executor))];
  return names.map((executor) => {
    const pick = (runs: TaskCost[][], side: string) =>
      runs.map((r, i) => {
        const c = r.find((x) => x.executor === executor);
        if (!c) throw new Error(`round ${i + 1} ${side} has no line for ${executor}`);
        return c.nsPerTask;
      });
    const a = pick(without, 'without the agent');
    const b = pick(withAgent, 'with the agent');
    const pa = percentiles(a);
    const pb = percentiles(b);
    if (!pa || !pb) throw new Error(`no rounds for ${executor}`);
    return {
      executor,
      rounds: Math.min(a.length, b.length),
      withoutNs: pa.p50,
      withNs: pb.p50,
      addedNs: pb.p50 - pa.p50,
      ratio: pb.p50 / pa.p50,
      withoutRange: [pa.min, pa.max],
      withRange: [pb.min, pb.max],
    };
  });
}

/**
 * Whether an executor's added cost is measured: the rounds with the agent all slower than every round
 * without it (the ranges do not overlap). On a shared host a difference inside the rounds' spread is
 * noise, not a cost.
 */
export function costIsMeasured(r: AgentCostRow): boolean {
  return r.withRange[0] > r.withoutRange[1];
}

/**
 * An estimate of what the agent adds to one request: `handOffs` tasks × the largest measured added cost
 * per task (ns), or null when no executor's cost is measured (every difference inside the noise).
 * Measured uncontended (TaskCostBench), so not a bound: under contention its bookkeeping can cost more
 * (docs/your-own-service.md, "How far to trust it"). Returns ns.
 */
export function agentCostPerRequestNs(rows: readonly AgentCostRow[], handOffs: number): number | null {
  const measured = rows.filter(costIsMeasured).map((r) => r.addedNs);
  if (measured.length === 0) return null;
  return handOffs * Math.max(...measured);
}

/**
 * Hand-offs the agent times per request, on average, in the cell where they are most: the web-server
 * task (one per matched request) plus every executor task the requests handed off, ÷ matched requests.
 * Null when no cell matched a request.
 */
export function handOffsPerRequest(cells: readonly { matched: number; byExecutor: Record<string, { tasks: number }> }[]): number | null {
  const per = cells.filter((c) => c.matched > 0).map((c) => (c.matched + Object.values(c.byExecutor).reduce((s, e) => s + e.tasks, 0)) / c.matched);
  return per.length === 0 ? null : Math.max(...per);
}
