/**
 * Threshold rules on target runs (issue 32: thresholds keep working for a service vtbench did not
 * build). A run rule's cell is `<arm|*>@<level|*>` (a level is the clients, or the arrival rate of an
 * open-loop run); its value per cell is the median over the cell's repeats of the whole-run
 * throughput (cellThroughputRps, as the target report), the E2E P50/P95/P99 or the error rate
 * (failed ÷ sent). Two forms a study run has are not available for a target and are refused before
 * anything is measured (targetRuleProblem): `of: bound` (a target has no theoretical bound, only the
 * inferred ones of its report) and `window` (per-request windows are not computed for targets).
 * Compare rules are checked as for study runs (check.ts checkCompareRule) on compareTargetRuns. Pure.
 */
import type { TargetCell } from '../../types/target.ts';
import type { Comparison } from '../compare/model.ts';
import { percentiles } from '../../compute/stats/percentiles.ts';
import { targetMetricOf } from '../compare/target.ts';
import { EXIT, VtbenchError } from '../../types/errors.ts';
import { cellMatches, checkRules, type RuleOutcome } from './check.ts';
import { holds, isCompareRule, show, type RunMetric, type RunRule, type Thresholds } from './rules.ts';
import type { TargetRunFiles } from '../target/load.ts';

/** Why a rule cannot be checked on a target run, or null when it can. */
export function targetRuleProblem(r: RunRule): string | null {
  if (r.of === 'bound') return 'a target run has no theoretical bound to take a factor of: give the limit in req/s';
  if (r.window !== undefined) return 'windowed rules are not computed for target runs: drop "window" (the rule then holds over each cell\'s whole run)';
  return null;
}

/**
 * Refuse, before a target run measures anything, the rules it cannot check.
 * @throws VtbenchError(EXIT.usage) naming the file, the rule and the fix
 */
export function checkTargetRules(t: Thresholds): void {
  for (const { index, text, rule } of t.rules) {
    if (isCompareRule(rule)) continue;
    const why = targetRuleProblem(rule);
    if (why) throw new VtbenchError(`${t.file} rules/${index} "${text}": not checkable on a target run`, why, EXIT.usage);
  }
}

/**
 * The value of a run metric in one cell (one repeat); null when not computable. `error_rate` (0..1)
 * is failed ÷ sent in a closed loop; in an open loop an arrival the in-flight cap refused to send
 * counts as failed too ((failed + refused) ÷ scheduled), so a gate on errors sees an overload that
 * left the client no free connection.
 */
export function targetCellValue(metric: RunMetric, c: TargetCell): number | null {
  if (metric === 'error_rate') {
    const refused = c.summary.openLoop?.unsent.inFlightCap ?? 0;
    const all = c.summary.count + refused;
    return all > 0 ? (c.summary.count - c.summary.ok + refused) / all : null;
  }
  return targetMetricOf(metric, c);
}

function checkTargetRunRule(index: number, text: string, r: RunRule, run: TargetRunFiles): RuleOutcome[] {
  const failed = new Set(run.manifest.failed.map((f) => f.id));
  const cells = run.cells.filter((c) => !failed.has(c.id));
  const keys = [...new Set(cells.map((c) => `${c.arm}@${c.level}`))];
  const matching = keys.filter((k) => cellMatches(r.cell, k.slice(0, k.lastIndexOf('@')), Number(k.slice(k.lastIndexOf('@') + 1))));
  if (matching.length === 0) return [{ index, text, cell: null, status: 'broken', measured: null, limit: null, detail: `matches no cell of run ${run.manifest.runId} (it has ${keys.join(', ') || 'none'})` }];
  const problem = targetRuleProblem(r);
  return matching.map((cell) => {
    if (problem) return { index, text, cell, status: 'broken', measured: null, limit: null, detail: `${cell}: cannot be checked: ${problem}` };
    const repeats = cells.filter((c) => `${c.arm}@${c.level}` === cell);
    const values = repeats.map((c) => targetCellValue(r.metric, c)).filter((v): v is number => v !== null && Number.isFinite(v));
    const measured = percentiles(values)?.p50 ?? null;
    if (measured === null) return { index, text, cell, status: 'broken', measured: null, limit: r.value, detail: `${cell}: ${r.metric} not computable (no value in any repeat), limit ${r.op} ${show(r.value, r.metric)}` };
    const ok = holds(measured, r.op, r.value);
    return { index, text, cell, status: ok ? 'held' : 'broken', measured, limit: r.value, detail: `${cell}: measured ${show(measured, r.metric)} (median of ${values.length} repeat(s)), limit ${r.op} ${show(r.value, r.metric)}` };
  });
}

/** Check the run rules against a target run; compare rules are "not checked" here (they need `compare`). */
export function checkTargetRun(t: Thresholds, run: TargetRunFiles): RuleOutcome[] {
  return checkRules(t, (index, text, r) => checkTargetRunRule(index, text, r, run), null);
}

/** Check the compare rules against a comparison of target runs and the run rules against its run B. */
export function checkTargetCompare(t: Thresholds, c: Comparison, runB: TargetRunFiles): RuleOutcome[] {
  return checkRules(t, (index, text, r) => checkTargetRunRule(index, text, r, runB), c);
}
