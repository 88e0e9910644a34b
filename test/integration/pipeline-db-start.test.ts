/**
 * The progress lines of the run's database (src/pipeline/run.ts executePlan): its own PostgreSQL is a
 * start with `starting`/`started` events ("starting PostgreSQL … (≈ 4 s)", "PostgreSQL ready after");
 * an external one (`--db-url`, RunContext.externalDb) is only connected to, so it has none, as an
 * external SUT (`--sut-url`) has none. Fake components (test/fixtures/fake-run.ts): no PostgreSQL, no JVM.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executePlan, type RunContext, type RunDeps } from '../../src/pipeline/run.ts';
import type { RunEvent } from '../../src/pipeline/events.ts';
import type { DbHandle } from '../../src/adapters/db/postgres.ts';
import { ChildRegistry } from '../../src/adapters/process/children.ts';
import { resolveOptions } from '../../src/plan/profiles.ts';
import { makePlan } from '../../src/plan/plan.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { STUDY_002 } from '../../src/studies/002/index.ts';
import { fakeRunDeps, runningManifest } from '../fixtures/fake-run.ts';

/** A database handle that connects to nothing (the run stops at its first SUT start, before any query). */
function fakeDb(kind: 'own' | 'external'): DbHandle {
  return {
    target: { host: '127.0.0.1', port: 9, database: 'bench', user: 'bench', password: '' },
    info: { kind, url: 'jdbc:postgresql://127.0.0.1:9/bench', user: 'bench', serverVersion: '16', settings: {}, binDir: null, ordersRows: 0 },
    pid: null, marker: 'fake-db', logFile: '', probe: async () => true, stop: async () => {},
  };
}

/** executePlan of one study-002 database cell, stopped at its SUT start; the events up to then. */
async function startEvents(externalDb: boolean | undefined): Promise<RunEvent[]> {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-dbstart-'));
  try {
    const options = resolveOptions(STUDY_002, 'smoke', { warmupS: '0', variants: 'db10-virtual', levels: '2' });
    const plan = makePlan(options, STUDY_002);
    const store = new RunStore(join(dir, 'run'));
    store.init();
    const manifest = runningManifest('db-start', options, plan);
    const deps: RunDeps = {
      ...fakeRunDeps(),
      startDb: async () => fakeDb(externalDb ? 'external' : 'own'),
      startSut: async () => { throw new Error('stop here: the SUT start'); },
    };
    const events: RunEvent[] = [];
    const ctx: RunContext = {
      study: STUDY_002, options, plan, store, manifest, deps, emit: (e) => events.push(e), signal: new AbortController().signal, children: new ChildRegistry(null),
      ...(externalDb !== undefined ? { externalDb } : {}),
    };
    await assert.rejects(executePlan(ctx), /stop here: the SUT start/);
    assert.equal(manifest.db?.kind, externalDb ? 'external' : 'own', 'the database was connected to');
    return events;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const dbStarts = (events: RunEvent[]) => events.filter((e) => (e.type === 'starting' || e.type === 'started') && e.what === 'postgres').map((e) => e.type);

test('the run\'s own PostgreSQL has its starting and started events; an external one (--db-url) has none', { timeout: 60_000 }, async () => {
  assert.deepEqual(dbStarts(await startEvents(undefined)), ['starting', 'started']);
  assert.deepEqual(dbStarts(await startEvents(false)), ['starting', 'started']);
  assert.deepEqual(dbStarts(await startEvents(true)), []);
});
