/** Report section `{{environment}}`: host, versions, SUT settings, plan, the recorded host environment (cgroup, clock source, affinity, other processes' CPU), and the load shards of a sharded run. Pure. */
import { executorInfo } from '../../types/study.ts';
import type { ReportModel } from '../types.ts';
import { int, ms, num, pct, raw, rps, table, type Raw } from '../format.ts';
import { OTHER_CPU_SHARE } from '../../compute/analysis/other-cpu.ts';
import type { SectionKit } from './kit.ts';
import { driverLevel } from '../model.ts';

/** Per variant: `<id>.threads` and `<id>.queue` (platform pools), `<id>.label`; `list` = one line per variant. */
function executorVars(model: ReportModel): Record<string, string> {
  const o = model.manifest.options;
  const execVars: Record<string, string> = {};
  for (const v of model.variantSpecs.values()) {
    execVars[`${v.id}.label`] = v.label;
    const pool = executorInfo(v.executor).pool(v.executor);
    if (pool) { execVars[`${v.id}.threads`] = int(pool.threads); execVars[`${v.id}.queue`] = int(pool.queueCapacity); }
  }
  execVars['list'] = o.variants.map((id) => { const v = model.variantSpecs.get(id); const e = v?.executor; const pool = e ? executorInfo(e).pool(e) : null; return `${v?.label ?? id}: ${pool ? `${e!.kind}(${int(pool.threads)}, queue ${int(pool.queueCapacity)})` : (e?.kind ?? '?')}`; }).join('; ');
  return execVars;
}

/** The template's executor line; the generic list when it names a variant this run did not run (e.g. a pool's `{{<id>.threads}}` in a run without that variant). */
function executorValue(model: ReportModel, k: SectionKit): Raw | string {
  const execVars = executorVars(model);
  const names = [...(k.t.phrases['env.executorValue'] ?? '').matchAll(/\{\{([A-Za-z0-9_.:-]+)\}\}/g)].map((x) => x[1] as string);
  return names.every((n) => execVars[n] !== undefined) ? k.P('env.executorValue', execVars) : execVars['list'] as string;
}

/** The environment table's rows (item, value). */
function envRows(model: ReportModel, k: SectionKit): [string, string | Raw][] {
  const { s, P } = k;
  const m = model.manifest;
  const o = m.options;
  const sut = model.sutInfo;
  const env: [string, string | Raw][] = [
    [s('env.profile'), o.profile],
    [s('env.os'), `${m.host.os} (${m.host.kernel}, ${m.host.arch})`],
    [s('env.cpu'), P('env.cpuValue', { model: m.host.cpuModel, cores: int(m.host.cores) })],
    [s('env.memory'), `${num(m.host.memoryBytes / 1024 ** 3, 1)} GiB`],
    [s('env.jdk'), `${m.versions.jdkVendor ?? '—'} ${m.versions.jdk ?? '—'}`],
    [s('env.spring'), `Spring Boot ${m.versions.springBoot ?? '—'}, Spring AI ${m.versions.springAi ?? '—'}`],
    [s('env.node'), `Node ${m.versions.node}, undici ${m.versions.undici}`],
    [s('env.jvmFlags'), sut ? sut.jvmFlags.join(' ') : o.jvmFlags.join(' ')],
    [s('env.executor'), executorValue(model, k)],
    [s('env.mock'), model.mockModel !== null ? P('env.mockValue', { L: int(o.latencyMs), model: model.mockModel }) : `${int(o.latencyMs)} ms`],
    [s('env.levels'), planValue(model, k)],
    [s('env.sampler'), `${o.samplerIntervalMs} ms; JFR pinned threshold ${o.pinnedThresholdMs} ms`],
  ];
  if (sut) {
    env.push([s('env.tomcat'), `maxThreads ${sut.tomcat.maxThreads}, maxConnections ${sut.tomcat.maxConnections}, maxKeepAliveRequests ${sut.tomcat.maxKeepAliveRequests}, async timeout ${sut.tomcat.asyncRequestTimeoutMs} ms`]);
    env.push([s('env.okhttp'), `maxIdleConnections ${sut.okhttp.maxIdleConnections}, keepAlive ${sut.okhttp.keepAliveDurationMs} ms`]);
  }
  env.push([s('env.tool'), `vtbench ${m.tool.version}${m.tool.gitCommit ? ` @ ${m.tool.gitCommit.slice(0, 12)}${m.tool.gitDirty ? ' (dirty)' : ''}` : ''}`]);
  env.push([s('env.time'), `${m.startedAt} → ${m.endedAt ?? '—'} (${k.statusText(m.status)})`]);
  // components by URL and load shards (issue 18): rows and a per-shard table only in runs that had them
  if (m.external) env.push([s('env.external'), P('env.externalValue', { sut: m.external.sut ?? P('env.startedHere'), mock: m.external.mock ?? P('env.startedHere') })]);
  if ((o.shards ?? 1) > 1) env.push([s('env.shards'), P('env.shardsValue', { k: int(o.shards!) })]);
  if (m.mergedShards) env.push([s('env.hosts'), P('env.hostsValue', { k: int(m.mergedShards.length), list: m.mergedShards.map((x) => `${x.index}: ${x.hostname} (${x.host.cores} cores)`).join('; ') })]);
  env.push(...hostEnvRows(model, k));
  return env;
}

/**
 * The plan row: the levels and requests per worker that ran. A run whose scenarios have their own
 * levels (options.scenarioLevels) prints each scenario's, never the run-wide defaults it did not use.
 */
function planValue(model: ReportModel, k: SectionKit): Raw {
  const { P } = k;
  const o = model.manifest.options;
  const rest = { repeats: P(o.repeats === 1 ? 'n.repeats.one' : 'n.repeats.many', { n: int(o.repeats) }), warmup: o.warmupS > 0 ? P('env.warmup', { s: int(o.warmupS) }) : P('env.noWarmup'), start: P(`start.${o.start}`) };
  const ran = new Set(model.cells.map((c) => c.scenario));
  const per = Object.entries(o.scenarioLevels ?? {}).filter(([sc]) => ran.has(sc));
  if (per.length === 0) return P('env.planValue', { levels: o.levels.join(' / '), n: int(o.requestsPerWorker), ...rest });
  // held connections (DriverLevel `connections`) have no requests per worker
  const list = per.map(([sc, p]) => k.s(driverLevel(model.study, sc) === 'connections' ? 'env.planScenario.held' : 'env.planScenario', { scenario: sc, levels: p.levels.map((x) => int(x)).join(' / '), n: int(p.requestsPerWorker) })).join('; ');
  return P('env.planValue.scenarios', { list, ...rest });
}

/**
 * The rows of the environment recorded since issue 33, each only when the run has it (older runs
 * render as before): the cgroup limits, the clock source, the CPU isolation, each process's CPU affinity (a SUT JVM's
 * with its availableProcessors and carrier parallelism as it reported them), and the largest share
 * of the machine's CPU other processes used in a cell.
 */
function hostEnvRows(model: ReportModel, k: SectionKit): [string, string | Raw][] {
  const { s, P } = k;
  const m = model.manifest;
  const rows: [string, string | Raw][] = [];
  const cg = m.host.cgroup;
  if (cg) {
    rows.push([s('env.cgroup'), cg.version === null ? P('env.cgroupUnread') : P('env.cgroupValue', {
      v: String(cg.version),
      cpu: cg.cpuQuotaCores === null ? P('env.noLimit') : P('env.quotaValue', { cores: num(cg.cpuQuotaCores, 2), quota: int(cg.cpuQuotaUs), period: int(cg.cpuPeriodUs) }),
      mem: cg.memoryLimitBytes === null ? P('env.noLimit') : `${num(cg.memoryLimitBytes / 1024 ** 3, 2)} GiB`,
    })]);
  }
  if (m.host.clockSource !== undefined) rows.push([s('env.clockSource'), m.host.clockSource ?? '—']);
  const iso = m.options.cpuIsolation;
  if (iso) rows.push([s('env.isolation'), P('env.isolationValue', { sut: iso.sutCpus, harness: iso.harnessCpus })]);
  if (m.affinity) {
    const parts = Object.entries(m.affinity).map(([role, a]) => {
      const info = role.startsWith('sut-') ? m.sut[role.slice(4)] : undefined;
      const cpus = a.cpus ?? '—';
      return info ? P('env.affinitySut', { role, cpus, ap: int(info.availableProcessors), par: info.vtSchedulerParallelism === null ? '—' : int(info.vtSchedulerParallelism) }).md : P('env.affinityValue', { role, cpus }).md;
    });
    rows.push([s('env.affinity'), raw(parts.join('; '))]);
  }
  const measured = model.cells.filter((c) => c.otherCpuShare != null);
  if (measured.length > 0) {
    const top = measured.reduce((a, c) => (c.otherCpuShare! > a.otherCpuShare! ? c : a));
    const flagged = model.cells.filter((c) => c.flags.some((f) => f.code === 'host-other-cpu'));
    rows.push([s('env.otherCpu'), P('env.otherCpuValue', { max: pct(top.otherCpuShare! * 100, 0), cell: top.cellId, n: int(flagged.length), cells: int(measured.length), thr: pct(OTHER_CPU_SHARE * 100, 0) })]);
  }
  return rows;
}

/** `{{environment}}`: the environment table, then the per-shard table when the run's cells had load shards. */
export function environment(model: ReportModel, k: SectionKit): Raw {
  const { s, P } = k;
  const shardRows = model.cells.flatMap((c) => (c.shards ?? []).map((x) => [c.cellId, int(x.shard), int(x.workers), int(x.count), x.sendRatePerS === null ? '—' : rps(x.sendRatePerS), ms(x.t0OffsetMs), x.loadgen.cpuPct === null ? '—' : P('unit.pctOfOneCore', { v: num(x.loadgen.cpuPct, 0) })]));
  const envTable = table([s('h.item'), s('h.value')], envRows(model, k));
  return shardRows.length === 0 ? envTable
    : raw([envTable.md, s('shards.intro'), table([s('h.cell'), s('h.shard'), s('h.shardWorkers'), s('h.n'), s('h.sendRate'), s('h.t0Offset'), s('h.shardCpu')], shardRows, ['l', 'r', 'r', 'r', 'r', 'r', 'r']).md].join('\n\n'));
}
