/**
 * Multi-host runs (issue 18 part 4): the Kubernetes manifests `run.mjs k8s` writes, validated
 * offline against the vendored strict schemas (schema/k8s/) — and a broken manifest failing them;
 * the barrier the shards meet at; two real `run.mjs shard` processes against a mock and a stand-in
 * SUT started by hand, merged by `run.mjs merge` into a run that `report` renders (totals = sum of
 * the shards, percentiles from the merged raw records, the mock's per-cell figures covering every
 * shard); and the merge refusing missing or inconsistent shards, recording a missing cell as failed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { fetchPodManifest, jobManifest, k8sFiles, pvcManifest } from '../../src/plan/k8s-manifests.ts';
import { checkShardRun, k8sSpecOf, shardOf } from '../../src/cli/multihost.ts';
import { FsBarrier } from '../../src/pipeline/pod-shard.ts';
import { STUDIES } from '../../src/studies/index.ts';
import { main, type Io } from '../../src/cli/main.ts';
import { realDeps } from '../../src/cli/deps.ts';
import { RunStore } from '../../src/adapters/store/run-store.ts';
import { validate } from '../../src/adapters/store/schema.ts';
import { expandRequests } from '../../src/pipeline/resummarize.ts';
import { percentiles } from '../../src/compute/stats/percentiles.ts';
import { hdrPercentiles } from '../../src/compute/stats/hdr.ts';
import { startMockProcess } from '../../src/adapters/process/mock-process.ts';
import { VtbenchError, EXIT } from '../../src/types/errors.ts';
import { freePort } from '../fixtures/ports.ts';
import { startFakeSutByHand } from '../fixtures/fake-sut.ts';

// an external mock is started with a control token; the harness takes the same from its environment (src/adapters/process/control-token.ts)
const TOKEN = 'external-test-token';
process.env['VTBENCH_CONTROL_TOKEN'] = TOKEN;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function capture(): { io: Io; text: () => string } {
  let buf = '';
  const sink = { write: (s: string) => { buf += s; return true; } } as unknown as NodeJS.WriteStream;
  return { io: { stdout: sink, stderr: sink }, text: () => buf };
}

/** A validator of one vendored schema (schema/k8s/<file>). */
function k8sValidator(file: string): (v: unknown) => string[] {
  const schema = JSON.parse(readFileSync(join(ROOT, 'schema', 'k8s', file), 'utf8')) as object;
  const v = new Ajv({ allErrors: true, strict: false }).compile(schema);
  return (x) => (v(x) ? [] : (v.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`));
}

const K8S_ARGS = { study: '000', profile: 'smoke', variants: 'fixed', shards: '3', sutUrl: 'http://vtbench-sut.bench.svc:19080', mockUrl: 'http://vtbench-mock.bench.svc:19000' };

test('k8s: the Indexed Job, the claim and the fetch pod validate against the Kubernetes schemas; the pods run `shard` with the same options', () => {
  const { spec, options } = k8sSpecOf(K8S_ARGS, STUDIES);
  const job = jobManifest(spec) as { spec: { completionMode: string; completions: number; parallelism: number; template: { spec: { containers: { command: string[] }[] } } } };
  assert.deepEqual(k8sValidator('job-batch-v1.json')(job), []);
  assert.deepEqual(k8sValidator('persistentvolumeclaim-v1.json')(pvcManifest(spec)), []);
  assert.deepEqual(k8sValidator('pod-v1.json')(fetchPodManifest(spec)), []);
  assert.equal(job.spec.completionMode, 'Indexed');
  assert.equal(job.spec.completions, 3);
  assert.equal(job.spec.parallelism, 3);
  const cmd = job.spec.template.spec.containers[0]!.command;
  assert.deepEqual(cmd.slice(0, 4), ['npx', 'zx', 'run.mjs', 'shard']);
  assert.ok(!cmd.includes('--index'), 'each pod reads JOB_COMPLETION_INDEX');
  const flag = (f: string) => cmd[cmd.indexOf(f) + 1];
  assert.equal(flag('--shards'), '3');
  assert.equal(flag('--sut-url'), K8S_ARGS.sutUrl);
  assert.equal(flag('--variants'), 'fixed');
  assert.equal(flag('--out'), `/data/${spec.name}`);
  assert.equal(options.shards, 3);
  // the files: JSON manifests that parse to the same objects, a Dockerfile, a README with the flow
  const files = k8sFiles(spec, 'k8s/x');
  assert.deepEqual(files.map((f) => f.path), ['job.json', 'pvc.json', 'fetch-pod.json', 'Dockerfile', 'README.md']);
  assert.deepEqual(JSON.parse(files[0]!.content), job);
  const readme = files[4]!.content;
  for (const step of ['docker build', 'kubectl apply -f k8s/x/job.json', 'kubectl cp', `run.mjs merge shards/${spec.name}/shard-0 shards/${spec.name}/shard-1 shards/${spec.name}/shard-2`, 'run.mjs report']) assert.ok(readme.includes(step), step);
});

test('k8s: the schemas reject a broken Job (misspelt field, wrong enum, wrong type, missing template)', () => {
  const { spec } = k8sSpecOf(K8S_ARGS, STUDIES);
  const check = k8sValidator('job-batch-v1.json');
  const broken = (f: (j: Record<string, any>) => void) => {
    const j = structuredClone(jobManifest(spec)) as Record<string, any>;
    f(j);
    return check(j);
  };
  assert.match(broken((j) => { j['spec'].completionsMode = 'Indexed'; }).join('\n'), /additionalProperty.*completionsMode/);
  assert.match(broken((j) => { j['spec'].completionMode = 'indexed'; }).join('\n'), /completionMode.*allowedValues/);
  assert.match(broken((j) => { j['spec'].template.spec.containers[0].command = 'npx zx run.mjs shard'; }).join('\n'), /command.*must be array/);
  assert.match(broken((j) => { j['spec'].template.spec.containers[0].volumeMount = []; }).join('\n'), /additionalProperty.*volumeMount/);
  assert.match(broken((j) => { delete j['spec'].template; }).join('\n'), /required.*template/);
  assert.match(broken((j) => { j['kind'] = 'CronJob'; }).join('\n'), /kind/);
});

test('k8s: bad options are refused, each naming the option and the fix', () => {
  const refused = (o: Record<string, string>, re: RegExp) => assert.throws(() => k8sSpecOf(o, STUDIES), (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && re.test(e.message), String(re));
  refused({ ...K8S_ARGS, sutUrl: 'http://127.0.0.1:19080' }, /--sut-url http:\/\/127\.0\.0\.1:19080 is the pod itself/);
  refused({ study: '000', profile: 'smoke', variants: 'fixed', shards: '2', sutUrl: K8S_ARGS.sutUrl }, /--mock-url is required/);
  refused({ ...K8S_ARGS, variants: 'fixed,virtual' }, /give --variants/);
  refused({ ...K8S_ARGS, name: 'Bad_Name' } as Record<string, string>, /--name 'Bad_Name' is not a DNS-1123 label/);
  refused({ ...K8S_ARGS, pvcSize: 'lots' } as Record<string, string>, /--pvc-size 'lots' is not a Kubernetes quantity/);
  refused({ ...K8S_ARGS, shards: '5' }, /--shards 5: the level 4 has fewer workers than shards/);
  assert.throws(() => shardOf({ out: '/tmp/x' }, {}), /--index is not given and \$JOB_COMPLETION_INDEX is not set/);
  assert.equal(shardOf({ out: '/tmp/x' }, { JOB_COMPLETION_INDEX: '2' }).index, 2);
  assert.throws(() => shardOf({ index: '1' }, {}), /--out is required/);
  assert.throws(() => shardOf({ index: '-1', out: '/tmp/x' }, {}), /is not a whole number >= 0/);
  const { options } = k8sSpecOf(K8S_ARGS, STUDIES);
  assert.throws(() => checkShardRun({ index: 3, dir: '/tmp/x', syncTimeoutS: 60 }, options), /index 3 is not below --shards 3/);
  assert.throws(() => checkShardRun({ index: 0, dir: '/tmp/x', syncTimeoutS: 60 }, { ...options, mockUrl: undefined }), /--sut-url and --mock-url are required/);
  assert.doesNotThrow(() => checkShardRun({ index: 2, dir: '/tmp/x', syncTimeoutS: 60 }, options));
});

test('FsBarrier: K shards meet (same arrival times for all), a shard running another load or a failed shard stops the others, a stale folder is refused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vtbench-barrier-'));
  try {
    const [a, b] = [new FsBarrier(dir, 0, 2), new FsBarrier(dir, 1, 2)];
    const [ta, tb] = await Promise.all([a.wait('0-start', '4 workers x 3', 5000), new Promise((r) => setTimeout(r, 300)).then(() => b.wait('0-start', '4 workers x 3', 5000))]);
    assert.deepEqual(ta, tb);
    assert.ok(ta[1]! - ta[0]! >= 250, 'shard 1 arrived later');
    await assert.rejects(Promise.all([a.wait('1-start', '32 workers x 3', 5000), b.wait('1-start', '8 workers x 3', 5000)]), /do not run the same plan/);
    await assert.rejects(a.wait('2-start', 'x', 300), /shard\(s\) 1 of 2 did not reach 2-start within 0 s/);
    b.fail('the SUT did not answer');
    await assert.rejects(a.wait('3-start', 'x', 5000), /shard 1 failed \(the SUT did not answer\)/);
    assert.throws(() => new FsBarrier(dir, 1, 2).checkFresh(), /already holds this shard's files/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Run `run.mjs shard` as a pod would (its own process), with the index in JOB_COMPLETION_INDEX. */
function shardProcess(index: number, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['run.mjs', 'shard', ...args], { cwd: ROOT, env: { ...process.env, JOB_COMPLETION_INDEX: String(index) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.once('exit', (code) => resolve({ code, out }));
  });
}

test('two shard processes against a SUT and a mock started by hand, merged into a run that report renders', { timeout: 240_000 }, async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'vtbench-multihost-'));
  const mock = await startMockProcess({ port: await freePort(), latencyMs: 200, logFile: '/dev/null', controlToken: TOKEN });
  const sut = await startFakeSutByHand(['--variant', 'fixed', '--kind', 'platform-pool', '--threads', '8', '--prefix', 'llm-fixed-', '--mock', `${mock.url}/v1`]);
  try {
    const shared = join(tmp, 'shared');
    const args = ['--study', '000', '--profile', 'smoke', '--variants', 'fixed', '--levels', '4,9', '--shards', '2', '--sut-url', sut.url, '--mock-url', mock.url, '--out', shared, '--sync-timeout-s', '120'];
    // shard 1 starts 3 s after shard 0 (a pod scheduled later): shard 0 must wait for it at every cell
    const shards = await Promise.all([shardProcess(0, args), new Promise((r) => setTimeout(r, 3000)).then(() => shardProcess(1, args))]);
    for (const [i, s] of shards.entries()) assert.equal(s.code, 0, `shard ${i}: ${s.out}`);
    const dirs = [join(shared, 'shard-0'), join(shared, 'shard-1')];
    const parts = dirs.map((d) => new RunStore(d));
    assert.deepEqual(parts.map((p) => p.readManifest().shard?.index), [0, 1]);

    const out = capture();
    const merged = join(tmp, 'runs', 'merged');
    assert.equal(await main(['merge', ...dirs, '--out', merged], out.io, realDeps()), 0, out.text());
    const store = new RunStore(merged);
    const m = store.readManifest();
    assert.deepEqual(validate('RunManifest', m), []);
    assert.equal(m.status, 'complete');
    assert.equal(m.shard, undefined);
    assert.deepEqual(m.mergedShards?.map((s) => s.index), [0, 1]);
    assert.deepEqual(m.cellOrder, ['fixed-c4-r1', 'fixed-c9-r1']);
    for (const id of m.cellOrder) {
      const cell = store.readCell(id);
      assert.deepEqual(validate('CellFile', store.readCellFile(id)), [], id);
      const own = parts.map((p) => p.readCell(id));
      // totals are the sums of the shards; every worker of the level ran (c = 9 splits 5 + 4)
      assert.deepEqual(cell.shards!.map((s) => s.workers), id.includes('c9') ? [5, 4] : [2, 2]);
      assert.equal(cell.load.count, own[0]!.load.count + own[1]!.load.count, id);
      assert.equal(cell.load.ok, own[0]!.load.ok + own[1]!.load.ok, id);
      assert.equal(cell.load.count, cell.concurrency * 3, id);
      // percentiles from the merged raw records, not from the shards' summaries
      const raw = parts.flatMap((p) => expandRequests(p.readRequests(id)).map((r) => r.e2eMs));
      assert.deepEqual(cell.load.e2eMs, percentiles(raw), id);
      // the cell's HdrHistograms are the shards' summed: every successful request counted once
      assert.equal(hdrPercentiles(cell.hdr!.e2e)?.n, cell.load.ok, `${id}: merged histogram`);
      assert.equal(hdrPercentiles(cell.hdr!.e2e)?.n, own.reduce((n, c) => n + hdrPercentiles(c.hdr!.e2e)!.n, 0), id);
      // shard 0 reset the mock before the shared start and read it after the shared end: it saw every shard's requests
      assert.equal(cell.mock.after?.served, cell.load.count, `${id}: the mock's per-cell figures cover both shards`);
      for (const s of cell.shards!) assert.ok(Math.abs(s.t0OffsetMs) < 1000, `${id}: shard ${s.shard} started with the other (${s.t0OffsetMs} ms)`);
    }
    const rep = capture();
    assert.equal(await main(['report', merged, '--report-dir', join(tmp, 'report')], rep.io, realDeps()), 0, rep.text());
    const md = readFileSync(join(tmp, 'report', 'merged', 'report.md'), 'utf8');
    assert.match(md, /Per-shard load/);
    assert.match(md, new RegExp(`load generator hosts \\| 2 hosts, one shard each .*: 0: ${m.mergedShards![0]!.hostname} `));

    // a missing shard, a shard of another plan: refused before anything is written
    const only = capture();
    assert.equal(await main(['merge', dirs[0]!, '--out', join(tmp, 'runs', 'one')], only.io, realDeps()), EXIT.usage);
    assert.match(only.text(), /shard\(s\) 1 of 2 missing/);
    assert.ok(!existsSync(join(tmp, 'runs', 'one')));
    const other = join(tmp, 'other-1');
    cpSync(dirs[1]!, other, { recursive: true });
    const om = new RunStore(other).readManifest();
    writeFileSync(join(other, 'manifest.json'), JSON.stringify({ ...om, options: { ...om.options, latencyMs: 300 } }));
    const bad = capture();
    assert.equal(await main(['merge', dirs[0]!, other, '--out', join(tmp, 'runs', 'bad')], bad.io, realDeps()), EXIT.usage);
    assert.match(bad.text(), /shard 1 .* did not run the plan shard 0 .* ran: options\.latencyMs 300 vs 200/);
    // a cell missing from one shard: recorded as failed in the merged run, never merged from the other shard
    const holed = join(tmp, 'holed-1');
    cpSync(dirs[1]!, holed, { recursive: true });
    rmSync(join(holed, 'cells', 'fixed-c9-r1.json'));
    const gap = capture();
    assert.equal(await main(['merge', dirs[0]!, holed, '--out', join(tmp, 'runs', 'gap')], gap.io, realDeps()), EXIT.runData, gap.text());
    const gm = new RunStore(join(tmp, 'runs', 'gap')).readManifest();
    assert.equal(gm.status, 'failed');
    assert.deepEqual(gm.failedCells?.map((f) => f.cellId), ['fixed-c9-r1']);
    assert.match(gm.failedCells![0]!.cause, /no result in shard 1/);
    assert.deepEqual([...new RunStore(join(tmp, 'runs', 'gap')).doneCellIds()], ['fixed-c4-r1']);
  } finally {
    sut.child.kill('SIGTERM');
    await mock.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
});

