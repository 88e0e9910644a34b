/**
 * bench/target-agreement.ts's pure part: the per-request join of the agent's executor wait with the
 * SUT's own Server-Timing queue wait, and the relative difference.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffPct, waitDifferencesMs } from '../../bench/target-agreement.ts';

test('waitDifferencesMs joins by request id on the first hand-off (the SUT\'s, before Tomcat\'s async dispatch); skips requests the other side lacks', () => {
  // executor names as the agent writes them: simple class names (Tomcat's pool is a ThreadPoolExecutor too)
  const queue = new Map<string, number | null>([['0-0', 2.5], ['0-1', null], ['1-0', 10]]);
  const d = waitDifferencesMs(queue, [
    { id: '0-0', webWaitNs: 1000, serviceNs: 5e6, tasks: [{ executor: 'ThreadPoolExecutor', waitNs: 2.6e6, runNs: 1e6 }, { executor: 'ThreadPoolExecutor', waitNs: 9e6, runNs: 1 }] },
    { id: '0-1', webWaitNs: 1000, serviceNs: 5e6, tasks: [{ executor: 'ThreadPoolExecutor', waitNs: 1e6, runNs: 1 }] }, // no own queue wait
    { id: '1-0', webWaitNs: 1000, serviceNs: 5e6, tasks: [] }, // no hand-off
    { id: 'w0-0', webWaitNs: 1000, serviceNs: 5e6, tasks: [{ executor: 'ThreadPerTaskExecutor', waitNs: 1, runNs: 1 }] }, // warm-up id
  ]);
  assert.equal(d.diffs.length, 1);
  assert.ok(Math.abs(d.diffs[0]! - 0.1) < 1e-9, 'the first hand-off (2.6 ms against 2.5 ms), not the second (9 ms)');
  assert.deepEqual(d.executors, ['ThreadPoolExecutor']);
});

test('diffPct: relative to the second value, null when it cannot be computed', () => {
  assert.equal(diffPct(102, 100), 2);
  assert.ok(Math.abs(diffPct(98, 100)! + 2) < 1e-12);
  assert.equal(diffPct(null, 100), null);
  assert.equal(diffPct(1, 0), null);
});
