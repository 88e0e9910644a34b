/**
 * The pure parts of the target command's adapters and CLI (issue 32): JFR's JSON, per-cell pin
 * counts, the JMX sampler's lines, the actuator's metric JSON, the jar's argument list, arms,
 * environment and CPU-seconds from samples.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJfrJson, isoDurationMs, jfcSettings } from '../../src/adapters/target/jfr.ts';
import { pinEventsIn, topAppFrame } from '../../src/compute/target/pins.ts';
import { parseSamplerLine, jmxFlags } from '../../src/adapters/target/jmx-sampler.ts';
import { metricValue } from '../../src/adapters/target/actuator.ts';
import { targetArgs } from '../../src/adapters/target/jar-process.ts';
import { armsOf, parseLevels, targetCommand, targetEnvOf } from '../../src/cli/commands/target.ts';
import { redactArgs } from '../../src/compute/target/placeholders.ts';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuSecondsOf } from '../../src/pipeline/target.ts';
import { limitOf, HOST_CPU_FULL_SHARE } from '../../src/compute/target/limit.ts';
import type { JmxSample } from '../../src/types/target.ts';

/** A JFR event as `jfr print --json` writes it (shape seen on Temurin 25.0.3; fields trimmed to what is read). */
function jfrEvent(type: string, start: string, duration: string, reason: string | null, frames: string[]) {
  return {
    type,
    values: {
      startTime: start,
      duration,
      ...(reason === null ? {} : { pinnedReason: reason }),
      stackTrace: { truncated: false, frames: frames.map((f) => { const i = f.lastIndexOf('.'); return { method: { type: { name: f.slice(0, i).replace(/\./g, '/') }, name: f.slice(i + 1) } }; }) },
    },
  };
}

test('jfr print --json: events with start, duration, reason and frames; class names folded by kind per cell; the first application frame named', () => {
  const text = JSON.stringify({ recording: { events: [
    jfrEvent('jdk.VirtualThreadPinned', '2026-12-02T18:16:45.289491845Z', 'PT0.101975354S', 'VM call to Pin$Slow.<clinit> on stack', ['java.lang.VirtualThread.parkOnCarrierThread', 'java.lang.Thread.sleep', 'com.acme.Pin$Slow.<clinit>', 'com.acme.Pin.work']),
    jfrEvent('jdk.VirtualThreadPinned', '2026-12-02T18:16:45.500Z', 'PT0.030S', 'VM call to Other.<clinit> on stack', ['java.lang.VirtualThread.park']),
    jfrEvent('jdk.VirtualThreadSubmitFailed', '2026-12-02T18:16:45.600Z', 'PT0S', null, []),
    jfrEvent('jdk.VirtualThreadPinned', '2026-12-02T18:16:50.000Z', 'PT0.5S', 'x', ['com.acme.Late.run']),
  ] } });
  const ev = parseJfrJson(text);
  assert.equal(ev.length, 4);
  assert.equal(ev[0]!.durationMs!.toFixed(3), '101.975');
  assert.equal(ev[0]!.frames[2], 'com.acme.Pin$Slow.<clinit>');
  const from = Date.parse('2026-12-02T18:16:45Z');
  const p = pinEventsIn(ev, from, from + 1000, 20);
  assert.equal(p.total, 2); // the event at +5 s is outside the cell
  assert.equal(p.submitFailed, 1);
  assert.equal(Object.values(p.byReason).reduce((a, b) => a + b, 0), 2);
  assert.equal(Object.keys(p.byReason).length, 1, `both class-initialisation reasons are one kind: ${JSON.stringify(p.byReason)}`);
  assert.deepEqual(p.byTopFrame, { 'com.acme.Pin$Slow.<clinit>': 1, 'java.lang.VirtualThread.park': 1 });
  assert.equal(p.maxMs!.toFixed(1), '102.0');
  assert.equal(topAppFrame([]), '(no stack)');
  assert.throws(() => parseJfrJson('{}'), /no recording.events/);
  assert.equal(isoDurationMs('PT1M2.5S'), 62_500);
  assert.equal(isoDurationMs('nonsense'), null);
  assert.match(jfcSettings(7), /<setting name="threshold">7 ms<\/setting>/);
});

test('sampler lines: info, sample (−1 and missing read null), end, error; anything else ignored', () => {
  const info = parseSamplerLine('{"info":{"vmVendor":"Eclipse Adoptium","vmVersion":"25.0.3+9-LTS","javaVersion":"25.0.3","inputArguments":["-Dx=1"],"availableProcessors":2,"pid":42,"startTimeEpochMs":1}}');
  assert.ok(info && 'info' in info && info.info.pid === 42 && info.info.availableProcessors === 2);
  const s = parseSamplerLine('{"t":1000,"cpuNs":5,"cpuLoad":0.5,"heapUsed":1,"heapCommitted":2,"rss":null,"threads":30,"gcCount":1,"gcTimeMs":2,"vt":{"parallelism":2,"poolSize":2,"mounted":1,"queued":-1},"tomcat":[{"name":"http-nio-8080","busy":-1,"threads":-1,"max":-1,"conns":3,"maxConns":8192}],"hikari":[{"pool":"HikariPool-1","active":1,"idle":9,"pending":0,"total":10,"max":10}],"executors":[]}');
  assert.ok(s && 'sample' in s);
  assert.equal(s.sample.vt!.queued, null);
  assert.equal(s.sample.tomcat[0]!.max, null);
  assert.equal(s.sample.tomcat[0]!.maxConns, 8192);
  assert.equal(s.sample.hikari[0]!.max, 10);
  assert.equal(s.sample.source, 'jmx');
  assert.deepEqual(parseSamplerLine('{"end":"disconnected"}'), { end: 'disconnected' });
  assert.deepEqual(parseSamplerLine('{"error":"no JMX"}'), { error: 'no JMX' });
  assert.equal(parseSamplerLine('not json'), null);
  assert.equal(parseSamplerLine('{"other":1}'), null);
  assert.ok(jmxFlags(9999).includes('-Dcom.sun.management.jmxremote.host=127.0.0.1'));
});

test('actuator metric JSON: VALUE, else TOTAL/COUNT; absent or negative reads null', () => {
  assert.equal(metricValue({ measurements: [{ statistic: 'VALUE', value: 7 }] }), 7);
  assert.equal(metricValue({ measurements: [{ statistic: 'COUNT', value: 3 }] }), 3);
  assert.equal(metricValue({ measurements: [{ statistic: 'VALUE', value: -1 }] }), null);
  assert.equal(metricValue(null), null);
});

test("the jar's arguments: the arm's properties after the harness's, the user's last (they win on a clash)", () => {
  const a = targetArgs({ jar: 'app.jar', port: 8081, jvmFlags: ['-Xmx1g'], properties: { 'spring.threads.virtual.enabled': 'true' }, userArgs: ['--server.tomcat.threads.max=50'] });
  assert.deepEqual(a.slice(0, 3), ['-Xmx1g', '-jar', 'app.jar']);
  assert.ok(a.includes('--server.port=8081') && a.includes('--server.tomcat.mbeanregistry.enabled=true') && a.includes('--spring.datasource.hikari.register-mbeans=true'));
  assert.ok(a.indexOf('--spring.threads.virtual.enabled=true') < a.indexOf('--server.tomcat.threads.max=50'));
  assert.equal(a[a.length - 1], '--server.tomcat.threads.max=50');
});

test('arms: the two built-in ones, --arms, --arm of your own, black-box URLs; bad input names the option', () => {
  assert.deepEqual(armsOf('jar', {}).map((a) => [a.id, a.properties['spring.threads.virtual.enabled']]), [['platform', 'false'], ['virtual', 'true']]);
  assert.deepEqual(armsOf('jar', { arms: 'virtual' }).map((a) => a.id), ['virtual']);
  const own = armsOf('jar', { arm: ['t400:spring.threads.virtual.enabled=false,server.tomcat.threads.max=400'] });
  assert.deepEqual(own[2], { id: 't400', label: 't400', url: null, properties: { 'spring.threads.virtual.enabled': 'false', 'server.tomcat.threads.max': '400' }, virtualThreads: false });
  assert.throws(() => armsOf('jar', { arms: 'fast' }), /--arms fast: unknown arm 'fast'/);
  assert.throws(() => armsOf('jar', { arm: ['x:novalue'] }), /--arm x:novalue: 'novalue' is not key=value/);
  assert.throws(() => armsOf('jar', { arm: ['platform:a=b'] }), /exists already/);
  const bb = armsOf('black-box', { url: ['platform=http://127.0.0.1:8080/', 'virtual=http://127.0.0.1:8081'] });
  assert.deepEqual(bb.map((a) => [a.id, a.url, a.virtualThreads]), [['platform', 'http://127.0.0.1:8080', false], ['virtual', 'http://127.0.0.1:8081', true]]);
  assert.equal(armsOf('black-box', { url: ['http://h:1'] })[0]!.id, 'service');
  assert.throws(() => armsOf('black-box', { url: ['ftp://h'] }), /--url ftp:\/\/h: not an http\(s\) URL/);
  assert.deepEqual(parseLevels('50,1,10,10'), [1, 10, 50]);
  assert.throws(() => parseLevels('1,x'), /--levels 1,x/);
});

test('environment for the jar: NAME copies from ours (the value never on the command line), NAME=VALUE sets; unset or bad names refused; secret arguments redacted', () => {
  assert.deepEqual(targetEnvOf(['TOKEN', 'MODE=fast'], { TOKEN: 's3cret' }), { values: { TOKEN: 's3cret', MODE: 'fast' }, names: ['TOKEN', 'MODE'] });
  assert.throws(() => targetEnvOf(['MISSING'], {}), (e: Error & { hint?: string }) => /MISSING is not set/.test(e.message) && !/s3cret/.test(e.message));
  assert.throws(() => targetEnvOf(['1BAD=x'], {}), /not an environment variable name/);
  assert.deepEqual(redactArgs(['--spring.datasource.password=hunter2', '--server.port=1', '--my.api-key=k']), ['--spring.datasource.password=***', '--server.port=1', '--my.api-key=***']);
});

test("CPU-seconds of a cell from the JVM's ProcessCpuTime, interpolated at the window's edges; null outside the readings", () => {
  const s = (t: number, cpuNs: number | null): JmxSample => ({ tEpochMs: t, cpuNs, cpuLoad: null, heapUsedBytes: null, heapCommittedBytes: null, rssBytes: null, threads: null, gcCount: null, gcTimeMs: null, vt: null, tomcat: [], hikari: [], source: 'jmx' });
  const xs = [s(0, 0), s(250, 1e9), s(500, 2e9), s(750, null), s(1000, 4e9), s(1250, 5e9)];
  assert.equal(cpuSecondsOf(xs, 250, 1000), 3);
  assert.equal(cpuSecondsOf(xs, 375, 1125), 3); // 1.5e9 → 4.5e9, the null reading at 750 skipped
  assert.equal(cpuSecondsOf(xs, -10, 500), null); // before the first reading
  assert.equal(cpuSecondsOf([s(0, 0)], 0, 10), null);
});

test("what limited an arm: a full host CPU comes after the target's own caps and before the offered load", () => {
  assert.equal(limitOf([], [], 100, 101, HOST_CPU_FULL_SHARE).kind, 'host-cpu');
  assert.equal(limitOf([], [], 100, 101, HOST_CPU_FULL_SHARE - 0.01).kind, 'offered-load');
  assert.equal(limitOf([], [], 10, 101, 0.5).kind, 'not-determined');
  assert.equal(limitOf([], [], 10, 101, null).kind, 'not-determined');
  // a full host CPU is named before a full pool, which is listed beside it; below it the pool is named
  const cap = { kind: 'tomcat-threads' as const, name: 'http-nio-1', limit: 200, provenance: 'measured' as const, source: 'jmx', boundRps: null };
  const use = { kind: 'tomcat-threads' as const, name: 'http-nio-1', samples: 20, busyMax: 200, busyMean: 199, waitingMax: null, saturatedShare: 0.9, saturated: true };
  const full = limitOf([cap], [use], 300, 1000, 0.99);
  assert.deepEqual([full.kind, full.alsoSaturated.map((c) => c.kind)], ['host-cpu', ['tomcat-threads']]);
  assert.equal(limitOf([cap], [use], 300, 1000, 0.9).kind, 'tomcat-threads');
  // open loop: λ served on a full host is the offered load (62.2 of 60 req/s); short of it, or with a cap at its limit, the host
  assert.equal(limitOf([], [], 62.2, 60, 0.99, 'open-loop').kind, 'offered-load');
  assert.equal(limitOf([], [], 50, 60, 0.99, 'open-loop').kind, 'host-cpu');
  assert.equal(limitOf([cap], [use], 62.2, 60, 0.99, 'open-loop').kind, 'host-cpu');
  assert.equal(limitOf([], [], 62.2, 60, 0.99, 'closed-loop').kind, 'host-cpu');
});

/** Runs `fn` with a one-line request file, a silent Io and options naming a jar that does not exist (every refusal comes before it is looked for); removes the folder after. */
async function withTargetOptions(line: string, fn: (t: { dir: string; requests: string; io: Parameters<typeof targetCommand>[1]; base: { requests: string; targetJar: string; runsDir: string } }) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-target-opts-'));
  try {
    const requests = join(dir, 'r.jsonl');
    writeFileSync(requests, `${line}\n`);
    const io = { stdout: { write: () => true }, stderr: { write: () => true } } as unknown as Parameters<typeof targetCommand>[1];
    await fn({ dir, requests, io, base: { requests, targetJar: join(dir, 'no-such.jar'), runsDir: join(dir, 'runs') } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('target refuses, before anything starts, a placeholder without its downstream, {dbPassword} in an argument, --target-mock without a jar', async () => {
  await withTargetOptions('{"name":"llm","method":"POST","path":"/api/benchmark/llm","body":"{}"}', async ({ dir, requests, io, base }) => {
    await assert.rejects(targetCommand({ ...base, targetArg: ['--spring.ai.openai.base-url={mockUrl}/v1'] }, io), /--target-arg --spring\.ai\.openai\.base-url=\{mockUrl\}\/v1: \{mockUrl\} needs --target-mock/);
    await assert.rejects(targetCommand({ ...base, targetDb: 'postgres', targetArg: ['--spring.datasource.password={dbPassword}'] }, io), /--target-arg --spring\.datasource\.password=\*\*\*: \{dbPassword\} in an argument/);
    await assert.rejects(targetCommand({ requests, url: ['http://127.0.0.1:1'], targetMock: '10' }, io), /--target-mock needs --target-jar/);
    await assert.rejects(targetCommand({ ...base, targetMock: 'soon' }, io), /--target-mock soon: not an integer/);
    await assert.rejects(targetCommand({ requests, url: ['http://127.0.0.1:1'], targetDb: 'postgres' }, io), /--target-db postgres needs --target-jar/);
    await assert.rejects(targetCommand({ ...base, targetMock: '10', arm: ['x:spring.ai.openai.base-url={mockUrl}'] }, io), /--arm x: spring\.ai\.openai\.base-url holds a placeholder/);
    // provided: passes the placeholder check and stops at the next one (the jar does not exist)
    await assert.rejects(targetCommand({ ...base, targetMock: '10', targetArg: ['--x={mockUrl}'], targetDb: 'postgres', targetEnv: ['PW={dbPassword}'] }, io), /--target-jar .*no-such\.jar: no such file/);
    assert.equal(existsSync(join(dir, 'runs')), false);
  });
});

test('open loop options: --rates excludes --levels, open-loop flags need --rates, a bad arrival or rate is named', async () => {
  await withTargetOptions('{"name":"home","path":"/"}', async ({ io, base }) => {
    await assert.rejects(targetCommand({ ...base, rates: '10', levels: '1' }, io), /--rates and --levels exclude each other/);
    await assert.rejects(targetCommand({ ...base, durationS: '5', maxInFlight: '9' }, io), /--duration-s, --max-in-flight: open loop only/);
    await assert.rejects(targetCommand({ ...base, rates: '10', arrival: 'bursty' }, io), /--arrival bursty: unknown/);
    await assert.rejects(targetCommand({ ...base, rates: '10', arrival: 'constant', arrivalSeed: '7' }, io), /--arrival-seed: constant arrivals have no seed/);
    await assert.rejects(targetCommand({ ...base, rates: '10', arrival: 'poisson', arrivalSeed: '7' }, io), /no-such\.jar: no such file/);
    await assert.rejects(targetCommand({ ...base, rates: '10,x' }, io), /--rates 10,x: not a list of arrival rates/);
    await assert.rejects(targetCommand({ ...base, rates: '10', requestsPerWorker: '5', warmupRequests: '1' }, io), /--requests-per-worker, --warmup-requests: closed loop only/);
    // valid open-loop options pass and stop at the missing jar
    await assert.rejects(targetCommand({ ...base, rates: '50,10', durationS: '5', arrival: 'constant' }, io), /no-such\.jar: no such file/);
  });
  assert.deepEqual(parseLevels('50,10,50', 'rates'), [10, 50]);
});

test('--pinned-threshold-ms (the study runs\' name) sets the target\'s JFR threshold; the former --pin-threshold-ms still parses, hidden from --help; a bad value names the option', async () => {
  const { parseArgs } = await import('../../src/cli/program.ts');
  const { STUDIES } = await import('../../src/studies/index.ts');
  const io = { stdout: { write: () => true }, stderr: { write: () => true } } as unknown as Parameters<typeof parseArgs>[1];
  const parsed = await parseArgs(['target', '--requests', 'r.jsonl', '--url', 'http://127.0.0.1:1', '--pinned-threshold-ms', '5'], io, STUDIES);
  assert.equal(parsed?.chosen.sub?.['pinnedThresholdMs'], '5');
  const former = await parseArgs(['target', '--requests', 'r.jsonl', '--url', 'http://127.0.0.1:1', '--pin-threshold-ms', '7'], io, STUDIES);
  assert.equal(former?.chosen.sub?.['pinThresholdMs'], '7');
  let help = '';
  await parseArgs(['target', '--help'], { stdout: { write: (s: string) => { help += s; return true; } }, stderr: { write: () => true } } as unknown as Parameters<typeof parseArgs>[1], STUDIES);
  assert.match(help, /--pinned-threshold-ms <ms>/);
  assert.doesNotMatch(help, /--pin-threshold-ms/);
  await withTargetOptions('{"name":"home","path":"/"}', async ({ io: quiet, base }) => {
    await assert.rejects(targetCommand({ ...base, pinnedThresholdMs: 'soon' }, quiet), /--pinned-threshold-ms soon: not an integer/);
    await assert.rejects(targetCommand({ ...base, pinThresholdMs: 'soon' }, quiet), /--pin-threshold-ms soon: not an integer/);
    await assert.rejects(targetCommand({ ...base, pinnedThresholdMs: '60001' }, quiet), /--pinned-threshold-ms 60001: at most 60000/);
    await assert.rejects(targetCommand({ ...base, pinnedThresholdMs: '60000' }, quiet), /no-such\.jar: no such file/);
  });
});
