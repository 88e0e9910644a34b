/**
 * CPU time of the run's other processes (the mock, PostgreSQL) from /proc (Linux): the service
 * demand law's CPU per request counts every process on the host that works for a request
 * (src/compute/theory/cell-bounds.ts), and the load generator and the SUT measure their own.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

let ticksPerS: number | null = null;

/** The kernel's clock ticks per second (`getconf CLK_TCK`, 100 on Linux when unreadable). */
export function clockTicksPerS(): number {
  if (ticksPerS === null) {
    try {
      ticksPerS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerS = 100;
    }
  }
  return ticksPerS;
}

/**
 * The fields of one `/proc/<pid>/stat` line after the command name: state is field 3, ppid 4,
 * utime 14, stime 15, cutime 16, cstime 17 (proc(5)); the name may hold spaces and parentheses, so
 * the line is split after its last `)`. Null for an unreadable line.
 */
export function parseStat(line: string): { ppid: number; utime: number; stime: number; cutime: number; cstime: number } | null {
  const end = line.lastIndexOf(')');
  if (end < 0) return null;
  const f = line.slice(end + 2).trim().split(/\s+/); // f[0] = state (field 3)
  const n = (i: number) => Number(f[i - 3]);
  const out = { ppid: n(4), utime: n(14), stime: n(15), cutime: n(16), cstime: n(17) };
  return Object.values(out).every(Number.isFinite) ? out : null;
}

function stat(pid: number): ReturnType<typeof parseStat> {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * CPU time of a process and its live children, ms: its own user + system time, the time of its
 * children that ended and were waited for (cutime + cstime: a PostgreSQL backend that exits moves
 * its time there), and the user + system time of its children still running (PostgreSQL's
 * backends, one per connection). Null when the process is gone or /proc is unreadable.
 * Resolution: one clock tick (10 ms at 100 Hz) per process.
 */
export function processTreeCpuMs(pid: number): number | null {
  return new ProcessTreeCpu(pid).readMs();
}

/**
 * processTreeCpuMs of one process, read repeatedly (a sampler's timer): the same sum, but each pid
 * of /proc is classified (child of the root or not) once while it lives, so a read costs one
 * directory listing plus the `stat` of the root and its children, not of every process on the host.
 * A pid that leaves /proc is forgotten (a reused pid is classified again). Not thread-safe; cheap
 * enough for a 250 ms timer (about 40 µs per process read).
 */
export class ProcessTreeCpu {
  /** pid → whether it is a child of the root (as read when it was first seen) */
  private readonly known = new Map<number, boolean>();

  constructor(readonly pid: number) {}

  /** The tree's CPU so far, ms (see processTreeCpuMs); null when the root is gone or /proc is unreadable. */
  readMs(): number | null {
    const root = stat(this.pid);
    if (root === null) return null;
    let ticks = root.utime + root.stime + root.cutime + root.cstime;
    let pids: number[];
    try {
      pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
    } catch {
      return null;
    }
    const live = new Set(pids);
    for (const p of this.known.keys()) if (!live.has(p)) this.known.delete(p);
    for (const p of pids) {
      const isChild = this.known.get(p);
      if (isChild === false) continue;
      const s = stat(p);
      if (s === null) continue;
      if (isChild === undefined) this.known.set(p, s.ppid === this.pid);
      if (s.ppid === this.pid) ticks += s.utime + s.stime;
    }
    return (ticks * 1000) / clockTicksPerS();
  }
}

/**
 * CPU time of process `root` and every process below it (children, their children: the SUT JVMs,
 * the mock, PostgreSQL and its backends, load shards), in clock ticks (USER_HZ, the unit of
 * /proc/stat): each one's utime + stime + cutime + cstime (the last two hold the time of its children
 * that ended and were waited for, so a backend that exits mid-cell keeps counting). Reads every
 * /proc/<pid>/stat once (`proc`: the root of /proc; tests pass a folder). Null when the root is gone
 * or /proc is unreadable.
 */
export function processTreeTicks(root: number, proc = '/proc'): number | null {
  let names: string[];
  try {
    names = readdirSync(proc).filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  const children = new Map<number, number[]>();
  const ticks = new Map<number, number>();
  for (const d of names) {
    let s: ReturnType<typeof parseStat>;
    try {
      s = parseStat(readFileSync(`${proc}/${d}/stat`, 'utf8'));
    } catch {
      continue; // ended while listed
    }
    if (s === null) continue;
    const pid = Number(d);
    ticks.set(pid, s.utime + s.stime + s.cutime + s.cstime);
    const kids = children.get(s.ppid);
    if (kids) kids.push(pid);
    else children.set(s.ppid, [pid]);
  }
  if (!ticks.has(root)) return null;
  let sum = 0;
  const stack = [root];
  const seen = new Set<number>();
  while (stack.length > 0) {
    const p = stack.pop()!;
    if (seen.has(p)) continue;
    seen.add(p);
    sum += ticks.get(p) ?? 0;
    for (const c of children.get(p) ?? []) stack.push(c);
  }
  return sum;
}
