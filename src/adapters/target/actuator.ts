/**
 * The black-box tier's view inside a service (issue 32): when the service exposes Spring Boot's
 * actuator metrics (`GET /actuator/metrics/<name>`, Micrometer), sample the caps it names every
 * interval, as JmxSample with `source: 'actuator'`. Tomcat's metrics exist only with
 * `server.tomcat.mbeanregistry.enabled=true`, Hikari's only with a DataSource; a metric that is
 * absent reads null. Each sample costs the service about ten small requests.
 */
import { Agent, request } from 'undici';
import type { JmxSample } from '../../types/target.ts';

/** The Micrometer metrics read, by the JmxSample field they fill. */
export const ACTUATOR_METRICS = {
  tomcatBusy: 'tomcat.threads.busy',
  tomcatCurrent: 'tomcat.threads.current',
  tomcatMax: 'tomcat.threads.config.max',
  tomcatConns: 'tomcat.connections.current',
  tomcatMaxConns: 'tomcat.connections.config.max',
  hikariActive: 'hikaricp.connections.active',
  hikariIdle: 'hikaricp.connections.idle',
  hikariPending: 'hikaricp.connections.pending',
  hikariMax: 'hikaricp.connections.max',
  hikariTotal: 'hikaricp.connections',
  threads: 'jvm.threads.live',
  cpuLoad: 'process.cpu.usage',
  cpuTime: 'process.cpu.time',
  cpus: 'system.cpu.count',
  heap: 'jvm.memory.used?tag=area:heap',
} as const;

/** The VALUE (or COUNT/TOTAL) measurement of a metric's JSON, or null (pure). */
export function metricValue(body: unknown): number | null {
  const ms = (body as { measurements?: { statistic?: string; value?: number }[] } | null)?.measurements;
  if (!Array.isArray(ms)) return null;
  const m = ms.find((x) => x.statistic === 'VALUE') ?? ms.find((x) => x.statistic === 'TOTAL') ?? ms.find((x) => x.statistic === 'COUNT');
  return typeof m?.value === 'number' && Number.isFinite(m.value) && m.value >= 0 ? m.value : null;
}

/** The base unit of a metric's JSON (`seconds`, `nanoseconds`), or null. */
function baseUnit(body: unknown): string | null {
  const u = (body as { baseUnit?: string } | null)?.baseUnit;
  return typeof u === 'string' ? u : null;
}

export interface ActuatorSamplerHandle {
  samples: JmxSample[];
  /** false when the service has no /actuator/metrics: nothing is sampled */
  available: boolean;
  ended(): string | null;
  stop(): Promise<void>;
}

/** Starts sampling `<baseUrl>/actuator/metrics/*` every `intervalMs`; resolves once it knows whether the actuator answers. */
export async function startActuatorSampler(o: { baseUrl: string; intervalMs: number }): Promise<ActuatorSamplerHandle> {
  const dispatcher = new Agent({ connections: 16, headersTimeout: 5_000, bodyTimeout: 5_000 });
  const get = async (path: string): Promise<unknown> => {
    try {
      const r = await request(`${o.baseUrl}/actuator/metrics/${path}`, { dispatcher });
      if (r.statusCode !== 200) {
        await r.body.dump();
        return null;
      }
      return await r.body.json();
    } catch {
      return null;
    }
  };
  const samples: JmxSample[] = [];
  let available = false;
  try {
    const r = await request(`${o.baseUrl}/actuator/metrics`, { dispatcher });
    available = r.statusCode === 200;
    await r.body.dump();
  } catch {
    available = false;
  }
  let stopped = false;
  let cpus: number | null = null;
  let loop: Promise<void> = Promise.resolve();
  if (available) {
    loop = (async () => {
      while (!stopped) {
        const t = Date.now();
        // system.cpu.count is a constant: asked for until it answers, then not again (one request less per sample)
        const names = Object.entries(ACTUATOR_METRICS).filter(([k]) => k !== 'cpus' || cpus === null);
        const bodies = await Promise.all(names.map(([, n]) => get(n)));
        const v: Record<string, number | null> = {};
        names.forEach(([k], i) => (v[k] = metricValue(bodies[i])));
        cpus ??= v['cpus'] ?? null;
        const cpuUnit = baseUnit(bodies[names.findIndex(([k]) => k === 'cpuTime')]);
        const cpuNs = v['cpuTime'] === null || v['cpuTime'] === undefined ? null : cpuUnit === 'seconds' ? v['cpuTime'] * 1e9 : cpuUnit === 'milliseconds' ? v['cpuTime'] * 1e6 : v['cpuTime'];
        samples.push({
          tEpochMs: t,
          cpuNs,
          cpuLoad: v['cpuLoad'] ?? null,
          heapUsedBytes: v['heap'] ?? null,
          heapCommittedBytes: null,
          rssBytes: null,
          threads: v['threads'] ?? null,
          gcCount: null,
          gcTimeMs: null,
          vt: null,
          tomcat: v['tomcatBusy'] === null && v['tomcatMax'] === null ? [] : [{ name: 'tomcat', busy: v['tomcatBusy'] ?? null, threads: v['tomcatCurrent'] ?? null, max: v['tomcatMax'] ?? null, conns: v['tomcatConns'] ?? null, maxConns: v['tomcatMaxConns'] ?? null }],
          hikari: v['hikariActive'] === null && v['hikariMax'] === null ? [] : [{ pool: 'hikaricp', active: v['hikariActive'] ?? null, idle: v['hikariIdle'] ?? null, pending: v['hikariPending'] ?? null, total: v['hikariTotal'] ?? null, max: v['hikariMax'] ?? null }],
          cpus,
          source: 'actuator',
        });
        const wait = o.intervalMs - (Date.now() - t);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    })();
  }
  return {
    samples,
    available,
    ended: () => null,
    stop: async () => {
      stopped = true;
      await loop;
      await dispatcher.close();
    },
  };
}
