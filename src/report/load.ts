/**
 * Reads a run folder (runs/<id>/) for the report, read-only. Tolerates a partial run: missing or
 * unreadable cells, missing request files, a missing summary.json (rebuilt from the cells). Every
 * gap is stated in `gaps`. Throws VtbenchError (EXIT.runData) when nothing is usable or a schema
 * version is unknown.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { EXIT, VtbenchError } from '../cli/errors.ts';
import type { CellResult, CompactRequests, RunManifest, RunSummary } from '../store/types.ts';
import { SCHEMA_VERSION } from '../store/types.ts';
import { buildSummary } from '../store/summary.ts';

export interface LoadedRun {
  runDir: string;
  manifest: RunManifest;
  /** cells in planned order (cellOrder), unplanned ones after, by id */
  cells: CellResult[];
  requests: Map<string, CompactRequests>;
  summary: RunSummary;
  summarySource: 'file' | 'recomputed';
  gaps: string[];
}

function runDataError(message: string, hint: string): VtbenchError {
  return new VtbenchError(message, hint, EXIT.runData);
}

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8')) as unknown;
}

function checkSchema(what: string, v: unknown): void {
  const version = (v as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== SCHEMA_VERSION) {
    throw runDataError(
      `${what} has schemaVersion ${JSON.stringify(version)}; this vtbench reads schemaVersion ${SCHEMA_VERSION}`,
      'report it with the vtbench version that wrote it (manifest.json: tool.version), or re-run the benchmark',
    );
  }
}

export async function loadRun(runDir: string): Promise<LoadedRun> {
  const st = await stat(runDir).catch(() => null);
  if (!st?.isDirectory()) throw runDataError(`run folder not found: ${runDir}`, 'pass a folder under runs/, e.g. `npx zx run.mjs report runs/<id>`');
  let manifestRaw: unknown;
  try {
    manifestRaw = await readJson(join(runDir, 'manifest.json'));
  } catch (e) {
    throw runDataError(`${join(runDir, 'manifest.json')} is missing or not valid JSON (${(e as Error).message.split('\n')[0]})`, 'this is not a vtbench run folder, or the run died before writing its manifest; re-run the benchmark');
  }
  checkSchema('manifest.json', manifestRaw);
  const manifest = manifestRaw as RunManifest;
  if (typeof manifest.runId !== 'string' || !/^[A-Za-z0-9._-]+$/.test(manifest.runId)) {
    throw runDataError(`manifest.json has an unusable runId ${JSON.stringify(manifest.runId)}`, 'runId must be letters, digits, dot, dash or underscore');
  }
  const gaps: string[] = [];
  if (manifest.status !== 'complete') gaps.push(`run status is "${manifest.status}"${manifest.error ? `: ${manifest.error}` : ''}`);

  const cellsDir = join(runDir, 'cells');
  const names = (await readdir(cellsDir).catch(() => [] as string[])).filter((n) => n.endsWith('.json') && !n.endsWith('.requests.json') && !n.endsWith('.failed.json')).sort(); // <id>.failed.json: evidence of a failed cell, never a result
  const cells: CellResult[] = [];
  for (const name of names) {
    let raw: unknown;
    try {
      raw = await readJson(join(cellsDir, name));
    } catch {
      gaps.push(`cell file cells/${name} is not valid JSON; skipped`);
      continue;
    }
    checkSchema(`cells/${name}`, raw);
    const file = raw as CellResult & { samplesFile?: string; samplesCount?: number };
    if (typeof file.samplesFile === 'string') {
      // schema 1 as written by RunStore: samples in their own gzip file
      const { samplesFile, samplesCount, ...rest } = file;
      let samples: CellResult['samples'] = [];
      try {
        samples = JSON.parse(gunzipSync(await readFile(join(runDir, samplesFile))).toString('utf8')) as CellResult['samples'];
      } catch {
        gaps.push(`SUT samples of ${rest.cellId} (${samplesFile}) are missing or unreadable; resource figures omit them`);
      }
      void samplesCount;
      cells.push({ ...rest, samples });
    } else {
      cells.push(raw as CellResult);
    }
  }
  const order = new Map(manifest.cellOrder.map((id, i) => [id, i] as const));
  cells.sort((a, b) => (order.get(a.cellId) ?? Infinity) - (order.get(b.cellId) ?? Infinity) || (a.cellId < b.cellId ? -1 : a.cellId > b.cellId ? 1 : 0));
  if (cells.length === 0) {
    throw runDataError(`no usable cell results in ${cellsDir}`, 'the run measured nothing yet; re-run it or resume it before reporting');
  }
  const present = new Set(cells.map((c) => c.cellId));
  const missing = manifest.cellOrder.filter((id) => !present.has(id));
  if (missing.length) gaps.push(`${missing.length} of ${manifest.cellOrder.length} planned cells have no result: ${missing.join(', ')}`);

  const requests = new Map<string, CompactRequests>();
  for (const c of cells) {
    try {
      const buf = await readFile(join(cellsDir, `${c.cellId}.requests.json.gz`));
      requests.set(c.cellId, JSON.parse(gunzipSync(buf).toString('utf8')) as CompactRequests);
    } catch {
      gaps.push(`per-request data of ${c.cellId} is missing or unreadable; pooled percentiles and the latency distribution omit it`);
    }
  }

  let summary: RunSummary;
  let summarySource: 'file' | 'recomputed' = 'file';
  let summaryRaw: unknown = null;
  try {
    summaryRaw = await readJson(join(runDir, 'summary.json'));
  } catch {
    summaryRaw = null;
  }
  if (summaryRaw === null) {
    gaps.push('summary.json is missing; the summary was recomputed from the cells');
    summary = buildSummary(manifest, cells, requests);
    summarySource = 'recomputed';
  } else {
    checkSchema('summary.json', summaryRaw);
    summary = summaryRaw as RunSummary;
    const rowsCells = summary.rows.reduce((s, r) => s + r.repeats, 0);
    if (rowsCells !== cells.length) {
      gaps.push(`summary.json covers ${rowsCells} cells but ${cells.length} cell files exist; the summary was recomputed from the cells`);
      summary = buildSummary(manifest, cells, requests);
      summarySource = 'recomputed';
    }
  }
  return { runDir, manifest, cells, requests, summary, summarySource, gaps };
}
