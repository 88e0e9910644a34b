/**
 * bench/agent.ts's pure part: parsing TaskCostBench's lines and the with/without medians. The input lines
 * are the stdout of real TaskCostBench runs (sut/agent, JDK 25.0.3, 2-core host, 2026-12-02: rounds 1–3 of
 * `npm run bench:agent`), copied verbatim.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatAgentCost } from '../../bench/agent.ts';
import { agentCostPerRequestNs, agentCostRows, costIsMeasured, handOffsPerRequest, parseTaskCosts } from '../../src/compute/target/agent-cost.ts';

const WITHOUT = [
  '{"executor":"ThreadPoolExecutor(4)","tasks":200000,"nsPerTask":328.3}\n{"executor":"VirtualThreadPerTaskExecutor","tasks":200000,"nsPerTask":1236.0}\n',
  '{"executor":"ThreadPoolExecutor(4)","tasks":200000,"nsPerTask":413.0}\n{"executor":"VirtualThreadPerTaskExecutor","tasks":200000,"nsPerTask":4080.5}\n',
  '{"executor":"ThreadPoolExecutor(4)","tasks":200000,"nsPerTask":353.1}\n{"executor":"VirtualThreadPerTaskExecutor","tasks":200000,"nsPerTask":1270.0}\n',
];
const WITH = [
  'vtbench-agent: side channel on http://127.0.0.1:40000\n{"executor":"ThreadPoolExecutor(4)","tasks":200000,"nsPerTask":709.7}\n{"executor":"VirtualThreadPerTaskExecutor","tasks":200000,"nsPerTask":1501.8}\n',
  '{"executor":"ThreadPoolExecutor(4)","tasks":200000,"nsPerTask":711.6}\n{"executor":"VirtualThreadPerTaskExecutor","tasks":200000,"nsPerTask":726.1}\n',
  '{"executor":"ThreadPoolExecutor(4)","tasks":200000,"nsPerTask":1018.5}\n{"executor":"VirtualThreadPerTaskExecutor","tasks":200000,"nsPerTask":4290.8}\n',
];

test('parseTaskCosts reads the JSON lines and skips the rest', () => {
  const c = parseTaskCosts(WITH[0] ?? '');
  assert.deepEqual(c, [
    { executor: 'ThreadPoolExecutor(4)', tasks: 200000, nsPerTask: 709.7 },
    { executor: 'VirtualThreadPerTaskExecutor', tasks: 200000, nsPerTask: 1501.8 },
  ]);
  assert.throws(() => parseTaskCosts('{"executor":"x"}'), /not a TaskCostBench line/);
});

test('agentCostRows: medians over rounds, added = with − without, ratio = with / without', () => {
  const rows = agentCostRows(WITHOUT.map(parseTaskCosts), WITH.map(parseTaskCosts));
  assert.equal(rows.length, 2);
  const [tpe, vt] = rows;
  assert.equal(tpe?.executor, 'ThreadPoolExecutor(4)');
  assert.equal(tpe?.withoutNs, 353.1); // median of 328.3, 413, 353.1
  assert.equal(tpe?.withNs, 711.6); // median of 709.7, 711.6, 1018.5
  assert.ok(Math.abs((tpe?.addedNs ?? 0) - 358.5) < 1e-9);
  assert.ok(Math.abs((tpe?.ratio ?? 0) - 711.6 / 353.1) < 1e-12);
  assert.deepEqual(tpe?.withoutRange, [328.3, 413]);
  assert.equal(vt?.withoutNs, 1270);
  assert.equal(vt?.withNs, 1501.8);
  assert.deepEqual(vt?.withRange, [726.1, 4290.8]);
  const text = formatAgentCost(rows);
  assert.match(text, /ThreadPoolExecutor\(4\)\s+353\.1\s+711\.6\s+358\.5\s+2\.02/);
});

test('agentCostRows names the round that lacks an executor', () => {
  const broken = [parseTaskCosts('{"executor":"ThreadPoolExecutor(4)","tasks":1,"nsPerTask":1}')];
  assert.throws(() => agentCostRows(WITHOUT.slice(0, 1).map(parseTaskCosts), broken), /round 1 with the agent has no line for VirtualThreadPerTaskExecutor/);
});

test('costIsMeasured: only when every round with the agent is slower than every round without it', () => {
  const [tpe, vt] = agentCostRows(WITHOUT.map(parseTaskCosts), WITH.map(parseTaskCosts));
  assert.equal(costIsMeasured(tpe!), true); // 709.7 > 413
  assert.equal(costIsMeasured(vt!), false); // 726.1 < 4080.5: inside the noise
  // the same thread-pool rounds, one with-agent round as fast as the slowest without: no longer measured
  const overlap = agentCostRows(WITHOUT.map(parseTaskCosts), WITH.map(parseTaskCosts).map((r, i) => (i === 1 ? r.map((c) => ({ ...c, nsPerTask: 413 })) : r)));
  assert.equal(costIsMeasured(overlap[0]!), false);
});

test('agentCostPerRequestNs: hand-offs × the largest measured added cost; null when none is measured', () => {
  const rows = agentCostRows(WITHOUT.map(parseTaskCosts), WITH.map(parseTaskCosts));
  assert.ok(Math.abs((agentCostPerRequestNs(rows, 2) ?? 0) - 2 * 358.5) < 1e-9); // the VT row (+231.8) is noise, not counted
  assert.equal(agentCostPerRequestNs(rows, 0), 0);
  assert.equal(agentCostPerRequestNs(rows.filter((r) => !costIsMeasured(r)), 1), null);
});

test('handOffsPerRequest: the web-server task plus the executor tasks per matched request, the most of any cell', () => {
  assert.equal(handOffsPerRequest([]), null);
  assert.equal(handOffsPerRequest([{ matched: 0, byExecutor: { a: { tasks: 3 } } }]), null);
  assert.equal(handOffsPerRequest([{ matched: 10, byExecutor: {} }]), 1);
  assert.equal(handOffsPerRequest([{ matched: 10, byExecutor: { a: { tasks: 10 }, b: { tasks: 5 } } }, { matched: 4, byExecutor: { a: { tasks: 4 } } }]), 2.5);
});
