/**
 * Checking threshold rules (src/report/thresholds/rules.ts) against a run or a comparison.
 * Pure: rules and data in, one outcome per (rule, matching cell) out. A rule that matches no cell
 * is broken (a typo must not pass); a value that is not computable breaks its rule (a gate that
 * cannot check does not pass). A compare rule is held when B is shown not slower (MetricComparison.notSlower:
 * "faster", or an interval around 0 whose slow end stays below the minimum effect in quiet runs),
 * broken on "slower", inconclusive otherwise, and not comparable when the runs are not (issue 33 items 3-4).
 * A windowed run rule (window.ts) is checked in every repeat of the cell from its per-request
 * records; the worst repeat counts. `enforce` prints the outcome and throws with the exit code of
 * the worst outcome: broken (9), not comparable (10), inconclusive (11).
 */
import type { CellResult, CompactRequests, RunSummary, SummaryRow } from '../../types/run.ts';
import type { Comparison } from '../compare/model.ts';
import { EXIT, VtbenchError } from '../../types/errors.ts';
import { holds, isCompareRule, show, type CompareRule, type RunMetric, type RunRule, type Thresholds } from './rules.ts';
import { checkWindowedRule } from './window.ts';

/** What run rules are checked against: the summary (whole-run rules) and the cells with their per-request records (windowed rules). */
export interface RunData {
  summary: RunSummary;
  cells: readonly CellResult[];
  requests: ReadonlyMap<string, CompactRequests>;
}

export interface RuleOutcome {
  /** the rule's index in the file and its text */
  index: number;
  text: string;
  /** `<variant>@<level>` of the cell checked; null when the rule matched no cell */
  cell: string | null;
  /**
   * held, broken, not checked here (a compare rule on a run), inconclusive (a compare rule whose
   * verdict is), or not comparable (a compare rule on runs that differ in a guarded setting)
   */
  status: 'held' | 'broken' | 'not checked' | 'inconclusive' | 'not comparable';
  /** the measured value (median of the cell's repeats) or B − A; null when not computable */
  measured: number | null;
  /** the limit it was held against; null for compare rules */
  limit: number | null;
  /** one line: measured, limit, cell (or the verdict and interval, or why it could not be checked) */
  detail: string;
}

/** `<variant>@<level>` patterns with `*`. */
export function cellMatches(pattern: string | undefined, variant: string, level: number): boolean {
  if (pattern === undefined) return true;
  const at = pattern.lastIndexOf('@');
  const v = pattern.slice(0, at);
  const l = pattern.slice(at + 1);
  return (v === '*' || v === variant) && (l === '*' || Number(l) === level);
}

function measuredOf(row: SummaryRow, metric: RunMetric): number | null {
  switch (metric) {
    case 'throughput': return row.throughput.wholeRunRps.median;
    case 'e2e_p50': return row.e2eMs.p50.median;
    case 'e2e_p95': return row.e2eMs.p95.median;
    case 'e2e_p99': return row.e2eMs.p99.median;
    case 'error_rate': return row.errors.rate.median;
  }
}

function checkRunRule(index: number, text: string, r: RunRule, run: RunData): RuleOutcome[] {
  const summary = run.summary;
  const rows = summary.rows.filter((row) => cellMatches(r.cell, row.variant, row.concurrency));
  if (rows.length === 0) {
    const have = summary.rows.map((row) => `${row.variant}@${row.concurrency}`).join(', ');
    return [{ index, text, cell: null, status: 'broken', measured: null, limit: null, detail: `matches no cell of run ${summary.runId} (it has ${have})` }];
  }
  return rows.map((row) => {
    const cell = `${row.variant}@${row.concurrency}`;
    const limit = r.of === 'bound' ? r.value * row.boundRps : r.value;
    const limitText = r.of === 'bound' ? `${show(limit, r.metric)} (${r.value} × bound ${show(row.boundRps, r.metric)})` : show(limit, r.metric);
    if (r.window !== undefined) {
      const repeats = run.cells.filter((c) => c.variant === row.variant && c.concurrency === row.concurrency);
      return { index, text, cell, ...checkWindowedRule(r, cell, repeats, run.requests, limit, limitText) };
    }
    const measured = measuredOf(row, r.metric);
    const n = r.metric === 'throughput' ? row.throughput.wholeRunRps.n : row.repeats;
    if (measured === null) {
      return { index, text, cell, status: 'broken', measured: null, limit, detail: `${cell}: ${r.metric} not computable (no value in any repeat), limit ${r.op} ${limitText}` };
    }
    const ok = holds(measured, r.op, limit);
    return { index, text, cell, status: ok ? 'held' : 'broken', measured, limit, detail: `${cell}: measured ${show(measured, r.metric)} (median of ${n} repeat(s)), limit ${r.op} ${limitText}` };
  });
}

/** One compare rule against a comparison: one outcome per matching cell (see the file comment). */
export function checkCompareRule(index: number, text: string, r: CompareRule, c: Comparison): RuleOutcome[] {
  if (!c.comparable) {
    const blocking = c.guard.filter((d) => !d.allowed);
    const kinds = [...new Set(blocking.map((d) => d.kind))].join(',');
    return [{ index, text, cell: null, status: 'not comparable', measured: null, limit: null, detail: `the runs are not comparable: ${blocking.map((d) => d.text).join('; ')} (--allow-diff ${kinds} compares them anyway)` }];
  }
  const cells = c.cells.filter((x) => cellMatches(r.cell, x.variant, x.level));
  if (cells.length === 0) return [{ index, text, cell: null, status: 'broken', measured: null, limit: null, detail: `matches no cell present in both runs (${c.cells.map((x) => `${x.variant}@${x.level}`).join(', ') || 'none'})` }];
  return cells.map((x) => {
    const cell = `${x.variant}@${x.level}`;
    const m = x.metrics.find((y) => y.metric === r.metric)!;
    const unit = m.unit === 'ms' ? ' ms' : ' req/s';
    const pct = m.diffPct === null ? '' : ` (${m.diffPct >= 0 ? '+' : ''}${Number(m.diffPct.toFixed(2))} %)`;
    const interval = m.ci ? `B − A = ${Number(m.diff!.toFixed(3))}${unit}${pct}, 95 % interval [${Number(m.ci[0].toFixed(3))}, ${Number(m.ci[1].toFixed(3))}]${unit}` : '';
    if (m.verdict === 'not computable') return { index, text, cell, status: 'broken', measured: null, limit: null, detail: `${cell}: ${r.metric} cannot be checked: not computable (${m.note ?? ''})` };
    const noise = m.noisePct === null ? '' : `, noise CV ${Number(m.noisePct.toFixed(2))} % (minimum effect ${m.minEffectPct} %)`;
    const why = m.reason ? `: ${m.reason}` : '';
    const status = m.verdict === 'slower' ? 'broken' : m.notSlower ? 'held' : 'inconclusive';
    const pass = m.verdict === 'inconclusive' && m.notSlower ? `, not slower: the interval rules out a slowdown of ${m.minEffectPct} % or more` : '';
    return { index, text, cell, status, measured: m.diff, limit: null, detail: `${cell}: ${r.metric} ${m.verdict}${why}${pass} (${interval}${noise})` };
  });
}

/**
 * Every rule of `t` in order: run rules by `runRule`; compare rules against `c`, or "not checked"
 * without a comparison (they need `compare`). Shared by study and target runs (thresholds/target.ts).
 */
export function checkRules(t: Thresholds, runRule: (index: number, text: string, r: RunRule) => RuleOutcome[], c: Comparison | null): RuleOutcome[] {
  return t.rules.flatMap(({ index, text, rule }) => {
    if (!isCompareRule(rule)) return runRule(index, text, rule);
    if (c !== null) return checkCompareRule(index, text, rule, c);
    return [{ index, text, cell: null, status: 'not checked' as const, measured: null, limit: null, detail: 'a compare rule: checked by `npx zx run.mjs compare <baseline> <run> --thresholds <file>`' }];
  });
}

/**
 * Check the run rules against a run (whole-run rules: the median of repeats per cell; windowed
 * rules: each repeat's per-request records); compare rules are "not checked" here (they need `compare`).
 */
export function checkRun(t: Thresholds, run: RunData): RuleOutcome[] {
  return checkRules(t, (index, text, r) => checkRunRule(index, text, r, run), null);
}

/** Check the compare rules against a comparison and the run rules against its run B (the candidate). */
export function checkCompare(t: Thresholds, c: Comparison, runB: RunData): RuleOutcome[] {
  return checkRules(t, (index, text, r) => checkRunRule(index, text, r, runB), c);
}

/** The outcome as text lines: every broken, not comparable and inconclusive check (value, limit or interval, cell), then a count. */
export function formatOutcome(t: Thresholds, outcomes: readonly RuleOutcome[]): string {
  const of = (s: RuleOutcome['status']) => outcomes.filter((o) => o.status === s);
  const [broken, notComparable, inconclusive, skipped] = [of('broken'), of('not comparable'), of('inconclusive'), of('not checked')];
  const lines = broken.map((o) => `threshold broken: rules/${o.index} "${o.text}": ${o.detail}`);
  for (const o of notComparable) lines.push(`threshold not comparable: rules/${o.index} "${o.text}": ${o.detail}`);
  for (const o of inconclusive) lines.push(`threshold inconclusive: rules/${o.index} "${o.text}": ${o.detail}`);
  for (const o of skipped) lines.push(`threshold not checked: rules/${o.index} "${o.text}": ${o.detail}`);
  const checked = outcomes.length - skipped.length;
  const held = of('held').length;
  const extra = [[broken, 'broken'], [notComparable, 'not comparable'], [inconclusive, 'inconclusive']].filter(([xs]) => (xs as RuleOutcome[]).length > 0).map(([xs, w]) => `, ${(xs as RuleOutcome[]).length} ${w as string}`).join('');
  lines.push(`thresholds ${t.file}: ${held} of ${checked} check(s) held${extra}${skipped.length ? `, ${skipped.length} rule(s) not checked here` : ''}`);
  return lines.join('\n') + '\n';
}

/**
 * Print the outcome to `out` and throw when a check did not hold, with the code of the worst outcome.
 * @throws VtbenchError(EXIT.thresholds) when a check broke; else VtbenchError(EXIT.notComparable)
 *   when a compare rule met runs that are not comparable; else VtbenchError(EXIT.inconclusive) when
 *   a compare rule was inconclusive
 */
export function enforce(t: Thresholds, outcomes: readonly RuleOutcome[], out: { write(s: string): unknown }, after: string): void {
  out.write(formatOutcome(t, outcomes));
  const count = (s: RuleOutcome['status']) => outcomes.filter((o) => o.status === s).length;
  if (count('broken') > 0) {
    throw new VtbenchError(
      `${count('broken')} threshold check(s) of ${t.file} broken (listed above)`,
      `${after}; fix the regression, or change the rule in ${t.file} if the limit was wrong`,
      EXIT.thresholds);
  }
  if (count('not comparable') > 0) {
    throw new VtbenchError(
      `the compare rules of ${t.file} were not checked: the runs are not comparable (the differences are listed above)`,
      `${after}; compare runs measured alike, or name what may differ with --allow-diff`,
      EXIT.notComparable);
  }
  if (count('inconclusive') > 0) {
    throw new VtbenchError(
      `${count('inconclusive')} compare check(s) of ${t.file} inconclusive (listed above): neither faster nor slower could be shown`,
      `${after}; more repeats (--repeats) narrow the interval, a quieter host lowers the noise; exit 11 means the data cannot tell (it is not a pass)`,
      EXIT.inconclusive);
  }
}
