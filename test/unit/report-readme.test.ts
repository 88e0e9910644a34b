import { loadRun } from '../fixtures/registered.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildModel } from '../../src/report/model.ts';
import { buildReport, indexDocuments, type ReportMeta } from '../../src/report/index.ts';
import { indexAnswerLine, frontPageMeta, frontPageTable, readFrontEntries, readmeResultsBlock, replaceResults, RESULTS_END, RESULTS_START, type FrontEntry } from '../../src/report/front-page.ts';
import { resultsBlock } from '../../src/cli/readme-results.ts';
import { loadTemplates } from '../fixtures/registered.ts';
import { FIXTURE_DIR } from '../fixtures/report-helpers.ts';
import { STUDIES } from '../../src/studies/index.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = () => readFileSync(join(ROOT, 'README.md'), 'utf8');
const resultsSection = (readme: string) => readme.slice(readme.indexOf(RESULTS_START) + RESULTS_START.length + 1, readme.indexOf(RESULTS_END) - 1);

/** The table rows of a Markdown document as { run id, cells after the first } (the front page's rows). */
function rows(md: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const l of md.split('\n')) {
    const m = /^\| \[([0-9A-Za-z-]+)\]\(/.exec(l);
    if (m) out.set(m[1] as string, l.split(' | ').slice(1));
  }
  return out;
}

const closed: FrontEntry = {
  runId: '20261201-205110-002-seed-002', study: '002', studyTitle: 'pool-200 vs virtual', status: 'complete', startedAt: '2026-12-01T20:51:11.059Z', load: 'closed-loop', gaps: 0,
  highest: { concurrency: 5000, baseline: 'io-pool-200', candidate: 'io-virtual', baselineRps: 1047.4546, candidateRps: 1273.0669, baselineE2eP95Ms: 6910.7033, candidateE2eP95Ms: 20735.3502 },
  host: { cpuModel: 'AMD EPYC', cores: 2, jdk: '25.0.3+9-LTS' },
};

test('answer line: meta.json\'s answer when it has one, else the highest level\'s figures in the run\'s load model, else no comparison', () => {
  assert.equal(indexAnswerLine({ ...closed, answer: ' Virtual threads: 1.22× the throughput of pool-200 at 5,000 clients. ' }), 'Virtual threads: 1.22× the throughput of pool-200 at 5,000 clients.');
  const fallback = 'highest level, 5,000 concurrent clients: io-pool-200 → io-virtual: 1,047.45 req/s → 1,273.07 req/s, E2E P95 6,910.7 ms → 20,735.4 ms';
  assert.equal(indexAnswerLine(closed), fallback);
  // an answer that is not a non-empty string (a newer or broken meta.json) is not shown
  assert.equal(indexAnswerLine({ ...closed, answer: '  ' }), fallback);
  assert.equal(indexAnswerLine({ ...closed, answer: { verdict: 'faster' } }), fallback);
  assert.match(indexAnswerLine({ ...closed, load: 'open-loop' }), /^highest level, 5,000 req\/s offered: /);
  // one in-process job per cell: its request rate is no throughput
  const job = indexAnswerLine({ ...closed, load: 'in-process' });
  assert.equal(job, 'io-pool-200 → io-virtual: job time 6,910.7 ms → 20,735.4 ms');
  assert.doesNotMatch(job, /req\/s/);
  assert.equal(indexAnswerLine({ ...closed, highest: null, gaps: 1 }), 'no comparison of two variants at a common level in this run: see the report; 1 gap(s) in the data, stated in the report');
  assert.match(indexAnswerLine({ ...closed, gaps: 2 }), /E2E P95 6,910\.7 ms → 20,735\.4 ms; 2 gap\(s\)/);
  // a meta.json written before it named its comparison
  assert.match(indexAnswerLine({ runId: 'x', highest: { concurrency: 5 } as unknown as FrontEntry['highest'] }), /^no comparison/);
});

test('front page row: links to the report and its Chinese copy, answer, study id and title, host (CPU, cores, JDK) and start time; — for what an older meta.json lacks', () => {
  const t = frontPageTable([{ ...closed, zh: true }, { runId: '20261130-100102-seed-000', study: '000', startedAt: '2026-11-30T10:01:02.567Z', status: 'partial' }], { prefix: 'report/', target: 'report.md' }).md;
  const lines = t.split('\n');
  assert.equal(lines[0], '| report | answer | study | host | run started |');
  // by study, then run id
  assert.match(lines[2] as string, /^\| \[20261130-100102-seed-000\]\(report\/20261130-100102-seed-000\/report\.md\) \(partial\) \| no comparison .* \| 000 \| — \| 2026-11-30 10:01 UTC \|$/);
  assert.equal(lines[3], `| [20261201-205110-002-seed-002](report/20261201-205110-002-seed-002/report.md) · [中文](report/20261201-205110-002-seed-002/zh/report.md) | ${indexAnswerLine(closed)} | 002: pool-200 vs virtual | AMD EPYC, 2 cores, JDK 25.0.3+9-LTS | 2026-12-01 20:51 UTC |`);
  // an answer is plain text: Markdown in it is escaped, a pipe does not split the row
  const odd = frontPageTable([{ ...closed, answer: 'a | b *c*' }], { prefix: '', target: 'index.html' }).md.split('\n')[2] as string;
  assert.match(odd, /\| a \\\| b \\\*c\\\* \|/);
  assert.match(odd, /\]\(20261201-205110-002-seed-002\/index\.html\)/);
  const html = indexDocuments([{ ...closed, zh: true }]).html;
  assert.match(html, /href="20261201-205110-002-seed-002\/zh\/index\.html">中文</);
});

test('meta.json carries the study title and the host (manifest.host, versions.jdk) for the front page', async () => {
  const run = await loadRun(FIXTURE_DIR);
  const model = buildModel(run);
  assert.deepEqual(frontPageMeta(model), { studyTitle: model.study.title, host: { cpuModel: 'Intel(R) Xeon(R) Processor', cores: 2, jdk: '25.0.3+9-LTS' } });
  const built = await buildReport(run, await loadTemplates('en', run.study));
  const meta = JSON.parse(built.files.find((f) => f.path === 'meta.json')!.content) as ReportMeta;
  assert.deepEqual(meta.host, frontPageMeta(model).host);
  assert.equal(meta.studyTitle, model.study.title);
});

test('readFrontEntries: every folder with a meta.json, whether it has a Chinese copy, the registered title for an older meta.json', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-front-'));
  try {
    const put = (id: string, meta: object | null, zh = false): void => {
      mkdirSync(join(dir, id, 'zh'), { recursive: true });
      if (meta) writeFileSync(join(dir, id, 'meta.json'), JSON.stringify(meta));
      if (zh) writeFileSync(join(dir, id, 'zh', 'index.html'), '<p>');
    };
    put('b-old', { runId: 'b-old', study: '002' }, true);
    put('a-new', { runId: 'a-new', study: '002', studyTitle: 'its own title' });
    put('c-not-a-report', null);
    writeFileSync(join(dir, 'index.md'), '# not a folder');
    const got = await readFrontEntries(dir, STUDIES);
    assert.deepEqual(got.map((e) => [e.runId, e.studyTitle, e.zh]), [['a-new', 'its own title', false], ['b-old', STUDIES.find((s) => s.id === '002')!.title, true]]);
    assert.deepEqual((await readFrontEntries(dir)).map((e) => e.studyTitle), ['its own title', undefined]);
    assert.deepEqual(await readFrontEntries(join(dir, 'missing')), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('replaceResults swaps only the marked block and refuses a README without markers', () => {
  const doc = `a\n${RESULTS_START}\nold\n${RESULTS_END}\nb\n`;
  assert.equal(replaceResults(doc, 'new'), `a\n${RESULTS_START}\nnew\n${RESULTS_END}\nb\n`);
  assert.throws(() => replaceResults('no markers', 'x'));
});

test("README's Results section is the front page's table generated from the committed report/*/meta.json (npm run readme:results)", async () => {
  assert.equal(resultsSection(README()), await resultsBlock(), 'README.md is stale: run npm run readme:results');
});

test('the committed front page report/index.{md,html} is what the generator writes from report/*/meta.json', async () => {
  const docs = indexDocuments(await readFrontEntries(join(ROOT, 'report'), STUDIES));
  assert.equal(readFileSync(join(ROOT, 'report', 'index.md'), 'utf8'), docs.md, 'report/index.md is stale: run npm run readme:results');
  assert.equal(readFileSync(join(ROOT, 'report', 'index.html'), 'utf8'), docs.html, 'report/index.html is stale: run npm run readme:results');
});

test('README and front page list the same runs with the same study, answer, host and date', () => {
  const readme = rows(resultsSection(README()));
  const front = rows(readFileSync(join(ROOT, 'report', 'index.md'), 'utf8'));
  assert.ok(front.size > 0, 'the front page lists runs');
  assert.deepEqual([...readme.keys()], [...front.keys()]);
  for (const [id, cells] of front) assert.deepEqual(readme.get(id), cells, id);
  // and a block from other entries differs (the comparison can fail)
  assert.notDeepEqual(rows(readmeResultsBlock([closed])), front);
});

test('README.md stays at most 150 lines', () => {
  const n = README().split('\n').length;
  assert.ok(n <= 150, `README.md has ${n} lines`);
});

test("every report the README links exists, with its committed run folder (the README's Results section names them)", () => {
  const ids = [...new Set([...README().matchAll(/\]\(report\/([0-9]{8}-[0-9]{6}-[a-z0-9-]+)\/report\.md\)/g)].map((m) => m[1] as string))];
  assert.ok(ids.length > 0, 'the README links at least one report');
  for (const id of ids) {
    for (const f of [join('report', id, 'report.md'), join('report', id, 'index.html'), join('runs', id, 'manifest.json')]) {
      assert.doesNotThrow(() => readFileSync(join(ROOT, f)), `${f} (linked from README.md) is missing`);
    }
  }
});
