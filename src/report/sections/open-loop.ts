/** Report section `{{openLoop}}`: the open-loop (arrival-rate) cells (src/report/open-loop.ts). Pure. */
import { executorInfo } from '../../types/study.ts';
import type { ReportModel } from '../types.ts';
import type { OpenLoopCellModel } from '../open-loop.ts';
import { Raw, esc, int, ms, num, raw, rps, table } from '../format.ts';
import type { SectionKit } from './kit.ts';

/** P50 / P95 / P99 as printed, or — */
const p3 = (x: { p50: number; p95: number; p99: number } | null) => (x ? `${ms(x.p50)} / ${ms(x.p95)} / ${ms(x.p99)}` : '—');

/** One open-loop cell's table row. */
function cellRow(c: OpenLoopCellModel, k: SectionKit): (string | Raw)[] {
  return [
    raw(`${k.variantName(c.variant)} λ = ${num(c.targetRatePerS, 0)}${c.repeat > 1 ? ` (r${c.repeat})` : ''}`),
    rps(c.targetRatePerS),
    rps(c.achievedRatePerS),
    `${int(c.sent)} / ${int(c.scheduled)}`,
    int(c.refused),
    c.late === null ? '—' : int(c.late),
    int(c.errors),
    p3(c.e2eFromIntendedMs),
    p3(c.e2eFromSendMs),
    c.fit.slopePerS === null ? '—' : `${num(c.fit.slopePerS, 2)}${c.fit.r2 === null ? '' : ` (r² ${num(c.fit.r2, 3)})`}`,
    executorInfo(c.executor).pool(c.executor) !== null ? num(c.theorySlopePerS, 2) : '0',
    c.slopeRatio === null ? '—' : num(c.slopeRatio, 3),
  ];
}

/** `{{openLoop}}`: heading, intro, the cells' table, the fit note, the queue figure `fig` (when drawn), the closed-loop note; '' when the run has no open-loop cells. */
export function openLoop(model: ReportModel, k: SectionKit, fig: string | Raw | undefined): string | Raw {
  const { s } = k;
  const cells = model.openLoop;
  if (cells === null) return '';
  const first = cells[0]!;
  const tbl = table([s('h.ol.cell'), s('h.ol.target'), s('h.ol.achieved'), s('h.ol.sent'), s('h.ol.refused'), s('h.ol.late', { ms: int(first.lateThresholdMs ?? 0) }), s('h.ol.errors'), s('h.ol.fromIntended'), s('h.ol.fromSend'), s('h.ol.slope'), s('h.ol.theory'), s('h.ol.ratio')],
    cells.map((c) => cellRow(c, k)), ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']);
  return raw([
    s('openLoop.heading'),
    s('openLoop.intro', { durationS: num(first.durationS, 0), arrival: first.cellId.length > 0 ? esc(model.manifest.options.arrival ?? 'constant') : '', maxInFlight: int(first.maxInFlight) }),
    tbl.md,
    s('openLoop.fitNote', { samplerIntervalMs: int(model.manifest.options.samplerIntervalMs) }),
    ...(fig !== undefined ? [fig instanceof Raw ? fig.md : esc(fig)] : []),
    s('openLoop.closedLoopNote'),
  ].join('\n\n'));
}
