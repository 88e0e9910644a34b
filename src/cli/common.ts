/**
 * What every command shares: the output streams, the repository root, the tool's version, run ids
 * and the run options as typed on a command line. Apart from the commands so that they import it
 * and not each other.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPTION_SPECS, type OptionKey } from '../plan/options.ts';

/** The repository's root folder (absolute, with a trailing slash). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where a command writes: stdout for results, stderr for progress and messages. */
export interface Io {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}


/** vtbench's version (package.json). */
export function toolVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * `<yyyymmdd>-<hhmmss>-<study>-<profile>` in UTC, e.g. `20261130-101500-000-quick`. Runs started
 * before the study was part of the id (`<yyyymmdd>-<hhmmss>-<profile>`, e.g. the committed
 * `20261130-100102-seed-000`) keep their ids: nothing parses an id, the manifest names the study.
 */
export function newRunId(study: string, profile: string, now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getUTCFullYear()}${p(now.getUTCMonth() + 1)}${p(now.getUTCDate())}-${p(now.getUTCHours())}${p(now.getUTCMinutes())}${p(now.getUTCSeconds())}-${study}-${profile}`;
}

/** The run options given on a command line (commander's camelCase attributes), by option key, as typed. */
export function rawRunOptions(opts: Record<string, string | boolean | undefined>): Partial<Record<OptionKey, string>> {
  const raw: Partial<Record<OptionKey, string>> = {};
  for (const s of OPTION_SPECS) {
    const camel = s.flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const v = opts[camel];
    if (typeof v === 'string') raw[s.key] = v;
  }
  return raw;
}
