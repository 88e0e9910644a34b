/** The report's one writer: every file through the project's atomic write (src/adapters/store/fsio.ts). */
import { join } from 'node:path';
import { writeFileAtomic } from '../adapters/store/fsio.ts';

export interface OutFile { path: string; content: string }

/** Atomically write text (temp file in the same folder, fsync, rename). */
export async function writeAtomic(path: string, content: string): Promise<void> {
  writeFileAtomic(path, content);
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
