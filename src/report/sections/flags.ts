/** Report section `{{flagsAndGaps}}`: the run's gaps, its cells' flags grouped by kind, and the derived saturation note; the per-cell flags as an appendix. Pure. */
import type { ReportModel } from '../types.ts';
import type { CellFlag } from '../../types/run.ts';
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

/** The flags of one code: how many, on how many cells, and the one furthest past its threshold. */
export interface FlagGroup {
  code: CellFlag['code'];
  count: number;
  cells: number;
  worst: { cellId: string; flag: CellFlag };
}

/**
 * How far a flag is past its threshold, as a ratio ≥ 1 (larger is worse): value / threshold, except
 * `concurrency-below-target` (threshold / value: fewer in flight is worse) and `component-disagrees`
 * (the larger of the two counts over the smaller: a mismatch either way). A zero denominator is
 * Infinity. Pure.
 */
export function flagSeverity(f: Pick<CellFlag, 'code' | 'value' | 'threshold'>): number {
  const ratio = (a: number, b: number) => (b === 0 ? (a === 0 ? 1 : Infinity) : a / b);
  if (f.code === 'concurrency-below-target') return ratio(f.threshold, f.value);
  if (f.code === 'component-disagrees') return Math.max(ratio(f.value, f.threshold), ratio(f.threshold, f.value));
  return ratio(f.value, f.threshold);
}

/** The run's flags grouped by code, in the order each code first appears; the worst by flagSeverity (ties: the first). Pure. */
export function groupFlags(flags: readonly { cellId: string; flag: CellFlag }[]): FlagGroup[] {
  const groups = new Map<string, FlagGroup & { cellIds: Set<string> }>();
  for (const f of flags) {
    const g = groups.get(f.flag.code);
    if (!g) { groups.set(f.flag.code, { code: f.flag.code, count: 1, cells: 1, worst: f, cellIds: new Set([f.cellId]) }); continue; }
    g.count++;
    g.cellIds.add(f.cellId);
    g.cells = g.cellIds.size;
    if (flagSeverity(f.flag) > flagSeverity(g.worst.flag)) g.worst = f;
  }
  return [...groups.values()].map(({ cellIds: _, ...g }) => g);
}

/**
 * `{{flagsAndGaps}}`: gaps (or none), the flags grouped by kind — one row per flag code with its
 * meaning (phrase `flags.kind.<code>`), its count, its cells and its worst value with that cell's
 * threshold — (or none), and a note when the model derived saturation evidence. The per-cell table
 * is in the appendix (flagsAppendix).
 */
export function flagsAndGaps(model: ReportModel, k: SectionKit): Raw {
  const { s } = k;
  const sat = model.saturation;
  const fg: string[] = [];
  fg.push(model.gaps.length ? [s('gaps.intro', { n: int(model.gaps.length) }), ...model.gaps.map((g) => `- ${esc(g)}`)].join('\n') : s('gaps.none'));
  if (model.flags.length) {
    fg.push(s('flags.intro', { n: int(model.flags.length) }));
    fg.push(table([s('h.flag'), s('h.flagKind'), s('h.flagCount'), s('h.flagCells'), s('h.worstValue'), s('h.threshold'), s('h.worstCell')],
      groupFlags(model.flags).map((g) => [g.code, k.t.phrases[`flags.kind.${g.code}`] !== undefined ? raw(s(`flags.kind.${g.code}`)) : '—', int(g.count), int(g.cells),
        flagValue(k, g.code, g.worst.flag.value), flagValue(k, g.code, g.worst.flag.threshold), g.worst.cellId]), ['l', 'l', 'r', 'r', 'r', 'r', 'l']).md);
    fg.push(s('flags.appendix.pointer'));
  } else fg.push(s('flags.none'));
  if (sat.schedulerDelay.length || sat.sutCpu.length) fg.push(s('flags.derived'));
  return raw(fg.join('\n\n'));
}

/**
 * The appendix "Flags per cell": every flag of every cell with its message, value and threshold
 * (phrases `flags.appendix.*`); empty when the run raised no flag. The engine puts it before the
 * data appendix (render-md.ts).
 */
export function flagsAppendix(model: ReportModel, k: SectionKit): string {
  if (model.flags.length === 0) return '';
  const { s } = k;
  return [
    `## ${s('flags.appendix.title')}`,
    s('flags.appendix.intro', { n: int(model.flags.length) }),
    table([s('h.cell'), s('h.flag'), s('h.message'), s('h.value'), s('h.threshold')],
      model.flags.map(({ cellId, flag }) => [cellId, flag.code, flag.message, flagValue(k, flag.code, flag.value), flagValue(k, flag.code, flag.threshold)]), ['l', 'l', 'l', 'r', 'r']).md,
  ].join('\n\n');
}
