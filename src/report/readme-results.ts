/**
 * `npm run readme:results -- [runs/<id>]`: rewrite README.md's Results section from a run
 * (default: the newest complete seed-000 run under runs/). The block is generated, never typed.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadRun } from './load.ts';
import { buildModel } from './model.ts';
import { headlineMarkdown, replaceResults } from './headline.ts';
import { writeAtomic } from './write.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The newest run folder under runsDir whose manifest says profile seed-000 and status complete. */
export function newestCompleteSeedRun(runsDir: string): string | null {
  if (!existsSync(runsDir)) return null;
  const ids = readdirSync(runsDir).sort().reverse();
  for (const id of ids) {
    try {
      const m = JSON.parse(readFileSync(join(runsDir, id, 'manifest.json'), 'utf8')) as { options: { profile: string }; status: string };
      if (m.options.profile === 'seed-000' && m.status === 'complete') return join(runsDir, id);
    } catch {
      /* not a run */
    }
  }
  return null;
}

/** The Results block for a run folder, with links relative to the repository root. */
export async function resultsBlock(runDir: string, reportRoot = join(ROOT, 'report')): Promise<string> {
  const run = await loadRun(runDir);
  const model = buildModel(run);
  return headlineMarkdown(model, relative(ROOT, join(reportRoot, model.runId)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const runDir = process.argv[2] ? resolve(process.argv[2]) : newestCompleteSeedRun(join(ROOT, 'runs'));
  if (!runDir) {
    console.error('error: no complete seed-000 run under runs/\n  hint: run npx zx run.mjs first, or name a run folder');
    process.exit(7);
  }
  const readmePath = join(ROOT, 'README.md');
  await writeAtomic(readmePath, replaceResults(readFileSync(readmePath, 'utf8'), await resultsBlock(runDir)));
  console.log(`README.md results from ${relative(ROOT, runDir)}`);
}
