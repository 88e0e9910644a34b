/**
 * Rewriting a run folder's per-request files in the encoded layout (src/adapters/store/requests-codec.ts),
 * losslessly: for each `cells/<id>.requests.json.gz` still in the old layout, encode, compress, read the
 * new bytes back, decode, and compare every value with the original (firstDifference: same keys in the
 * same order, same lengths, Object.is per value); only then replace the file (atomic write). A file
 * that would not come back identical, or would not be smaller, is left as it is. Nothing else changes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { writeFileAtomic } from './fsio.ts';
import { decodeRequests, encodeRequests, firstDifference, isEncodedRequests, type EncodedRequests } from './requests-codec.ts';

/** What happened to one requests file; bytes are the file's sizes on disk. */
export interface CompactedFile {
  /** relative to the run folder, e.g. `cells/io-virtual-c200-r1.requests.json.gz` */
  file: string;
  outcome: 'rewritten' | 'already encoded' | 'not columns' | 'not smaller' | 'round trip differs';
  beforeBytes: number;
  afterBytes: number;
  /** the first difference, for `round trip differs` */
  difference?: string;
}

/** Names of the per-request files of `cells/` (no temp or set-aside files), sorted. */
export function requestFileNames(names: readonly string[]): string[] {
  return names.filter((n) => n.endsWith('.requests.json.gz') && !n.startsWith('.')).sort();
}

/**
 * The new bytes of one requests file and whether they read back exactly (pure, apart from the codec's
 * own work). `original` is the old file's bytes.
 */
export function compactBytes(original: Buffer): { outcome: CompactedFile['outcome']; bytes: Buffer | null; difference?: string } {
  const value = JSON.parse(gunzipSync(original).toString('utf8')) as unknown;
  if (isEncodedRequests(value)) return { outcome: 'already encoded', bytes: null };
  const e = value !== null && typeof value === 'object' ? encodeRequests(value) : null;
  if (e === null) return { outcome: 'not columns', bytes: null };
  const bytes = gzipSync(Buffer.from(JSON.stringify(e), 'utf8'), { level: 9 });
  const back = decodeRequests(JSON.parse(gunzipSync(bytes).toString('utf8')) as EncodedRequests);
  const difference = firstDifference(value, back);
  if (difference !== null) return { outcome: 'round trip differs', bytes: null, difference };
  if (bytes.length >= original.length) return { outcome: 'not smaller', bytes: null };
  return { outcome: 'rewritten', bytes };
}

/**
 * Rewrite every per-request file of a run folder that can be rewritten losslessly (see the file's comment).
 * @param onFile called after each file (progress)
 * @throws the fs error of an unreadable file or a failed write (files done before stay done; each is whole)
 */
export function compactRun(runDir: string, onFile: (f: CompactedFile) => void = () => {}): CompactedFile[] {
  const out: CompactedFile[] = [];
  for (const name of requestFileNames(readdirSync(join(runDir, 'cells')))) {
    const path = join(runDir, 'cells', name);
    const original = readFileSync(path);
    const r = compactBytes(original);
    if (r.bytes !== null) writeFileAtomic(path, r.bytes);
    const f: CompactedFile = { file: `cells/${name}`, outcome: r.outcome, beforeBytes: original.length, afterBytes: r.bytes?.length ?? original.length, ...(r.difference ? { difference: r.difference } : {}) };
    onFile(f);
    out.push(f);
  }
  return out;
}
