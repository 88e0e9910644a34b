/**
 * HdrHistograms of a cell's latencies (issue 33 item 6): a compact, mergeable summary of every
 * successful request's E2E latency, queue wait and execution time, kept beside the per-request
 * records (which stay the contract). Shards and comparisons of very large runs can merge these in
 * bounded memory (one histogram's counts at a time, never the requests).
 *
 * Values are recorded in whole microseconds (the per-request columns keep ms to 3 decimals, i.e. 1 µs)
 * at 3 significant decimal digits: every recorded value is counted in a bucket whose width is at most
 * 1/1000 of the value (Gil Tene, HdrHistogram: "value precision ... expressed as the number of
 * significant decimal digits"), so a percentile read from the histogram is within 0.1 % (plus 1 µs)
 * of a recorded value at that rank. Library: hdr-histogram-js 3.0.1 (pure JS, 32-bit buckets,
 * auto-resizing range), encoded with its V2 compressed base64 (`HISTF...`, readable by the Java,
 * C# and Rust implementations). Pure: no I/O.
 */
import * as hdr from 'hdr-histogram-js';
import type { Histogram } from 'hdr-histogram-js';
import type { CellHistograms, CompactRequests } from '../../types/run.ts';

/** Bits per bucket count: 32-bit counts (up to 4.29e9 requests in one bucket). */
const BUCKET_BITS = 32;

/** Significant decimal digits of every cell histogram (HdrHistogram's precision parameter). */
export const HDR_SIGNIFICANT_DIGITS = 3;

/** An empty histogram of the stored kind (µs, 3 significant digits, auto-resizing). */
export function emptyHistogram(): Histogram {
  return hdr.build({ bitBucketSize: BUCKET_BITS, autoResize: true, lowestDiscernibleValue: 1, highestTrackableValue: 2, numberOfSignificantValueDigits: HDR_SIGNIFICANT_DIGITS });
}

/** A ms value as the histogram records it: whole µs, at least 0. @throws RangeError for a non-finite value */
export function toMicros(ms: number): number {
  if (!Number.isFinite(ms)) throw new RangeError(`hdr: value is not finite (${ms})`);
  return Math.max(0, Math.round(ms * 1000));
}

/** One histogram of `valuesMs` (ms) encoded as compressed base64; null for no value. */
export function encodeValues(valuesMs: ArrayLike<number>): string | null {
  if (valuesMs.length === 0) return null;
  const h = emptyHistogram();
  for (let i = 0; i < valuesMs.length; i++) h.recordValue(toMicros(valuesMs[i] as number));
  return hdr.encodeIntoCompressedBase64(h);
}

/**
 * The histograms of a cell's successful requests (the same requests the cell's percentiles cover:
 * `error` empty; queue and execution of those that carried them), from its per-request columns.
 */
export function cellHistograms(req: Pick<CompactRequests, 'e2eMs' | 'error' | 'queueMs' | 'execMs'>): CellHistograms {
  const e2e: number[] = [];
  const queue: number[] = [];
  const exec: number[] = [];
  for (let i = 0; i < req.e2eMs.length; i++) {
    if ((req.error[i] ?? 'other') !== '') continue;
    const e = req.e2eMs[i];
    if (e !== undefined) e2e.push(e);
    const q = req.queueMs[i];
    if (q !== null && q !== undefined) queue.push(q);
    const x = req.execMs[i];
    if (x !== null && x !== undefined) exec.push(x);
  }
  return { unit: 'us', significantDigits: HDR_SIGNIFICANT_DIGITS, e2e: encodeValues(e2e), queue: encodeValues(queue), exec: encodeValues(exec) };
}

/**
 * The sum of encoded histograms (nulls skipped), encoded; null when every one is null. Decodes one
 * at a time into one accumulator: memory is one histogram's buckets, whatever the requests behind.
 */
export function mergeEncoded(encoded: readonly (string | null)[]): string | null {
  let acc: Histogram | null = null;
  for (const e of encoded) {
    if (e === null) continue;
    const h = hdr.decodeFromCompressedBase64(e, BUCKET_BITS, false);
    acc ??= emptyHistogram();
    acc.add(h);
    h.destroy();
  }
  return acc === null ? null : hdr.encodeIntoCompressedBase64(acc);
}

/** The cells' histograms summed kind by kind (E2E, queue, execution). */
export function mergeCellHistograms(parts: readonly CellHistograms[]): CellHistograms {
  return {
    unit: 'us', significantDigits: HDR_SIGNIFICANT_DIGITS,
    e2e: mergeEncoded(parts.map((p) => p.e2e)), queue: mergeEncoded(parts.map((p) => p.queue)), exec: mergeEncoded(parts.map((p) => p.exec)),
  };
}

/** Percentiles (ms) and count read from one encoded histogram; percent levels as in HdrHistogram (0..100). */
export interface HdrPercentiles { n: number; min: number; max: number; mean: number; p50: number; p90: number; p95: number; p99: number; p999: number }

/**
 * The usual percentiles of an encoded histogram, ms. HdrHistogram's percentile is the highest value
 * equivalent to the bucket holding the rank (not an interpolation): it agrees with an exact percentile
 * to the histogram's precision. Null for null.
 */
export function hdrPercentiles(encoded: string | null): HdrPercentiles | null {
  if (encoded === null) return null;
  const h = hdr.decodeFromCompressedBase64(encoded, BUCKET_BITS, false);
  const at = (p: number) => h.getValueAtPercentile(p) / 1000;
  const out = { n: h.totalCount, min: h.minNonZeroValue === Number.MAX_SAFE_INTEGER ? 0 : h.minNonZeroValue / 1000, max: h.maxValue / 1000, mean: h.mean / 1000, p50: at(50), p90: at(90), p95: at(95), p99: at(99), p999: at(99.9) };
  h.destroy();
  return out;
}
