/**
 * JSON Schemas of the run files, generated from the TypeScript types in types.ts with
 * ts-json-schema-generator (`npm run schema` rewrites schema/*.schema.json; a test checks the
 * committed files equal a fresh generation, so types and schema never drift).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';

export const SCHEMA_DIR = fileURLToPath(new URL('../../schema/', import.meta.url));

/** Root type name -> schema file. */
export const SCHEMA_FILES = {
  RunManifest: 'manifest.schema.json',
  CellFile: 'cell.schema.json',
  SutSamples: 'samples.schema.json',
  CompactRequests: 'requests.schema.json',
  RunSummary: 'summary.schema.json',
  ThreadDumpSummary: 'threaddump-summary.schema.json',
} as const;

export type SchemaName = keyof typeof SCHEMA_FILES;

const cache = new Map<SchemaName, ValidateFunction>();

/** A compiled validator for one file kind. */
export function validator(name: SchemaName): ValidateFunction {
  let v = cache.get(name);
  if (!v) {
    const schema = JSON.parse(readFileSync(join(SCHEMA_DIR, SCHEMA_FILES[name]), 'utf8')) as object;
    v = new Ajv({ allErrors: true, strict: false }).compile(schema);
    cache.set(name, v);
  }
  return v;
}

/** Validate a value; returns a list of readable errors (empty = valid). */
export function validate(name: SchemaName, value: unknown): string[] {
  const v = validator(name);
  if (v(value)) return [];
  return (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'invalid'}`);
}
