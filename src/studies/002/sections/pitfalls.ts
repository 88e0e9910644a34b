/** Study 002's `{{criticalPath}}`, `{{mixedTimings}}`, `{{pinning002}}` and `{{exhaustion}}`. Pure. */
import type { RenderContext } from '../../../report/types.ts';
import { aggText, int, ms, num, pct, rps, table, type Raw } from '../../../report/format.ts';
import { MIXED_CRITICAL_PATH_MS, MIXED_STUDY_CLAIM_MS } from '../theory.ts';
import { criticalPath, type Row002 } from '../report.ts';
import { aggMs } from './format.ts';

/** `{{criticalPath}}`: the fan-out's critical path against 150 ms and the study's 100 ms. */
export function criticalPathText(rows: readonly Row002[], ctx: RenderContext): Raw {
  const cp = criticalPath(rows);
  return cp ? ctx.P('cp.text', { measured: ms(cp.measuredMs), c: int(cp.c), theory: int(MIXED_CRITICAL_PATH_MS), study: int(MIXED_STUDY_CLAIM_MS), serial: cp.serialMs === null ? '—' : ms(cp.serialMs), closer: Math.abs(cp.measuredMs - MIXED_CRITICAL_PATH_MS) <= Math.abs(cp.measuredMs - MIXED_STUDY_CLAIM_MS) ? int(MIXED_CRITICAL_PATH_MS) : int(MIXED_STUDY_CLAIM_MS) }) : ctx.P('cp.none');
}

/** `{{mixedTimings}}`: the fan-out's Server-Timing entries per row that has them. */
export function mixedTimings(rows: readonly Row002[], ctx: RenderContext): string | Raw {
  const { s, variantName } = ctx;
  const timings = rows.filter((r) => Object.keys(r.timingP50Ms).length > 0);
  return timings.length === 0 ? '' : table([s('h.variant'), 'c', 'db P50', 'user P50', 'logistics P50', s('h.execP50')],
    timings.map((r) => [variantName(r.variant), int(r.concurrency), ms(r.timingP50Ms['db']), ms(r.timingP50Ms['user']), ms(r.timingP50Ms['logistics']), aggMs(r.execP50Ms)]), ['l', 'r', 'r', 'r', 'r', 'r']);
}

/** `{{pinning002}}`: the synchronized scenario's cells with their JFR pinned count. */
export function pinning002(rows: readonly Row002[], ctx: RenderContext, pinnedThresholdMs: number): Raw {
  const { s, variantName } = ctx;
  const sync = rows.filter((r) => r.scenario === 'db-small-synchronized');
  return sync.length === 0 ? ctx.P('pin002.none') : table([s('h.variant'), 'c', s('h.throughput'), s('h.smallest'), 'P99', s('h.pinned', { threshold: int(pinnedThresholdMs) })],
    sync.map((r) => [variantName(r.variant), int(r.concurrency), aggText(r.throughputRps, (x) => rps(x)), r.smallest ? `${rps(r.smallest.rps)} (${s(`bound.${r.smallest.kind}`)})` : '—', aggMs(r.p99Ms), r.pinnedTotal === null ? '—' : int(r.pinnedTotal)]), ['l', 'r', 'r', 'r', 'r', 'r']);
}

/** `{{exhaustion}}`: cells with `db_pool_exhausted` answers, with the CPU seen during them. */
export function exhaustion(rows: readonly Row002[], ctx: RenderContext): Raw {
  const { s, variantName } = ctx;
  const exhausted = rows.filter((r) => (r.errorKinds['db_pool_exhausted'] ?? 0) > 0);
  return exhausted.length === 0 ? ctx.P('exh.none') : table([s('h.variant'), 'c', 'db_pool_exhausted', s('h.errorRate'), s('h.hostCpu'), s('h.cpuPerReq')],
    exhausted.map((r) => [variantName(r.variant), int(r.concurrency), int(r.errorKinds['db_pool_exhausted']), aggText(r.errorRate, (x) => pct(x === null ? null : x * 100)), pct(r.hostCpuPct), r.cpuMsPerRequest === null ? '—' : `${num(r.cpuMsPerRequest, 3)} ms`]), ['l', 'r', 'r', 'r', 'r', 'r']);
}
