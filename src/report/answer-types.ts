/**
 * The answer block (issue 31): what a team decides on, computed from the report model and shown
 * first — at the top of every report (Markdown/HTML), at the end of every run and of `report` in
 * the terminal, and as one line on the front page (report/index.*). Types only; the generic
 * computation is src/report/answer.ts, a study may replace it with its hook's `answer`
 * (StudyReportHook.answer, src/report/types.ts).
 *
 * Honesty rules the computation follows:
 * - every value is the median of the repeats; when the repeats disagree (max/min − 1 above
 *   {@link REPEATS_DISAGREE}) the arm's `repeats` lists each repeat's value and renderers say so;
 * - `limitedBy` names a cap only when the data show it saturated (busy = cap, pending/queue > 0,
 *   CPU ≥ the saturation threshold); an arm is never said to be limited by a bound it exceeded
 *   (measured > bound × (1 + {@link BOUND_EXCEEDED_TOL})): then `kind` is 'unknown' with `note`
 *   'bound-exceeded';
 * - `source` says whether the utilisation was read (measured: sampler, mock, thread dump, JMX,
 *   actuator) or derived from theory (inferred).
 */
import type { VariantId } from '../types/run.ts';

/** repeats disagree when max / min − 1 exceeds this (10 %): the block lists each repeat's value */
export const REPEATS_DISAGREE = 0.1;
/** a measured value above its bound by more than this share exceeded the bound (it cannot be what limited it) */
export const BOUND_EXCEEDED_TOL = 0.02;

/** What limited one arm (variant) in one answer row. */
export interface AnswerLimit {
  /**
   * - executor: a platform pool full (active = N, queue > 0)
   * - db-pool: the JDBC connection pool (e.g. Hikari's 10 connections) full, threads waiting
   * - lock: a monitor/lock serialises the work (e.g. `synchronized` with pinning)
   * - http-client: the HTTP client's connection pool / dispatcher
   * - tomcat: the web server's worker threads or connections
   * - cpu: the service's CPU (cores ÷ CPU-seconds per request)
   * - host: the machine, not the code under test (host CPU taken by others, load generator lag)
   * - offered-load: nothing in the service; the closed loop's c workers ÷ L (the arm reached c/L)
   * - memory: heap or native memory (OOM, thread start failed)
   * - upstream: the downstream service (the mock LLM's concurrency, a quota)
   * - unknown: the data show no saturated cap (or the arm exceeded the bound that was the candidate)
   */
  kind: 'executor' | 'db-pool' | 'lock' | 'http-client' | 'tomcat' | 'cpu' | 'host' | 'offered-load' | 'memory' | 'upstream' | 'unknown';
  /** the cap's size in `unit` (32 threads, 10 connections, 2 cores); null when it has none */
  cap: number | null;
  /** the utilisation that shows it, in `unit` (32 busy, 97 % CPU, 190 waiting); null when not measured */
  used: number | null;
  /** unit of cap/used: 'threads' | 'connections' | 'cores' | '%' | 'workers' | 'waiting' … (phrase `unit.<unit>`) */
  unit: string;
  /** measured = read from the run (sampler, mock, thread dump, JMX, actuator); inferred = from theory */
  source: 'measured' | 'inferred';
  /** optional phrase key suffix (`limit.note.<note>`) with the reason, e.g. 'bound-exceeded' */
  note?: string;
}

/** One arm (variant) of an answer row. Units: `unit` for value/bound; latencies in ms. */
export interface AnswerArm {
  variant: VariantId;
  /** what `value` is: throughput (req/s), ops (ops/s, study 003), makespan (ms, study 004's jobs; lower is better) */
  metric: 'throughput' | 'ops' | 'makespan';
  unit: 'req/s' | 'ops/s' | 'ms';
  /** median over repeats; null = not measured (a failed cell) */
  value: number | null;
  /** each repeat's value, in repeat order, when they disagree (see REPEATS_DISAGREE); else empty */
  repeats: (number | null)[];
  /** the theoretical bound in `unit` (N/L, c/L, the CPU bound, ⌈T/N⌉ × S); null when there is none */
  bound: number | null;
  /** value ÷ bound × 100 (for makespan: bound ÷ value × 100); null without a bound */
  pctOfBound: number | null;
  /** end-to-end latency percentiles, ms (op latency for 003); null when not measured */
  p95Ms: number | null;
  p99Ms: number | null;
  limitedBy: AnswerLimit;
}

/** One scenario at one level that matters (e.g. the highest level, the first level above the pool). */
export interface AnswerRow {
  /** the scenario id (002's io-100ms, cpu-fib, …); null when the study has one scenario */
  scenario: string | null;
  /** the level: concurrent workers, offered req/s, threads, tasks, clients, connections */
  level: number;
  levelUnit: 'workers' | 'req/s offered' | 'threads' | 'tasks' | 'clients' | 'connections';
  /** baseline first (platform threads), then the candidate(s) (virtual threads) */
  arms: AnswerArm[];
  /**
   * candidate ÷ baseline of `value` for throughput/ops; baseline ÷ candidate for makespan (so > 1
   * always means the candidate is better); null when either is missing or there is one arm
   */
  ratio: number | null;
  /** the ratio computed per repeat when the repeats disagree (same rule as AnswerArm.repeats); else empty */
  ratioRepeats: (number | null)[];
}

/** How far the reader can trust the block: one line. */
export interface AnswerTrust {
  /** cells with a result / planned */
  cells: number;
  plannedCells: number;
  /** cells the host limited (host-cpu, loadgen-lag, scheduler delay on the carriers, other processes' CPU) */
  hostLimited: number;
  /** flags by code, with the count of cells flagged */
  flagsByKind: Record<string, number>;
  /** gaps (planned cells without a result) */
  gaps: number;
  repeats: number;
}

/** The answer block of one run. */
export interface AnswerBlock {
  /**
   * the one-line answer: 'faster' (every row's ratio > 1 + 5 %), 'slower' (every row < 1 − 5 %),
   * 'same' (all within ±5 %), 'depends' (some each way: the answer depends on the level), 'none' (no row has a ratio: one arm, or a
   * sweep — then `rows` carry the figures and the study's phrase says the answer)
   */
  verdict: 'faster' | 'slower' | 'same' | 'depends' | 'none';
  /** the smallest and largest row ratio (null when no row has one) */
  ratioRange: [number, number] | null;
  rows: AnswerRow[];
  trust: AnswerTrust;
  /** the headline chart's figure name (`figures/<chart>.svg`, `{{fig:<chart>}}`), null when the run has none */
  chart: string | null;
  /** optional study phrase key (`answer.<key>`) for a study-specific one-line answer (e.g. 003's knee) with its values */
  studyLine?: { key: string; v: Record<string, string | number> };
}
