/** Report section `{{flagsAndGaps}}`: the run's gaps, its cells' flags, and the derived saturation note. Pure. */
import type { ReportModel } from '../types.ts';
import { esc, int, ms, num, pct, raw, table, type Raw } from '../format.ts';
import type { SectionKit } from './kit.ts';

/**
 * A flag's value or threshold in the one unit of its code (listed in src/compute/analysis/flags.ts);
 * unknown codes as plain numbers. Legacy `host-cpu` flags holding the SUT-CPU share were read as
 * `sut-cpu` by the model (upgradeLegacyFlag).
 */
export function flagValue(k: Pick<SectionKit, 'P'>, flagCode: string, x: number): string | Raw {
  const { P } = k;
  switch (flagCode) {
    case 'errors-above-threshold': return pct(x * 100, 2);
    case 'loadgen-cpu': return P('unit.pctOfOneCore', { v: num(x, 0) });
    case 'host-cpu': return P('unit.pctOfAllCores', { v: num(x, 0) });
    case 'host-other-cpu': return P('unit.pctOfAllCores', { v: num(x * 100, 0) });
    case 'sut-cpu': return P('unit.shareOfSamples', { v: num(x * 100, 0) });
    case 'loadgen-late-sends': return P('unit.shareOfRequests', { v: num(x * 100, 1) });
    case 'loadgen-lag':
    case 'scheduler-delay': return ms(x);
    case 'concurrency-below-target': return P('unit.workers', { v: int(x) });
    case 'component-disagrees': return int(x);
    default: return num(x, 3);
  }
}

/** `{{flagsAndGaps}}`: gaps (or none), the flags table (or none), and a note when the model derived saturation evidence. */
export function flagsAndGaps(model: ReportModel, k: SectionKit): Raw {
  const { s } = k;
  const sat = model.saturation;
  const fg: string[] = [];
  fg.push(model.gaps.length ? [s('gaps.intro', { n: int(model.gaps.length) }), ...model.gaps.map((g) => `- ${esc(g)}`)].join('\n') : s('gaps.none'));
  if (model.flags.length) {
    fg.push(s('flags.intro', { n: int(model.flags.length) }));
    fg.push(table([s('h.cell'), s('h.flag'), s('h.message'), s('h.value'), s('h.threshold')],
      model.flags.map(({ cellId, flag }) => [cellId, flag.code, flag.message, flagValue(k, flag.code, flag.value), flagValue(k, flag.code, flag.threshold)]), ['l', 'l', 'l', 'r', 'r']).md);
  } else fg.push(s('flags.none'));
  if (sat.schedulerDelay.length || sat.sutCpu.length) fg.push(s('flags.derived'));
  return raw(fg.join('\n\n'));
}
