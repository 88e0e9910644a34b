/** Host facts for the manifest and whole-host CPU sampling from /proc/stat (Linux). */
import os from 'node:os';
import { readFileSync } from 'node:fs';
import type { HostInfo } from '../../types/run.ts';

export function hostInfo(): HostInfo {
  const cpus = os.cpus();
  return {
    os: `${os.type()} ${os.release()}`,
    kernel: os.version(),
    arch: os.arch(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    memoryBytes: os.totalmem(),
  };
}

export interface CpuTicks { busy: number; total: number }

/** Aggregate CPU ticks from /proc/stat; null where unavailable. */
export function readCpuTicks(): CpuTicks | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = (f[3] ?? 0) + (f[4] ?? 0);
    const total = f.slice(0, 8).reduce((s, x) => s + x, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** Host CPU busy % (0..100, all cores) between two readings; null if not computable. */
export function hostCpuPct(a: CpuTicks | null, b: CpuTicks | null): number | null {
  if (!a || !b || b.total <= a.total) return null;
  return (100 * (b.busy - a.busy)) / (b.total - a.total);
}
