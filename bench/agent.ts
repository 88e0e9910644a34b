/**
 * bench:agent — what the vtbench -javaagent (sut/agent) adds to each task handed to an executor.
 *
 *   npm run bench:agent [-- --json] [--rounds 3] [--tasks 200000] [--jar sut/agent/target/vtbench-agent.jar]
 *
 * Builds nothing: the jar comes from `JAVA_HOME=<jdk 25> mvn -B -q -f sut/agent/pom.xml package`. Runs the
 * jar's `dev.vtbench.agent.bench.TaskCostBench` (a warm-up of --tasks trivial tasks, then --tasks timed, in
 * batches of 1000, through a fixed ThreadPoolExecutor of 4 threads and a virtual-thread-per-task executor;
 * one JSON line {"executor","tasks","nsPerTask"} each) once without and once with
 * `-javaagent:<jar>=port=0` per round, the order alternating between rounds, with the JDK that
 * src/adapters/jvm/jdk.ts finds (JAVA_HOME, then /usr/lib/jvm; 25 or newer). Prints per executor the
 * median ns/task of the rounds without and with the agent, the difference (added ns/task) and the ratio
 * (with / without). Median: src/compute/stats/percentiles.ts (p50, type 7). On a shared host the
 * rounds' spread is printed too: a difference inside it is not a measured cost.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { findJdk, refuseJvmInTestTiers } from '../src/adapters/jvm/jdk.ts';
import { measureAgentCost } from '../src/adapters/target/agent-cost.ts';
import type { AgentCostRow } from '../src/types/target.ts';
import { table } from './lib/table.ts';
import { failWith, positiveIntOf } from './lib/args.ts';

const fail: (message: string) => never = (message) => failWith('agent', message);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The table printed by the bench (a string; the caller prints). */
export function formatAgentCost(rows: AgentCostRow[]): string {
  const range = (r: [number, number]) => `${r[0].toFixed(0)}–${r[1].toFixed(0)}`;
  return table(
    ['executor', 'ns/task without (median)', 'with agent (median)', 'added ns/task', 'ratio', 'without: range', 'with: range'],
    rows.map((r) => [r.executor, r.withoutNs, r.withNs, r.addedNs, Number(r.ratio.toFixed(2)), range(r.withoutRange), range(r.withRange)]),
  );
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        json: { type: 'boolean', default: false },
        rounds: { type: 'string', default: '3' },
        tasks: { type: 'string', default: '200000' },
        jar: { type: 'string', default: join(ROOT, 'sut', 'agent', 'target', 'vtbench-agent.jar') },
      },
      strict: true,
    });
  } catch (err) {
    fail(`${(err as Error).message} (options: --json, --rounds R, --tasks N, --jar PATH)`);
  }
  const json = parsed.values.json === true;
  const rounds = positiveIntOf('agent', 'rounds', parsed.values.rounds ?? '3');
  const tasks = positiveIntOf('agent', 'tasks', parsed.values.tasks ?? '200000');
  const jar = parsed.values.jar ?? '';
  if (!existsSync(jar)) fail(`${jar} does not exist: build it with \`JAVA_HOME=<a JDK 25> mvn -B -q -f sut/agent/pom.xml package\``);
  refuseJvmInTestTiers('bench:agent (starts JVMs)');
  const jdk = findJdk(25);
  const log = (s: string) => { if (!json) process.stderr.write(`${s}\n`); };
  log(`JDK ${jdk.version} (${jdk.home}); ${rounds} rounds x 2 runs of ${tasks} tasks per executor`);

  const cost = await measureAgentCost({
    jdk, jar, rounds, tasks,
    onRound: (round, agent, r) => log(`round ${round} ${agent ? 'with   ' : 'without'}: ${r.map((c) => `${c.executor} ${c.nsPerTask} ns/task`).join(', ')}`),
  });
  const rows = cost.rows;
  if (json) process.stdout.write(`${JSON.stringify({ jdk: jdk.version, tasks, rounds, rows }, null, 2)}\n`);
  else process.stdout.write(`${formatAgentCost(rows)}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
}
