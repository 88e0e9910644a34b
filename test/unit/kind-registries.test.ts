/**
 * The kind registries the plan, the pipeline and the report ask instead of testing kind names
 * (issue 30 item 2): each driver's declared traits, kept through sharding, and which executor
 * kinds have a pool (which turns on --pool-size, the queue-capacity checks and the report's pool
 * lines). A trait changed by mistake changes what every study plans and reports.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DRIVERS, withShards } from '../../src/load/driver.ts';
import { withPodShard } from '../../src/pipeline/pod-shard.ts';
import { EXECUTOR_KIND_INFO, executorInfo, type ExecutorSpec } from '../../src/types/variant.ts';

test('each driver kind declares what one level is, whether a block runs its alone probe, and whether it calls the SUT\'s control endpoints', () => {
  const traits = Object.fromEntries(Object.entries(DRIVERS).map(([k, d]) => [k, { kind: d.kind, level: d.level, aloneProbe: d.aloneProbe, controlCalls: d.controlCalls }]));
  assert.deepEqual(traits, {
    'closed-loop-http': { kind: 'closed-loop-http', level: 'workers', aloneProbe: true, controlCalls: false },
    'open-loop-http': { kind: 'open-loop-http', level: 'rate', aloneProbe: false, controlCalls: false },
    'in-process': { kind: 'in-process', level: 'job', aloneProbe: false, controlCalls: true },
    websocket: { kind: 'websocket', level: 'connections', aloneProbe: false, controlCalls: false },
  });
});

test('a sharded driver (--shards K on one host, a pod of a multi-host run) keeps the traits of the driver it shards', () => {
  const base = DRIVERS['closed-loop-http'];
  const pod = { index: 0, of: 2, barrier: {} as never, syncTimeoutMs: 1000 };
  for (const d of [withShards(base, 2), withPodShard(base, pod)]) {
    assert.deepEqual([d.kind, d.level, d.aloneProbe, d.controlCalls], [base.kind, base.level, base.aloneProbe, base.controlCalls]);
  }
});

test('only the platform pool has a pool; --pool-size/--queue-capacity replace its threads and queue, and leave the other kinds as they are', () => {
  const pool: ExecutorSpec = { kind: 'platform-pool', threads: 32, queueCapacity: 100 };
  const vt: ExecutorSpec = { kind: 'virtual-per-task' };
  const boot: ExecutorSpec = { kind: 'spring-boot-auto', virtualThreads: false, asyncCoreThreads: 8, tomcatMaxThreads: 200 };
  assert.deepEqual(executorInfo(pool).pool(pool), { threads: 32, queueCapacity: 100 });
  assert.equal(executorInfo(vt).pool(vt), null);
  assert.equal(executorInfo(boot).pool(boot), null);
  assert.deepEqual(executorInfo(pool).withPool(pool, { threads: 3, queueCapacity: 7 }), { kind: 'platform-pool', threads: 3, queueCapacity: 7 });
  assert.deepEqual(executorInfo(vt).withPool(vt, { threads: 3, queueCapacity: 7 }), vt);
  assert.deepEqual(Object.keys(EXECUTOR_KIND_INFO).sort(), ['platform-pool', 'spring-boot-auto', 'virtual-per-task']);
  assert.deepEqual([executorInfo(pool).tasksOnVirtualThreads, executorInfo(vt).tasksOnVirtualThreads], [false, true]);
  assert.deepEqual([executorInfo(pool).threadLimit(pool), executorInfo(vt).threadLimit(vt)], [32, null]);
});
