/**
 * Honest flags: raised on a cell when the host, not the code under test, may have set the limit.
 * Pure. Thresholds are constants here and printed in the report with each flag.
 *
 * One unit per code (the report renders `value` and `threshold` in it):
 *   loadgen-lag               ms (event-loop delay of the load generator: P99 or max)
 *   loadgen-late-sends        share of the cell's requests (0..1) sent late by the generator
 *   loadgen-cpu               % of one core (the generator process)
 *   host-cpu                  % of all cores (the whole host)
 *   host-other-cpu            share of the machine's CPU (0..1, all cores) used by processes outside the run
 *   sut-cpu                   share of the cell's SUT samples (0..1) at or above SUT_CPU_SATURATED
 *   scheduler-delay           ms (virtual-thread queue wait P95)
 *   concurrency-below-target  requests in flight
 *   errors-above-threshold    share of the cell's requests (0..1) that failed
 *   component-disagrees       requests (the mock's count for the cell; threshold: the client's successes)
 */
import type { CellFlag } from '../../types/run.ts';
import type { LoadSummary } from '../../types/load.ts';
import type { SutSample } from '../../types/sut-api.ts';
import { executorInfo, type ExecutorSpec } from '../../types/study.ts';
import { OTHER_CPU_SHARE } from './other-cpu.ts';
import type { MockStats } from '../../types/mock.ts';

/** Load-generator event-loop delay P99 above this (ms) means the client may have added latency. */
export const LAG_P99_MS = 50;
/**
 * Generator delay (ms) that can move a measured value by more than the report's tolerance, for a
 * cell with service latency L: max(GENERATOR_DELAY_FLOOR_MS, GENERATOR_DELAY_SHARE_OF_L × L).
 * Why: an event-loop stall of X ms adds up to X ms to every request whose answer arrives during
 * it (the answer waits in the socket until the loop runs again), and a send X ms late idles that
 * worker for X ms of its cycle. The report compares latencies within max(20 ms, 5 %) (LAT_TOL,
 * src/report/model.ts) and a cell's smallest latency is about L, so a stall or a late send above
 * this threshold can shift a value by more than that tolerance. Used for the event-loop maximum
 * (`loadgen-lag`) and for counting late sends (`loadgen-late-sends`).
 */
export const GENERATOR_DELAY_FLOOR_MS = 20;
export const GENERATOR_DELAY_SHARE_OF_L = 0.05;
/** max(GENERATOR_DELAY_FLOOR_MS, GENERATOR_DELAY_SHARE_OF_L × latencyMs), ms (see above) */
export function generatorDelayThresholdMs(latencyMs: number): number {
  return Math.max(GENERATOR_DELAY_FLOOR_MS, GENERATOR_DELAY_SHARE_OF_L * latencyMs);
}
/**
 * Share of a cell's requests sent late (beyond generatorDelayThresholdMs) above which
 * `loadgen-late-sends` is raised: 1 %, the tail the report's highest compared percentile (P99) reads.
 */
export const LATE_SENDS_SHARE = 0.01;
/** Load-generator process CPU above this (% of one core) means the client was near its limit. */
export const LOADGEN_CPU_PCT = 90;
/** Whole-host CPU above this (% of all cores) means client and SUT competed for CPU. */
export const HOST_CPU_PCT = 95;

/** SUT process CPU (fraction of the whole machine) at or above this in a sample counts as saturated. */
export const SUT_CPU_SATURATED = 0.9;
/** ... in at least this share of the cell's samples (from t0 on) makes the cell CPU-saturated (`sut-cpu`). */
export const SUT_CPU_SATURATED_SHARE = 0.1;
/** Virtual-thread queue wait (submit → start) P95 above max(this, 5 % of L) means tasks waited for a carrier thread. */
export const SCHEDULER_DELAY_MS = 10;

/** The scheduler-delay flag's threshold: max(SCHEDULER_DELAY_MS, 5 % of L), ms (L = the cell's service time). */
export function schedulerDelayThresholdMs(latencyMs: number): number {
  return Math.max(SCHEDULER_DELAY_MS, 0.05 * latencyMs);
}

/** The SUT-CPU evidence of one cell (see `sutCpuSaturation`). */
export interface SutCpuSaturation {
  /** samples from t0 on with a known processCpuLoad */
  samples: number;
  /** of those, at or above SUT_CPU_SATURATED */
  samplesAbove: number;
  /** samplesAbove / samples; null when no sample */
  share: number | null;
  /** highest processCpuLoad (0..1 of the machine); null when no sample */
  peak: number | null;
  /** share ≥ SUT_CPU_SATURATED_SHARE: the cores, not the executor, were the limit in a notable part of the cell */
  saturated: boolean;
}

/**
 * The one rule "the SUT's CPU was saturated in this cell", used by the pipeline's `sut-cpu` flag
 * and by the report (§14). Over the samples taken at or after the load generator's t0; samples
 * whose processCpuLoad is null are skipped. Pure.
 */
export function sutCpuSaturation(samples: readonly Pick<SutSample, 'tEpochMs' | 'processCpuLoad'>[], t0EpochMs: number): SutCpuSaturation {
  let n = 0;
  let above = 0;
  let peak: number | null = null;
  for (const s of samples) {
    const x = s.processCpuLoad;
    if (s.tEpochMs < t0EpochMs || x === null) continue;
    n++;
    if (x >= SUT_CPU_SATURATED) above++;
    if (peak === null || x > peak) peak = x;
  }
  const share = n > 0 ? above / n : null;
  return { samples: n, samplesAbove: above, share, peak, saturated: share !== null && share >= SUT_CPU_SATURATED_SHARE };
}

/**
 * A flag as this version writes it. Runs written before the `sut-cpu` code carried the SUT-CPU
 * share under `host-cpu` (recognisable by a threshold ≤ 1, a fraction, where `host-cpu` is in %
 * of all cores with threshold HOST_CPU_PCT); such a flag is returned as `sut-cpu`, others unchanged.
 */
export function upgradeLegacyFlag(flag: CellFlag): CellFlag {
  return flag.code === 'host-cpu' && flag.threshold <= 1 ? { ...flag, code: 'sut-cpu' } : flag;
}

export interface FlagInputs {
  /** the cell's executor: `scheduler-delay` applies to one virtual thread per task (no executor queue) */
  executor: ExecutorSpec;
  latencyMs: number;
  /** t0 of the load generator (epoch ms); SUT samples before it are not part of the cell */
  t0EpochMs: number;
  /** the SUT's samples around the cell (tEpochMs, processCpuLoad 0..1 of the machine) */
  sutSamples: readonly Pick<SutSample, 'tEpochMs' | 'processCpuLoad'>[];
  load: LoadSummary;
  eventLoopLagP99Ms: number | null;
  eventLoopLagMaxMs: number | null;
  loadgenCpuPct: number | null;
  hostCpuPct: number | null;
  errorFlagThreshold: number;
  /**
   * what `hostCpuPct` covers: `all` (default) the host of the generator, the SUT and the mock;
   * `generator` the generator's host only, when the SUT or the mock is external (`--sut-url`,
   * `--mock-url`) and may run elsewhere
   */
  hostCpuScope?: 'all' | 'generator';
  /**
   * share of the machine's CPU (0..1) that processes outside the run used during the load
   * (src/compute/analysis/other-cpu.ts); null or absent: not known (no flag)
   */
  otherCpuShare?: number | null;
  /**
   * the mock's figures of the cell (`before`: the snapshot of the harness's reset before the load,
   * `after`: read after it) and the route each successful request of the scenario reaches at least
   * once (`chat`: /v1/chat/completions, `delay`: /delay; null: none, not compared). Absent: not
   * compared (a pod of a multi-host run shares the mock with the other pods).
   */
  mock?: { before: MockStats | null; after: MockStats | null; route: 'chat' | 'delay' | null };
}

/**
 * The mock's count of the cell on `route`: chat calls that reached it (answered, reset or held:
 * mock/src/server.ts), or answered /delay calls.
 */
export function mockCallsOn(s: MockStats, route: 'chat' | 'delay'): number {
  return route === 'chat' ? s.served + (s.faults['reset'] ?? 0) + (s.faults['hang'] ?? 0) : s.delay?.served ?? 0;
}

/**
 * `component-disagrees`: the mock's figures of a cell cannot describe it. Either its statistics were
 * reset during the cell by someone else (`sinceEpochMs` moved after the harness's own reset), or it
 * counts fewer calls on the scenario's route than the client got successful answers, beyond the
 * calls in flight at the mock at the harness's reset (each success needs at least one call; retries
 * and failed requests only make the mock's count larger or the client's smaller). Null when they
 * agree or cannot be compared.
 */
export function mockDisagreement(load: Pick<LoadSummary, 'ok'>, mock: NonNullable<FlagInputs['mock']>): CellFlag | null {
  const { before, after, route } = mock;
  if (before === null || after === null) return null;
  const count = route === null ? after.served : mockCallsOn(after, route);
  if (before.sinceEpochMs !== undefined && after.sinceEpochMs !== undefined && after.sinceEpochMs !== before.sinceEpochMs) {
    return {
      code: 'component-disagrees',
      message: `the mock's statistics were reset during the cell (at ${new Date(after.sinceEpochMs).toISOString()}), not by this run: its figures cover only part of the cell (${count} calls counted, ${load.ok} successful requests at the client)`,
      value: count, threshold: load.ok,
    };
  }
  if (route === null) return null;
  const inFlight = route === 'chat' ? before.inFlight : before.delay?.inFlight ?? 0;
  if (count + inFlight >= load.ok) return null;
  return {
    code: 'component-disagrees',
    message: `the mock counted ${count} ${route === 'chat' ? 'chat' : '/delay'} calls in the cell but the client got ${load.ok} successful answers, each of which needs one (${inFlight} in flight at the mock's reset explain at most ${inFlight}): the mock's figures do not describe this cell (reset, restarted or shared with another caller)`,
    value: count, threshold: load.ok,
  };
}

/** Every flag of one cell, in a fixed order (at most one per code). */
export function computeFlags(i: FlagInputs): CellFlag[] {
  const flags: CellFlag[] = [];
  const delayLimit = generatorDelayThresholdMs(i.latencyMs);
  if (i.eventLoopLagMaxMs !== null && i.eventLoopLagMaxMs > delayLimit) {
    flags.push({ code: 'loadgen-lag', message: `load generator event loop stalled up to ${i.eventLoopLagMaxMs.toFixed(1)} ms > ${delayLimit.toFixed(0)} ms (max(${GENERATOR_DELAY_FLOOR_MS} ms, ${GENERATOR_DELAY_SHARE_OF_L * 100} % of L)): the latency of requests answered during a stall is inflated by up to that much`, value: i.eventLoopLagMaxMs, threshold: delayLimit });
  } else if (i.eventLoopLagP99Ms !== null && i.eventLoopLagP99Ms > LAG_P99_MS) {
    flags.push({ code: 'loadgen-lag', message: `load generator event-loop delay P99 ${i.eventLoopLagP99Ms.toFixed(1)} ms > ${LAG_P99_MS} ms: client-side latency may be inflated`, value: i.eventLoopLagP99Ms, threshold: LAG_P99_MS });
  }
  const late = i.load.lateSends;
  if (late != null && late.share > LATE_SENDS_SHARE) {
    flags.push({ code: 'loadgen-late-sends', message: `load generator sent ${late.count} of ${i.load.count} requests (${(late.share * 100).toFixed(1)} %) more than ${late.thresholdMs.toFixed(0)} ms after their intended time > ${LATE_SENDS_SHARE * 100} %: the offered load was below the target then`, value: late.share, threshold: LATE_SENDS_SHARE });
  }
  if (i.loadgenCpuPct !== null && i.loadgenCpuPct > LOADGEN_CPU_PCT) {
    flags.push({ code: 'loadgen-cpu', message: `load generator CPU ${i.loadgenCpuPct.toFixed(0)} % of one core > ${LOADGEN_CPU_PCT} %`, value: i.loadgenCpuPct, threshold: LOADGEN_CPU_PCT });
  }
  if (i.hostCpuPct !== null && i.hostCpuPct > HOST_CPU_PCT) {
    const why = i.hostCpuScope === 'generator' ? "the load generator's host (an external SUT or mock may run elsewhere) was near its limit" : 'SUT, mock and client competed for cores';
    flags.push({ code: 'host-cpu', message: `host CPU ${i.hostCpuPct.toFixed(0)} % > ${HOST_CPU_PCT} %: ${why}`, value: i.hostCpuPct, threshold: HOST_CPU_PCT });
  }
  if (i.otherCpuShare != null && i.otherCpuShare > OTHER_CPU_SHARE) {
    flags.push({ code: 'host-other-cpu', message: `processes outside this run used ${(i.otherCpuShare * 100).toFixed(0)} % of the machine's CPU during the cell > ${OTHER_CPU_SHARE * 100} %: the SUT, the mock and the load generator shared the cores with them, so the cell is host-limited`, value: i.otherCpuShare, threshold: OTHER_CPU_SHARE });
  }
  const cpu = sutCpuSaturation(i.sutSamples, i.t0EpochMs);
  if (cpu.saturated && cpu.share !== null) {
    flags.push({ code: 'sut-cpu', message: `SUT process CPU ≥ ${SUT_CPU_SATURATED * 100} % of the machine in ${(cpu.share * 100).toFixed(0)} % of its samples (${cpu.samplesAbove} of ${cpu.samples}): the cores, not the executor, were the limit then`, value: cpu.share, threshold: SUT_CPU_SATURATED_SHARE });
  }
  const q95 = i.load.queueMs?.p95;
  const schedLimit = schedulerDelayThresholdMs(i.latencyMs);
  if (executorInfo(i.executor).tasksOnVirtualThreads && q95 !== undefined && q95 > schedLimit) {
    flags.push({ code: 'scheduler-delay', message: `virtual-thread queue wait P95 ${q95.toFixed(1)} ms > ${schedLimit.toFixed(0)} ms: tasks waited for a carrier thread (cores busy), not for an executor slot`, value: q95, threshold: schedLimit });
  }
  // an open loop has no target concurrency (its in-flight count follows from λ and the latency); a
  // WebSocket cell's records are handshakes made over a ramp (its held connections are in load.websocket)
  if (i.load.openLoop === undefined && i.load.websocket === undefined && i.load.peakInFlight < i.load.concurrency) {
    flags.push({ code: 'concurrency-below-target', message: `peak in flight ${i.load.peakInFlight} < target ${i.load.concurrency}`, value: i.load.peakInFlight, threshold: i.load.concurrency });
  }
  const errors = i.load.count - i.load.ok;
  const rate = i.load.count > 0 ? errors / i.load.count : 0;
  if (rate > i.errorFlagThreshold) {
    flags.push({ code: 'errors-above-threshold', message: `error rate ${(rate * 100).toFixed(2)} % (${errors} of ${i.load.count}) > ${(i.errorFlagThreshold * 100).toFixed(2)} %`, value: rate, threshold: i.errorFlagThreshold });
  }
  const disagreement = i.mock ? mockDisagreement(i.load, i.mock) : null;
  if (disagreement) flags.push(disagreement);
  return flags;
}
