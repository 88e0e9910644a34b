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
 *
 * Timers run only in the event loop's timers phase, and one poll phase can read a burst of
 * hundreds of arrivals first (libuv hands all ready sockets over at once, ~50–100 µs of parsing
 * each): answers due meanwhile would wait for the whole burst. `runDue()` drains the buckets whose
 * whole millisecond has passed, so the server calls it on each arrival and due answers go out
 * between the arrivals' work (a min-heap of bucket ticks finds them in O(log buckets)).
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
  /** bucket ticks, a binary min-heap; may hold ticks of buckets already run (dropped when reached) */
  private readonly ticks: number[] = [];
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
      this.pushTick(tick);
      const delay = Math.max(1, Math.ceil(tick - this.clock.now()));
      this.timersStarted++;
      this.clock.setTimer(() => this.fire(tick), delay);
    }
    bucket.push(item);
    this.size++;
  }

  /**
   * Runs, now, the items of every bucket whose whole millisecond has passed (tick <= now), in tick
   * order; items of later buckets wait for their timers. Cheap when nothing is due (one clock read,
   * one comparison), so it can be called on every arrival.
   */
  runDue(): void {
    const ticks = this.ticks;
    if (ticks.length === 0) return;
    const now = this.clock.now();
    while (ticks.length > 0 && (ticks[0] as number) <= now) {
      const tick = this.popTick();
      this.fire(tick);
    }
  }

  private fire(tick: number): void {
    const bucket = this.buckets.get(tick);
    if (bucket === undefined) {
      this.dropRunTicks();
      return;
    }
    this.buckets.delete(tick);
    this.dropRunTicks();
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

  /** Drops heap entries of buckets that already ran (a timer ran them), so the heap stays as small as the wheel. */
  private dropRunTicks(): void {
    const ticks = this.ticks;
    while (ticks.length > 0 && !this.buckets.has(ticks[0] as number)) this.popTick();
  }

  private pushTick(tick: number): void {
    const h = this.ticks;
    let i = h.length;
    h.push(tick);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((h[parent] as number) <= tick) break;
      h[i] = h[parent] as number;
      i = parent;
    }
    h[i] = tick;
  }

  private popTick(): number {
    const h = this.ticks;
    const top = h[0] as number;
    const last = h.pop() as number;
    const n = h.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && (h[r] as number) < (h[l] as number) ? r : l;
        if ((h[c] as number) >= last) break;
        h[i] = h[c] as number;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}
