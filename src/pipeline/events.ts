/**
 * Run events. The pipeline emits them; subscribers draw progress (stderr) or print JSON lines
 * (stdout, `--json`). Drawing is never the pipeline's job.
 */
import cliProgress from 'cli-progress';
import type { Plan } from '../plan/plan.ts';
import { formatDuration } from '../plan/plan.ts';
import type { LoadSummary } from '../types/load.ts';
import type { CellFlag } from '../types/run.ts';

export type RunEvent =
  | { type: 'plan'; runId: string; runDir: string; study: string; profile: string; scenario: string; variants: string[]; totalRequests: number; theoreticalS: number; remainingTheoreticalS: number; cells: number; resumedCells: number }
  | { type: 'info'; message: string }
  | { type: 'block-start'; blockId: string }
  /**
   * open loop: `workers` is the warm-up's arrival rate (req/s), sent for `durationS`; WebSocket
   * (`driver` 'websocket'): `workers` connections held for `durationS`
   */
  | { type: 'warmup'; blockId: string; workers: number; requestsPerWorker: number; durationS?: number; driver?: string; sendUntilS?: number }
  | { type: 'cell-start'; cellId: string; requests: number; theoreticalS: number }
  | { type: 'progress'; cellId: string; done: number; total: number }
  /** `job`: an in-process cell's own figures (its load summary then counts one request, the job call) */
  | { type: 'cell-end'; cellId: string; summary: LoadSummary; boundRps: number; flags: CellFlag[]; durationMs: number; job?: { completed: number; tasks: number; makespanMs: number | null; submitMs: number; theoreticalS: number } }
  /** the cell was not written: a component died during it, or its result was unusable */
  | { type: 'cell-failed'; cellId: string; cause: string }
  | { type: 'run-end'; status: 'complete' | 'interrupted' | 'failed'; runDir: string; elapsedS: number };

export type Emit = (e: RunEvent) => void;

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
 * Human progress on stderr: one bar per cell (requests done / total), elapsed, and an ETA for the
 * whole run from the plan's theoretical durations of the cells still to run. Elapsed time and ETA
 * are also refreshed once a second without progress events (an in-process job reports only at its
 * end, a held open-loop backlog may answer nothing for a while); the timer is unref'd.
 */
export function textSubscriber(err: NodeJS.WriteStream, plan: Plan): Emit {
  const theory = new Map(plan.cells.map((c) => [c.cellId, c.theoreticalS]));
  let remainingS = 0;
  let bar: cliProgress.SingleBar | null = null;
  let cellStart = 0;
  let cellTheory = 0;
  const t0 = Date.now();
  const isTty = Boolean(err.isTTY);
  const line = (s: string) => err.write(s + '\n');
  let done = 0;
  let ticker: NodeJS.Timeout | null = null;
  const refresh = () => {
    const elapsedS = (Date.now() - cellStart) / 1000;
    const cellLeft = Math.max(0, cellTheory - elapsedS);
    bar?.update(done, { elapsed: formatDuration(elapsedS), runEta: formatDuration(remainingS - cellTheory + cellLeft) });
  };
  const stopBar = () => {
    if (ticker) clearInterval(ticker);
    ticker = null;
    bar?.stop();
    bar = null;
  };
  return (e) => {
    switch (e.type) {
      case 'plan':
        remainingS = e.remainingTheoreticalS;
        if (e.resumedCells > 0) line(`resuming: ${e.resumedCells} of ${e.cells} cells already done`);
        break;
      case 'info':
        line(e.message);
        break;
      case 'block-start':
        line(`— JVM block ${e.blockId}`);
        break;
      case 'warmup':
        line(e.durationS === undefined
          ? `  warm-up: ${e.workers} workers × ${e.requestsPerWorker} request(s)${e.sendUntilS !== undefined ? ` (no send after ${Math.round(e.sendUntilS)} s)` : ''}, not recorded`
          : e.driver === 'websocket'
            ? `  warm-up: ${e.workers} WebSocket connections held ${e.durationS} s, not recorded`
            : `  warm-up: ${e.workers} req/s for ${e.durationS} s (open loop), not recorded`);
        break;
      case 'cell-start':
        cellStart = Date.now();
        cellTheory = e.theoreticalS;
        bar = new cliProgress.SingleBar(
          {
            format: `  ${e.cellId.padEnd(18)} {bar} {value}/{total} req | {elapsed} | run ETA {runEta}`,
            stream: err,
            noTTYOutput: !isTty,
            notTTYSchedule: 10_000,
            hideCursor: false,
            clearOnComplete: false,
            barsize: 24,
          },
          cliProgress.Presets.shades_classic,
        );
        done = 0;
        bar.start(e.requests, 0, { elapsed: '0 s', runEta: formatDuration(remainingS) });
        ticker = setInterval(refresh, 1000);
        ticker.unref();
        break;
      case 'progress':
        done = e.done;
        refresh();
        break;
      case 'cell-end': {
        stopBar();
        remainingS -= theory.get(e.cellId) ?? 0;
        const flagText = e.flags.length ? `; flags: ${e.flags.map((f) => f.code).join(', ')}` : '';
        if (e.job) {
          const j = e.job;
          line(`    job: ${j.completed}/${j.tasks} tasks, makespan ${j.makespanMs === null ? '–' : `${(j.makespanMs / 1000).toFixed(2)} s`} (theory ${j.theoreticalS.toFixed(2)} s), submitting ${(j.submitMs / 1000).toFixed(2)} s${flagText}`);
          break;
        }
        const s = e.summary;
        if (s.websocket) {
          const w = s.websocket;
          const late = w.latenessMs ? `${w.latenessMs.p50.toFixed(1)} / ${w.latenessMs.p99.toFixed(1)} ms` : '–';
          line(`    WebSocket: ${w.opened}/${w.connections} opened, ${(w.deliveredShare * 100).toFixed(2)} % of ${w.messagesExpected} messages in the window, lateness P50/P99 ${late}${w.noProgress ? ', no progress (watchdog)' : ''}${flagText}`);
          break;
        }
        const x = s.wholeRunThroughputRps;
        const p95 = s.e2eMs?.p95;
        const errs = s.count - s.ok;
        const pct = (v: number | null) => (v === null ? '–' : `${v.toFixed(2)} req/s = ${((100 * v) / e.boundRps).toFixed(1)} %`);
        line(`    whole-run ${pct(x)}, steady-state ${pct(s.steadyStateThroughputRps)} of bound ${e.boundRps.toFixed(2)}; E2E P95 ${p95 === undefined ? '–' : p95.toFixed(0)} ms; errors ${errs}${flagText}`);
        break;
      }
      case 'cell-failed':
        stopBar();
        line(`    FAILED, not recorded as a measurement: ${e.cause}`);
        break;
      case 'run-end':
        stopBar();
        line(`run ${e.status} after ${formatDuration((Date.now() - t0) / 1000)}: ${e.runDir}`);
        break;
    }
  };
}
