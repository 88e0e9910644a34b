/**
 * A windowed run rule (`… over steady|last:<N>s|every:<N>s`, issue 33 item 5): the metric over a
 * window of each repeat's per-request records (src/compute/analysis/windows.ts), checked in every
 * repeat of the cell; the worst window of the worst repeat counts (the one furthest on the wrong
 * side of the limit), and the outcome names it: value, limit, window (its seconds after the cell's
 * start) and the repeat's cell id. A repeat without readable records, or a steady or last-N window
 * without a value, breaks the rule (a gate that cannot check does not pass). Of every:N windows, those
 * without a value (no request, or no successful one for a latency, e.g. a stall whose answers end
 * later) are left out and counted; a repeat with none left cannot be checked. Pure.
 */
import type { CellResult, CompactRequests } from '../../types/run.ts';
import { parseWindow, windowText, windowValues, type WindowValue } from '../../compute/analysis/windows.ts';
import { holds, show, type RunRule } from './rules.ts';

/** What a windowed check found: as RuleOutcome without the rule's index, text and cell. */
export interface WindowedOutcome {
  status: 'held' | 'broken';
  measured: number | null;
  limit: number;
  detail: string;
}

const secs = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/** Whether value x is worse than y for a rule with this operator (a lower limit: smaller is worse). */
function worse(x: number, y: number, op: RunRule['op']): boolean {
  return op === '>=' || op === '>' ? x < y : x > y;
}

/**
 * Check a windowed run rule in every repeat of one cell.
 * @param cell `<variant>@<level>`, for the message
 * @param repeats the cell's repeats (CellResult: id and steady window)
 * @param requests per-request records by cell id
 * @param limit the limit in the metric's unit (a factor of the bound already applied); limitText how to show it
 */
export function checkWindowedRule(r: RunRule, cell: string, repeats: readonly CellResult[], requests: ReadonlyMap<string, CompactRequests>, limit: number, limitText: string): WindowedOutcome {
  const w = parseWindow(r.window ?? '');
  if (w === null) throw new Error(`checkWindowedRule: rule without a valid window (${String(r.window)}); readThresholds refuses it`);
  const over = windowText(w);
  const cannot = (why: string): WindowedOutcome => ({ status: 'broken', measured: null, limit, detail: `${cell}: ${r.metric} over ${over} cannot be checked: ${why}, limit ${r.op} ${limitText}` });
  if (repeats.length === 0) return cannot('the cell has no repeat');
  let worst: { v: WindowValue; id: string; windows: number } | null = null;
  let empty = 0;
  for (const c of repeats) {
    const req = requests.get(c.cellId);
    if (!req) return cannot(`the per-request records of ${c.cellId} are missing or unreadable`);
    const all = windowValues(w, r.metric, req, c.load.steadyWindow ?? null);
    if (all.length === 0) return cannot(`${c.cellId} has no ${w.kind === 'steady' ? 'steady window' : 'answer'}`);
    const values = w.kind === 'every' ? all.filter((v) => v.value !== null) : all;
    empty += all.length - values.length;
    const none = all.find((v) => v.value === null)!;
    if (values.length === 0 || values.some((v) => v.value === null)) return cannot(`${c.cellId} has no ${r.metric === 'error_rate' ? 'request' : 'successful request'} in ${secs(none.startMs)}–${secs(none.endMs)}`);
    for (const v of values) {
      if (worst === null || worse(v.value!, worst.v.value!, r.op)) worst = { v, id: c.cellId, windows: all.length };
    }
  }
  const { v, id, windows } = worst!;
  const left = empty > 0 ? `; ${empty} window(s) without a value left out` : '';
  const which = w.kind === 'every' ? `the worst of ${windows} ${w.seconds}-second window(s)${left}` : w.kind === 'steady' ? 'the steady window' : `the last ${w.seconds} s`;
  const ok = holds(v.value!, r.op, limit);
  return {
    status: ok ? 'held' : 'broken',
    measured: v.value,
    limit,
    detail: `${cell}: measured ${show(v.value!, r.metric)} over ${over} (${which}, ${secs(v.startMs)}–${secs(v.endMs)} after the start of ${id}, ${v.count} request(s); worst of ${repeats.length} repeat(s)), limit ${r.op} ${limitText}`,
  };
}
