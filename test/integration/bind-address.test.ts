import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { listeningAddresses } from '../fixtures/listen-address.ts';
import { join } from 'node:path';
import { resolveOptions } from '../../src/plan/profiles.ts';
import { STUDIES } from '../../src/studies/index.ts';
import { OPTION_SPECS } from '../../src/plan/options.ts';
import { VtbenchError, EXIT } from '../../src/types/errors.ts';
import { DEFAULT_BIND_ADDRESS, connectHostOf, httpOrigin } from '../../src/adapters/jvm/bind.ts';
import { startMockProcess } from '../../src/adapters/process/mock-process.ts';
import { freePort } from '../fixtures/ports.ts';

test('--bind-address: 127.0.0.1 in every profile unless given; an IP literal is taken, anything else refused naming the flag', () => {
  assert.equal(DEFAULT_BIND_ADDRESS, '127.0.0.1');
  for (const st of STUDIES) for (const p of st.profiles) assert.equal(resolveOptions(st, p.name, {}).bindAddress, '127.0.0.1', `${st.id}/${p.name}`);
  const S = STUDIES[0]!;
  const smoke = S.profiles[S.profiles.length - 1]!.name;
  assert.equal(resolveOptions(S, smoke, { bindAddress: '0.0.0.0' }).bindAddress, '0.0.0.0');
  assert.equal(resolveOptions(S, smoke, { bindAddress: ' ::1 ' }).bindAddress, '::1');
  for (const bad of ['localhost', '127.0.0.256', '', 'any']) {
    assert.throws(() => resolveOptions(S, smoke, { bindAddress: bad }), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && e.message.startsWith('--bind-address:'), bad);
  }
  assert.equal(OPTION_SPECS.filter((s) => s.flag === 'bind-address').length, 1, 'declared once, so --help lists it');
});

test('connectHostOf / httpOrigin: a wildcard bind is reached on loopback of its family, IPv6 in brackets', () => {
  assert.equal(connectHostOf('0.0.0.0'), '127.0.0.1');
  assert.equal(connectHostOf('::'), '::1');
  assert.equal(connectHostOf('192.0.2.2'), '192.0.2.2');
  assert.equal(httpOrigin('127.0.0.1', 19080), 'http://127.0.0.1:19080');
  assert.equal(httpOrigin('::', 19080), 'http://[::1]:19080');
  assert.equal(httpOrigin('fd00::2', 1), 'http://[fd00::2]:1');
});


test('the mock process the pipeline starts listens on loopback only by default', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-bind-'));
  const port = await freePort();
  const mock = await startMockProcess({ port, latencyMs: 10, logFile: join(dir, 'mock.log') });
  try {
    assert.equal(mock.url, `http://127.0.0.1:${port}`);
    assert.deepEqual(listeningAddresses(port), ['127.0.0.1'], 'the mock listens on loopback only (from /proc/net/tcp*; no traffic to other addresses)');
  } finally {
    await mock.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the port check uses --bind-address: a port taken on ::1 is refused for ::1 (exit 4); an address of no interface is refused naming the flag (exit 2)', async () => {
  const { checkPorts } = await import('../../src/adapters/host/prereq.ts');
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '::1', () => r()));
  try {
    const port = (taken.address() as AddressInfo).port;
    await assert.rejects(checkPorts([{ flag: 'sut-port', port }], '::1'), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.portInUse && e.message === `--sut-port: port ${port} on ::1 is in use`);
    // binding (no traffic) to an address this host does not have: EADDRNOTAVAIL
    await assert.rejects(checkPorts([{ flag: 'sut-port', port }], '203.0.113.77'), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && e.message.startsWith('--bind-address: 203.0.113.77'));
  } finally {
    taken.close();
  }
});
