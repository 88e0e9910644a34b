/**
 * The load generator's meter of itself over a measured phase: event-loop lag (perf_hooks
 * monitorEventLoopDelay at 10 ms resolution, the resolution subtracted from its samples) and this
 * process's CPU time over wall time. Shared by every driver that generates load in this process.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { LoadgenStats } from '../types/load.ts';

/** monitorEventLoopDelay sampling interval, ms; its samples include this interval, which is subtracted. */
export const LAG_RESOLUTION_MS = 10;

/** A running meter; `stop(wallMs)` ends it and returns the phase's stats (wallMs = the phase's wall time, ms). */
export interface LoadgenMeter {
  stop(wallMs: number): LoadgenStats;
}

/** Start metering now. `stop` may be called once; lag fields are null when no sample was taken. */
export function startLoadgenMeter(): LoadgenMeter {
  const lag = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  lag.enable();
  const cpu0 = process.cpuUsage();
  return {
    stop(wallMs) {
      const cpu = process.cpuUsage(cpu0);
      lag.disable();
      return {
        eventLoopLagP99Ms: lag.count > 0 ? Math.max(0, lag.percentile(99) / 1e6 - LAG_RESOLUTION_MS) : null,
        eventLoopLagMaxMs: lag.count > 0 ? Math.max(0, lag.max / 1e6 - LAG_RESOLUTION_MS) : null,
        cpuPct: wallMs > 0 ? ((cpu.user + cpu.system) / 1000 / wallMs) * 100 : null,
      };
    },
  };
}
