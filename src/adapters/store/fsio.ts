/**
 * The one place that writes run data. Every write is atomic: write a temp file in the same folder,
 * fsync it, rename over the target. A killed run leaves either the old file or the new one.
 */
import { mkdirSync, openSync, writeFileSync, fsyncSync, closeSync, renameSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { gzipSync, gunzipSync } from 'node:zlib';

/**
 * Atomically write bytes or text to `path`, creating parent folders: the whole content goes to a
 * temp file (writeFileSync loops until every byte is written, throwing on ENOSPC), which is
 * fsynced, renamed over the target, and the folder fsynced so the rename itself is durable.
 * @throws the underlying fs error, its `path` set to `path` when the syscall named none (write(2)
 *   on ENOSPC); the target is then untouched and the temp file removed
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.tmp`);
  try {
    const fd = openSync(tmp, 'w');
    try {
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    // a failed write(2) names no path (e.g. ENOSPC); name the file we were writing
    const err = e as NodeJS.ErrnoException;
    if (err && typeof err === 'object' && typeof err.code === 'string' && !err.path) err.path = path;
    throw e;
  }
  try {
    const dfd = openSync(dir, 'r');
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    /* some filesystems refuse fsync on a folder; the rename has still happened */
  }
}

/** Atomically write JSON (2-space indent, trailing newline). */
export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, JSON.stringify(value, null, 2) + '\n');
}

/** Atomically write gzip-compressed compact JSON. Deterministic: gzip with a zero mtime. */
export function writeGzJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, gzipSync(Buffer.from(JSON.stringify(value), 'utf8'), { level: 9 }));
}

export function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

export function readGzJson<T>(path: string): T {
  return JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as T;
}

export function fileExists(path: string): boolean {
  return existsSync(path);
}
