/**
 * The caps inventory and the caps' use (src/compute/target/caps.ts), each rule with a case that
 * flips it, from synthetic sampler lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capsInventory, capUse, mergeCapUses, NO_THREAD_LIMIT, NOT_EXPOSED, samplesInCell } from '../../src/compute/target/caps.ts';
import type { Cap } from '../../src/types/target.ts';
import { hikari, jmxSample, sampleSeries, targetCell, tomcat } from '../fixtures/target-run.ts';

const T0 = 1_700_000_000_000;
const find = (caps: Cap[], kind: Cap['kind']) => caps.find((c) => c.kind === kind) as Cap;

test('platform arm: Tomcat threads and connections, Hikari, CPU measured with their bounds at R(1); no carriers; the unexposed caps unavailable', () => {
  const samples = [jmxSample(T0, { tomcat: tomcat(150, 200), hikari: hikari(5, 0) })];
  const top = [targetCell('p', 8, 1, 10, T0, { targetCpuS: 0.8 })]; // 160 requests, 5 ms of CPU each
  const caps = capsInventory({ arm: { virtualThreads: false }, samples, jvm: { availableProcessors: 2 }, r1Ms: 10, topCells: top });
  assert.deepEqual(caps.map((c) => c.kind), ['tomcat-threads', 'tomcat-connections', 'hikari-pool', 'cpu', 'async-concurrency-limit', 'http-client-dispatcher']);
  assert.deepEqual(find(caps, 'tomcat-threads'), { kind: 'tomcat-threads', name: 'http-nio-8080', limit: 200, provenance: 'measured', source: 'jmx', boundRps: 20_000 });
  assert.equal(find(caps, 'tomcat-connections').limit, 8192);
  assert.equal(find(caps, 'hikari-pool').limit, 10);
  assert.equal(find(caps, 'hikari-pool').boundRps, 1000);
  const cpu = find(caps, 'cpu');
  assert.equal(cpu.limit, 2);
  assert.ok(Math.abs((cpu.boundRps as number) - 400) < 1e-9, String(cpu.boundRps));
  for (const k of ['async-concurrency-limit', 'http-client-dispatcher'] as const) assert.deepEqual({ p: find(caps, k).provenance, s: find(caps, k).source }, { p: 'unavailable', s: NOT_EXPOSED });
});

test('virtual arm: Tomcat max −1 means no thread cap; the carriers are listed; Hikari without PoolConfig falls back to total', () => {
  const samples = [jmxSample(T0, { tomcat: tomcat(-1, -1), hikari: [{ pool: 'HikariPool-1', active: 3, idle: 7, pending: 0, total: 10, max: null }], vt: { parallelism: 2, poolSize: 2, mounted: 1, queued: 0 } })];
  const caps = capsInventory({ arm: { virtualThreads: true }, samples, jvm: { availableProcessors: 2 }, r1Ms: 10, topCells: [] });
  const t = find(caps, 'tomcat-threads');
  assert.deepEqual({ limit: t.limit, p: t.provenance, s: t.source, b: t.boundRps }, { limit: null, p: 'unavailable', s: NO_THREAD_LIMIT, b: null });
  assert.equal(find(caps, 'carriers').limit, 2);
  assert.equal(find(caps, 'hikari-pool').limit, 10);
  assert.equal(find(caps, 'cpu').boundRps, null, 'no CPU time: no CPU bound');
  // the same sample on a platform arm reads a maxThreads: the cap is there
  const onPlatform = capsInventory({ arm: { virtualThreads: false }, samples: [jmxSample(T0, { tomcat: tomcat(10, 200) })], jvm: null, r1Ms: 10, topCells: [] });
  assert.equal(find(onPlatform, 'tomcat-threads').limit, 200);
  assert.equal(onPlatform.some((c) => c.kind === 'carriers'), false);
  assert.equal(find(onPlatform, 'cpu').provenance, 'unavailable');
  // an arm not known to be on virtual threads (a black box the user named) is not said to have no thread limit
  const unknown = capsInventory({ arm: { virtualThreads: null }, samples, jvm: null, r1Ms: 10, topCells: [] });
  assert.deepEqual({ p: find(unknown, 'tomcat-threads').provenance, s: find(unknown, 'tomcat-threads').source }, { p: 'unavailable', s: 'maxThreads not read' });
  assert.equal(unknown.some((c) => c.kind === 'carriers'), false);
});

test('no samples: every cap unavailable, none guessed', () => {
  const caps = capsInventory({ arm: { virtualThreads: null }, samples: [], jvm: null, r1Ms: 10, topCells: [] });
  assert.ok(caps.every((c) => c.provenance === 'unavailable' && c.limit === null && c.boundRps === null));
});

test('busy = limit in 60 % of the samples is saturated, in 40 % it is not', () => {
  const cap = { kind: 'tomcat-threads' as const, name: 'http-nio-8080', limit: 200 };
  const series = (n: number) => sampleSeries(T0, 250, 10, n, () => ({ tomcat: tomcat(200, 200) }), () => ({ tomcat: tomcat(120, 200) }));
  const hot = capUse(cap, series(6));
  assert.deepEqual({ s: hot.samples, share: hot.saturatedShare, sat: hot.saturated, max: hot.busyMax }, { s: 10, share: 0.6, sat: true, max: 200 });
  assert.ok(Math.abs((hot.busyMean as number) - 168) < 1e-9);
  const cool = capUse(cap, series(4));
  assert.deepEqual({ share: cool.saturatedShare, sat: cool.saturated }, { share: 0.4, sat: false });
});

test('Hikari: saturated only with every connection active and waiters; waiters beside an idle connection wait for something else; waitingMax is the largest pending', () => {
  const cap = { kind: 'hikari-pool' as const, name: 'HikariPool-1', limit: 10 };
  const u = capUse(cap, sampleSeries(T0, 250, 10, 6, (i) => ({ hikari: hikari(10, 100 + i) }), () => ({ hikari: hikari(9, 0) })));
  assert.deepEqual({ sat: u.saturated, w: u.waitingMax }, { sat: true, w: 105 });
  // the same waiters with one connection idle: not the pool (seen in the PetClinic run: pending with idle connections while the CPU was full)
  assert.equal(capUse(cap, sampleSeries(T0, 250, 10, 6, (i) => ({ hikari: hikari(9, 100 + i) }), () => ({ hikari: hikari(9, 0) }))).saturated, false);
  assert.equal(capUse(cap, sampleSeries(T0, 250, 10, 4, () => ({ hikari: hikari(9, 3) }), () => ({ hikari: hikari(9, 0) }))).saturated, false);
});

test('CPU: cores in use from consecutive cpuNs deltas; ≥ 95 % of the cores is full', () => {
  const cap = { kind: 'cpu' as const, name: null, limit: 2 };
  // 250 ms apart: 1.96 cores = 490 ms of CPU per step; 1.8 cores = 450 ms
  const cpu = (coresHot: number, hotSteps: number) => {
    let ns = 0;
    return Array.from({ length: 11 }, (_, i) => {
      if (i > 0) ns += (i <= hotSteps ? coresHot : 1) * 250e6;
      return jmxSample(T0 + i * 250, { cpuNs: ns });
    });
  };
  const hot = capUse(cap, cpu(1.96, 6));
  assert.equal(hot.samples, 10);
  assert.ok(Math.abs((hot.busyMax as number) - 1.96) < 1e-9);
  assert.equal(hot.saturated, true);
  assert.equal(capUse(cap, cpu(1.8, 6)).saturated, false);
  assert.equal(capUse(cap, cpu(1.96, 4)).saturated, false);
});

test('missing data: nulls and saturated false', () => {
  const u = capUse({ kind: 'tomcat-threads', name: 'http-nio-8080', limit: 200 }, [jmxSample(T0), jmxSample(T0 + 250)]);
  assert.deepEqual(u, { kind: 'tomcat-threads', name: 'http-nio-8080', samples: 0, busyMax: null, busyMean: null, waitingMax: null, saturatedShare: null, saturated: false });
  // busy read but no limit and no waiting count: nothing to judge
  const noLimit = capUse({ kind: 'tomcat-threads', name: 'http-nio-8080', limit: null }, [jmxSample(T0, { tomcat: tomcat(50, -1) })]);
  assert.deepEqual({ b: noLimit.busyMax, s: noLimit.saturatedShare, sat: noLimit.saturated }, { b: 50, s: null, sat: false });
  assert.equal(capUse({ kind: 'async-concurrency-limit', name: null, limit: null }, [jmxSample(T0, { tomcat: tomcat(50, 60) })]).samples, 0);
});

test('a cell\'s samples are those in [t0, end]; repeats merge weighted by their samples', () => {
  const cell = { t0EpochMs: T0, endEpochMs: T0 + 1000 };
  const s = [jmxSample(T0 - 250), jmxSample(T0), jmxSample(T0 + 1000), jmxSample(T0 + 1250)];
  assert.deepEqual(samplesInCell(cell, s).map((x) => x.tEpochMs), [T0, T0 + 1000]);
  const cap = { kind: 'tomcat-threads' as const, name: 'http-nio-8080', limit: 200 };
  const a = capUse(cap, sampleSeries(T0, 250, 4, 4, () => ({ tomcat: tomcat(200, 200) }), () => ({})));
  const b = capUse(cap, sampleSeries(T0, 250, 6, 0, () => ({}), () => ({ tomcat: tomcat(100, 200) })));
  const m = mergeCapUses([a, b], cap);
  assert.deepEqual({ n: m.samples, share: m.saturatedShare, sat: m.saturated, max: m.busyMax }, { n: 10, share: 0.4, sat: false, max: 200 });
  assert.ok(Math.abs((m.busyMean as number) - 140) < 1e-9);
  // fully saturated repeats: 3 samples in all say nothing (MIN_JUDGED_SAMPLES 8), 9 do
  const full = (n: number) => capUse(cap, sampleSeries(T0, 250, n, n, () => ({ tomcat: tomcat(200, 200) }), () => ({})));
  assert.deepEqual([full(1), full(2)].map((u) => u.saturated), [false, false]);
  assert.equal(mergeCapUses([full(1), full(2)], cap).saturated, false, 'a share of 1 from 3 samples');
  assert.equal(mergeCapUses([full(3), full(3), full(3)], cap).saturated, true, 'a share of 1 from 9 samples');
});

test("black box: the CPU cap from the actuator's system.cpu.count and process.cpu.time; without the count it stays unavailable", () => {
  const top = [targetCell('s', 8, 1, 10, T0, { targetCpuS: 0.8 })]; // 160 requests, 5 ms of CPU each
  const withCount = capsInventory({ arm: { virtualThreads: null }, samples: [jmxSample(T0, { source: 'actuator', cpus: 4 })], jvm: null, r1Ms: 10, topCells: top });
  const cpu = find(withCount, 'cpu');
  assert.deepEqual({ limit: cpu.limit, p: cpu.provenance, s: cpu.source }, { limit: 4, p: 'measured', s: 'actuator, cpu-time' });
  assert.ok(Math.abs((cpu.boundRps as number) - 800) < 1e-9, String(cpu.boundRps));
  const without = capsInventory({ arm: { virtualThreads: null }, samples: [jmxSample(T0, { source: 'actuator' })], jvm: null, r1Ms: 10, topCells: top });
  assert.deepEqual({ p: find(without, 'cpu').provenance, b: find(without, 'cpu').boundRps }, { p: 'unavailable', b: null });
});
