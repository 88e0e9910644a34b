/**
 * `run.mjs target` end to end with real JVMs (issue 32): vtbench's own SUT jar, run as a service
 * vtbench did not build (`GET /bench/info`, no mock needed), through the jar tier with the agent:
 * cells, JFR counts, JMX samples, the agent's matched records and its own cost, the report and the answer
 * on stdout; a downstream vtbench starts (the mock LLM, `{mockUrl}`); then the failure paths (and a
 * harness killed outright, whose target its watchdog stops): a jar that never becomes ready (exit 6 with its log's tail), a target
 * killed mid-cell (a failed cell, exit 6), a bad request file (refused before anything starts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findJdk } from '../../src/adapters/jvm/jdk.ts';
import { buildSut } from '../../src/adapters/jvm/build.ts';
import type { TargetCell, TargetManifest } from '../../src/types/target.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs `npx zx run.mjs target …`; `onLine` sees each stderr line (and may kill things); `onPid` gets the harness's pid. */
function target(args: string[], onLine: (l: string) => void = () => {}, onPid: (pid: number) => void = () => {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [join(ROOT, 'node_modules/zx/build/cli.js'), join(ROOT, 'run.mjs'), 'target', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    if (c.pid !== undefined) onPid(c.pid);
    let stdout = '';
    let stderr = '';
    let buf = '';
    c.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    c.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      buf += d.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        onLine(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    });
    c.once('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

test('target, jar tier with the agent, against a real Spring Boot jar; then never ready, killed mid-cell, bad request file', { timeout: 600_000 }, async (t) => {
  const jar = await buildSut({ jdk: findJdk(25) });
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-target-e2e-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const requests = join(dir, 'req.jsonl');
  writeFileSync(requests, '# vtbench SUT as a target\n{"name":"info","path":"/bench/info"}\n');
  // the SUT uses JDK 25's preview StructuredTaskScope: --enable-preview, as a user's jar might need a flag of its own
  const common = ['--target-jar', jar, '--target-jvm-arg=--enable-preview', '--requests', requests, '--runs-dir', join(dir, 'runs'), '--report-dir', join(dir, 'report'), '--warmup-requests', '2', '--alone-probe', '5'];

  await t.test('a run: cells, samples, JFR, agent, report, answer on stdout', async () => {
    const r = await target([...common, '--agent', '--levels', '1,4', '--requests-per-worker', '10', '--run-id', 'ok']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /virtual threads/);
    const run = join(dir, 'runs', 'ok');
    const m = JSON.parse(readFileSync(join(run, 'manifest.json'), 'utf8')) as TargetManifest;
    assert.equal(m.tier, 'agent');
    assert.ok(m.finishedAt);
    assert.deepEqual(Object.keys(m.jvm).sort(), ['platform', 'virtual']);
    assert.equal(m.probes.length, 2);
    const cells = readdirSync(join(run, 'cells')).filter((f) => /^[a-z0-9-]+\.json$/.test(f));
    assert.equal(cells.length, 4);
    for (const f of cells) {
      const c = JSON.parse(readFileSync(join(run, 'cells', f), 'utf8')) as TargetCell;
      assert.equal(c.summary.ok, c.level * 10, f);
      assert.ok(c.pins !== null && c.pins.thresholdMs === 20, `${f}: JFR read`);
      assert.ok(c.targetCpuS !== null && c.targetCpuS > 0, `${f}: CPU from JMX`);
      assert.equal(c.agent?.matched, c.level * 10, `${f}: every measured request matched by the agent, no more`);
      assert.ok(existsSync(join(run, 'cells', f.replace(/\.json$/, '.samples.json.gz'))));
    }
    // the agent's own cost, measured at the run's start on this host, per executor the bench covers, and stated in the report
    assert.deepEqual(m.agentCost?.rows.map((r) => r.executor).sort(), ['ThreadPoolExecutor(4)', 'VirtualThreadPerTaskExecutor']);
    assert.ok(m.agentCost!.rows.every((r) => r.withoutNs > 0 && r.withNs > 0 && r.rounds === 3));
    const md = readFileSync(join(dir, 'report', 'ok', 'report.md'), 'utf8');
    assert.ok(md.indexOf('## Answer') >= 0 && md.indexOf('## Answer') < md.indexOf('## 1.'));
    assert.match(md, /The agent's own cost, measured on this host at the start of this run/);
    assert.match(md, /Per request the agent times [\d.]+ hand-offs|No executor's added cost stood out/);
    assert.ok(existsSync(join(dir, 'report', 'ok', 'zh', 'index.html')));
  });

  await t.test('a downstream vtbench starts: the mock LLM at {mockUrl}; the SUT\'s own Server-Timing read; the argument kept as given', async () => {
    const llm = join(dir, 'llm.jsonl');
    writeFileSync(llm, '{"name":"llm","method":"POST","path":"/api/benchmark/llm","body":{"prompt":"Say one word."}}\n'); // a JSON body: sent as application/json
    const r = await target(['--target-jar', jar, '--target-jvm-arg=--enable-preview', '--requests', llm, '--runs-dir', join(dir, 'runs'), '--target-mock', '50', '--target-arg=--spring.ai.openai.base-url={mockUrl}/v1', '--arms', 'virtual', '--levels', '4', '--requests-per-worker', '5', '--warmup-requests', '1', '--alone-probe', '3', '--run-id', 'mock', '--no-report']);
    assert.equal(r.code, 0, r.stderr);
    const run = join(dir, 'runs', 'mock');
    const m = JSON.parse(readFileSync(join(run, 'manifest.json'), 'utf8')) as TargetManifest;
    assert.deepEqual(m.mock, { latencyMs: 50 });
    assert.deepEqual(m.jar?.args, ['--spring.ai.openai.base-url={mockUrl}/v1']);
    const c = JSON.parse(readFileSync(join(run, 'cells', 'virtual-c4-r1.json'), 'utf8')) as TargetCell;
    assert.equal(c.summary.ok, 20, 'every call reached the mock and came back');
    assert.ok((c.summary.e2eMs?.min ?? 0) >= 50, `no answer faster than the mock's 50 ms (min ${c.summary.e2eMs?.min})`);
    assert.ok(c.summary.queueMs !== null && c.summary.execMs !== null, 'the SUT\'s Server-Timing (queue, exec) read from a service run as a target');
    assert.ok(existsSync(join(run, 'logs', 'mock.log')), 'the mock\'s log kept with the run');
  });

  await t.test('open loop (--rates): arrivals on a schedule, cells named by rate, the agent matching the o-<i> ids', async () => {
    const openCommon = common.filter((x, i) => x !== '--warmup-requests' && common[i - 1] !== '--warmup-requests'); // closed loop only: refused with --rates
    const r = await target([...openCommon, '--agent', '--arms', 'virtual', '--rates', '20,40', '--duration-s', '2', '--warmup-s', '1', '--arrival', 'constant', '--run-id', 'open']);
    assert.equal(r.code, 0, r.stderr);
    const run = join(dir, 'runs', 'open');
    const m = JSON.parse(readFileSync(join(run, 'manifest.json'), 'utf8')) as TargetManifest;
    assert.deepEqual({ mode: m.mode, levels: m.levels, d: m.durationS, ol: m.openLoop }, { mode: 'open-loop', levels: [20, 40], d: 2, ol: { arrival: 'constant', seed: 1, maxInFlight: 1000, warmupS: 1 } });
    for (const rate of [20, 40]) {
      const c = JSON.parse(readFileSync(join(run, 'cells', `virtual-rate${rate}-r1.json`), 'utf8')) as TargetCell;
      assert.equal(c.mode, 'open-loop');
      assert.equal(c.summary.openLoop?.scheduled, rate * 2, 'λ × duration arrivals scheduled');
      assert.equal(c.summary.ok, rate * 2);
      assert.equal(c.agent?.matched, rate * 2, 'every open-loop request matched by its o-<i> id');
    }
    const md = readFileSync(join(dir, 'report', 'open', 'report.md'), 'utf8');
    assert.match(md, /open loop, arrival rates 20, 40 req\/s for 2 s \(constant arrivals; at most 1,000 in flight; 1 s of warm-up/);
    assert.match(md, /Open loop: the in-flight cap \(1,000 requests in flight\) refused no send\./);
  });

  await t.test('a jar that never becomes ready: exit 6 with the tail of its log', async () => {
    const r = await target([...common, '--levels', '1', '--target-arg=--bench.executor.kind=bogus', '--run-id', 'bad']);
    assert.equal(r.code, 6, r.stderr);
    assert.match(r.stderr, /ended before it was ready[\s\S]*last lines of/);
  });

  await t.test('a jar not ready within --ready-timeout-s: exit 6 with the tail of its log', async () => {
    const r = await target([...common, '--levels', '1', '--ready-timeout-s', '1', '--run-id', 'slow']);
    assert.equal(r.code, 6, r.stderr);
    assert.match(r.stderr, /was not ready within 1 s[\s\S]*last lines of/);
  });

  await t.test('every request failing (a path the service does not have) is a failure, never 0 req/s', async () => {
    const nope = join(dir, 'nope.jsonl');
    writeFileSync(nope, '{"name":"nope","path":"/no-such-page"}\n');
    const r = await target(['--target-jar', jar, '--target-jvm-arg=--enable-preview', '--requests', nope, '--runs-dir', join(dir, 'runs'), '--levels', '1', '--warmup-requests', '0', '--alone-probe', '3', '--run-id', 'nope', '--arms', 'platform']);
    assert.equal(r.code, 6, r.stderr);
    assert.match(r.stderr, /answered none of the 3 probe requests \(3 http errors; statuses 404 ×3; failing: nope GET \/no-such-page ×3\)/);
    assert.equal(r.stdout, '');
  });

  await t.test('the target killed mid-cell: a failed cell, exit 6', async () => {
    let pid: number | null = null;
    const r = await target([...common, '--arms', 'platform', '--levels', '2', '--requests-per-worker', '200000', '--run-id', 'killed'], (line) => {
      const m = /ready in .* \(pid (\d+)/.exec(line);
      if (m) pid = Number(m[1]);
      if (/^cell 1\/1/.test(line) && pid !== null) setTimeout(() => process.kill(pid!, 'SIGKILL'), 1500);
    });
    assert.equal(r.code, 6, r.stderr);
    assert.match(r.stderr, /recorded as a failed cell/);
    assert.ok(existsSync(join(dir, 'runs', 'killed', 'cells', 'platform-c2-r1.failed.json')));
    assert.ok(!existsSync(join(dir, 'runs', 'killed', 'cells', 'platform-c2-r1.json')));
  });

  await t.test('the harness killed outright (SIGKILL) mid-cell: the watchdog stops the target it started', async () => {
    let pid: number | null = null;
    let harness: number | null = null;
    await target([...common, '--arms', 'platform', '--levels', '2', '--requests-per-worker', '200000', '--run-id', 'orphan'], (line) => {
      const m = /ready in .* \(pid (\d+)/.exec(line);
      if (m) pid = Number(m[1]);
      if (/^cell 1\/1/.test(line) && harness !== null) setTimeout(() => process.kill(harness!, 'SIGKILL'), 1500);
    }, (p) => (harness = p));
    assert.ok(pid !== null, 'the target started');
    const alive = (): boolean => {
      try {
        return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false; // gone
      }
    };
    const deadline = Date.now() + 20_000;
    while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const survived = alive();
    if (survived) process.kill(pid!, 'SIGKILL'); // never leave it behind, even when the check fails
    assert.equal(survived, false, `target pid ${pid} still ran 20 s after its harness was killed`);
  });

  await t.test('a bad request file: refused before anything starts, naming the line', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"name":"a","path":"/x"}\n{"name":"b","path":"nope"}\n');
    const r = await target(['--target-jar', jar, '--requests', bad, '--runs-dir', join(dir, 'runs'), '--run-id', 'refused']);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /bad\.jsonl line 2/);
    assert.ok(!existsSync(join(dir, 'runs', 'refused')));
  });
});
