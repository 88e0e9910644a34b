/**
 * Beyond one machine, proven on one: the mock LLM, the SUT and the load generator each in its own
 * network namespace, joined by veth pairs, with a delaying TCP relay (test/fixtures/delay-relay.ts;
 * `tc netem` is missing on these kernels) on the generator → SUT path. The generator runs
 * `run.mjs --sut-url … --mock-url …` at the namespaces' addresses, so every figure of the run and its
 * report came over those links. The relay's known delay D each way shows in the generator's E2E
 * (E2E − queue − exec ≈ 2 D per request) and not in the SUT's own queue wait.
 *
 * The SUT is the stand-in (test/fixtures/stand-in-sut.ts: the same HTTP API, a pool of permits, calls the
 * mock over HTTP), so the test stays within its bound without a Maven build; the real SUT JVM speaks
 * the same API (test/e2e/e2e-run.test.ts).
 *
 *   mock ns  10.231.9.1/32 on lo  (the one address the SUT and the generator both reach it at)
 *     ├── veth 10.231.2.2/30 ── 10.231.2.1/30  SUT ns  (SUT 10.231.1.2:19080, relay 10.231.1.2:19081 → :19080, +D each way)
 *     └── veth 10.231.3.2/30 ── 10.231.3.1/30  generator ns ── veth 10.231.1.1/30 ── SUT ns
 *
 * Needs root and `ip`; skipped with the reason printed where namespaces cannot be created. Cleans up
 * its processes (by pid) and namespaces (deleting a namespace removes its veths) even on failure.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunStore } from '../../src/adapters/store/run-store.ts';

// the mock, started in its namespace as someone else would start it, and this harness share the run's control
// token through the environment (the children below inherit it), as docs/multihost.md tells a user to
process.env['VTBENCH_CONTROL_TOKEN'] = 'netns-test-token';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** the relay's delay each way, ms */
const DELAY_MS = 60;
/** the mock's latency L, ms (the smoke profile's) */
const L_MS = 200;

const tag = (process.pid % 46656).toString(36);
const NS = { gen: `vtb${tag}gen`, sut: `vtb${tag}sut`, mock: `vtb${tag}mock` };

function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
}

/** Why this host cannot run the test, or null when it can (root, `ip`, and a namespace can be made). */
function cannotRun(): string | null {
  if (process.platform !== 'linux') return `network namespaces are Linux-only (platform ${process.platform})`;
  if (process.getuid?.() !== 0) return 'not root: creating network namespaces needs root';
  try {
    execFileSync('ip', ['-V'], { stdio: 'ignore' });
  } catch {
    return 'no `ip` command (iproute2)';
  }
  const probe = `vtb${tag}probe`;
  try {
    ip('netns', 'add', probe);
    ip('netns', 'del', probe);
    return null;
  } catch (e) {
    return `ip netns add failed: ${String((e as { stderr?: Buffer }).stderr ?? e).trim()}`;
  }
}

/** Three namespaces, three veth pairs, addresses and the two routes to the mock's address. */
function setUpNetwork(): void {
  for (const n of Object.values(NS)) {
    ip('netns', 'add', n);
    ip('-n', n, 'link', 'set', 'lo', 'up');
  }
  const link = (a: string, aNs: string, aAddr: string, b: string, bNs: string, bAddr: string) => {
    ip('link', 'add', a, 'type', 'veth', 'peer', 'name', b);
    ip('link', 'set', a, 'netns', aNs);
    ip('link', 'set', b, 'netns', bNs);
    ip('-n', aNs, 'addr', 'add', aAddr, 'dev', a);
    ip('-n', bNs, 'addr', 'add', bAddr, 'dev', b);
    ip('-n', aNs, 'link', 'set', a, 'up');
    ip('-n', bNs, 'link', 'set', b, 'up');
  };
  link(`v${tag}gs`, NS.gen, '10.231.1.1/30', `v${tag}sg`, NS.sut, '10.231.1.2/30');
  link(`v${tag}sm`, NS.sut, '10.231.2.1/30', `v${tag}ms`, NS.mock, '10.231.2.2/30');
  link(`v${tag}gm`, NS.gen, '10.231.3.1/30', `v${tag}mg`, NS.mock, '10.231.3.2/30');
  ip('-n', NS.mock, 'addr', 'add', '10.231.9.1/32', 'dev', 'lo');
  ip('-n', NS.sut, 'route', 'add', '10.231.9.1/32', 'via', '10.231.2.2');
  ip('-n', NS.gen, 'route', 'add', '10.231.9.1/32', 'via', '10.231.3.2');
}

function tearDownNetwork(): void {
  for (const n of Object.values(NS)) {
    try {
      ip('netns', 'del', n);
    } catch {
      /* not created */
    }
  }
}

const started: ChildProcess[] = [];

/** Start `args` inside namespace `ns` (ip netns exec execs it: the child's pid is the process itself); resolves when stdout matches `ready`. */
function startIn(ns: string, args: string[], ready: RegExp, timeoutMs = 30_000): Promise<ChildProcess> {
  const child = spawn('ip', ['netns', 'exec', ns, process.execPath, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let out = '';
  child.stderr!.on('data', (d) => { out += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} in ${ns} not ready in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    child.stdout!.on('data', (d) => {
      out += d;
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (c) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} in ${ns} exited with ${c}:\n${out}`));
    });
  });
}

function stopAll(): void {
  for (const c of started) if (c.exitCode === null && c.signalCode === null && c.pid) {
    try {
      process.kill(c.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** Run the generator (run.mjs) in its namespace; resolves with its exit code and output. */
function runGenerator(args: string[], timeoutMs: number): Promise<{ code: number | null; out: string }> {
  const child = spawn('ip', ['netns', 'exec', NS.gen, process.execPath, 'run.mjs', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const why = cannotRun();
if (why !== null) process.stdout.write(`# e2e-netns skipped: ${why}\n`);

test('across three network namespaces: a smoke run by URL, its report built from what came over the links; a relay delay shows in E2E, not in the queue wait', { skip: why ?? false, timeout: 120_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-netns-'));
  const onExit = () => { stopAll(); tearDownNetwork(); };
  process.once('exit', onExit);
  try {
    setUpNetwork();
    const mockUrl = 'http://10.231.9.1:19000';
    await startIn(NS.mock, ['--import', 'tsx', 'mock/src/cli.ts', '--host', '0.0.0.0', '--port', '19000', '--latency-ms', String(L_MS), '--parent-pid', String(process.pid)], /listening on/);
    await startIn(NS.sut, ['--import', 'tsx', 'test/fixtures/stand-in-sut.ts', '--parent-pid', String(process.pid), '--host', '10.231.1.2', '--port', '19080', '--variant', 'fixed', '--kind', 'platform-pool', '--threads', '8', '--prefix', 'llm-fixed-', '--mock', `${mockUrl}/v1`], /listening 19080/);
    await startIn(NS.sut, ['--import', 'tsx', 'test/fixtures/delay-relay.ts', '--listen', '10.231.1.2:19081', '--target', '10.231.1.2:19080', '--delay-ms', String(DELAY_MS)], /relaying 19081/);
    const runsDir = join(tmp, 'runs');
    const reportDir = join(tmp, 'report');
    const r = await runGenerator(['--study', '000', '--profile', 'smoke', '--variants', 'fixed', '--sut-url', 'http://10.231.1.2:19081', '--mock-url', mockUrl, '--runs-dir', runsDir, '--report-dir', reportDir], 90_000);
    assert.equal(r.code, 0, r.out);

    const [id] = readdirSync(runsDir);
    const store = new RunStore(join(runsDir, id!));
    const m = store.readManifest();
    assert.equal(m.status, 'complete');
    assert.deepEqual(m.external, { sut: 'http://10.231.1.2:19081', mock: mockUrl });
    assert.equal(m.sut['fixed-r1']?.mockBaseUrl, `${mockUrl}/v1`, 'the SUT in its namespace calls the mock at the shared address');
    for (const cellId of m.cellOrder) {
      const cell = store.readCell(cellId);
      const req = store.readRequests(cellId);
      assert.equal(cell.sutPid, undefined);
      assert.equal(cell.load.ok, cell.concurrency * 3, `${cellId}: every request answered across the links`);
      assert.equal(cell.mock.after?.served, cell.concurrency * 3, `${cellId}: the mock's figures read over its link`);
      // per request: the time outside the SUT = E2E − queue − exec, the relay's 2 D plus the links
      const outside = req.e2eMs.map((e, i) => e - (req.queueMs[i] ?? NaN) - (req.execMs[i] ?? NaN)).filter(Number.isFinite).sort((a, b) => a - b);
      assert.equal(outside.length, req.e2eMs.length, `${cellId}: every request has its Server-Timing phases`);
      const median = outside[Math.floor(outside.length / 2)]!;
      assert.ok(median >= 2 * DELAY_MS - 2 && median <= 2 * DELAY_MS + 60, `${cellId}: median E2E − queue − exec ${median.toFixed(1)} ms ≈ 2 × ${DELAY_MS} ms`);
      assert.ok(cell.load.execMs!.p50 >= L_MS && cell.load.execMs!.p50 < L_MS + 50, `${cellId}: exec ≈ L over the SUT → mock link (${cell.load.execMs!.p50})`);
    }
    // the delay is on the wire, not in the SUT: with 4 workers on 8 permits nothing queues
    const c4 = store.readCell('fixed-c4-r1');
    assert.ok(c4.load.queueMs!.p95 < 10, `queue wait P95 ${c4.load.queueMs!.p95} ms, no trace of the ${DELAY_MS} ms relay`);
    assert.ok(c4.load.e2eMs!.p50 >= L_MS + 2 * DELAY_MS, `E2E P50 ${c4.load.e2eMs!.p50} ms ≥ L + 2 D`);
    const md = join(reportDir, id!, 'report.md');
    assert.ok(existsSync(join(reportDir, id!, 'index.html')), r.out);
    assert.ok(!existsSync(md) || readFileSync(md, 'utf8').includes('fixed'));
  } finally {
    stopAll();
    tearDownNetwork();
    process.off('exit', onExit);
    rmSync(tmp, { recursive: true, force: true });
  }
});
