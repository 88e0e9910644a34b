/**
 * `npm run bench:mock [-- --json] [--n 10000] [--latency-ms 1500]`
 *
 * Starts the mock LLM in a child process (as in production), opens N persistent connections to it
 * (one undici Client each), warms the chat path up, then sends N delayed chat requests at once so
 * all N are held together, and reports:
 *   - lateness (mock-measured: response written − arrival − latency) P50/P99/max, from /stats
 *   - client E2E − latency P50/P99/max (undici, this process)
 *   - mock RSS (peak VmRSS sampled every 100 ms, and VmHWM) from /proc/<pid>/status
 *   - whether P99 lateness <= 5 ms (the target)
 *   - CPU used by the mock and by this client in the held round, and the host's load average, so a
 *     busy host (load above the core count) is flagged rather than blamed on the mock
 * The N requests are spread over --ramp-ms (default 1000 < latency, so all N are held at once;
 * peak in flight proves it); --ramp-ms 0 sends them all at once.
 * Diagnostics: BENCH_NODE_ARGS="--trace-gc" adds node flags to the mock child; BENCH_CHILD_STDOUT=1
 * copies its stdout to stderr.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { quantileSorted } from 'simple-statistics';
import { Client } from 'undici';
import type { MockStats } from '../mock/src/types.ts';

const TARGET_P99_LATENESS_MS = 5;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Options {
  n: number;
  latencyMs: number;
  warmup: number;
  /** the N requests are sent spread evenly over this many ms (0 = all at once); < latency, so all N are held together */
  rampMs: number;
  json: boolean;
}

export interface MockBenchResult {
  schemaVersion: 1;
  concurrency: number;
  latencyMs: number;
  rampMs: number;
  ok: number;
  failed: number;
  emptyBodies: number;
  peakInFlight: number;
  connectionsOpened: number;
  latenessMs: { n: number; p50: number; p99: number; max: number } | null;
  clientOverheadMs: { n: number; p50: number; p99: number; max: number } | null;
  mockRssPeakBytes: number | null;
  mockRssHwmBytes: number | null;
  heldWallMs: number;
  /** CPU (user + system) the mock used during the held round, ms; its budget is the wall time × 1 core */
  mockCpuMs: number | null;
  /** CPU this (client) process used during the held round, ms */
  clientCpuMs: number;
  cores: number;
  /** 1-minute load average before and after the held round: above `cores`, other processes competed for the CPU */
  loadAvg1Before: number | null;
  loadAvg1After: number | null;
  targetP99LatenessMs: number;
  targetMet: boolean;
  percentileDefinition: string;
}

class BenchError extends Error {}

function parseOptions(argv: string[]): Options {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        n: { type: 'string', default: '10000' },
        'latency-ms': { type: 'string', default: '1500' },
        warmup: { type: 'string', default: '2000' },
        'ramp-ms': { type: 'string', default: '1000' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (err) {
    throw new BenchError(`${(err as Error).message.split('\n')[0]} (fix: options are --n <count> --latency-ms <ms> --ramp-ms <ms> --warmup <count> --json)`);
  }
  const int = (flag: string, raw: string, min: number) => {
    const v = Number(raw);
    if (!Number.isInteger(v) || v < min) throw new BenchError(`--${flag} ${JSON.stringify(raw)} is invalid (fix: give an integer >= ${min})`);
    return v;
  };
  const o: Options = {
    n: int('n', values.n, 1),
    latencyMs: int('latency-ms', values['latency-ms'], 0),
    warmup: int('warmup', values.warmup, 0),
    rampMs: int('ramp-ms', values['ramp-ms'], 0),
    json: values.json,
  };
  if (o.rampMs >= o.latencyMs && o.rampMs > 0) {
    throw new BenchError(`--ramp-ms ${o.rampMs} is not below --latency-ms ${o.latencyMs} (fix: a ramp shorter than the latency, so all --n requests are held at once)`);
  }
  return o;
}

function fdLimit(): number {
  const out = execFileSync('/bin/sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
  return out === 'unlimited' ? Number.POSITIVE_INFINITY : Number(out);
}

/** VmRSS / VmHWM of a process in bytes, or null when /proc is not readable. */
function procMemory(pid: number): { rss: number; hwm: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** user + system CPU time of a process, ms (from /proc/<pid>/stat, clock ticks of 10 ms), or null. */
function procCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14, 15)
  } catch {
    return null;
  }
}

/** 1-minute load average, or null. */
function loadAvg1(): number | null {
  try {
    return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    return null;
  }
}

async function startMockChild(latencyMs: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : []), '--import', 'tsx', 'mock/src/cli.ts', '--port', '0', '--latency-ms', String(latencyMs)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new BenchError('the mock did not print its start line within 20 s')), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (process.env.BENCH_CHILD_STDOUT) process.stderr.write(d);
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new BenchError(`the mock exited with code ${code} before listening`));
    });
  });
  return { child, url };
}

const CHAT_BODY = JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'Hello from bench:mock' }] });

async function chat(client: Client): Promise<{ status: number; bodyBytes: number }> {
  const res = await client.request({
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json' },
    body: CHAT_BODY,
  });
  const text = await res.body.text();
  return { status: res.statusCode, bodyBytes: text.length };
}

function summary(values: number[]) {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  return { n: s.length, p50: quantileSorted(s, 0.5), p99: quantileSorted(s, 0.99), max: s[s.length - 1] ?? 0 };
}

export async function runMockBench(o: Options, progress: (line: string) => void): Promise<MockBenchResult> {
  const limit = fdLimit();
  const need = o.n + 256;
  if (limit < need) {
    throw new BenchError(`the open-files limit is ${limit}, below the ${need} needed for --n ${o.n} (fix: raise it with \`ulimit -n ${need}\` in this shell, or lower --n)`);
  }
  const { child, url } = await startMockChild(o.latencyMs);
  const pid = child.pid!;
  const clients: Client[] = [];
  try {
    const timeouts = { connectTimeout: 60_000, headersTimeout: o.latencyMs + 120_000, bodyTimeout: o.latencyMs + 120_000, keepAliveTimeout: 600_000, pipelining: 1 };
    for (let i = 0; i < o.n; i++) clients.push(new Client(url, timeouts));

    progress(`opening ${o.n} connections to ${url} (mock pid ${pid}) ...`);
    for (let i = 0; i < o.n; i += 1000) {
      await Promise.all(clients.slice(i, i + 1000).map(async (c) => (await c.request({ method: 'GET', path: '/health' })).body.text()));
    }
    if (o.warmup > 0) {
      progress(`warm-up: ${Math.min(o.warmup, o.n)} chat requests ...`);
      await Promise.all(clients.slice(0, Math.min(o.warmup, o.n)).map((c) => chat(c)));
    }
    await (await clients[0]!.request({ method: 'POST', path: '/stats/reset' })).body.text();

    progress(`holding ${o.n} chat requests of ${o.latencyMs} ms ...`);
    let rssPeak = 0;
    const sampler = setInterval(() => {
      const m = procMemory(pid);
      if (m && m.rss > rssPeak) rssPeak = m.rss;
    }, 100);
    const overheads: number[] = [];
    let ok = 0;
    let failed = 0;
    let empty = 0;
    const loadBefore = loadAvg1();
    const cpuBefore = procCpuMs(pid);
    const clientCpuBefore = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const at = (i: number) => (o.n > 1 ? (o.rampMs * i) / (o.n - 1) : 0);
    await Promise.all(
      clients.map(async (c, i) => {
        // ramp: wait for this request's offset (a timer per request; the client measures from its actual send)
        const offset = at(i);
        if (offset > 0) await new Promise((r) => setTimeout(r, offset - Number(process.hrtime.bigint() - t0) / 1e6));
        const start = process.hrtime.bigint();
        try {
          const r = await chat(c);
          const e2eMs = Number(process.hrtime.bigint() - start) / 1e6;
          if (r.status === 200) ok++;
          else failed++;
          if (r.bodyBytes === 0) empty++;
          overheads.push(e2eMs - o.latencyMs);
        } catch {
          failed++;
        }
      }),
    );
    const heldWallMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const cpuAfter = procCpuMs(pid);
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const loadAfter = loadAvg1();
    clearInterval(sampler);
    const mem = procMemory(pid);
    if (mem && mem.rss > rssPeak) rssPeak = mem.rss;

    const statsRes = await clients[0]!.request({ method: 'GET', path: '/stats' });
    const stats = (await statsRes.body.json()) as MockStats;
    const lateness = stats.latenessMs ? { n: stats.latenessMs.n, p50: stats.latenessMs.p50, p99: stats.latenessMs.p99, max: stats.latenessMs.max } : null;
    return {
      schemaVersion: 1,
      concurrency: o.n,
      latencyMs: o.latencyMs,
      rampMs: o.rampMs,
      ok,
      failed,
      emptyBodies: empty,
      peakInFlight: stats.peakInFlight,
      connectionsOpened: stats.connectionsOpened,
      latenessMs: lateness,
      clientOverheadMs: summary(overheads),
      mockRssPeakBytes: rssPeak > 0 ? rssPeak : null,
      mockRssHwmBytes: mem ? mem.hwm : null,
      heldWallMs,
      mockCpuMs: cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null,
      clientCpuMs: (clientCpu.user + clientCpu.system) / 1000,
      cores: availableParallelism(),
      loadAvg1Before: loadBefore,
      loadAvg1After: loadAfter,
      targetP99LatenessMs: TARGET_P99_LATENESS_MS,
      targetMet: lateness !== null && lateness.p99 <= TARGET_P99_LATENESS_MS && failed === 0 && empty === 0,
      percentileDefinition: 'linear interpolation (R type 7, simple-statistics quantileSorted)',
    };
  } finally {
    await Promise.allSettled(clients.map((c) => c.destroy()));
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}

/** True when the host's load average exceeded its cores around the held round (lateness then says more about the host). */
export function busy(r: MockBenchResult): boolean {
  return Math.max(r.loadAvg1Before ?? 0, r.loadAvg1After ?? 0) > r.cores;
}

/** The default table (a string; the caller prints it). */
export function renderTable(r: MockBenchResult): string {
  const f = (x: number | undefined | null, d = 2) => (x === undefined || x === null ? 'n/a' : x.toFixed(d));
  const mb = (b: number | null) => (b === null ? 'n/a' : `${(b / 1048576).toFixed(1)} MiB`);
  const rows: [string, string][] = [
    ['held concurrently (mock peak in flight)', `${r.peakInFlight} of ${r.concurrency}`],
    ['answers ok / failed / empty bodies', `${r.ok} / ${r.failed} / ${r.emptyBodies}`],
    ['mock lateness P50 / P99 / max (ms)', `${f(r.latenessMs?.p50)} / ${f(r.latenessMs?.p99)} / ${f(r.latenessMs?.max)}`],
    ['client E2E − latency P50 / P99 / max (ms)', `${f(r.clientOverheadMs?.p50)} / ${f(r.clientOverheadMs?.p99)} / ${f(r.clientOverheadMs?.max)}`],
    ['mock RSS peak sampled / VmHWM', `${mb(r.mockRssPeakBytes)} / ${mb(r.mockRssHwmBytes)}`],
    ['wall time of the held round (ms)', f(r.heldWallMs, 0)],
    ['CPU in the held round: mock / client (ms)', `${f(r.mockCpuMs, 0)} / ${f(r.clientCpuMs, 0)}`],
    [`host load average (1 min) before / after, ${r.cores} cores`, `${f(r.loadAvg1Before)} / ${f(r.loadAvg1After)}${busy(r) ? '  ← host busy: other processes competed for the CPU' : ''}`],
    [`target: P99 lateness ≤ ${r.targetP99LatenessMs} ms`, r.targetMet ? 'met' : 'NOT met'],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  const head = `bench:mock — ${r.concurrency} concurrent requests sent over ${r.rampMs} ms, latency ${r.latencyMs} ms (percentiles: ${r.percentileDefinition})`;
  return [head, ...rows.map(([k, v]) => `  ${k.padEnd(w)}  ${v}`)].join('\n');
}

async function main() {
  const o = parseOptions(process.argv.slice(2));
  const r = await runMockBench(o, (line) => process.stderr.write(`${line}\n`));
  process.stdout.write(o.json ? `${JSON.stringify(r, null, 2)}\n` : `${renderTable(r)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:mock: error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(err instanceof BenchError ? 2 : 1);
});
