/**
 * Study 002 end to end (issue 12): the `smoke` profile through the real entry point (`runStudy`,
 * the path of `npx zx run.mjs --study 002 --profile smoke`): the real mock (its `/delay` route), a
 * real PostgreSQL the harness starts and stops, and the real SUT jar with the scenario beans
 * io-http, cpu-fib, mixed-structured and db-small. Every cell must hold its own scenario, the
 * database must be in the manifest and gone afterwards, the structured fan-out must report its
 * per-step Server-Timing, and the report must render with every bound. Needs a JDK and the
 * PostgreSQL binaries; about a minute and a half (four JVM starts). Run it under the heavy lock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStudy } from '../../src/cli/main.ts';
import { realDeps } from '../../src/cli/deps.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { STUDY_002 } from '../../src/studies/002/index.ts';
import { cellCpu } from '../../src/compute/theory/cell-bounds.ts';
import { capture } from '../fixtures/capture-io.ts';
import { freePortArgs, runStudyE2e } from '../fixtures/e2e-run.ts';

// the smoke profile's WebSocket arm (ws-virtual) has its own test: test/e2e/study-002-ws-e2e.test.ts
test('study 002 smoke runs end to end: I/O, CPU, structured fan-out over PostgreSQL, small queries; database started and stopped; report written', { timeout: 400_000 }, async (t) => {
  const { runsDir, reportDir, out, id, store, manifest: m } = await runStudyE2e(t, STUDY_002, 'vtbench-002-', ['--profile', 'smoke', '--variants', 'io-virtual,cpu-virtual,mixed-virtual-structured,db10-virtual']);
  assert.equal(m.db?.kind, 'own');
  assert.equal(m.db?.ordersRows, 10_000);
  assert.match(m.db?.serverVersion ?? '', /^\d+/);
  // the server and its data directory are gone (own server: stopped at the end)
  const pids = JSON.parse(readFileSync(join(runsDir, id, 'pids.json'), 'utf8')) as unknown[];
  assert.deepEqual(pids, []);
  const cells = store.readDoneCells(m.cellOrder);
  assert.deepEqual(cells.map((c) => [c.variant, c.scenario]), [
    ['io-virtual', 'io-100ms'], ['cpu-virtual', 'cpu-fib'], ['mixed-virtual-structured', 'mixed-structured'], ['db10-virtual', 'db-small'],
  ]);
  for (const c of cells) {
    assert.equal(c.load.ok, c.load.count, `${c.cellId}: every request succeeded (${JSON.stringify(c.load.errors)} ${JSON.stringify(c.load.errorKinds ?? {})})`);
    assert.ok(c.componentCpuMs !== undefined || c.scenario === 'cpu-fib', `${c.cellId}: the mock's and the database's CPU recorded`);
  }
  const io = cells.find((c) => c.scenario === 'io-100ms')!;
  assert.ok(io.load.e2eMs!.min >= 100, 'an I/O request cannot end before the mock\'s 100 ms');
  assert.ok((io.mock.after?.delay?.served ?? 0) >= io.load.count, 'each request called the mock\'s /delay');
  const st = cells.find((c) => c.scenario === 'mixed-structured')!;
  assert.deepEqual(Object.keys(st.load.timingMs ?? {}).sort(), ['conn', 'db', 'logistics', 'user']); // conn: waiting for a pooled connection (part of db)
  // the fan-out cannot beat its critical path max(50 + 100, 80) = 150 ms
  assert.ok(st.load.execMs!.min >= 150 - 1, `fan-out exec min ${st.load.execMs!.min}`);
  assert.ok(st.componentCpuMs?.db !== null && st.componentCpuMs?.db !== undefined, 'PostgreSQL CPU read from /proc');
  // and sampled during the load, so the CPU bound takes it over the cell's window (test/e2e/cpu-sampler.test.ts)
  assert.ok((st.componentCpuSamples ?? []).length >= 2 && st.componentCpuSamples!.every((x) => x.dbMs !== null), 'PostgreSQL CPU sampled during the load');
  assert.equal(cellCpu(st).parts.db, 'window');
  const md = readFileSync(join(reportDir, id, 'report.md'), 'utf8');
  assert.doesNotMatch(md, /\{\{|\}\}/);
  assert.match(md, /DB pool/);
  assert.match(md, /inconsistent as published/);
  assert.ok(existsSync(join(reportDir, id, 'figures', 'throughput-002.svg')));
  const zh = await runStudy(STUDY_002, ['report', join(runsDir, id), '--lang', 'zh', '--report-dir', reportDir], out.io, realDeps());
  assert.equal(zh, 0, out.text());
});

// The run's own PostgreSQL SIGKILLed during a cell (found by last session's kill test: the run went
// on, its requests failing with 503s): the database is watched like the SUT and the mock, so the
// run ends with exit 6 and the cell is recorded as failed, naming PostgreSQL, never as a result.
test('study 002: the own PostgreSQL killed mid-cell fails the cell (exit 6), naming the database; nothing is measured after it', { timeout: 300_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-002-pgkill-'));
  try {
    const runsDir = join(tmp, 'runs');
    const out = capture();
    const ports = await freePortArgs();
    // 20 workers × 1,500 queries of 5 ms through a pool of 10: ≥ 15 s of load, time enough to kill
    const run = runStudy(STUDY_002, ['--profile', 'smoke', '--variants', 'db10-virtual', '--levels', '20', '--requests-per-worker', '1500', '--warmup-s', '0', ...ports, '--runs-dir', runsDir, '--report-dir', join(tmp, 'report'), '--json'], out.io, realDeps());
    const pgPid = async (): Promise<number | null> => {
      const ids = existsSync(runsDir) ? readdirSync(runsDir) : [];
      if (ids.length !== 1) return null;
      try {
        const list = JSON.parse(readFileSync(join(runsDir, ids[0]!, 'pids.json'), 'utf8')) as { pid: number; role: string }[];
        return list.find((p) => p.role === 'postgres')?.pid ?? null;
      } catch {
        return null;
      }
    };
    const deadline = Date.now() + 240_000;
    while (!/"type":"cell-start"/.test(out.text()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.match(out.text(), /"type":"cell-start"/, 'the db cell started');
    await new Promise((r) => setTimeout(r, 1500));
    const pid = await pgPid();
    assert.ok(pid, 'the own PostgreSQL is in pids.json');
    process.kill(pid, 'SIGKILL');
    const code = await run;
    assert.equal(code, 6, out.text());
    assert.match(out.text(), new RegExp(`the PostgreSQL \\(own server\\) died during cell db10-virtual-c20-r1 \\(process ${pid} is gone\\)`));
    const [id] = readdirSync(runsDir);
    const store = new RunStore(join(runsDir, id!));
    const m = store.readManifest();
    assert.equal(m.status, 'failed');
    assert.deepEqual(m.failedCells?.map((f) => f.cellId), ['db10-virtual-c20-r1']);
    const evidence = JSON.parse(readFileSync(join(runsDir, id!, 'cells', 'db10-virtual-c20-r1.failed.json'), 'utf8')) as { component: { role: string; pid: number } | null; cause: string };
    assert.deepEqual(evidence.component, { role: 'PostgreSQL (own server)', pid });
    assert.deepEqual([...store.doneCellIds()], [], 'the cell is not a result');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
