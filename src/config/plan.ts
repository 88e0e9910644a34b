/**
 * The plan of a run: blocks (one SUT JVM per mode and repeat), cells, request totals and the
 * theoretical duration of each, from the bounds in src/theory. Pure.
 */
import { cellMinDurationS, throughputBoundRps, waves } from '../theory/bounds.ts';
import type { Mode, ResolvedOptions } from '../store/types.ts';

export interface PlannedCell {
  cellId: string;
  mode: Mode;
  concurrency: number;
  repeat: number;
  requests: number;
  boundRps: number;
  /** theoretical duration, s (max(n·L, c·n / bound)) */
  theoreticalS: number;
}

export interface PlannedBlock {
  /** `${mode}-r${repeat}` */
  blockId: string;
  mode: Mode;
  repeat: number;
  /** warm-up: workers × requests per worker, and its theoretical duration */
  warmup: { workers: number; requestsPerWorker: number; theoreticalS: number } | null;
  cells: PlannedCell[];
}

export interface Plan {
  blocks: PlannedBlock[];
  cells: PlannedCell[];
  totalRequests: number;
  /** Σ workers over levels */
  workersPerRun: number;
  /** theoretical load time + warm-ups, s (JVM start and build excluded) */
  theoreticalS: number;
}

/** Cell id: `${mode}-c${concurrency}-r${repeat}` (repeat counts from 1). */
export function cellId(mode: Mode, concurrency: number, repeat: number): string {
  return `${mode}-c${concurrency}-r${repeat}`;
}

/**
 * Warm-up requests per worker so that the warm-up at concurrency c lasts about warmupS:
 * max(1, round(warmupS / (waves · L))). null when warmupS = 0.
 */
export function warmupPlan(mode: Mode, o: ResolvedOptions): PlannedBlock['warmup'] {
  if (o.warmupS <= 0) return null;
  const c = Math.max(...o.levels);
  const roundS = (waves(mode, c, o.poolSize) * o.latencyMs) / 1000;
  const n = Math.max(1, Math.round(o.warmupS / roundS));
  return { workers: c, requestsPerWorker: n, theoreticalS: cellMinDurationS(mode, c, o.poolSize, o.latencyMs, n) };
}

/**
 * Build the plan. Mode order alternates between repeats (repeat 1: modes as given; repeat 2:
 * reversed; ...) so neither mode always runs on a cooler machine.
 */
export function makePlan(o: ResolvedOptions): Plan {
  const blocks: PlannedBlock[] = [];
  for (let r = 1; r <= o.repeats; r++) {
    const order = r % 2 === 1 ? o.modes : [...o.modes].reverse();
    for (const mode of order) {
      const cells = o.levels.map((c) => ({
        cellId: cellId(mode, c, r),
        mode,
        concurrency: c,
        repeat: r,
        requests: c * o.requestsPerWorker,
        boundRps: throughputBoundRps(mode, c, o.poolSize, o.latencyMs),
        theoreticalS: cellMinDurationS(mode, c, o.poolSize, o.latencyMs, o.requestsPerWorker) + (o.start === 'ramp' ? o.rampMs / 1000 : 0),
      }));
      blocks.push({ blockId: `${mode}-r${r}`, mode, repeat: r, warmup: warmupPlan(mode, o), cells });
    }
  }
  const cells = blocks.flatMap((b) => b.cells);
  return {
    blocks,
    cells,
    totalRequests: cells.reduce((s, c) => s + c.requests, 0),
    workersPerRun: o.levels.reduce((s, c) => s + c, 0),
    theoreticalS: blocks.reduce((s, b) => s + (b.warmup?.theoreticalS ?? 0) + b.cells.reduce((t, c) => t + c.theoreticalS, 0), 0),
  };
}

/** "1 h 42 min", "3 min 5 s", "12 s" */
export function formatDuration(s: number): string {
  const t = Math.round(s);
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const sec = t % 60;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min ${sec} s`;
  return `${sec} s`;
}

/** The plan as text, printed before anything starts. */
export function formatPlan(o: ResolvedOptions, plan: Plan, runDir: string): string {
  const lines: string[] = [];
  lines.push(`vtbench plan — profile ${o.profile}`);
  lines.push(`  modes ${o.modes.join(', ')} (fixed pool ${o.poolSize}, queue ${o.queueCapacity}); levels ${o.levels.join(', ')}; ${o.requestsPerWorker} req/worker; ${o.repeats} repeat(s); start ${o.start}${o.start === 'ramp' ? ` over ${o.rampMs} ms` : ''}`);
  lines.push(`  mock latency ${o.latencyMs} ms; warm-up ≈${o.warmupS} s per JVM; SUT JVM flags: ${o.jvmFlags.join(' ') || '(none)'}`);
  lines.push(`  requests: ${plan.workersPerRun} workers × ${o.requestsPerWorker} × ${o.repeats} repeat(s) × ${o.modes.length} mode(s) = ${plan.totalRequests.toLocaleString('en-US')}`);
  lines.push('  cell (per repeat)       requests   bound req/s   min. duration');
  const seen = new Set<string>();
  for (const c of plan.cells) {
    const key = `${c.mode}-c${c.concurrency}`;
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push(`  ${key.padEnd(22)} ${String(c.requests).padStart(9)}   ${c.boundRps.toFixed(2).padStart(11)}   ${formatDuration(c.theoreticalS)}`);
  }
  lines.push(`  theoretical duration: ${formatDuration(plan.theoreticalS)} of load and warm-up (+ JVM starts${o.repeats > 1 ? `, × ${o.repeats} repeats included` : ''})`);
  lines.push(`  output: ${runDir}`);
  return lines.join('\n');
}
