import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveOptions, getProfile } from '../src/config/profiles.ts';
import { makePlan, formatPlan, warmupPlan } from '../src/config/plan.ts';
import { VtbenchError, EXIT } from '../src/core/errors.ts';

function usageError(fn: () => unknown, flag: string): void {
  assert.throws(fn, (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && e.message.includes(`--${flag}`));
}

test('seed-000 plan has the study arithmetic: 860 workers × 40 × 3 × 2 = 206,400 requests', () => {
  const o = resolveOptions('seed-000', {});
  const p = makePlan(o);
  assert.equal(p.workersPerRun, 860);
  assert.equal(p.totalRequests, 206_400);
  assert.equal(p.cells.length, 30);
  assert.equal(p.blocks.length, 6);
  assert.match(formatPlan(o, p, 'runs/x'), /860 workers × 40 × 3 repeat\(s\) × 2 mode\(s\) = 206,400/);
});

test('seed-000 theoretical duration: fixed cells 60+93.75+187.5+375+937.5 s, virtual 5 × 60 s, per repeat', () => {
  const o = resolveOptions('seed-000', {});
  const p = makePlan(o);
  const fixed = p.cells.filter((c) => c.mode === 'fixed' && c.repeat === 1).map((c) => c.theoreticalS);
  assert.deepEqual(fixed, [60, 93.75, 187.5, 375, 937.5]);
  const virt = p.cells.filter((c) => c.mode === 'virtual' && c.repeat === 1).map((c) => c.theoreticalS);
  assert.deepEqual(virt, [60, 60, 60, 60, 60]);
  // warm-ups: fixed at 500 = 16 waves × 1.5 s = 24 s per request round -> 1 round (24 s); virtual 20 × 1.5 s = 30 s
  assert.deepEqual(warmupPlan('fixed', o), { workers: 500, requestsPerWorker: 1, theoreticalS: 23.4375 });
  assert.deepEqual(warmupPlan('virtual', o), { workers: 500, requestsPerWorker: 20, theoreticalS: 30 });
  assert.equal(p.theoreticalS, 3 * (1653.75 + 300 + 23.4375 + 30));
});

test('mode order alternates between repeats', () => {
  const p = makePlan(resolveOptions('seed-000', {}));
  assert.deepEqual(p.blocks.map((b) => b.blockId), ['fixed-r1', 'virtual-r1', 'virtual-r2', 'fixed-r2', 'fixed-r3', 'virtual-r3']);
});

test('overrides replace profile fields and the result is frozen', () => {
  const o = resolveOptions('quick', { levels: '100,10', latencyMs: '500', modes: 'virtual', poolSize: '100', requestsPerWorker: '10', repeats: '1', start: 'ramp' });
  assert.deepEqual(o.levels, [10, 100]);
  assert.equal(o.latencyMs, 500);
  assert.deepEqual(o.modes, ['virtual']);
  assert.equal(o.rampMs, 500, 'ramp defaults to one latency');
  assert.ok(Object.isFrozen(o) && Object.isFrozen(o.levels));
});

test('bad input names the option', () => {
  usageError(() => resolveOptions('seed-000', { levels: '10,abc' }), 'levels');
  usageError(() => resolveOptions('seed-000', { levels: '0' }), 'levels');
  usageError(() => resolveOptions('seed-000', { levels: '-5' }), 'levels');
  usageError(() => resolveOptions('seed-000', { levels: '' }), 'levels');
  usageError(() => resolveOptions('seed-000', { modes: 'fixed,green' }), 'modes');
  usageError(() => resolveOptions('seed-000', { requestsPerWorker: '0' }), 'requests-per-worker');
  usageError(() => resolveOptions('seed-000', { latencyMs: '1.5' }), 'latency-ms');
  usageError(() => resolveOptions('seed-000', { start: 'staggered' }), 'start');
  usageError(() => resolveOptions('seed-000', { sutPort: '70000' }), 'sut-port');
  usageError(() => resolveOptions('seed-000', { jvmFlags: 'Xmx512m' }), 'jvm-flags');
  usageError(() => getProfile('nope'), 'profile');
});

test('plans that cannot measure are refused, naming the option', () => {
  usageError(() => resolveOptions('seed-000', { levels: '600', queueCapacity: '100' }), 'queue-capacity');
  usageError(() => resolveOptions('seed-000', { latencyMs: '100000', levels: '500' }), 'latency-ms');
  usageError(() => resolveOptions('seed-000', { levels: '10,,20' }), 'levels');
  assert.throws(() => resolveOptions('seed-000', { rampMs: '-1' }), /is negative/);
  // virtual-only plans have no queue to overflow
  assert.equal(resolveOptions('seed-000', { levels: '600', queueCapacity: '100', modes: 'virtual' }).levels[0], 600);
});
