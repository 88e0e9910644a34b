/** `run.mjs compare <runA> <runB>`: run B against the baseline run A (two study runs, or two `target` runs: src/report/compare/target.ts). */
import { join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import type { Study } from '../../types/study.ts';
import { EXIT, VtbenchError } from '../../types/errors.ts';
import { checkWritable } from '../../adapters/host/prereq.ts';
import { loadRun } from '../../report/load.ts';
import { writeAll } from '../../report/write.ts';
import { compareRuns, parseMinEffect, type Comparison } from '../../report/compare/model.ts';
import { compareTargetRuns } from '../../report/compare/target.ts';
import { isTargetRunDir, readTargetRun } from '../../report/target/load.ts';
import { checkTargetCompare, checkTargetRules } from '../../report/thresholds/target.ts';
import { parseAllowDiff } from '../../report/compare/guard.ts';
import { renderCompareHtml, renderCompareJson, renderCompareMd } from '../../report/compare/render.ts';
import type { Thresholds } from '../../report/thresholds/rules.ts';
import { checkCompare, enforce, type RuleOutcome } from '../../report/thresholds/check.ts';
import type { Io } from '../common.ts';

/** What `compare` was given: the two run folders as typed, `--out` (null: none), `--json`, the loaded `--thresholds`, `--allow-diff` and `--min-effect` as typed (null: not given). */
export interface CompareArgs {
  runA: string;
  runB: string;
  out: string | null;
  json: boolean;
  thresholds: Thresholds | null;
  allowDiff?: string | null;
  minEffect?: string | null;
}

/**
 * `compare <runA> <runB>`: load both runs (read-only, every file validated), compare, print
 * Markdown (or one JSON line with --json), write the three files with --out, then check
 * --thresholds (the comparison is out before a rule ends the command with exit 9, 10 or 11).
 * @throws VtbenchError(EXIT.usage) for a bad --allow-diff or --min-effect (before any run is read);
 *   VtbenchError(EXIT.notComparable) after printing, when the runs differ in a guarded setting not allowed
 */
export async function compareCommand({ runA, runB, out: outArg, json, thresholds, allowDiff, minEffect }: CompareArgs, io: Io, studies: readonly Study[]): Promise<number> {
  const allow = allowDiff == null ? [] : parseAllowDiff(allowDiff);
  const minEffectPct = minEffect == null ? undefined : parseMinEffect(minEffect);
  const dirA = resolve(process.cwd(), runA);
  const dirB = resolve(process.cwd(), runB);
  const opts = { allowDiff: allow, ...(minEffectPct === undefined ? {} : { minEffectPct }) };
  const targets = [isTargetRunDir(dirA), isTargetRunDir(dirB)];
  // a folder without a manifest (a mistyped path) is not "a study's run": its reader names what is missing
  const hasManifest = (d: string): boolean => existsSync(join(d, 'manifest.json'));
  if (targets[0] !== targets[1] && hasManifest(dirA) && hasManifest(dirB)) {
    throw new VtbenchError(`${targets[0] ? runA : runB} is a run of \`target\` (your own service) and ${targets[0] ? runB : runA} a study's run`, 'compare a target run with another target run of the same service (or two study runs)', EXIT.usage);
  }
  let c: Comparison;
  let outcomes: RuleOutcome[] | null;
  if (targets[0] || targets[1]) {
    for (const d of [dirA, dirB]) if (!hasManifest(d)) throw new VtbenchError(`run folder not found: ${d} (no manifest.json)`, 'pass the folder of another target run, e.g. `npx zx run.mjs compare out/runs/<id A> out/runs/<id B>`', EXIT.usage);
    if (thresholds) checkTargetRules(thresholds);
    const a = await readTargetRun(dirA);
    const b = await readTargetRun(dirB);
    c = compareTargetRuns(a, b, opts);
    outcomes = thresholds ? checkTargetCompare(thresholds, c, b) : null;
  } else {
    const a = await loadRun(dirA, { studies });
    const b = await loadRun(dirB, { studies });
    c = compareRuns(a, b, opts);
    outcomes = thresholds ? checkCompare(thresholds, c, b) : null;
  }
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
  const after = outArg ? 'the comparison is printed and written' : 'the comparison is printed';
  if (thresholds && outcomes) enforce(thresholds, outcomes, io.stderr, after);
  if (!c.comparable) {
    const blocking = c.guard.filter((d) => !d.allowed);
    throw new VtbenchError(
      `not comparable: the runs differ in ${blocking.map((d) => d.text).join('; ')}`,
      `${after} (every verdict "not comparable"); compare runs measured alike, or name what may differ: --allow-diff ${[...new Set(blocking.map((d) => d.kind))].join(',')}`,
      EXIT.notComparable);
  }
  return EXIT.ok;
}
