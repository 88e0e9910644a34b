/**
 * bench:capacity — the most req/s our generator sustains here against a zero-latency mock, side by
 * side with autocannon (same mock, same concurrency, same duration, same POST body, in one run).
 *
 *   npm run bench:capacity [-- --json] [--concurrency 50] [--duration-s 10] [--rounds 3]
 *
 * The mock runs in a child process (one of the 2 cores); both generators run in this process, one
 * after the other, after a short unrecorded warm-up of the mock. Our generator is count-based, so
 * it runs with a huge n and is stopped by an AbortSignal after --duration-s (cut requests dropped).
 * A third side is undici's floor (bench/lib/undici-floor.ts): the same undici Clients and request
 * with a do-nothing handler — what sending through undici costs before our generator records
 * anything. Rounds rotate who goes first; ratioVsAutocannon = median over rounds of our completed
 * req/s / autocannon's 2xx per second (target >= 1.0); cpuRatioVsAutocannon = median over rounds
 * of our CPU per completed request / autocannon's CPU per 2xx (this process's user + system CPU
 * while each generator ran; target <= 1.0, issue 20); floorCpuRatioVsAutocannon = the same for the
 * floor: when it is above 1.0 the CPU target cannot be met while sending through undici, and it is
 * the best ratio reachable; oursOverFloorCpuUs = what our generator adds per request on top of
 * undici (timing, Server-Timing scan, records, summary). The machine is shared: read the ranges too.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { runClosedLoop } from '../src/load/run.ts';
import type { LoadOptions } from '../src/types/load.ts';
import { startMockChild } from './lib/mock-child.ts';
import { runUndiciFloor } from './lib/undici-floor.ts';
import { table } from './lib/table.ts';
import { failWith, positiveIntOf } from './lib/args.ts';

const fail: (message: string) => never = (message) => failWith('capacity', message);
const positiveInt = (flag: string, raw: string): number => positiveIntOf('capacity', flag, raw);

/** The parsed command line. */
interface CapacityArgs {
  json: boolean;
  /** workers / connections of every generator */
  c: number;
  durationS: number;
  roundsN: number;
}

/** Parses the command line; exits 2 naming the flag on a bad one. */
function parseCapacityArgs(): CapacityArgs {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        json: { type: 'boolean', default: false },
        concurrency: { type: 'string', default: '50' },
        'duration-s': { type: 'string', default: '10' },
        rounds: { type: 'string', default: '3' },
      },
      strict: true,
    });
  } catch (err) {
    fail(`${(err as Error).message} (options: --json, --concurrency N, --duration-s S, --rounds R)`);
  }
  return {
    json: parsed.values.json === true,
    c: positiveInt('concurrency', parsed.values.concurrency ?? '50'),
    durationS: positiveInt('duration-s', parsed.values['duration-s'] ?? '10'),
    roundsN: positiveInt('rounds', parsed.values.rounds ?? '3'),
  };
}

/** One generator's figures in one round (CPU = this process's user + system while it ran, µs). */
interface Side {
  throughputRps: number | null;
  ok: number;
  errors: number;
  durationS: number | null;
  e2eP50Ms: number | null;
  e2eP99Ms: number | null;
  cpuUsPerRequest: number | null;
  cpuSystemUsPerRequest: number | null;
  cpuPct: number | null;
}

/** One round: the three sides, in the order they ran, and the ratios against autocannon. */
interface Round {
  round: number;
  order: string;
  ours: Side;
  autocannon: Side;
  floor: Side;
  ratioVsAutocannon: number | null;
  cpuRatioVsAutocannon: number | null;
  floorCpuRatioVsAutocannon: number | null;
  oursOverFloorCpuUs: number | null;
}

const BODY = JSON.stringify({ model: 'vtbench-mock', messages: [{ role: 'user', content: 'Say hello' }] });
const HEADERS = { 'content-type': 'application/json', authorization: 'Bearer dummy' };

/** Runs autocannon once for `durationS` against the mock's chat route and measures it (its 2xx count as completed). */
async function autocannonSide(mockUrl: string, c: number, durationS: number, log: (s: string) => void): Promise<Side> {
  log(`  autocannon: c=${c}, ${durationS} s ...`);
  const cpu0 = process.cpuUsage();
  const ac = await autocannon({ url: `${mockUrl}/v1/chat/completions`, connections: c, duration: durationS, pipelining: 1, method: 'POST', body: BODY, headers: HEADERS, timeout: 10 });
  const cpu = process.cpuUsage(cpu0);
  return {
    throughputRps: ac.duration > 0 ? ac['2xx'] / ac.duration : null,
    ok: ac['2xx'],
    errors: ac.errors + ac.non2xx,
    durationS: ac.duration,
    e2eP50Ms: ac.latency.p50,
    e2eP99Ms: ac.latency.p99,
    cpuUsPerRequest: ac['2xx'] > 0 ? (cpu.user + cpu.system) / ac['2xx'] : null,
    cpuSystemUsPerRequest: ac['2xx'] > 0 ? cpu.system / ac['2xx'] : null,
    cpuPct: ac.duration > 0 ? ((cpu.user + cpu.system) / 1e4 / ac.duration) : null,
  };
}

/** The three generators against `mockUrl`, each a function that runs it once for `durationS` and measures it; `warmUp` runs ours unrecorded. */
function makeSides(mockUrl: string, c: number, durationS: number, log: (s: string) => void) {
  const body = BODY;
  const headers = HEADERS;
  const base: Omit<LoadOptions, 'requestsPerWorker'> = {
    url: mockUrl,
    path: '/v1/chat/completions',
    method: 'POST',
    body,
    headers,
    concurrency: c,
    start: 'together',
    rampMs: 0,
    connectTimeoutMs: 10_000,
    headersTimeoutMs: 10_000,
    bodyTimeoutMs: 10_000,
  };
  // count-based generator, time-bounded here: a huge n, stopped by an AbortSignal after the
  // duration (requests cut by the stop are dropped, completed ones stay records)
  const timed = (seconds: number, warmup: number) =>
    runClosedLoop({ ...base, requestsPerWorker: 1e7, warmupRequestsPerWorker: warmup, signal: AbortSignal.timeout(seconds * 1000) });
  const oursOnce = async (): Promise<Side> => {
    log(`  vtbench generator: c=${c}, ${durationS} s ...`);
    const cpu0 = process.cpuUsage();
    const res = await timed(durationS, 0);
    const cpu = process.cpuUsage(cpu0);
    const s = res.summary;
    let first = Infinity;
    let last = -Infinity;
    for (const r of res.records) {
      if (r.startMs < first) first = r.startMs;
      if (r.endMs > last) last = r.endMs;
    }
    return {
      throughputRps: s.wholeRunThroughputRps,
      ok: s.ok,
      errors: s.count - s.ok,
      durationS: s.count > 0 ? (last - first) / 1000 : null,
      e2eP50Ms: s.e2eMs?.p50 ?? null,
      e2eP99Ms: s.e2eMs?.p99 ?? null,
      cpuUsPerRequest: s.ok > 0 ? (cpu.user + cpu.system) / s.ok : null,
      cpuSystemUsPerRequest: s.ok > 0 ? cpu.system / s.ok : null,
      cpuPct: res.loadgen.cpuPct,
    };
  };
  const autocannonOnce = () => autocannonSide(mockUrl, c, durationS, log);
  const floorOpts = Object.freeze({ path: base.path, method: base.method, body: Buffer.from(body), headers });
  const floorOnce = async (): Promise<Side> => {
    log(`  undici floor (do-nothing handler): c=${c}, ${durationS} s ...`);
    const cpu0 = process.cpuUsage();
    const f = await runUndiciFloor(mockUrl, floorOpts, c, durationS, 10_000);
    const cpu = process.cpuUsage(cpu0);
    return {
      throughputRps: f.durationS > 0 ? f.ok / f.durationS : null,
      ok: f.ok,
      errors: f.errors,
      durationS: f.durationS,
      e2eP50Ms: null,
      e2eP99Ms: null,
      cpuUsPerRequest: f.ok > 0 ? (cpu.user + cpu.system) / f.ok : null,
      cpuSystemUsPerRequest: f.ok > 0 ? cpu.system / f.ok : null,
      cpuPct: f.durationS > 0 ? (cpu.user + cpu.system) / 1e4 / f.durationS : null,
    };
  };
  return { warmUp: () => timed(3, 1), sides: { vtbench: oursOnce, autocannon: autocannonOnce, floor: floorOnce } as const };
}

type Sides = ReturnType<typeof makeSides>['sides'];

/** a's CPU per request over b's, or null when either is unknown (or b's is 0). */
const cpuRatioOf = (a: Side, b: Side) => (a.cpuUsPerRequest !== null && b.cpuUsPerRequest !== null && b.cpuUsPerRequest > 0 ? a.cpuUsPerRequest / b.cpuUsPerRequest : null);

/** Runs round `round` (1-based): the sides one after the other, first side rotated per round so a drifting machine does not favour one. */
async function runRound(round: number, roundsN: number, sides: Sides, log: (s: string) => void): Promise<Round> {
  // rotate who goes first, so a drifting machine does not favour one side
  const names = Object.keys(sides) as (keyof Sides)[];
  const order = [...names.slice((round - 1) % names.length), ...names.slice(0, (round - 1) % names.length)];
  log(`round ${round}/${roundsN} (${order.join(', ')})`);
  const got: Partial<Record<keyof Sides, Side>> = {};
  for (const name of order) got[name] = await sides[name]();
  const ours = got.vtbench as Side;
  const ac = got.autocannon as Side;
  const floor = got.floor as Side;
  const ratio = ours.throughputRps !== null && ac.throughputRps !== null && ac.throughputRps > 0 ? ours.throughputRps / ac.throughputRps : null;
  return {
    round,
    order: order.join(','),
    ours,
    autocannon: ac,
    floor,
    ratioVsAutocannon: ratio,
    cpuRatioVsAutocannon: cpuRatioOf(ours, ac),
    floorCpuRatioVsAutocannon: cpuRatioOf(floor, ac),
    oursOverFloorCpuUs: ours.cpuUsPerRequest !== null && floor.cpuUsPerRequest !== null ? ours.cpuUsPerRequest - floor.cpuUsPerRequest : null,
  };
}

/** The median of sorted numbers, or null when there are none. */
const median = (xs: number[]) => (xs.length === 0 ? null : xs.length % 2 === 1 ? (xs[(xs.length - 1) / 2] as number) : ((xs[xs.length / 2 - 1] as number) + (xs[xs.length / 2] as number)) / 2);

/** The non-null values of `pick` over the rounds, ascending. */
const sortedOf = (rounds: readonly Round[], pick: (r: Round) => number | null): number[] => rounds.map(pick).filter((x): x is number => x !== null).sort((a, b) => a - b);

/** The benchmark's result (the --json output): the rounds, the medians and ranges of the ratios, the verdicts. Pure. */
function capacityResult(rounds: Round[], a: CapacityArgs) {
  const { c, durationS, roundsN } = a;
  const ratios = sortedOf(rounds, (r) => r.ratioVsAutocannon);
  const cpuRatios = sortedOf(rounds, (r) => r.cpuRatioVsAutocannon);
  const ratio = median(ratios);
  const cpuRatio = median(cpuRatios);
  const floorRatios = sortedOf(rounds, (r) => r.floorCpuRatioVsAutocannon);
  const floorRatio = median(floorRatios);
  const overFloor = median(sortedOf(rounds, (r) => r.oursOverFloorCpuUs));
  const oursCpu = median(sortedOf(rounds, (r) => r.ours.cpuUsPerRequest));
  return {
    bench: 'capacity',
    concurrency: c,
    durationS,
    mockLatencyMs: 0,
    rounds,
    ratioVsAutocannon: ratio,
    ratioDefinition: `median over ${roundsN} rounds of (vtbench completed req/s) / (autocannon 2xx req/s)`,
    ratioMin: ratios[0] ?? null,
    ratioMax: ratios[ratios.length - 1] ?? null,
    target: 1.0,
    verdict: ratio === null ? 'FAIL' : ratio >= 1.0 ? 'PASS' : 'FAIL',
    cpuRatioVsAutocannon: cpuRatio,
    cpuRatioDefinition: `median over ${roundsN} rounds of (vtbench CPU µs per completed request) / (autocannon CPU µs per 2xx), both measured as this process's CPU while that generator ran`,
    cpuRatioMin: cpuRatios[0] ?? null,
    cpuRatioMax: cpuRatios[cpuRatios.length - 1] ?? null,
    cpuTarget: 1.0,
    cpuVerdict: cpuRatio === null ? 'FAIL' : cpuRatio <= 1.0 ? 'PASS' : 'FAIL',
    floorCpuRatioVsAutocannon: floorRatio,
    floorCpuRatioDefinition: `median over ${roundsN} rounds of (undici floor CPU µs per 2xx: same Clients and request, do-nothing handler) / (autocannon CPU µs per 2xx)`,
    floorCpuRatioMin: floorRatios[0] ?? null,
    floorCpuRatioMax: floorRatios[floorRatios.length - 1] ?? null,
    /** median over rounds of (our CPU µs per request − the floor's): what the generator adds on top of undici */
    oursOverFloorCpuUs: overFloor,
    /** oursOverFloorCpuUs / our median CPU µs per request: the share of our CPU that is ours, not undici's */
    oursOverFloorShare: overFloor !== null && oursCpu !== null && oursCpu > 0 ? overFloor / oursCpu : null,
    /** false when undici alone spends more CPU per request than autocannon (floor ratio > 1): the CPU target is out of reach while sending through undici */
    cpuTargetReachable: floorRatio === null ? null : floorRatio <= 1.0,
  };
}

type CapacityResult = ReturnType<typeof capacityResult>;

/** The text output: one table row per round and generator, then the ratios with their verdicts. */
function formatCapacity(result: CapacityResult, a: CapacityArgs): string {
  const { c, durationS, roundsN } = a;
  const rows: (string | number | null)[][] = [];
  for (const r of result.rounds) {
    for (const [name, side] of [['vtbench (undici)', r.ours], ['autocannon 8.0.0', r.autocannon], ['undici floor', r.floor]] as const) {
      const ours = name.startsWith('vtbench');
      const cpuRatioCell = ours ? r.cpuRatioVsAutocannon : name === 'undici floor' ? r.floorCpuRatioVsAutocannon : null;
      rows.push([r.round, name, side.throughputRps, side.ok, side.errors, side.durationS, side.e2eP50Ms, side.e2eP99Ms, side.cpuUsPerRequest, ours ? r.ratioVsAutocannon : null, cpuRatioCell]);
    }
  }
  const ratio = result.ratioVsAutocannon;
  const cpuRatio = result.cpuRatioVsAutocannon;
  const floorRatio = result.floorCpuRatioVsAutocannon;
  const overFloor = result.oursOverFloorCpuUs;
  return `${table(['round', 'generator', 'throughputRps', 'ok', 'errors', 'durationS', 'e2eP50Ms', 'e2eP99Ms', 'cpuUsPerReq', 'ratio', 'cpuRatio'], rows)}\n` +
    `\nratioVsAutocannon = ${ratio?.toFixed(3) ?? '—'} (median of ${roundsN}; range ${result.ratioMin?.toFixed(3)}..${result.ratioMax?.toFixed(3)}; target >= 1.0): ${result.verdict}\n` +
    `cpuRatioVsAutocannon = ${cpuRatio?.toFixed(3) ?? '—'} (CPU per request, median of ${roundsN}; range ${result.cpuRatioMin?.toFixed(3)}..${result.cpuRatioMax?.toFixed(3)}; target <= 1.0): ${result.cpuVerdict}\n` +
    `floorCpuRatioVsAutocannon = ${floorRatio?.toFixed(3) ?? '—'} (undici with a do-nothing handler; range ${result.floorCpuRatioMin?.toFixed(3)}..${result.floorCpuRatioMax?.toFixed(3)}): ${
      result.cpuTargetReachable === false ? 'above 1.0, so the CPU target is out of reach while sending through undici; this is the best reachable ratio' : 'the CPU target is reachable in principle'
    }\n` +
    `our generator adds ${overFloor?.toFixed(1) ?? '—'} µs per request on top of undici (${result.oursOverFloorShare === null ? '—' : (result.oursOverFloorShare * 100).toFixed(0)}% of its CPU per request)\n` +
    `c = ${c}, ${durationS} s each, mock latency 0 in a child process, both generators in this process. cpuUsPerReq = this process's CPU per completed request.\n`;
}

async function main(): Promise<void> {
  const args = parseCapacityArgs();
  const log = (s: string) => {
    if (!args.json) process.stderr.write(`${s}\n`);
  };
  const mock = await startMockChild(['--latency-ms', '0']);
  try {
    const { warmUp, sides } = makeSides(mock.url, args.c, args.durationS, log);
    log(`mock at ${mock.url} (latency 0, pid ${mock.pid}); unrecorded warm-up 3 s ...`);
    await warmUp();
    const rounds: Round[] = [];
    for (let round = 1; round <= args.roundsN; round++) rounds.push(await runRound(round, args.roundsN, sides, log));
    const result = capacityResult(rounds, args);
    if (args.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else process.stdout.write(formatCapacity(result, args));
    if (result.verdict === 'FAIL' || result.cpuVerdict === 'FAIL') process.exitCode = 1;
  } finally {
    await mock.stop();
  }
}

await main();
