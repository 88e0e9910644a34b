/** Host facts for the manifest and whole-host CPU sampling from /proc/stat (Linux). */
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CgroupLimits, HostInfo } from '../../types/run.ts';
import type { RunCpuReading } from '../../compute/analysis/other-cpu.ts';
import { processTreeTicks } from '../process/proc-cpu.ts';
import { parseCpuList } from '../../compute/cpu-list.ts';

export { parseCpuList };

/** The host's facts (os, CPUs, memory, cgroup limits, clock source); `sys` is the root of /sys (tests pass a folder). */
export function hostInfo(sys = '/sys'): HostInfo {
  const cpus = os.cpus();
  return {
    os: `${os.type()} ${os.release()}`,
    kernel: os.version(),
    arch: os.arch(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryBytes: os.totalmem(),
    cgroup: readCgroupLimits(join(sys, 'fs/cgroup')),
    clockSource: readTrimmed(join(sys, 'devices/system/clocksource/clocksource0/current_clocksource')),
  };
}

function readTrimmed(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/** A memory limit as read (v2 `max`, v1 a number near 2^63 for none) in bytes; null = no limit or unreadable. */
export function parseMemoryLimit(text: string | null): number | null {
  if (text === null || text === 'max') return null;
  const n = Number(text);
  // v1 writes PAGE_COUNTER_MAX × page size (9223372036854771712 with 4 KiB pages) for "no limit"
  return Number.isFinite(n) && n > 0 && n < 2 ** 62 ? n : null;
}

/** v2 `cpu.max` (`<quota|max> <period>`) → quota and period, µs; nulls when `max` or malformed. */
export function parseCpuMax(text: string | null): { quotaUs: number | null; periodUs: number | null } {
  const m = /^(max|\d+)\s+(\d+)$/.exec(text ?? '');
  if (!m || m[1] === 'max') return { quotaUs: null, periodUs: m ? Number(m[2]) : null };
  return { quotaUs: Number(m[1]), periodUs: Number(m[2]) };
}

/**
 * The cgroup's CPU quota and memory limit under `root` (the cgroup mount, /sys/fs/cgroup): v2 when
 * `cpu.max` or `memory.max` is there, else v1's `cpu/` and `memory/` controllers; `version` null when
 * neither could be read. Never throws.
 */
export function readCgroupLimits(root: string): CgroupLimits {
  const cpuMax = readTrimmed(join(root, 'cpu.max'));
  const memMax = readTrimmed(join(root, 'memory.max'));
  let version: 1 | 2 | null = null;
  let quota: { quotaUs: number | null; periodUs: number | null };
  let mem: string | null;
  if (cpuMax !== null || memMax !== null) {
    version = 2;
    quota = parseCpuMax(cpuMax);
    mem = memMax;
  } else {
    const q = readTrimmed(join(root, 'cpu/cpu.cfs_quota_us'));
    const p = readTrimmed(join(root, 'cpu/cpu.cfs_period_us'));
    mem = readTrimmed(join(root, 'memory/memory.limit_in_bytes'));
    if (q !== null || mem !== null) version = 1;
    const qn = Number(q);
    quota = { quotaUs: q !== null && Number.isFinite(qn) && qn > 0 ? qn : null, periodUs: p !== null && Number(p) > 0 ? Number(p) : null };
  }
  const cpuQuotaCores = quota.quotaUs !== null && quota.periodUs !== null ? quota.quotaUs / quota.periodUs : null;
  return { version, cpuQuotaCores, cpuQuotaUs: cpuQuotaCores === null ? null : quota.quotaUs, cpuPeriodUs: cpuQuotaCores === null ? null : quota.periodUs, memoryLimitBytes: parseMemoryLimit(mem) };
}

/** `Cpus_allowed_list` of a /proc/<pid>/status text (e.g. `0-1`, `1,3-4`); null when absent. */
export function parseCpusAllowed(statusText: string): string | null {
  const m = /^Cpus_allowed_list:\s*(\S+)\s*$/m.exec(statusText);
  return m ? m[1]! : null;
}

/** The CPUs process `pid` may run on (/proc/<pid>/status Cpus_allowed_list); null when unreadable. */
export function cpusAllowedOf(pid: number, proc = '/proc'): string | null {
  const text = readTrimmed(join(proc, String(pid), 'status'));
  return text === null ? null : parseCpusAllowed(text);
}

export interface CpuTicks { busy: number; total: number }

/** Parse the aggregate `cpu` line of a /proc/stat text into busy and total ticks (USER_HZ); null if absent. */
export function parseProcStat(text: string): CpuTicks | null {
  const line = text.split('\n')[0] ?? '';
  if (!/^cpu\s/.test(line)) return null;
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  const total = f.slice(0, 8).reduce((s, x) => s + x, 0);
  return Number.isFinite(total) ? { busy: total - idle, total } : null;
}

/** Aggregate CPU ticks from /proc/stat (`proc`: the root of /proc; tests pass a folder); null where unavailable. */
export function readCpuTicks(proc = '/proc'): CpuTicks | null {
  try {
    return parseProcStat(readFileSync(join(proc, 'stat'), 'utf8'));
  } catch {
    return null;
  }
}

/** Host CPU busy % (0..100, all cores) between two readings; null if not computable. */
export function hostCpuPct(a: CpuTicks | null, b: CpuTicks | null): number | null {
  if (!a || !b || b.total <= a.total) return null;
  return (100 * (b.busy - a.busy)) / (b.total - a.total);
}

/**
 * The machine's CPU ticks and the ticks of process `root` (this harness by default) with every
 * process below it, read together (src/compute/analysis/other-cpu.ts otherCpuShare takes two of
 * these); `proc` is the root of /proc (tests pass a folder). Null when /proc/stat is unreadable.
 */
export function readRunCpu(root = process.pid, proc = '/proc'): RunCpuReading | null {
  const t = readCpuTicks(proc);
  if (t === null) return null;
  return { busyTicks: t.busy, totalTicks: t.total, ownTicks: processTreeTicks(root, proc) };
}
