/**
 * Paths and read/write of one run folder (`runs/<runId>/`, layout in types.ts). Writes go through
 * fsio (atomic). Resuming reads which cells exist: a cell counts as done only when both its summary
 * and its requests file are present (the requests file is written first).
 */
import { readdirSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { writeJsonAtomic, writeGzJsonAtomic, writeFileAtomic, readJson, readGzJson } from './fsio.ts';
import type { CellFile, CellResult, CompactRequests, RunManifest, RunSummary } from './types.ts';
import type { SutSample } from '../jvm/api.ts';
import type { RequestRecord } from '../load/types.ts';

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
  readManifest(): RunManifest { return readJson<RunManifest>(this.manifestPath); }
  writeSummary(s: RunSummary): void { writeJsonAtomic(this.summaryPath, s); }

  /** Write a finished cell: requests and samples first, then the cell file that marks it done. */
  writeCell(cell: CellResult, requests: CompactRequests): void {
    const { samples, ...rest } = cell;
    writeGzJsonAtomic(this.requestsPath(cell.cellId), requests);
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
  readRequests(id: string): CompactRequests { return readGzJson<CompactRequests>(this.requestsPath(id)); }

  /** Raw HotSpot thread dump (gzip) and its summary. */
  writeThreadDump(id: string, rawJson: string, summary: unknown): void {
    writeFileAtomic(this.threadDumpRawPath(id), gzipText(rawJson));
    writeJsonAtomic(this.threadDumpSummaryPath(id), summary);
  }

  /** Ids of finished cells (summary and requests both present). */
  doneCellIds(): Set<string> {
    const dir = join(this.dir, 'cells');
    if (!existsSync(dir)) return new Set();
    const ids = readdirSync(dir).filter((f) => f.endsWith('.json') && !f.endsWith('.requests.json') && !f.startsWith('.')).map((f) => f.slice(0, -'.json'.length));
    return new Set(ids.filter((id) => existsSync(this.requestsPath(id))));
  }

  /** All finished cells, in the manifest's cell order. */
  readDoneCells(order: readonly string[]): CellResult[] {
    const done = this.doneCellIds();
    return order.filter((id) => done.has(id)).map((id) => this.readCell(id));
  }
}

function gzipText(s: string): Buffer { return gzipSync(Buffer.from(s, 'utf8'), { level: 9 }); }

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Per-request records -> columns, ms rounded to 3 decimals (µs). */
export function compactRequests(records: readonly RequestRecord[]): CompactRequests {
  const out: CompactRequests = { worker: [], seq: [], startMs: [], e2eMs: [], status: [], error: [], queueMs: [], execMs: [] };
  for (const r of records) {
    out.worker.push(r.worker);
    out.seq.push(r.seq);
    out.startMs.push(r3(r.startMs));
    out.e2eMs.push(r3(r.e2eMs));
    out.status.push(r.status ?? 0);
    out.error.push(r.errorClass ?? '');
    const q = r.serverTiming['queue'];
    const e = r.serverTiming['exec'];
    out.queueMs.push(q === undefined ? null : r3(q));
    out.execMs.push(e === undefined ? null : r3(e));
  }
  return out;
}
