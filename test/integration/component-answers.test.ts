/**
 * Answers read from components are validated (src/adapters/store/answers.ts): a SUT, a mock, a shard or PostgreSQL that
 * answers valid JSON of the wrong shape stops the run with exit 6 naming the component's URL, the
 * endpoint and what was wrong — never `Cannot read properties of undefined` (exit 1), and never a
 * figure silently computed from it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type Io } from '../../src/cli/main.ts';
import { realDeps } from '../../src/cli/deps.ts';
import { answerProblems, checkAnswer, MalformedAnswerError } from '../../src/adapters/store/answers.ts';
import { getPinned, getSamples, getInfo } from '../../src/adapters/jvm/client.ts';
import { getMockStats } from '../../src/adapters/process/mock-process.ts';
import { startMockProcess } from '../../src/adapters/process/mock-process.ts';
import { seedOrders, describe } from '../../src/adapters/db/postgres.ts';
import { freePort } from '../fixtures/ports.ts';
import { startFakeSutByHand } from '../fixtures/fake-sut.ts';

// a mock started by hand (as external components are) gets the run's control token in its environment, and the
// harness takes the same from its own (src/adapters/process/control-token.ts)
const TOKEN = 'external-test-token';
process.env['VTBENCH_CONTROL_TOKEN'] = TOKEN;

function capture(): { io: Io; text: () => string } {
  let buf = '';
  const sink = { write: (s: string) => { buf += s; return true; } } as unknown as NodeJS.WriteStream;
  return { io: { stdout: sink, stderr: sink }, text: () => buf };
}

/** A server answering every request 200 with `{}`. */
async function answersEmptyObject(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => { req.resume(); res.writeHead(200, { 'content-type': 'application/json' }).end('{}'); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

const args = (tmp: string, sutUrl: string, mockUrl: string) => ['--study', '000', '--profile', 'smoke', '--variants', 'fixed', '--levels', '2', '--requests-per-worker', '2', '--warmup-s', '0',
  '--sut-url', sutUrl, '--mock-url', mockUrl, '--runs-dir', join(tmp, 'runs'), '--report-dir', join(tmp, 'report')];

test('--sut-url answering {} at /bench/info: exit 6 naming the URL, the endpoint and the missing fields', { timeout: 60_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-answers-'));
  const mock = await startMockProcess({ port: await freePort(), latencyMs: 200, logFile: '/dev/null', controlToken: TOKEN });
  const { server, url } = await answersEmptyObject();
  try {
    const c = capture();
    const code = await main(args(tmp, url, mock.url), c.io, realDeps());
    assert.equal(code, 6, c.text());
    assert.match(c.text(), new RegExp(`the SUT at ${url} answered GET /bench/info with JSON of the wrong shape: / must have required property`));
    assert.doesNotMatch(c.text(), /Cannot read properties/);
  } finally {
    server.close();
    await mock.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('--mock-url answering {} at /stats: exit 6 naming the URL, the endpoint and what was wrong', { timeout: 60_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-answers-'));
  const mock = await startMockProcess({ port: await freePort(), latencyMs: 200, logFile: '/dev/null', controlToken: TOKEN });
  const sut = await startFakeSutByHand(['--variant', 'fixed', '--kind', 'platform-pool', '--threads', '8', '--prefix', 'llm-fixed-', '--mock', `${mock.url}/v1`]);
  const { server, url } = await answersEmptyObject();
  try {
    const c = capture();
    // the SUT calls the real mock; --mock-url names a server answering {} (the SUT's mock check comes after the mock's shape)
    const code = await main(args(tmp, sut.url, url), c.io, realDeps());
    assert.equal(code, 6, c.text());
    assert.match(c.text(), new RegExp(`the mock LLM at ${url} answered GET /stats with JSON of the wrong shape: / must have required property`));
    assert.doesNotMatch(c.text(), /Cannot read properties/);
  } finally {
    sut.child.kill('SIGTERM');
    server.close();
    await mock.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a SUT answering {} at /bench/pinned or /bench/samples mid-run: exit 6 naming the endpoint, no cell computed from it', { timeout: 120_000 }, async () => {
  for (const path of ['/bench/pinned', '/bench/samples']) {
    const tmp = mkdtempSync(join(tmpdir(), 'vtbench-answers-'));
    const mock = await startMockProcess({ port: await freePort(), latencyMs: 200, logFile: '/dev/null', controlToken: TOKEN });
    const sut = await startFakeSutByHand(['--variant', 'fixed', '--kind', 'platform-pool', '--threads', '8', '--prefix', 'llm-fixed-', '--mock', `${mock.url}/v1`, '--malformed', path]);
    try {
      const c = capture();
      const code = await main(args(tmp, sut.url, mock.url), c.io, realDeps());
      assert.equal(code, 6, `${path}: ${c.text()}`);
      assert.match(c.text(), new RegExp(`the SUT at ${sut.url} answered GET ${path} with JSON of the wrong shape`), path);
    } finally {
      sut.child.kill('SIGTERM');
      await mock.stop();
      rmSync(tmp, { recursive: true, force: true });
    }
  }
});

test('every reader of a component answer validates it: the SUT client, the mock statistics, a shard file', async () => {
  const { server, url } = await answersEmptyObject();
  try {
    for (const [what, call] of [['GET /bench/info', () => getInfo(url)], ['GET /bench/pinned', () => getPinned(url)], ['GET /bench/samples', () => getSamples(url, 0)], ['GET /stats', () => getMockStats(url)]] as const) {
      await assert.rejects(call(), (e: unknown) => e instanceof MalformedAnswerError && e.exitCode === 6 && e.message.includes(url) && e.message.includes(what), what);
    }
  } finally {
    server.close();
  }
  assert.deepEqual(answerProblems('PinnedResponse', { thresholdMs: 20, total: 0, byReason: {}, submitFailedTotal: 0 }), []);
  assert.throws(() => checkAnswer('ShardFile', { format: 'vtbench-shard/1', shard: 0, shards: 2, workerOffset: 0, result: { records: 'x' } }, { component: 'load shard 0 of 2', url: '/tmp/shard-0.json', endpoint: 'its shard file' }),
    /the load shard 0 of 2 at \/tmp\/shard-0\.json answered its shard file with JSON of the wrong shape: \/result must have required property 't0EpochMs'/);
  assert.throws(() => checkAnswer('SutInfo', 'not json', { component: 'SUT', url: 'http://x', endpoint: 'GET /bench/info' }), /answered GET \/bench\/info with not JSON/);
});

test('PostgreSQL answers are checked too: a row count or a version that is not one is MalformedAnswerError (exit 6) naming the server and the query', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-fake-psql-'));
  try {
    // a psql that answers every query with a line that is neither a count nor a version
    writeFileSync(join(dir, 'psql'), '#!/bin/sh\necho "HTTP/1.1 200 OK"\n');
    chmodSync(join(dir, 'psql'), 0o755);
    const bin = { dir, version: '15' };
    const t = { host: '127.0.0.1', port: 5432, database: 'bench', user: 'u', password: '' };
    await assert.rejects(seedOrders(bin, t), (e: unknown) => e instanceof MalformedAnswerError && e.exitCode === 6
      && /the PostgreSQL at jdbc:postgresql:\/\/127\.0\.0\.1:5432\/bench answered the orders check \(SELECT count\(\*\) …\) wrongly: 'HTTP\/1\.1 200 OK' is not a row count/.test(e.message));
    await assert.rejects(describe(bin, t), (e: unknown) => e instanceof MalformedAnswerError && /answered SHOW server_version wrongly: .*is not a version/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
