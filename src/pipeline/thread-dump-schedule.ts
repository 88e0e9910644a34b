/**
 * The mid-load thread dump of a cell (the highest level's cell of a block, runCell in run.ts): asked
 * for at the middle of the cell's planned duration, cancelled when the load ends first, and waited
 * for at most a bounded time after the load. Neither holds a timer once it is settled, so a finished
 * run leaves no handle that keeps the process alive.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** A thread dump as taken: the SUT's raw text and when it was asked for, in ms after the cell's wall start. */
export interface TakenDump {
  raw: string;
  atMs: number;
}

/** A scheduled dump: `taken` settles with the dump, or null; `cancel` stops it if not yet asked for. */
export interface ScheduledDump {
  /** the dump; null when it failed, or when `cancel` came before it was asked for (then at once). Never rejects. */
  taken: Promise<TakenDump | null>;
  /** before the dump's time: clears its timer and resolves `taken` to null at once; after it: nothing (the dump asked for is still awaited) */
  cancel(): void;
}

/**
 * Asks `getDump()` for a thread dump `afterMs` after `wallStart` (epoch ms; `afterMs` is measured
 * from now, the caller passing half the cell's planned duration). A load that ends before that
 * takes none: `cancel()` then resolves `taken` to null at once, not after the wait of {@link awaitDump}.
 */
export function scheduleDump(getDump: () => Promise<string>, wallStart: number, afterMs: number): ScheduledDump {
  let timer: NodeJS.Timeout | null = null;
  let notAsked = (): void => {};
  const taken = new Promise<TakenDump | null>((resolve) => {
    notAsked = () => resolve(null);
    timer = setTimeout(() => {
      timer = null;
      notAsked = () => {};
      const atMs = Date.now() - wallStart;
      getDump().then((raw) => resolve({ raw, atMs }), () => resolve(null));
    }, afterMs);
  });
  return {
    taken,
    cancel: () => {
      if (timer) clearTimeout(timer);
      timer = null;
      notAsked();
    },
  };
}

/**
 * The scheduled dump, or null when it has not come within `limitMs` (runCell: 10 s after the load
 * and its checks). The limit's timer is cleared as soon as the dump is in, so it keeps no process open.
 */
export async function awaitDump(dump: ScheduledDump, limitMs: number): Promise<TakenDump | null> {
  const limit = new AbortController();
  try {
    return await Promise.race([dump.taken, sleep(limitMs, null, { signal: limit.signal })]);
  } finally {
    limit.abort();
  }
}
