/**
 * The target report (src/report/target/): a run folder built from synthetic inputs through the real
 * types and code paths (summarize() for the cells, summarizeThreadDump for a dump, sampler lines),
 * written as the pipeline writes it, rendered in English and Chinese. Checks: the answer comes
 * first and its lead names each arm's limiting cap; every figure column names its tier; header
 * values never reach the report; the zh page exists with no English phrase left.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderTargetReport, targetPhrases, writeTargetReport } from '../../src/report/target/index.ts';
import { summarizeThreadDump } from '../../src/adapters/jvm/threaddump.ts';
import { indexAnswerLine, readFrontEntries } from '../../src/report/front-page.ts';
import type { JmxSample, TargetCell, TargetManifest } from '../../src/types/target.ts';
import type { ThreadDumpSummary } from '../../src/types/run.ts';
import { hikari, sampleSeries, targetCell, targetProbe, tomcat, writeTargetRun } from '../fixtures/target-run.ts';

const T0 = 1_700_000_000_000;
const SECRET = 'Bearer s3cr3t-value';

/**
 * Two arms, levels 2..16, R(1) = 10 ms. Platform: Tomcat's 4 threads; from c = 4 every sample has
 * all 4 busy, latency grows with c (c × 10 / 4 ms). Virtual: no thread cap; Hikari's 6 connections
 * full with waiters from c = 8 (latency 12 ms at c = 8, 24 ms at 16); below, the offered load.
 * `platformBusy` sets the platform arm's busy threads in its full samples (4 = at the limit),
 * `hikariActive` and `hikariPending` the virtual arm's Hikari pool from c = 8 (6 and 3 = saturated),
 * `platformPending` the platform arm's Hikari waiters from c = 8, its 6 connections then all active (0: its pool is not saturated).
 */
function buildRun(dir: string, o: { platformBusy?: number; hikariPending?: number; hikariActive?: number; platformPending?: number; platformErrorsEvery?: number } = {}): void {
  const busy = o.platformBusy ?? 4;
  const pending = o.hikariPending ?? 3;
  const active = o.hikariActive ?? 6;
  const cells: TargetCell[] = [];
  const samples = new Map<string, JmxSample[]>();
  const dumps = new Map<string, ThreadDumpSummary>();
  let t = T0;
  const add = (c: TargetCell, parts: (i: number) => Partial<JmxSample>) => {
    cells.push(c);
    // from 500 ms before t0 to 500 ms after the end: the outside ones must not count
    const n = Math.floor((c.endEpochMs - c.t0EpochMs + 1000) / 50) + 1;
    samples.set(c.id, sampleSeries(c.t0EpochMs - 500, 50, n, 0, () => ({}), (i) => {
      const at = c.t0EpochMs - 500 + i * 50;
      const inside = at >= c.t0EpochMs && at <= c.endEpochMs;
      return { cpuNs: i * 40e6, ...(inside ? parts(i) : { tomcat: tomcat(0, 4), hikari: hikari(0, 0, 6) }) };
    }));
    t = c.endEpochMs + 2000;
  };
  for (const level of [2, 4, 8, 16]) {
    for (const repeat of [1, 2]) {
      const pLat = level <= 4 ? 10 : (level * 10) / 4;
      const pc = targetCell('platform', level, repeat, pLat, t, { targetCpuS: 0.02 * level, errorsEvery: o.platformErrorsEvery ?? 0, threadDump: level === 16 && repeat === 1 ? 'threaddumps/platform-c16-r1.summary.json' : null });
      add(pc, () => ({ tomcat: tomcat(level >= 4 ? busy : level, 4), hikari: hikari(level >= 8 && (o.platformPending ?? 0) > 0 ? 6 : Math.min(level, 4), level >= 8 ? o.platformPending ?? 0 : 0, 6) }));
      const vLat = level <= 4 ? 10 : level === 8 ? 12 : 24;
      const vc = targetCell('virtual', level, repeat, vLat, t, {
        targetCpuS: 0.02 * level,
        pins: { thresholdMs: 20, total: level, byReason: { 'MONITOR': level }, byTopFrame: { 'org.example.Repo.find': level }, maxMs: 31, submitFailed: 0 },
        agent: level === 16 ? { matched: 300, sent: 320, webWaitMs: targetProbe('x', 1, 0.2).e2eMs, serviceMs: targetProbe('x', 1, 23).e2eMs, byExecutor: { 'java.util.concurrent.ThreadPoolExecutor': { tasks: 300, waitMs: targetProbe('x', 1, 1.5).e2eMs, runMs: targetProbe('x', 1, 4).e2eMs } } } : null,
      });
      add(vc, () => ({ tomcat: tomcat(-1, -1), hikari: level >= 8 ? hikari(active, pending, 6) : hikari(level, 0, 6), vt: { parallelism: 2, poolSize: 2, mounted: 1, queued: 0 } }));
    }
  }
  const dumpJson = JSON.stringify({ threadDump: { threadContainers: [{ container: '<root>', threads: [
    ...Array.from({ length: 4 }, (_, i) => ({ name: `http-nio-8080-exec-${i + 1}`, state: 'RUNNABLE', stack: ['sun.nio.ch.SocketDispatcher.read0(Native Method)', 'org.postgresql.core.PGStream.receive(PGStream.java:1)'] })),
    { name: 'main', state: 'WAITING', stack: ['java.lang.Object.wait(Native Method)'] },
  ] }] } });
  dumps.set('platform-c16-r1', summarizeThreadDump(dumpJson, 'threaddumps/platform-c16-r1.json', 100, 'http-nio-8080-exec-'));
  const manifest: TargetManifest = {
    kind: 'target', schemaVersion: 1, runId: '20261202-180000-target-test', createdAt: new Date(T0).toISOString(), tier: 'agent',
    jar: { path: 'target/petclinic.jar', sha256: 'a'.repeat(64), args: [], env: [] },
    mix: { file: 'requests.jsonl', sha256: 'b'.repeat(64), requests: [
      { name: 'list-owners', method: 'GET', path: '/owners?lastName=', headers: { authorization: SECRET }, weight: 3, line: 1 },
      { name: 'vets', method: 'GET', path: '/vets.html', headers: {}, weight: 1, line: 2 },
    ] },
    arms: [
      { id: 'platform', label: 'platform threads', url: null, properties: { 'spring.threads.virtual.enabled': 'false' }, virtualThreads: false },
      { id: 'virtual', label: 'virtual threads', url: null, properties: { 'spring.threads.virtual.enabled': 'true' }, virtualThreads: true },
    ],
    levels: [2, 4, 8, 16], mode: 'closed-loop', repeats: 2, requestsPerWorker: 20, durationS: null, warmupRequestsPerWorker: 5, aloneProbeRequests: 20,
    samplerIntervalMs: 250, pinThresholdMs: 20, db: { serverVersion: '17.2' },
    jvm: {
      platform: { vmVendor: 'Eclipse Adoptium', vmVersion: '25+36', javaVersion: '25', inputArguments: ['-Xmx512m', '-Dspring.datasource.password=***'], availableProcessors: 2, pid: 1 },
      virtual: { vmVendor: 'Eclipse Adoptium', vmVersion: '25+36', javaVersion: '25', inputArguments: ['-Xmx512m'], availableProcessors: 2, pid: 2 },
    },
    host: { cpus: 2, cpuModel: 'Test CPU', kernel: '6.1', node: 'v22' },
    probes: [targetProbe('platform', 1, 10), targetProbe('platform', 2, 10), targetProbe('virtual', 1, 10), targetProbe('virtual', 2, 10)],
    failed: [{ id: 'virtual-c16-r3', reason: 'the target exited (code 137)' }],
    finishedAt: new Date(t).toISOString(),
  };
  // the failed cell's file, as a pipeline that died mid-cell may leave it: never a measurement
  const dead = targetCell('virtual', 16, 3, 1, t);
  writeTargetRun(dir, manifest, [...cells, dead], samples, dumps);
}

/** buildRun's run, changed by `edit` (its folder) before it is rendered; the folder is removed after. */
async function render(o: Parameters<typeof buildRun>[1] = {}, edit: (dir: string) => void = () => {}) {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-target-report-'));
  try {
    buildRun(dir, o);
    edit(dir);
    const r = await renderTargetReport(dir);
    const file = (p: string) => r.files.find((f) => f.path === p)?.content as string;
    return { r, file, dir };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the answer comes first and its lead names each arm\'s limiting cap with its use', async () => {
  const { r, file } = await render();
  assert.deepEqual(r.files.map((f) => f.path).sort(), ['figures/target-throughput.svg', 'index.html', 'meta.json', 'report.md', 'zh/figures/target-throughput.svg', 'zh/index.html', 'zh/meta.json', 'zh/report.md']);
  const md = file('report.md');
  const lines = md.split('\n').filter((l) => l.trim() !== '');
  assert.equal(lines[1], '<!-- answer -->');
  assert.equal(lines[2], '## Answer');
  const lead = lines[3] as string;
  assert.match(lead, /^\*\*At 16 concurrent requests virtual threads served 1\.67× the throughput of platform threads \(666\.7 vs 400\.0 req\/s\)/);
  assert.match(lead, /platform threads limited by Tomcat's 4 threads \(4 busy; at the limit in 100 % of samples\)/);
  assert.match(lead, /virtual threads by Hikari's 6 connections \(6 active, up to 3 waiting; saturated in 100 % of samples\)/);
  assert.equal(r.answerText.startsWith('At 16 concurrent requests virtual threads served 1.67×'), true);
  // the answer table: the highest level and the knee (platform's latency leaves R(1) at c = 8)
  const answer = md.slice(md.indexOf('<!-- answer -->'), md.indexOf('<!-- /answer -->'));
  assert.match(answer, /\| 16 \(highest\) \| platform threads \|/);
  assert.match(answer, /\| 8 \(knee of platform threads\) \| virtual threads \|/);
  assert.match(answer, /Trust: tier agent .*1 cell\(s\) failed and are not measurements \(virtual-c16-r3\); every measured request answered without error\./);
  const html = file('index.html');
  const main = html.slice(html.indexOf('<main>') + '<main>'.length);
  assert.match(main, /^\s*<h1>[^<]*<\/h1>\s*<section id="answer" class="answer">\s*<h2>Answer<\/h2>/);
  assert.match(html, /<figure class="chart" id="headline-chart" data-figure="target-throughput"[^>]*><svg/);
  assert.ok(html.indexOf('id="headline-chart"') < html.indexOf('</section>'), 'the headline chart is inside the answer');
});

test('a cap saturated beside the one named is named too', async () => {
  const { file } = await render({ platformPending: 2 });
  const md = file('report.md');
  assert.match(md, /platform threads limited by Tomcat's 4 threads \(4 busy; at the limit in 100 % of samples\), with Hikari pool `HikariPool-1` saturated too, virtual threads by/);
  assert.match(md, /\| `platform-c8-r1` \|.*Tomcat threads \(4\): 100 % busy, full in 100 % of samples; also saturated: Hikari pool `HikariPool-1` \| measured \|/);
  // without the waiters, the lead names Tomcat alone
  const alone = (await render()).file('report.md');
  assert.doesNotMatch(alone, /saturated too/);
});

test('with the platform pool one thread short of full and Hikari one connection short with no waiters, the lead names no cap', async () => {
  const { file } = await render({ platformBusy: 3, hikariPending: 0, hikariActive: 5 });
  const lead = file('report.md').split('\n').find((l) => l.startsWith('**At ')) as string;
  assert.doesNotMatch(lead, /Tomcat's|Hikari's/);
  assert.match(lead, /platform threads limited by nothing the data show/);
  // virtual: 666.7 req/s against 16 / 10 ms = 1,600: below the offered load too
  assert.match(lead, /virtual threads by nothing the data show/);
});

test('every column holding a figure names its tier; the limit column says measured / inferred / unavailable per row', async () => {
  const { file } = await render();
  const md = file('report.md');
  const headers = md.split('\n').filter((l, i, all) => l.startsWith('| ') && (all[i + 1] ?? '').startsWith('| ---'));
  assert.ok(headers.length >= 8, String(headers.length));
  // a column without a tier holds a name, a setting of the run or an input, or has a tier column beside it
  const untiered = new Set(['Concurrent requests', 'Arm', 'Limited by', 'Limit known from', 'Request', 'Method', 'Path', 'Weight', 'Share', 'Headers (names only)', 'Body', 'Probes', 'at level',
    'Cap', 'Limit', 'Source', 'Cell', 'Repeat', 'Reason', 'Cells with JFR', 'Threshold', 'Top frame', 'Thread name prefix', 'Virtual', 'State', 'Executor', 'What', 'Value']);
  for (const h of headers) {
    for (const name of h.split(' | ').map((x) => x.replace(/^\| |\s\|$/g, '').trim())) {
      assert.ok(name.includes(' · ') || untiered.has(name), `column "${name}" names no tier`);
    }
  }
  const answerHead = headers[0] as string;
  for (const h of ['Throughput, req/s · measured', 'Bound c ÷ R(1), req/s · inferred', 'P95 · measured', 'P99 · measured', 'Throughput ÷ baseline · measured', 'Limit known from']) assert.ok(answerHead.includes(h), `${h} in ${answerHead}`);
    // the per-cell table: at c = 2 the virtual arm is at its offered load (inferred), at 16 Hikari (measured)
  assert.match(md, /\| `virtual-c2-r1` \| virtual threads \| 2 \| 1 \|.*offered load: 100 % of 200\.0 req\/s \| inferred \|/);
  assert.match(md, /\| `virtual-c16-r1` \| virtual threads \| 16 \| 1 \|.*Hikari pool \(6\).*\| measured \|/);
  // the caps inventory: Tomcat threads unavailable on virtual threads, the unexposed caps listed
  assert.match(md, /\| Tomcat threads `http-nio-8080` \| — \| unavailable \| virtual threads: no thread limit \|/);
  assert.match(md, /\| HTTP client dispatcher \| — \| unavailable \| not exposed over JMX \|/);
  assert.match(md, /\| Tomcat threads `http-nio-8080` \| 4 \| measured \| JMX \| 400\.0 \| 4, 8, 16 \|/);
});

test('header values never reach the report, only their names; pins, the dump and the agent are shown', async () => {
  const { file } = await render();
  for (const p of ['report.md', 'index.html', 'meta.json', 'zh/report.md', 'zh/index.html', 'zh/meta.json']) assert.equal(file(p).includes('s3cr3t'), false, p);
  const md = file('report.md');
  assert.match(md, /\| `list-owners` \| GET \| `\/owners\?lastName=` \| 3 \| 75 % \| `authorization` \|/);
  assert.match(md, /\| virtual threads \| 8 \| 60 \| 0 \| 31\.00 ms \| 20\.00 ms \|/);
  assert.match(md, /\| virtual threads \| MONITOR \| 60 \|/);
  assert.match(md, /### `platform-c16-r1`/);
  assert.match(md, /5 threads; in a socket read: 4 pool threads, 0 virtual, 0 other\./);
  assert.match(md, /\| virtual threads \| 16 \| 600 \/ 640 \| 0\.200 ms \/ 0\.200 ms \/ 0\.200 ms \|/);
  assert.match(md, /L = λW/);
  assert.match(md, /`-Dspring\.datasource\.password=\*\*\*`/);
});

test('the zh page exists, has the same keys translated: no English phrase and no placeholder left', async () => {
  const { file } = await render();
  const zh = file('zh/report.md');
  const zhHtml = file('zh/index.html');
  assert.match(zhHtml, /<html lang="zh-CN">/);
  assert.match(zhHtml, /<section id="answer"/);
  assert.doesNotMatch(zh, /\{\{|\}\}/);
  const en = await targetPhrases('en');
  const zhP = await targetPhrases('zh');
  assert.deepEqual(Object.keys(zhP).sort(), Object.keys(en).sort());
  // every English phrase of more than two words differs in zh, and none of them appears on the zh page
  const keep = new Set(['about', 'col', 'cap.named', 'src.jmx', 'src.actuator', 'h.n']);
  for (const [k, v] of Object.entries(en)) {
    if (keep.has(k) || v.split(' ').length < 3 || /^\{\{[^}]+\}\}/.test(v) && v.split(' ').length < 4) continue;
    assert.notEqual(zhP[k], v, `zh phrase ${k} is the English one`);
    const fixed = v.split(/\{\{[^}]+\}\}/).map((s) => s.trim()).filter((s) => s.split(' ').length >= 3);
    for (const f of fixed) assert.equal(zh.includes(f), false, `English "${f}" (${k}) on the zh page`);
  }
  assert.match(zh, /^# .*\n\n<!-- answer -->\n\n## 结论/);
  // the default arms' labels in Chinese; the lead in Chinese word order
  assert.match(zh, /\*\*16 个并发请求时，虚拟线程 的吞吐量是 平台线程 的 1\.67 倍（666\.7 对 400\.0 req\/s）；平台线程 受限于 Tomcat 的 4 个线程/);
  assert.equal(zh.includes('platform threads'), false);
});

test('writeTargetReport writes every file under the folder it is given; the front page lists the report with its answer', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-target-write-'));
  try {
    buildRun(join(dir, 'run'));
    const out = join(dir, 'report', '20261202-180000-target-test');
    const w = await writeTargetReport(join(dir, 'run'), out);
    assert.equal(w.paths.length, 8);
    assert.match(readFileSync(join(out, 'zh', 'index.html'), 'utf8'), /<figure class="chart" id="headline-chart"/);
    const entries = await readFrontEntries(join(dir, 'report'));
    assert.equal(entries.length, 1);
    assert.equal(entries[0]!.zh, true);
    assert.equal(indexAnswerLine(entries[0]!), w.answerText);
    assert.deepEqual({ b: entries[0]!.highest?.baseline, c: entries[0]!.highest?.candidate, at: entries[0]!.highest?.concurrency }, { b: 'platform', c: 'virtual', at: 16 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an arm label the user gave stays as given in every language', async () => {
  const { file } = await render({}, (dir) => {
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as TargetManifest;
    m.arms[0]!.label = 'Tomcat pool of 4';
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
  });
  assert.match(file('zh/report.md'), /虚拟线程 的吞吐量是 Tomcat pool of 4 的/);
});

test('a black-box run (no samples, no JVM, no JFR, no agent): every cap unavailable, the limit inferred or not determined, the missing tiers said', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-target-bb-'));
  try {
    buildRun(dir);
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as TargetManifest;
    const bb: TargetManifest = { ...m, tier: 'black-box', jar: null, jvm: {}, db: null, failed: [],
      arms: m.arms.map((a, i) => ({ ...a, url: `http://127.0.0.1:${8080 + i}`, properties: {} })) };
    const cells = ['platform', 'virtual'].flatMap((arm) => [2, 4, 8].map((level) => targetCell(arm, level, 1, arm === 'platform' && level === 8 ? 20 : 10, T0)));
    const out = join(dir, 'bb');
    writeTargetRun(out, bb, cells, new Map());
    const r = await renderTargetReport(out);
    const md = r.files.find((f) => f.path === 'report.md')?.content as string;
    assert.match(md, /^# vtbench target report — http:\/\/127\.0\.0\.1:8080, run /);
    // platform at c = 8: 400 req/s against 800 = not determined; virtual: 800 of 800 = the offered load
    assert.match(md, /platform threads limited by nothing the data show .*, virtual threads by the offered load \(it served 100 % of level ÷ R\(1\) = 800\.0 req\/s\)/);
    assert.match(md, /\| `platform-c8-r1` \|.*\| not determined \| unavailable \|/);
    assert.match(md, /\| Tomcat threads \| — \| unavailable \| no samples \|/);
    assert.match(md, /No JFR recording in this run \(tier black-box\)/);
    assert.match(md, /The vtbench agent was not attached \(tier black-box\)/);
    assert.match(md, /No thread dump was taken in this run\./);
    assert.match(md, /No cap was read in any cell \(no samples\)\./);
    assert.match(md, /no cell failed/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an open-loop run words its levels as arrival rates and bounds each by the rate itself', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-target-ol-'));
  try {
    buildRun(dir);
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as TargetManifest;
    // 4 workers at 10 ms serve 400 req/s: offered 400 (met) and 800 (half met)
    const cells = ['platform', 'virtual'].flatMap((arm) => [400, 800].map((rate) => ({ ...targetCell(arm, 4, 1, 10, T0), id: `${arm}-r${rate}-r1`, level: rate, mode: 'open-loop' as const })));
    const out = join(dir, 'ol');
    writeTargetRun(out, { ...m, mode: 'open-loop', levels: [400, 800], durationS: 10, failed: [] }, cells, new Map());
    const r = await renderTargetReport(out);
    const md = r.files.find((f) => f.path === 'report.md')?.content as string;
    assert.match(md, /\*\*At an arrival rate of 800 req\/s virtual threads and platform threads served the same throughput within ±5 %/);
    assert.match(md, /\| Arrival rate, req\/s \| Arm \| Throughput, req\/s · measured \| Offered rate, req\/s · inferred \|/);
    assert.match(md, /\| `virtual-r400-r1` \|.*offered load: 100 % of 400\.0 req\/s \| inferred \|/);
    assert.match(md, /open loop, arrival rates 400, 800 req\/s for 10 s/);
    const zh = r.files.find((f) => f.path === 'zh/report.md')?.content as string;
    assert.match(zh, /\*\*到达率为 800 req\/s 时，虚拟线程 与 平台线程 的吞吐量在 ±5 % 内相同/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('failed requests are in the answer block, by request, not only in the cell table', async () => {
  const { file } = await render({ platformErrorsEvery: 4 });
  const md = file('report.md');
  const answer = md.slice(md.indexOf('<!-- answer -->'), md.indexOf('<!-- /answer -->'));
  // platform: (2 + 4 + 8 + 16) workers × 20 requests × 2 repeats = 1,200, every 4th a 503 → 300; virtual: 1,200 without error
  assert.match(answer, /\*\*300 of 2,400 measured requests failed \(12\.5 %\)\*\*, by request: `list-owners` 300 \/ 2,400; their latencies are not in the percentiles/);
  assert.match(file('zh/report.md'), /2,400 个测得请求中有 300 个失败/);
});

test('open loop: the sends the in-flight cap refused are named per cell, the cell ids as code (not escaped)', async () => {
  let sent = 0;
  const { file } = await render({}, (dir) => {
    const mf = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as TargetManifest;
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...mf, mode: 'open-loop', durationS: 2, openLoop: { arrival: 'constant', seed: 1, maxInFlight: 8, warmupS: 1 } }));
    const f = join(dir, 'cells', 'platform-c16-r1.json');
    const c = JSON.parse(readFileSync(f, 'utf8')) as TargetCell;
    sent = c.summary.count;
    const ol = { arrival: 'constant', seed: null, targetRatePerS: 16, durationS: 2, scheduled: sent + 7, sent, achievedRatePerS: 16, unsent: { inFlightCap: 7 }, maxInFlight: 8 };
    writeFileSync(f, JSON.stringify({ ...c, summary: { ...c.summary, openLoop: ol } }));
  });
  const md = file('report.md');
  assert.match(md, new RegExp(`sends refused by the in-flight cap \\(8 requests in flight\\), not requests and not in the table's figures: \`platform-c16-r1\` 7 / ${sent + 7}`));
  assert.match(md, /\(constant arrivals; at most 8 in flight;/);
});
