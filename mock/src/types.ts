/** `GET /stats` of the mock LLM. Times in ms. */
export interface MockStats {
  /** requests to /v1/chat/completions answered (any status) */
  served: number;
  inFlight: number;
  peakInFlight: number;
  /** TCP connections accepted since start */
  connectionsOpened: number;
  /** lateness = actual - configured latency (ms) of delayed non-stream answers; null if none */
  latenessMs: { n: number; p50: number; p90: number; p99: number; max: number } | null;
  /** injected faults by kind: error429, error500, error503, hang, reset, overCapacity */
  faults: Record<string, number>;
  config: Record<string, unknown>;
  startedEpochMs: number;
}
