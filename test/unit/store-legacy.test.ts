/**
 * Runs in the previous run format (schema version 1, written by study 000 before the study engine):
 * - the committed run `runs/20261130-100102-seed-000` reads through study 000's v1 reader
 *   (src/studies/000/v1.ts via src/adapters/store/migrate.ts): its manifest, cells, summary and thread-dump
 *   summaries upgrade in memory to files that validate against the current schema/;
 * - such a run can be re-rendered but not resumed or re-summarized: the store refuses to write to
 *   it, and `--resume` says so with the run-data exit code.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { upgradeFile, upgradeManifest, legacyReaderFor } from '../../src/adapters/store/migrate.ts';
import { STUDIES } from '../../src/studies/index.ts';
import { validate } from '../../src/adapters/store/schema.ts';
import { SCHEMA_VERSION, type RunManifest } from '../../src/types/run.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { cellFileNames } from '../../src/adapters/store/check.ts';
import { resummarizeRun } from '../../src/pipeline/resummarize.ts';
import { main, type Io, type MainDeps } from '../../src/cli/main.ts';
import { VtbenchError, EXIT } from '../../src/types/errors.ts';
import { copyRunAsCurrent } from '../fixtures/upgrade-run.ts';
import { FIXTURE_DIR } from '../fixtures/upgrade-run.ts';

const RUN = fileURLToPath(new URL('../../runs/20261130-100102-seed-000/', import.meta.url));
const json = (p: string): unknown => JSON.parse(readFileSync(p, 'utf8'));

test('the committed schema-1 run upgrades through its study\'s reader: manifest, every cell, summary and thread dumps validate against the current schema', () => {
  const raw = json(join(RUN, 'manifest.json')) as { schemaVersion: number; options: { modes: string[] } };
  assert.equal(raw.schemaVersion, 1);
  const { manifest, reader } = upgradeManifest(raw, STUDIES);
  assert.ok(reader, 'a reader for version 1');
  assert.deepEqual(validate('RunManifest', manifest), []);
  const m = manifest as RunManifest;
  assert.equal(m.schemaVersion, SCHEMA_VERSION);
  assert.equal(m.options.study, STUDIES[0]!.id);
  assert.deepEqual(m.options.variants, raw.options.modes);
  assert.deepEqual(m.options.variantSpecs.map((v) => v.id), raw.options.modes);
  for (const [block, info] of Object.entries(m.sut)) assert.equal(info.executor.variant, block.replace(/-r\d+$/, ''), block);

  const cells = cellFileNames(readdirSync(join(RUN, 'cells')));
  assert.ok(cells.length > 0);
  for (const f of cells) {
    const cell = upgradeFile('cell', json(join(RUN, 'cells', f)), reader, m) as { cellId: string; variant: string; executor: unknown };
    assert.deepEqual(validate('CellFile', cell), [], f);
    assert.equal(cell.variant, cell.cellId.replace(/-c\d+-r\d+$/, ''), f);
    assert.deepEqual(cell.executor, m.options.variantSpecs.find((v) => v.id === cell.variant)!.executor, f);
  }
  const summary = upgradeFile('summary', json(join(RUN, 'summary.json')), reader, m);
  assert.deepEqual(validate('RunSummary', summary), []);
  for (const f of readdirSync(join(RUN, 'threaddumps')).filter((x) => x.endsWith('.summary.json'))) {
    assert.deepEqual(validate('ThreadDumpSummary', upgradeFile('threadDump', json(join(RUN, 'threaddumps', f)), reader, m)), [], f);
  }
});

/** The study's own reader a (possibly chained) reader starts with. */
const baseOf = (r: { base?: unknown } | null): unknown => r?.base ?? r;

test('the store reads only the current format: a schema-1 manifest is refused (re-render yes, resume or resummarize no)', () => {
  const store = new RunStore(RUN);
  assert.equal(store.schemaVersionOnDisk(), 1);
  assert.throws(() => store.readManifest(), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.runData && /run format version 1; this vtbench writes version 3: the run can be re-rendered but not resumed or re-summarized/.test(e.message) && /npx zx run\.mjs report/.test(e.hint));
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-legacy-'));
  try {
    const dir = join(tmp, 'run');
    cpSync(FIXTURE_DIR, dir, { recursive: true });
    const before = readFileSync(join(dir, 'summary.json'));
    assert.throws(() => resummarizeRun(dir), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.runData);
    assert.deepEqual(readFileSync(join(dir, 'summary.json')), before, 'nothing written');
    // the same run upgraded is accepted
    const up = join(tmp, 'up');
    assert.equal(copyRunAsCurrent(FIXTURE_DIR, up), 1);
    assert.equal(new RunStore(up).readManifest().schemaVersion, SCHEMA_VERSION);
    assert.ok(new RunStore(up).doneCellIds().size > 0);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('--resume of a schema-1 run fails with exit 7 saying it can be re-rendered but not resumed, and touches nothing', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-legacy-'));
  try {
    const dir = join(tmp, 'old-run');
    cpSync(FIXTURE_DIR, dir, { recursive: true });
    const manifestBefore = readFileSync(join(dir, 'manifest.json'));
    let err = '';
    const sink = { write: (s: string) => { err += s; return true; } } as unknown as NodeJS.WriteStream;
    const io: Io = { stdout: sink, stderr: sink };
    const code = await main(['--resume', dir, '--no-report'], io, {} as MainDeps);
    assert.equal(code, EXIT.runData, err);
    assert.match(err, /^error: --resume: run .*old-run is in run format version 1; this vtbench writes version 3: the run can be re-rendered but not resumed\n  hint: render it with: npx zx run\.mjs report /m);
    assert.deepEqual(readFileSync(join(dir, 'manifest.json')), manifestBefore);
    assert.deepEqual(readdirSync(dir).sort(), readdirSync(FIXTURE_DIR).sort(), 'no lock, no new files');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('old formats are read by (study, version): a run naming a study only by that study\'s readers, a run naming none only by readers marked forRunsWithoutStudy', async () => {
  const { legacyReaderFor } = await import('../../src/adapters/store/migrate.ts');
  const { V1_READER } = await import('../../src/studies/000/v1.ts');
  const s000 = STUDIES.find((s) => s.legacyReaders?.includes(V1_READER));
  assert.ok(s000, 'study 000 owns the v1 reader');
  assert.equal(V1_READER.forRunsWithoutStudy, true);
  // names no study (schema 1 predates studies): the reader marked for such runs
  assert.equal(baseOf(legacyReaderFor(1, STUDIES)), V1_READER);
  // names study 000: its own reader
  assert.equal(baseOf(legacyReaderFor(1, STUDIES, s000.id)), V1_READER);
  // another study with its own version-1 reader: a run naming it gets that reader, not 000's
  const other = { ...V1_READER, forRunsWithoutStudy: false, manifest: (raw: Record<string, unknown>) => raw };
  const toy = { ...s000, id: 'toy-legacy', legacyReaders: [other] };
  assert.equal(baseOf(legacyReaderFor(1, [s000, toy], 'toy-legacy')), other);
  assert.equal(baseOf(legacyReaderFor(1, [toy, s000], s000.id)), V1_READER);
  // a run naming no study never reaches a reader that is not marked for it, whatever the order
  assert.equal(baseOf(legacyReaderFor(1, [toy, s000])), V1_READER);
  const isRunData = (re: RegExp) => (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.runData && re.test(e.message);
  assert.throws(() => legacyReaderFor(1, [toy]), isRunData(/schemaVersion 1.*no reader of an older format for a run that names no study/));
  // a study without readers, or one this vtbench does not define: a clear error, never 000's reader
  const bare = { ...s000, id: 'bare', legacyReaders: undefined };
  assert.throws(() => legacyReaderFor(1, [s000, bare], 'bare'), isRunData(/schemaVersion 1.*for study bare, 2$/));
  assert.throws(() => legacyReaderFor(1, STUDIES, 'nope'), isRunData(/for study nope \(not defined in this vtbench\)/));
  assert.throws(() => legacyReaderFor(0, STUDIES, s000.id), isRunData(/schemaVersion 0.*and, for study .*, 1, 2$/));
  // the current version needs no reader
  assert.equal(legacyReaderFor(SCHEMA_VERSION, STUDIES, 'nope'), null);
});

test('a schema-2 run of any study is read through the engine reader (V2_READER): versions raised, nothing invented, and the result validates', async () => {
  const { V2_READER } = await import('../../src/adapters/store/migrate.ts');
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-v2-'));
  try {
    // the committed fixture run upgraded to schema 3, then written back as schema 2 (what a v2 vtbench wrote)
    const dir = join(tmp, 'run');
    copyRunAsCurrent(FIXTURE_DIR, dir);
    const asV2 = (p: string) => { const v = JSON.parse(readFileSync(p, 'utf8')); v.schemaVersion = 2; return v as Record<string, unknown>; };
    const m2 = asV2(join(dir, 'manifest.json'));
    const reader = legacyReaderFor(2, STUDIES, (m2['options'] as { study: string }).study);
    assert.equal(baseOf(reader), V2_READER);
    const m = upgradeManifest(m2, STUDIES).manifest as RunManifest;
    assert.equal(m.schemaVersion, SCHEMA_VERSION);
    assert.deepEqual(validate('RunManifest', m), []);
    const cellFile = readdirSync(join(dir, 'cells')).find((f) => /^[^.]+\.json$/.test(f))!;
    const c2 = asV2(join(dir, 'cells', cellFile));
    const c3 = upgradeFile('cell', c2, reader, m) as Record<string, unknown>;
    assert.deepEqual(validate('CellFile', c3), []);
    assert.deepEqual({ ...c3, schemaVersion: 2 }, c2, 'only the version changes');
    const s3 = upgradeFile('summary', asV2(join(dir, 'summary.json')), reader, m);
    assert.deepEqual(validate('RunSummary', s3), []);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
