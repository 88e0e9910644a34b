/**
 * What a run needs from the outside world (the mock, the SUT JVMs, the database and their
 * endpoints), as an interface the CLI fills with the real adapters (src/cli/deps.ts) and tests fill
 * with fakes. Apart from src/pipeline/run.ts so the pod-shard driver can wrap it without importing
 * the pipeline.
 */
import type { DbHandle } from '../adapters/db/postgres.ts';
import type { RunCpuReading } from '../compute/analysis/other-cpu.ts';
import type { MockFaults, ResolvedOptions } from '../types/run.ts';
import type { Variant } from '../types/study.ts';
import type { MockStats } from '../types/mock.ts';
import type { PinnedResponse, SutInfo, SutSample } from '../types/sut-api.ts';

/** A started SUT JVM. */
export interface SutHandle {
  /** its process on this host; null for an external SUT (`--sut-url`, src/pipeline/external.ts) */
  pid: number | null;
  /** e.g. http://127.0.0.1:19080 */
  baseUrl: string;
  info: SutInfo;
  /** substring of its command line, to recognise it by pid */
  marker: string;
  /** its log file */
  logFile: string;
  /** one bounded health request (GET /bench/info); true when it answered 2xx in time; never rejects */
  probe(timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
}

/** A started mock LLM. */
export interface MockHandle {
  /** its process on this host; null for an external mock (`--mock-url`) */
  pid: number | null;
  /** base URL without /v1 */
  url: string;
  marker: string;
  logFile: string;
  /** one bounded health request (GET /health); true when it answered 2xx in time; never rejects */
  probe(timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
}

/** What the pipeline needs from the outside world; injected so tests can fake it. */
export interface RunDeps {
  startMock(o: { port: number; latencyMs: number; logFile: string; faults?: MockFaults; streamHeaders?: 'arrival' | 'first-token'; signal?: AbortSignal }): Promise<MockHandle>;
  /** start a SUT JVM for one block: `variant` is the effective variant (overrides applied) */
  /** `signal`: the run's abort; a start in progress stops its process at once and rejects as interrupted */
  startSut(o: { variant: Variant; options: ResolvedOptions; mockUrl: string; logFile: string; signal?: AbortSignal }): Promise<SutHandle>;
  getSamples(baseUrl: string, sinceEpochMs: number): Promise<SutSample[]>;
  getPinned(baseUrl: string): Promise<PinnedResponse | null>;
  getThreadDump(baseUrl: string): Promise<string>;
  getMockStats(url: string): Promise<MockStats | null>;
  /** POST /stats/reset of the mock; the snapshot right after the reset, null if it did not answer */
  resetMockStats(url: string): Promise<MockStats | null>;
  /**
   * the run's control token (src/adapters/process/control-token.ts), sent with the SUT's control calls (its
   * `/bench/job/*`: the in-process driver's jobs); absent or null: none sent
   */
  controlToken?: string | null;
  /**
   * the run's PostgreSQL (own server or `--db-url`, src/adapters/db/postgres.ts), started when a scenario of
   * the plan has `usesDb`; `maxPool` is the largest Hikari pool of the plan. Absent: a plan that needs
   * a database stops before any SUT starts.
   */
  startDb?(o: { maxPool: number; logFile: string }): Promise<DbHandle>;
  /**
   * one reading of the machine's CPU and of this run's processes (the harness and everything it
   * started) for a cell's `otherCpuShare`; absent: /proc (src/adapters/host/host.ts readRunCpu). Tests
   * pass synthetic readings.
   */
  readRunCpu?(): RunCpuReading | null;
  /** the CPUs a process may run on (RunManifest.affinity); absent: /proc/<pid>/status (cpusAllowedOf) */
  cpusAllowed?(pid: number): string | null;
  /** `--isolate-cpus`: set every thread of `pid` to `cpus`; absent: taskset (src/adapters/host/affinity.ts setProcessAffinity) */
  setProcessAffinity?(pid: number, cpus: string): void;
}
