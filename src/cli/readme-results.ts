/**
 * `npm run readme:results -- [runs/<id>]`: rewrite README.md's Results section from a run
 * (default: the newest complete run under runs/ of the default study with its default profile,
 * see readmeSource). The block is generated, never typed.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRun } from '../report/load.ts';
import { buildModel } from '../report/model.ts';
import { headlineMarkdown, replaceResults } from '../report/headline.ts';
import { writeAtomic } from '../report/write.ts';
import { upgradeManifest } from '../adapters/store/migrate.ts';
import { DEFAULT_STUDY, STUDIES, getStudy } from '../studies/index.ts';
import type { Study } from '../types/study.ts';
import { EXIT, VtbenchError } from '../types/errors.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The study and profile whose runs feed README.md: the default study, with its default (first) profile. */
export function readmeSource(studies: readonly Study[] = STUDIES, studyId: string = DEFAULT_STUDY): { study: string; profile: string } {
  const study = getStudy(studyId, studies);
  const profile = study.profiles[0];
  if (!profile) throw new VtbenchError(`study ${study.id} defines no profile`, 'give the study at least one profile', EXIT.usage);
  return { study: study.id, profile: profile.name };
}

/**
 * The newest complete run folder under runsDir of the README's study and profile (readmeSource),
 * or null. The manifest is read through the study's legacy readers, so runs in an older format
 * (which name no study) count too; folders that are not readable runs are skipped.
 */
export function newestReadmeRun(runsDir: string, studies: readonly Study[] = STUDIES, studyId: string = DEFAULT_STUDY): string | null {
  if (!existsSync(runsDir)) return null;
  const want = readmeSource(studies, studyId);
  const ids = readdirSync(runsDir).sort().reverse();
  for (const id of ids) {
    try {
      const raw: unknown = JSON.parse(readFileSync(join(runsDir, id, 'manifest.json'), 'utf8'));
      const m = upgradeManifest(raw, studies).manifest as { options: { study: string; profile: string }; status: string };
      if (m.options.study === want.study && m.options.profile === want.profile && m.status === 'complete') return join(runsDir, id);
    } catch {
      /* not a run, or a format this vtbench does not read */
    }
  }
  return null;
}

/** The Results block for a run folder, with links relative to the repository root. */
export async function resultsBlock(runDir: string, reportRoot = join(ROOT, 'report')): Promise<string> {
  const run = await loadRun(runDir, { studies: STUDIES });
  const model = buildModel(run);
  return headlineMarkdown(model, relative(ROOT, join(reportRoot, model.runId)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const runDir = process.argv[2] ? resolve(process.argv[2]) : newestReadmeRun(join(ROOT, 'runs'));
  if (!runDir) {
    const src = readmeSource();
    console.error(`error: no complete run of study ${src.study}, profile ${src.profile} under runs/\n  hint: run npx zx run.mjs first, or name a run folder`);
    process.exit(7);
  }
  const readmePath = join(ROOT, 'README.md');
  await writeAtomic(readmePath, replaceResults(readFileSync(readmePath, 'utf8'), await resultsBlock(runDir)));
  console.log(`README.md results from ${relative(ROOT, runDir)}`);
}
