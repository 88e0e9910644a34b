/**
 * Run events. The pipeline emits them; subscribers draw progress (stderr) or print JSON lines
 * (stdout, `--json`). Drawing is never the pipeline's job.
 */
import cliProgress from 'cli-progress';
import type { Plan } from '../plan/plan.ts';
import { formatDuration } from '../plan/plan.ts';
import { START_COST_S } from '../plan/starts.ts';
import type { LoadSummary } from '../types/load.ts';
import type { CellFlag } from '../types/run.ts';

export type RunEvent =
  /**
   * `remainingTheoreticalS`: the theoretical load time of the cells still to measure, s;
   * `remainingWarmupS`: the planned warm-ups and alone probes of the blocks still to run, s;
   * `remainingStarts`: the SUT JVMs and the PostgreSQL still to start (src/plan/starts.ts). The ETA adds them all.
   */
  | { type: 'plan'; runId: string; runDir: string; study: string; profile: string; scenario: string; variants: string[]; totalRequests: number; theoreticalS: number; remainingTheoreticalS: number; remainingWarmupS: number; remainingStarts: { sutJvms: number; postgres: boolean }; cells: number; resumedCells: number }
  | { type: 'info'; message: string }
  | { type: 'block-start'; blockId: string }
  /**
   * a start begins: the SUT jar's Maven build, a block's SUT JVM (`id`: the block), PostgreSQL;
   * `expectedS`: its planned cost (START_COST_S, src/plan/starts.ts)
   */
  | { type: 'starting'; what: StartKind; id?: string; expectedS: number }
  /** the start ended: built, answering, accepting connections; `elapsedS` measured */
  | { type: 'started'; what: StartKind; id?: string; elapsedS: number }
  /**
   * open loop: `workers` is the warm-up's arrival rate (req/s), sent for `durationS`; WebSocket
   * (`driver` 'websocket'): `workers` connections held for `durationS`
   */
  | { type: 'warmup'; blockId: string; workers: number; requestsPerWorker: number; durationS?: number; driver?: string; sendUntilS?: number }
  /** `counted`: whether the driver reports requests done as it goes (`progress`); false for a job the SUT runs itself or held WebSocket connections, whose bar then moves with the clock against the cell's theory */
  | { type: 'cell-start'; cellId: string; requests: number; theoreticalS: number; counted?: boolean }
  | { type: 'progress'; cellId: string; done: number; total: number }
  /** `job`: an in-process cell's own figures (its load summary then counts one request, the job call) */
  | { type: 'cell-end'; cellId: string; summary: LoadSummary; boundRps: number; flags: CellFlag[]; durationMs: number; job?: { completed: number; tasks: number; makespanMs: number | null; submitMs: number; theoreticalS: number }; answerLine?: string }
  /** the cell was not written: a component died during it, or its result was unusable */
  | { type: 'cell-failed'; cellId: string; cause: string }
  | { type: 'run-end'; status: 'complete' | 'interrupted' | 'failed'; runDir: string; elapsedS: number };

export type Emit = (e: RunEvent) => void;

/** What a `starting`/`started` event is about. */
export type StartKind = 'sut-build' | 'sut-jvm' | 'postgres';

/**
 * Emit `starting` before `start()` and `started` (with the seconds it took) after it resolves;
 * nothing more when it throws (the error says why).
 */
export async function timedStart<T>(emit: Emit, what: StartKind, id: string | undefined, start: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  emit({ type: 'starting', what, ...(id !== undefined ? { id } : {}), expectedS: START_COST_S[what === 'sut-build' ? 'sutBuild' : what === 'sut-jvm' ? 'sutJvm' : 'postgres'] });
  const r = await start();
  emit({ type: 'started', what, ...(id !== undefined ? { id } : {}), elapsedS: (Date.now() - t0) / 1000 });
  return r;
}

/** JSON lines on a stream (stdout with --json). Progress events are thinned to one per second per cell. */
export function jsonSubscriber(out: NodeJS.WritableStream): Emit {
  let lastProgress = 0;
  return (e) => {
    if (e.type === 'progress') {
      const now = Date.now();
      if (now - lastProgress < 1000 && e.done !== e.total) return;
      lastProgress = now;
    }
    out.write(JSON.stringify({ t: new Date().toISOString(), ...e }) + '\n');
  };
}


/**
 * What the run's ETA is made of: the theoretical load time of the cells not yet ended, the planned
 * warm-ups and probes of the blocks not yet begun, and the starts still ahead (START_COST_S each).
 */
export interface EtaState {
  /** theoretical time of the cells not yet ended, s (the running one included) */
  cellsLeftS: number;
  /** planned warm-ups and alone probes of the blocks not yet begun, s */
  warmupsLeftS: number;
  /** SUT JVMs still to start */
  sutJvmsLeft: number;
  /** PostgreSQL still to start */
  postgresLeft: boolean;
}

/**
 * The run's ETA, s: the cells left, with the running cell counted by its theory less its elapsed
 * time (never below 0), plus the warm-ups left and the starts left at their planned costs. Pure.
 * @param cellTheoryS the running cell's theoretical duration, s (0 between cells)
 * @param cellElapsedS how long the running cell has run, s
 */
export function runEtaS(st: EtaState, cellTheoryS = 0, cellElapsedS = 0): number {
  const cellLeft = Math.max(0, cellTheoryS - cellElapsedS);
  return st.cellsLeftS - cellTheoryS + cellLeft + st.warmupsLeftS + st.sutJvmsLeft * START_COST_S.sutJvm + (st.postgresLeft ? START_COST_S.postgres : 0);
}

/** The ETA after a start ended: one SUT JVM or the PostgreSQL fewer to start (never below none). Pure. */
export function afterStart(st: EtaState, what: StartKind): EtaState {
  if (what === 'sut-jvm') return { ...st, sutJvmsLeft: Math.max(0, st.sutJvmsLeft - 1) };
  if (what === 'postgres') return { ...st, postgresLeft: false };
  return st;
}

/** What a start is called in the progress lines. */
function startName(what: StartKind, id: string | undefined): string {
  if (what === 'sut-build') return 'the SUT jar (Maven build)';
  if (what === 'postgres') return 'PostgreSQL';
  return `the SUT JVM${id === undefined ? '' : ` of block ${id}`}`;
}

/**
 * The line of a `starting` event, e.g. `  starting the SUT JVM of block fixed-r1`. A SUT JVM's line
 * names no expected time: its START_COST_S is the whole block's overhead, not the start alone. Pure.
 */
export function startingLine(e: Extract<RunEvent, { type: 'starting' }>): string {
  if (e.what === 'sut-build') return `building the SUT jar with Maven: sut/ changed since the last build (≈ ${formatDuration(e.expectedS)} with a filled Maven repository)`;
  if (e.what === 'postgres') return `  starting PostgreSQL for the database scenarios (≈ ${formatDuration(e.expectedS)})`;
  return `  starting ${startName(e.what, e.id)}`;
}

/** The line of a `started` event, e.g. `  the SUT JVM of block fixed-r1 ready after 6.4 s`. Pure. */
export function startedLine(e: Extract<RunEvent, { type: 'started' }>): string {
  const took = `${e.elapsedS.toFixed(1)} s`;
  if (e.what === 'sut-build') return `built the SUT jar in ${took}`;
  return `  ${startName(e.what, e.id)} ready after ${took}`;
}

/** The line of a `warmup` event: closed loop, WebSocket or open loop. Pure. */
export function warmupLine(e: Extract<RunEvent, { type: 'warmup' }>): string {
  return e.durationS === undefined
    ? `  warm-up: ${e.workers} workers × ${e.requestsPerWorker} request(s)${e.sendUntilS !== undefined ? ` (no send after ${Math.round(e.sendUntilS)} s)` : ''}, not recorded`
    : e.driver === 'websocket'
      ? `  warm-up: ${e.workers} WebSocket connections held ${e.durationS} s, not recorded`
      : `  warm-up: ${e.workers} req/s for ${e.durationS} s (open loop), not recorded`;
}

/** The line of a `cell-end` event: a study's job answer's (its own line), an in-process job's, a WebSocket cell's, or an HTTP cell's figures. Pure. */
export function cellEndLine(e: Extract<RunEvent, { type: 'cell-end' }>): string {
  const flagText = e.flags.length ? `; flags: ${e.flags.map((f) => f.code).join(', ')}` : '';
  if (e.answerLine !== undefined) return `    ${e.answerLine}${flagText}`; // a study's own job answer, in its study's words (JobAnswerCheck.describe)
  if (e.job) {
    const j = e.job;
    return `    job: ${j.completed}/${j.tasks} tasks, makespan ${j.makespanMs === null ? '–' : `${(j.makespanMs / 1000).toFixed(2)} s`} (theory ${j.theoreticalS.toFixed(2)} s), submitting ${(j.submitMs / 1000).toFixed(2)} s${flagText}`;
  }
  const s = e.summary;
  if (s.websocket) {
    const w = s.websocket;
    const late = w.latenessMs ? `${w.latenessMs.p50.toFixed(1)} / ${w.latenessMs.p99.toFixed(1)} ms` : '–';
    return `    WebSocket: ${w.opened}/${w.connections} opened, ${(w.deliveredShare * 100).toFixed(2)} % of ${w.messagesExpected} messages in the window, lateness P50/P99 ${late}${w.noProgress ? ', no progress (watchdog)' : ''}${flagText}`;
  }
  const x = s.wholeRunThroughputRps;
  const p95 = s.e2eMs?.p95;
  const errs = s.count - s.ok;
  const pct = (v: number | null) => (v === null ? '–' : `${v.toFixed(2)} req/s = ${((100 * v) / e.boundRps).toFixed(1)} %`);
  return `    whole-run ${pct(x)}, steady-state ${pct(s.steadyStateThroughputRps)} of bound ${e.boundRps.toFixed(2)}; E2E P95 ${p95 === undefined ? '–' : p95.toFixed(0)} ms; errors ${errs}${flagText}`;
}

/**
 * One cell's progress bar on stderr: requests done / total, the cell's elapsed time and the run's
 * ETA (runEtaS), refreshed on progress and once a second without (the timer is unref'd).
 */
class CellBar {
  private bar: cliProgress.SingleBar | null = null;
  private ticker: NodeJS.Timeout | null = null;
  private started = 0;
  private theoryS = 0;
  private done = 0;

  constructor(private readonly err: NodeJS.WriteStream, private readonly eta: () => EtaState) {}

  /** whether the bar counts requests (else it moves with the clock, against the cell's theory) */
  private counted = true;

  /**
   * A bar for a starting cell of `requests` requests and `theoryS` s of theory; with `counted`
   * false (a driver without per-request progress) the bar is the elapsed seconds of the theory.
   */
  start(cellId: string, requests: number, theoryS: number, counted = true): void {
    this.stop();
    this.started = Date.now();
    this.theoryS = theoryS;
    this.done = 0;
    this.counted = counted;
    const what = counted ? '{value}/{total} req | {elapsed}' : `{elapsed} of ≈ ${formatDuration(theoryS)} (no per-request count)`;
    this.bar = new cliProgress.SingleBar(
      {
        format: `  ${cellId.padEnd(18)} {bar} ${what} | run ETA {runEta}`,
        stream: this.err,
        noTTYOutput: !this.err.isTTY,
        notTTYSchedule: 10_000,
        hideCursor: false,
        clearOnComplete: false,
        barsize: 24,
      },
      cliProgress.Presets.shades_classic,
    );
    this.bar.start(counted ? requests : Math.max(1, Math.ceil(theoryS)), 0, { elapsed: '0 s', runEta: formatDuration(runEtaS(this.eta())) });
    this.ticker = setInterval(() => this.refresh(), 1000);
    this.ticker.unref();
  }

  /** Requests done so far (undefined: only the clock moved). */
  refresh(done?: number): void {
    const elapsedS = (Date.now() - this.started) / 1000;
    if (done !== undefined) this.done = done;
    else if (!this.counted) this.done = Math.min(Math.floor(elapsedS), Math.max(1, Math.ceil(this.theoryS))); // the clock against the theory, never past its end
    this.bar?.update(this.done, { elapsed: formatDuration(elapsedS), runEta: formatDuration(runEtaS(this.eta(), this.theoryS, elapsedS)) });
  }

  /** The cell ended: a clock bar shows its whole theory done (a counted bar keeps the last count it was told). */
  complete(): void {
    if (!this.counted && this.bar) {
      this.done = this.bar.getTotal();
      this.refresh(this.done);
    }
  }

  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
    this.bar?.stop();
    this.bar = null;
  }
}

/**
 * Human progress on stderr: a line per JVM block, per start (begun, and ready after how many
 * seconds), per warm-up and per cell's result; one bar per cell (CellBar) with the run's ETA from
 * the theoretical durations of the cells still to run plus the starts still ahead (runEtaS).
 */
export function textSubscriber(err: NodeJS.WriteStream, plan: Plan): Emit {
  const theory = new Map(plan.cells.map((c) => [c.cellId, c.theoreticalS]));
  const blockExtraS = new Map(plan.blocks.map((b) => [b.blockId, (b.warmup?.theoreticalS ?? 0) + (b.aloneProbe?.theoreticalS ?? 0)]));
  let eta: EtaState = { cellsLeftS: 0, warmupsLeftS: 0, sutJvmsLeft: 0, postgresLeft: false };
  const bar = new CellBar(err, () => eta);
  const t0 = Date.now();
  const line = (s: string) => err.write(s + '\n');
  return (e) => {
    switch (e.type) {
      case 'plan':
        eta = { cellsLeftS: e.remainingTheoreticalS, warmupsLeftS: e.remainingWarmupS, sutJvmsLeft: e.remainingStarts.sutJvms, postgresLeft: e.remainingStarts.postgres };
        if (e.resumedCells > 0) line(`resuming: ${e.resumedCells} of ${e.cells} cells already done`);
        return;
      case 'info': return void line(e.message);
      case 'block-start':
        // its warm-up and probe are under way: out of the ETA (no bar is drawn until its first cell)
        eta = { ...eta, warmupsLeftS: Math.max(0, eta.warmupsLeftS - (blockExtraS.get(e.blockId) ?? 0)) };
        return void line(`— JVM block ${e.blockId}`);
      case 'starting': return void line(startingLine(e));
      case 'started':
        eta = afterStart(eta, e.what);
        return void line(startedLine(e));
      case 'warmup': return void line(warmupLine(e));
      case 'cell-start': return bar.start(e.cellId, e.requests, e.theoreticalS, e.counted ?? true);
      case 'progress': return bar.refresh(e.done);
      case 'cell-end':
        bar.complete();
        bar.stop();
        eta = { ...eta, cellsLeftS: eta.cellsLeftS - (theory.get(e.cellId) ?? 0) };
        return void line(cellEndLine(e));
      case 'cell-failed':
        bar.stop();
        return void line(`    FAILED, not recorded as a measurement: ${e.cause}`);
      case 'run-end':
        bar.stop();
        return void line(`run ${e.status} after ${formatDuration((Date.now() - t0) / 1000)}: ${e.runDir}`);
    }
  };
}
