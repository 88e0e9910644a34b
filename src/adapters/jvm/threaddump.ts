/**
 * Summarise a HotSpot JSON thread dump (HotSpotDiagnosticMXBean.dumpThreads(..., JSON), JDK 21+).
 * Shape (JDK 21–25): { threadDump: { threadContainers: [ { container, parent, owner,
 * threads: [ { tid, name, stack: string[], state?, virtual? } ], threadCount } ] } }.
 * `tid` and `threadCount` may be strings or numbers. Virtual threads sit under a
 * `ThreadPerTaskExecutor@…` container (JDK 25 also marks `virtual: true`). Pure.
 */
import type { ThreadDumpSummary } from '../../types/run.ts';
import { EXECUTOR_KIND_INFO, type ExecutorSpec } from '../../types/study.ts';

interface DumpThread { tid?: string | number; name?: string; stack?: string[]; state?: string; virtual?: boolean }
interface DumpContainer { container?: string; threads?: DumpThread[]; threadCount?: string | number }

/** Frames that mean "blocked reading a socket" (platform or virtual thread). */
const SOCKET_READ = /NioSocketImpl\.(implRead|read|park|timedRead)|SocketInputStream\.read|SocketDispatcher\.read|sun\.nio\.ch\.Net\.poll/;

/** Strip the trailing number of a thread name: `pool-12` -> `pool-`. */
export function namePrefix(name: string): string {
  return name.replace(/\d+$/, '') || '(unnamed)';
}

/** Top frame without the source location: `java.base/sun.nio.ch.Net.poll(Native Method)` -> `sun.nio.ch.Net.poll`. */
export function frameName(frame: string | undefined): string {
  if (!frame) return '(no stack)';
  return frame.replace(/\(.*\)$/, '').replace(/^[\w.$-]+\//, '');
}

/**
 * @param raw the dump's JSON text
 * @param file the file name it is stored under (relative to the run folder)
 * @param takenAtMs when it was taken, ms after the cell's t0
 * @param threadNamePrefix the cell's variant's thread-name prefix (Variant.threadNamePrefix): its
 *   platform threads in a socket read count as `inSocketRead.poolThreads`
 * @param executorKind the variant's executor kind: with one whose tasks run on virtual threads (EXECUTOR_KIND_INFO, `virtual-per-task`) a thread named with the
 *   prefix is virtual even where the dump does not say so (JDK 21–24 dumps carry no `virtual` field)
 * @throws Error if `raw` is not JSON of the expected shape
 */
export function summarizeThreadDump(raw: string, file: string, takenAtMs: number, threadNamePrefix: string, executorKind?: ExecutorSpec['kind']): ThreadDumpSummary {
  const doc = JSON.parse(raw) as { threadDump?: { threadContainers?: DumpContainer[] } };
  const containers = doc.threadDump?.threadContainers;
  if (!Array.isArray(containers)) throw new Error('thread dump JSON has no threadDump.threadContainers');
  const groups = new Map<string, ThreadDumpSummary['groups'][number]>();
  const inSocketRead = { poolThreads: 0, virtual: 0, other: 0 };
  let threadCount = 0;
  for (const c of containers) {
    const cname = c.container ?? '';
    const vtContainer = /ThreadPerTaskExecutor|VirtualThread/i.test(cname);
    for (const t of c.threads ?? []) {
      threadCount++;
      const name = t.name ?? '';
      const ours = threadNamePrefix !== '' && name.startsWith(threadNamePrefix);
      const virtual = t.virtual === true || vtContainer || (ours && executorKind !== undefined && EXECUTOR_KIND_INFO[executorKind].tasksOnVirtualThreads);
      const stack = t.stack ?? [];
      const state = t.state ?? (virtual ? 'VIRTUAL' : 'UNKNOWN');
      const top = frameName(stack[0]);
      const prefix = namePrefix(name);
      const key = `${prefix}|${virtual}|${state}|${top}`;
      const g = groups.get(key) ?? { namePrefix: prefix, virtual, state, topFrame: top, count: 0 };
      g.count++;
      groups.set(key, g);
      if (stack.some((f) => SOCKET_READ.test(f))) {
        if (virtual) inSocketRead.virtual++;
        else if (ours) inSocketRead.poolThreads++;
        else inSocketRead.other++;
      }
    }
  }
  const sorted = [...groups.values()].sort((a, b) => b.count - a.count || a.namePrefix.localeCompare(b.namePrefix) || a.topFrame.localeCompare(b.topFrame));
  return {
    file,
    takenAtMs,
    threadCount,
    groups: sorted,
    inSocketRead,
    containers: containers.map((c) => ({ name: c.container ?? '', threadCount: Number(c.threadCount ?? c.threads?.length ?? 0) })),
  };
}
