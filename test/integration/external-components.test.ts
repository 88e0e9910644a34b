/**
 * Components by URL (src/pipeline/external.ts, `--sut-url`, `--mock-url`): the option parsing, the
 * refusals (variants, mock, latency), and whole runs through `main` against a mock and a stand-in
 * SUT (test/fixtures/stand-in-sut.ts) started by hand: the run does not start, stop or track them, reads
 * them over HTTP only, records them as external, renders its report, and fails a cell (exit 6, no
 * hang) when the external SUT stops answering.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type Io } from '../../src/cli/main.ts';
import { realDeps } from '../../src/cli/deps.ts';
import { parseComponentUrl } from '../../src/plan/options.ts';
import { externalMockProblems, externalSutProblems, externalOf, withExternalComponents } from '../../src/pipeline/external.ts';
import { resolveOptions } from '../../src/plan/profiles.ts';
import { STUDY_000 as S000 } from '../../src/studies/000/index.ts';
import { startMockProcess, getMockStats, type MockProcess } from '../../src/adapters/process/mock-process.ts';
import { getInfo } from '../../src/adapters/jvm/client.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { validate } from '../../src/adapters/store/schema.ts';
import { VtbenchError, EXIT } from '../../src/types/errors.ts';
import type { RunDeps } from '../../src/pipeline/run.ts';
import { freePort } from '../fixtures/ports.ts';
import { startFakeSutByHand } from '../fixtures/fake-sut.ts';

// an external mock is started with a control token; the harness takes the same from its environment (src/adapters/process/control-token.ts)
const TOKEN = 'external-test-token';
process.env['VTBENCH_CONTROL_TOKEN'] = TOKEN;


function capture(): { io: Io; text: () => string } {
  let buf = '';
  const sink = { write: (s: string) => { buf += s; return true; } } as unknown as NodeJS.WriteStream;
  return { io: { stdout: sink, stderr: sink }, text: () => buf };
}

function stopChild(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
  return new Promise((r) => {
    c.once('exit', () => r());
    c.kill('SIGTERM');
  });
}

test('parseComponentUrl: an http(s) origin, a trailing slash dropped; a path, /v1, a query or another scheme refused naming the flag', () => {
  assert.equal(parseComponentUrl('sut-url', 'http://10.200.0.2:19080/'), 'http://10.200.0.2:19080');
  assert.equal(parseComponentUrl('mock-url', 'https://mock.bench.svc:8443'), 'https://mock.bench.svc:8443');
  for (const [flag, raw, re] of [
    ['sut-url', 'localhost:19080', /--sut-url: 'localhost:19080' is not an http\(s\) URL/],
    ['sut-url', 'not a url', /--sut-url: 'not a url' is not a URL/],
    ['mock-url', 'http://127.0.0.1:19000/v1', /give it without \/v1/],
    ['sut-url', 'http://127.0.0.1:19080/api?x=1', /more than scheme, host and port/],
  ] as const) {
    assert.throws(() => parseComponentUrl(flag, raw), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && re.test(e.message));
  }
});

test('externalSutProblems / externalMockProblems: each mismatch named with its fix; none when the components fit', async () => {
  const o = resolveOptions(S000, 'smoke', { variants: 'fixed', sutUrl: 'http://127.0.0.1:1', mockUrl: 'http://127.0.0.1:2' });
  const mock = await startMockProcess({ port: await freePort(), latencyMs: 200, logFile: '/dev/null', controlToken: TOKEN });
  const sut = await startFakeSutByHand(['--variant', 'fixed', '--kind', 'platform-pool', '--threads', '8', '--prefix', 'llm-fixed-', '--mock', `${mock.url}/v1`]);
  try {
    const info = await getInfo(sut.url);
    const stats = (await getMockStats(mock.url))!;
    assert.deepEqual(externalSutProblems({ ...o, mockUrl: mock.url }, S000, info), []);
    assert.deepEqual(externalMockProblems(o, stats), []);
    const both = resolveOptions(S000, 'smoke', { sutUrl: sut.url, mockUrl: mock.url });
    assert.match(externalSutProblems(both, S000, info).join('\n'), /cannot be restarted per variant, but the run selects 2 variants \(fixed, virtual\): give --variants fixed/);
    const pool4 = resolveOptions(S000, 'smoke', { variants: 'fixed', poolSize: '4', mockUrl: mock.url });
    assert.match(externalSutProblems(pool4, S000, info).join('\n'), /executor\.threads is 8, expected 4/);
    const noMock = resolveOptions(S000, 'smoke', { variants: 'fixed' });
    assert.match(externalSutProblems(noMock, S000, info).join('\n'), new RegExp(`give --mock-url ${mock.url.replace(/[.]/g, '\\.')}`));
    assert.match(externalSutProblems({ ...o, mockUrl: 'http://127.0.0.1:9' }, S000, info).join('\n'), /would describe another mock/);
    const slower = resolveOptions(S000, 'smoke', { variants: 'fixed', latencyMs: '300' });
    assert.deepEqual(externalMockProblems(slower, stats), ['the mock answers after 200 ms, the run plans L = 300 ms: give --latency-ms 200, or start the mock with --latency-ms 300']);
  } finally {
    await stopChild(sut.child);
    await mock.stop();
  }
});

test('withExternalComponents: without --sut-url and --mock-url the deps are returned unchanged; with them no process is started', async () => {
  const deps = { startMock: () => { throw new Error('started'); }, startSut: () => { throw new Error('started'); } } as unknown as RunDeps;
  assert.equal(withExternalComponents(deps, {}), deps);
  assert.equal(externalOf({}), null);
  const ext = withExternalComponents(deps, { mockUrl: 'http://127.0.0.1:9' });
  const h = await ext.startMock({ port: 1, latencyMs: 1, logFile: '/dev/null' });
  assert.equal(h.pid, null);
  assert.equal(h.url, 'http://127.0.0.1:9');
  assert.equal(await h.probe(500), false, 'nothing answers there');
  assert.throws(() => ext.startSut({} as never), /started/, 'the SUT is still started locally');
});

interface ByHand { mock: MockProcess; sut: { child: ChildProcess; url: string } }

async function startByHand(): Promise<ByHand> {
  const mock = await startMockProcess({ port: await freePort(), latencyMs: 200, logFile: '/dev/null', controlToken: TOKEN });
  const sut = await startFakeSutByHand(['--variant', 'fixed', '--kind', 'platform-pool', '--threads', '8', '--prefix', 'llm-fixed-', '--mock', `${mock.url}/v1`]);
  return { mock, sut };
}

test('a run with --sut-url and --mock-url: nothing started or stopped, every figure over HTTP, external in the manifest, report rendered', { timeout: 180_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-external-'));
  const h = await startByHand();
  try {
    const out = capture();
    const runsDir = join(tmp, 'runs');
    const reportDir = join(tmp, 'report');
    // the ports given are in use by nothing of ours: an external run must not check or bind them
    const code = await main(['--study', '000', '--profile', 'smoke', '--variants', 'fixed', '--sut-url', h.sut.url, '--mock-url', h.mock.url, '--runs-dir', runsDir, '--report-dir', reportDir], out.io, realDeps());
    assert.equal(code, 0, out.text());
    const [id] = readdirSync(runsDir);
    const store = new RunStore(join(runsDir, id!));
    const m = store.readManifest();
    assert.equal(m.status, 'complete');
    assert.deepEqual(m.external, { sut: h.sut.url, mock: h.mock.url });
    assert.equal(m.options.sutUrl, h.sut.url);
    assert.equal(m.versions.jdkVendor, 'fake', "the JDK is the SUT's own, from /bench/info");
    assert.deepEqual(validate('RunManifest', m), []);
    assert.deepEqual(JSON.parse(readFileSync(join(store.dir, 'pids.json'), 'utf8')), [], 'no process of the run');
    assert.ok(!existsSync(join(store.dir, 'logs', 'mock.log')) || readFileSync(join(store.dir, 'logs', 'mock.log'), 'utf8') === '', 'no mock started');
    for (const cellId of m.cellOrder) {
      const cell = store.readCell(cellId);
      assert.equal(cell.sutPid, undefined, `${cellId}: no pid of an external SUT`);
      assert.equal(cell.mock.scope, 'cell');
      assert.equal(cell.mock.after?.served, cell.concurrency * 3, `${cellId}: the external mock's per-cell figures, over HTTP`);
      assert.equal(cell.load.ok, cell.concurrency * 3);
    }
    // both components are still running: the run neither stopped nor signalled them
    assert.equal(h.sut.child.exitCode, null);
    assert.ok(await getMockStats(h.mock.url));
    assert.ok(existsSync(join(reportDir, id!, 'index.html')), out.text());
    assert.match(readFileSync(join(reportDir, id!, 'report.md'), 'utf8'), new RegExp(`external components \\| SUT ${h.sut.url}; mock ${h.mock.url} \\(started by someone else`));
  } finally {
    await stopChild(h.sut.child);
    await h.mock.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('--sut-url refuses a run of two variants before measuring anything (exit 2, the fix named)', { timeout: 60_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-external-'));
  const h = await startByHand();
  try {
    const out = capture();
    const code = await main(['--study', '000', '--profile', 'smoke', '--sut-url', h.sut.url, '--mock-url', h.mock.url, '--runs-dir', join(tmp, 'runs'), '--no-report'], out.io, realDeps());
    assert.equal(code, EXIT.usage, out.text());
    assert.match(out.text(), /--sut-url: an external SUT runs one executor \(it reports variant 'fixed'\).*give --variants fixed/);
    assert.ok(!existsSync(join(tmp, 'runs')) || readdirSync(join(tmp, 'runs')).length === 0, 'no run folder');
  } finally {
    await stopChild(h.sut.child);
    await h.mock.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('an external SUT that stops answering mid-run is a failed cell (exit 6), not a hang; the mock is left running', { timeout: 120_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-external-'));
  const h = await startByHand();
  try {
    const out = capture();
    const runsDir = join(tmp, 'runs');
    // a long enough first cell (4 workers × 20 × 200 ms ≈ 4 s); the SUT is killed 1.5 s into the run's load
    const run = main(['--study', '000', '--profile', 'smoke', '--variants', 'fixed', '--levels', '4', '--requests-per-worker', '20', '--warmup-s', '0', '--sut-url', h.sut.url, '--mock-url', h.mock.url, '--runs-dir', runsDir, '--no-report', '--json'], out.io, realDeps());
    const killer = setInterval(() => {
      if (/"type":"cell-start"/.test(out.text())) {
        clearInterval(killer);
        setTimeout(() => h.sut.child.kill('SIGKILL'), 1500);
      }
    }, 50);
    const t0 = Date.now();
    const code = await run;
    clearInterval(killer);
    assert.equal(code, EXIT.notReady, out.text());
    assert.ok(Date.now() - t0 < 60_000, 'ended by the liveness probes');
    assert.match(out.text(), /external component did not answer its health probe/);
    const [id] = readdirSync(runsDir);
    const m = new RunStore(join(runsDir, id!)).readManifest();
    assert.deepEqual(m.failedCells?.map((f) => f.cellId), ['fixed-c4-r1']);
    assert.ok(await getMockStats(h.mock.url), 'the external mock still runs');
  } finally {
    await stopChild(h.sut.child);
    await h.mock.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});
