/**
 * Deterministic chat-completion content: the same request body (model, messages, token limit)
 * always gives the same content, usage and fingerprint. Pure functions, no I/O.
 */
import { fnv1a, mulberry32 } from './prng.ts';

const WORDS = [
  'virtual', 'threads', 'block', 'cheaply', 'while', 'the', 'carrier', 'moves', 'on', 'a',
  'pool', 'of', 'platform', 'workers', 'waits', 'for', 'each', 'remote', 'call', 'to',
  'return', 'latency', 'dominates', 'throughput', 'is', 'bounded', 'by', 'concurrency', 'over', 'time',
];

export interface ChatMessage {
  role: string;
  content?: unknown;
}

export interface CompletionPlan {
  /** `fp_` + 8 hex characters of a hash of the request; sent as `system_fingerprint` */
  fingerprint: string;
  /** completion tokens, one word each; joined with single spaces they form the content */
  tokens: string[];
  promptTokens: number;
  finishReason: 'stop' | 'length';
}

/** Characters of text in a message `content` (a string, or an array of `{type:'text', text}` parts). */
function contentChars(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (Array.isArray(content)) {
    let n = 0;
    for (const part of content) {
      if (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string') {
        n += (part as { text: string }).text.length;
      }
    }
    return n;
  }
  return 0;
}

/** Prompt tokens estimated as ceil(chars / 4) per message + 4 framing tokens each + 3 priming. */
export function countPromptTokens(messages: readonly ChatMessage[]): number {
  let n = 3;
  for (const m of messages) n += 4 + Math.ceil(contentChars(m.content) / 4);
  return n;
}

/**
 * @param completionTokens configured answer length (tokens)
 * @param maxTokens the request's `max_completion_tokens` / `max_tokens`, if any; a smaller limit
 *   truncates the answer and sets `finish_reason: "length"`, as OpenAI does
 */
export function planCompletion(
  model: string,
  messages: readonly ChatMessage[],
  completionTokens: number,
  maxTokens: number | undefined,
): CompletionPlan {
  const key = JSON.stringify([model, messages]);
  const h1 = fnv1a(key);
  const rng = mulberry32(h1);
  const limited = maxTokens !== undefined && maxTokens < completionTokens;
  const n = limited ? maxTokens : completionTokens;
  const tokens: string[] = [];
  for (let i = 0; i < n; i++) tokens.push(WORDS[Math.floor(rng() * WORDS.length)] ?? 'token');
  return {
    fingerprint: `fp_${h1.toString(16).padStart(8, '0')}`,
    tokens,
    promptTokens: countPromptTokens(messages),
    finishReason: limited ? 'length' : 'stop',
  };
}
