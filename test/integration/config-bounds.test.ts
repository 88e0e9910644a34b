/**
 * Upper bounds of every numeric option (issue 10, defects 4 and 7): exact parsing of huge numbers,
 * host-derived maxima (open files, ports, heap), the plan's totals, and client timeouts below
 * undici's timer resolution — refused below it, honoured at it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolveOptions, checkBounds } from '../../src/plan/profiles.ts';
import { OPTION_SPECS } from '../../src/plan/options.ts';
import { maxConcurrency, maxCellRequests, parseOpenFilesLimit, parsePortRange, readHostLimits, FD_RESERVE, UNDICI_TIMER_RESOLUTION_MS, type HostLimits } from '../../src/adapters/host/limits.ts';
import { STUDY_000 as S000 } from '../../src/studies/000/index.ts';
import { VtbenchError, EXIT } from '../../src/types/errors.ts';
import { runClosedLoop } from '../../src/load/index.ts';

/** This machine's limits as seen when the tests were written (ulimit -n 20000, 32768–60999, 4 GiB heap). */
const HOST: HostLimits = { openFiles: 20_000, ephemeralPorts: 28_232, heapLimitBytes: 4 * 2 ** 30 };

function refused(fn: () => unknown, flag: string, re: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof VtbenchError, String(e));
    assert.equal(e.exitCode, EXIT.usage);
    assert.ok(e.message.includes(`--${flag}`), e.message);
    assert.match(e.message, re);
    return true;
  });
}

test('limits are read from /proc text: soft "Max open files" and the ephemeral port range', () => {
  const limits = 'Limit                     Soft Limit           Hard Limit           Units\nMax open files            20000                20000                files\n';
  assert.equal(parseOpenFilesLimit(limits), 20_000);
  assert.equal(parseOpenFilesLimit('Max open files            unlimited            unlimited            files\n'), Number.MAX_SAFE_INTEGER);
  assert.equal(parseOpenFilesLimit('nothing'), null);
  assert.equal(parsePortRange('32768\t60999\n'), 28_232);
  assert.equal(parsePortRange('x'), null);
  const h = readHostLimits();
  assert.ok(h.openFiles > 0 && h.ephemeralPorts > 0 && h.heapLimitBytes > 0);
});

test('maximum concurrency: two descriptors per worker under ulimit -n less the reserve, and two ephemeral ports', () => {
  assert.equal(maxConcurrency(HOST), (20_000 - FD_RESERVE) / 2);
  assert.equal(maxConcurrency({ ...HOST, openFiles: 1024 }), 256);
  assert.equal(maxConcurrency({ ...HOST, openFiles: 1_000_000 }), 14_116, 'then the port range binds');
});

test('--levels 9007199254740991 is refused by the options (so by the dry run too), naming ulimit -n', () => {
  refused(() => resolveOptions(S000, 'seed-000', { levels: '9007199254740991' }, HOST), 'levels', /too large: the maximum is 9,744 \(.*ulimit -n/);
  refused(() => resolveOptions(S000, 'seed-000', { levels: '10,9745' }, HOST), 'levels', /9745 is too large/);
  assert.deepEqual(resolveOptions(S000, 'seed-000', { levels: '10,9744', requestsPerWorker: '1', repeats: '1' }, HOST).levels, [10, 9744]);
  // a profile's own values are checked against the host as well: seed-000's 500 on ulimit -n 1024
  refused(() => resolveOptions(S000, 'seed-000', {}, { ...HOST, openFiles: 1024 }), 'levels', /500 is too large: the maximum is 256/);
});

test('numbers beyond Number.MAX_SAFE_INTEGER say "too large", never "below"', () => {
  refused(() => resolveOptions(S000, 'seed-000', { requestsPerWorker: '99999999999999999999' }, HOST), 'requests-per-worker', /99999999999999999999 is too large/);
  refused(() => resolveOptions(S000, 'seed-000', { requestsPerWorker: '9007199254740992' }, HOST), 'requests-per-worker', /too large/);
  refused(() => resolveOptions(S000, 'seed-000', { latencyMs: '99999999999999999999' }, HOST), 'latency-ms', /too large/);
});

test('every numeric option has a maximum, and one above it is refused naming the flag', () => {
  const above: Record<string, string> = {
    requestsPerWorker: '9007199254740992', repeats: '1001', warmupS: '3601', latencyMs: '600000', poolSize: '10001',
    queueCapacity: '2147483648', rampMs: '3600001', mockPort: '65536', sutPort: '70000', samplerIntervalMs: '60001',
    pinnedThresholdMs: '60001', errorFlagThreshold: '1.5', connectTimeoutMs: '2147483648', headersTimeoutMs: '2147483648',
    bodyTimeoutMs: '2147483648', levels: '9745',
    durationS: '86401', arrivalSeed: '4294967296', maxInFlight: '9745', shards: '65',
  };
  for (const s of OPTION_SPECS) {
    if (s.key === 'variants' || s.key === 'scenario' || s.key === 'start' || s.key === 'jvmFlags' || s.key === 'bindAddress' || s.key === 'arrival' || s.key === 'sutUrl' || s.key === 'mockUrl' || s.key === 'cpuIsolation') continue; // cpuIsolation: CPU lists, checked against the CPUs this process may use (src/adapters/host/affinity.ts)
    assert.ok(s.max, `--${s.flag} declares a maximum`);
    assert.ok(s.max.why.length > 0, `--${s.flag} says why`);
    const raw = above[s.key];
    assert.ok(raw !== undefined, `test covers --${s.flag}`);
    assert.throws(() => resolveOptions(S000, 'seed-000', { [s.key]: raw }, HOST), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && e.message.includes(`--${s.flag}`), `--${s.flag} ${raw}`);
  }
});

test("a cell whose requests would not fit the harness's heap is refused before anything starts", () => {
  const max = maxCellRequests(HOST); // 4 GiB / 2 / 512 B = 4,194,304
  assert.equal(max, 4_194_304);
  refused(() => resolveOptions(S000, 'seed-000', { levels: '500', requestsPerWorker: String(Math.floor(max / 500) + 1), variants: 'virtual', repeats: '1' }, HOST), 'requests-per-worker', /fit this harness's heap/);
  assert.equal(resolveOptions(S000, 'seed-000', { levels: '500', requestsPerWorker: String(Math.floor(max / 500)), variants: 'virtual', repeats: '1', latencyMs: '1' }, HOST).requestsPerWorker, 8388);
});

test('the run total and the planned duration have stated limits', () => {
  // 16 cells of 4,000,000 requests each: every cell fits, the run (64 M × 128 B > 2 GiB) does not
  refused(() => resolveOptions(S000, 'seed-000', { levels: '1000', requestsPerWorker: '4000', repeats: '8', latencyMs: '1' }, HOST), 'repeats', /would hold 64,000,000 requests/);
  // 2,000 calls of 599 s one after another: ≥ 13 days
  refused(() => resolveOptions(S000, 'seed-000', { levels: '1', requestsPerWorker: '2000', repeats: '1', variants: 'virtual', latencyMs: '599000' }, HOST), 'requests-per-worker', /at least .* the stated maximum is 168 h 0 min/);
  refused(() => resolveOptions(S000, 'seed-000', { levels: '1,2,3,4,5,6', repeats: '1000', requestsPerWorker: '1', latencyMs: '1' }, HOST), 'levels', /would have 12,000 cells; the stated maximum is 10,000/);
});

test('decimal options take plain decimals only: no hex, no Infinity', () => {
  refused(() => resolveOptions(S000, 'seed-000', { errorFlagThreshold: '0x1' }, HOST), 'error-flag-threshold', /not a number/);
  refused(() => resolveOptions(S000, 'seed-000', { warmupS: 'Infinity' }, HOST), 'warmup-s', /not a number/);
  refused(() => resolveOptions(S000, 'seed-000', { warmupS: '1e400' }, HOST), 'warmup-s', /not a number/);
  assert.equal(resolveOptions(S000, 'seed-000', { errorFlagThreshold: '.5' }, HOST).errorFlagThreshold, 0.5);
  assert.equal(resolveOptions(S000, 'seed-000', { warmupS: '2.5' }, HOST).warmupS, 2.5);
});

test('checkBounds accepts the shipped profiles on this host', () => {
  for (const p of ['seed-000', 'quick', 'smoke']) assert.doesNotThrow(() => checkBounds(resolveOptions(S000, p, {}, HOST), HOST, S000), p);
});

test(`client timeouts below undici's ${UNDICI_TIMER_RESOLUTION_MS} ms timer resolution are refused with the reason`, () => {
  for (const [key, flag] of [['headersTimeoutMs', 'headers-timeout-ms'], ['bodyTimeoutMs', 'body-timeout-ms'], ['connectTimeoutMs', 'connect-timeout-ms']] as const) {
    refused(() => resolveOptions(S000, 'smoke', { [key]: '1' }, HOST), flag, /1 is below 1000/);
    refused(() => resolveOptions(S000, 'smoke', { [key]: '999' }, HOST), flag, /999 is below 1000/);
    assert.equal(resolveOptions(S000, 'smoke', { [key]: '1000', latencyMs: '200' }, HOST)[key], 1000);
  }
  // the reason is in --help's description of each
  for (const s of OPTION_SPECS.filter((x) => /timeout/.test(x.flag))) assert.match(s.description, /undici's timer resolution/);
  // the headers timeout must also exceed every call, in virtual mode too
  refused(() => resolveOptions(S000, 'smoke', { headersTimeoutMs: '1000', latencyMs: '1000', variants: 'virtual' }, HOST), 'latency-ms', /not below the 1 s client headers timeout/);
});

test('why the minimum: undici does not honour a 1 ms headers timeout (it fires after ≈1 s); the smallest accepted one (1000 ms) fires after 1–2.1 s', { timeout: 20_000 }, async () => {
  const server = http.createServer((req, res) => {
    req.resume();
    const t = setTimeout(() => res.end('late'), 3000);
    res.on('close', () => clearTimeout(t));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const o = resolveOptions(S000, 'smoke', { headersTimeoutMs: '1000', latencyMs: '200' }, HOST);
    const port = (server.address() as AddressInfo).port;
    const res = await runClosedLoop({
      url: `http://127.0.0.1:${port}`, path: '/', method: 'POST', body: '{}', concurrency: 1, requestsPerWorker: 1, start: 'together', rampMs: 0,
      connectTimeoutMs: o.connectTimeoutMs, headersTimeoutMs: o.headersTimeoutMs, bodyTimeoutMs: o.bodyTimeoutMs,
    });
    const r = res.records[0]!;
    assert.equal(r.errorClass, 'timeout');
    assert.ok(r.e2eMs >= 1000 && r.e2eMs < 2100, `timed out after ${r.e2eMs} ms`);
    // the refused side, straight to the load generator (the options would not let it through)
    const tiny = await runClosedLoop({
      url: `http://127.0.0.1:${port}`, path: '/', method: 'POST', body: '{}', concurrency: 1, requestsPerWorker: 1, start: 'together', rampMs: 0,
      connectTimeoutMs: o.connectTimeoutMs, headersTimeoutMs: 1, bodyTimeoutMs: o.bodyTimeoutMs,
    });
    assert.equal(tiny.records[0]!.errorClass, 'timeout');
    assert.ok(tiny.records[0]!.e2eMs >= 900, `a 1 ms headers timeout fired after ${tiny.records[0]!.e2eMs} ms, not 1 ms`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test('the dry run refuses what the run refuses: --levels 9007199254740991 and a sub-second headers timeout exit 2', async () => {
  const { main } = await import('../../src/cli/main.ts');
  for (const args of [['--levels', '9007199254740991'], ['--requests-per-worker', '99999999999999999999'], ['--headers-timeout-ms', '1']]) {
    let err = '';
    const sink = { write: (s: string) => { err += s; return true; } } as unknown as NodeJS.WriteStream;
    const code = await main([...args, '--dry-run', '--runs-dir', '/tmp'], { stdout: sink, stderr: sink }, {} as Parameters<typeof main>[2]);
    assert.equal(code, EXIT.usage, err);
    assert.match(err, new RegExp(`error: ${args[0]}: `));
    assert.doesNotMatch(err, /prerequisites ok/);
  }
});
