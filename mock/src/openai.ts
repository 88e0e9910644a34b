/** OpenAI wire shapes the mock sends. Pure builders, no I/O. */
import type { CompletionPlan } from './completion.ts';

export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export function errorBody(message: string, type: string, param: string | null = null, code: string | null = null): OpenAiErrorBody {
  return { error: { message, type, param, code } };
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export function usageOf(plan: CompletionPlan): Usage {
  const completion = plan.tokens.length;
  return { prompt_tokens: plan.promptTokens, completion_tokens: completion, total_tokens: plan.promptTokens + completion };
}

export function completionBody(id: string, created: number, model: string, plan: CompletionPlan) {
  return {
    id,
    object: 'chat.completion' as const,
    created,
    model,
    system_fingerprint: plan.fingerprint,
    choices: [
      {
        index: 0,
        message: { role: 'assistant' as const, content: plan.tokens.join(' '), refusal: null },
        logprobs: null,
        finish_reason: plan.finishReason,
      },
    ],
    usage: usageOf(plan),
  };
}

/**
 * A non-stream answer serialised once per (model, plan): only `id` and `created` change from one
 * answer to the next, so the rest of the JSON text is kept and the answer is three concatenations.
 * `completionJson(id, created, prepared)` is exactly `JSON.stringify(completionBody(id, created,
 * model, plan))` (same keys, same order; a unit test checks it), and `tailBytes` is the UTF-8 length
 * of the kept part, so the Content-Length costs no re-encoding.
 */
export interface PreparedCompletion {
  /** `"model":…}` — everything after `"created":<n>,`, closing brace included */
  tail: string;
  tailBytes: number;
}

export function prepareCompletion(model: string, plan: CompletionPlan): PreparedCompletion {
  const { id: _id, object: _object, created: _created, ...rest } = completionBody('', 0, model, plan);
  const tail = JSON.stringify(rest).slice(1);
  return { tail, tailBytes: Buffer.byteLength(tail) };
}

const COMPLETION_HEAD = '{"id":"';
const COMPLETION_MID = '","object":"chat.completion","created":';

/** The JSON text of a non-stream answer; `id` must need no JSON escaping (the mock's ids are `chatcmpl-mock` + hex). */
export function completionJson(id: string, created: number, p: PreparedCompletion): string {
  return `${COMPLETION_HEAD}${id}${COMPLETION_MID}${created},${p.tail}`;
}

/** UTF-8 bytes of `completionJson(id, created, p)` for an ASCII `id` and an integer `created`. */
export function completionJsonBytes(id: string, created: number, p: PreparedCompletion): number {
  return COMPLETION_HEAD.length + id.length + COMPLETION_MID.length + String(created).length + 1 + p.tailBytes;
}

/** SSE events of a stream, each `data: <json>\n\n`, grouped by when they are written. */
export interface StreamEvents {
  /** the role chunk (`delta: {role: "assistant", content: ""}`), written with the first token */
  head: string;
  /** one chunk per token */
  tokens: string[];
  /** the finish chunk, with `includeUsage` a usage chunk with `choices: []`, then `data: [DONE]` */
  tail: string;
}

/**
 * The events of a stream. With `includeUsage` every chunk but the last has `usage: null` and the
 * last has `choices: []` and the usage, as OpenAI sends them.
 */
export function streamEvents(id: string, created: number, model: string, plan: CompletionPlan, includeUsage: boolean): StreamEvents {
  const base = { id, object: 'chat.completion.chunk', created, model, system_fingerprint: plan.fingerprint };
  const extra = includeUsage ? { usage: null } : {};
  const ev = (o: unknown) => `data: ${JSON.stringify(o)}\n\n`;
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    ev({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra });
  let tail = chunk({}, plan.finishReason);
  if (includeUsage) tail += ev({ ...base, choices: [], usage: usageOf(plan) });
  tail += 'data: [DONE]\n\n';
  return {
    head: chunk({ role: 'assistant', content: '', refusal: null }, null),
    tokens: plan.tokens.map((t, i) => chunk({ content: i === 0 ? t : ` ${t}` }, null)),
    tail,
  };
}
