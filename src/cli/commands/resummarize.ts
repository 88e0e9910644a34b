/** `run.mjs resummarize <runDir>`: re-derive a run's cell summaries and flags from its raw records. */
import { resolve } from 'node:path';
import { VtbenchError, EXIT } from '../../types/errors.ts';
import { RunStore } from '../../adapters/store/run-store.ts';
import { resummarizeRun } from '../../pipeline/resummarize.ts';
import { liveOwner } from '../run-folder.ts';
import type { Io } from '../common.ts';

/**
 * Re-derive every valid cell's summary and flags and the run's summary.json; damaged cells are
 * skipped and named on stderr.
 * @throws VtbenchError(EXIT.runData) when the folder is no run or a harness still writes it
 */
export function resummarizeCommand(runDir: string, io: Io): number {
  const dir = resolve(process.cwd(), runDir);
  if (!new RunStore(dir).exists()) throw new VtbenchError(`resummarize: no run folder ${dir} with a manifest.json`, 'name a run folder (your runs are under out/runs/, the committed reference runs under runs/)', EXIT.runData);
  if (liveOwner(dir) !== null) throw new VtbenchError(`resummarize: run ${dir} is still in progress`, 'wait until it ends', EXIT.runData);
  const damaged = new RunStore(dir).damagedCells();
  for (const d of damaged) io.stderr.write(`skipped damaged cell ${d.cellId}: ${d.problems.join('; ')}\n`);
  const ids = resummarizeRun(dir);
  io.stdout.write(`re-derived ${ids.length} cell(s) and summary.json of ${dir}${damaged.length ? ` (${damaged.length} damaged cell(s) skipped; --resume measures them again)` : ''}\n`);
  return 0;
}
