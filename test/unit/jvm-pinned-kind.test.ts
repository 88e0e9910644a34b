import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupPinnedReasons, pinnedReasonKind } from '../../src/compute/analysis/pinned-kind.ts';

// Reason texts as Temurin 25.0.3 wrote them (seen in this repository's SUT and a JFR experiment).
const CLINIT_HIDDEN = 'VM call to dev.vtbench.sut.BlockingInitializer/0x000000004504b000.<clinit> on stack';
// the same hidden class since the SUT's classes are in packages by role (runs before carry the name above)
const CLINIT_HIDDEN_PKG = 'VM call to dev.vtbench.sut.scenarios.llm.BlockingInitializer/0x000000004504b000.<clinit> on stack';
const CLINIT_NESTED = 'VM call to PinExp$Slow.<clinit> on stack';
const WAITED = 'Waited for initialization of PinExp$Slow by another thread';
const WAITED_OTHER = 'Waited for initialization of com.openai.models.chat.completions.ChatCompletion by another thread';

test('pinnedReasonKind replaces the class name in the two class-initialisation reasons', () => {
  assert.equal(pinnedReasonKind(CLINIT_HIDDEN), 'VM call to <class>.<clinit> on stack');
  assert.equal(pinnedReasonKind(CLINIT_HIDDEN_PKG), 'VM call to <class>.<clinit> on stack');
  assert.equal(pinnedReasonKind(CLINIT_NESTED), 'VM call to <class>.<clinit> on stack');
  assert.equal(pinnedReasonKind(WAITED), 'Waited for initialization of <class> by another thread');
  assert.equal(pinnedReasonKind(WAITED_OTHER), 'Waited for initialization of <class> by another thread');
});

test('pinnedReasonKind keeps reasons that name no class, and calls an empty one unknown', () => {
  assert.equal(pinnedReasonKind('Native or VM frame on stack'), 'Native or VM frame on stack');
  assert.equal(pinnedReasonKind('Freeze or preempt failed (2)'), 'Freeze or preempt failed (2)');
  assert.equal(pinnedReasonKind('Monitor held'), 'Monitor held');
  assert.equal(pinnedReasonKind('unknown'), 'unknown');
  assert.equal(pinnedReasonKind('  '), 'unknown');
  // a text that only looks similar is not rewritten
  assert.equal(pinnedReasonKind('VM call to a b.<clinit> on stack'), 'VM call to a b.<clinit> on stack');
});

test('groupPinnedReasons sums raw reasons per kind, most events first, and keeps the raw texts', () => {
  const groups = groupPinnedReasons({ [CLINIT_HIDDEN]: 3, [CLINIT_NESTED]: 1, [WAITED]: 7, [WAITED_OTHER]: 1, 'Native or VM frame on stack': 2, 'Monitor held': 0 });
  assert.deepEqual(groups, [
    { kind: 'Waited for initialization of <class> by another thread', count: 8, reasons: [WAITED, WAITED_OTHER] },
    { kind: 'VM call to <class>.<clinit> on stack', count: 4, reasons: [CLINIT_NESTED, CLINIT_HIDDEN] },
    { kind: 'Native or VM frame on stack', count: 2, reasons: ['Native or VM frame on stack'] },
  ]);
  assert.deepEqual(groupPinnedReasons({}), []);
});
