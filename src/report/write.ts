/** The report's one writer: atomic file writes (temp file in the same folder + rename). */
import { mkdir, rename, writeFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface OutFile { path: string; content: string }

export async function writeAtomic(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    await writeFile(tmp, content, 'utf8');
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/** Writes files relative to root; returns their paths (root-joined), in the given order. */
export async function writeAll(root: string, files: readonly OutFile[]): Promise<string[]> {
  const out: string[] = [];
  for (const f of files) {
    const p = join(root, f.path);
    await writeAtomic(p, f.content);
    out.push(p);
  }
  return out;
}
