/**
 * Honest flags: raised on a cell when the host, not the code under test, may have set the limit.
 * Pure. Thresholds are constants here and printed in the report with each flag.
 */
import type { CellFlag } from '../store/types.ts';
import type { LoadSummary } from '../load/types.ts';

/** Load-generator event-loop delay P99 above this (ms) means the client may have added latency. */
export const LAG_P99_MS = 50;
/** Load-generator process CPU above this (% of one core) means the client was near its limit. */
export const LOADGEN_CPU_PCT = 90;
/** Whole-host CPU above this (% of all cores) means client and SUT competed for CPU. */
export const HOST_CPU_PCT = 95;

/** SUT process CPU (fraction of the whole machine) at or above this in a sample counts as saturated. */
export const SUT_CPU_SATURATED = 0.9;
/** ... in at least this share of the cell's samples raises `host-cpu`. */
export const SUT_CPU_SATURATED_SHARE = 0.1;
/** Virtual-thread queue wait (submit → start) P95 above max(this, 5 % of L) means tasks waited for a carrier thread. */
export const SCHEDULER_DELAY_MS = 10;

export interface FlagInputs {
  mode: 'fixed' | 'virtual';
  latencyMs: number;
  /** SUT processCpuLoad per sample (0..1 of the machine), nulls skipped */
  sutCpuLoads: readonly (number | null)[];
  load: LoadSummary;
  eventLoopLagP99Ms: number | null;
  loadgenCpuPct: number | null;
  hostCpuPct: number | null;
  errorFlagThreshold: number;
}

export function computeFlags(i: FlagInputs): CellFlag[] {
  const flags: CellFlag[] = [];
  if (i.eventLoopLagP99Ms !== null && i.eventLoopLagP99Ms > LAG_P99_MS) {
    flags.push({ code: 'loadgen-lag', message: `load generator event-loop delay P99 ${i.eventLoopLagP99Ms.toFixed(1)} ms > ${LAG_P99_MS} ms: client-side latency may be inflated`, value: i.eventLoopLagP99Ms, threshold: LAG_P99_MS });
  }
  if (i.loadgenCpuPct !== null && i.loadgenCpuPct > LOADGEN_CPU_PCT) {
    flags.push({ code: 'loadgen-cpu', message: `load generator CPU ${i.loadgenCpuPct.toFixed(0)} % of one core > ${LOADGEN_CPU_PCT} %`, value: i.loadgenCpuPct, threshold: LOADGEN_CPU_PCT });
  }
  if (i.hostCpuPct !== null && i.hostCpuPct > HOST_CPU_PCT) {
    flags.push({ code: 'host-cpu', message: `host CPU ${i.hostCpuPct.toFixed(0)} % > ${HOST_CPU_PCT} %: SUT, mock and client competed for cores`, value: i.hostCpuPct, threshold: HOST_CPU_PCT });
  }
  const loads = i.sutCpuLoads.filter((x): x is number => x !== null);
  if (loads.length > 0) {
    const share = loads.filter((x) => x >= SUT_CPU_SATURATED).length / loads.length;
    if (share >= SUT_CPU_SATURATED_SHARE) {
      flags.push({ code: 'host-cpu', message: `SUT process CPU ≥ ${SUT_CPU_SATURATED * 100} % of the machine in ${(share * 100).toFixed(0)} % of its samples: the cores, not the executor, were the limit then`, value: share, threshold: SUT_CPU_SATURATED_SHARE });
    }
  }
  const q95 = i.load.queueMs?.p95;
  const schedLimit = Math.max(SCHEDULER_DELAY_MS, 0.05 * i.latencyMs);
  if (i.mode === 'virtual' && q95 !== undefined && q95 > schedLimit) {
    flags.push({ code: 'scheduler-delay', message: `virtual-thread queue wait P95 ${q95.toFixed(1)} ms > ${schedLimit.toFixed(0)} ms: tasks waited for a carrier thread (cores busy), not for an executor slot`, value: q95, threshold: schedLimit });
  }
  if (i.load.peakInFlight < i.load.concurrency) {
    flags.push({ code: 'concurrency-below-target', message: `peak in flight ${i.load.peakInFlight} < target ${i.load.concurrency}`, value: i.load.peakInFlight, threshold: i.load.concurrency });
  }
  const errors = i.load.count - i.load.ok;
  const rate = i.load.count > 0 ? errors / i.load.count : 0;
  if (rate > i.errorFlagThreshold) {
    flags.push({ code: 'errors-above-threshold', message: `error rate ${(rate * 100).toFixed(2)} % (${errors} of ${i.load.count}) > ${(i.errorFlagThreshold * 100).toFixed(2)} %`, value: rate, threshold: i.errorFlagThreshold });
  }
  return flags;
}
