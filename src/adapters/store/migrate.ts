/**
 * Old run formats, read through the reader of the study that wrote them (Study.legacyReaders).
 * The report loader calls these on the raw JSON before validating it against the current schema,
 * so a run stays readable after the format changes; the files on disk are never rewritten.
 */
import { EXIT, VtbenchError } from '../../types/errors.ts';
import { SCHEMA_VERSION, type RunManifest } from '../../types/run.ts';
import type { LegacyReader, Study } from '../../types/study.ts';

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
 * The engine's reader of schema version 2 (any study): version 3 only added fields that are optional
 * in the schema (the requests' `intendedStartMs` column and `unsent`, `LoadSummary.openLoop`, the
 * open-loop options), so a v2 file is a v3 file with its version raised; nothing is invented (a v2
 * run's intended start times stay absent: a closed loop's are rebuilt by src/pipeline/resummarize.ts
 * from its schedule where needed).
 */
export const V2_READER: LegacyReader = {
  version: 2,
  forRunsWithoutStudy: false,
  manifest: (raw) => ({ ...raw, schemaVersion: 3 }),
  cell: (raw) => ({ ...raw, schemaVersion: 3 }),
  summary: (raw) => ({ ...raw, schemaVersion: 3 }),
  threadDump: (raw) => raw,
};

/** Readers of older formats that the engine owns (every study's runs): by version. */
export const ENGINE_READERS: readonly LegacyReader[] = [V2_READER];

/**
 * `first` followed by the engine's readers from the version it writes up to SCHEMA_VERSION (e.g.
 * study 000's v1 reader writes v2, then V2_READER makes it v3). The result keeps `first.version`
 * (the version of the files on disk).
 */
function chained(first: LegacyReader): LegacyReader {
  const rest: LegacyReader[] = [];
  for (let v = first.version + 1; v < SCHEMA_VERSION; v++) {
    const r = ENGINE_READERS.find((x) => x.version === v);
    if (r) rest.push(r);
  }
  if (rest.length === 0) return first;
  return {
    version: first.version,
    base: first,
    ...(first.forRunsWithoutStudy !== undefined ? { forRunsWithoutStudy: first.forRunsWithoutStudy } : {}),
    manifest(raw) {
      return rest.reduce<unknown>((m, r) => r.manifest(m as Record<string, unknown>), first.manifest(raw));
    },
    cell(raw, manifest) {
      return rest.reduce<unknown>((c, r) => r.cell(c as Record<string, unknown>, manifest), first.cell(raw, manifest));
    },
    summary(raw, manifest) {
      return rest.reduce<unknown>((c, r) => r.summary(c as Record<string, unknown>, manifest), first.summary(raw, manifest));
    },
    threadDump(raw, manifest) {
      return rest.reduce<unknown>((c, r) => r.threadDump(c as Record<string, unknown>, manifest), first.threadDump(raw, manifest));
    },
  };
}

/**
 * The reader for a version older than SCHEMA_VERSION, or null for the current one. Chosen by
 * (study, version): a run that names a study (`study`) is read only by that study's readers (then the
 * engine's, ENGINE_READERS, for versions every study wrote); a run that names none (undefined) only by
 * readers marked `forRunsWithoutStudy`. A study's reader that writes an older version than the current
 * is followed by the engine's readers up to it (chained).
 * @throws VtbenchError(EXIT.runData) for a version no eligible reader reads (newer, unknown, or a
 *   study this vtbench does not define or that has no reader for it)
 */
export function legacyReaderFor(version: unknown, studies: readonly Study[], study?: string): LegacyReader | null {
  if (version === SCHEMA_VERSION) return null;
  const eligible = study !== undefined
    ? [...studies.filter((s) => s.id === study).flatMap((s) => s.legacyReaders ?? []), ...(studies.some((s) => s.id === study) ? ENGINE_READERS : [])]
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
  return chained(r);
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
