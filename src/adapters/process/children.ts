/**
 * Every process the run starts is registered here, by pid, and recorded in `<run>/pids.json`, so
 * that (1) Ctrl-C or an error stops each one, and (2) after a hard kill of the harness, `--resume`
 * stops the orphans it left, checking /proc/<pid>/cmdline first so a reused pid is never touched.
 */
import { readFileSync, existsSync } from 'node:fs';
import { writeJsonAtomic } from '../store/fsio.ts';

export interface ChildEntry {
  pid: number;
  role: string;
  /** a substring of /proc/<pid>/cmdline that identifies our process */
  marker: string;
  stop: () => Promise<void>;
}

export class ChildRegistry {
  private readonly children = new Map<number, ChildEntry>();
  constructor(private readonly pidsFile: string | null) {}

  add(entry: ChildEntry): void {
    this.children.set(entry.pid, entry);
    this.persist();
  }

  /**
   * Forget a stopped child. A pids.json that cannot be written then (a full disk) is not an error:
   * the stale entry is harmless, since `reapOrphans` checks /proc/<pid>/cmdline before it touches a
   * pid; this runs in the cleanup of a failed block, whose own error must not be replaced (issue 34).
   */
  remove(pid: number): void {
    this.children.delete(pid);
    this.persistQuietly();
  }

  /** Stop every registered child (in reverse start order), then forget them (a failing pids.json write as in `remove`). */
  async stopAll(): Promise<void> {
    const entries = [...this.children.values()].reverse();
    for (const e of entries) {
      try {
        await e.stop();
      } catch {
        killIfOurs(e.pid, e.marker, 'SIGKILL');
      }
      this.children.delete(e.pid);
    }
    this.persistQuietly();
  }

  /** Synchronous last resort (process 'exit' hook): SIGKILL whatever is still registered. */
  killAllSync(): void {
    for (const e of this.children.values()) killIfOurs(e.pid, e.marker, 'SIGKILL');
  }

  /** The last pids.json write that failed in `remove` or `stopAll` (null: none). */
  persistError: unknown = null;

  private persistQuietly(): void {
    try {
      this.persist();
    } catch (e) {
      this.persistError = e;
    }
  }

  private persist(): void {
    if (!this.pidsFile) return;
    writeJsonAtomic(this.pidsFile, [...this.children.values()].map(({ pid, role, marker }) => ({ pid, role, marker })));
  }
}

/** True when /proc/<pid>/cmdline exists and contains `marker`. */
export function isOurs(pid: number, marker: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').includes(marker);
  } catch {
    return false;
  }
}

export function killIfOurs(pid: number, marker: string, signal: NodeJS.Signals): boolean {
  if (!isOurs(pid, marker)) return false;
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stop the orphans listed in a pids file from an earlier, killed harness. Returns what was stopped.
 */
export async function reapOrphans(pidsFile: string): Promise<{ pid: number; role: string }[]> {
  if (!existsSync(pidsFile)) return [];
  let list: { pid: number; role: string; marker: string }[] = [];
  try {
    list = JSON.parse(readFileSync(pidsFile, 'utf8'));
  } catch {
    return [];
  }
  const stopped: { pid: number; role: string }[] = [];
  for (const e of list) {
    if (killIfOurs(e.pid, e.marker, 'SIGTERM')) stopped.push({ pid: e.pid, role: e.role });
  }
  const deadline = Date.now() + 10_000;
  while (stopped.some((s) => isOurs(s.pid, list.find((e) => e.pid === s.pid)!.marker)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const s of stopped) killIfOurs(s.pid, list.find((e) => e.pid === s.pid)!.marker, 'SIGKILL');
  writeJsonAtomic(pidsFile, []);
  return stopped;
}
