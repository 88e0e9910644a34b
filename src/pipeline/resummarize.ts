/**
 * Re-derive every cell's load summary and flags of a run from its raw per-request data, with this
 * version's definitions (src/load/summarize.ts, src/compute/analysis/flags.ts), then rebuild summary.json.
 * Raw data (requests, samples, thread dumps) is never changed; the manifest records that it was done.
 * Used when a definition changes after a run was measured: `npx zx run.mjs resummarize runs/<id>`.
 * Lives in analysis, not in the store: it applies the pipeline's flag rules, and the store imports
 * neither theory nor pipeline.
 */
import { summarize } from '../load/summarize.ts';
import type { RequestRecord } from '../types/load.ts';
import { computeFlags, generatorDelayThresholdMs } from '../compute/analysis/flags.ts';
import { firstIntendedStartMs } from '../load/schedule.ts';
import { summarizeOpenLoop } from '../load/open-loop.ts';
import { RunStore } from '../adapters/store/run-store.ts';
import { resumeArg } from '../adapters/store/resume-arg.ts';
import { buildSummary } from '../compute/analysis/summary.ts';
import type { CompactRequests, StartMode } from '../types/run.ts';

/**
 * Columns back to records (endMs = startMs + e2eMs; `req` when the cell stored the mix's column). intendedStartMs is read from the column when
 * stored (schema version 3). Runs before did not store it; with
 * `schedule` it is rebuilt by the generator's own rule (src/load/run.ts): a worker's first request
 * at its start slot (firstIntendedStartMs), each later one at the end of the worker's previous
 * request (closed loop; exact to the stored µs). Without `schedule`, or when the previous request
 * of a worker is not in the data, it is startMs (no send delay known).
 */
export function expandRequests(req: CompactRequests, schedule?: { start: StartMode; concurrency: number; rampMs: number }): RequestRecord[] {
  const out: RequestRecord[] = [];
  const endOf = new Map<string, number>(); // `${worker}:${seq}` -> endMs
  if (schedule !== undefined) {
    for (let i = 0; i < req.e2eMs.length; i++) endOf.set(`${req.worker[i]!}:${req.seq[i]!}`, req.startMs[i]! + req.e2eMs[i]!);
  }
  for (let i = 0; i < req.e2eMs.length; i++) {
    const startMs = req.startMs[i]!;
    const e2eMs = req.e2eMs[i]!;
    const serverTiming: Record<string, number> = {};
    const q = req.queueMs[i];
    const x = req.execMs[i];
    if (q !== null && q !== undefined) serverTiming['queue'] = q;
    if (x !== null && x !== undefined) serverTiming['exec'] = x;
    for (const k in req.timingMs ?? {}) {
      const v = req.timingMs![k]![i];
      if (v !== null && v !== undefined) serverTiming[k] = v;
    }
    const kind = req.errorKind?.[i];
    const mixEntry = req.req?.[i];
    const status = req.status[i]!;
    const err = req.error[i];
    const worker = req.worker[i]!;
    const seq = req.seq[i]!;
    let intendedStartMs = startMs;
    const stored = req.intendedStartMs?.[i];
    if (stored !== undefined) {
      intendedStartMs = stored; // schema 3 stores it
    } else if (schedule !== undefined) {
      intendedStartMs = seq === 0
        ? firstIntendedStartMs(schedule.start, worker, schedule.concurrency, schedule.rampMs)
        : (endOf.get(`${worker}:${seq - 1}`) ?? startMs);
    }
    out.push({
      worker, seq, intendedStartMs, startMs, endMs: startMs + e2eMs, e2eMs,
      status: status === 0 ? null : status, errorClass: err === '' || err === undefined ? null : err, serverTiming,
      ...(kind !== null && kind !== undefined ? { errorKind: kind } : {}),
      ...(mixEntry !== undefined ? { req: mixEntry } : {}),
    });
  }
  return out;
}

/** @returns ids of the cells rewritten */
export function resummarizeRun(runDir: string, errorFlagThreshold?: number): string[] {
  const store = new RunStore(runDir);
  const manifest = store.readManifest();
  const threshold = errorFlagThreshold ?? manifest.options.errorFlagThreshold;
  const done: string[] = [];
  const requests = new Map<string, CompactRequests>();
  const flagsBefore: string[] = [];
  const flagsAfter: string[] = [];
  for (const cell of store.readDoneCells(manifest.cellOrder)) {
    const req = store.readRequests(cell.cellId);
    requests.set(cell.cellId, req);
    const records = expandRequests(req, { start: cell.start, concurrency: cell.concurrency, rampMs: manifest.options.rampMs });
    const load = summarize(records, cell.load.concurrency, cell.requestsPerWorker, { lateSendThresholdMs: generatorDelayThresholdMs(cell.latencyMs) });
    const ol = cell.load.openLoop;
    if (ol !== undefined) load.openLoop = summarizeOpenLoop(records, req.unsent?.seq.length ?? 0, ol);
    const flags = computeFlags({
      executor: cell.executor,
      latencyMs: cell.latencyMs,
      t0EpochMs: cell.t0EpochMs,
      sutSamples: cell.samples,
      load,
      eventLoopLagP99Ms: cell.loadgen.eventLoopLagP99Ms,
      eventLoopLagMaxMs: cell.loadgen.eventLoopLagMaxMs,
      loadgenCpuPct: cell.loadgen.cpuPct,
      hostCpuPct: cell.loadgen.hostCpuPct,
      errorFlagThreshold: threshold,
      ...(cell.otherCpuShare !== undefined ? { otherCpuShare: cell.otherCpuShare } : {}),
    });
    store.writeCellKeepingRequests({ ...cell, load, flags }); // the raw records stay as stored
    for (const f of cell.flags) flagsBefore.push(`${cell.cellId} ${f.code}`);
    for (const f of flags) flagsAfter.push(`${cell.cellId} ${f.code}`);
    done.push(cell.cellId);
  }
  store.writeSummary(buildSummary(manifest, store.readDoneCells(manifest.cellOrder), requests));
  const added = flagsAfter.filter((f) => !flagsBefore.includes(f));
  const removed = flagsBefore.filter((f) => !flagsAfter.includes(f));
  const change = added.length + removed.length === 0 ? 'flags unchanged' : `flags added: ${added.join(', ') || 'none'}; flags removed: ${removed.join(', ') || 'none'}`;
  const note = `${new Date().toISOString()}: cell load summaries and flags re-derived from the stored per-request data (requests are rounded to 1 µs) with vtbench definitions of this version (${change})`;
  // 'complete' only while every planned cell has files that parse and validate (the run's own rule,
  // src/cli/commands/run-session.ts): a cell found damaged here (skipped above) makes the run 'failed', to be resumed
  const missing = manifest.status === 'complete' ? manifest.cellOrder.filter((id) => !done.includes(id)) : [];
  const status = missing.length > 0 ? { status: 'failed' as const, error: `resummarize found ${missing.length} of ${manifest.cellOrder.length} planned cell(s) without a valid result: ${missing.join(', ')}; measure them with --resume ${resumeArg(store.dir, manifest.runId)}` } : {};
  store.writeManifest({ ...manifest, ...status, notes: [...(manifest.notes ?? []), note] });
  return done;
}
