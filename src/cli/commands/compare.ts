/** `run.mjs compare <runA> <runB>`: run B against the baseline run A. */
import { resolve } from 'node:path';
import type { Study } from '../../types/study.ts';
import { EXIT } from '../../types/errors.ts';
import { checkWritable } from '../../adapters/host/prereq.ts';
import { loadRun } from '../../report/load.ts';
import { writeAll } from '../../report/write.ts';
import { compareRuns } from '../../report/compare/model.ts';
import { renderCompareHtml, renderCompareJson, renderCompareMd } from '../../report/compare/render.ts';
import type { Thresholds } from '../../report/thresholds/rules.ts';
import { checkCompare, enforce } from '../../report/thresholds/check.ts';
import type { Io } from '../common.ts';

/** What `compare` was given: the two run folders as typed, `--out` (null: none), `--json`, the loaded `--thresholds`. */
export interface CompareArgs {
  runA: string;
  runB: string;
  out: string | null;
  json: boolean;
  thresholds: Thresholds | null;
}

/**
 * `compare <runA> <runB>`: load both runs (read-only, every file validated), compare, print
 * Markdown (or one JSON line with --json), write the three files with --out, then check
 * --thresholds (the comparison is out before a broken rule ends the command with exit 9).
 */
export async function compareCommand({ runA, runB, out: outArg, json, thresholds }: CompareArgs, io: Io, studies: readonly Study[]): Promise<number> {
  const dirA = resolve(process.cwd(), runA);
  const dirB = resolve(process.cwd(), runB);
  const a = await loadRun(dirA, { studies });
  const b = await loadRun(dirB, { studies });
  const c = compareRuns(a, b);
  const outcomes = thresholds ? checkCompare(thresholds, c, b.summary) : null;
  if (outArg) {
    const out = resolve(process.cwd(), outArg);
    await checkWritable(out, 'out');
    const paths = await writeAll(out, [
      { path: 'compare.md', content: renderCompareMd(c) },
      { path: 'index.html', content: renderCompareHtml(c) },
      { path: 'compare.json', content: renderCompareJson(c) },
    ]);
    io.stderr.write(`comparison written: ${paths.join(', ')}\n`);
  }
  io.stdout.write(json ? JSON.stringify({ type: 'compare', ...c, thresholds: outcomes }) + '\n' : renderCompareMd(c));
  if (thresholds && outcomes) enforce(thresholds, outcomes, io.stderr, outArg ? 'the comparison is printed and written' : 'the comparison is printed');
  return EXIT.ok;
}
