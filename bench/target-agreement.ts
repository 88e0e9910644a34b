/**
 * bench:target-agreement — does `run.mjs target`, pointed at vtbench's own SUT jar as if nobody here had
 * written it, measure what the native study path measures for the same cell (issue 32)?
 *
 *   npm run bench:target-agreement -- --native <run dir> --target <run dir> --pair fixed=fixed --pair virtual=vt
 *
 * `--pair <native variant>=<target arm>` matches a variant of the native run (study 000) to an arm of the
 * target run; cells are matched by level (closed-loop concurrency). Per pair and level (medians over
 * repeats) it prints the steady-state and whole-run throughput of each side and their difference (%),
 * and the queue wait vs execution split three ways: the SUT's own Server-Timing in the native run, the
 * same header in the target run, and the agent's timing of the task each request handed to the SUT's
 * executor (the request's first hand-off: waitDifferencesMs), joined per request by the id the load
 * generator sent (`<worker>-<seq>`): the median and P95 of |agent wait − the SUT's own queue wait|, µs.
 * Measures nothing itself; both runs are normal runs (docs/your-own-service.md gives the commands).
 * Percentiles: src/compute/stats/percentiles.ts (type 7).
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { percentiles } from '../src/compute/stats/percentiles.ts';
import { requestIdOf } from '../src/compute/target/agent.ts';
import { requestsFromFile } from '../src/adapters/store/requests-codec.ts';
import type { LoadSummary } from '../src/types/load.ts';
import type { AgentRecord, TargetCell } from '../src/types/target.ts';
import { table } from './lib/table.ts';
import { failWith } from './lib/args.ts';

const fail: (message: string) => never = (message) => failWith('target-agreement', message);

/**
 * Per request id present on both sides: |agent wait − the SUT's own queue wait|, ms. `queue` maps
 * `<worker>-<seq>` to the SUT's Server-Timing queue (ms; null when absent); the agent's wait is that of
 * the request's first hand-off. The agent names executors by their simple class name, so Tomcat's
 * `ThreadPoolExecutor` cannot be told from the SUT's by name; the first hand-off is the SUT's own
 * because its controller submits the call to the SUT's executor before it returns the future that
 * Tomcat's async dispatch then completes. Pure.
 */
export function waitDifferencesMs(queue: ReadonlyMap<string, number | null>, agent: readonly AgentRecord[]): { diffs: number[]; executors: string[] } {
  const diffs: number[] = [];
  const executors = new Set<string>();
  for (const r of agent) {
    const q = queue.get(r.id);
    if (q === undefined || q === null) continue;
    const t = r.tasks[0];
    if (!t) continue;
    executors.add(t.executor);
    diffs.push(Math.abs(t.waitNs / 1e6 - q));
  }
  return { diffs, executors: [...executors].sort() };
}

/** (a − b) ÷ b in %, null when either is missing or b is 0. */
export function diffPct(a: number | null, b: number | null): number | null {
  return a === null || b === null || b === 0 ? null : ((a - b) / b) * 100;
}

const gz = <T>(p: string): T => JSON.parse(gunzipSync(readFileSync(p)).toString('utf8')) as T;
const median = (xs: (number | null | undefined)[]): number | null => percentiles(xs.filter((x): x is number => typeof x === 'number'))?.p50 ?? null;

interface Side { steady: number | null; whole: number | null; queueP50: number | null; queueP95: number | null; execP50: number | null; execP95: number | null }

function sideOf(sums: LoadSummary[]): Side {
  return {
    steady: median(sums.map((s) => s.steadyStateThroughputRps)),
    whole: median(sums.map((s) => s.wholeRunThroughputRps)),
    queueP50: median(sums.map((s) => s.queueMs?.p50)),
    queueP95: median(sums.map((s) => s.queueMs?.p95)),
    execP50: median(sums.map((s) => s.execMs?.p50)),
    execP95: median(sums.map((s) => s.execMs?.p95)),
  };
}

/** Native cells of a variant by level: their LoadSummary (`load`). */
function nativeCells(dir: string, variant: string): Map<number, LoadSummary[]> {
  const out = new Map<number, LoadSummary[]>();
  for (const f of readdirSync(join(dir, 'cells'))) {
    const m = new RegExp(`^${variant}-c(\\d+)-r\\d+\\.json$`).exec(f);
    if (!m) continue;
    const c = JSON.parse(readFileSync(join(dir, 'cells', f), 'utf8')) as { load: LoadSummary };
    out.set(Number(m[1]), [...(out.get(Number(m[1])) ?? []), c.load]);
  }
  return out;
}

function main(): void {
  let v;
  try {
    v = parseArgs({ options: { native: { type: 'string' }, target: { type: 'string' }, pair: { type: 'string', multiple: true } }, strict: true }).values;
  } catch (e) {
    fail(`${(e as Error).message} (options: --native DIR, --target DIR, --pair variant=arm …)`);
  }
  if (!v.native || !v.target || !v.pair?.length) fail('give --native <run dir> --target <run dir> and at least one --pair <variant>=<arm>');
  const nativeDir: string = v.native;
  const targetDir: string = v.target;
  for (const d of [nativeDir, targetDir]) if (!existsSync(join(d, 'manifest.json'))) fail(`${d}: no manifest.json (not a run folder)`);
  const rows: (string | number | null)[][] = [];
  const splits: (string | number | null)[][] = [];
  for (const p of v.pair) {
    const [variant, arm] = p.split('=');
    if (!variant || !arm) fail(`--pair ${p}: not <variant>=<arm>`);
    const native = nativeCells(nativeDir, variant);
    const tcells = readdirSync(join(targetDir, 'cells')).filter((f) => /^[a-z0-9-]+\.json$/.test(f)).map((f) => JSON.parse(readFileSync(join(targetDir, 'cells', f), 'utf8')) as TargetCell).filter((c) => c.arm === arm);
    if (native.size === 0) fail(`${nativeDir}: no cells of variant ${variant}`);
    if (tcells.length === 0) fail(`${targetDir}: no cells of arm ${arm}`);
    for (const level of [...native.keys()].sort((a, b) => a - b)) {
      const mine = tcells.filter((c) => c.level === level);
      if (mine.length === 0) continue;
      const n = sideOf(native.get(level)!);
      const t = sideOf(mine.map((c) => c.summary));
      const ds = diffPct(t.steady, n.steady);
      rows.push([`${variant} / ${arm}`, level, n.steady, t.steady, ds === null ? null : `${ds >= 0 ? '+' : ''}${ds.toFixed(2)} %`, ds === null ? '—' : Math.abs(ds) <= 2 ? 'yes' : 'no', n.whole, t.whole, diffPct(t.whole, n.whole)]);
      const diffs: number[] = [];
      const executors = new Set<string>();
      for (const c of mine) {
        const agentFile = join(targetDir, 'cells', `${c.id}.agent.json.gz`);
        if (!existsSync(agentFile)) continue;
        const req = requestsFromFile(gz(join(targetDir, 'cells', `${c.id}.requests.json.gz`))) as { worker: number[]; seq: number[]; queueMs: (number | null)[] };
        const queue = new Map(req.worker.map((w, i) => [requestIdOf({ worker: w, seq: req.seq[i]! }, 'closed-loop', c.idPrefix ?? ''), req.queueMs[i] ?? null]));
        const d = waitDifferencesMs(queue, gz<AgentRecord[]>(agentFile));
        diffs.push(...d.diffs);
        d.executors.forEach((e) => executors.add(e));
      }
      const dp = percentiles(diffs);
      splits.push([`${variant} / ${arm}`, level, n.queueP50, n.queueP95, t.queueP50, t.queueP95, n.execP50, t.execP50, diffs.length, dp ? dp.p50 * 1000 : null, dp ? dp.p95 * 1000 : null, [...executors].join(', ') || '—']);
    }
  }
  process.stdout.write(`Throughput, req/s (medians over repeats): native study path vs run.mjs target on the same jar\n${table(['variant / arm', 'level', 'native steady', 'target steady', 'difference', 'within 2 %', 'native whole-run', 'target whole-run', 'whole-run diff. %'], rows)}\n\n`);
  process.stdout.write(`Queue wait vs execution, ms (P50/P95; the SUT's own Server-Timing) and the agent's wait against it per request, µs\n${table(['variant / arm', 'level', 'native queue P50', 'P95', 'target queue P50', 'P95', 'native exec P50', 'target exec P50', 'requests joined', '|agent − own| P50 µs', 'P95 µs', 'agent executor'], splits)}\n`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
