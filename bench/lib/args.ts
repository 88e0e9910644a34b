/** Shared argument helpers of the benchmarks: one-line errors naming the flag, exit 2. */

/** Print `bench:<name>: <message>` on stderr and exit 2. */
export function failWith(bench: string, message: string): never {
  process.stderr.write(`bench:${bench}: ${message}\n`);
  process.exit(2);
}

/** Parse a whole number >= 1 or exit naming the flag. */
export function positiveIntOf(bench: string, flag: string, raw: string): number {
  const v = Number(raw);
  if (!Number.isInteger(v) || v < 1) failWith(bench, `--${flag} must be an integer >= 1 (got "${raw}")`);
  return v;
}
