/**
 * Checking one cell's files against schema/ and against each other. Pure (bytes in, verdict out),
 * shared by the resume check (RunStore.checkCell: any problem → the cell is not done) and the
 * report (src/report/load.ts: a bad cell file drops the cell, bad requests or samples drop only
 * those, each stated as a gap).
 */
import type { SutSample } from '../../types/sut-api.ts';
import { parseChecked, requestColumnProblems, requestValueProblems } from './schema.ts';
import type { CellFile, CellResult, CompactRequests } from '../../types/run.ts';

/** The raw bytes of a cell's files; null = the file does not exist. */
export interface CellBytes {
  cell: Buffer | null;
  requests: Buffer | null;
  /** the samples file the cell names (read only when it names the expected one) */
  samples: Buffer | null;
}

/** What is usable of one cell, and why the rest is not (each problem names file and JSON path). */
export interface CellCheck {
  /** the cell file's content (samples still apart when it names a samples file); null when unusable */
  cell: CellFile | CellResult | null;
  cellProblems: string[];
  requests: CompactRequests | null;
  requestsProblems: string[];
  /** null when the cell carries its samples inline, or the samples file is unusable */
  samples: SutSample[] | null;
  samplesProblems: string[];
}

/**
 * Names of the cell files among the names of `cells/`, sorted: `<id>.json`, never `<id>.failed.json`
 * (a failed cell's partial evidence), requests/samples files, temp files or set-aside `.damaged-*` files.
 */
export function cellFileNames(names: readonly string[]): string[] {
  return names.filter((n) => n.endsWith('.json') && !n.startsWith('.') && !/\.(requests|samples|failed)\.json$/.test(n)).sort();
}

/** File names of a cell relative to the run folder. */
export function cellFiles(id: string): { cell: string; requests: string; samples: string } {
  return { cell: `cells/${id}.json`, requests: `cells/${id}.requests.json.gz`, samples: `cells/${id}.samples.json.gz` };
}

/**
 * Check a cell: the cell file parses and validates as CellFile (samples in their own file) or,
 * for hand-made fixtures, as CellResult (samples inline), and names itself `id`; the requests file
 * validates as CompactRequests, its columns have one length, equal to the cell's /load/count, and
 * its values are possible (requestValueProblems: durations, statuses, times within the cell); a
 * named samples file must be `cells/<id>.samples.json.gz` and validate as SutSamples.
 * @param b the cell and requests files' bytes (null = absent)
 * @param readSamples reads the samples file (null when absent); called only when the cell names
 *   the expected one
 */
export function checkCell(id: string, b: Omit<CellBytes, 'samples'>, readSamples: () => Buffer | null): CellCheck {
  const f = cellFiles(id);
  const out: CellCheck = { cell: null, cellProblems: [], requests: null, requestsProblems: [], samples: null, samplesProblems: [] };
  if (b.cell === null) {
    out.cellProblems.push(`${f.cell}: missing`);
  } else {
    const asFile = parseChecked<CellFile>('CellFile', f.cell, b.cell, false);
    if (asFile.ok) out.cell = asFile.value;
    else {
      const inline = isInline(b.cell) ? parseChecked<CellResult>('CellResult', f.cell, b.cell, false) : null;
      if (inline?.ok) out.cell = inline.value;
      else out.cellProblems.push(...(inline ? inline.problems : asFile.problems));
    }
    if (out.cell && out.cell.cellId !== id) {
      out.cellProblems.push(`${f.cell}: /cellId is ${JSON.stringify(out.cell.cellId)}, not ${JSON.stringify(id)}`);
      out.cell = null;
    }
  }
  if (b.requests === null) {
    out.requestsProblems.push(`${f.requests}: missing`);
  } else {
    const req = parseChecked<CompactRequests>('CompactRequests', f.requests, b.requests, true);
    if (!req.ok) out.requestsProblems.push(...req.problems);
    else {
      const cols = requestColumnProblems(f.requests, req.value as unknown as Record<string, unknown[]>);
      // then the values' meaning: no negative or infinite duration, no impossible status, nothing outside the cell
      const values = cols.length > 0 ? [] : requestValueProblems(f.requests, req.value, out.cell?.durationMs);
      if (cols.length > 0) out.requestsProblems.push(...cols);
      else if (values.length > 0) out.requestsProblems.push(...values);
      else if (out.cell && req.value.e2eMs.length !== out.cell.load.count) {
        out.requestsProblems.push(`${f.requests}: holds ${req.value.e2eMs.length} requests, ${f.cell} /load/count says ${out.cell.load.count}`);
      } else out.requests = req.value;
    }
  }
  if (out.cell && 'samplesFile' in out.cell) {
    if (out.cell.samplesFile !== f.samples) {
      out.samplesProblems.push(`${f.cell}: /samplesFile is ${JSON.stringify(out.cell.samplesFile)}, not ${JSON.stringify(f.samples)}`);
    } else {
      const bytes = readSamples();
      if (bytes === null) out.samplesProblems.push(`${f.samples}: missing`);
      else {
        const smp = parseChecked<SutSample[]>('SutSamples', f.samples, bytes, true);
        if (smp.ok) out.samples = smp.value;
        else out.samplesProblems.push(...smp.problems);
      }
    }
  }
  return out;
}

/** Every problem of a check, cell file first. */
export function allProblems(c: CellCheck): string[] {
  return [...c.cellProblems, ...c.requestsProblems, ...c.samplesProblems];
}

/** A cell file that carries `samples` inline and names no samples file (hand-made fixtures). */
function isInline(bytes: Buffer): boolean {
  try {
    const v = JSON.parse(bytes.toString('utf8')) as Record<string, unknown> | null;
    return v !== null && typeof v === 'object' && Array.isArray(v['samples']) && !('samplesFile' in v);
  } catch {
    return false;
  }
}
