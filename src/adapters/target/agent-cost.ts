/**
 * Runs the agent's TaskCostBench (sut/agent `dev.vtbench.agent.bench.TaskCostBench`: a warm-up of `tasks`
 * trivial tasks, then `tasks` timed, in batches of 1000, through a fixed ThreadPoolExecutor of 4 threads
 * and a virtual-thread-per-task executor) once without and once with `-javaagent:<jar>=port=0` per round,
 * the order alternating between rounds, and returns the medians (src/compute/target/agent-cost.ts).
 * About 2 s per JVM on a 2-core host.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { refuseJvmInTestTiers, type Jdk } from '../jvm/jdk.ts';
import type { AgentCost } from '../../types/target.ts';
import { agentCostRows, parseTaskCosts, type TaskCost } from '../../compute/target/agent-cost.ts';

export const TASK_COST_BENCH_CLASS = 'dev.vtbench.agent.bench.TaskCostBench';

/**
 * @param o.jar the built agent jar (sut/agent/target/vtbench-agent.jar), which holds the bench too
 * @param o.onRound called after each JVM with its lines (for progress)
 * @throws Error when a JVM fails, times out (10 min) or prints no bench line, or in a test tier that
 *   refuses JVMs; an AbortError when `signal` aborts
 */
export async function measureAgentCost(o: { jdk: Jdk; jar: string; rounds: number; tasks: number; signal?: AbortSignal; onRound?: (round: number, agent: boolean, costs: TaskCost[]) => void }): Promise<AgentCost> {
  refuseJvmInTestTiers('the agent\'s TaskCostBench');
  const java = join(o.jdk.home, 'bin', 'java');
  const run = async (agent: boolean): Promise<TaskCost[]> => {
    const args = [...(agent ? [`-javaagent:${o.jar}=port=0`] : []), '-cp', o.jar, TASK_COST_BENCH_CLASS, '--tasks', String(o.tasks)];
    const { stdout } = await promisify(execFile)(java, args, { maxBuffer: 1 << 20, timeout: 600_000, signal: o.signal });
    const costs = parseTaskCosts(stdout);
    if (costs.length === 0) throw new Error(`TaskCostBench printed no result (${agent ? 'with' : 'without'} the agent)`);
    return costs;
  };
  const without: TaskCost[][] = [];
  const withAgent: TaskCost[][] = [];
  for (let round = 1; round <= o.rounds; round++) {
    for (const agent of round % 2 === 1 ? [false, true] : [true, false]) {
      const r = await run(agent);
      (agent ? withAgent : without).push(r);
      o.onRound?.(round, agent, r);
    }
  }
  return { measuredAt: new Date().toISOString(), jdk: o.jdk.version, tasks: o.tasks, rounds: o.rounds, rows: agentCostRows(without, withAgent) };
}
