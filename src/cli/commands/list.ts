/** `run.mjs list [--study ID] [--json]`: the studies and their profiles with planned cells, requests and duration. */
import { listProfiles, formatProfileList } from '../../plan/profiles.ts';
import { getStudy } from '../../studies/index.ts';
import type { Study } from '../../types/study.ts';
import { EXIT } from '../../types/errors.ts';
import { readHostLimits } from '../../adapters/host/limits.ts';
import type { Io } from '../common.ts';

/** A study in `list --json`: its id, title, source, variant ids and scenario ids. */
function studyEntry(st: Study): { id: string; title: string; source: string; variants: string[]; scenarios: string[] } {
  return { id: st.id, title: st.title, source: st.source, variants: st.variants.map((v) => v.id), scenarios: st.scenarios.map((x) => x.id) };
}

/**
 * Print every study (or the one named) with its profiles: a table on stdout, or one JSON line.
 * @param one the study id (`--study`), null for all
 * @throws VtbenchError(EXIT.usage) for an unknown study; a profile that does not fit this host
 */
export function listCommand(one: string | null, json: boolean, io: Io, studies: readonly Study[]): number {
  const listed = one === null ? studies : [getStudy(one, studies)];
  const rows = listProfiles(listed, readHostLimits());
  io.stdout.write((json ? JSON.stringify({ type: 'list', studies: listed.map(studyEntry), profiles: rows }) : formatProfileList(rows, listed)) + '\n');
  return EXIT.ok;
}
