/**
 * The floor under our generator's CPU per request (bench:capacity, issue 20): the same undici
 * `Client`s (one connection each, pipelining 1, the same timeouts as src/load/run.ts) sending the
 * same request back to back with a do-nothing dispatch handler — no clock read, no Server-Timing
 * scan, no record, no summary. What this costs per request is undici's own work (plus Node's
 * sockets and the kernel); our generator cannot spend less than it while it sends through undici,
 * so `floor CPU per request / autocannon's` is the best CPU ratio this design can reach.
 */
import { Client, type Dispatcher } from 'undici';

export interface FloorResult {
  /** 2xx answers completed before the deadline */
  ok: number;
  /** non-2xx answers and failed requests */
  errors: number;
  /** wall time from the first send to the last completion, s */
  durationS: number;
}

/** One connection's loop: a reusable handler that only counts, and sends the next request from a microtask (as run.ts does). */
class FloorWorker implements Dispatcher.DispatchHandler {
  private status = 0;
  private readonly next = () => this.send();

  constructor(
    private readonly client: Client,
    private readonly opts: Dispatcher.DispatchOptions,
    private readonly deadlineMs: number,
    private readonly tally: { ok: number; errors: number },
    private readonly done: () => void,
  ) {}

  send(): void {
    if (performance.now() >= this.deadlineMs) {
      this.done();
      return;
    }
    this.client.dispatch(this.opts, this);
  }

  onConnect(): void {}
  onHeaders(statusCode: number): boolean {
    this.status = statusCode;
    return true;
  }
  onData(): boolean {
    return true;
  }
  onComplete(): void {
    if (this.status >= 200 && this.status < 300) this.tally.ok++;
    else this.tally.errors++;
    queueMicrotask(this.next);
  }
  onError(): void {
    this.tally.errors++;
    this.done(); // one failure ends this connection's loop (a floor, not a measurement of errors)
  }
}

/**
 * Runs `concurrency` connections against `url` for `durationS` seconds, each sending `opts`
 * back to back. Connections are opened by the first request (as in the generator's measured
 * phase without warm-up). Resolves when every loop has stopped and the clients are closed.
 */
export async function runUndiciFloor(url: string, opts: Dispatcher.DispatchOptions, concurrency: number, durationS: number, timeoutMs: number): Promise<FloorResult> {
  const origin = new URL(url).origin;
  const clients = Array.from(
    { length: concurrency },
    () => new Client(origin, { pipelining: 1, connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, keepAliveTimeout: 600_000, keepAliveMaxTimeout: 600_000 }),
  );
  const tally = { ok: 0, errors: 0 };
  const t0 = performance.now();
  const deadline = t0 + durationS * 1000;
  let wallMs: number;
  try {
    await Promise.all(clients.map((c) => new Promise<void>((resolve) => new FloorWorker(c, opts, deadline, tally, resolve).send())));
    wallMs = performance.now() - t0;
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => c.destroy())));
  }
  return { ...tally, durationS: wallMs / 1000 };
}
