import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentCellSummary, requestIdOf } from '../../src/compute/target/agent.ts';
import type { RequestRecord } from '../../src/types/load.ts';
import type { AgentRecord } from '../../src/types/target.ts';

const rec = (worker: number, seq: number) => ({ worker, seq }) as RequestRecord;
const agent = (id: string, waitNs: number): AgentRecord => ({ id, webWaitNs: 1000, serviceNs: 2_000_000, tasks: [{ executor: 'java.util.concurrent.ThreadPoolExecutor', waitNs, runNs: 1_000_000 }] });

test('requestIdOf: closed loop <prefix><worker>-<seq>, open loop <prefix>o-<seq>; no prefix for cells measured before it', () => {
  assert.equal(requestIdOf(rec(3, 7)), '3-7');
  assert.equal(requestIdOf(rec(0, 7), 'open-loop'), 'o-7');
  assert.equal(requestIdOf(rec(3, 7), 'closed-loop', 'fixed-c100-r1.'), 'fixed-c100-r1.3-7');
  assert.equal(requestIdOf(rec(0, 7), 'open-loop', 'fixed-rate20-r1.'), 'fixed-rate20-r1.o-7');
});

test('agentCellSummary with a prefix: a late record of the previous cell (same worker and seq) is not taken for this cell', () => {
  const sent = [rec(0, 0), rec(0, 1), rec(1, 0)];
  const recs = [
    agent('fixed-c2-r1.0-0', 5_000_000), // the previous cell's request 0-0, answered after that cell's drain
    agent('fixed-c4-r1.0-0', 1_000_000),
    agent('fixed-c4-r1.0-1', 1_000_000),
    agent('fixed-c4-r1.1-0', 1_000_000),
    agent('w0-0', 9_000_000), // warm-up
  ];
  const s = agentCellSummary(recs, sent, 'closed-loop', 'fixed-c4-r1.');
  assert.equal(s.matched, 3);
  assert.equal(s.byExecutor['java.util.concurrent.ThreadPoolExecutor']!.waitMs!.max, 1);
  // without the prefix (how cells were matched before it) the ids of two cells are the same: nothing of this cell matches
  assert.equal(agentCellSummary(recs, sent, 'closed-loop').matched, 0);
  // a stored cell without a prefix still matches its plain ids
  assert.equal(agentCellSummary([agent('0-0', 1), agent('1-0', 1)], sent).matched, 2);
});
