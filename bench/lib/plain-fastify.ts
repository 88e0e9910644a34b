/**
 * The reference of `bench:mock`: the plainest fastify server that does the mock's work — a
 * `POST /v1/chat/completions` route that waits the same delay with an ordinary per-request timer
 * and answers the same bytes (read from --body-file, content-type `application/json;
 * charset=utf-8`), plus `GET /health`. No hooks, no logging, no validation: what a user would
 * write instead of the mock. Same fastify version and server timeouts as the mock.
 *
 * It measures its lateness the way the mock does (mock/src/server.ts: response 'finish' − arrival
 * − latency, hrtime), so bench:mock can set the mock's P99 beside what the plainest route reaches
 * on the same host in the same run: one hrtime read when the handler starts (after fastify parsed
 * the body — a little later than the mock's stamp in its onRequest hook, so if anything this
 * favours the reference), one at 'finish', one number kept per answer. `GET /lateness` returns the
 * samples (ms) since the last `POST /lateness/reset`.
 *
 *   node --import tsx bench/lib/plain-fastify.ts --latency-ms 1000 --body-file /tmp/body.json
 *
 * Prints `plain-fastify listening on http://127.0.0.1:<port>` when ready; stops on SIGTERM, and
 * by itself within a second of its parent's exit (the bench's mock children get --parent-pid).
 */
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { watchProcess } from '../../src/adapters/process/parent-watch.ts';

const { values } = parseArgs({
  options: { 'latency-ms': { type: 'string' }, 'body-file': { type: 'string' }, port: { type: 'string', default: '0' } },
  strict: true,
});
const latencyMs = Number(values['latency-ms']);
if (!Number.isFinite(latencyMs) || latencyMs < 0 || values['body-file'] === undefined) {
  process.stderr.write('plain-fastify: give --latency-ms <ms> >= 0 and --body-file <path>\n');
  process.exit(2);
}
const body = readFileSync(values['body-file'], 'utf8');
/** lateness of each answer since the last reset, ms */
let lateness: number[] = [];

// the mock's server settings (mock/src/server.ts createMockServer), logging off as in benchmarks
const app = Fastify({ logger: false, keepAliveTimeout: 650_000, requestTimeout: 0, connectionTimeout: 0, maxRequestsPerSocket: 0, forceCloseConnections: true });
app.get('/health', async () => ({ status: 'ok' }));
app.get('/lateness', async () => lateness);
app.post('/lateness/reset', async () => {
  lateness = [];
  return { ok: true };
});
/** The raw response with its arrival stamp (as the mock keeps it: mock/src/server.ts ChatResponse). */
type StampedResponse = ServerResponse & { vtArrivalNs: bigint };
/** One listener shared by every response (no closure per request, as in the mock). */
function onFinish(this: StampedResponse): void {
  lateness.push(Number(process.hrtime.bigint() - this.vtArrivalNs) / 1e6 - latencyMs);
}
app.post('/v1/chat/completions', async (_req, reply) => {
  const res = reply.raw as StampedResponse;
  res.vtArrivalNs = process.hrtime.bigint();
  res.on('finish', onFinish);
  await sleep(latencyMs);
  reply.type('application/json; charset=utf-8');
  return body;
});
await app.listen({ port: Number(values.port), host: '127.0.0.1', backlog: 65535 });
const addr = app.server.address();
process.stdout.write(`plain-fastify listening on http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0} pid=${process.pid}\n`);
// the bench that started it is gone (killed before it could stop this child): stop too, as the mock does with --parent-pid
watchProcess(process.ppid, () => process.exit(0));
process.once('SIGTERM', () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
