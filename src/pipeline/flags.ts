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

export interface FlagInputs {
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
