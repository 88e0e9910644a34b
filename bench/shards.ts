/**
 * bench:shards — does splitting the load over K = 2 generator processes (`--shards 2`,
 * src/load/shards.ts) raise the most req/s the generator sustains on this host, against one process?
 *
 *   npm run bench:shards [-- --json] [--concurrency 50] [--duration-s 8] [--rounds 3]
 *
 * Both sides run through the same sharded path (K = 1 is one shard process, K = 2 two), against
 * the same zero-latency mock in a child process, for --duration-s each (count-based load with a huge
 * n, stopped by an abort; completed requests stay records), after a 3 s unrecorded warm-up. Rounds
 * alternate which K goes first. ratioK2vsK1 = median over rounds of (K = 2 completed req/s) /
 * (K = 1 completed req/s), each req/s = successes / (last answer − first send) of the merged raw
 * records. On a 2-core host the mock and the shards share the cores: a ratio near or below 1 says
 * the host, not one generator process, is the limit here; the per-shard CPU is printed beside it.
 */
import { parseArgs } from 'node:util';
import { runClosedLoopSharded } from '../src/load/shards.ts';
import type { LoadOptions } from '../src/types/load.ts';
import { startMockChild } from './lib/mock-child.ts';
import { table } from './lib/table.ts';
import { failWith, positiveIntOf } from './lib/args.ts';

const fail: (message: string) => never = (message) => failWith('shards', message);
const positiveInt = (flag: string, raw: string): number => positiveIntOf('shards', flag, raw);

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ options: { json: { type: 'boolean', default: false }, concurrency: { type: 'string', default: '50' }, 'duration-s': { type: 'string', default: '8' }, rounds: { type: 'string', default: '3' } }, strict: true });
  } catch (err) {
    fail(`${(err as Error).message} (options: --json, --concurrency N, --duration-s S, --rounds R)`);
  }
  const json = parsed.values.json === true;
  const c = positiveInt('concurrency', parsed.values.concurrency ?? '50');
  const durationS = positiveInt('duration-s', parsed.values['duration-s'] ?? '8');
  const roundsN = positiveInt('rounds', parsed.values.rounds ?? '3');
  if (c < 2) fail('--concurrency must be at least 2 (two shards need a worker each)');
  const log = (s: string) => { if (!json) process.stderr.write(`${s}\n`); };
  const mock = await startMockChild(['--latency-ms', '0']);
  try {
    const base: Omit<LoadOptions, 'requestsPerWorker'> = {
      url: mock.url, path: '/v1/chat/completions', method: 'POST',
      body: JSON.stringify({ model: 'vtbench-mock', messages: [{ role: 'user', content: 'Say hello' }] }),
      headers: { 'content-type': 'application/json', authorization: 'Bearer dummy' },
      concurrency: c, start: 'together', rampMs: 0, connectTimeoutMs: 10_000, headersTimeoutMs: 10_000, bodyTimeoutMs: 10_000,
    };
    const once = async (k: number, seconds: number) => {
      const r = await runClosedLoopSharded({ ...base, requestsPerWorker: 1e7, signal: AbortSignal.timeout(seconds * 1000 + 2000) }, k);
      let first = Infinity;
      let last = -Infinity;
      for (const x of r.records) {
        if (x.startMs < first) first = x.startMs;
        if (x.endMs > last) last = x.endMs;
      }
      const spanS = (last - first) / 1000;
      return { k, ok: r.summary.ok, errors: r.summary.count - r.summary.ok, durationS: spanS, throughputRps: spanS > 0 ? r.summary.ok / spanS : null, e2eP50Ms: r.summary.e2eMs?.p50 ?? null, shardRps: r.shards.map((s) => s.sendRatePerS) };
    };
    log(`mock at ${mock.url} (latency 0, pid ${mock.pid}); unrecorded warm-up 3 s ...`);
    await once(1, 1);
    const rounds: { round: number; k1: Awaited<ReturnType<typeof once>>; k2: Awaited<ReturnType<typeof once>>; ratio: number | null }[] = [];
    for (let round = 1; round <= roundsN; round++) {
      const k1First = round % 2 === 1;
      log(`round ${round}/${roundsN} (${k1First ? 'K=1 first' : 'K=2 first'})`);
      const a = await once(k1First ? 1 : 2, durationS);
      const b = await once(k1First ? 2 : 1, durationS);
      const k1 = a.k === 1 ? a : b;
      const k2 = a.k === 2 ? a : b;
      rounds.push({ round, k1, k2, ratio: k1.throughputRps && k2.throughputRps ? k2.throughputRps / k1.throughputRps : null });
    }
    const ratios = rounds.map((r) => r.ratio).filter((x): x is number => x !== null).sort((a, b) => a - b);
    const median = ratios.length === 0 ? null : ratios.length % 2 === 1 ? ratios[(ratios.length - 1) / 2]! : (ratios[ratios.length / 2 - 1]! + ratios[ratios.length / 2]!) / 2;
    const result = {
      bench: 'shards', concurrency: c, durationS, mockLatencyMs: 0, cores: (await import('node:os')).cpus().length, rounds,
      ratioK2vsK1: median, ratioMin: ratios[0] ?? null, ratioMax: ratios[ratios.length - 1] ?? null,
      ratioDefinition: `median over ${roundsN} rounds of (K = 2 completed req/s) / (K = 1 completed req/s), merged raw records`,
    };
    if (json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      const rows = rounds.flatMap((r) => [r.k1, r.k2].map((s) => [r.round, s.k, s.throughputRps, s.ok, s.errors, s.durationS, s.e2eP50Ms, s.shardRps.map((x) => (x === null ? '—' : x.toFixed(0))).join(' / '), s.k === 2 ? r.ratio : null]));
      process.stdout.write(`${table(['round', 'K', 'throughputRps', 'ok', 'errors', 'durationS', 'e2eP50Ms', 'per-shard send rate', 'ratio K2/K1'], rows)}\n`);
      process.stdout.write(`\nratioK2vsK1 = ${median?.toFixed(3) ?? '—'} (median of ${roundsN}; range ${result.ratioMin?.toFixed(3)}..${result.ratioMax?.toFixed(3)}) on ${result.cores} cores, c = ${c}, ${durationS} s each, mock latency 0 in a child process\n`);
    }
  } finally {
    await mock.stop();
  }
}

await main();
