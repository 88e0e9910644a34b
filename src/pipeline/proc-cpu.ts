/**
 * CPU time of the run's other processes (the mock, PostgreSQL) from /proc (Linux): the service
 * demand law's CPU per request counts every process on the host that works for a request
 * (src/theory/cell-bounds.ts), and the load generator and the SUT measure their own.
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
  const root = stat(pid);
  if (root === null) return null;
  let ticks = root.utime + root.stime + root.cutime + root.cstime;
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  for (const p of pids) {
    const s = stat(Number(p));
    if (s !== null && s.ppid === pid) ticks += s.utime + s.stime;
  }
  return (ticks * 1000) / clockTicksPerS();
}
