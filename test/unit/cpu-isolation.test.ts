/**
 * `--isolate-cpus` (issue 33 item 2, the option without its measurement): the CPU sets chosen or
 * refused (the CPU list injected), the taskset prefix of the SUT's command, the option's checks,
 * and the bounds that use the SUT's own CPUs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { formatCpuList, isolationOf, withAffinity } from '../../src/adapters/host/affinity.ts';
import { sutSpawnCommand, type StartSutOptions } from '../../src/adapters/jvm/sut-process.ts';
import { cpuBoundInputs, isolatedSutCores } from '../../src/compute/theory/cell-bounds.ts';
import { resolveOptions } from '../../src/plan/profiles.ts';
import { formatPlan, makePlan } from '../../src/plan/plan.ts';
import { TOY_STUDY } from '../fixtures/toy-study/study.ts';
import { VtbenchError, EXIT } from '../../src/types/errors.ts';

const refused = (re: RegExp) => (e: unknown) => e instanceof VtbenchError && e.exitCode === EXIT.usage && re.test(e.message);

test('isolation refused with a clear message when this process may use fewer than 2 CPUs', () => {
  assert.throws(() => isolationOf('auto', [0]), refused(/--isolate-cpus: needs at least 2 CPUs \(one for the SUT, one for the harness\); this process may use 1 \(CPUs 0\)/));
  assert.throws(() => isolationOf('1/0', [3]), refused(/needs at least 2 CPUs/));
  assert.throws(() => isolationOf('auto', null), refused(/unknown/));
  assert.equal(isolationOf('off', [0]), undefined, 'off needs no CPU');
});

test('auto: the harness on the lower half (rounded down, at least 1), the SUT on the rest; this 2-CPU machine gives SUT 1, harness 0', () => {
  assert.deepEqual(isolationOf('auto', [0, 1]), { sutCpus: '1', harnessCpus: '0' });
  assert.deepEqual(isolationOf('auto', [0, 1, 2]), { sutCpus: '1-2', harnessCpus: '0' });
  assert.deepEqual(isolationOf('auto', [0, 1, 2, 3, 4, 5, 6, 7]), { sutCpus: '4-7', harnessCpus: '0-3' });
  assert.deepEqual(isolationOf('auto', [2, 5]), { sutCpus: '5', harnessCpus: '2' });
});

test('explicit <sut>/<harness>: as given when disjoint and available; overlap, foreign CPUs and malformed lists are refused', () => {
  assert.deepEqual(isolationOf('1/0', [0, 1]), { sutCpus: '1', harnessCpus: '0' });
  assert.deepEqual(isolationOf('2-3,5/0,1', [0, 1, 2, 3, 4, 5]), { sutCpus: '2-3,5', harnessCpus: '0-1' });
  assert.throws(() => isolationOf('0-1/1', [0, 1]), refused(/CPU\(s\) 1 are in both sets/));
  assert.throws(() => isolationOf('2/0', [0, 1]), refused(/CPU\(s\) 2 are not ones this process may use \(CPUs 0-1\)/));
  assert.throws(() => isolationOf('x/0', [0, 1]), refused(/not a CPU list/));
  assert.throws(() => isolationOf('on', [0, 1]), refused(/'on' is not off, auto or <sut cpus>\/<harness cpus>/));
  assert.equal(formatCpuList([0, 1, 2, 4, 6, 7]), '0-2,4,6-7');
});

test('the SUT\'s command carries the taskset prefix when isolated, and is plain java otherwise', () => {
  const o: StartSutOptions = {
    jdk: { home: '/jdk', major: 25, version: '25', vendor: 'x' }, jarPath: '/sut.jar', port: 19080, mockBaseUrl: 'http://127.0.0.1:19000/v1',
    variant: { id: 'vt', label: 'vt', executor: { kind: 'virtual-per-task' }, threadNamePrefix: 'vt-' } as StartSutOptions['variant'],
    jvmFlags: ['-Xmx512m'], samplerIntervalMs: 250, pinnedThresholdMs: 20, logFile: '/tmp/x.log', readyTimeoutMs: 1000,
  };
  const plain = sutSpawnCommand(o);
  assert.equal(plain.cmd, '/jdk/bin/java');
  assert.ok(plain.args.includes('-Xmx512m'));
  const pinned = sutSpawnCommand({ ...o, cpus: '1' });
  assert.equal(pinned.cmd, 'taskset');
  assert.deepEqual(pinned.args.slice(0, 3), ['-c', '1', '/jdk/bin/java']);
  assert.deepEqual(pinned.args.slice(3), plain.args, 'the same java arguments behind the prefix');
  assert.deepEqual(withAffinity('node', ['a'], undefined), { cmd: 'node', args: ['a'] });
});

test('the option: off by default, shown in the plan when on, refused with --sut-url', () => {
  const off = resolveOptions(TOY_STUDY, 'tiny', {});
  assert.equal(off.cpuIsolation, undefined, 'default off');
  assert.doesNotMatch(formatPlan(off, makePlan(off, TOY_STUDY), '/tmp/x'), /CPU isolation/);
  const on = resolveOptions(TOY_STUDY, 'tiny', { cpuIsolation: 'off' });
  assert.equal(on.cpuIsolation, undefined);
  // the real CPU list of this process: only where it has 2 or more CPUs
  const real = (() => { try { return resolveOptions(TOY_STUDY, 'tiny', { cpuIsolation: 'auto' }); } catch { return null; } })();
  if (real) assert.match(formatPlan(real, makePlan(real, TOY_STUDY), '/tmp/x'), /CPU isolation \(taskset\): SUT JVM on CPUs \S+; harness \(load generator, mock, PostgreSQL\) on CPUs \S+; the bounds use the SUT's CPUs/);
  if (real) assert.throws(() => resolveOptions(TOY_STUDY, 'tiny', { cpuIsolation: 'auto', sutUrl: 'http://10.0.0.2:19080', mockUrl: 'http://10.0.0.2:19000' }), refused(/--isolate-cpus places the SUT JVM this run starts/));
});

test('bounds: without isolation the host\'s cores over every process\'s CPU per request; with it the SUT\'s CPUs over the SUT\'s own', () => {
  assert.equal(isolatedSutCores({}), null);
  assert.equal(isolatedSutCores({ cpuIsolation: { sutCpus: '2-3,6' } }), 3);
  assert.deepEqual(cpuBoundInputs({ hostCores: 2, sutCores: null, allMsPerRequest: 4, sutMsPerRequest: 3 }), { cores: 2, cpuMsPerRequest: 4 });
  assert.deepEqual(cpuBoundInputs({ hostCores: 2, sutCores: 1, allMsPerRequest: 4, sutMsPerRequest: 3 }), { cores: 1, cpuMsPerRequest: 3 });
  assert.deepEqual(cpuBoundInputs({ hostCores: 2, sutCores: 1, allMsPerRequest: 4, sutMsPerRequest: null }), { cores: 1, cpuMsPerRequest: null });
});

test('study 002\'s CPU bound of a real run uses the SUT\'s CPUs and CPU per request when the run was isolated', async () => {
  const { loadRun } = await import('../fixtures/registered.ts');
  const { buildModel } = await import('../../src/report/model.ts');
  const { rows002 } = await import('../../src/studies/002/report.ts');
  const run = await loadRun(fileURLToPath(new URL('../fixtures/study-002/smoke-alone/', import.meta.url)));
  const shared = rows002(buildModel(run));
  const isolated = rows002(buildModel({ ...run, manifest: { ...run.manifest, options: { ...run.manifest.options, cpuIsolation: { sutCpus: '1', harnessCpus: '0' } } } }));
  let compared = 0;
  for (const [i, r] of shared.entries()) {
    const a = r.bounds.find((b) => b.kind === 'cpu');
    const b = isolated[i]!.bounds.find((x) => x.kind === 'cpu');
    if (!a) continue;
    compared++;
    assert.equal(a.inputs['cores'], run.manifest.host.cores, r.variant);
    assert.equal(a.inputs['cpuMsPerRequest'], r.cpuMsPerRequest);
    assert.ok(b, `${r.variant}: isolated cpu bound`);
    assert.equal(b.inputs['cores'], 1);
    assert.equal(b.inputs['cpuMsPerRequest'], r.sutCpuMsPerRequest, `${r.variant}: the SUT's own CPU per request`);
    assert.notEqual(b.rps, a.rps);
  }
  assert.ok(compared > 0, 'the fixture has a CPU bound to compare');
});

test('study 004\'s CPU bound of a real run uses the SUT\'s CPUs and the SUT\'s CPU alone when the run was isolated', async () => {
  const { loadRun } = await import('../fixtures/registered.ts');
  const { derive004, cellCpuMsPerRequest } = await import('../../src/studies/004/report.ts');
  const run = await loadRun(fileURLToPath(new URL('../fixtures/study-004/quick-http/', import.meta.url)));
  const isolatedRun = { ...run, manifest: { ...run.manifest, options: { ...run.manifest.options, cpuIsolation: { sutCpus: '1', harnessCpus: '0' } } } };
  const { buildModel } = await import('../../src/report/model.ts');
  const shared = derive004(buildModel(run)).http;
  const isolated = derive004(buildModel(isolatedRun)).http;
  assert.ok(shared.length > 0 && shared.some((r) => r.cpuMsPerRequest !== null), 'the fixture has a CPU per request');
  for (const [i, r] of shared.entries()) {
    const x = isolated[i]!;
    if (r.cpuMsPerRequest === null) continue;
    const cell = run.cells.find((c) => c.variant === r.variant && c.load.e2eMs != null)!;
    assert.ok(x.cpuMsPerRequest! < r.cpuMsPerRequest, `${r.variant}: without the generator's CPU`);
    assert.equal(x.cpuBoundRps, 1 / (x.cpuMsPerRequest! / 1000), `${r.variant}: 1 CPU / the SUT's CPU per request`);
    assert.equal(r.cpuBoundRps, run.manifest.host.cores / (r.cpuMsPerRequest / 1000), `${r.variant}: host cores / everything's`);
    assert.ok(cellCpuMsPerRequest(cell, false)! <= cellCpuMsPerRequest(cell)!);
  }
});
