/**
 * `npm run readme:results`: rewrite the front page report/index.{md,html} and README.md's Results
 * section from the committed reports (every report/<id>/meta.json). Both are the same table
 * (src/report/front-page.ts: each run's answer line, study, host, date and link), so the README and
 * the front page cannot disagree; a test checks the README's section is what this writes.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFrontEntries, readmeResultsBlock, replaceResults } from '../report/front-page.ts';
import { renderIndex } from '../report/index.ts';
import { writeAtomic } from '../report/write.ts';
import { STUDIES } from '../studies/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The README's Results block for the reports under `reportRoot` (default: the committed report/). */
export async function resultsBlock(reportRoot: string = join(ROOT, 'report')): Promise<string> {
  return readmeResultsBlock(await readFrontEntries(reportRoot, STUDIES));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const reportRoot = join(ROOT, 'report');
  await renderIndex(reportRoot, STUDIES);
  const readmePath = join(ROOT, 'README.md');
  await writeAtomic(readmePath, replaceResults(readFileSync(readmePath, 'utf8'), await resultsBlock(reportRoot)));
  console.log('report/index.md, report/index.html and README.md (Results) from report/*/meta.json');
}
