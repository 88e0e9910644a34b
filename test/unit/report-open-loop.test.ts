/**
 * The open-loop report section from a real run: the committed `open-loop-quick` run of study 000
 * (runs/20261201-050041-000-open-loop-quick, measured with this branch's driver) renders the section
 * and its chart in both languages, and its fixed-pool cells above N/L show a queue slope within 10 %
 * of λ − N/L (issue 17's acceptance); the committed closed-loop run renders no such section.
 */
import { loadRun, loadTemplates } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

import { buildReport } from '../../src/report/index.ts';
import { buildModel } from '../../src/report/model.ts';
import { STUDY_000 } from '../../src/studies/000/index.ts';

const OPEN = fileURLToPath(new URL('../../runs/20261201-050041-000-open-loop-quick/', import.meta.url));
const SEED = fileURLToPath(new URL('../../runs/20261130-100102-seed-000/', import.meta.url));

test('open-loop run: per-cell model with every scheduled request accounted for and the queue slope within 10 % of λ − N/L above N/L', async () => {
  const model = buildModel(await loadRun(OPEN));
  const ol = model.openLoop!;
  assert.deepEqual(ol.map((c) => c.cellId), ['fixed-rate15-r1', 'fixed-rate25-r1', 'fixed-rate50-r1', 'virtual-rate15-r1', 'virtual-rate25-r1', 'virtual-rate50-r1']);
  for (const c of ol) {
    assert.equal(c.sent + c.refused, c.scheduled, c.cellId);
    assert.equal(c.scheduled, c.targetRatePerS * c.durationS, c.cellId);
    // latency from the intended send is never below latency from the actual send
    assert.ok(c.e2eFromIntendedMs!.p50 >= c.e2eFromSendMs!.p50, c.cellId);
  }
  const above = ol.filter((c) => c.executor.kind === 'platform-pool' && c.capacityRps !== null && c.targetRatePerS > c.capacityRps);
  assert.deepEqual(above.map((c) => c.targetRatePerS), [25, 50]);
  for (const c of above) {
    assert.ok(c.slopeRatio !== null && Math.abs(c.slopeRatio - 1) <= 0.1, `${c.cellId}: measured ${c.fit.slopePerS} vs theory ${c.theorySlopePerS}`);
  }
  // below N/L (and for virtual threads) the queue stays flat: |slope| < 0.5 task/s
  for (const c of ol.filter((x) => !above.includes(x))) {
    assert.equal(c.theorySlopePerS, 0);
    assert.equal(c.slopeRatio, null);
    assert.ok(Math.abs(c.fit.slopePerS!) < 0.5, `${c.cellId}: ${c.fit.slopePerS}`);
  }
});

test('open-loop section and chart render in en and zh; the closed-loop seed run has neither', async () => {
  for (const lang of ['en', 'zh'] as const) {
    const t = await loadTemplates(lang, STUDY_000);
    const r = await buildReport(await loadRun(OPEN), t);
    const md = r.files.find((f) => f.path === 'report.md')!.content;
    assert.ok(r.files.some((f) => f.path === 'figures/open-loop-queue.svg'), lang);
    assert.match(md, lang === 'en' ? /^## Open loop: arrivals at a rate/m : /^## 开环：按到达率发送请求/m);
    assert.match(md, /λ = 25 \| 25\.00 req\/s \| 25\.00 req\/s \| 500 \/ 500 \| 0 \|/, lang);
    assert.ok(md.includes('figures/open-loop-queue.svg'));
    const seed = await buildReport(await loadRun(SEED), t);
    const seedMd = seed.files.find((f) => f.path === 'report.md')!.content;
    assert.ok(!seedMd.includes('λ − N/L'), lang);
    assert.ok(!seed.files.some((f) => f.path === 'figures/open-loop-queue.svg'));
  }
});
