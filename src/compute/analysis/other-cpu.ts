/**
 * How much of the machine's CPU other processes (not this run's) used during a cell (issue 33): a
 * cell measured while something else ran on the same cores is host-limited, whatever its figures
 * say. Pure: the readings come from /proc (src/adapters/host/host.ts readCpuTicks and
 * src/adapters/process/proc-cpu.ts processTreeTicks).
 */

/**
 * One reading, in clock ticks (USER_HZ): the machine's busy and total ticks over every CPU
 * (/proc/stat's `cpu` line) and the CPU of the harness and every process it started (its process
 * tree); `ownTicks` null when unreadable.
 */
export interface RunCpuReading {
  busyTicks: number;
  totalTicks: number;
  ownTicks: number | null;
}

/**
 * Share of the whole machine's CPU (0..1, all cores) above which other processes are said to have
 * limited the cell (`host-other-cpu`): 10 %, a stated threshold (on a 2-core machine, a fifth of one
 * core), not derived from a measurement.
 */
export const OTHER_CPU_SHARE = 0.1;

/**
 * (busy ticks − this run's ticks) / total ticks between two readings, clamped to 0..1: the share of
 * the machine's CPU that processes outside the run used. Null when either reading or the run's own
 * CPU is unknown, or no tick passed. The two sources tick separately, so a share near 0 may read
 * slightly negative (clamped to 0).
 */
export function otherCpuShare(before: RunCpuReading | null, after: RunCpuReading | null): number | null {
  if (!before || !after || before.ownTicks === null || after.ownTicks === null) return null;
  const total = after.totalTicks - before.totalTicks;
  if (!(total > 0)) return null;
  const other = after.busyTicks - before.busyTicks - (after.ownTicks - before.ownTicks);
  return Math.min(1, Math.max(0, other / total));
}
