/**
 * A cell's metrics over a time window of its per-request records (issue 33 item 5: windowed
 * thresholds). Pure: the cell's request columns (CompactRequests, times in ms after the cell's t0)
 * and a window in, values out.
 *
 * Definitions:
 * - a request belongs to a window when it ENDS in it (end = startMs + e2eMs, in (start, end]), as the
 *   steady window's completions are counted (src/load/summarize.ts): a late collapse shows in the
 *   window where its slow answers arrive.
 * - `steady`: the cell's steady window [latest first answer of a worker, earliest last answer]
 *   (LoadSummary.steadyWindow); none when the cell has none (open loop, or too short).
 * - `last:N`: the last N seconds before the cell's last answer: (lastEnd − N s, lastEnd].
 * - `every:N`: consecutive N-second windows from the cell's first answer; a trailing window shorter
 *   than N s is left out (it would judge a few requests); a cell shorter than N s has one window,
 *   from its first to its last answer. Throughput over such windows includes the ramp and the drain.
 * - throughput: successful requests ending in the window ÷ its length (req/s); e2e_pNN: percentile
 *   (src/compute/stats/percentiles.ts) of the successful requests' E2E latency (ms), null when none;
 *   error_rate: failed ÷ all requests ending in the window (0..1), null when none.
 */
import type { CompactRequests } from '../../types/run.ts';
import { percentiles } from '../stats/percentiles.ts';

/** A window a threshold rule names. */
export type WindowSpec = { kind: 'steady' } | { kind: 'last'; seconds: number } | { kind: 'every'; seconds: number };

/** Metrics computable over a window. */
export type WindowMetric = 'throughput' | 'e2e_p50' | 'e2e_p95' | 'e2e_p99' | 'error_rate';

/** One window of one cell: its bounds (ms after t0), the requests ending in it, and the metric's value. */
export interface WindowValue {
  startMs: number;
  endMs: number;
  /** requests (successful or not) ending in the window */
  count: number;
  /** null when not computable (no request, or no successful one for a latency) */
  value: number | null;
}

/** The window spec in its text form (`steady`, `last:10s`, `every:5s`). */
export function windowText(w: WindowSpec): string {
  return w.kind === 'steady' ? 'steady' : `${w.kind}:${w.seconds}s`;
}

/** Parse `steady`, `last:<N>s` or `every:<N>s` (N > 0 seconds); null when it is none of them. */
export function parseWindow(text: string): WindowSpec | null {
  if (text === 'steady') return { kind: 'steady' };
  const m = /^(last|every):(\d+(?:\.\d+)?)s$/.exec(text);
  if (!m) return null;
  const seconds = Number(m[2]);
  return seconds > 0 ? { kind: m[1] as 'last' | 'every', seconds } : null;
}

/** The windows of a cell, [start, end] ms after t0; empty when the cell has no answer (or no steady window). */
export function cellWindows(w: WindowSpec, req: Pick<CompactRequests, 'startMs' | 'e2eMs'>, steady: { startMs: number; endMs: number } | null): [number, number][] {
  if (w.kind === 'steady') return steady && steady.endMs > steady.startMs ? [[steady.startMs, steady.endMs]] : [];
  if (req.e2eMs.length === 0) return [];
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < req.e2eMs.length; i++) {
    const end = (req.startMs[i] as number) + (req.e2eMs[i] as number);
    if (end < first) first = end;
    if (end > last) last = end;
  }
  const n = w.seconds * 1000;
  if (w.kind === 'last') return [[last - n, last]];
  // the first window starts just before the first answer, so that answer (end in (start, end]) is in it
  const from = first - 1e-9;
  if (last - from < n) return [[from, last]];
  const out: [number, number][] = [];
  for (let s = from; s + n <= last + 1e-9; s += n) out.push([s, s + n]);
  return out;
}

/** The metric over the requests ending in (startMs, endMs]. */
export function metricInWindow(metric: WindowMetric, req: Pick<CompactRequests, 'startMs' | 'e2eMs' | 'error'>, startMs: number, endMs: number): WindowValue {
  const ok: number[] = [];
  let count = 0;
  for (let i = 0; i < req.e2eMs.length; i++) {
    const e2e = req.e2eMs[i] as number;
    const end = (req.startMs[i] as number) + e2e;
    if (!(end > startMs && end <= endMs)) continue;
    count++;
    if ((req.error[i] ?? 'other') === '') ok.push(e2e);
  }
  let value: number | null;
  switch (metric) {
    case 'throughput': value = endMs > startMs ? ok.length / ((endMs - startMs) / 1000) : null; break;
    case 'error_rate': value = count > 0 ? (count - ok.length) / count : null; break;
    default: {
      const p = percentiles(ok);
      value = p === null ? null : metric === 'e2e_p50' ? p.p50 : metric === 'e2e_p95' ? p.p95 : p.p99;
    }
  }
  return { startMs, endMs, count, value };
}

/**
 * The metric in every window of a cell (one for steady and last:N; each N-second window for every:N).
 * @returns the windows in time order; empty when the cell has none
 */
export function windowValues(w: WindowSpec, metric: WindowMetric, req: Pick<CompactRequests, 'startMs' | 'e2eMs' | 'error'>, steady: { startMs: number; endMs: number } | null): WindowValue[] {
  return cellWindows(w, req, steady).map(([s, e]) => metricInWindow(metric, req, s, e));
}
