/**
 * Reads a run folder (runs/<id>/) for the report, read-only. Every file is validated against its
 * JSON Schema (schema/). Tolerates a partial or damaged run: missing, unreadable or invalid cells,
 * requests or samples, a missing or invalid summary.json (rebuilt from the cells), failed cells.
 * Every gap is stated in `gaps`, naming the file and the JSON path. Throws VtbenchError
 * (EXIT.runData) when nothing is usable, the manifest is unusable or a schema version is unknown.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { EXIT, VtbenchError } from '../types/errors.ts';
import type { CellResult, CompactRequests, RunManifest, RunSummary } from '../types/run.ts';
import { SCHEMA_VERSION } from '../types/run.ts';
import { buildSummary } from '../compute/analysis/summary.ts';
import { validate } from '../adapters/store/schema.ts';
import { upgradeFile, upgradeManifest } from '../adapters/store/migrate.ts';
import { getStudy } from '../plan/study-check.ts';
import type { StudyPlugin } from './types.ts';
import { cellFileNames, cellFiles, checkCell } from '../adapters/store/check.ts';
export type { LoadedRun } from './types.ts';
import type { LoadedRun } from './types.ts';

function runDataError(message: string, hint: string): VtbenchError {
  return new VtbenchError(message, hint, EXIT.runData);
}

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8')) as unknown;
}

/** @param expected the run's version (its manifest's): every file of a run is in one format */
function checkSchema(what: string, v: unknown, expected = SCHEMA_VERSION): void {
  const version = (v as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== expected) {
    throw runDataError(
      `${what} has schemaVersion ${JSON.stringify(version)}; this vtbench reads schemaVersion ${expected}${expected === SCHEMA_VERSION ? '' : ` for this run (its manifest's)`}`,
      'report it with the vtbench version that wrote it (manifest.json: tool.version), or re-run the benchmark',
    );
  }
}

/** Bytes of a file, or null when it does not exist (other errors too: a gap is stated for them). */
async function bytesOrNull(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch {
    return null;
  }
}

/** The legacy reader a run's manifest was upgraded through (src/adapters/store/migrate.ts), null when current. */
type Reader = ReturnType<typeof upgradeManifest>['reader'];

/**
 * The run's manifest, upgraded through its study's reader when older, validated, and its study.
 * @throws VtbenchError(EXIT.runData) when the folder or manifest is missing or unusable, or names an unknown study
 */
async function readManifest(runDir: string, studies: readonly StudyPlugin[], given: StudyPlugin | undefined): Promise<{ manifest: RunManifest; study: StudyPlugin; reader: Reader }> {
  const st = await stat(runDir).catch(() => null);
  if (!st?.isDirectory()) throw runDataError(`run folder not found: ${runDir}`, 'pass a run folder, e.g. `npx zx run.mjs report out/runs/<id>` (your runs) or `report runs/<id>` (the committed ones)');
  let manifestRaw: unknown;
  try {
    manifestRaw = await readJson(join(runDir, 'manifest.json'));
  } catch (e) {
    throw runDataError(`${join(runDir, 'manifest.json')} is missing or not valid JSON (${(e as Error).message.split('\n')[0]})`, 'this is not a vtbench run folder, or the run died before writing its manifest; re-run the benchmark');
  }
  // older formats are read through the reader of the study that wrote them (in memory, before validation)
  const upgraded = upgradeManifest(manifestRaw, studies);
  const reader = upgraded.reader;
  manifestRaw = upgraded.manifest;
  checkSchema('manifest.json', manifestRaw);
  const manifestProblems = validate('RunManifest', manifestRaw);
  if (manifestProblems.length > 0) {
    throw runDataError(`manifest.json does not match schema/manifest.schema.json: ${manifestProblems.slice(0, 3).map((p) => `manifest.json: ${p}`).join('; ')}`, 'the manifest is needed for every figure; restore it from the run (or git), or re-run the benchmark');
  }
  const manifest = manifestRaw as RunManifest;
  let study: StudyPlugin;
  try {
    study = given && given.id === manifest.options.study ? given : getStudy(manifest.options.study, studies);
  } catch (e) {
    throw runDataError(`manifest.json names study ${JSON.stringify(manifest.options.study)}, which this vtbench does not know (${(e as Error).message})`, 'report it with the vtbench version that wrote it (manifest.json: tool.version)');
  }
  if (!/^[A-Za-z0-9._-]+$/.test(manifest.runId)) {
    throw runDataError(`manifest.json has an unusable runId ${JSON.stringify(manifest.runId)}`, 'runId must be letters, digits, dot, dash or underscore');
  }
  return { manifest, study, reader };
}

/**
 * The run's usable cells (in planned order, unplanned ones after, by id) and their per-request data;
 * each file left out is a gap pushed to `gaps`. `dataLeftOut`: a cell or its requests were unusable.
 * @throws VtbenchError(EXIT.runData) when a cell file has an unknown schemaVersion
 */
async function readCells(runDir: string, manifest: RunManifest, reader: Reader, gaps: string[]): Promise<{ cells: CellResult[]; requests: Map<string, CompactRequests>; dataLeftOut: boolean }> {
  const names = cellFileNames(await readdir(join(runDir, 'cells')).catch(() => [] as string[]));
  const cells: CellResult[] = [];
  const requests = new Map<string, CompactRequests>();
  let dataLeftOut = false;
  for (const name of names) {
    const id = name.slice(0, -'.json'.length);
    const files = cellFiles(id);
    const cellBytes = await bytesOrNull(join(runDir, files.cell));
    let raw: unknown;
    try {
      raw = JSON.parse((cellBytes ?? Buffer.alloc(0)).toString('utf8'));
    } catch (e) {
      gaps.push(`${files.cell}: not valid JSON (${(e as Error).message.split('\n')[0]}); the cell is left out`);
      dataLeftOut = true;
      continue;
    }
    checkSchema(files.cell, raw, reader?.version ?? SCHEMA_VERSION);
    raw = upgradeFile('cell', raw, reader, manifest);
    const [reqBytes, smpBytes] = await Promise.all([bytesOrNull(join(runDir, files.requests)), bytesOrNull(join(runDir, files.samples))]);
    const c = checkCell(id, { cell: reader ? Buffer.from(JSON.stringify(raw)) : cellBytes, requests: reqBytes }, () => smpBytes);
    if (!c.cell) {
      gaps.push(`${c.cellProblems.join('; ')}; the cell is left out`);
      dataLeftOut = true;
      continue;
    }
    if (c.samplesProblems.length > 0) gaps.push(`SUT samples of ${id}: ${c.samplesProblems.join('; ')}; resource figures omit them`);
    if ('samplesFile' in c.cell) {
      const { samplesFile, samplesCount, ...rest } = c.cell;
      void samplesFile;
      void samplesCount;
      cells.push({ ...rest, samples: c.samples ?? [] });
    } else {
      cells.push(c.cell);
    }
    if (c.requests) requests.set(id, c.requests);
    else {
      gaps.push(`per-request data of ${id}: ${c.requestsProblems.join('; ')}; pooled percentiles and the latency distribution omit it`);
      dataLeftOut = true;
    }
  }
  const order = new Map(manifest.cellOrder.map((id, i) => [id, i] as const));
  cells.sort((a, b) => (order.get(a.cellId) ?? Infinity) - (order.get(b.cellId) ?? Infinity) || (a.cellId < b.cellId ? -1 : a.cellId > b.cellId ? 1 : 0));
  return { cells, requests, dataLeftOut };
}

/**
 * The gaps of the plan: every failed cell with its cause (an entry whose cell has a valid result
 * after all — the harness stopped between writing the re-measured cell and clearing the entry — is
 * stated as such; an entry naming no planned cell as an inconsistency of the manifest), then the
 * planned cells without a result.
 */
function planGaps(manifest: RunManifest, cells: readonly CellResult[]): string[] {
  const gaps: string[] = [];
  const present = new Set(cells.map((c) => c.cellId));
  const planned = new Set(manifest.cellOrder);
  for (const f of manifest.failedCells ?? []) {
    if (!planned.has(f.cellId)) gaps.push(`manifest.json lists a failed cell ${f.cellId} that is not in the plan (${f.atIso}: ${f.cause}); ignored`);
    else if (present.has(f.cellId)) gaps.push(`cell ${f.cellId} failed (${f.atIso}: ${f.cause}) and was measured anew; the valid result is used`);
    else gaps.push(`cell ${f.cellId} failed (${f.atIso}): ${f.cause}; it is not a result`);
  }
  const missing = manifest.cellOrder.filter((id) => !present.has(id));
  if (missing.length) gaps.push(`${missing.length} of ${manifest.cellOrder.length} planned cells have no result: ${missing.join(', ')}`);
  return gaps;
}

/**
 * summary.json, or the summary recomputed from the usable cells when it is missing, invalid, covers
 * other cells, or was built from data now unusable (`dataLeftOut`); each recomputation is a gap.
 * @throws VtbenchError(EXIT.runData) when summary.json has an unknown schemaVersion
 */
async function readSummary(runDir: string, run: { manifest: RunManifest; reader: Reader; cells: CellResult[]; requests: Map<string, CompactRequests>; dataLeftOut: boolean }, gaps: string[]): Promise<{ summary: RunSummary; summarySource: 'file' | 'recomputed' }> {
  const { manifest, reader, cells, requests } = run;
  const recomputed = (gap: string) => { gaps.push(gap); return { summary: buildSummary(manifest, cells, requests), summarySource: 'recomputed' as const }; };
  let summaryRaw: unknown = null;
  try {
    summaryRaw = await readJson(join(runDir, 'summary.json'));
  } catch {
    summaryRaw = null;
  }
  if (summaryRaw === null) return recomputed('summary.json is missing; the summary was recomputed from the cells');
  checkSchema('summary.json', summaryRaw, reader?.version ?? SCHEMA_VERSION);
  summaryRaw = upgradeFile('summary', summaryRaw, reader, manifest);
  if (summaryRaw === null) return recomputed('summary.json is missing; the summary was recomputed from the cells');
  checkSchema('summary.json', summaryRaw);
  const summaryProblems = validate('RunSummary', summaryRaw);
  if (summaryProblems.length > 0) return recomputed(`${summaryProblems.slice(0, 3).map((p) => `summary.json: ${p}`).join('; ')}; the summary was recomputed from the cells`);
  const summary = summaryRaw as RunSummary;
  const rowsCells = summary.rows.reduce((s, r) => s + r.repeats, 0);
  if (rowsCells !== cells.length) return recomputed(`summary.json covers ${rowsCells} cells but ${cells.length} cell files are usable; the summary was recomputed from the cells`);
  if (run.dataLeftOut) return recomputed('summary.json was built from data that is now unusable; the summary was recomputed from the usable cells and requests');
  return { summary, summarySource: 'file' };
}

/**
 * The study's own check of the job answers its cells stored (InProcessJob.answer, e.g. study 003's
 * sweep level, kept in `CellResult.sweep`): the run's JSON Schema holds such an answer only as "an
 * object", so the study that wrote it checks it again here, with the job its plan asked for
 * (Scenario.job with the run's options, the cell's variant and level). A cell whose answer the check
 * refuses is left out with a gap, like a cell file that does not validate; a cell whose job cannot be
 * rebuilt (its variant or scenario is not the study's any more) is kept, with a gap that says it was
 * not checked. Pure: returns the kept cells, appends to `gaps`.
 */
export function checkJobAnswers(study: Pick<StudyPlugin, 'scenarios'>, manifest: Pick<RunManifest, 'options'>, cells: readonly CellResult[], gaps: string[]): CellResult[] {
  const o = manifest.options;
  return cells.filter((c) => {
    if (c.sweep === undefined) return true;
    const variant = o.variantSpecs.find((v) => v.id === c.variant);
    const scenario = study.scenarios.find((s) => s.id === (variant?.scenario ?? o.scenario));
    const job = variant && scenario?.job ? scenario.job(o, variant, c.concurrency) : undefined;
    if (!job?.answer) {
      gaps.push(`cells/${c.cellId}.json: its job answer was not checked (the study has no job with a check for variant ${c.variant}, level ${c.concurrency})`);
      return true;
    }
    const problem = job.answer.problem(job, c.sweep);
    if (problem === null) return true;
    gaps.push(`cells/${c.cellId}.json: the study refuses its stored job answer (${problem}); the cell is left out`);
    return false;
  });
}

/**
 * Load a run folder for the report. Every file is validated against its JSON Schema in schema/
 * (src/adapters/store/schema.ts) and the cell files against each other (src/adapters/store/check.ts): an unusable
 * cell file leaves the cell out, unusable requests or samples leave out only those, an unusable
 * summary.json is rebuilt from the usable cells; each is a gap naming the file and the JSON path
 * (e.g. `cells/fixed-c10-r1.requests.json.gz: /e2eMs/17 must be number`). Every
 * `manifest.failedCells` entry is a gap with its cause, never a result.
 * @param opts.study the run's study when it is not registered (tests); opts.studies: the studies to find it among (the CLI passes the registered ones)
 * @throws VtbenchError(EXIT.runData) when the folder or manifest is missing or unusable, a file has
 *   an unknown schemaVersion, or no cell is usable
 */
export async function loadRun(runDir: string, opts: { study?: StudyPlugin; studies: readonly StudyPlugin[] }): Promise<LoadedRun> {
  /** the studies the run's may be, whose legacy readers may read it: the caller's first, then `opts.studies` */
  const known = opts.studies;
  const studies: readonly StudyPlugin[] = opts.study ? [opts.study, ...known.filter((x) => x.id !== opts.study?.id)] : known;
  const { manifest, study, reader } = await readManifest(runDir, studies, opts.study);
  const gaps: string[] = [];
  if (manifest.status !== 'complete') gaps.push(`run status is "${manifest.status}"${manifest.error ? `: ${manifest.error}` : ''}`);
  const read = await readCells(runDir, manifest, reader, gaps);
  const { requests } = read;
  const cells = checkJobAnswers(study, manifest, read.cells, gaps);
  const dataLeftOut = read.dataLeftOut || cells.length < read.cells.length;
  if (cells.length === 0) {
    throw runDataError(`no usable cell results in ${join(runDir, 'cells')}`, 'the run measured nothing yet; re-run it or resume it before reporting');
  }
  gaps.push(...planGaps(manifest, cells));
  const { summary, summarySource } = await readSummary(runDir, { manifest, reader, cells, requests, dataLeftOut }, gaps);
  return { runDir, study, manifest, cells, requests, summary, summarySource, gaps, upgradedFrom: reader?.version ?? null };
}
