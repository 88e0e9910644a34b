/**
 * Every answer read from a component (the SUT's `/bench/*`, the mock's `/stats`, a load shard's
 * shard file) is validated before it is used, so a component answering valid JSON of the wrong
 * shape (`{}`) stops the run with exit 6 naming the component, its URL, the endpoint and what was
 * wrong, instead of a `Cannot read properties of undefined` deep inside the harness.
 *
 * The shapes are the run files' own, generated from the TypeScript types (`npm run schema`,
 * schema/*.schema.json): `/bench/info` is the manifest's `SutInfo`, a sample the samples file's
 * `SutSample`, the mock's `/stats` a cell's `MockStats`. Answers no run file holds as they are have
 * small hand-written schemas here (`/bench/pinned`, `/bench/ws`, the samples envelope, the shard file).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { SCHEMA_DIR, SCHEMA_FILES } from './schema.ts';
import { VtbenchError, EXIT } from '../../types/errors.ts';

/** The answers checked, each by the schema of its shape. */
export type AnswerKind = 'SutInfo' | 'SamplesResponse' | 'PinnedResponse' | 'WsPushStats' | 'MockStats' | 'ShardFile';

const num = { type: 'number' } as const;
/** Hand-written schemas of answers no run file holds as they are (fields the harness reads). */
const HAND_WRITTEN: Record<'SamplesResponse' | 'PinnedResponse' | 'WsPushStats' | 'ShardFile', object> = {
  SamplesResponse: {
    type: 'object', required: ['intervalMs', 'samples'],
    properties: { intervalMs: num, samples: { type: 'array', items: { $ref: 'samples#/definitions/SutSample' } } },
  },
  PinnedResponse: {
    type: 'object', required: ['thresholdMs', 'total', 'byReason', 'submitFailedTotal'],
    properties: { thresholdMs: num, total: num, byReason: { type: 'object', additionalProperties: num }, submitFailedTotal: num, flushed: { type: 'boolean' }, flushWaitMs: num },
  },
  WsPushStats: {
    type: 'object',
    required: ['path', 'workMs', 'intervalMs', 'sendTimeLimitMs', 'bufferSizeLimitBytes', 'sessionsOpen', 'sessionsOpened', 'sessionsClosed', 'closesByCause', 'ticks', 'messagesSent', 'messagesRejected', 'messagesSkipped', 'tickLagOver100Ms', 'tickLagMaxMs'],
    properties: {
      path: { type: 'string' }, workMs: num, intervalMs: num, sendTimeLimitMs: num, bufferSizeLimitBytes: num, sessionsOpen: num, sessionsOpened: num, sessionsClosed: num,
      closesByCause: { type: 'object', additionalProperties: num }, ticks: num, messagesSent: num, messagesRejected: num, messagesSkipped: num, tickLagOver100Ms: num, tickLagMaxMs: num,
    },
  },
  ShardFile: {
    type: 'object', required: ['format', 'shard', 'shards', 'workerOffset', 'result'],
    properties: {
      format: { const: 'vtbench-shard/1' }, shard: { type: 'integer', minimum: 0 }, shards: { type: 'integer', minimum: 1 }, workerOffset: { type: 'integer', minimum: 0 },
      result: {
        type: 'object', required: ['t0EpochMs', 'aborted', 'records', 'summary', 'warmup', 'loadgen'],
        properties: {
          t0EpochMs: num, aborted: { type: 'boolean' },
          records: {
            type: 'array',
            items: {
              type: 'object', required: ['worker', 'seq', 'intendedStartMs', 'startMs', 'endMs', 'e2eMs', 'status', 'errorClass'],
              properties: { worker: { type: 'integer', minimum: 0 }, seq: { type: 'integer', minimum: 0 }, intendedStartMs: num, startMs: num, endMs: num, e2eMs: num, status: { type: ['integer', 'null'] }, errorClass: { type: ['string', 'null'] } },
            },
          },
          summary: { type: 'object', required: ['concurrency', 'ok'], properties: { concurrency: { type: 'integer', minimum: 0 }, ok: num } },
          warmup: { type: 'object', required: ['count', 'errors'], properties: { count: num, errors: num } },
          loadgen: { type: 'object' },
        },
      },
    },
  },
};

let ajv: Ajv | null = null;
const cache = new Map<AnswerKind, ValidateFunction>();

function validatorOf(kind: AnswerKind): ValidateFunction {
  let v = cache.get(kind);
  if (v) return v;
  if (!ajv) {
    ajv = new Ajv({ allErrors: true, strict: false });
    const load = (file: string) => JSON.parse(readFileSync(join(SCHEMA_DIR, file), 'utf8')) as object;
    ajv.addSchema(load(SCHEMA_FILES.RunManifest), 'manifest');
    ajv.addSchema(load(SCHEMA_FILES.SutSamples), 'samples');
    ajv.addSchema(load(SCHEMA_FILES.CellFile), 'cell');
  }
  const ref = kind === 'SutInfo' ? 'manifest#/definitions/SutInfo' : kind === 'MockStats' ? 'cell#/definitions/MockStats' : null;
  v = ref ? ajv.getSchema(ref)! : ajv.compile(HAND_WRITTEN[kind as keyof typeof HAND_WRITTEN]);
  if (!v) throw new Error(`answers: no schema for ${kind}`);
  cache.set(kind, v);
  return v;
}

/** What is wrong with an answer of `kind` (empty when it fits), each `<JSON pointer> <what>`; at most three, then a count. */
export function answerProblems(kind: AnswerKind, value: unknown): string[] {
  const v = validatorOf(kind);
  if (v(value)) return [];
  const all = (v.errors ?? []).map((e) => {
    const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty)})` : e.keyword === 'required' ? '' : '';
    return `${e.instancePath || '/'} ${e.message ?? 'invalid'}${extra}`;
  });
  return all.length > 3 ? [...all.slice(0, 3), `… and ${all.length - 3} more`] : all;
}

/** Where an answer came from, for the message: `the SUT at http://h:p`, `GET /bench/info`. */
export interface AnswerSource {
  /** e.g. `SUT`, `mock LLM`, `load shard 0 of 2` */
  component: string;
  /** its URL (origin), or where the answer was read (a shard file's path) */
  url: string;
  /** e.g. `GET /bench/info` */
  endpoint: string;
}

/** A component answered, but not with what its endpoint promises. Exit 6, as a component that does not answer. */
export class MalformedAnswerError extends VtbenchError {
  /** @param text the answer is text (psql), not JSON */
  constructor(readonly source: AnswerSource, readonly problems: readonly string[], text = false) {
    super(`the ${source.component} at ${source.url} answered ${source.endpoint} ${text ? `wrongly: ${problems.join('; ')}` : `with ${problems.length === 1 && problems[0]!.startsWith('not JSON') ? problems[0] : `JSON of the wrong shape: ${problems.join('; ')}`}`}`,
      `check that ${source.url} is the ${source.component} this vtbench expects (the same version; its answer must match the harness's schema), or restart it`, EXIT.notReady);
    this.name = 'MalformedAnswerError';
  }
}

/**
 * Parse (when given text) and validate one answer; returns it typed.
 * @throws MalformedAnswerError naming the component, its URL, the endpoint and what was wrong
 */
export function checkAnswer<T>(kind: AnswerKind, body: string | unknown, source: AnswerSource): T {
  let value: unknown = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch (e) {
      throw new MalformedAnswerError(source, [`not JSON (${(e as Error).message}): ${JSON.stringify(body.slice(0, 80))}`]);
    }
  }
  const problems = answerProblems(kind, value);
  if (problems.length > 0) throw new MalformedAnswerError(source, problems);
  return value as T;
}
