/**
 * Failed cells: a cell during which a component died, or whose result is unusable, is never written
 * as `cells/<id>.json`. It is listed in `manifest.failedCells` (cause and time), its partial evidence
 * goes to `cells/<id>.failed.json` (never read as a result), and `--resume` measures it anew, which
 * removes the entry and appends a line to `manifest.notes`.
 */
import { join } from 'node:path';
import { writeJsonAtomic } from '../adapters/store/fsio.ts';
import type { RunStore } from '../adapters/store/run-store.ts';
import type { CellResult, RunManifest } from '../types/run.ts';
import type { LoadSummary } from '../types/load.ts';

/** What is kept of a failed cell in `cells/<id>.failed.json`. */
export interface FailedCellEvidence {
  cellId: string;
  cause: string;
  atIso: string;
  /**
   * the component found dead (pid null for an external component: it has none on this host), or
   * null when the result was unusable for another reason
   */
  component: { role: string; pid: number | null } | null;
  startedAt: string;
  /** ms from the cell's start to the failure */
  durationMs: number;
  /** summary of the requests recorded before the load was stopped; null if none were */
  load: LoadSummary | null;
  mock: CellResult['mock'] | null;
}

/** Path of a cell's partial evidence. */
export function failedCellPath(store: RunStore, cellId: string): string {
  return join(store.dir, 'cells', `${cellId}.failed.json`);
}

/**
 * Record a failed cell: write its evidence, then list it in the manifest (replacing an earlier
 * entry of the same cell) and write the manifest. Mutates `manifest`.
 */
export function recordFailedCell(store: RunStore, manifest: RunManifest, evidence: FailedCellEvidence): void {
  writeJsonAtomic(failedCellPath(store, evidence.cellId), evidence);
  const others = (manifest.failedCells ?? []).filter((f) => f.cellId !== evidence.cellId);
  manifest.failedCells = [...others, { cellId: evidence.cellId, cause: evidence.cause, atIso: evidence.atIso }];
  store.writeManifest(manifest);
}

/**
 * A cell listed as failed was measured successfully: drop its entry (the key goes when empty) and
 * append a note naming the earlier failure. No-op for a cell that never failed. Mutates and writes
 * `manifest`. The evidence file stays, as the record of what happened.
 */
export function clearFailedCell(store: RunStore, manifest: RunManifest, cellId: string, now = new Date()): void {
  const entry = manifest.failedCells?.find((f) => f.cellId === cellId);
  if (!entry) return;
  const rest = manifest.failedCells!.filter((f) => f.cellId !== cellId);
  if (rest.length > 0) manifest.failedCells = rest;
  else delete manifest.failedCells;
  manifest.notes = [...(manifest.notes ?? []), `${now.toISOString()}: cell ${cellId} measured anew on --resume; it had failed at ${entry.atIso}: ${entry.cause} (evidence: cells/${cellId}.failed.json)`];
  store.writeManifest(manifest);
}

/**
 * Why a finished load cannot be a measurement, or null when it can: no request succeeded (e.g.
 * every one failed with connection errors because the SUT was gone).
 */
export function unusableLoad(s: LoadSummary): string | null {
  if (s.count === 0) return 'no request was recorded';
  if (s.ok > 0) return null;
  const parts = Object.entries(s.errors).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`);
  const conn = s.errors.connect + s.errors.reset;
  const what = conn === s.count ? 'failed with connection errors' : 'failed';
  return `no request succeeded: all ${s.count} ${what} (${parts.join(', ')})`;
}
