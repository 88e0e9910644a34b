/**
 * `npm run compact-run -- runs/<id> [runs/<id> …]` (or `node --import tsx src/cli/compact-run.ts …`):
 * rewrite each run's per-request files in the encoded layout, each verified to read back identical before
 * it replaces the old file (src/adapters/store/compact-run.ts). Prints one line per file and the totals.
 * Exit code 1 when a file's round trip differed (that file is left as it was), 0 otherwise.
 */
import { fileURLToPath } from 'node:url';
import { compactRun, type CompactedFile } from '../adapters/store/compact-run.ts';

const mb = (b: number): string => `${(b / 1e6).toFixed(2)} MB`;

/** Compact the given run folders, printing to `out`; returns the exit code. */
export function main(dirs: readonly string[], out: (line: string) => void): number {
  if (dirs.length === 0) {
    out('usage: npm run compact-run -- <runDir> [<runDir> …]');
    return 2;
  }
  let failed = 0;
  for (const dir of dirs) {
    const files = compactRun(dir, (f: CompactedFile) => out(`${f.file}: ${f.outcome}, ${mb(f.beforeBytes)} -> ${mb(f.afterBytes)}${f.difference ? ` (${f.difference})` : ''}`));
    const before = files.reduce((s, f) => s + f.beforeBytes, 0);
    const after = files.reduce((s, f) => s + f.afterBytes, 0);
    failed += files.filter((f) => f.outcome === 'round trip differs').length;
    out(`${dir}: ${files.length} requests files, ${mb(before)} -> ${mb(after)}`);
  }
  return failed > 0 ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2), (l) => console.log(l));
}
