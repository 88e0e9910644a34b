/** The kernel's CPU list format (cpuset(7) "cpulist"): pure parsing, shared by the host adapter and the bounds. */

/**
 * A CPU list (`0-2,5`, the kernel's cpulist format, cpuset(7)) as sorted, distinct CPU numbers.
 * @throws RangeError for a malformed list
 */
export function parseCpuList(list: string): number[] {
  const out = new Set<number>();
  for (const part of list.split(',')) {
    const m = /^\s*(\d+)(?:-(\d+))?\s*$/.exec(part);
    if (!m) throw new RangeError(`not a CPU list: ${JSON.stringify(list)} (expected e.g. 0-1,3)`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new RangeError(`not a CPU list: ${JSON.stringify(list)} (range ${a}-${b} runs backwards)`);
    for (let i = a; i <= b; i++) out.add(i);
  }
  return [...out].sort((x, y) => x - y);
}
