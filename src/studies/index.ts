/**
 * The studies this version runs. Adding a study = one folder under src/studies/<id>/ with its
 * definition, one under templates/<id>/, and one line here.
 */
import { VtbenchError, EXIT } from '../core/errors.ts';
import type { Study } from '../study/types.ts';
import { STUDY_000 } from './000/index.ts';
import { STUDY_004 } from './004/index.ts';
import { STUDY_003 } from './003/index.ts';
import { STUDY_002 } from './002/index.ts';

/** All studies, the default first. */
export const STUDIES: readonly Study[] = [STUDY_000, STUDY_004, STUDY_003, STUDY_002];

/** The study `npx zx run.mjs` runs without --study. */
export const DEFAULT_STUDY: string = STUDIES[0]!.id;

/**
 * A study by id.
 * @throws VtbenchError(EXIT.usage) naming --study and the known ids
 */
export function getStudy(id: string, studies: readonly Study[] = STUDIES): Study {
  const s = studies.find((x) => x.id === id);
  if (!s) throw new VtbenchError(`--study: unknown study '${id}'`, `use one of: ${studies.map((x) => x.id).join(', ')} (npx zx run.mjs list shows them)`, EXIT.usage);
  return s;
}
