/**
 * Old run formats, read through the reader of the study that wrote them (Study.legacyReaders).
 * The report loader calls these on the raw JSON before validating it against the current schema,
 * so a run stays readable after the format changes; the files on disk are never rewritten.
 */
import { EXIT, VtbenchError } from '../core/errors.ts';
import { SCHEMA_VERSION, type RunManifest } from '../store/types.ts';
import type { LegacyReader, Study } from './types.ts';

/** The schemaVersion of a parsed file, or undefined. */
export function schemaVersionOf(raw: unknown): unknown {
  return (raw as { schemaVersion?: unknown } | null)?.schemaVersion;
}

/**
 * The reader for a version older than SCHEMA_VERSION, or null for the current one.
 * @throws VtbenchError(EXIT.runData) for a version no study reads (newer, or unknown)
 */
export function legacyReaderFor(version: unknown, studies: readonly Study[]): LegacyReader | null {
  if (version === SCHEMA_VERSION) return null;
  const r = studies.flatMap((s) => s.legacyReaders ?? []).find((x) => x.version === version);
  if (!r) {
    throw new VtbenchError(
      `manifest.json has schemaVersion ${JSON.stringify(version)}; this vtbench reads schemaVersion ${SCHEMA_VERSION}${studies.some((s) => (s.legacyReaders ?? []).length > 0) ? ` and ${studies.flatMap((s) => (s.legacyReaders ?? []).map((x) => x.version)).join(', ')}` : ''}`,
      'report it with the vtbench version that wrote it (manifest.json: tool.version), or re-run the benchmark',
      EXIT.runData);
  }
  return r;
}

/** A run's manifest in the current schema, with the reader for the rest of its files (null = current). */
export function upgradeManifest(raw: unknown, studies: readonly Study[]): { manifest: unknown; reader: LegacyReader | null } {
  const reader = legacyReaderFor(schemaVersionOf(raw), studies);
  return { manifest: reader ? reader.manifest(raw as Record<string, unknown>) : raw, reader };
}

/** A run file in the current schema (unchanged when `reader` is null or the value is not an object). */
export function upgradeFile(kind: 'cell' | 'summary' | 'threadDump', raw: unknown, reader: LegacyReader | null, manifest: RunManifest): unknown {
  if (!reader || raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  if (kind !== 'threadDump' && schemaVersionOf(raw) !== reader.version) return raw; // the loader reports the mismatch
  return reader[kind](raw as Record<string, unknown>, manifest);
}
