/**
 * The client-side inference of a target run (src/compute/target/inference.ts): R(1) as the median
 * of the probes' P50, X_max, N = X_max × R(1) (Little's law), the knee with KNEE_SLACK, the
 * offered-load bound level / R(1). Cells come from request records through the real summarize().
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inferArm, KNEE_SLACK, r1Ms } from '../../src/compute/target/inference.ts';
import { targetCell, targetProbe } from '../fixtures/target-run.ts';

const T0 = 1_700_000_000_000;

test('R(1) is the median over the arm\'s probes of their E2E P50; other arms do not count', () => {
  const probes = [targetProbe('a', 1, 10), targetProbe('a', 2, 12), targetProbe('a', 3, 30), targetProbe('b', 1, 1)];
  assert.equal(r1Ms(probes, 'a'), 12);
  // moving the slowest probe below the middle one moves the median
  assert.equal(r1Ms([...probes.slice(0, 2), targetProbe('a', 3, 11)], 'a'), 11);
  assert.equal(r1Ms(probes, 'none'), null);
});

test('X_max is the highest level mean throughput; N = X_max × R(1); the offered-load bound is level / R(1)', () => {
  const probes = [targetProbe('a', 1, 10)];
  const cells = [
    targetCell('a', 1, 1, 10, T0), targetCell('a', 4, 1, 10, T0),
    targetCell('a', 8, 1, 16, T0), targetCell('a', 8, 2, 16, T0), targetCell('a', 16, 1, 40, T0),
  ];
  const inf = inferArm('a', probes, cells, 'closed-loop');
  assert.equal(inf.r1Ms, 10);
  assert.equal(inf.xMaxLevel, 8);
  assert.ok(Math.abs((inf.xMaxRps as number) - 500) < 1e-6, String(inf.xMaxRps));
  assert.ok(Math.abs((inf.concurrencyN as number) - 5) < 1e-6);
  assert.deepEqual(inf.levels.map((l) => l.level), [1, 4, 8, 16]);
  assert.deepEqual(inf.levels.find((l) => l.level === 8)?.cellIds, ['a-c8-r1', 'a-c8-r2']);
  assert.ok(Math.abs((inf.levels[1]!.offeredBoundRps as number) - 400) < 1e-9);
  // a faster level 16 takes X_max from level 8
  const faster = inferArm('a', probes, [...cells.slice(0, 4), targetCell('a', 16, 1, 20, T0)], 'closed-loop');
  assert.equal(faster.xMaxLevel, 16);
});

test('the knee is the lowest level whose mean P50 exceeds R(1) × (1 + KNEE_SLACK), null when none', () => {
  assert.equal(KNEE_SLACK, 0.2);
  const probes = [targetProbe('a', 1, 10)];
  const at = (p50At8: number) => inferArm('a', probes, [targetCell('a', 4, 1, 10, T0), targetCell('a', 8, 1, p50At8, T0), targetCell('a', 16, 1, 30, T0)], 'closed-loop').kneeLevel;
  assert.equal(at(12.5), 8);
  assert.equal(at(11.5), 16);
  assert.equal(inferArm('a', probes, [targetCell('a', 4, 1, 10, T0)], 'closed-loop').kneeLevel, null);
  assert.equal(inferArm('a', [], [targetCell('a', 4, 1, 30, T0)], 'closed-loop').kneeLevel, null);
});

test('an open-loop level is its own offered-load bound', () => {
  const inf = inferArm('a', [targetProbe('a', 1, 10)], [{ ...targetCell('a', 50, 1, 10, T0), mode: 'open-loop' }], 'open-loop');
  assert.equal(inf.levels[0]!.offeredBoundRps, 50);
});

test("Little's law takes the probes' mean R(1), the knee their median: a skewed probe moves N and the bounds, not the knee", async () => {
  const { percentiles } = await import('../../src/compute/stats/percentiles.ts');
  // 20 alone requests: 18 at 10 ms, 2 at 60 ms → P50 10 ms, mean 15 ms
  const skewed = { arm: 'a', repeat: 1, requests: 20, ok: 20, e2eMs: percentiles([...Array.from({ length: 18 }, () => 10), 60, 60]) };
  const cells = [targetCell('a', 4, 1, 10, T0), targetCell('a', 8, 1, 11, T0), targetCell('a', 16, 1, 13, T0)];
  const inf = inferArm('a', [skewed], cells, 'closed-loop');
  assert.equal(inf.r1Ms, 10);
  assert.equal(inf.r1MeanMs, 15);
  assert.ok(Math.abs((inf.concurrencyN as number) - inf.xMaxRps! * 0.015) < 1e-9, 'N = X_max × mean R(1)');
  assert.ok(Math.abs((inf.levels[0]!.offeredBoundRps as number) - 4 / 0.015) < 1e-9, 'offered bound c ÷ mean R(1)');
  // P50 13 ms leaves the median R(1) 10 ms by more than 20 % (12 ms), not the mean 15 ms (18 ms): the knee is at 16 only on the median
  assert.equal(inf.kneeLevel, 16, 'P50 11 ms is within 20 % of the P50 R(1) 10 ms; 13 ms is not');
  // the same probe without its slow tail: mean = P50 = 10 ms, N and the bound follow
  const even = inferArm('a', [{ ...skewed, e2eMs: percentiles(Array.from({ length: 20 }, () => 10)) }], cells, 'closed-loop');
  assert.ok(Math.abs((even.concurrencyN as number) - even.xMaxRps! * 0.01) < 1e-9);
});
