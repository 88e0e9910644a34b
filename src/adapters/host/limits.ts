/**
 * Upper bounds of the options that come from the host (open files, ephemeral ports, memory) and
 * the stated maxima of the rest. `resolveOptions` checks them, so the dry run and the run refuse
 * the same values with the same message.
 */
import { readFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';

/** What the host allows this harness and the processes it starts (they inherit its limits). */
export interface HostLimits {
  /** soft RLIMIT_NOFILE of this process (`ulimit -n`; Node raises soft to hard at start), from /proc/self/limits */
  openFiles: number;
  /** ports in /proc/sys/net/ipv4/ip_local_port_range (outgoing connections each take one) */
  ephemeralPorts: number;
  /** V8 heap limit of this process, bytes (v8.getHeapStatistics().heap_size_limit) */
  heapLimitBytes: number;
}

/** Linux defaults, used when /proc cannot be read: soft nofile 1024, ports 32768–60999. */
const LINUX_DEFAULT_OPEN_FILES = 1024;
const LINUX_DEFAULT_EPHEMERAL_PORTS = 60999 - 32768 + 1;

/** Parse the "Max open files" soft limit out of /proc/<pid>/limits text; null if absent. */
export function parseOpenFilesLimit(limitsText: string): number | null {
  const m = /^Max open files\s+(\d+|unlimited)\s+/m.exec(limitsText);
  if (!m) return null;
  return m[1] === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(m[1]);
}

/** Parse `ip_local_port_range` ("32768\t60999") into the number of ports; null if malformed. */
export function parsePortRange(text: string): number | null {
  const m = /^\s*(\d+)\s+(\d+)\s*$/.exec(text);
  if (!m) return null;
  const n = Number(m[2]) - Number(m[1]) + 1;
  return n > 0 ? n : null;
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** This host's limits (Linux /proc; the Linux defaults where /proc says nothing). */
export function readHostLimits(): HostLimits {
  return {
    openFiles: parseOpenFilesLimit(readOr('/proc/self/limits')) ?? LINUX_DEFAULT_OPEN_FILES,
    ephemeralPorts: parsePortRange(readOr('/proc/sys/net/ipv4/ip_local_port_range')) ?? LINUX_DEFAULT_EPHEMERAL_PORTS,
    heapLimitBytes: getHeapStatistics().heap_size_limit,
  };
}

/**
 * Open files the SUT JVM needs besides its connections (jars, JFR repository, logs, epoll):
 * a stated reserve, not measured per run.
 */
export const FD_RESERVE = 512;

/**
 * Highest concurrency level the host can carry. At level c the SUT holds c inbound connections
 * and up to c upstream ones to the mock (one virtual thread per task: one per in-flight call), so it needs
 * 2c + FD_RESERVE descriptors under the inherited `ulimit -n`; the load generator and the SUT each
 * open c connections to 127.0.0.1, i.e. 2c ephemeral ports.
 */
export function maxConcurrency(h: HostLimits): number {
  return Math.max(0, Math.min(Math.floor((h.openFiles - FD_RESERVE) / 2), Math.floor(h.ephemeralPorts / 2)));
}

/**
 * Most WebSocket connections the host can hold (study 002 scenario 5, src/load/websocket.ts): each
 * costs the SUT one descriptor (it holds no upstream connection) and the harness one descriptor and
 * one ephemeral port; both processes have their own `ulimit -n` (inherited from this one), each less
 * FD_RESERVE for its own files.
 */
export function maxWebSocketConnections(h: HostLimits): number {
  return Math.max(0, Math.min(h.openFiles - FD_RESERVE, h.ephemeralPorts));
}

/**
 * Heap bytes one request costs the harness while its cell runs and is written: measured on
 * Node 20 with 10^6 requests as 242 B (RequestRecord) + 83 B (compact columns) + 47 B (JSON text)
 * = 372 B; rounded up to 512 B for summarize's sorted copies and gzip.
 */
export const HEAP_BYTES_PER_CELL_REQUEST = 512;

/**
 * Heap bytes one request of the whole run costs when summary.json is rebuilt (every cell's compact
 * columns are read together): measured on Node 20 with 10^6 requests as 64 B per request parsed
 * from JSON, plus its 47 B of JSON text while one cell is parsed; budgeted as 128 B.
 */
export const HEAP_BYTES_PER_RUN_REQUEST = 128;

/** Half the heap is the budget for request data; the rest is the harness, undici and V8's slack. */
const HEAP_SHARE = 0.5;

/** Most requests one cell may have (c × n) before its records would exhaust the heap. */
export function maxCellRequests(h: HostLimits): number {
  return Math.floor((h.heapLimitBytes * HEAP_SHARE) / HEAP_BYTES_PER_CELL_REQUEST);
}

/** Most requests a whole run may have before rebuilding summary.json would exhaust the heap. */
export function maxRunRequests(h: HostLimits): number {
  return Math.floor((h.heapLimitBytes * HEAP_SHARE) / HEAP_BYTES_PER_RUN_REQUEST);
}

/**
 * Longest planned (theoretical) run: 7 days. Stated, not derived: a longer plan is almost surely
 * a typo, and nothing here was tried beyond a few hours; split it into several runs.
 */
export const MAX_PLAN_DURATION_S = 7 * 24 * 3600;

/**
 * undici 7 (lib/util/timers.js) runs connect, headers and body timeouts on "fast timers": a tick of
 * TICK_MS = 499 ms and RESOLUTION_MS = 1000, so no such timeout fires before ≈1 s and each fires up
 * to a tick late. Measured here (undici 7.30.2, a server answering after 5 s): headers timeouts of
 * 1 ms and 500 ms both fired after ≈1000 ms, 1000 ms after ≈1500 ms, 2500 ms after ≈3000 ms.
 * A value below 1000 ms therefore cannot be honoured and is refused.
 */
export const UNDICI_TIMER_RESOLUTION_MS = 1000;

/** Node's timers cap a delay at 2^31 − 1 ms (TIMEOUT_MAX, ~24.8 days); longer ones fire after 1 ms. */
export const NODE_TIMEOUT_MAX_MS = 2 ** 31 - 1;

/** Java `int` fields of the SUT (pool size, queue capacity) end at Integer.MAX_VALUE. */
export const JAVA_INT_MAX = 2 ** 31 - 1;

/**
 * The SUT's own timeouts (sut/src/main/resources/application.yml: spring.mvc.async.request-timeout
 * and spring.ai.openai.timeout, both 600 s; Spring AI 2.0.1 gives each LLM call its own 60 s on top): a
 * request whose queue wait + call exceeds them fails.
 */
export const SUT_REQUEST_TIMEOUT_MS = 600_000;
