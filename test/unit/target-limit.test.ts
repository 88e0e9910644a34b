/**
 * What limited an arm (src/compute/target/limit.ts), the per-level verdict (verdict.ts) and the
 * whole-arm analysis (arm.ts), each rule with a case that flips it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { limitOf, OFFERED_LOAD_SHARE } from '../../src/compute/target/limit.ts';
import { armPair, compareArms, ratioWord, SAME_BAND } from '../../src/compute/target/verdict.ts';
import { capsInventory, capUse } from '../../src/compute/target/caps.ts';
import { analyseArm } from '../../src/compute/target/arm.ts';
import { inferArm } from '../../src/compute/target/inference.ts';
import { ANSWER_TIE_BAND, OFFERED_LOAD_SHARE as ENGINE_OFFERED } from '../../src/report/answer.ts';
import type { JmxSample, TargetArm } from '../../src/types/target.ts';
import { hikari, sampleSeries, targetCell, targetProbe, tomcat } from '../fixtures/target-run.ts';

const T0 = 1_700_000_000_000;

test('the bands stated in compute are the engine\'s', () => {
  assert.equal(SAME_BAND, ANSWER_TIE_BAND);
  assert.equal(OFFERED_LOAD_SHARE, ENGINE_OFFERED);
});

function capsAndUses(tomcatSat: number, hikariSat: number) {
  const samples = sampleSeries(T0, 250, 10, 10, (i) => ({ tomcat: tomcat(i < tomcatSat ? 200 : 150, 200), hikari: hikari(i < hikariSat ? 10 : 5, i < hikariSat ? 40 : 0) }), () => ({}));
  const caps = capsInventory({ arm: { virtualThreads: false }, samples, jvm: { availableProcessors: 2 }, r1Ms: 10, topCells: [] });
  return { caps, uses: caps.map((c) => capUse(c, samples)) };
}

test('the first saturated cap in order names the limit: Tomcat threads before Hikari', () => {
  const both = capsAndUses(6, 6);
  const l = limitOf(both.caps, both.uses, 100, 1000);
  assert.equal(l.kind, 'tomcat-threads');
  assert.equal(l.provenance, 'measured');
  assert.ok(Math.abs((l.utilisation as number) - 0.9) < 1e-9, String(l.utilisation)); // (6×200 + 4×150)/10 / 200
  assert.deepEqual(l.alsoSaturated, [{ kind: 'hikari-pool', name: 'HikariPool-1', limit: 10 }]);
  const onlyPool = capsAndUses(4, 6);
  const pool = limitOf(onlyPool.caps, onlyPool.uses, 100, 1000);
  assert.deepEqual({ k: pool.kind, also: pool.alsoSaturated }, { k: 'hikari-pool', also: [] });
});

test('no saturated cap: offered load (inferred) at ≥ 95 % of level / R(1), else not determined', () => {
  const none = capsAndUses(0, 0);
  const ol = limitOf(none.caps, none.uses, 960, 1000);
  assert.deepEqual({ k: ol.kind, p: ol.provenance, u: ol.utilisation }, { k: 'offered-load', p: 'inferred', u: 0.96 });
  const nd = limitOf(none.caps, none.uses, 900, 1000);
  assert.deepEqual({ k: nd.kind, p: nd.provenance, u: nd.utilisation, c: nd.cap }, { k: 'not-determined', p: 'unavailable', u: null, c: null });
  assert.equal(limitOf([], [], 900, null).kind, 'not-determined');
});

test('the verdict: a throughput ratio within 1 ± 5 % is the same, beyond it faster or slower', () => {
  assert.equal(ratioWord(1.04), 'same');
  assert.equal(ratioWord(1.06), 'higher');
  assert.equal(ratioWord(0.94), 'lower');
  assert.equal(ratioWord(null), null);
  const probes = [targetProbe('p', 1, 10), targetProbe('v', 1, 10)];
  const base = inferArm('p', probes, [targetCell('p', 8, 1, 20, T0), targetCell('p', 16, 1, 40, T0)], 'closed-loop');
  const cand = inferArm('v', probes, [targetCell('v', 8, 1, 19.5, T0), targetCell('v', 16, 1, 20, T0)], 'closed-loop');
  const v = compareArms(base, cand);
  assert.deepEqual(v.map((x) => [x.level, x.verdict, x.p95]), [[8, 'same', 'same'], [16, 'faster', 'lower']]);
  assert.ok(Math.abs((v[1]!.throughputRatio as number) - 2) < 1e-9);
});

test('the pair: the platform-thread arm is the baseline, the virtual-thread arm the candidate, whatever their order', () => {
  assert.deepEqual(armPair([{ id: 'v', virtualThreads: true }, { id: 'p', virtualThreads: false }]), { baseline: 'p', candidate: 'v' });
  assert.deepEqual(armPair([{ id: 'x', virtualThreads: null }, { id: 'y', virtualThreads: null }]), { baseline: 'x', candidate: 'y' });
  assert.equal(armPair([{ id: 'x', virtualThreads: null }]), null);
});

test('analyseArm: samples outside the cell do not count, the level limit comes from the cell\'s own samples', () => {
  const arm: TargetArm = { id: 'p', label: 'platform threads', url: null, properties: {}, virtualThreads: false };
  const cell = targetCell('p', 8, 1, 20, T0); // 400 ms long
  const before = sampleSeries(T0 - 2000, 250, 6, 6, () => ({ tomcat: tomcat(200, 200) }), () => ({}));
  const inside = (sat: number) => sampleSeries(T0, 50, 8, sat, () => ({ tomcat: tomcat(200, 200) }), () => ({ tomcat: tomcat(100, 200) }));
  const run = (s: JmxSample[]) => analyseArm(arm, [targetProbe('p', 1, 20)], [cell], new Map([[cell.id, s]]), null, 'closed-loop');
  assert.equal(run([...before, ...inside(5)]).levels[0]!.limit.kind, 'tomcat-threads');
  // same cell, 3 of 8 inside at the limit: the saturated samples before t0 do not make it saturated;
  // 8 workers at 20 ms = 400 req/s = level / R(1): the offered load
  assert.equal(run([...before, ...inside(3)]).levels[0]!.limit.kind, 'offered-load');
});
