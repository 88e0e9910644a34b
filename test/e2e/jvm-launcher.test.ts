import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { listeningAddresses } from '../fixtures/listen-address.ts';
import { join } from 'node:path';
import { EXIT, VtbenchError } from '../../src/types/errors.ts';
import { findJdk, majorOf, parseReleaseFile, requireSutJdk, SUT_MIN_JDK } from '../../src/adapters/jvm/jdk.ts';
import { sourceHash } from '../../src/adapters/jvm/build.ts';
import { startSut, sutArgs } from '../../src/adapters/jvm/sut-process.ts';
import { STUDIES } from '../../src/studies/index.ts';
import { executorProperties, HARNESS_SUT_PROPERTIES } from '../../src/adapters/jvm/sut-process.ts';
import type { Variant } from '../../src/types/study.ts';

const VT: Variant = { id: 'vt-x', label: 'vt', executor: { kind: 'virtual-per-task' }, threadNamePrefix: 'x-vt-' };
const POOL: Variant = { id: 'pool-x', label: 'pool', executor: { kind: 'platform-pool', threads: 4, queueCapacity: 10 }, threadNamePrefix: 'x-pool-', sutProperties: { 'bench.extra.flag': 'on' } };
import { pinnedReasonKind } from '../../src/compute/analysis/pinned-kind.ts';
import { getPinned, getSamples, getThreadDump } from '../../src/adapters/jvm/client.ts';
import { buildSut } from '../../src/adapters/jvm/build.ts';
import { freePort } from '../fixtures/ports.ts';
import { sutJdkOrNull } from '../fixtures/stand-in-harness.ts';

function fakeJdk(root: string, name: string, version: string | null, vendor = 'Test Vendor'): string {
  const home = join(root, name);
  mkdirSync(join(home, 'bin'), { recursive: true });
  writeFileSync(join(home, 'bin', 'java'), '#!/bin/sh\n');
  chmodSync(join(home, 'bin', 'java'), 0o755);
  if (version !== null) writeFileSync(join(home, 'release'), `IMPLEMENTOR="${vendor}"\nJAVA_VERSION="${version}"\n`);
  return home;
}

function withTmp(fn: (dir: string) => void | Promise<void>): () => Promise<void> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vtbench-jdk-'));
    try {
      await fn(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test('parseReleaseFile reads quoted and bare values', () => {
  assert.deepEqual(parseReleaseFile('JAVA_VERSION="25.0.3"\nIMPLEMENTOR=Eclipse\n# x\n'), { JAVA_VERSION: '25.0.3', IMPLEMENTOR: 'Eclipse' });
});

test('requireSutJdk: JDK 25 only (older lacks the release, newer cannot load 25\'s preview class files); the message names the reason and the fix', () => {
  const jdk = (major: number) => ({ home: `/jvm/${major}`, major, version: `${major}.0.1`, vendor: 'v' });
  requireSutJdk(jdk(25));
  assert.throws(() => requireSutJdk(jdk(21)), (e: unknown) => e instanceof VtbenchError && /compiled for Java 25/.test(e.message));
  assert.throws(() => requireSutJdk(jdk(26)), (e: unknown) => e instanceof VtbenchError && /preview APIs \(--enable-preview/.test(e.message)
    && /JAVA_HOME to a JDK 25/.test(e.hint) && e.exitCode === EXIT.prerequisite);
});

test('majorOf handles modern and 1.x versions', () => {
  assert.equal(majorOf('25.0.3'), 25);
  assert.equal(majorOf('21'), 21);
  assert.equal(majorOf('1.8.0_392'), 8);
  assert.equal(majorOf('abc'), null);
});

test('findJdk takes JAVA_HOME when it has a release file with a new enough JAVA_VERSION', withTmp((dir) => {
  const home = fakeJdk(dir, 'my-jdk', '21.0.5', 'Acme');
  const jdk = findJdk(21, { env: { JAVA_HOME: home }, roots: [join(dir, 'none')] });
  assert.deepEqual(jdk, { home, major: 21, version: '21.0.5', vendor: 'Acme' });
}));

test('findJdk skips a too-old JAVA_HOME and picks the newest JDK under the roots', withTmp((dir) => {
  const old = fakeJdk(dir, 'jh-17', '17.0.15');
  const root = join(dir, 'jvm');
  fakeJdk(root, 'java-17', '17.0.15');
  fakeJdk(root, 'jdk-21', '21.0.2');
  const newest = fakeJdk(root, 'temurin-25', '25.0.3', 'Eclipse Adoptium');
  fakeJdk(root, 'broken', null);
  const jdk = findJdk(21, { env: { JAVA_HOME: old }, roots: [root] });
  assert.equal(jdk.home, newest);
  assert.equal(jdk.major, 25);
  assert.equal(jdk.vendor, 'Eclipse Adoptium');
}));

test('findJdk without a usable JDK throws one VtbenchError naming every place searched', withTmp((dir) => {
  const missing = join(dir, 'missing-jdk');
  const root = join(dir, 'jvm');
  fakeJdk(root, 'java-17', '17.0.15');
  fakeJdk(root, 'no-release', null);
  assert.throws(
    () => findJdk(21, { env: { JAVA_HOME: missing }, roots: [root, join(dir, 'empty-root')] }),
    (e: unknown) => {
      assert.ok(e instanceof VtbenchError);
      assert.equal(e.exitCode, 3);
      assert.match(e.message, /^no JDK >= 21 found; searched: /);
      assert.ok(e.message.includes(`JAVA_HOME=${missing} (does not exist)`), e.message);
      assert.ok(e.message.includes(`${join(root, 'java-17')} (17.0.15, too old)`), e.message);
      assert.ok(e.message.includes(`${join(root, 'no-release')} (no release file)`), e.message);
      assert.ok(e.message.includes(`${join(dir, 'empty-root')}/* (no directories)`), e.message);
      assert.ok(!e.message.includes('\n'), 'one line');
      assert.match(e.hint, /JAVA_HOME/);
      return true;
    },
  );
}));

test('sourceHash changes when a main source changes and ignores other files', withTmp((dir) => {
  mkdirSync(join(dir, 'src', 'main', 'java'), { recursive: true });
  mkdirSync(join(dir, 'src', 'test'), { recursive: true });
  writeFileSync(join(dir, 'pom.xml'), '<project/>');
  writeFileSync(join(dir, 'src', 'main', 'java', 'A.java'), 'class A {}');
  const h1 = sourceHash(dir);
  writeFileSync(join(dir, 'src', 'test', 'ATest.java'), 'class ATest {}');
  assert.equal(sourceHash(dir), h1);
  writeFileSync(join(dir, 'src', 'main', 'java', 'A.java'), 'class A { int x; }');
  assert.notEqual(sourceHash(dir), h1);
}));

test('sutArgs puts the profile\'s JVM flags before -jar, bench settings and the loopback bind address after', () => {
  const jvmFlags = STUDIES[0]!.profiles[0]!.values.jvmFlags;
  const base = {
    jdk: { home: '/j', major: 25, version: '25', vendor: 'v' },
    jarPath: '/x/vtbench-sut.jar', port: 8081, mockBaseUrl: 'http://127.0.0.1:9000/v1', variant: VT, jvmFlags, samplerIntervalMs: 250, pinnedThresholdMs: 20,
    logFile: '/tmp/x.log', readyTimeoutMs: 1000,
  };
  const args = sutArgs(base);
  assert.deepEqual(args.slice(0, jvmFlags.length + 3), ['--enable-preview', ...jvmFlags, '-jar', '/x/vtbench-sut.jar'], 'the jar is compiled with --enable-preview (StructuredTaskScope)');
  assert.ok(args.includes('--server.port=8081'));
  assert.ok(args.includes('--server.address=127.0.0.1'), 'loopback unless told otherwise');
  assert.ok(args.includes('--bench.variant=vt-x'));
  assert.ok(args.includes('--bench.executor.kind=virtual-per-task'));
  assert.ok(args.includes('--bench.executor.thread-name-prefix=x-vt-'));
  assert.ok(!args.some((a) => a.startsWith('--bench.executor.threads=') || a.startsWith('--bench.executor.queue-capacity=')), 'no pool settings for one thread per task');
  assert.ok(args.includes('--spring.ai.openai.base-url=http://127.0.0.1:9000/v1'));
  assert.ok(sutArgs({ ...base, bindAddress: '0.0.0.0', pinning: 'class-init' }).includes('--server.address=0.0.0.0'));
  assert.ok(sutArgs({ ...base, pinning: 'class-init' }).includes('--bench.pinning=class-init'));
});

test('a variant\'s executor as Spring properties; its own SUT properties once each, after the rest or in place of a default; harness properties refused', () => {
  assert.deepEqual(executorProperties(POOL), [
    ['bench.variant', 'pool-x'], ['bench.executor.kind', 'platform-pool'], ['bench.executor.threads', '4'], ['bench.executor.queue-capacity', '10'],
    ['bench.executor.thread-name-prefix', 'x-pool-'],
  ]);
  assert.deepEqual(executorProperties(VT), [['bench.variant', 'vt-x'], ['bench.executor.kind', 'virtual-per-task'], ['bench.executor.thread-name-prefix', 'x-vt-']]);
  const base = { jdk: { home: '/j', major: 25, version: '25', vendor: 'v' }, jarPath: '/x.jar', port: 1, mockBaseUrl: 'http://m/v1', jvmFlags: [], samplerIntervalMs: 250, pinnedThresholdMs: 20, logFile: '/tmp/x.log', readyTimeoutMs: 1 };
  const args = sutArgs({ ...base, variant: POOL });
  assert.equal(args.at(-1), '--bench.extra.flag=on', 'the variant\'s own property after the rest');
  assert.ok(args.includes('--bench.executor.threads=4') && args.includes('--bench.executor.queue-capacity=10'));
  const pinned = sutArgs({ ...base, variant: { ...VT, sutProperties: { 'bench.pinning': 'synchronized' } } });
  assert.deepEqual(pinned.filter((a) => a.startsWith('--bench.pinning=')), ['--bench.pinning=synchronized'], 'once: Spring would join two values with a comma');
  for (const key of HARNESS_SUT_PROPERTIES) {
    assert.throws(() => sutArgs({ ...base, variant: { ...VT, sutProperties: { [key]: 'x' } } }), new RegExp(`variant vt-x: sutProperties set ${key.replace(/\./g, '\\.')}`));
  }
});

test('one source of JVM flags: every profile gives -Xms equal to -Xmx, and the launcher has no default of its own', async () => {
  for (const p of STUDIES.flatMap((st) => st.profiles)) {
    const xms = p.values.jvmFlags.find((f) => f.startsWith('-Xms'));
    const xmx = p.values.jvmFlags.find((f) => f.startsWith('-Xmx'));
    assert.ok(xms && xmx && xms.slice(4) === xmx.slice(4), `${p.name}: ${p.values.jvmFlags.join(' ')}`);
  }
  const mod = (await import('../../src/adapters/jvm/sut-process.ts')) as Record<string, unknown>;
  assert.equal(mod['DEFAULT_JVM_FLAGS'], undefined, 'flags come from the profiles of the studies (src/studies/<id>) only');
});

/** A tiny OpenAI-compatible stub with fixed latency, on port 0. */
function startStub(latencyMs: number): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        const body = JSON.stringify({
          id: 'chatcmpl-stub', object: 'chat.completion', created: 1700000000, model: 'stub',
          choices: [{ index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      }, latencyMs);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
  }));
}


const sutJdk = sutJdkOrNull();

test('startSut runs the jar on loopback only, answers one call with Server-Timing, counts its class-init pin at once, serves samples/threaddump, and stops', {
  skip: sutJdk === null ? `no JDK ${SUT_MIN_JDK}` : false,
  timeout: 120_000,
}, async () => {
  const jdk = sutJdk!;
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-sut-'));
  const stub = await startStub(100);
  try {
    const jarPath = await buildSut({ jdk, logFile: join(dir, 'build.log') });
    const port = await freePort();
    const started = Date.now();
    const sut = await startSut({
      jdk, jarPath, port, mockBaseUrl: stub.baseUrl, variant: VT,
      jvmFlags: ['-Xmx256m'], samplerIntervalMs: 100, pinnedThresholdMs: 20, logFile: join(dir, 'sut.log'),
      readyTimeoutMs: 60_000, pinning: 'class-init',
    });
    try {
      assert.equal(sut.info.serverAddress, '127.0.0.1');
      assert.equal(sut.baseUrl, `http://127.0.0.1:${port}`);
      assert.deepEqual(listeningAddresses(port), ['127.0.0.1'], 'the SUT listens on loopback only (from /proc/net/tcp*; no traffic to other addresses)');
      assert.equal(sut.info.executor.variant, 'vt-x');
      assert.equal(sut.info.executor.kind, 'virtual-per-task');
      assert.equal(sut.info.executor.threadNamePrefix, 'x-vt-');
      assert.equal(sut.info.executor.pinning, 'class-init');
      const pinnedBefore = await getPinned(sut.baseUrl);
      assert.equal(sut.info.mockBaseUrl, stub.baseUrl);
      assert.ok(sut.info.jvmFlags.includes('-Xmx256m'));
      const res = await fetch(`${sut.baseUrl}/api/benchmark/llm`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"prompt":"x"}',
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('server-timing') ?? '', /^queue;dur=\d+\.\d{3}, exec;dur=\d+\.\d{3}$/);
      const body = (await res.json()) as { content: string; variant: string };
      assert.equal(body.content, 'hi');
      assert.equal(body.variant, 'vt-x');
      const samples = await getSamples(sut.baseUrl, started);
      assert.equal(samples.intervalMs, 100);
      assert.ok(samples.samples.length > 0);
      const pinned = await getPinned(sut.baseUrl); // no sleep: the SUT waits for JFR's delivery
      assert.equal(pinned.thresholdMs, 20);
      assert.equal(pinnedBefore.flushed, true);
      assert.equal(pinned.flushed, true);
      // the call ran in its own hidden class, so its pins (one per park of >= 20 ms) carry one new class name
      const clinit = (byReason: Record<string, number>) => Object.keys(byReason).filter((r) => pinnedReasonKind(r) === 'VM call to <class>.<clinit> on stack');
      const fresh = clinit(pinned.byReason).filter((r) => !clinit(pinnedBefore.byReason).includes(r));
      assert.equal(fresh.length, 1, `the one call's pin, seen at once: ${JSON.stringify(pinned.byReason)}`);
      const dump = JSON.parse(await getThreadDump(sut.baseUrl)) as { threadDump: { threadContainers: unknown[] } };
      assert.ok(dump.threadDump.threadContainers.length > 0);
    } finally {
      await sut.stop();
    }
    const after = await fetch(`${sut.baseUrl}/bench/info`).then(() => 'up', () => 'down');
    assert.equal(after, 'down');
  } finally {
    stub.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('startSut refuses a bad bench value with the log line naming the property', {
  skip: sutJdk === null ? `no JDK ${SUT_MIN_JDK}` : false,
  timeout: 120_000,
}, async () => {
  const jdk = sutJdk!;
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-sut-'));
  try {
    const jarPath = await buildSut({ jdk });
    await assert.rejects(
      startSut({
        jdk, jarPath, port: await freePort(), mockBaseUrl: 'http://127.0.0.1:9/v1',
        variant: { ...POOL, executor: { kind: 'platform-pool', threads: 0, queueCapacity: 10 } }, jvmFlags: [], samplerIntervalMs: 250, pinnedThresholdMs: 20,
        logFile: join(dir, 'sut.log'), readyTimeoutMs: 60_000,
      }),
      (e: unknown) => {
        assert.ok(e instanceof VtbenchError);
        assert.equal(e.exitCode, 6);
        assert.match(e.message, /bench\.executor\.threads=0 is invalid/);
        return true;
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
