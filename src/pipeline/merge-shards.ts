/**
 * `run.mjs merge <shard-dir>... --out runs/<id>`: K shard folders of a multi-host run (each written
 * by `run.mjs shard`, one pod of the Kubernetes Indexed Job, src/pipeline/pod-shard.ts) into one normal
 * run folder (manifest, cells with their raw requests and samples, summary.json) that `report`
 * renders like any other run.
 *
 * Per cell, the load is merged from every shard's raw per-request records by the code `--shards K`
 * uses on one host (`mergeShards`, src/load/shards.ts): totals are the sums of the shards, the
 * percentiles are computed from the merged records (never averaged), and each shard's workers, send
 * rate, start offset and generator figures stay in the cell (`shards`). What the SUT and the mock
 * said (samples, pinned counts, mock statistics, thread dumps) is shard 0's, the coordinator's
 * (the only shard that resets the mock); the flags are computed again over the merged load; the
 * cell's HdrHistograms are the sum of the shards' (CellResult.hdr).
 *
 * Nothing is merged silently: the folders must be exactly shards 0..K-1 of one run (same study,
 * options and planned cells), else the merge stops before writing anything. A planned cell that a
 * shard has no valid result for is not merged from the others: it is recorded as a failed cell of
 * the merged run, naming the shards it is missing from, and the run's status is `failed`.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { RunStore, compactRequests } from '../adapters/store/run-store.ts';
import { SCHEMA_VERSION, type CellResult, type MergedShard, type RunManifest } from '../types/run.ts';
import { expandRequests } from './resummarize.ts';
import { mergeShards, shareOf, type ShardFile } from '../load/shards.ts';
import { computeFlags } from '../compute/analysis/flags.ts';
import { cellHistograms, mergeCellHistograms } from '../compute/stats/hdr.ts';
import { writeSummary } from './run.ts';
import { VtbenchError, EXIT } from '../types/errors.ts';

/** What `mergeShardRuns` wrote. */
export interface MergeOutcome {
  runDir: string;
  manifest: RunManifest;
  /** cells merged from every shard */
  merged: string[];
  /** planned cells not merged, with why (also in manifest.failedCells) */
  gaps: { cellId: string; cause: string }[];
}

interface ShardRun {
  dir: string;
  store: RunStore;
  manifest: RunManifest;
  index: number;
}

/**
 * Read and check the shard folders: every one a shard folder of this schema version, indices
 * exactly 0..K-1, the same study, options and planned cells.
 * @throws VtbenchError(EXIT.usage) naming the folder and what differs, or the shards missing
 */
export function readShardRuns(dirs: readonly string[]): ShardRun[] {
  if (dirs.length === 0) throw new VtbenchError('merge: no shard folder given', 'name every shard folder: npx zx run.mjs merge <dir>/shard-0 <dir>/shard-1 ... --out runs/<id>', EXIT.usage);
  const runs = dirs.map((dir): ShardRun => {
    const store = new RunStore(dir);
    if (!store.exists()) throw new VtbenchError(`merge: ${dir} is not a run folder (no manifest.json)`, 'give the shard folders the Job wrote (<shared folder>/shard-<index>), copied back with kubectl cp', EXIT.usage);
    const manifest = store.readManifest();
    if (manifest.schemaVersion !== SCHEMA_VERSION) throw new VtbenchError(`merge: ${dir} has run format version ${manifest.schemaVersion}, this vtbench merges ${SCHEMA_VERSION}`, 'merge with the vtbench version the pods ran (manifest.json: tool.version)', EXIT.usage);
    if (!manifest.shard) throw new VtbenchError(`merge: ${dir} is not a shard folder (its manifest has no \`shard\`): it is a whole run`, 'merge the folders `run.mjs shard` wrote; a whole run needs no merge', EXIT.usage);
    return { dir, store, manifest, index: manifest.shard.index };
  });
  const k = runs[0]!.manifest.shard!.of;
  for (const r of runs) {
    if (r.manifest.shard!.of !== k) throw new VtbenchError(`merge: ${r.dir} is shard ${r.index} of ${r.manifest.shard!.of}, ${runs[0]!.dir} of ${k}`, 'merge the shards of one Job only', EXIT.usage);
  }
  const byIndex = new Map<number, ShardRun>();
  for (const r of runs) {
    const dup = byIndex.get(r.index);
    if (dup) throw new VtbenchError(`merge: ${dup.dir} and ${r.dir} are both shard ${r.index}`, 'give each shard folder once', EXIT.usage);
    byIndex.set(r.index, r);
  }
  const missing = Array.from({ length: k }, (_, i) => i).filter((i) => !byIndex.has(i));
  if (missing.length > 0) {
    throw new VtbenchError(`merge: shard(s) ${missing.join(', ')} of ${k} missing: a run merged from fewer shards would hide their workers' load`,
      `give all ${k} shard folders (e.g. <shared folder>/shard-${missing[0]}); a shard that never ran means the Job must run again`, EXIT.usage);
  }
  const sorted = [...byIndex.values()].sort((a, b) => a.index - b.index);
  const first = sorted[0]!;
  for (const r of sorted.slice(1)) {
    const diffs: string[] = [];
    if (r.manifest.options.study !== first.manifest.options.study) diffs.push(`study ${r.manifest.options.study} vs ${first.manifest.options.study}`);
    const a = first.manifest.options as unknown as Record<string, unknown>;
    const b = r.manifest.options as unknown as Record<string, unknown>;
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if (!isDeepStrictEqual(a[key], b[key])) diffs.push(`options.${key} ${JSON.stringify(b[key] ?? null)} vs ${JSON.stringify(a[key] ?? null)}`);
    }
    if (!isDeepStrictEqual(r.manifest.cellOrder, first.manifest.cellOrder)) diffs.push(`planned cells [${r.manifest.cellOrder.join(', ')}] vs [${first.manifest.cellOrder.join(', ')}]`);
    if (diffs.length > 0) {
      throw new VtbenchError(`merge: shard ${r.index} (${r.dir}) did not run the plan shard 0 (${first.dir}) ran: ${diffs.slice(0, 5).join('; ')}${diffs.length > 5 ? `; and ${diffs.length - 5} more` : ''}`,
        'merge shards of one Job only (every pod of the Job run.mjs k8s writes gets the same options)', EXIT.usage);
    }
  }
  return sorted;
}

/** Why shard `r`'s cell cannot be merged, or null when it can. */
function cellProblem(r: ShardRun, cell: CellResult, k: number): string | null {
  const s = cell.shards;
  if (!s || s.length !== 1 || s[0]!.shard !== r.index) return `shard ${r.index}'s cell holds no shard entry of its own`;
  const offset = shareOf(cell.concurrency, k).slice(0, r.index).reduce((a, x) => a + x, 0);
  if (s[0]!.workerOffset !== offset || s[0]!.workers !== shareOf(cell.concurrency, k)[r.index]) {
    return `shard ${r.index} ran workers ${s[0]!.workerOffset}..${s[0]!.workerOffset + s[0]!.workers - 1}, its share of ${cell.concurrency} over ${k} is ${offset}..${offset + shareOf(cell.concurrency, k)[r.index]! - 1}`;
  }
  return null;
}

/**
 * Merge shard folders into the run folder `outDir` (written under a temporary name, renamed when
 * complete, so a failed merge leaves no half run).
 * @throws VtbenchError(EXIT.usage) for folders that are not shards 0..K-1 of one run (readShardRuns)
 *   or an `outDir` that exists
 */
export function mergeShardRuns(dirs: readonly string[], outDir: string, now = new Date()): MergeOutcome {
  const shards = readShardRuns(dirs);
  if (existsSync(outDir)) throw new VtbenchError(`merge: --out ${outDir} exists`, 'give a new folder (e.g. runs/<id>); a merge never writes into an existing run', EXIT.usage);
  const k = shards.length;
  const first = shards[0]!;
  const m0 = first.manifest;
  const tmp = join(dirname(outDir), `.${basename(outDir)}.merging-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  const store = new RunStore(tmp);
  store.init();
  const merged: string[] = [];
  const gaps: { cellId: string; cause: string }[] = [];
  const done = shards.map((s) => s.store.doneCellIds());
  try {
    for (const cellId of m0.cellOrder) {
      const without = shards.filter((_, i) => !done[i]!.has(cellId));
      if (without.length > 0) {
        gaps.push({ cellId, cause: `no result in ${without.map((s) => missingCellCause(s, cellId)).join(', ')}; not merged from the other shards` });
        continue;
      }
      const cells = shards.map((s) => s.store.readCell(cellId));
      const problem = shards.map((s, i) => cellProblem(s, cells[i]!, k)).find((p) => p !== null);
      if (problem) {
        gaps.push({ cellId, cause: `${problem}; not merged` });
        continue;
      }
      const m = mergeCell(shards, cells, cellId, m0);
      store.writeCell(m.cell, compactRequests(m.records));
      if (m.cell.threadDump) copyThreadDumps(first.store, cellId, tmp);
      merged.push(cellId);
    }
    const manifest = mergedManifest(shards, outDir, gaps, now);
    writeSummary({ store, manifest });
    store.writeManifest(manifest);
    mkdirSync(dirname(outDir), { recursive: true });
    renameSync(tmp, outDir);
    return { runDir: outDir, manifest, merged, gaps };
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

/** `shard <i> (<why>)`: why shard `s` has no valid result for `cellId` (its recorded failure, or the problems checkCell finds). */
function missingCellCause(s: ShardRun, cellId: string): string {
  const failed = s.manifest.failedCells?.find((f) => f.cellId === cellId);
  // a cell whose files are damaged or hold impossible values (checkCell) names them
  const problems = failed ? [] : s.store.checkCell(cellId);
  return `shard ${s.index}${failed ? ` (failed: ${failed.cause})` : ` (${s.manifest.status}, no valid result${problems.length > 0 ? `: ${problems.join('; ')}` : ''})`}`;
}

/**
 * One cell merged from every shard's copy (`cells[i]` is shard i's): the load merged from the
 * shards' raw records (mergeShards), the host CPU the busiest generator host's, the flags computed
 * again over the merged load; everything else is shard 0's. Reads the shards' request files.
 */
function mergeCell(shards: readonly ShardRun[], cells: readonly CellResult[], cellId: string, m0: RunManifest): { cell: CellResult; records: ShardFile['result']['records'] } {
  const k = shards.length;
  const parts: ShardFile[] = shards.map((s, i) => {
    const c = cells[i]!;
    const records = expandRequests(s.store.readRequests(cellId));
    return { format: 'vtbench-shard/1', shard: s.index, shards: k, workerOffset: c.shards![0]!.workerOffset, result: { t0EpochMs: c.t0EpochMs, aborted: false, records, summary: c.load, warmup: { count: 0, errors: 0 }, loadgen: c.shards![0]!.loadgen } };
  });
  const c0 = cells[0]!;
  const late = c0.load.lateSends?.thresholdMs;
  const m = mergeShards(parts, c0.requestsPerWorker, late === undefined ? {} : { lateSendThresholdMs: late });
  const hosts = cells.map((c) => c.loadgen.hostCpuPct).filter((x): x is number => x !== null);
  const hostCpuPct = hosts.length > 0 ? Math.max(...hosts) : null;
  const cell: CellResult = {
    ...c0,
    t0EpochMs: m.t0EpochMs,
    durationMs: Math.max(...cells.map((c) => c.durationMs)),
    load: m.summary,
    loadgen: { ...m.loadgen, hostCpuPct },
    flags: computeFlags({
      executor: c0.executor, latencyMs: c0.latencyMs, t0EpochMs: m.t0EpochMs, sutSamples: c0.samples, load: m.summary,
      eventLoopLagP99Ms: m.loadgen.eventLoopLagP99Ms, eventLoopLagMaxMs: m.loadgen.eventLoopLagMaxMs, loadgenCpuPct: m.loadgen.cpuPct,
      hostCpuPct, errorFlagThreshold: m0.options.errorFlagThreshold, hostCpuScope: 'generator',
    }),
    shards: m.shards,
  };
  // the shards' histograms summed (bounded memory); a shard written before histograms: from the merged records
  const hdrs = cells.map((c) => c.hdr);
  cell.hdr = hdrs.every((h) => h !== undefined) ? mergeCellHistograms(hdrs) : cellHistograms(compactRequests(m.records));
  return { cell, records: m.records };
}

/** Copies shard 0's thread dump files of `cellId` (raw and summary, those that exist) into `<runDir>/threaddumps/`. */
function copyThreadDumps(firstStore: RunStore, cellId: string, runDir: string): void {
  mkdirSync(join(runDir, 'threaddumps'), { recursive: true });
  for (const p of [firstStore.threadDumpRawPath(cellId), firstStore.threadDumpSummaryPath(cellId)]) {
    if (existsSync(p)) copyFileSync(p, join(runDir, 'threaddumps', basename(p)));
  }
}

/**
 * The merged run's manifest: shard 0's without `shard`, run id = the folder's name, started at the
 * earliest shard start, ended at the latest end (null unless every shard ended), `failed` with the
 * gaps as failed cells when there are any, a note naming the shards, and the shards' list. Pure.
 */
function mergedManifest(shards: readonly ShardRun[], outDir: string, gaps: readonly { cellId: string; cause: string }[], now: Date): RunManifest {
  const k = shards.length;
  const m0 = shards[0]!.manifest;
  const mergedShards: MergedShard[] = shards.map((s) => ({
    index: s.index, runId: s.manifest.runId, status: s.manifest.status, hostname: s.manifest.shard!.hostname,
    host: s.manifest.host, startedAt: s.manifest.startedAt, endedAt: s.manifest.endedAt,
  }));
  const { shard: _shard, ...rest } = m0;
  const ended = shards.map((s) => s.manifest.endedAt).filter((x): x is string => x !== null).sort();
  const manifest: RunManifest = {
    ...rest,
    runId: basename(outDir),
    startedAt: shards.map((s) => s.manifest.startedAt).sort()[0]!,
    endedAt: ended.length === k ? ended[ended.length - 1]! : null,
    status: gaps.length === 0 ? 'complete' : 'failed',
    error: gaps.length === 0 ? null : `${gaps.length} of ${m0.cellOrder.length} planned cell(s) have no result in every shard: ${gaps.map((g) => g.cellId).join(', ')}`,
    failedCells: gaps.map((g) => ({ ...g, atIso: now.toISOString() })),
    notes: [...(m0.notes ?? []),
      `${now.toISOString()}: merged by run.mjs merge from ${k} shard folders of a multi-host run (${shards.map((s) => `shard ${s.index}: ${s.manifest.runId} on ${s.manifest.shard!.hostname}`).join('; ')}); each cell's load is merged from every shard's raw records; the SUT's samples, pinned counts, thread dumps and the mock's figures are shard 0's; the manifest's host is shard 0's generator host, each cell's host CPU the busiest generator host's`],
    mergedShards,
  };
  if (manifest.failedCells!.length === 0) delete manifest.failedCells;
  return manifest;
}
