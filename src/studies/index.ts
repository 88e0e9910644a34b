/**
 * The studies this version runs. Adding a study = one folder under src/studies/<id>/ with its
 * definition, one under templates/<id>/, and one line here.
 */
import type { StudyPlugin } from '../report/types.ts';
import { getStudy as findStudy } from '../plan/study-check.ts';
import { STUDY_000 } from './000/index.ts';
import { STUDY_004 } from './004/index.ts';
import { STUDY_003 } from './003/index.ts';
import { STUDY_002 } from './002/index.ts';

/** All studies, the default first. */
export const STUDIES: readonly StudyPlugin[] = [STUDY_000, STUDY_004, STUDY_003, STUDY_002];

/** The study `npx zx run.mjs` runs without --study. */
export const DEFAULT_STUDY: string = STUDIES[0]!.id;

/**
 * A study by id.
 * @throws VtbenchError(EXIT.usage) naming --study and the known ids
 */
export function getStudy(id: string, studies: readonly StudyPlugin[] = STUDIES): StudyPlugin {
  return findStudy(id, studies);
}
