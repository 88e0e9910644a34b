/**
 * The black-box tier's actuator sampler (src/adapters/target/actuator.ts) against a real HTTP server
 * that answers as Spring Boot's `/actuator/metrics/{name}` does (measurements with a statistic, a base
 * unit): Tomcat, Hikari and CPU figures per sample, `process.cpu.time` in seconds read as ns,
 * `system.cpu.count` asked for until it answers and then not again; a service without the actuator
 * gives no samples.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startActuatorSampler } from '../../src/adapters/target/actuator.ts';

function serve(handler: (path: string) => unknown | null): Promise<{ server: Server; url: string; hits: Map<string, number> }> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const body = handler(path);
    res.writeHead(body === null ? 404 : 200, { 'content-type': 'application/json' });
    res.end(body === null ? '{}' : JSON.stringify(body));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits })));
}

const metric = (value: number, baseUnit?: string, statistic = 'VALUE') => ({ measurements: [{ statistic, value }], ...(baseUnit ? { baseUnit } : {}) });

test('the actuator sampler reads Tomcat, Hikari and CPU every interval; the CPU count once', async () => {
  let cpuS = 1.5;
  const { server, url, hits } = await serve((path) => {
    switch (path) {
      case '/actuator/metrics': return { names: [] };
      case '/actuator/metrics/tomcat.threads.busy': return metric(7);
      case '/actuator/metrics/tomcat.threads.config.max': return metric(200);
      case '/actuator/metrics/hikaricp.connections.active': return metric(3);
      case '/actuator/metrics/hikaricp.connections.max': return metric(10);
      case '/actuator/metrics/process.cpu.time': return metric((cpuS += 0.1), 'seconds', 'COUNT');
      case '/actuator/metrics/system.cpu.count': return metric(4);
      default: return null;
    }
  });
  try {
    const s = await startActuatorSampler({ baseUrl: url, intervalMs: 50 });
    assert.equal(s.available, true);
    await new Promise((r) => setTimeout(r, 400));
    await s.stop();
    assert.ok(s.samples.length >= 3, `${s.samples.length} samples`);
    const last = s.samples[s.samples.length - 1]!;
    assert.equal(last.source, 'actuator');
    assert.deepEqual(last.tomcat.map((t) => [t.busy, t.max]), [[7, 200]]);
    assert.deepEqual(last.hikari.map((h) => [h.active, h.max]), [[3, 10]]);
    assert.equal(last.cpus, 4);
    assert.ok(last.cpuNs !== null && last.cpuNs > 1.5e9 && Number.isInteger(Math.round(last.cpuNs)), String(last.cpuNs));
    assert.ok(s.samples.every((x) => x.cpus === 4), 'every sample carries the count read once');
    assert.equal(hits.get('/actuator/metrics/system.cpu.count'), 1, 'the constant asked for once');
    assert.ok((hits.get('/actuator/metrics/tomcat.threads.busy') ?? 0) >= 3);
  } finally {
    server.close();
  }
});

test('a service without the actuator: not available, no samples', async () => {
  const { server, url } = await serve(() => null);
  try {
    const s = await startActuatorSampler({ baseUrl: url, intervalMs: 50 });
    assert.equal(s.available, false);
    await new Promise((r) => setTimeout(r, 150));
    await s.stop();
    assert.equal(s.samples.length, 0);
  } finally {
    server.close();
  }
});
