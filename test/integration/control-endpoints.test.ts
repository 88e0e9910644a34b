/**
 * Issue 34, defect 6: control endpoints open to the network. `--bind-address 0.0.0.0` was accepted
 * silently, then the SUT's `POST /bench/job/*` and the mock's `POST /stats/reset` answered anyone.
 * Now a bind beyond loopback prints a warning naming what becomes reachable, and the control calls
 * carry the run's token whatever the address: the SUT gets it in its environment (its
 * ControlTokenFilter, sut/…, tested by ControlTokenFilterTest), the load's job requests send it.
 * Nothing here listens beyond 127.0.0.1 (the warning is read from a dry run whose address this host
 * does not have, refused at the port check without any traffic, as test/integration/bind-address.test.ts does).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bindWarning, isLoopbackAddress } from '../../src/adapters/jvm/bind.ts';
import { sutLaunch, type StartSutOptions } from '../../src/adapters/jvm/sut-process.ts';
import { closedLoopOptionsOf, inProcessDriver, requestHeaders } from '../../src/load/driver.ts';
import { CONTROL_TOKEN_ENV, CONTROL_TOKEN_HEADER } from '../../src/adapters/process/control-token.ts';
import { main, type MainDeps } from '../../src/cli/main.ts';
import { resolveOptions } from '../../src/plan/profiles.ts';
import { STUDY_003 } from '../../src/studies/003/index.ts';
import { EXIT } from '../../src/types/errors.ts';
import type { Variant } from '../../src/types/study.ts';
import { capture } from '../fixtures/capture-io.ts';

const VT: Variant = { id: 'vt-x', label: 'vt', executor: { kind: 'virtual-per-task' }, threadNamePrefix: 'x-vt-' };

test('bindWarning: none on loopback; beyond it names the SUT\'s /bench/job/* and the mock\'s /stats/reset and that they need the run\'s token', () => {
  for (const a of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1']) {
    assert.equal(isLoopbackAddress(a), true, a);
    assert.equal(bindWarning(a, { sutPort: 19080, mockPort: 19000 }), null, a);
  }
  for (const a of ['0.0.0.0', '::', '192.0.2.7', 'fd00::2']) assert.equal(isLoopbackAddress(a), false, a);
  const w = bindWarning('0.0.0.0', { sutPort: 19080, mockPort: 19000 })!;
  assert.match(w, /--bind-address 0\.0\.0\.0 is not loopback/);
  assert.match(w, /SUT on port 19080.*\/bench\/job\/\*/);
  assert.match(w, /mock LLM on port 19000.*POST \/stats\/reset/);
  assert.match(w, /run's token/);
  assert.doesNotMatch(bindWarning('0.0.0.0', { mockPort: 19000 })!, /SUT/, 'an external SUT is not ours to warn about');
  assert.equal(bindWarning('0.0.0.0', {}), null);
});

test('a run asked to bind beyond loopback prints the warning before its checks (dry run; an address this host lacks, so nothing listens)', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-bindwarn-'));
  try {
    const out = capture();
    const deps = { checkJdk: () => 'JDK 25 (test)' } as unknown as MainDeps;
    const code = await main(['--study', '000', '--profile', 'smoke', '--bind-address', '203.0.113.77', '--dry-run', '--runs-dir', join(dir, 'runs'), '--report-dir', join(dir, 'report')], out.io, deps);
    assert.equal(code, EXIT.usage, out.text()); // the port check then refuses the address (EADDRNOTAVAIL)
    assert.match(out.text(), /warning: --bind-address 203\.0\.113\.77 is not loopback: the SUT on port \d+ .*\/bench\/job\/\*.* and the mock LLM on port \d+ .*POST \/stats\/reset/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the SUT gets the run\'s token in its environment, never as an argument', () => {
  const o = { jdk: { home: '/j', major: 25, version: '25', vendor: 'v' }, jarPath: '/x.jar', port: 1, mockBaseUrl: 'http://127.0.0.1:2/v1', variant: VT, jvmFlags: [], samplerIntervalMs: 250, pinnedThresholdMs: 20, logFile: '/tmp/x', readyTimeoutMs: 1, controlToken: 'tok-abc' } satisfies StartSutOptions;
  const { args, env } = sutLaunch(o);
  assert.ok(!args.join(' ').includes('tok-abc'));
  assert.equal(env[CONTROL_TOKEN_ENV], 'tok-abc');
  assert.equal(sutLaunch({ ...o, controlToken: null }).env[CONTROL_TOKEN_ENV], undefined);
});

test('requestHeaders: the token goes with a /bench/job/* request only, never with a benchmark request', () => {
  assert.deepEqual(requestHeaders('/bench/job/vt-sweep?op=sleep', false, 't'), { [CONTROL_TOKEN_HEADER]: 't' });
  assert.deepEqual(requestHeaders('/api/benchmark/llm', true, 't'), { 'content-type': 'application/json' });
  assert.equal(requestHeaders('/api/scenario/io-http?ms=100', false, 't'), undefined);
  assert.equal(requestHeaders('/bench/job/vt-sweep', false, null), undefined);
  const o = resolveOptions(STUDY_003, 'smoke', {});
  const scenario = STUDY_003.scenarios[0]!;
  const lo = closedLoopOptionsOf({ baseUrl: 'http://127.0.0.1:1', scenario, options: o, concurrency: 1, requestsPerWorker: 1, lateSendThresholdMs: 20, signal: new AbortController().signal, controlToken: 't' });
  assert.equal(lo.headers?.[CONTROL_TOKEN_HEADER], 't', `${scenario.request(o).path} is a job path`);
});

test('the in-process driver sends the run\'s token with its job (study 003\'s sweep level)', { timeout: 30_000 }, async () => {
  let seen: IncomingHttpHeaders | null = null;
  const server = createServer((req, res) => {
    seen = req.headers;
    res.writeHead(401, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  try {
    const o = resolveOptions(STUDY_003, 'smoke', {});
    const scenario = STUDY_003.scenarios[0]!;
    const variant = STUDY_003.variants[0]!;
    await inProcessDriver.run({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, scenario, options: o, variant, concurrency: 10, requestsPerWorker: 1, lateSendThresholdMs: 20, signal: new AbortController().signal, controlToken: 'tok-xyz' });
    assert.equal(seen?.[CONTROL_TOKEN_HEADER], 'tok-xyz');
  } finally {
    server.close();
  }
});
