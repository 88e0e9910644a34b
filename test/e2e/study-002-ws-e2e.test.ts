/**
 * Study 002 scenario 5 end to end (issue 13): the `smoke` profile's WebSocket arm (`--variants
 * ws-virtual`: 5 connections held 3 s) through the real entry point, the real SUT jar (Maven builds
 * it when its sources changed) and the websocket driver; the cell's files validate, the messages are
 * stored per message, the pushes ran on the variant's virtual threads, and the report renders the
 * scenario's tables. Needs a JDK; under a minute after the build. Run it under the heavy lock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STUDY_002 } from '../../src/studies/002/index.ts';
import { runStudyE2e } from '../fixtures/e2e-run.ts';

test('study 002 smoke, scenario 5: 5 WebSocket connections held 3 s on virtual threads, every message stored, report written', { timeout: 400_000 }, async (t) => {
  const { reportDir, id, store, manifest: m } = await runStudyE2e(t, STUDY_002, 'vtbench-002ws-', ['--profile', 'smoke', '--variants', 'ws-virtual']);
  assert.deepEqual(m.cellOrder, ['ws-virtual-c5-r1']);
  assert.deepEqual(store.checkCell('ws-virtual-c5-r1'), [], 'the cell validates against schema/');
  const [cell] = store.readDoneCells(m.cellOrder);
  const w = cell!.load.websocket!;
  assert.equal(w.connections, 5);
  assert.equal(w.opened, 5);
  assert.equal(w.holdS, 3);
  assert.equal(w.workMs, 10);
  assert.equal(w.intervalMs, 1000);
  assert.equal(w.messagesExpected, 15);
  assert.ok(w.messagesInWindow >= 14, JSON.stringify(w));
  assert.ok(w.latenessMs !== null && w.latenessMs.min >= 9, `lateness includes the 10 ms of work: ${JSON.stringify(w.latenessMs)}`);
  assert.deepEqual(Object.keys(w.byThreadPrefix), ['vt-'], 'pushes ran on the variant\'s virtual threads');
  assert.equal(w.server?.sessionsOpened, 5);
  assert.equal(w.server?.closesByCause['client-1000'], 5);
  assert.ok((w.server?.messagesSent ?? 0) >= w.messagesReceived);
  const req = store.readRequests('ws-virtual-c5-r1');
  assert.equal(req.e2eMs.length, 5, 'the requests are the 5 handshakes');
  assert.equal(req.ws?.messages.seq.length, w.messagesReceived);
  assert.ok(cell!.samples.some((s) => s.wsSessionsOpen === 5), 'the samples carry the open sessions');
  const md = readFileSync(join(reportDir, id, 'report.md'), 'utf8');
  assert.match(md, /Scenario 5: held WebSocket connections/);
  assert.match(md, /\| virtual \| 5 \| 5 \|/);
  assert.ok(cell!.samples.some((s) => s.tEpochMs > cell!.t0EpochMs + w.windowEndMs - 500), "samples through the window (not cut at the handshakes)");
  assert.doesNotMatch(md, /\{\{|\}\}/);
});
