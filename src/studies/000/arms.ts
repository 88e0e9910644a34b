/**
 * Study 000's variants and scenario (no imports of the study's other files, so the v1 reader and
 * the definition can both use them without an import cycle).
 */
import type { Scenario, Variant } from '../../types/study.ts';
import { DEFAULT_MOCK_CONFIG } from '../../../mock/src/config.ts';

/**
 * K, the permits of the `virtual-bulkhead` variant: the fixed pool's 32, so the two limits are the
 * same number (K / L = N / L = 21.33 req/s at 1.5 s) and only where the wait happens differs.
 */
export const BULKHEAD_PERMITS = 32;

/**
 * The client timeout of the timeout variants, s: 4 × the faults profiles' mock latency of 500 ms, so a
 * successful call never comes near it and a hung one costs 4 latencies.
 */
export const CLIENT_TIMEOUT_S = 2;

/**
 * The SUT property of the client timeout: OkHttp's read timeout of every LLM call (sut/…/OkHttpReadTimeout.java).
 * Not `spring.ai.openai.timeout`: Spring AI 2.0.1 overrides it per call with OpenAiChatOptions' 60 s.
 */
export const TIMEOUT_PROPERTY = 'bench.okhttp.read-timeout';

/** The SUT's per-call timeout without {@link TIMEOUT_PROPERTY}, s: Spring AI 2.0.1's OpenAiChatOptions default. */
export const SPRING_AI_CALL_TIMEOUT_S = 60;

/** the `virtual-dispatcher` variant's limit (`bench.okhttp.dispatcher-max-requests`): above every streaming level */
export const LIFTED_DISPATCHER_MAX = 4096;

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
  // §17 timeouts: a client timeout of CLIENT_TIMEOUT_S (OkHttp's read timeout, sut/…/OkHttpReadTimeout.java: Spring AI 2.0.1
  // gives every call its own 60 s, so `spring.ai.openai.timeout` does not apply), without and with 2 retries; a hung call ends as 504 upstream_timeout
  { id: 'virtual-timeout', label: `virtual threads, ${CLIENT_TIMEOUT_S} s timeout`, executor: { kind: 'virtual-per-task' }, threadNamePrefix: 'llm-vtt-', sutProperties: { [TIMEOUT_PROPERTY]: `${CLIENT_TIMEOUT_S}s` } },
  { id: 'virtual-timeout-retry', label: `virtual threads, ${CLIENT_TIMEOUT_S} s timeout, 2 retries`, executor: { kind: 'virtual-per-task' }, threadNamePrefix: 'llm-vttr-', sutProperties: { [TIMEOUT_PROPERTY]: `${CLIENT_TIMEOUT_S}s`, 'spring.ai.openai.max-retries': '2' } },
  // §17 streaming: OkHttp's dispatcher as Spring AI 2.0 builds it (64 calls awaiting their response headers) is the `virtual` arm; this one lifts it
  { id: 'virtual-dispatcher', label: `virtual threads, OkHttp dispatcher ${LIFTED_DISPATCHER_MAX}`, executor: { kind: 'virtual-per-task' }, threadNamePrefix: 'llm-vtd-', sutProperties: { 'bench.okhttp.dispatcher-max-requests': String(LIFTED_DISPATCHER_MAX) } },
];

/** the hang follow-up's variants: a client timeout without and with retries (a hang needs a timeout on every variant) */
export const TIMEOUT_VARIANTS: readonly string[] = ['virtual-timeout', 'virtual-timeout-retry'];

/**
 * OkHttp's dispatcher limit on async calls as Spring AI 2.0.1 sets it: `maxRequestsPerHost = maxRequests`
 * = OkHttp's default 64 (SpringAiOpenAiHttpClient.Builder.build, read from its bytecode; OkHttp's own
 * per-host default is 5). Streams go through it; blocking `call()`s do not.
 */
export const SPRING_AI_DISPATCHER_MAX = 64;

/** the streaming follow-up's variants: the dispatcher as Spring AI builds it, and lifted */
export const STREAM_VARIANTS: readonly string[] = ['virtual', 'virtual-dispatcher'];

/**
 * The dispatcher limit D of a variant: `bench.okhttp.dispatcher-max-requests` among its SUT properties,
 * else Spring AI's {@link SPRING_AI_DISPATCHER_MAX}.
 */
export function dispatcherLimit(v: Pick<Variant, 'sutProperties'> | undefined): number {
  const d = Number(v?.sutProperties?.['bench.okhttp.dispatcher-max-requests'] ?? NaN);
  return Number.isInteger(d) && d > 0 ? d : SPRING_AI_DISPATCHER_MAX;
}

/**
 * One stream's duration by construction, ms: the mock's time to first token L, then its other tokens one
 * every inter-token interval (mock/src/server.ts streamAnswer; the mock's defaults: 16 tokens, 20 ms), so
 * T = L + (tokens − 1) × interval = L + 300 ms.
 */
export function streamServiceTimeMs(latencyMs: number): number {
  return latencyMs + (DEFAULT_MOCK_CONFIG.completionTokens - 1) * DEFAULT_MOCK_CONFIG.interTokenMs;
}

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
    // §17 streaming: ChatClient…stream() consumed on the executor's thread against the mock's SSE
    id: 'llm-stream',
    label: 'streaming Spring AI chat call to the mock LLM (SSE), consumed on the executor thread',
    driver: 'closed-loop-http',
    request: () => ({ method: 'POST', path: '/api/scenario/llm-stream', body: PROMPT_BODY }),
    serviceTimeMs: (o) => streamServiceTimeMs(o.latencyMs),
    usesMock: true,
    sutScenario: 'llm-stream',
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

