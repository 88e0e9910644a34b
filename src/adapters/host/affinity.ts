/**
 * CPU isolation (`--isolate-cpus`, issue 33 item 2): the SUT JVM on one CPU set, the harness (this
 * process: the load generator; the mock and PostgreSQL inherit its CPUs) on a disjoint one, so the
 * harness's own CPU does not lower the SUT's ceiling in CPU-bound cells. Set with `taskset`
 * (util-linux, sched_setaffinity(2)): a prefix on the SUT's command (`taskset -c <cpus> java …`,
 * which execs java: same pid) and `taskset -a -p -c` on this process's threads.
 */
import { execFileSync } from 'node:child_process';
import type { CpuIsolation } from '../../types/run.ts';
import { VtbenchError, EXIT } from '../../types/errors.ts';
import { cpusAllowedOf, parseCpuList } from './host.ts';

/** The CPUs this process may run on (its Cpus_allowed_list), sorted; null when /proc is unreadable. */
export function allowedCpus(pid = process.pid): number[] | null {
  const list = cpusAllowedOf(pid);
  return list === null ? null : parseCpuList(list);
}

/** A sorted CPU list back in the kernel's cpulist format (`0-2,5`). */
export function formatCpuList(cpus: readonly number[]): string {
  const out: string[] = [];
  let i = 0;
  while (i < cpus.length) {
    let j = i;
    while (j + 1 < cpus.length && cpus[j + 1] === cpus[j]! + 1) j++;
    out.push(j === i ? String(cpus[i]) : `${cpus[i]}-${cpus[j]}`);
    i = j + 1;
  }
  return out.join(',');
}

function refuse(message: string, hint: string): VtbenchError {
  return new VtbenchError(`--isolate-cpus: ${message}`, hint, EXIT.usage);
}

/**
 * `--isolate-cpus <spec>` against the CPUs this process may use (`available`, sorted):
 * - `off`: no isolation (undefined);
 * - `auto`: the harness on the lower half of the CPUs (rounded down, at least one), the SUT on the
 *   rest (2 CPUs: harness 0, SUT 1);
 * - `<sut>/<harness>`, two cpulists (e.g. `1/0`, `2-3/0-1`): as given.
 * @throws VtbenchError(EXIT.usage) when fewer than 2 CPUs are available, a list is malformed or
 *   empty, the sets overlap, or a CPU is not one this process may use
 */
export function isolationOf(spec: string, available: readonly number[] | null): CpuIsolation | undefined {
  const s = spec.trim();
  if (s === 'off') return undefined;
  if (available === null) throw refuse('the CPUs this process may use are unknown (/proc/self/status unreadable)', 'run without --isolate-cpus, or on Linux with /proc mounted');
  const have = formatCpuList(available);
  if (available.length < 2) {
    throw refuse(`needs at least 2 CPUs (one for the SUT, one for the harness); this process may use ${available.length} (CPUs ${have || 'none'})`, 'run without --isolate-cpus (the default), or on a machine or container with more CPUs');
  }
  if (s === 'auto') {
    const h = Math.max(1, Math.floor(available.length / 2));
    return { sutCpus: formatCpuList(available.slice(h)), harnessCpus: formatCpuList(available.slice(0, h)) };
  }
  const m = /^([^/]+)\/([^/]+)$/.exec(s);
  if (!m) throw refuse(`'${spec}' is not off, auto or <sut cpus>/<harness cpus>`, `e.g. --isolate-cpus auto, or --isolate-cpus ${formatCpuList(available.slice(1))}/${available[0]} (CPUs here: ${have})`);
  let sut: number[];
  let harness: number[];
  try {
    sut = parseCpuList(m[1]!);
    harness = parseCpuList(m[2]!);
  } catch (e) {
    throw refuse((e as Error).message, `give two CPU lists such as 1/0 or 2-3/0-1 (CPUs here: ${have})`);
  }
  const both = sut.filter((c) => harness.includes(c));
  if (both.length > 0) throw refuse(`CPU(s) ${formatCpuList(both)} are in both sets`, 'give the SUT and the harness disjoint CPU sets');
  const foreign = [...sut, ...harness].filter((c) => !available.includes(c));
  if (foreign.length > 0) throw refuse(`CPU(s) ${formatCpuList([...new Set(foreign)].sort((a, b) => a - b))} are not ones this process may use (CPUs ${have})`, `choose from CPUs ${have}`);
  return { sutCpus: formatCpuList(sut), harnessCpus: formatCpuList(harness) };
}

/** The command that runs `cmd args` on `cpus` (`taskset -c <cpus> cmd args`); unchanged without CPUs. */
export function withAffinity(cmd: string, args: readonly string[], cpus: string | undefined): { cmd: string; args: string[] } {
  return cpus === undefined ? { cmd, args: [...args] } : { cmd: 'taskset', args: ['-c', cpus, cmd, ...args] };
}

/**
 * Sets the CPUs every thread of process `pid` may run on (`taskset -a -p -c <cpus> <pid>`); threads
 * and children it creates afterwards inherit them.
 * @throws VtbenchError(EXIT.prerequisite) when taskset is missing or refuses
 */
export function setProcessAffinity(pid: number, cpus: string): void {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: Buffer };
    const why = err.code === 'ENOENT' ? 'taskset is not installed' : (err.stderr?.toString().trim() || err.message);
    throw new VtbenchError(`--isolate-cpus: could not set the CPUs of process ${pid} to ${cpus}: ${why}`, 'install util-linux (it provides taskset), or run without --isolate-cpus', EXIT.prerequisite);
  }
}
