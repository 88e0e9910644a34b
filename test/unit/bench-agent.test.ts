/**
 * bench/agent.ts's pure part: parsing TaskCostBench's lines and the with/without medians. The input lines
 * are the stdout of real TaskCostBench runs (sut/agent, JDK 25.0.3, 2-core host, 2026-12-02: rounds 1–3 of
 * `npm run bench:agent`), copied verbatim.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentCostRows, formatAgentCost, parseTaskCosts } from '../../bench/agent.ts';

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
