/**
 * bench/target-agreement.ts's pure part: the per-request join of the agent's executor wait with the
 * SUT's own Server-Timing queue wait, and the relative difference.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffPct, waitDifferencesMs } from '../../bench/target-agreement.ts';

test('waitDifferencesMs joins by request id, skips Tomcat\'s task and requests the other side lacks', () => {
  const queue = new Map<string, number | null>([['0-0', 2.5], ['0-1', null], ['1-0', 10]]);
  const d = waitDifferencesMs(queue, [
    { id: '0-0', webWaitNs: 1000, serviceNs: 5e6, tasks: [{ executor: 'org.apache.tomcat.util.threads.ThreadPoolExecutor', waitNs: 9e6, runNs: 1 }, { executor: 'java.util.concurrent.ThreadPoolExecutor', waitNs: 2.6e6, runNs: 1e6 }] },
    { id: '0-1', webWaitNs: 1000, serviceNs: 5e6, tasks: [{ executor: 'java.util.concurrent.ThreadPoolExecutor', waitNs: 1e6, runNs: 1 }] }, // no own queue wait
    { id: '1-0', webWaitNs: 1000, serviceNs: 5e6, tasks: [] }, // no hand-off
    { id: 'w0-0', webWaitNs: 1000, serviceNs: 5e6, tasks: [{ executor: 'java.util.concurrent.ThreadPerTaskExecutor', waitNs: 1, runNs: 1 }] }, // warm-up id
  ]);
  assert.equal(d.diffs.length, 1);
  assert.ok(Math.abs(d.diffs[0]! - 0.1) < 1e-9);
  assert.deepEqual(d.executors, ['java.util.concurrent.ThreadPoolExecutor']);
});

test('diffPct: relative to the second value, null when it cannot be computed', () => {
  assert.equal(diffPct(102, 100), 2);
  assert.ok(Math.abs(diffPct(98, 100)! + 2) < 1e-12);
  assert.equal(diffPct(null, 100), null);
  assert.equal(diffPct(1, 0), null);
});
