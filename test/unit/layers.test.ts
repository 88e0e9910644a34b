/**
 * The layers (.dependency-cruiser.cjs): every file imports only from its own layer or below, no
 * import circle between files (type-only imports count), every source file in a layer. Run over the
 * tree, and over a planted tree that breaks each rule once, so the check is seen to fail.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as IConfiguration;

async function violations(baseDir: string, roots: string[]): Promise<string[]> {
  const { options = {}, forbidden = [], required = [] } = config;
  const r = await cruise(roots, { ...options, baseDir, validate: true, ruleSet: { forbidden, required } } as never, undefined, { tsConfig: { fileName: join(ROOT, 'tsconfig.json') } } as never);
  const out = r.output as ICruiseResult;
  // a cruise that found nothing would pass vacuously: every root must have been read
  for (const root of roots) assert.ok(out.modules.some((m) => m.source === root || m.source.startsWith(`${root}/`)), `nothing cruised under ${root}`);
  return out.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
}

test('the tree keeps its layers: no upward import, no circle, every file in a layer', { timeout: 120_000 }, async () => {
  assert.deepEqual(await violations(ROOT, ['src', 'mock', 'bench', 'run.mjs']), []);
});

test('a planted circle, an upward import, and files outside the layers (one importing, one importing nothing) are each caught', { timeout: 60_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-layers-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const put = (rel: string, text: string) => { mkdirSync(dirname(join(dir, rel)), { recursive: true }); writeFileSync(join(dir, rel), text); };
  put('src/compute/a.ts', "import { b } from './b.ts';\nexport const a = (): number => b() + 1;\n");
  put('src/compute/b.ts', "import { a } from './a.ts';\nexport const b = (): number => a() - 1;\n");
  put('src/types/t.ts', "import { main } from '../cli/main.ts';\nexport type T = typeof main;\n");
  put('src/cli/main.ts', 'export const main = (): number => 0;\n');
  put('src/stray/x.ts', "import { main } from '../cli/main.ts';\nexport const x = main;\n");
  put('src/lone/y.ts', 'export const y = 1;\n'); // imports nothing, imported by nothing: no edge a `forbidden` rule could see
  const found = await violations(dir, ['src']);
  assert.deepEqual(found, [
    'in-a-layer: src/lone/y.ts -> src/lone/y.ts', // a module rule: the module is named on both ends
    'in-a-layer: src/stray/x.ts -> src/stray/x.ts',
    'layer-types: src/types/t.ts -> src/cli/main.ts',
    'no-circular: src/compute/a.ts -> src/compute/b.ts', // a circle is reported once, at the edge that closes it
  ]);
});
