/**
 * Cumulative CPU of the load generator, the mock and PostgreSQL during a cell's load, sampled on
 * one timer (every COMPONENT_CPU_SAMPLE_MS), so the CPU bound's service demand can be taken over the
 * same window as the SUT's (src/compute/theory/cell-bounds.ts cellCpu) instead of over whole-cell totals.
 * Cheap by design: `process.cpuUsage()` and /proc reads (ProcessTreeCpu), no process spawned.
 */
import type { ComponentCpuSample } from '../../types/run.ts';
import { ProcessTreeCpu, clockTicksPerS } from './proc-cpu.ts';

/** How often the sampler reads, ms (the SUT's own sampler interval by default). */
export const COMPONENT_CPU_SAMPLE_MS = 250;

/** What to sample; a null pid (an external or absent component) gives a null series. */
export interface ComponentCpuTargets {
  /**
   * true when the load generator runs in this process (one shard): its series is this process's
   * user + system CPU (`process.cpuUsage()`, which also holds the harness's own bookkeeping, as
   * `loadgen.cpuPct` does), less the sampler's own reads; false with `--shards K` > 1 (the generator runs in child processes):
   * the series is null and the cell's `loadgen.cpuPct` stays the generator's figure
   */
  loadgenInProcess: boolean;
  mockPid: number | null;
  dbPid: number | null;
}

/**
 * A running sampler: `sample()` takes one reading now (the caller takes one right before the load
 * and one right after it ends, so every window of the load is bracketed); the timer takes the ones
 * between. `stop()` ends the timer and returns every sample in time order.
 */
export interface ComponentCpuSampler {
  sample(): void;
  stop(): ComponentCpuSample[];
}

/**
 * Start sampling `targets` every `intervalMs` (timer unref'd: it never keeps the process alive).
 * Values are cumulative ms since an arbitrary origin per series (differences only are meaningful);
 * a component whose process is gone or unreadable reads null at that instant.
 */
export function startComponentCpuSampler(targets: ComponentCpuTargets, intervalMs = COMPONENT_CPU_SAMPLE_MS): ComponentCpuSampler {
  clockTicksPerS(); // resolved (one `getconf`) before the load, never inside the timer
  const mock = targets.mockPid !== null ? new ProcessTreeCpu(targets.mockPid) : null;
  const db = targets.dbPid !== null ? new ProcessTreeCpu(targets.dbPid) : null;
  const out: ComponentCpuSample[] = [];
  // the sampler's own CPU (its /proc reads: about 11 ms for a tree of 200 PostgreSQL backends) is
  // the harness's bookkeeping, not load generation: it is left out of the generator's series
  let ownUs = 0;
  const sample = (): void => {
    const u = process.cpuUsage();
    const tEpochMs = Date.now();
    const mockMs = mock?.readMs() ?? null;
    const dbMs = db?.readMs() ?? null;
    out.push({ tEpochMs, loadgenMs: targets.loadgenInProcess ? (u.user + u.system - ownUs) / 1000 : null, mockMs, dbMs });
    const own = process.cpuUsage(u);
    ownUs += own.user + own.system;
  };
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    sample,
    stop: () => {
      clearInterval(timer);
      return out;
    },
  };
}
