/**
 * The OpenAI-compatible mock LLM: fastify app (`createMockServer`) and a listener (`startMock`).
 *
 * Timing: a chat request's arrival is stamped (hrtime) in its onRequest hook; a non-stream answer is
 * parked in a timing wheel (`DueQueue`: one Node timer per millisecond bucket, not one per request)
 * and written when arrival + drawn latency has passed, never earlier; its lateness (response
 * written − arrival − drawn latency) is measured at the response's 'finish'. Each arrival (chat and
 * /delay) first writes the answers already due (`DueQueue.runDue`), so a burst of arrivals read in
 * one poll phase does not hold them back until the next timers phase.
 *
 * Hot path (issue 20): the handler is synchronous (no promise per request), hijacks the reply at
 * once, and writes the answer on the raw response with a body prepared once per (model, messages,
 * token limit) — byte for byte what fastify's `reply.send` of `completionBody(...)` writes, checked
 * by test/integration/mock-wire.test.ts. Errors and the other routes still go through fastify's reply.
 */
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { planCompletion, type ChatMessage } from './completion.ts';
import {
  DEFAULT_MOCK_CONFIG,
  LISTEN_OPTIONS,
  resolveListenOptions,
  resolveMockConfig,
  type ListenOptions,
  type MockConfig,
} from './config.ts';
import { faultDecider } from './faults.ts';
import { latencySampler } from './latency.ts';
import { DueQueue, type DueItem } from './due-queue.ts';
import { completionJson, completionJsonBytes, errorBody, prepareCompletion, streamEvents, type PreparedCompletion, type StreamEvents } from './openai.ts';
import { substream } from './prng.ts';
import { StatsRecorder } from './stats.ts';
import { CONTROL_TOKEN_ENV, CONTROL_TOKEN_HEADER, tokenMatches } from '../../src/adapters/process/control-token.ts';

export { DEFAULT_MOCK_CONFIG, resolveMockConfig, type MockConfig } from './config.ts';
export type { MockStats } from '../../src/types/mock.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** hrtime (ns) when a chat request arrived; 0n for other routes */
    mockArrivalNs: bigint;
    /** the request was accepted and counts against --max-concurrent until its response closes */
    mockHeld: boolean;
  }
}

const CHAT_PATH = '/v1/chat/completions';
/** The plain delay route (study 002's downstream services): `GET /delay?ms=<0..MAX_DELAY_MS>`. */
export const DELAY_PATH = '/delay';
/** The largest `ms` the delay route accepts (10 minutes, the SUT's request timeout). */
export const MAX_DELAY_MS = 600_000;

/**
 * The `ms` query parameter of `GET /delay`: a whole number 0..MAX_DELAY_MS, or an error message.
 */
export function parseDelayMs(raw: unknown): number | { message: string } {
  if (typeof raw !== 'string' || !/^\d{1,7}$/.test(raw)) return { message: `Invalid 'ms': expected a whole number 0..${MAX_DELAY_MS}, got ${JSON.stringify(raw ?? null)}.` };
  const n = Number(raw);
  if (n > MAX_DELAY_MS) return { message: `Invalid 'ms': ${n} is above ${MAX_DELAY_MS}.` };
  return n;
}

/** Effective server timeouts, as printed at start (ms; 0 = off). */
export interface MockTimeouts {
  keepAliveTimeoutMs: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  connectionTimeoutMs: number;
  maxRequestsPerSocket: number;
}

export function timeoutsOf(app: FastifyInstance): MockTimeouts {
  const s = app.server;
  return {
    keepAliveTimeoutMs: s.keepAliveTimeout,
    headersTimeoutMs: s.headersTimeout,
    requestTimeoutMs: s.requestTimeout,
    connectionTimeoutMs: s.timeout,
    maxRequestsPerSocket: s.maxRequestsPerSocket ?? 0,
  };
}

interface ParsedChat {
  model: string;
  messages: ChatMessage[];
  stream: boolean;
  includeUsage: boolean;
  maxTokens: number | undefined;
}

type Invalid = { message: string; param: string };

function parseChat(body: unknown, defaultModel: string): ParsedChat | Invalid {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { message: 'The request body must be a JSON object.', param: 'body' };
  }
  const b = body as Record<string, unknown>;
  const messages = b.messages;
  if (messages === undefined) return { message: "Missing required parameter: 'messages'.", param: 'messages' };
  if (!Array.isArray(messages) || messages.length === 0) {
    return { message: "Invalid 'messages': expected a non-empty array of messages.", param: 'messages' };
  }
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as unknown;
    if (m === null || typeof m !== 'object' || typeof (m as { role?: unknown }).role !== 'string') {
      return { message: `Invalid 'messages[${i}]': expected an object with a string 'role'.`, param: `messages[${i}]` };
    }
  }
  if (b.model !== undefined && typeof b.model !== 'string') {
    return { message: "Invalid 'model': expected a string.", param: 'model' };
  }
  if (b.stream !== undefined && b.stream !== null && typeof b.stream !== 'boolean') {
    return { message: "Invalid 'stream': expected a boolean.", param: 'stream' };
  }
  let maxTokens: number | undefined;
  for (const key of ['max_completion_tokens', 'max_tokens'] as const) {
    const v = b[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
      return { message: `Invalid '${key}': expected an integer >= 1.`, param: key };
    }
    maxTokens ??= v;
  }
  const so = b.stream_options;
  const includeUsage =
    so !== null && typeof so === 'object' && (so as { include_usage?: unknown }).include_usage === true;
  return {
    model: typeof b.model === 'string' ? b.model : defaultModel,
    messages: messages as ChatMessage[],
    stream: b.stream === true,
    includeUsage,
    maxTokens,
  };
}

const elapsedMs = (fromNs: bigint) => Number(process.hrtime.bigint() - fromNs) / 1e6;
const nsToMs = (ns: bigint) => Number(ns) / 1e6;

/** The raw response of a chat request, with the mock's per-request state (set in the same order on every response). */
type ChatResponse = FastifyReply['raw'] & { vtArrivalNs: bigint; vtHeld: boolean; vtLatencyMs: number };

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The completion id of the `seq`-th chat request (0, 1, …): `chatcmpl-mock` + 12 hex digits. */
export function completionIdOf(seq: number): string {
  return `chatcmpl-mock${seq.toString(16).padStart(12, '0')}`;
}

/**
 * A non-stream answer waiting in the timing wheel; written with fastify's header names and order.
 * It holds its request's number, not its id string, so a held request keeps no string of its own
 * while it waits (issue 20: every held object is copied by each young-generation GC).
 */
class HeldAnswer implements DueItem {
  constructor(
    readonly dueMs: number,
    private readonly res: ChatResponse,
    private readonly seq: number,
    private readonly body: PreparedCompletion,
    private readonly onFinish: (this: ChatResponse) => void,
  ) {}

  run(): void {
    const res = this.res;
    if (res.destroyed) return; // the client gave up; nothing to send
    const created = Math.floor(Date.now() / 1000);
    const id = completionIdOf(this.seq);
    res.on('finish', this.onFinish);
    res.writeHead(200, { 'content-type': JSON_CONTENT_TYPE, 'content-length': completionJsonBytes(id, created, this.body) });
    res.end(completionJson(id, created, this.body));
  }
}

/**
 * Prepared answers by (token limit, model, messages): the same request always gets the same
 * content, so its JSON is built once. Bounded: cleared when it reaches `MAX` entries.
 */
class PreparedCache {
  private static readonly MAX = 4096;
  private readonly map = new Map<string, PreparedCompletion>();
  constructor(private readonly completionTokens: number) {}

  get(model: string, messages: ChatMessage[], maxTokens: number | undefined): PreparedCompletion {
    const key = `${maxTokens ?? ''}\u0000${JSON.stringify([model, messages])}`;
    let p = this.map.get(key);
    if (p === undefined) {
      if (this.map.size >= PreparedCache.MAX) this.map.clear();
      p = prepareCompletion(model, planCompletion(model, messages, this.completionTokens, maxTokens));
      this.map.set(key, p);
    }
    return p;
  }
}

/**
 * Who may call the mock's control routes (`POST /stats/reset`): the holder of `controlToken`, sent in
 * the `x-vtbench-token` header (src/adapters/process/control-token.ts). Without a token (null or absent) every
 * control call is refused (403): no other local process, and nobody on the network when the mock
 * listens beyond loopback, can reset its figures mid-cell (issue 34). Kept apart from MockConfig,
 * which `/stats` and the start line show.
 */
export interface MockControl {
  controlToken?: string | null;
}

/** Builds the app (not listening). Invalid config throws a VtbenchError naming the option. */
export async function createMockServer(config: Partial<MockConfig> = {}, control: MockControl = {}): Promise<FastifyInstance> {
  const cfg = resolveMockConfig(config);
  const app = Fastify({
    logger: cfg.log,
    keepAliveTimeout: cfg.keepAliveTimeoutMs,
    requestTimeout: 0,
    connectionTimeout: 0,
    maxRequestsPerSocket: 0,
    forceCloseConnections: true,
    http: { headersTimeout: cfg.headersTimeoutMs },
  });
  // Node checks header/request timeouts every connectionsCheckingInterval; keep the defaults.

  const stats = new StatsRecorder({ ...cfg });
  const chat = new ChatRoute(cfg, stats);

  app.server.on('connection', (_socket: Socket) => {
    stats.connectionsOpened++;
  });
  app.decorateRequest('mockArrivalNs', 0n);
  app.decorateRequest('mockHeld', false);

  registerErrorHandlers(app, cfg);
  registerInfoRoutes(app, cfg, stats, control.controlToken ?? null);
  registerDelayRoute(app, stats, chat.due);
  // A synchronous handler: every held request is hijacked at once (fastify's request and reply
  // objects are then garbage while it waits), parked in the timing wheel, and answered there with
  // the same bytes fastify would send (a test compares them).
  app.post(CHAT_PATH, { onRequest: chat.onRequest }, chat.handle);
  return app;
}

/** The error handler (OpenAI-style error bodies) and the 404 handler, which also logs the miss. */
function registerErrorHandlers(app: FastifyInstance, cfg: Readonly<MockConfig>): void {
  app.setErrorHandler((err: { statusCode?: number; message?: string }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
    const type = status < 500 ? 'invalid_request_error' : 'server_error';
    return reply.code(status).send(errorBody(err.message ?? 'Internal error', type, null, null));
  });

  app.setNotFoundHandler((req, reply) => {
    const line = `vtbench-mock: 404 ${req.method} ${req.url}`;
    if (cfg.log) req.log.warn(line);
    else process.stderr.write(`${line}\n`);
    return reply.code(404).send(errorBody(`Invalid URL (${req.method} ${req.url})`, 'invalid_request_error', null, null));
  });
}

/**
 * `GET /health`, `GET /stats`, `POST /stats/reset` (a control route: only with the run's token, see
 * MockControl) and `GET /v1/models`.
 */
function registerInfoRoutes(app: FastifyInstance, cfg: Readonly<MockConfig>, stats: StatsRecorder, controlToken: string | null): void {
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/stats', async () => stats.snapshot());
  // control routes: the run's token or nothing (reading /stats stays open)
  const refuseControl = (req: FastifyRequest, reply: FastifyReply): FastifyReply | null => {
    if (controlToken === null) {
      return reply.code(403).send(errorBody(`control calls are refused: this mock was started without ${CONTROL_TOKEN_ENV} in its environment`, 'invalid_request_error', null, null));
    }
    if (!tokenMatches(controlToken, req.headers[CONTROL_TOKEN_HEADER])) {
      return reply.code(401).send(errorBody(`control call without the run's token (header ${CONTROL_TOKEN_HEADER})`, 'invalid_request_error', null, null));
    }
    return null;
  };
  app.post('/stats/reset', async (req, reply) => {
    const refused = refuseControl(req, reply);
    if (refused !== null) return refused;
    stats.reset();
    return stats.snapshot();
  });
  app.get('/v1/models', async () => ({
    object: 'list',
    data: [{ id: cfg.model, object: 'model', created: Math.floor(stats.startedEpochMs / 1000), owned_by: 'vtbench' }],
  }));
}

/**
 * GET /delay?ms=N: answers {"delayedMs":N} N ms after arrival, through the same timing wheel as
 * the chat answers (never early), counted in /stats `delay` only (not in the chat figures).
 */
function registerDelayRoute(app: FastifyInstance, stats: StatsRecorder, due: DueQueue): void {
  function onDelayClose(this: FastifyReply['raw']): void {
    stats.delayLeave(this.writableFinished);
  }
  app.get(DELAY_PATH, (req, reply) => {
    const arrivalMs = nsToMs(process.hrtime.bigint());
    due.runDue(); // after the stamp, as for chat
    const ms = parseDelayMs((req.query as Record<string, unknown>)['ms']);
    if (typeof ms !== 'number') {
      reply.code(400).send(errorBody(ms.message, 'invalid_request_error', 'ms', null));
      return;
    }
    const res = reply.raw;
    stats.delayEnter();
    res.on('close', onDelayClose);
    reply.hijack();
    const body = `{"delayedMs":${ms}}`;
    due.add({
      dueMs: arrivalMs + ms,
      run: () => {
        if (res.destroyed) return;
        res.writeHead(200, { 'content-type': JSON_CONTENT_TYPE, 'content-length': Buffer.byteLength(body) });
        res.end(body);
      },
    });
  });
}

/**
 * The chat route `POST /v1/chat/completions`: its arrival hook (`onRequest`) and its synchronous
 * handler (`handle`), with the state they share — the capacity count (`held`), the request counter
 * (`seq`, for completion ids), the latency and fault draws, the timing wheel (`due`) and the
 * prepared-answer cache. The hook and handler are arrow properties, made once per server (no
 * closure per request); the close/finish listeners are shared by every response.
 */
class ChatRoute {
  /** accepted chat requests not yet finished (capacity limit) */
  private held = 0;
  private seq = 0;
  readonly due = new DueQueue();
  private readonly prepared: PreparedCache;
  private readonly nextLatencyMs: () => number;
  private readonly nextFault: ReturnType<typeof faultDecider>;
  /** Accounting: one shared listener per response, fires after the answer, a reset, or the client leaving. */
  private readonly onClose: (this: ChatResponse) => void;
  /** The lateness sample, taken when a non-stream answer has been written. */
  private readonly onFinish: (this: ChatResponse) => void;

  constructor(
    private readonly cfg: Readonly<MockConfig>,
    private readonly stats: StatsRecorder,
  ) {
    this.nextLatencyMs = latencySampler(cfg, substream(cfg.seed, 'latency'));
    this.nextFault = faultDecider(cfg, substream(cfg.seed, 'faults'));
    this.prepared = new PreparedCache(cfg.completionTokens);
    // Accounting and the lateness sample use one shared listener each (state on the response), not a
    // closure per request.
    const route = this;
    this.onClose = function onChatClose(this: ChatResponse): void {
      stats.leave();
      if (this.vtHeld) route.held--;
      if (this.writableFinished) stats.served++;
    };
    this.onFinish = function onChatFinish(this: ChatResponse): void {
      stats.recordLatenessMs(elapsedMs(this.vtArrivalNs) - this.vtLatencyMs);
    };
  }

  /** The onRequest hook: stamps the arrival, writes the answers already due, starts the accounting. */
  readonly onRequest = (req: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const arrival = process.hrtime.bigint();
    // then the answers already due go out (after the stamp, so their writing is not hidden in this
    // request's latency): in a burst of arrivals they would otherwise wait for the whole burst's
    // parsing before the timers phase (DueQueue.runDue)
    this.due.runDue();
    const res = reply.raw as ChatResponse;
    req.mockArrivalNs = arrival;
    res.vtArrivalNs = arrival;
    res.vtHeld = false;
    res.vtLatencyMs = 0;
    this.stats.enter();
    // one listener per request for all accounting: fires after the answer, a reset, or the client leaving
    res.on('close', this.onClose);
    done();
  };

  /**
   * The handler: 400 on a bad body, 429 over capacity, the injected error / hang / reset faults,
   * else the answer (SSE stream, or a held JSON answer written when due).
   */
  readonly handle = (req: FastifyRequest, reply: FastifyReply): void => {
    const arrival = req.mockArrivalNs;
    const parsed = parseChat(req.body, this.cfg.model);
    if ('param' in parsed) {
      reply.code(400).send(errorBody(parsed.message, 'invalid_request_error', parsed.param, null));
      return;
    }
    const cfg = this.cfg;
    if (cfg.maxConcurrent > 0 && this.held >= cfg.maxConcurrent) {
      this.stats.faults.overCapacity++;
      this.rejectWith(reply, 429, `Capacity of ${cfg.maxConcurrent} concurrent requests reached (mock quota).`, 'requests', 'rate_limit_exceeded');
      return;
    }
    const fault = this.nextFault();
    const latencyMs = this.nextLatencyMs();
    if (fault === 'error') {
      this.rejectInjected(reply);
      return;
    }

    this.held++;
    req.mockHeld = true;
    const res = reply.raw as ChatResponse;
    res.vtHeld = true;
    reply.hijack(); // from here the answer (or its absence) is written on the raw response

    if (fault === 'hang') {
      this.stats.faults.hang++; // never answered; the socket's close (client gives up, or server close) ends it
      return;
    }

    const dueMs = nsToMs(arrival) + latencyMs;
    if (fault === 'reset') {
      this.stats.faults.reset++;
      const socket = req.raw.socket;
      this.due.add({
        dueMs,
        run: () => {
          if (!socket.destroyed) socket.resetAndDestroy();
        },
      });
      return;
    }

    const n = this.seq++;

    if (parsed.stream) {
      const id = completionIdOf(n);
      const plan = planCompletion(parsed.model, parsed.messages, cfg.completionTokens, parsed.maxTokens);
      const created = Math.floor(Date.now() / 1000);
      streamAnswer(req, res, arrival, latencyMs, cfg.interTokenMs, streamEvents(id, created, parsed.model, plan, parsed.includeUsage), cfg.streamHeaders === 'first-token');
      return;
    }

    // Prepared now (cached per model, messages and token limit, so a held request keeps only a
    // reference to a shared string), written when due.
    const body = this.prepared.get(parsed.model, parsed.messages, parsed.maxTokens);
    res.vtLatencyMs = latencyMs;
    this.due.add(new HeldAnswer(dueMs, res, n, body, this.onFinish));
  };

  /** The injected error fault: counts it and answers with the configured status (429, 503 or 500). */
  private rejectInjected(reply: FastifyReply): void {
    const s = this.cfg.errorStatus;
    this.stats.faults[`error${s}`]++;
    if (s === 429) this.rejectWith(reply, 429, 'Rate limit reached (injected fault).', 'requests', 'rate_limit_exceeded');
    else if (s === 503) this.rejectWith(reply, 503, 'The server is overloaded (injected fault).', 'server_error', 'overloaded');
    else this.rejectWith(reply, 500, 'The server had an error (injected fault).', 'server_error', 'server_error');
  }

  /** An OpenAI-style error answer; a 429 carries `retry-after` (the configured seconds). */
  private rejectWith(reply: FastifyReply, status: 429 | 500 | 503, message: string, type: string, code: string): FastifyReply {
    reply.code(status);
    if (status === 429) reply.header('retry-after', String(this.cfg.retryAfterS));
    return reply.send(errorBody(message, type, null, code));
  }
}

/**
 * Writes SSE: headers at once (or, with `headersWithFirstToken`, together with the first token); the
 * role chunk and first token `ttftMs` after arrival; then one token every `itlMs`; the tail (finish,
 * usage, [DONE]) right after the last token.
 */
function streamAnswer(req: FastifyRequest, res: FastifyReply['raw'], arrival: bigint, ttftMs: number, itlMs: number, ev: StreamEvents, headersWithFirstToken = false): void {
  const writeHeaders = () => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.flushHeaders();
  };
  if (!headersWithFirstToken) writeHeaders();
  let next = 0; // index of the next token to write
  let timer: NodeJS.Timeout | undefined;
  const socket = req.raw.socket;
  const stop = () => clearTimeout(timer);
  socket.once('close', stop);
  const step = () => {
    if (res.destroyed) return;
    if (next === 0) {
      const left = ttftMs - elapsedMs(arrival);
      if (left > 0) {
        timer = setTimeout(step, Math.ceil(left));
        return;
      }
      if (headersWithFirstToken) writeHeaders();
      res.write(ev.head);
    }
    if (next < ev.tokens.length) res.write(ev.tokens[next++] as string);
    if (next >= ev.tokens.length) {
      res.end(ev.tail);
      socket.off('close', stop);
      return;
    }
    timer = setTimeout(step, itlMs);
  };
  timer = setTimeout(step, Math.ceil(ttftMs));
}

export interface RunningMock {
  /** `http://HOST:PORT`, without `/v1` */
  url: string;
  port: number;
  app: FastifyInstance;
  config: Readonly<MockConfig>;
  timeouts: MockTimeouts;
  close(): Promise<void>;
}

/** Starts the mock on `host:port` (defaults 127.0.0.1 and 0 = any free port). */
export async function startMock(config: Partial<MockConfig> & Partial<ListenOptions> & MockControl = {}): Promise<RunningMock> {
  const { port, host, controlToken, ...rest } = config;
  const listen = resolveListenOptions({ port, host }, { port: 0, host: LISTEN_OPTIONS.host.default });
  const cfg = resolveMockConfig(rest);
  const app = await createMockServer(cfg, { controlToken: controlToken ?? null });
  // A large backlog so a burst of thousands of connects is not dropped (capped by net.core.somaxconn).
  await app.listen({ port: listen.port, host: listen.host, backlog: 65535 });
  const addr = app.server.address();
  const actualPort = typeof addr === 'object' && addr ? addr.port : listen.port;
  const hostInUrl = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${hostInUrl}:${actualPort}`,
    port: actualPort,
    app,
    config: cfg,
    timeouts: timeoutsOf(app),
    close: () => app.close(),
  };
}
