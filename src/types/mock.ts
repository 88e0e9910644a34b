/** `GET /stats` of the mock LLM. Times in ms. */
export interface MockStats {
  /** requests to /v1/chat/completions answered (any status) */
  served: number;
  inFlight: number;
  peakInFlight: number;
  /** TCP connections accepted since the mock started (not reset by `POST /stats/reset`) */
  connectionsOpened: number;
  /** lateness = actual - configured latency (ms) of delayed non-stream answers; null if none */
  latenessMs: { n: number; p50: number; p90: number; p99: number; max: number } | null;
  /** injected faults by kind: error429, error500, error503, hang, reset, overCapacity */
  faults: Record<string, number>;
  config: Record<string, unknown>;
  startedEpochMs: number;
  /**
   * since when `served`, `peakInFlight`, `latenessMs` and `faults` count: the mock's start, or its
   * last `POST /stats/reset` (epoch ms). `connectionsOpened` always counts since the start.
   * Absent in runs recorded before it existed.
   */
  sinceEpochMs?: number;
  /**
   * the plain delay route `GET /delay?ms=` (study 002's downstream HTTP services), counted apart from
   * the chat route so the chat figures above never include it; reset with them. Absent until the
   * route is first called (so a run that never calls it, e.g. study 000's, has the same `/stats` as
   * before the route existed).
   */
  delay?: { served: number; inFlight: number; peakInFlight: number };
}
