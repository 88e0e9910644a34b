/**
 * The in-process driver (DriverKind `in-process`, study 004): the harness does not generate the
 * load, the SUT does. One cell = one HTTP call `POST <job.path>?tasks=T&sleepMs=S&timeoutMs=X` to a
 * SUT job route that runs the job inside the SUT JVM, on the request's own thread, never on the
 * executor it measures (sut/…/AsyncBurstJob.java), and answers JSON with its own measurements
 * (src/types/run.ts InProcessJobResult). The driver returns that call as the cell's one request
 * record (worker 0, seq 0: E2E = the whole job as the client saw it) plus the job's answer in
 * `LoadResult.job`, which the pipeline stores as `CellResult.job`.
 *
 * A job that answers non-2xx (504 when it passed its own deadline, 409 when one is already
 * running), an answer that is not a complete job result (`completed` ≠ `tasks`, `timedOut`), a
 * client timeout or a connection error is a failed request, so the cell has no success and the
 * pipeline records it as a failed cell (src/pipeline/failed-cells.ts unusableLoad), never as a
 * measurement. The client waits at most the job's deadline + CLIENT_MARGIN_MS.
 *
 * A job with a study's own answer (`InProcessJob.answer`, e.g. study 003's sweep level) is sent its
 * `params`; an answer the study's check accepts is returned, unread, in `LoadResult.jobAnswer` (the
 * study decides what a stored answer may say: study 003 stores a level that ran out of memory as
 * that level's outcome); an answer it refuses is a failed request as above.
 */
import { request } from 'undici';
import { performance } from 'node:perf_hooks';
import type { InProcessJob } from '../types/study.ts';
import type { InProcessJobResult, StudyJobAnswer } from '../types/run.ts';
import { summarize } from './summarize.ts';
import { classifyError } from './errors.ts';
import type { ErrorClass, LoadResult, RequestRecord } from '../types/load.ts';
import { CONTROL_TOKEN_HEADER } from '../adapters/process/control-token.ts';

/** How much longer than the job's own deadline the client waits for its answer, ms. */
export const CLIENT_MARGIN_MS = 30_000;

/** The fields a job answer must carry, with their JSON types (a cheap shape check before storing). */
const NUMBER_FIELDS = ['tasks', 'sleepMs', 'timeoutMs', 'completed', 'submitMs', 'submitRatePerS', 'queuePollIntervalMs', 'peakRunningTasks', 'peakPlatformThreads', 'virtualTasks', 'platformTasks', 'distinctPlatformThreads'] as const;

/**
 * Why a job answer is not a measurement, or null when it is one: every task completed before the
 * deadline and the fields have their types. Pure.
 */
export function jobProblem(job: InProcessJob, body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return 'the answer is not a JSON object';
  const b = body as Record<string, unknown>;
  for (const f of NUMBER_FIELDS) if (typeof b[f] !== 'number') return `field ${f} is ${JSON.stringify(b[f] ?? null)}, expected a number`;
  if (typeof b['executorClass'] !== 'string' || typeof b['executorBean'] !== 'string') return 'executorBean/executorClass missing';
  if (b['timedOut'] !== false) return `the job passed its deadline of ${job.timeoutMs} ms (completed ${String(b['completed'])} of ${job.tasks})`;
  if (b['tasks'] !== job.tasks || b['completed'] !== job.tasks) return `completed ${String(b['completed'])} of ${String(b['tasks'])} tasks, expected ${job.tasks}`;
  if (typeof b['makespanMs'] !== 'number') return 'makespanMs missing';
  return null;
}

/** The query parameters a job is sent: its `params`, else `tasks`, `sleepMs`, `timeoutMs` (src/plan/sut-limits.ts checks them against the SUT's ranges). Pure. */
export function jobParams(job: InProcessJob): Record<string, string | number> {
  return job.params ? { ...job.params } : { tasks: job.tasks, sleepMs: job.sleepMs, timeoutMs: job.timeoutMs };
}

/** The job's URL: its `params` when it has them, else `tasks`, `sleepMs`, `timeoutMs`. */
export function jobUrl(baseUrl: string, job: InProcessJob): string {
  const q = new URLSearchParams(Object.entries(jobParams(job)).map(([k, v]) => [k, String(v)])).toString();
  return `${baseUrl}${job.path}?${q}`;
}

/**
 * Run one job and return it as a LoadResult (one record). Never rejects for a failed job: the
 * failure is in the record's `errorClass` (and `status`).
 * @param baseUrl the SUT's origin, e.g. http://127.0.0.1:19080
 */
export async function runInProcessJob(baseUrl: string, job: InProcessJob, signal: AbortSignal, controlToken: string | null = null): Promise<LoadResult> {
  const t0EpochMs = Date.now();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const url = jobUrl(baseUrl, job);
  let status: number | null = null;
  let errorClass: ErrorClass | null = null;
  let result: InProcessJobResult | undefined;
  let jobAnswer: StudyJobAnswer | undefined;
  let aborted = false;
  let refused: { status: number; message: string } | undefined;
  try {
    const res = await request(url, {
      method: 'POST',
      signal,
      // the SUT's jobs answer only the run's token (sut/…/ControlTokenFilter.java)
      ...(controlToken !== null ? { headers: { [CONTROL_TOKEN_HEADER]: controlToken } } : {}),
      headersTimeout: job.timeoutMs + CLIENT_MARGIN_MS,
      bodyTimeout: job.timeoutMs + CLIENT_MARGIN_MS,
    });
    status = res.statusCode;
    const text = await res.body.text();
    if (status < 200 || status >= 300) {
      errorClass = 'http';
      if (status >= 400 && status < 500 && status !== 408 && status !== 409 && status !== 429) refused = { status, message: refusalReason(text) };
    } else {
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON: checked below */
      }
      if (job.answer) {
        if (job.answer.problem(job, body) === null) jobAnswer = body as StudyJobAnswer;
        else errorClass = 'other';
      } else if (jobProblem(job, body) === null) result = body as InProcessJobResult;
      else errorClass = 'other';
    }
  } catch (e) {
    if (signal.aborted) aborted = true;
    errorClass = classifyError(e);
  }
  const endMs = performance.now() - t0;
  const record: RequestRecord = { worker: 0, seq: 0, intendedStartMs: 0, startMs: 0, endMs, e2eMs: endMs, status, errorClass, serverTiming: {} };
  const cpu = process.cpuUsage(cpu0);
  return {
    t0EpochMs,
    aborted,
    records: aborted ? [] : [record],
    summary: summarize(aborted ? [] : [record], 1, 1),
    warmup: { count: 0, errors: 0 },
    loadgen: { eventLoopLagP99Ms: null, eventLoopLagMaxMs: null, cpuPct: endMs > 0 ? ((cpu.user + cpu.system) / 1000 / endMs) * 100 : null },
    ...(result ? { job: result } : {}),
    ...(jobAnswer ? { jobAnswer } : {}),
    ...(refused ? { refused } : {}),
  };
}

/** The reason in a refusal's body: Spring's error JSON `message` (then `error`), else the text itself, one line, at most 300 characters. Pure. */
export function refusalReason(text: string): string {
  let reason = text;
  try {
    const b = JSON.parse(text) as Record<string, unknown>;
    const m = typeof b['message'] === 'string' && b['message'] !== '' ? b['message'] : typeof b['error'] === 'string' ? b['error'] : null;
    if (m !== null) reason = m;
  } catch {
    /* not JSON: the text as it is */
  }
  reason = reason.replace(/\s+/g, ' ').trim();
  return reason === '' ? '(no reason given)' : reason.slice(0, 300);
}
