/**
 * The ranges the SUT's job endpoints accept (`POST /bench/job/<job>`, HTTP 400 outside them), read
 * from the file the SUT itself reads: `sut/src/main/resources/bench-limits.properties`
 * (dev.vtbench.sut.jobs.BenchLimits). One source for both sides: a plan whose job the SUT would refuse is
 * refused by the plan check (`checkBounds`: `--dry-run`, a run, `--resume`) before any JVM starts.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { InProcessJob } from '../types/study.ts';
import { jobParams } from '../load/in-process.ts';

/** The shared limits file (the SUT's classpath resource). */
export const SUT_LIMITS_FILE = fileURLToPath(new URL('../../sut/src/main/resources/bench-limits.properties', import.meta.url));

/** `<job>.<param>` → inclusive range. */
export type SutLimits = ReadonlyMap<string, { min: number; max: number }>;

/**
 * Parse the limits file's text (Java properties: `key=min..max`, `#` comments). Pure.
 * @throws Error naming the line that is not `<job>.<param>=<min>..<max>`
 */
export function parseSutLimits(text: string): SutLimits {
  const out = new Map<string, { min: number; max: number }>();
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const m = /^([A-Za-z0-9-]+\.[A-Za-z0-9]+)\s*[=:]\s*(-?\d+)\.\.(-?\d+)$/.exec(line);
    if (!m) throw new Error(`${SUT_LIMITS_FILE}:${i + 1}: '${line}' is not <job>.<param>=<min>..<max>`);
    out.set(m[1]!, { min: Number(m[2]), max: Number(m[3]) });
  }
  return out;
}

let cached: SutLimits | null = null;
/** The SUT's limits, read once. */
export function sutLimits(): SutLimits {
  cached ??= parseSutLimits(readFileSync(SUT_LIMITS_FILE, 'utf8'));
  return cached;
}

/**
 * Each parameter of `job` outside the range the SUT accepts for it, in the SUT's own words
 * (`threads must be in 1..2000000, got 2000001`). A parameter the file does not list is not checked
 * (the SUT checks it, e.g. `op`). Pure.
 */
export function jobLimitProblems(job: InProcessJob, limits: SutLimits = sutLimits()): string[] {
  const name = job.path.split('/').filter((x) => x !== '').at(-1) ?? job.path;
  const out: string[] = [];
  for (const [param, v] of Object.entries(jobParams(job))) {
    const r = limits.get(`${name}.${param}`);
    if (!r || typeof v !== 'number') continue;
    if (!Number.isInteger(v) || v < r.min || v > r.max) out.push(`${param} must be in ${r.min}..${r.max}, got ${v}`);
  }
  return out;
}
