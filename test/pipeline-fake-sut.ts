/**
 * A stand-in for the SUT JVM in pipeline tests: its own process (so a test can kill it), the same
 * HTTP API shapes (src/jvm/api.ts), and an executor that is either a platform pool of `--threads`
 * permits with a FIFO queue (`--kind platform-pool`) or unbounded (`--kind virtual-per-task`). Each benchmark request takes a permit, then calls the
 * real mock's /v1/chat/completions, and answers with `Server-Timing: queue;dur=…, exec;dur=…`.
 * Prints `listening <port>` on stdout once it listens on `--host` (default 127.0.0.1; port 0 = any free port).
 *
 *   node --import tsx test/pipeline-fake-sut.ts --variant v --kind platform-pool --threads 3 --prefix p- --mock http://127.0.0.1:P/v1
 *
 * `--queue n` is the queue capacity /bench/info reports (default 10000); `--scenarios a,b` the scenario
 * ids it reports (default `llm,sleep`).
 *
 * `--parent-pid <pid>`: exit when that process does (as the real SUT's `bench.parent-pid`).
 *
 * `--status 503` answers every benchmark request at once with that status instead (a SUT that is
 * alive and answers its health probe, yet serves nothing).
 *
 * `--info-delay-ms n` answers `GET /bench/info` n ms late, printing `info-delayed` on stdout when such
 * a request arrives (a test can stop the run while a health probe is in flight); `--malformed /bench/x` answers that GET path with valid JSON of the wrong shape (`{}`).
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import type { SutInfo, PinnedResponse, SamplesResponse } from '../src/jvm/api.ts';
import { watchProcess } from '../src/pipeline/parent-watch.ts';

const { values } = parseArgs({ options: { variant: { type: 'string' }, kind: { type: 'string' }, threads: { type: 'string' }, prefix: { type: 'string' }, mock: { type: 'string' }, port: { type: 'string', default: '0' }, status: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' }, queue: { type: 'string' }, scenarios: { type: 'string' }, 'parent-pid': { type: 'string' }, 'info-delay-ms': { type: 'string' }, malformed: { type: 'string' } } });
const kind = values.kind === 'virtual-per-task' ? 'virtual-per-task' : 'platform-pool';
const variant = String(values.variant ?? kind);
const pool = Number(values.threads ?? 8);
const mockV1 = String(values.mock);

let active = 0;
const waiting: (() => void)[] = [];
async function acquire(): Promise<void> {
  if (kind === 'virtual-per-task' || active < pool) {
    active++;
    return;
  }
  await new Promise<void>((r) => waiting.push(r));
}
function release(): void {
  const next = waiting.shift();
  if (next) next(); // the permit passes on
  else active--;
}

const info: SutInfo = {
  jdkVendor: 'fake', jdkVersion: '25', springBootVersion: 'fake', springAiVersion: 'fake', jvmFlags: [], availableProcessors: 2,
  executor: { variant, kind, threads: kind === 'platform-pool' ? pool : null, queueCapacity: kind === 'platform-pool' ? Number(values.queue ?? 10_000) : null, threadNamePrefix: String(values.prefix ?? ''), pinning: 'none' },
  scenarios: String(values.scenarios ?? 'llm,sleep').split(',').filter((x) => x !== ''), vtSchedulerParallelism: null,
  tomcat: { maxThreads: 200, maxConnections: 8192, maxKeepAliveRequests: -1, keepAliveTimeoutMs: 600_000, asyncRequestTimeoutMs: 600_000 },
  okhttp: { maxIdleConnections: 1000, keepAliveDurationMs: 300_000, dispatcherMaxRequests: null }, mockBaseUrl: mockV1,
  samplerIntervalMs: 250, pinnedThresholdMs: 20,
};
const pinned: PinnedResponse = { thresholdMs: 20, total: 0, byReason: {}, submitFailedTotal: 0, flushed: true, flushWaitMs: 0 };
const samples: SamplesResponse = { intervalMs: 250, samples: [] };
const json = (body: unknown) => JSON.stringify(body);

const server = createServer((req, res) => {
  const url = req.url ?? '';
  if (req.method === 'GET') {
    const body = url.startsWith('/bench/info') ? json(info)
      : url.startsWith('/bench/pinned') ? json(pinned)
      : url.startsWith('/bench/samples') ? json(samples)
      : url.startsWith('/bench/threaddump') ? json({ threadDump: { threadContainers: [] } })
      : null;
    const malformed = values.malformed !== undefined && url.startsWith(values.malformed);
    const answer = () => res.writeHead(body === null ? 404 : 200, { 'content-type': 'application/json' }).end(malformed ? '{}' : body ?? '{}');
    if (url.startsWith('/bench/info') && values['info-delay-ms'] !== undefined) {
      process.stdout.write('info-delayed\n');
      setTimeout(answer, Number(values['info-delay-ms']));
    }
    else answer();
    return;
  }
  req.resume();
  if (values.status !== undefined) {
    req.on('end', () => res.writeHead(Number(values.status), { 'content-type': 'application/json' }).end(json({ error: 'rejected', message: 'fake' })));
    return;
  }
  req.on('end', async () => {
    const submitted = performance.now();
    await acquire();
    const started = performance.now();
    try {
      const up = await fetch(`${mockV1}/chat/completions`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: json({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      });
      const answer = (await up.json()) as { choices?: { message?: { content?: string } }[] };
      const ended = performance.now();
      res.writeHead(up.ok ? 200 : 502, { 'content-type': 'application/json', 'server-timing': `queue;dur=${(started - submitted).toFixed(3)}, exec;dur=${(ended - started).toFixed(3)}` });
      res.end(json({ content: answer.choices?.[0]?.message?.content ?? '', variant, queueMs: started - submitted, execMs: ended - started }));
    } catch (e) {
      res.writeHead(502, { 'content-type': 'application/json' }).end(json({ error: 'upstream_unreachable', message: (e as Error).message }));
    } finally {
      release();
    }
  });
});
server.keepAliveTimeout = 600_000;
server.listen(Number(values.port), String(values.host), () => {
  const addr = server.address();
  process.stdout.write(`listening ${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
process.on('SIGTERM', () => process.exit(0));
if (values['parent-pid'] !== undefined) watchProcess(Number(values['parent-pid']), () => process.exit(0));
