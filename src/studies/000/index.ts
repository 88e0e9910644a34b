/**
 * Study 000 (shared/seeds/000_*.txt): a blocking Spring AI chat call behind a fixed pool of 32
 * platform threads vs one virtual thread per request, against a mock LLM with a fixed 1.5 s
 * latency, closed loop at 10..500 workers (§3–6). Everything that is particular to this study lives
 * in this folder and in templates/000/.
 */
import { fileURLToPath } from 'node:url';
import type { Profile, ProfileValues, Study } from '../../study/types.ts';
import { DEFAULT_BIND_ADDRESS } from '../../jvm/bind.ts';
import { V1_READER } from './v1.ts';
import { SCENARIOS, VARIANTS } from './arms.ts';

export { PROMPT_BODY, SCENARIOS, VARIANTS } from './arms.ts';
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

/** All profiles, default first. */
export const PROFILES: readonly Profile[] = [
  {
    name: 'seed-000',
    description: 'the source study: levels 10..500, 40 req/worker, 3 repeats, 30 s warm-up, 1500 ms mock, fixed-32 vs virtual (~100 min)',
    values: BASE,
  },
  {
    name: 'quick',
    // c × n / N is a whole number at every level above the pool (25 and 75 waves), so the fixed
    // pool's whole-run figure has no half-empty last wave; ramp start gives virtual threads a
    // steady-state window (with `together` every request of a wave ends at once).
    description: 'a real short tour (~4 min): levels 10,100,300, 8 req/worker, 1 repeat, ramp start',
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
    description: 'open loop (issue 17): arrival rates 15, 20, 25, 100, 300 req/s for 30 s each, constant arrivals, fixed-32 vs virtual, SUT heap 4 GiB; the fixed pool\'s queue growth above 21.33 req/s vs λ − N/L (~15 min)',
    values: { ...BASE, scenario: 'llm-chat-open', levels: [15, 20, 25, 100, 300], requestsPerWorker: 1, repeats: 1, warmupS: 10, durationS: 30, arrival: 'constant', arrivalSeed: 1, maxInFlight: 9000, jvmFlags: ['-Xms4g', '-Xmx4g', '-XX:+UseG1GC'] },
  },
  {
    name: 'open-loop-quick',
    description: 'a short open-loop tour (~5 min): arrival rates 15, 25, 50 req/s for 20 s each, fixed-32 vs virtual',
    values: { ...BASE, scenario: 'llm-chat-open', levels: [15, 25, 50], requestsPerWorker: 1, repeats: 1, warmupS: 5, durationS: 20, arrival: 'constant', arrivalSeed: 1, maxInFlight: 2000 },
  },
  {
    name: 'smoke',
    description: 'CI check of the whole pipeline (<1 min of load): levels 4,32, pool 8, 200 ms mock',
    values: { ...BASE, levels: [4, 32], requestsPerWorker: 3, repeats: 1, warmupS: 1, latencyMs: 200, poolSize: 8, start: 'together' },
  },
];

export const STUDY_000: Study = {
  id: '000',
  title: 'fixed platform-thread pool vs virtual threads on a blocking Spring AI call',
  source: 'seeds/000_*.txt',
  variants: VARIANTS,
  scenarios: SCENARIOS,
  profiles: PROFILES,
  comparisons: [{ baseline: 'fixed', candidate: 'virtual' }],
  published: PUBLISHED_000,
  templateDir: fileURLToPath(new URL('../../../templates/000/', import.meta.url)),
  legacyReaders: [V1_READER],
  report: REPORT_000,
};
