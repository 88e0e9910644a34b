/**
 * An open-loop run's report says what it measured (issue 17 follow-through): rendering the committed
 * `open-loop-quick` run of study 000 (runs/20261201-050041-000-open-loop-quick, real cells of the
 * `open-loop-http` driver), in en and zh,
 * (a) the headline names arrival rates λ, never concurrent workers or a concurrency level;
 * (b) no closed-loop claim of the source study (§15 conclusions, §8.7 published figures) is
 *     "reproduced" from open-loop cells — only the claims study 000 documents as load-model
 *     independent (execution time, pinning, upstream limits) may be judged;
 * (c) no closed-loop theory value (waves, queue-wait theory with c, Little's law with c, waves bound)
 *     is computed for its rows, printed in its tables, or drawn in its charts.
 * The committed closed-loop seed-000 report staying byte-identical is checked by
 * test/unit/report-render.test.ts (goldens) and the re-render check in the lead's merge list.
 */
import { loadRun, loadTemplates } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

import { buildReport } from '../../src/report/index.ts';
import { buildModel } from '../../src/report/model.ts';
import { templatesForRun } from '../../src/report/render-md.ts';
import { STUDY_000 } from '../../src/studies/000/index.ts';

const OPEN = fileURLToPath(new URL('../../runs/20261201-050041-000-open-loop-quick/', import.meta.url));
const SEED = fileURLToPath(new URL('../../runs/20261130-100102-seed-000/', import.meta.url));

/** the Markdown between `## <heading>` and the next `## ` */
function section(md: string, heading: RegExp): string {
  const lines = md.split('\n');
  const i = lines.findIndex((l) => heading.test(l));
  assert.ok(i >= 0, `no section ${heading}`);
  const j = lines.findIndex((l, k) => k > i && l.startsWith('## '));
  return lines.slice(i + 1, j < 0 ? undefined : j).join('\n');
}

/** §15 claims about c closed-loop workers (src/studies/000/report.ts LOAD_MODEL_INDEPENDENT lists the others) */
const CLOSED_LOOP_CLAIMS = ['fixedQueues', 'fixedE2eIsQueue', 'vtCutsQueue', 'vtRaisesCapacity', 'throughput500', 'e2eP95500'];

test('open-loop rows carry no closed-loop theory; closed-loop rows still do', async () => {
  const model = buildModel(await loadRun(OPEN));
  assert.equal(model.rows.length, 6);
  for (const r of model.rows) {
    assert.equal(r.openLoop, true, `${r.variant}@${r.concurrency}`);
    assert.equal(r.waves, null);
    assert.equal(r.wavesWholeRunRps, null);
    assert.equal(r.theoryQueueP95Ms, null);
    assert.equal(r.theoryQueueMeanMs, null);
    assert.equal(r.theoryE2eP95Ms, null);
    assert.equal(r.little, null);
  }
  // the open-loop bounds: min(λ, N/L) served (N = 32, L = 1.5 s: 21.33 req/s), λ − N/L queue growth
  const fixed50 = model.rows.find((r) => r.variant === 'fixed' && r.concurrency === 50)!;
  assert.equal(fixed50.boundRps.toFixed(2), '21.33');
  assert.equal(fixed50.queueGrowthPerS!.toFixed(2), '28.67');
  const fixed15 = model.rows.find((r) => r.variant === 'fixed' && r.concurrency === 15)!;
  assert.equal(fixed15.boundRps, 15);
  assert.equal(fixed15.queueGrowthPerS, 0);
  const seed = buildModel(await loadRun(SEED));
  const s500 = seed.rows.find((r) => r.variant === 'fixed' && r.concurrency === 500)!;
  assert.equal(s500.openLoop, false);
  assert.equal(s500.queueGrowthPerS, null);
  assert.equal(s500.waves, 16);
  assert.equal(s500.theoryQueueP95Ms, 15 * 1500);
});

test('closed-loop claims are not testable here in an open-loop run; none of the published figures is reproduced', async () => {
  const model = buildModel(await loadRun(OPEN));
  for (const id of CLOSED_LOOP_CLAIMS) {
    const c = model.conclusions.find((x) => x.id === id)!;
    assert.equal(c.verdict, 'not testable here', id);
    assert.equal(c.evidence['theoryMs'], undefined, id);
  }
  assert.ok(model.published.length > 0);
  for (const p of model.published) assert.notEqual(p.verdict, 'reproduced', p.id);
  // the same claims from the closed-loop seed run are still judged
  const seed = buildModel(await loadRun(SEED));
  assert.equal(seed.conclusions.find((x) => x.id === 'fixedQueues')!.verdict, 'reproduced');
});

test('the rendered open-loop report (en, zh): rate headline, no reproduced closed-loop claim, no closed-loop theory in tables or charts', async () => {
  for (const lang of ['en', 'zh'] as const) {
    const t = await loadTemplates(lang, STUDY_000);
    const r = await buildReport(await loadRun(OPEN), t);
    const md = r.files.find((f) => f.path === 'report.md')!.content;
    // (a) the headline
    const summary = section(md, lang === 'en' ? /^## Summary$/ : /^## 摘要$/);
    if (lang === 'en') {
      assert.doesNotMatch(summary, /concurren|workers/i, summary);
      assert.match(summary, /at arrival rates λ = 15, 25, 50 req\/s/);
      assert.match(summary, /At λ = 50 req\/s \(achieved 50\.00 req\/s fixed, 50\.00 req\/s virtual\)/);
      assert.match(summary, /queue grew by 28\.80 tasks\/s \(theory λ − N\/L = 28\.67\)/);
    } else {
      assert.doesNotMatch(summary, /并发|worker/i, summary);
      assert.match(summary, /到达率 λ = 15, 25, 50 req\/s/);
    }
    // (a') the static prose of §3 (mechanism), §4 (architecture) and §7 (throughput) speaks of arrivals, not workers
    for (const h of lang === 'en' ? [/^## 4\. Architecture$/, /^## 7\. Metric definitions$/] : [/^## 4\./, /^## 7\./]) {
      assert.doesNotMatch(section(md, h), /worker/i, `${lang} ${h}`);
    }
    assert.doesNotMatch(section(md, lang === 'en' ? /^## 3\. Hypothesis$/ : /^## 3\./), lang === 'en' ? /With more workers than pool threads/ : /当并发数超过线程池大小时/);
    // (b) §15: no closed-loop claim reproduced (rows of the "proven" table other than the load-model independent three)
    const concl = section(md, lang === 'en' ? /^## 15\. Conclusions$/ : /^## 15\./);
    const provenRows = concl.split('\n').filter((l) => l.startsWith('| ') && !/^\| (statement|陈述|结论|---)/.test(l));
    const reproduced = lang === 'en' ? '| reproduced |' : `| ${t.phrases['verdict.reproduced']} |`;
    const judged = provenRows.filter((l) => l.includes(reproduced));
    // the upstream-limits row is a recommendation, not testable in any run (issue 31)
    assert.equal(judged.length, 2, `${lang}: only execution and pinning may be judged:\n${judged.join('\n')}`);
    assert.doesNotMatch(concl, /theory 1,500\.0 ms|理论 1,500\.0 ms/);
    // (c) no closed-loop theory anywhere in the tables: waves columns, the wave theory's 1,500 ms / 3,000 ms, Little with c
    assert.doesNotMatch(md, /⌈c\/N⌉/, lang);
    assert.doesNotMatch(md, /3,000\.0 ms \/ 1,500\.0 ms|1,500\.0 ms \/ 0 \||1,674\.0 %|843\.8 ms|c − N = /, lang);
    assert.doesNotMatch(md, /\| 10\.00 req\/s \||\| 16\.67 req\/s \||\| 33\.33 req\/s \|/, `${lang}: waves bound`);
    assert.doesNotMatch(md, /c \/ mean E2E/, lang);
    // the charts: no waves theory P95 line, no waves bound line, rate axis title
    const e2e = r.specs.find((s) => s.name === 'e2e-latency')!.spec as unknown as { data: { values: { series: string }[] }; encoding: { x: { title: string } } };
    const labels = templatesForRun(t, buildModel(await loadRun(OPEN))).phrases;
    assert.ok(!e2e.data.values.some((v) => v.series === labels['chart.theoryP95']), lang);
    assert.equal(e2e.encoding.x.title, t.phrases['chart.concurrency@openLoop']);
    const thr = r.specs.find((s) => s.name === 'throughput')!.spec as unknown as { data: { values: { series: string }[] } };
    assert.ok(!thr.data.values.some((v) => v.series === labels['chart.wavesBound']), lang);
    // nor do their legends name a closed-loop series
    const svg = (name: string) => r.files.find((f) => f.path === `figures/${name}.svg`)!.content;
    assert.ok(!svg('throughput').includes(labels['chart.wavesBound']!), `${lang}: waves bound in the legend`);
    assert.ok(!svg('e2e-latency').includes(labels['chart.theoryP95']!), `${lang}: P95 theory in the legend`);
  }
});

test('a closed-loop run gets its templates unchanged', async () => {
  const t = await loadTemplates('en', STUDY_000);
  assert.equal(templatesForRun(t, buildModel(await loadRun(SEED))), t);
  assert.notEqual(templatesForRun(t, buildModel(await loadRun(OPEN))), t);
});
