/**
 * The vtbench Java agent in a target JVM (issue 32, tier `agent`; sut/agent/README.md): the JVM flag
 * that loads it and its side channel on 127.0.0.1 (`GET /records` drains the buffered records as JSON
 * lines, `GET /stats` gives its counters).
 */
import { request } from 'undici';
import type { AgentRecord } from '../../types/target.ts';

/** `-javaagent:<jar>=port=<port>,header=<header>` */
export function agentFlag(jar: string, port: number, header: string): string {
  return `-javaagent:${jar}=port=${port},header=${header}`;
}

/**
 * The records the agent buffered since the last call (it forgets them once sent).
 * @throws Error when the side channel does not answer 200
 */
export async function fetchAgentRecords(port: number, timeoutMs = 60_000): Promise<AgentRecord[]> {
  const r = await request(`http://127.0.0.1:${port}/records`, { headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  const text = await r.body.text();
  if (r.statusCode !== 200) throw new Error(`agent /records answered ${r.statusCode}`);
  const out: AgentRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const o = JSON.parse(line) as AgentRecord;
    out.push({ id: String(o.id), webWaitNs: o.webWaitNs ?? null, serviceNs: o.serviceNs ?? null, tasks: Array.isArray(o.tasks) ? o.tasks : [] });
  }
  return out;
}

/** The agent's counters (`GET /stats`), or null when it does not answer. */
export async function fetchAgentStats(port: number): Promise<Record<string, unknown> | null> {
  try {
    const r = await request(`http://127.0.0.1:${port}/stats`, { headersTimeout: 5_000, bodyTimeout: 5_000 });
    if (r.statusCode !== 200) return (await r.body.dump(), null);
    return (await r.body.json()) as Record<string, unknown>;
  } catch {
    return null;
  }
}
