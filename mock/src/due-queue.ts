/**
 * A timing wheel of one-millisecond buckets: work items due at an hrtime instant are grouped by the
 * whole millisecond they are due in, and each bucket has ONE Node timer, however many items it
 * holds. With 10,000 held answers spread over a second that is about 1,000 timers instead of
 * 10,000 (each Node timer is an object on a list, plus a promise when awaited).
 *
 * Never early: Node's timers compare against libuv's loop time, which is cached at the start of a
 * loop iteration, so a timer can fire up to about a millisecond (more under load) before its hrtime
 * target. Items of a fired bucket that are not yet due by `now()` go back into the bucket of their
 * due millisecond (a fresh 1 ms timer), so an item runs at or after its due instant, never before.
 * Within a bucket items run in the order they were added.
 */

/** Something to run once its due instant has passed; `dueMs` is on the `now()` clock. */
export interface DueItem {
  dueMs: number;
  run(nowMs: number): void;
}

/** The clock and timer of a DueQueue (injectable, so tests can drive it by hand). */
export interface DueClock {
  /** monotonic ms (fractional) */
  now(): number;
  /** run `fn` after about `delayMs` whole ms (>= 1) */
  setTimer(fn: () => void, delayMs: number): void;
}

/** Monotonic ms from `process.hrtime`, and plain Node timers. */
export const NODE_CLOCK: DueClock = {
  now: () => Number(process.hrtime.bigint()) / 1e6,
  setTimer: (fn, delayMs) => {
    setTimeout(fn, delayMs);
  },
};

export class DueQueue {
  private readonly buckets = new Map<number, DueItem[]>();
  /** items queued and not yet run */
  size = 0;
  /** Node timers started so far (one per bucket, plus top-ups); for tests and diagnostics */
  timersStarted = 0;

  constructor(private readonly clock: DueClock = NODE_CLOCK) {}

  /** Queue `item` to run at or after `item.dueMs`. An item already due still waits for the next timer tick (>= 1 ms), never runs synchronously. */
  add(item: DueItem): void {
    const tick = Math.ceil(item.dueMs);
    let bucket = this.buckets.get(tick);
    if (bucket === undefined) {
      bucket = [];
      this.buckets.set(tick, bucket);
      const delay = Math.max(1, Math.ceil(tick - this.clock.now()));
      this.timersStarted++;
      this.clock.setTimer(() => this.fire(tick), delay);
    }
    bucket.push(item);
    this.size++;
  }

  private fire(tick: number): void {
    const bucket = this.buckets.get(tick);
    if (bucket === undefined) return;
    this.buckets.delete(tick);
    let now = this.clock.now();
    for (let i = 0; i < bucket.length; i++) {
      const item = bucket[i] as DueItem;
      if (item.dueMs > now) now = this.clock.now(); // earlier items took time: read the clock again before deferring
      if (item.dueMs > now) {
        this.size--;
        this.add(item); // the timer fired early: wait for the item's own millisecond
        continue;
      }
      this.size--;
      item.run(now);
    }
  }
}
