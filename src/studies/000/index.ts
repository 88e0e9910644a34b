/**
 * Study 000 (shared/seeds/000_*.txt): a blocking Spring AI chat call behind a fixed pool of 32
 * platform threads vs one virtual thread per request, against a mock LLM with a fixed 1.5 s
 * latency, closed loop at 10..500 workers (§3–6). Everything that is particular to this study lives
 * in this folder and in templates/000/.
 */
import { fileURLToPath } from 'node:url';
import type { Profile, ProfileValues } from '../../types/study.ts';
import type { StudyPlugin } from '../../report/types.ts';
import { DEFAULT_BIND_ADDRESS } from '../../adapters/jvm/bind.ts';
import { V1_READER } from './v1.ts';
import { BULKHEAD_VARIANTS, CLIENT_TIMEOUT_S, POOL_SWEEP_VARIANTS, SCENARIOS, STREAM_VARIANTS, TIMEOUT_VARIANTS, VARIANTS } from './arms.ts';

export { BULKHEAD_PERMITS, BULKHEAD_VARIANTS, POOL_SWEEP_VARIANTS, PROMPT_BODY, SCENARIOS, STREAM_VARIANTS, TIMEOUT_VARIANTS, VARIANTS } from './arms.ts';
import { PUBLISHED_000 } from './published.ts';
import { REPORT_000 } from './report.ts';

/** Values every profile shares unless it says otherwise (§5–6). */
const BASE: ProfileValues = {
  scenario: 'llm-chat',
  levels: [10, 50, 100, 200, 500],
  requestsPerWorker: 40,
  repeats: 3,
  warmupS: 30,
  latencyMs: 1500,
  variants: ['fixed', 'virtual'],
  poolSize: null,
  queueCapacity: null,
  start: 'together',
  rampMs: 0,
  jvmFlags: ['-Xms512m', '-Xmx512m', '-XX:+UseG1GC'],
  mockPort: 19000,
  sutPort: 19080,
  bindAddress: DEFAULT_BIND_ADDRESS,
  samplerIntervalMs: 250,
  pinnedThresholdMs: 20,
  errorFlagThreshold: 0.001,
  connectTimeoutMs: 10_000,
  // Worst fixed-pool queue wait in the default plan is ≈ 22.5 s; larger plans set these higher.
  headersTimeoutMs: 600_000,
  bodyTimeoutMs: 600_000,
};

/**
 * The §17 mock latencies of the latency sweep (ms): the study's 1,500 ms and the four it proposes.
 * One run has one mock latency (the mock starts once per run), so the sweep is one profile per
 * latency, `latency-<L>`; every cell's bounds use its run's L.
 */
export const SWEEP_LATENCIES_MS: readonly number[] = [100, 500, 1500, 3000, 10000];

/**
 * Requests per worker of a latency-sweep profile: about 4 s of work per worker at L ≤ 1.5 s (so
 * short latencies still give cells long enough to measure), fewer at 3 s and 10 s (so the fixed
 * pool's waves fit the ≤ 8 min quick size); at least 2, so a ramp start leaves a steady window.
 */
export function latencySweepRequestsPerWorker(latencyMs: number): number {
  return Math.max(2, Math.min(40, Math.round(6000 / latencyMs)));
}

/**
 * Study 000's §17 follow-ups as profiles (issue 16). Each has a quick size (≤ 8 min with JVM starts
 * on the 2-core reference host); `npx zx run.mjs list` prints each one's theoretical duration.
 * - `pool-sweep`, `pool-sweep-quick`: fixed pools of 32, 100, 500 vs virtual threads at 1.5 s.
 * - `latency-<L>`: fixed-32 vs virtual at mock latency L (quick size; levels 10, 50, 100).
 * - `bulkhead`, `bulkhead-quick`: fixed-32, virtual, and virtual behind a Semaphore(32) (§13).
 * - `faults`: the mock injects 500s, hangs and resets; virtual threads with a client timeout, without and
 *   with Spring AI retries.
 * - `streaming`, `streaming-quick`: `ChatClient…stream()` against the mock's SSE, OkHttp's dispatcher as
 *   Spring AI builds it (64 calls awaiting their response headers) vs lifted.
 * - `followups`: the pool sizes and the bulkhead in one run (one mock latency per run).
 * - `jdk21`: 50/200/500 on a JDK 21; on a host without one it stops with "not tested here".
 */
function FOLLOW_UP_PROFILES(): Profile[] {
  const poolSweep: ProfileValues = { ...BASE, variants: [...POOL_SWEEP_VARIANTS] };
  return [
    {
      name: 'pool-sweep',
      description: '§17 pool sizes: fixed-32, fixed-100, fixed-500 vs virtual at levels 10..500, 40 req/worker, 3 repeats, 1500 ms mock (the fixed-32 cells dominate: ≥ 2 h 28 min)',
      values: poolSweep,
    },
    {
      // 500 × 4 / 32 = 62.5 waves of 1.5 s (94.5 s) is the longest cell; fixed-500 and virtual run each level in ~6 s
      name: 'pool-sweep-quick',
      description: '§17 pool sizes, quick: fixed-32, fixed-100, fixed-500 vs virtual at levels 50, 200, 500, 4 req/worker, 1 repeat, ramp start',
      values: { ...poolSweep, levels: [50, 200, 500], requestsPerWorker: 4, repeats: 1, warmupS: 5, start: 'ramp' },
    },
    ...SWEEP_LATENCIES_MS.map((L): Profile => ({
      name: `latency-${L}`,
      description: `§17 mock latency ${L} ms, quick: fixed-32 vs virtual at levels 10, 50, 100, ${latencySweepRequestsPerWorker(L)} req/worker, 1 repeat, ramp start`,
      values: { ...BASE, latencyMs: L, levels: [10, 50, 100], requestsPerWorker: latencySweepRequestsPerWorker(L), repeats: 1, warmupS: 5, start: 'ramp' },
    })),
    {
      name: 'bulkhead',
      description: '§13/§17 bulkhead: fixed-32, virtual, and virtual threads behind a Semaphore(32) in front of the LLM call, levels 10..500, 40 req/worker, 3 repeats, 1500 ms mock',
      values: { ...BASE, variants: [...BULKHEAD_VARIANTS] },
    },
    {
      // fixed-32 and the bulkhead both take 500 × 4 / 32 = 62.5 waves of 1.5 s (94.5 s) at c = 500
      name: 'bulkhead-quick',
      description: '§13/§17 bulkhead, quick: fixed-32, virtual, virtual + Semaphore(32) at levels 50, 200, 500, 4 req/worker, 1 repeat, ramp start',
      values: { ...BASE, variants: [...BULKHEAD_VARIANTS], levels: [50, 200, 500], requestsPerWorker: 4, repeats: 1, warmupS: 5, start: 'ramp' },
    },
    {
      // 10 % of calls answered 500 at once, 5 % never answered (hang), 5 % reset after L. Every variant has a
      // client timeout: without one a hung call would hold its worker for the 600 s timeouts. (The first
      // faults runs, test/fixtures/faults-run, had no hangs and ran `virtual` vs `virtual-retry`.)
      name: 'faults',
      description: `§17 faults, quick: the mock answers 10 % of calls with 500, never answers 5 % (hang) and resets 5 %; virtual threads with a ${CLIENT_TIMEOUT_S} s client timeout, without and with 2 Spring AI retries, levels 10, 50, 100, 8 req/worker, mock 500 ms, 1 repeat`,
      values: { ...BASE, variants: [...TIMEOUT_VARIANTS], latencyMs: 500, levels: [10, 50, 100], requestsPerWorker: 8, repeats: 1, warmupS: 5, start: 'ramp', mockFaults: { errorRate: 0.1, errorStatus: 500, hangRate: 0.05, resetRate: 0.05, seed: 42 } },
    },
    {
      // the mock sends a stream's headers with its first token: OkHttp's dispatcher holds a call only until its
      // response headers arrive (a mock that sends them at once frees the slot at once: no cap, measured
      // 2026-12-01, test/fixtures/streaming-run). A stream lasts T = L + 15 × 20 ms = 1.8 s; each call holds a
      // dispatcher slot for L, so `virtual` is capped at min(c/T, 64/L) = 42.7 req/s above 77 workers (the plan
      // below counts c/T: it does not know the cap). Longest cell: virtual at 512, 5,120 requests / 42.7 req/s = 120 s.
      name: 'streaming',
      description: '§17 streaming: ChatClient…stream() against the mock\'s SSE (headers and first token after 1500 ms, then 15 tokens 20 ms apart), virtual threads with OkHttp\'s dispatcher as Spring AI builds it (64 calls awaiting their headers) vs lifted to 4096, levels 16..512, 10 req/worker, 3 repeats',
      values: { ...BASE, scenario: 'llm-stream', variants: [...STREAM_VARIANTS], levels: [16, 32, 64, 128, 256, 512], requestsPerWorker: 10, repeats: 3, start: 'ramp', mockStreamHeaders: 'first-token' },
    },
    {
      // virtual at 256: 256 × 4 / 64 = 16 waves of 1.8 s (28.8 s) is the longest cell
      name: 'streaming-quick',
      description: '§17 streaming, quick (the mock sends headers with the first token): virtual threads with Spring AI\'s dispatcher (64 calls awaiting their headers) vs lifted to 4096, levels 32, 64, 128, 256, 4 req/worker, 1 repeat, ramp start',
      values: { ...BASE, scenario: 'llm-stream', variants: [...STREAM_VARIANTS], levels: [32, 64, 128, 256], requestsPerWorker: 4, repeats: 1, warmupS: 5, start: 'ramp', mockStreamHeaders: 'first-token' },
    },
    {
      // one run, one mock latency: the pool sizes and the bulkhead share L = 1.5 s; the latency sweep
      // is its own runs (latency-<L>). Longest cells: fixed-32 and the bulkhead at c = 500 (94.5 s each).
      name: 'followups',
      description: '§17 combined, quick (the planned duration below counts the semaphore variant at c/L, it runs at min(c, 32)/L): fixed-32, fixed-100, fixed-500, virtual, virtual + Semaphore(32) at levels 50, 200, 500, 4 req/worker, 1 repeat, ramp start (the latency sweep is the latency-<L> profiles)',
      values: { ...BASE, variants: [...new Set([...POOL_SWEEP_VARIANTS, ...BULKHEAD_VARIANTS])], levels: [50, 200, 500], requestsPerWorker: 4, repeats: 1, warmupS: 5, start: 'ramp' },
    },
    {
      name: 'jdk21',
      description: '§17 JDK 21 rerun: fixed-32 vs virtual at levels 50, 200, 500, 8 req/worker, 1 repeat, on a JDK 21 only (none here: the run says "not tested here")',
      values: { ...BASE, levels: [50, 200, 500], requestsPerWorker: 8, repeats: 1, warmupS: 5, start: 'ramp' },
      requiresJdkMajor: 21,
    },
  ];
}

/** All profiles, default first. */
export const PROFILES: readonly Profile[] = [
  {
    name: 'seed-000',
    description: 'the source study: levels 10..500, 40 req/worker, 3 repeats, 30 s warm-up, 1500 ms mock, fixed-32 vs virtual',
    values: BASE,
  },
  {
    name: 'quick',
    // c × n / N is a whole number at every level above the pool (25 and 75 waves), so the fixed
    // pool's whole-run figure has no half-empty last wave; ramp start gives virtual threads a
    // steady-state window (with `together` every request of a wave ends at once).
    description: 'a real short tour: levels 10,100,300, 8 req/worker, 1 repeat, ramp start',
    values: { ...BASE, levels: [10, 100, 300], requestsPerWorker: 8, repeats: 1, warmupS: 5, start: 'ramp' },
  },
  {
    name: 'open-loop',
    // Rates below (15, 20) and above (25, 100, 300) the fixed pool's 32 / 1.5 s = 21.33 req/s. 30 s
    // per cell: at 300 req/s the fixed pool's backlog reaches (300 − 21.33) × 30 ≈ 8,360 tasks (its
    // queue holds 10,000) and drains in ≈ 392 s, under the 600 s client and SUT timeouts. Heap 4 GiB:
    // every queued arrival holds its request in the SUT; with seed-000's 512 MiB the SUT ran out of
    // heap at 300 req/s (≈ 5,000 queued, 2026-12-01) and used all 511 MiB at 100 req/s (2,360 queued);
    // with 4 GiB, 300 req/s peaked at 1,947 MiB used with 8,360 queued.
    description: 'open loop (issue 17): arrival rates 15, 20, 25, 100, 300 req/s for 30 s each, constant arrivals, fixed-32 vs virtual, SUT heap 4 GiB; the fixed pool\'s queue growth above 21.33 req/s vs λ − N/L',
    values: { ...BASE, scenario: 'llm-chat-open', levels: [15, 20, 25, 100, 300], requestsPerWorker: 1, repeats: 1, warmupS: 10, durationS: 30, arrival: 'constant', arrivalSeed: 1, maxInFlight: 9000, jvmFlags: ['-Xms4g', '-Xmx4g', '-XX:+UseG1GC'] },
  },
  {
    name: 'open-loop-quick',
    description: 'a short open-loop tour: arrival rates 15, 25, 50 req/s for 20 s each, fixed-32 vs virtual',
    values: { ...BASE, scenario: 'llm-chat-open', levels: [15, 25, 50], requestsPerWorker: 1, repeats: 1, warmupS: 5, durationS: 20, arrival: 'constant', arrivalSeed: 1, maxInFlight: 2000 },
  },
  ...FOLLOW_UP_PROFILES(),
  {
    name: 'smoke',
    description: 'CI check of the whole pipeline (<1 min of load): levels 4,32, pool 8, 200 ms mock',
    values: { ...BASE, levels: [4, 32], requestsPerWorker: 3, repeats: 1, warmupS: 1, latencyMs: 200, poolSize: 8, start: 'together' },
  },
];

export const STUDY_000: StudyPlugin = {
  id: '000',
  title: 'fixed platform-thread pool vs virtual threads on a blocking Spring AI call',
  source: 'seeds/000_*.txt',
  sourceSummary: 'docs/studies/000.md',
  variants: VARIANTS,
  scenarios: SCENARIOS,
  profiles: PROFILES,
  comparisons: [{ baseline: 'fixed', candidate: 'virtual' }],
  published: PUBLISHED_000,
  templateDir: fileURLToPath(new URL('../../../templates/000/', import.meta.url)),
  legacyReaders: [V1_READER],
  report: REPORT_000,
};
