/**
 * The report's pinned-event evidence: reasons grouped by kind (class names replaced), and whether
 * the counts were read after JFR delivered them. On variations of the fixture run built in memory.
 */
import { loadRun } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { buildModel } from '../../src/report/model.ts';
import { FIXTURE_DIR, fixtureVariant as variant, reportMarkdown as md } from '../fixtures/report-helpers.ts';

// reason texts as Temurin 25.0.3 wrote them for this SUT (bench.pinning=class-init) and a JFR experiment
const CLINIT_A = 'VM call to dev.vtbench.sut.BlockingInitializer/0x0000000013a2dc00.<clinit> on stack';
const CLINIT_B = 'VM call to dev.vtbench.sut.BlockingInitializer/0x0000000013b10000.<clinit> on stack';
const WAITED = 'Waited for initialization of PinExp$Slow by another thread';

test('pinned reasons are grouped by kind per mode, raw texts kept in the model', async () => {
  const run = await variant((cells) => {
    for (const c of cells) if (c.pinned) c.pinned = { ...c.pinned, total: 0, byReason: {} };
    const [a, b] = cells.filter((c) => c.variant === 'virtual');
    a!.pinned = { thresholdMs: 20, total: 3, byReason: { [CLINIT_A]: 2, [WAITED]: 1 }, submitFailed: 0 };
    b!.pinned = { thresholdMs: 20, total: 1, byReason: { [CLINIT_B]: 1 }, submitFailed: 0 };
  });
  const m = buildModel(run);
  assert.deepEqual(m.pinningReasons, [
    { variant: 'virtual', kind: 'VM call to <class>.<clinit> on stack', count: 3, reasons: [CLINIT_A, CLINIT_B] },
    { variant: 'virtual', kind: 'Waited for initialization of <class> by another thread', count: 1, reasons: [WAITED] },
  ]);
  const doc = await md(run);
  assert.match(doc, /\| Virtual threads \| VM call to \\<class\\>\.\\<clinit\\> on stack \| 3 \|/);
  assert.ok(!doc.includes('0x0000000013a2dc00'), 'class names are not printed one row each');
});

test('the report says whether the pinned counts were read after JFR delivered them', async () => {
  // the fixture is a run of this version: every count read after JFR's delivery
  const doc = await md(await loadRun(FIXTURE_DIR));
  assert.match(doc, /Every count was read after the SUT's JFR stream had delivered all events committed before the read/);
  assert.ok(!/without waiting for JFR/.test(doc));
  // runs before the fix carry no `flushed`
  const legacy = await variant((cells) => { for (const c of cells) if (c.pinned) { const { flushed: _f, ...rest } = c.pinned; void _f; c.pinned = rest; } });
  assert.match(await md(legacy), /12 of 12 cells read their counts without waiting for JFR to deliver them/);
  const oneTimedOut = await variant((cells) => {
    for (const c of cells) if (c.pinned) c.pinned = { ...c.pinned, flushed: true };
    const c = cells.find((x) => x.pinned !== null)!;
    c.pinned = { ...c.pinned!, flushed: false };
  });
  assert.match(await md(oneTimedOut), /1 of 12 cells read their counts without waiting/);
});
