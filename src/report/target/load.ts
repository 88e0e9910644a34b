/**
 * Read a target run folder (issue 32) as the pipeline writes it: `manifest.json` (TargetManifest),
 * `cells/<id>.json` (TargetCell), `cells/<id>.samples.json` or `.samples.json.gz` (JmxSample[], the whole cell with some
 * before t0 and after its end), `threaddumps/<id>.summary.json` (ThreadDumpSummary).
 */
import { readFileSync, existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import type { JmxSample, TargetCell, TargetManifest } from '../../types/target.ts';
import type { ThreadDumpSummary } from '../../types/run.ts';

/** A target run as read from its folder. */
export interface TargetRunFiles {
  dir: string;
  manifest: TargetManifest;
  /** cells in file-name order */
  cells: TargetCell[];
  /** per cell id: its samples file (absent when the cell has none) */
  samples: Map<string, JmxSample[]>;
  /** per cell id: its thread dump summary (absent when none was taken) */
  dumps: Map<string, ThreadDumpSummary>;
}

async function list(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

/**
 * @throws Error when manifest.json is missing, is not JSON, or is not a target manifest (`kind: 'target'`, schemaVersion 1)
 */
export async function readTargetRun(dir: string): Promise<TargetRunFiles> {
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as TargetManifest;
  if (manifest.kind !== 'target' || manifest.schemaVersion !== 1) throw new Error(`${join(dir, 'manifest.json')}: not a target run (kind ${String(manifest.kind)}, schemaVersion ${String(manifest.schemaVersion)})`);
  const cells: TargetCell[] = [];
  const samples = new Map<string, JmxSample[]>();
  for (const f of await list(join(dir, 'cells'))) {
    const p = join(dir, 'cells', f);
    if (f.endsWith('.samples.json')) samples.set(f.slice(0, -'.samples.json'.length), JSON.parse(await readFile(p, 'utf8')) as JmxSample[]);
    else if (f.endsWith('.samples.json.gz')) samples.set(f.slice(0, -'.samples.json.gz'.length), JSON.parse(gunzipSync(await readFile(p)).toString('utf8')) as JmxSample[]);
    else if (/^[a-z0-9-]+\.json$/.test(f)) cells.push(JSON.parse(await readFile(p, 'utf8')) as TargetCell);
  }
  const dumps = new Map<string, ThreadDumpSummary>();
  for (const f of await list(join(dir, 'threaddumps'))) {
    if (f.endsWith('.summary.json')) dumps.set(f.slice(0, -'.summary.json'.length), JSON.parse(await readFile(join(dir, 'threaddumps', f), 'utf8')) as ThreadDumpSummary);
  }
  return { dir, manifest, cells, samples, dumps };
}

/** Whether `dir` is a run folder `run.mjs target` wrote (its manifest says `kind: 'target'`); false when unreadable. */
export function isTargetRunDir(dir: string): boolean {
  const f = join(dir, 'manifest.json');
  if (!existsSync(f)) return false;
  try {
    return (JSON.parse(readFileSync(f, 'utf8')) as { kind?: unknown }).kind === 'target';
  } catch {
    return false;
  }
}
