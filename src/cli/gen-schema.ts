/** `npm run schema`: regenerate schema/*.schema.json from src/types/run.ts. */
import { createGenerator } from 'ts-json-schema-generator';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCHEMA_DIR, SCHEMA_FILES } from '../adapters/store/schema.ts';

/** Schema text for one root type (deterministic). */
export function generateSchema(type: string): string {
  const gen = createGenerator({
    path: fileURLToPath(new URL('../types/run.ts', import.meta.url)),
    tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)),
    type,
    expose: 'export',
    topRef: true,
    skipTypeCheck: true,
    additionalProperties: false,
  });
  return JSON.stringify(gen.createSchema(type), null, 2) + '\n';
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [type, file] of Object.entries(SCHEMA_FILES)) {
    writeFileSync(join(SCHEMA_DIR, file), generateSchema(type));
    console.log(`wrote schema/${file}`);
  }
}
