import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveOptions, getProfile } from '../../src/plan/profiles.ts';
import { makePlan, formatPlan, warmupPlan, warmupSendUntilMs } from '../../src/plan/plan.ts';
import type { ExecutorSpec, Study } from '../../src/types/study.ts';
import { TOY_STUDY } from '../fixtures/toy-study/study.ts';
import { studyProblems } from '../../src/plan/study-check.ts';
import { STUDIES } from '../../src/studies/index.ts';
import { STUDY_000 as S000 } from '../../src/studies/000/index.ts';
import { VtbenchError, EXIT } from '../../src/types/errors.ts';

function usageError(fn: () => unknown, flag: string): void {
  assert.throws(fn, (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && e.message.includes(`--${flag}`));
}

test('seed-000 plan has the study arithmetic: 860 workers × 40 × 3 × 2 = 206,400 requests', () => {
  const o = resolveOptions(S000, 'seed-000', {});
  const p = makePlan(o, S000);
  assert.equal(p.workersPerRun, 860);
  assert.equal(p.totalRequests, 206_400);
  assert.equal(p.cells.length, 30);
  assert.equal(p.blocks.length, 6);
  assert.match(formatPlan(o, p, 'runs/x'), /860 workers × 40 × 3 repeat\(s\) × 2 variant\(s\) = 206,400/);
});

test('seed-000 theoretical duration: fixed cells 60+93.75+187.5+375+937.5 s, virtual 5 × 60 s, per repeat', () => {
  const o = resolveOptions(S000, 'seed-000', {});
  const p = makePlan(o, S000);
  const fixed = p.cells.filter((c) => c.variant === 'fixed' && c.repeat === 1).map((c) => c.theoreticalS);
  assert.deepEqual(fixed, [60, 93.75, 187.5, 375, 937.5]);
  const virt = p.cells.filter((c) => c.variant === 'virtual' && c.repeat === 1).map((c) => c.theoreticalS);
  assert.deepEqual(virt, [60, 60, 60, 60, 60]);
  // warm-ups: fixed at 500 = 16 waves × 1.5 s = 24 s per request round -> 1 round (24 s); virtual 20 × 1.5 s = 30 s
  const pool: ExecutorSpec = { kind: 'platform-pool', threads: 32, queueCapacity: 10000 };
  assert.deepEqual(warmupPlan(pool, o, 1500), { workers: 500, requestsPerWorker: 1, theoreticalS: 23.4375 });
  assert.deepEqual(warmupPlan({ kind: 'virtual-per-task' }, o, 1500), { workers: 500, requestsPerWorker: 20, theoreticalS: 30 });
  assert.deepEqual(p.blocks.map((b) => b.warmup), [1, 2, 3].flatMap((r) => (r % 2 === 1 ? [23.4375, 30] : [30, 23.4375])).map((t) => ({ workers: 500, requestsPerWorker: t === 30 ? 20 : 1, theoreticalS: t })));
  assert.equal(p.theoreticalS, 3 * (1653.75 + 300 + 23.4375 + 30));
  // the warm-up stops sending after twice its plan (never earlier than 2 × warmupS), after the ramp
  const w = warmupPlan({ kind: 'virtual-per-task' }, o, 1500);
  assert.ok(w);
  assert.equal(warmupSendUntilMs(w, o), (o.start === 'ramp' ? o.rampMs : 0) + 60_000);
  assert.equal(warmupSendUntilMs({ workers: 5, requestsPerWorker: 1, theoreticalS: 0.1 }, { warmupS: 5, start: 'ramp', rampMs: 1000 }), 11_000);
});

test('variant order alternates between repeats', () => {
  const p = makePlan(resolveOptions(S000, 'seed-000', {}), S000);
  assert.deepEqual(p.blocks.map((b) => b.blockId), ['fixed-r1', 'virtual-r1', 'virtual-r2', 'fixed-r2', 'fixed-r3', 'virtual-r3']);
});

test('overrides replace profile fields and the result is frozen', () => {
  const o = resolveOptions(S000, 'quick', { levels: '100,10', latencyMs: '500', variants: 'virtual', requestsPerWorker: '10', repeats: '1', start: 'ramp' });
  assert.deepEqual(o.levels, [10, 100]);
  assert.equal(o.latencyMs, 500);
  assert.deepEqual(o.variants, ['virtual']);
  assert.deepEqual(o.variantSpecs.map((v) => v.id), ['virtual']);
  assert.equal(o.rampMs, 500, 'ramp defaults to one latency');
  assert.ok(Object.isFrozen(o) && Object.isFrozen(o.levels));
});

test('bad input names the option', () => {
  usageError(() => resolveOptions(S000, 'seed-000', { levels: '10,abc' }), 'levels');
  usageError(() => resolveOptions(S000, 'seed-000', { levels: '0' }), 'levels');
  usageError(() => resolveOptions(S000, 'seed-000', { levels: '-5' }), 'levels');
  usageError(() => resolveOptions(S000, 'seed-000', { levels: '' }), 'levels');
  usageError(() => resolveOptions(S000, 'seed-000', { variants: 'fixed,green' }), 'variants');
  usageError(() => resolveOptions(S000, 'seed-000', { requestsPerWorker: '0' }), 'requests-per-worker');
  usageError(() => resolveOptions(S000, 'seed-000', { latencyMs: '1.5' }), 'latency-ms');
  usageError(() => resolveOptions(S000, 'seed-000', { start: 'staggered' }), 'start');
  usageError(() => resolveOptions(S000, 'seed-000', { sutPort: '70000' }), 'sut-port');
  usageError(() => resolveOptions(S000, 'seed-000', { jvmFlags: 'Xmx512m' }), 'jvm-flags');
  usageError(() => getProfile(S000, 'nope'), 'profile');
});

test('plans that cannot measure are refused, naming the option', () => {
  usageError(() => resolveOptions(S000, 'seed-000', { levels: '600', queueCapacity: '100' }), 'queue-capacity');
  usageError(() => resolveOptions(S000, 'seed-000', { latencyMs: '100000', levels: '500' }), 'latency-ms');
  usageError(() => resolveOptions(S000, 'seed-000', { levels: '10,,20' }), 'levels');
  assert.throws(() => resolveOptions(S000, 'seed-000', { rampMs: '-1' }), /is negative/);
  // virtual-only plans have no queue to overflow
  assert.equal(resolveOptions(S000, 'seed-000', { levels: '600', variants: 'virtual' }).levels[0], 600);
});

test('--variants: an unknown id names --variants and lists the study\'s ids; a repeat or an empty list is refused', () => {
  assert.throws(() => resolveOptions(S000, 'seed-000', { variants: 'fixed,green' }), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && /^--variants: unknown variant 'green'/.test(e.message) && e.hint.includes(S000.variants.map((v) => v.id).join(', ')));
  usageError(() => resolveOptions(S000, 'seed-000', { variants: 'virtual,virtual' }), 'variants');
  usageError(() => resolveOptions(S000, 'seed-000', { variants: '' }), 'variants');
  usageError(() => resolveOptions(TOY_STUDY, 'tiny', { variants: 'fixed' }), 'variants');
  assert.deepEqual(resolveOptions(TOY_STUDY, 'tiny', { variants: 'vt,pool-2' }).variants, ['vt', 'pool-2']);
});

test('--scenario is checked against the study; --profile against the study\'s profiles', () => {
  assert.equal(resolveOptions(TOY_STUDY, 'tiny', {}).scenario, 'sleep');
  assert.throws(() => resolveOptions(TOY_STUDY, 'tiny', { scenario: 'llm-chat' }), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && e.message.startsWith('--scenario:') && e.hint.includes('sleep'));
  usageError(() => resolveOptions(TOY_STUDY, 'tiny', { scenario: 'Not An Id' }), 'scenario');
  usageError(() => resolveOptions(TOY_STUDY, 'seed-000', {}), 'profile');
  const o = resolveOptions(TOY_STUDY, 'tiny', {});
  assert.equal(o.study, 'toy');
  assert.equal(o.profile, 'tiny');
});

test('a WebSocket scenario: levels are held connections, up to what the host holds (one descriptor per process, one port), beyond the HTTP limit', () => {
  const ws: Study = { ...TOY_STUDY, scenarios: [{ ...TOY_STUDY.scenarios[0]!, driver: 'websocket' }] };
  const host = { openFiles: 4096, ephemeralPorts: 28232, heapLimitBytes: 4 * 2 ** 30 };
  // an HTTP level of 3,000 would need 6,000 descriptors; a WebSocket one needs 3,000 (+ reserve)
  assert.deepEqual(resolveOptions(ws, 'tiny', { levels: '3000', durationS: '5' }, host).levels, [3000]);
  assert.throws(() => resolveOptions(ws, 'tiny', { levels: '3585', durationS: '5' }, host), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && /^--levels: 3585 is too large: the maximum is 3,584 \(each WebSocket connection/.test(e.message) && /the sweep stops there/.test(e.message));
});

test('hints fit the option: list examples per flag, the study\'s own ids, L worded by the scenario, the cell maximum names --variants', () => {
  const hint = (fn: () => unknown): string => {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof VtbenchError && e.exitCode === EXIT.usage, String(e));
      return `${e.message} | ${e.hint}`;
    }
    assert.fail('not refused');
  };
  const trailing = hint(() => resolveOptions(S000, 'seed-000', { variants: 'fixed,' }));
  assert.match(trailing, /--variants: 'fixed,' has an empty item \| separate items with single commas, e\.g\. --variants <id>,<id>; study 000's variants: fixed, virtual, fixed-100, fixed-500, virtual-bulkhead, virtual-retry, virtual-timeout, virtual-timeout-retry, virtual-dispatcher$/);
  assert.doesNotMatch(trailing, /10,50/);
  assert.match(hint(() => resolveOptions(S000, 'seed-000', { levels: '10,' })), /e\.g\. --levels 10,50$/);
  assert.match(hint(() => resolveOptions(TOY_STUDY, 'tiny', { variants: '' })), /^--variants: no variant given \| .*; study toy's variants: pool-2, vt$/);
  assert.match(hint(() => resolveOptions(TOY_STUDY, 'tiny', { scenario: 'Bad Id' })), /; study toy's scenarios: sleep$/);
  // L of a sleep scenario is worded by the scenario, not as the mock's latency
  const l = hint(() => resolveOptions(TOY_STUDY, 'tiny', { latencyMs: '40000', headersTimeoutMs: '30000' }));
  assert.match(l, /^--latency-ms: scenario sleep \(the executor thread sleeps L ms\): L = 40000 ms per call, not below the 30 s client headers timeout/);
  assert.doesNotMatch(l, /mock/);
  assert.match(hint(() => resolveOptions(S000, 'seed-000', { levels: Array.from({ length: 2000 }, (_, i) => i + 1).join(','), requestsPerWorker: '1', repeats: '3', warmupS: '0', latencyMs: '1' })), /cells; the stated maximum is 10,000 .* \| fewer --levels, --repeats or --variants/);
});

test('--pool-size / --queue-capacity override the threads / queue of every platform-pool variant, and only those', () => {
  const own = resolveOptions(TOY_STUDY, 'tiny', {});
  assert.equal(own.poolSize, null);
  assert.equal(own.queueCapacity, null);
  assert.deepEqual(own.variantSpecs.map((v) => v.executor), TOY_STUDY.variants.map((v) => v.executor));
  const o = resolveOptions(TOY_STUDY, 'tiny', { poolSize: '4', queueCapacity: '7' });
  assert.deepEqual(o.variantSpecs.map((v) => v.executor), [{ kind: 'platform-pool', threads: 4, queueCapacity: 7 }, { kind: 'virtual-per-task' }]);
  assert.equal(o.variantSpecs[0]!.threadNamePrefix, 'toy-pool-');
  // the study's own objects are untouched
  assert.deepEqual(TOY_STUDY.variants[0]!.executor, { kind: 'platform-pool', threads: 2, queueCapacity: 100 });
  // only the threads: the variant's own queue stays
  assert.deepEqual(resolveOptions(TOY_STUDY, 'tiny', { poolSize: '3' }).variantSpecs[0]!.executor, { kind: 'platform-pool', threads: 3, queueCapacity: 100 });
  // the plan's bounds follow the effective executor: 4 threads / 0.2 s = 20 req/s at c = 6
  assert.equal(makePlan(o, TOY_STUDY).cells.find((c) => c.cellId === 'pool-2-c6-r1')!.boundRps, 20);
  // feasibility per platform-pool variant: queue 1 + 2 threads cannot hold 6
  assert.throws(() => resolveOptions(TOY_STUDY, 'tiny', { queueCapacity: '1' }), (e: unknown) => e instanceof VtbenchError && /^--queue-capacity: variant pool-2: queue 1 \+ pool 2 cannot hold 6/.test(e.message));
  assert.equal(resolveOptions(TOY_STUDY, 'tiny', { variants: 'vt' }).variants.length, 1);
});

test('--pool-size / --queue-capacity are refused when no selected variant is a platform pool, or when two or more are', () => {
  assert.throws(() => resolveOptions(S000, 'quick', { variants: 'virtual', poolSize: '100' }), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage
    && e.message === '--pool-size: none of the selected variants (virtual) is a platform pool' && e.hint === 'drop --pool-size');
  assert.throws(() => resolveOptions(TOY_STUDY, 'tiny', { variants: 'vt', queueCapacity: '1' }), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage
    && /^--queue-capacity: none of the selected variants \(vt\)/.test(e.message));
  const twoPools: Study = {
    ...TOY_STUDY,
    id: 'two-pools',
    variants: [{ ...TOY_STUDY.variants[0]!, id: 'pool-200' }, { ...TOY_STUDY.variants[0]!, id: 'pool-500', threadNamePrefix: 'p500-' }, TOY_STUDY.variants[1]!],
    comparisons: [{ baseline: 'pool-200', candidate: 'vt' }],
    published: [],
    profiles: [{ ...TOY_STUDY.profiles[0]!, values: { ...TOY_STUDY.profiles[0]!.values, variants: ['pool-200', 'pool-500', 'vt'] } }],
  };
  assert.throws(() => resolveOptions(twoPools, 'tiny', { poolSize: '4' }), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage
    && e.message === '--pool-size: would give pool-200 and pool-500 the same size' && /select one of them with --variants/.test(e.hint));
  // one pool selected: the override applies to it
  assert.deepEqual(resolveOptions(twoPools, 'tiny', { poolSize: '4', variants: 'pool-500,vt' }).variantSpecs[0]!.executor, { kind: 'platform-pool', threads: 4, queueCapacity: 100 });
  // no flag: a profile's own poolSize with no pool selected is not an error of the user's
  assert.deepEqual(resolveOptions(S000, 'smoke', { variants: 'virtual' }).variants, ['virtual']);
});

test('a 3-variant study: cell ids and blocks per variant id, the order alternating between repeats, bounds from each executor', () => {
  const three: Study = {
    ...TOY_STUDY,
    id: 'three',
    variants: [...TOY_STUDY.variants, { id: 'pool-8', label: 'pool of 8', executor: { kind: 'platform-pool', threads: 8, queueCapacity: 100 }, threadNamePrefix: 'p8-' }],
    profiles: [{ ...TOY_STUDY.profiles[0]!, values: { ...TOY_STUDY.profiles[0]!.values, variants: ['pool-2', 'vt', 'pool-8'], repeats: 2 } }],
  };
  const o = resolveOptions(three, 'tiny', {});
  const p = makePlan(o, three);
  assert.deepEqual(p.blocks.map((b) => b.blockId), ['pool-2-r1', 'vt-r1', 'pool-8-r1', 'pool-8-r2', 'vt-r2', 'pool-2-r2']);
  assert.deepEqual(p.cells.filter((c) => c.repeat === 1).map((c) => c.cellId), ['pool-2-c2-r1', 'pool-2-c6-r1', 'vt-c2-r1', 'vt-c6-r1', 'pool-8-c2-r1', 'pool-8-c6-r1']);
  assert.deepEqual(p.cells.filter((c) => c.repeat === 1).map((c) => c.boundRps), [10, 10, 10, 30, 10, 30]);
  assert.equal(p.cells.length, 12);
  assert.equal(p.totalRequests, 3 * 2 * (2 + 6) * 2);
  const text = formatPlan(o, p, 'runs/x');
  assert.match(text, /variants: pool-2 \(platform pool 2 threads, queue 100\); vt \(virtual thread per task\); pool-8 \(platform pool 8 threads, queue 100\)/);
  assert.match(text, /× 3 variant\(s\)/);
});

test('study definitions are checked before use: slugs, unique ids, executors, comparisons, reserved SUT properties', () => {
  for (const st of [...STUDIES, TOY_STUDY]) assert.deepEqual(studyProblems(st), [], st.id);
  const v0 = TOY_STUDY.variants[0]!;
  const bad: Study = {
    ...TOY_STUDY,
    variants: [
      { ...v0, id: 'Pool 2' },
      { ...v0, executor: { kind: 'platform-pool', threads: 0, queueCapacity: -1 }, sutProperties: { 'bench.executor.threads': '9' } },
      v0,
    ],
    comparisons: [{ baseline: 'pool-2', candidate: 'nope' }],
  };
  assert.deepEqual(studyProblems(bad), [
    "variant id 'Pool 2' is not a slug (a-z, 0-9, -)",
    'variant pool-2: threads 0 is not a whole number >= 1',
    'variant pool-2: queueCapacity -1 is not a whole number >= 0',
    'variant pool-2: sutProperties set bench.executor.threads, which the harness sets from the executor and the options',
    "variant id 'pool-2' twice",
    "comparison pool-2 -> nope: no variant 'nope'",
    "profile tiny: variants name 'vt', which is not a variant of the study (known: Pool 2, pool-2)",
  ]);
  assert.throws(() => resolveOptions(bad, 'tiny', {}), /^Error: study toy: variant id 'Pool 2'/);
});

test('study definitions: profile names are slugs, a profile names only the study\'s variants and scenarios, published rows name them too and have unique ids', () => {
  const p0 = TOY_STUDY.profiles[0]!;
  const row = TOY_STUDY.published[0]!;
  const bad: Study = {
    ...TOY_STUDY,
    variants: [...TOY_STUDY.variants, { ...TOY_STUDY.variants[0]!, id: 'pool-8', threadNamePrefix: 'p8-' }],
    profiles: [
      { ...p0, name: 'Tiny Run', values: { ...p0.values, variants: ['pool-2', 'nope'], scenario: 'cpu' } },
      { ...p0, name: 'v1.2', values: { ...p0.values, variants: ['pool-2', 'pool-8'], poolSize: 4 } },
    ],
    published: [row, { ...row, variant: 'nope' }, { ...row, id: 'x', scenario: 'cpu', variant: null }],
  };
  assert.deepEqual(studyProblems(bad), [
    "profile name 'Tiny Run' is not a slug (a-z, 0-9, '.', '-'; it goes into run ids and folder names)",
    "profile Tiny Run: variants name 'nope', which is not a variant of the study (known: pool-2, vt, pool-8)",
    "profile Tiny Run: scenario 'cpu' is not a scenario of the study (known: sleep)",
    'profile v1.2: poolSize 4 would give pool-2, pool-8 the same value',
    "published row pool-2.throughputRps.6: no variant 'nope'",
    "published row x: no scenario 'cpu'",
    "published row id 'pool-2.throughputRps.6' twice",
  ]);
  // the study and the profile are named, not --variants
  assert.throws(() => resolveOptions(bad, 'v1.2', {}), (e: unknown) => e instanceof Error && !(e instanceof VtbenchError) && /^study toy: .*profile Tiny Run: variants name 'nope'/.test(e.message));
});

test('a plan whose variants bring their own scenarios (study 002) does not name the run default scenario in its header', () => {
  const s002 = STUDIES.find((s) => s.id === '002')!;
  const o = resolveOptions(s002, 'quick', { variants: 'cpu-pool-200,cpu-virtual', levels: '30' });
  const text = formatPlan(o, makePlan(o, s002), 'runs/x');
  assert.match(text, /^vtbench plan — study 002, profile quick, each variant its own scenario$/m);
  assert.doesNotMatch(text.split('\n')[0]!, new RegExp(`scenario ${o.scenario}`));
  assert.match(text, /scenario cpu-fib: L /);
});
