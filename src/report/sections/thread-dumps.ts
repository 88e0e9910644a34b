/** Report section `{{threadDumps}}`: each thread dump's reading (phrase `td.<executor kind>`), its groups and containers. Pure. */
import { executorInfo } from '../../types/study.ts';
import type { ReportModel, ThreadDumpEvidence } from '../types.ts';
import { code, esc, int, num, raw, table, type Raw } from '../format.ts';
import type { SectionKit } from './kit.ts';

/** The parts of one dump: heading, reading, thread groups, containers. */
function dumpParts(d: ThreadDumpEvidence, k: SectionKit): string[] {
  const { P, s, variantName } = k;
  const parts: string[] = [`### ${esc(variantName(d.variant))} @ ${int(d.concurrency)} (${esc(d.cellId)})`];
  const otherN = d.otherVirtual.reduce((a, g) => a + g.count, 0);
  const pool = executorInfo(d.executor).pool(d.executor)?.threads ?? null;
  const others = pool === null && otherN > 0
    ? P('td.otherVirtual', { n: int(otherN), names: d.otherVirtual.map((g) => `${g.namePrefix} × ${int(g.count)}`).join(', ') })
    : raw('');
  parts.push(s(`td.${d.executor.kind}`, {
    threads: int(d.dump.threadCount), t: num(d.dump.takenAtMs / 1000, 2), inPool: int(d.dump.inSocketRead.poolThreads), inVirtual: int(d.dump.inSocketRead.virtual), other: int(d.dump.inSocketRead.other),
    N: int(pool), active: int(d.peakExecutorActive), queue: int(d.peakQueue), cMinusN: pool === null || k.openLoopRun ? '—' : int(Math.max(0, d.concurrency - pool)), vthreads: int(d.benchmarkThreads), c: int(d.concurrency),
    prefix: code(d.benchmarkPrefix), others,
  }));
  const frame = (f: string) => (f === '(no stack)' ? s('td.noStack') : f);
  parts.push(table([s('h.namePrefix'), s('h.virtualThread'), s('h.state'), s('h.topFrame'), s('h.count')],
    d.dump.groups.map((g) => [g.namePrefix, g.virtual ? s('yes') : s('no'), g.state, frame(g.topFrame), int(g.count)]), ['l', 'l', 'l', 'l', 'r']).md);
  if (d.containers.length) {
    parts.push(table([s('h.container'), s('h.count'), s('h.containerRole')],
      d.containers.map((c) => [c.name, int(c.threadCount), c.benchmark ? P('td.benchmarkExecutor', { prefix: code(d.benchmarkPrefix) }) : '']), ['l', 'r', 'l']).md);
  }
  if (d.emptyContainers > 0) parts.push(s('td.emptyContainers', { n: int(d.emptyContainers) }));
  return parts;
}

/** `{{threadDumps}}`: every dump of the run, or phrase `td.none`. */
export function threadDumps(model: ReportModel, k: SectionKit): Raw {
  const tdParts: string[] = [];
  if (!model.threadDumps.length) tdParts.push(k.s('td.none'));
  for (const d of model.threadDumps) tdParts.push(...dumpParts(d, k));
  return raw(tdParts.join('\n\n'));
}
