/**
 * Paths and read/write of one run folder (`runs/<runId>/`, layout in types.ts). Writes go through
 * fsio (atomic). Resuming reads which cells exist: a cell counts as done only when its cell file,
 * its requests file and its samples file all parse, validate against schema/ and agree with each
 * other (checkCell). A damaged cell is set aside (renamed `<file>.damaged-<time>`) and re-run.
 */
import { readdirSync, existsSync, mkdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { writeJsonAtomic, writeGzJsonAtomic, writeFileAtomic, readJson, readGzJson } from './fsio.ts';
import { SCHEMA_VERSION, type CellFile, type CellResult, type CompactRequests, type CompactWs, type RunManifest, type RunSummary } from '../../types/run.ts';
import { allProblems, cellFileNames, checkCell } from './check.ts';
import { requestsFromFile, storedRequests } from './requests-codec.ts';
import { parseChecked } from './schema.ts';
import { VtbenchError, EXIT } from '../../types/errors.ts';
import type { SutSample } from '../../types/sut-api.ts';
import type { RequestRecord, UnsentRecord } from '../../types/load.ts';

export class RunStore {
  constructor(public readonly dir: string) {}

  get manifestPath(): string { return join(this.dir, 'manifest.json'); }
  get summaryPath(): string { return join(this.dir, 'summary.json'); }
  get logsDir(): string { return join(this.dir, 'logs'); }
  cellPath(id: string): string { return join(this.dir, 'cells', `${id}.json`); }
  requestsPath(id: string): string { return join(this.dir, 'cells', `${id}.requests.json.gz`); }
  samplesPath(id: string): string { return join(this.dir, 'cells', `${id}.samples.json.gz`); }
  threadDumpSummaryPath(id: string): string { return join(this.dir, 'threaddumps', `${id}.summary.json`); }
  threadDumpRawPath(id: string): string { return join(this.dir, 'threaddumps', `${id}.json.gz`); }

  /** Create the folder skeleton. */
  init(): void {
    for (const d of ['cells', 'threaddumps', 'logs']) mkdirSync(join(this.dir, d), { recursive: true });
  }

  exists(): boolean { return existsSync(this.manifestPath); }

  writeManifest(m: RunManifest): void { writeJsonAtomic(this.manifestPath, m); }

  /** The manifest's `schemaVersion` as written; undefined when the file is missing or not JSON. */
  schemaVersionOnDisk(): unknown {
    try {
      return (JSON.parse(readFileSync(this.manifestPath, 'utf8')) as { schemaVersion?: unknown } | null)?.schemaVersion;
    } catch {
      return undefined;
    }
  }

  /**
   * The manifest, parsed and validated against schema/manifest.schema.json. Only runs in this
   * version's format (SCHEMA_VERSION) are read here: the store writes to what it reads (resume,
   * resummarize). Older runs are read by the report through their study's reader (src/adapters/store/migrate.ts).
   * @throws VtbenchError(EXIT.runData) for a run in another format version (legacyRunError), and
   *   naming the file and the JSON path when it is missing, not JSON or invalid
   */
  readManifest(): RunManifest {
    const version = this.schemaVersionOnDisk();
    if (typeof version === 'number' && version !== SCHEMA_VERSION) throw legacyRunError(this.dir, version);
    const bytes = readOrNull(this.manifestPath);
    const r = bytes === null ? { ok: false as const, problems: [`${this.manifestPath}: missing`] } : parseChecked<RunManifest>('RunManifest', this.manifestPath, bytes, false);
    if (!r.ok) throw new VtbenchError(`the run's manifest is unusable: ${r.problems.join('; ')}`, 'restore manifest.json (e.g. from git) or start a new run', EXIT.runData);
    return r.value;
  }
  writeSummary(s: RunSummary): void { writeJsonAtomic(this.summaryPath, s); }

  /**
   * Write a finished cell: requests (encoded, src/adapters/store/requests-codec.ts) and samples first,
   * then the cell file that marks it done.
   */
  writeCell(cell: CellResult, requests: CompactRequests): void {
    writeGzJsonAtomic(this.requestsPath(cell.cellId), storedRequests(requests));
    this.writeCellKeepingRequests(cell);
  }

  /**
   * Write a cell's samples and cell file, leaving its requests file as it is on disk (whatever its
   * layout): re-deriving a cell's summaries (resummarize) does not touch the raw records.
   */
  writeCellKeepingRequests(cell: CellResult): void {
    const { samples, ...rest } = cell;
    writeGzJsonAtomic(this.samplesPath(cell.cellId), samples);
    const file: CellFile = { ...rest, samplesFile: `cells/${cell.cellId}.samples.json.gz`, samplesCount: samples.length };
    writeJsonAtomic(this.cellPath(cell.cellId), file);
  }

  /** The stored cell file as it is on disk (no samples). */
  readCellFile(id: string): CellFile { return readJson<CellFile>(this.cellPath(id)); }

  /** A cell with its samples joined back in ([] if the samples file is missing). */
  readCell(id: string): CellResult {
    const file = this.readCellFile(id) as CellFile & { samples?: SutSample[] };
    if (typeof file.samplesFile !== 'string') return { ...file, samples: file.samples ?? [] }; // samples inline (hand-made fixtures)
    const { samplesFile, samplesCount, ...rest } = file;
    let samples: SutSample[] = [];
    try {
      samples = readGzJson<SutSample[]>(join(this.dir, samplesFile));
    } catch {
      samples = [];
    }
    void samplesCount;
    return { ...rest, samples };
  }
  /** A cell's per-request columns, decoded when stored encoded (format 2) or as stored (older files). */
  readRequests(id: string): CompactRequests { return requestsFromFile(readGzJson<unknown>(this.requestsPath(id))) as CompactRequests; }

  /** Raw HotSpot thread dump (gzip) and its summary. */
  writeThreadDump(id: string, rawJson: string, summary: unknown): void {
    writeFileAtomic(this.threadDumpRawPath(id), gzipText(rawJson));
    writeJsonAtomic(this.threadDumpSummaryPath(id), summary);
  }

  /**
   * Ids that have a cell file (`cells/<id>.json`; not `.failed.json`, `.requests.json`,
   * `.samples.json`, temp or set-aside files), whether or not the cell is usable.
   */
  cellFileIds(): string[] {
    const dir = join(this.dir, 'cells');
    if (!existsSync(dir)) return [];
    return cellFileNames(readdirSync(dir)).map((f) => f.slice(0, -'.json'.length));
  }

  /**
   * Why cell `id` is not a usable result; [] when it is (every file parses, validates against
   * schema/ and agrees: src/adapters/store/check.ts). Each problem names the file (relative to the run
   * folder) and the JSON path. Cached per file identity (inode, size, mtime), so rechecking after
   * every cell is cheap.
   * @throws an fs error other than ENOENT (e.g. EACCES) reading the files
   */
  checkCell(id: string): string[] {
    const paths = [this.cellPath(id), this.requestsPath(id), this.samplesPath(id)];
    const key = paths.map(statKey).join('|');
    const hit = this.checked.get(id);
    if (hit && hit.key === key) return hit.problems;
    const problems = this.checkCellUncached(id);
    this.checked.set(id, { key, problems });
    return problems;
  }

  private readonly checked = new Map<string, { key: string; problems: string[] }>();

  private checkCellUncached(id: string): string[] {
    return allProblems(checkCell(id, { cell: readOrNull(this.cellPath(id)), requests: readOrNull(this.requestsPath(id)) }, () => readOrNull(this.samplesPath(id))));
  }

  /** Ids of finished cells: a cell file whose files all parse, validate and agree (checkCell). */
  doneCellIds(): Set<string> {
    return new Set(this.cellFileIds().filter((id) => this.checkCell(id).length === 0));
  }

  /** Cells that have a cell file but are not usable, with why (each problem names its file). */
  damagedCells(): { cellId: string; problems: string[] }[] {
    return this.cellFileIds().map((id) => ({ cellId: id, problems: this.checkCell(id) })).filter((d) => d.problems.length > 0);
  }

  /**
   * Rename every file of each damaged cell to `<file>.damaged-<time>` (kept as evidence, never read
   * again), so the cell counts as missing and is run again.
   * @param now the time in the new names (compact ISO, e.g. 20261130T101500Z)
   * @returns per damaged cell: its problems and the set-aside files, relative to the run folder
   * @throws the fs error of a failed rename (the caller maps it with fsError)
   */
  setAsideDamaged(now = new Date()): { cellId: string; problems: string[]; movedTo: string[] }[] {
    const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    return this.damagedCells().map((d) => {
      const movedTo: string[] = [];
      for (const p of [this.cellPath(d.cellId), this.requestsPath(d.cellId), this.samplesPath(d.cellId)]) {
        if (!existsSync(p)) continue;
        const to = `${p}.damaged-${stamp}`;
        renameSync(p, to);
        movedTo.push(to.slice(this.dir.length + 1));
      }
      this.checked.delete(d.cellId);
      return { ...d, movedTo };
    });
  }

  /** All finished cells, in the manifest's cell order. */
  readDoneCells(order: readonly string[]): CellResult[] {
    const done = this.doneCellIds();
    return order.filter((id) => done.has(id)).map((id) => this.readCell(id));
  }
}

/**
 * Why a run in another format version cannot be written to (resumed, re-summarized): it can be
 * re-rendered, not continued.
 */
export function legacyRunError(dir: string, version: number, action = 'resumed or re-summarized'): VtbenchError {
  return new VtbenchError(
    `run ${dir} is in run format version ${version}; this vtbench writes version ${SCHEMA_VERSION}: the run can be re-rendered but not ${action}`,
    `render it with: npx zx run.mjs report ${dir}; to measure again, start a new run`,
    EXIT.runData,
  );
}

function readOrNull(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** Identity of a file's content for the check cache: inode, size, mtime (or '-' when absent). */
function statKey(path: string): string {
  try {
    const st = statSync(path);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return '-';
  }
}

function gzipText(s: string): Buffer { return gzipSync(Buffer.from(s, 'utf8'), { level: 9 }); }

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Server-Timing entries with a column of their own (queue, exec and the optional ones above); the rest go to `timingMs`. */
export const OWN_COLUMN_TIMINGS: ReadonlySet<string> = new Set(['queue', 'exec', 'permit', 'ttft', 'gapmean', 'gapmax']);

/**
 * Per-request records (and an open loop's unsent ones, a WebSocket cell's messages and drops, already
 * in columns) -> columns, ms rounded to 3 decimals (µs).
 */
export function compactRequests(records: readonly RequestRecord[], unsent?: readonly UnsentRecord[], ws?: CompactWs): CompactRequests {
  const intended: number[] = [];
  const out: CompactRequests = { worker: [], seq: [], intendedStartMs: intended, startMs: [], e2eMs: [], status: [], error: [], queueMs: [], execMs: [] };
  if (unsent !== undefined) {
    out.unsent = { seq: unsent.map((u) => u.seq), intendedStartMs: unsent.map((u) => r3(u.intendedStartMs)), reason: unsent.map((u) => u.reason) };
  }
  for (const r of records) {
    out.worker.push(r.worker);
    out.seq.push(r.seq);
    intended.push(r3(r.intendedStartMs));
    out.startMs.push(r3(r.startMs));
    out.e2eMs.push(r3(r.e2eMs));
    out.status.push(r.status ?? 0);
    out.error.push(r.errorClass ?? '');
    const q = r.serverTiming['queue'];
    const e = r.serverTiming['exec'];
    out.queueMs.push(q === undefined ? null : r3(q));
    out.execMs.push(e === undefined ? null : r3(e));
  }
  // optional Server-Timing entries, a column each only when some request carried it (older cells stay as
  // they were): a bulkhead's permit wait; a stream's time to first token and inter-token gaps
  const optional = [['permit', 'permitMs'], ['ttft', 'ttftMs'], ['gapmean', 'gapMeanMs'], ['gapmax', 'gapMaxMs']] as const;
  for (const [entry, column] of optional) {
    const xs = records.map((r) => { const p = r.serverTiming[entry]; return p === undefined ? null : r3(p); });
    if (xs.some((p) => p !== null)) out[column] = xs;
  }
  // the other Server-Timing entries (study 002's db, user, logistics) and error codes: columns only when
  // some request carried them
  const names = new Set<string>();
  for (const r of records) for (const k in r.serverTiming) if (!OWN_COLUMN_TIMINGS.has(k)) names.add(k);
  if (names.size > 0) out.timingMs = Object.fromEntries([...names].sort().map((k) => [k, records.map((r) => { const v = r.serverTiming[k]; return v === undefined ? null : r3(v); })]));
  if (records.some((r) => r.errorKind !== undefined)) out.errorKind = records.map((r) => r.errorKind ?? null);
  // the mix entry of each request: a column only in cells measured with a mix (every record then has one)
  if (records.some((r) => r.req !== undefined)) {
    out.req = records.map((r) => {
      if (r.req === undefined) throw new RangeError(`compactRequests: record ${r.worker}-${r.seq} has no req, others of the cell have one`);
      return r.req;
    });
  }
  if (ws !== undefined) out.ws = ws;
  return out;
}
