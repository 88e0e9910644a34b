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

/** The study a raw manifest names (`options.study`), or undefined (formats before studies existed). */
export function studyOf(raw: unknown): string | undefined {
  const st = (raw as { options?: { study?: unknown } } | null)?.options?.study;
  return typeof st === 'string' ? st : undefined;
}

/**
 * The reader for a version older than SCHEMA_VERSION, or null for the current one. Chosen by
 * (study, version): a run that names a study (`study`) is read only by that study's readers; a run
 * that names none (undefined) only by readers marked `forRunsWithoutStudy`.
 * @throws VtbenchError(EXIT.runData) for a version no eligible reader reads (newer, unknown, or a
 *   study this vtbench does not define or that has no reader for it)
 */
export function legacyReaderFor(version: unknown, studies: readonly Study[], study?: string): LegacyReader | null {
  if (version === SCHEMA_VERSION) return null;
  const eligible = study !== undefined
    ? studies.filter((s) => s.id === study).flatMap((s) => s.legacyReaders ?? [])
    : studies.flatMap((s) => (s.legacyReaders ?? []).filter((x) => x.forRunsWithoutStudy === true));
  const r = eligible.find((x) => x.version === version);
  if (!r) {
    const whose = study !== undefined
      ? (studies.some((s) => s.id === study) ? `study ${study}` : `study ${study} (not defined in this vtbench)`)
      : 'a run that names no study';
    const also = eligible.length > 0 ? ` and, for ${whose}, ${[...new Set(eligible.map((x) => x.version))].join(', ')}` : `; no reader of an older format for ${whose}`;
    throw new VtbenchError(
      `manifest.json has schemaVersion ${JSON.stringify(version)}; this vtbench reads schemaVersion ${SCHEMA_VERSION}${also}`,
      'report it with the vtbench version that wrote it (manifest.json: tool.version), or re-run the benchmark',
      EXIT.runData);
  }
  return r;
}

/** A run's manifest in the current schema, with the reader for the rest of its files (null = current). */
export function upgradeManifest(raw: unknown, studies: readonly Study[]): { manifest: unknown; reader: LegacyReader | null } {
  const reader = legacyReaderFor(schemaVersionOf(raw), studies, studyOf(raw));
  return { manifest: reader ? reader.manifest(raw as Record<string, unknown>) : raw, reader };
}

/** A run file in the current schema (unchanged when `reader` is null or the value is not an object). */
export function upgradeFile(kind: 'cell' | 'summary' | 'threadDump', raw: unknown, reader: LegacyReader | null, manifest: RunManifest): unknown {
  if (!reader || raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  if (kind !== 'threadDump' && schemaVersionOf(raw) !== reader.version) return raw; // the loader reports the mismatch
  return reader[kind](raw as Record<string, unknown>, manifest);
}
