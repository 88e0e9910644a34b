/**
 * Study 000's variants and scenario (no imports of the study's other files, so the v1 reader and
 * the definition can both use them without an import cycle).
 */
import type { Scenario, Variant } from '../../study/types.ts';

/**
 * K, the permits of the `virtual-bulkhead` variant: the fixed pool's 32, so the two limits are the
 * same number (K / L = N / L = 21.33 req/s at 1.5 s) and only where the wait happens differs.
 */
export const BULKHEAD_PERMITS = 32;

/**
 * The study's two arms (§5): a pool of 32 with a 10,000 queue (AbortPolicy), and virtual threads;
 * then the pools its §17 follow-ups name ("Fixed-100 and Fixed-500 against virtual threads"), run
 * by the `pool-sweep` profiles only (issue 16). The §5 profiles select `fixed` and `virtual`.
 */
export const VARIANTS: readonly Variant[] = [
  { id: 'fixed', label: 'fixed pool', executor: { kind: 'platform-pool', threads: 32, queueCapacity: 10000 }, threadNamePrefix: 'llm-fixed-' },
  { id: 'virtual', label: 'virtual threads', executor: { kind: 'virtual-per-task' }, threadNamePrefix: 'llm-vt-' },
  { id: 'fixed-100', label: 'fixed pool of 100', executor: { kind: 'platform-pool', threads: 100, queueCapacity: 10000 }, threadNamePrefix: 'llm-fixed100-' },
  { id: 'fixed-500', label: 'fixed pool of 500', executor: { kind: 'platform-pool', threads: 500, queueCapacity: 10000 }, threadNamePrefix: 'llm-fixed500-' },
  // §13/§17: virtual threads behind a fair Semaphore(K) in front of the LLM call (sut/…/LlmBulkhead.java)
  { id: 'virtual-bulkhead', label: `virtual threads behind a semaphore of ${BULKHEAD_PERMITS}`, executor: { kind: 'virtual-per-task' }, threadNamePrefix: 'llm-vtb-', sutProperties: { 'bench.bulkhead.permits': String(BULKHEAD_PERMITS) } },
  // §17 faults: the same virtual arm with Spring AI's retries on (the study runs with 0, so retries never distort latency)
  { id: 'virtual-retry', label: 'virtual threads, 2 retries', executor: { kind: 'virtual-per-task' }, threadNamePrefix: 'llm-vtr-', sutProperties: { 'spring.ai.openai.max-retries': '2' } },
];

/** the faults follow-up's variants: virtual threads without and with retries */
export const FAULT_VARIANTS: readonly string[] = ['virtual', 'virtual-retry'];

/** the bulkhead follow-up's variants: the two arms, then virtual threads behind the semaphore */
export const BULKHEAD_VARIANTS: readonly string[] = ['fixed', 'virtual', 'virtual-bulkhead'];

/** the §17 pool-size follow-up's variants, in the order its report lists them (fixed = 32) */
export const POOL_SWEEP_VARIANTS: readonly string[] = ['fixed', 'fixed-100', 'fixed-500', 'virtual'];

/** The prompt of every request (its text does not change the mock's latency). */
export const PROMPT_BODY = JSON.stringify({ prompt: 'Explain in one sentence why blocking I/O holds a platform thread.' });

/**
 * The scenarios: `POST /api/benchmark/llm` -> Spring AI ChatClient -> mock LLM (L = the mock's
 * latency), loaded closed-loop as in the source study (§5), or open-loop at arrival rates (issue 17:
 * what the closed loop hides — above N/L the fixed pool's queue grows without bound).
 */
export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'llm-chat',
    label: 'blocking Spring AI chat call to the mock LLM',
    driver: 'closed-loop-http',
    request: () => ({ method: 'POST', path: '/api/benchmark/llm', body: PROMPT_BODY }),
    serviceTimeMs: (o) => o.latencyMs,
    usesMock: true,
    sutScenario: 'llm',
  },
  {
    id: 'llm-chat-open',
    label: 'blocking Spring AI chat call to the mock LLM, arrivals at a rate (open loop)',
    driver: 'open-loop-http',
    request: () => ({ method: 'POST', path: '/api/benchmark/llm', body: PROMPT_BODY }),
    serviceTimeMs: (o) => o.latencyMs,
    usesMock: true,
    sutScenario: 'llm',
  },
];

