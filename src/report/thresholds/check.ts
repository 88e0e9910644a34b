/**
 * Checking threshold rules (src/report/thresholds/rules.ts) against a run's summary or a comparison.
 * Pure: rules and data in, one outcome per (rule, matching cell) out. A rule that matches no cell
 * is broken (a typo must not pass); a value that is not computable breaks its rule (a gate that
 * cannot check does not pass). `enforce` prints the outcome and throws VtbenchError(EXIT.thresholds).
 */
import type { RunSummary, SummaryRow } from '../../types/run.ts';
import type { Comparison } from '../compare/model.ts';
import { EXIT, VtbenchError } from '../../types/errors.ts';
import { isCompareRule, unitOf, type CompareRule, type Op, type RunMetric, type RunRule, type Thresholds } from './rules.ts';

export interface RuleOutcome {
  /** the rule's index in the file and its text */
  index: number;
  text: string;
  /** `<variant>@<level>` of the cell checked; null when the rule matched no cell */
  cell: string | null;
  /** held, broken, or not checked here (a compare rule on a run) */
  status: 'held' | 'broken' | 'not checked';
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

function holds(x: number, op: Op, limit: number): boolean {
  switch (op) {
    case '>=': return x >= limit;
    case '<=': return x <= limit;
    case '>': return x > limit;
    case '<': return x < limit;
  }
}

function show(x: number, metric: RunMetric): string {
  const unit = unitOf(metric);
  const digits = metric === 'error_rate' ? 4 : 2;
  return `${Number(x.toFixed(digits))}${unit === 'ms' ? ' ms' : unit ? ` ${unit}` : ''}`;
}

function checkRunRule(index: number, text: string, r: RunRule, summary: RunSummary): RuleOutcome[] {
  const rows = summary.rows.filter((row) => cellMatches(r.cell, row.variant, row.concurrency));
  if (rows.length === 0) {
    const have = summary.rows.map((row) => `${row.variant}@${row.concurrency}`).join(', ');
    return [{ index, text, cell: null, status: 'broken', measured: null, limit: null, detail: `matches no cell of run ${summary.runId} (it has ${have})` }];
  }
  return rows.map((row) => {
    const cell = `${row.variant}@${row.concurrency}`;
    const limit = r.of === 'bound' ? r.value * row.boundRps : r.value;
    const limitText = r.of === 'bound' ? `${show(limit, r.metric)} (${r.value} × bound ${show(row.boundRps, r.metric)})` : show(limit, r.metric);
    const measured = measuredOf(row, r.metric);
    const n = r.metric === 'throughput' ? row.throughput.wholeRunRps.n : row.repeats;
    if (measured === null) {
      return { index, text, cell, status: 'broken', measured: null, limit, detail: `${cell}: ${r.metric} not computable (no value in any repeat), limit ${r.op} ${limitText}` };
    }
    const ok = holds(measured, r.op, limit);
    return { index, text, cell, status: ok ? 'held' : 'broken', measured, limit, detail: `${cell}: measured ${show(measured, r.metric)} (median of ${n} repeat(s)), limit ${r.op} ${limitText}` };
  });
}

function checkCompareRule(index: number, text: string, r: CompareRule, c: Comparison): RuleOutcome[] {
  const cells = c.cells.filter((x) => cellMatches(r.cell, x.variant, x.level));
  if (cells.length === 0) return [{ index, text, cell: null, status: 'broken', measured: null, limit: null, detail: `matches no cell present in both runs (${c.cells.map((x) => `${x.variant}@${x.level}`).join(', ') || 'none'})` }];
  return cells.map((x) => {
    const cell = `${x.variant}@${x.level}`;
    const m = x.metrics.find((y) => y.metric === r.metric)!;
    const unit = m.unit === 'ms' ? ' ms' : ' req/s';
    const interval = m.ci ? `B − A = ${Number(m.diff!.toFixed(3))}${unit}, 95 % interval [${Number(m.ci[0].toFixed(3))}, ${Number(m.ci[1].toFixed(3))}]${unit}` : '';
    if (m.verdict === 'not computable') return { index, text, cell, status: 'broken', measured: null, limit: null, detail: `${cell}: ${r.metric} cannot be checked: not computable (${m.note ?? ''})` };
    return { index, text, cell, status: m.verdict === 'slower' ? 'broken' : 'held', measured: m.diff, limit: null, detail: `${cell}: ${r.metric} ${m.verdict} (${interval})` };
  });
}

/**
 * Check the run rules against a run's summary (median of repeats per cell); compare rules are
 * "not checked" here (they need `compare`).
 */
export function checkRun(t: Thresholds, summary: RunSummary): RuleOutcome[] {
  return t.rules.flatMap(({ index, text, rule }) => (isCompareRule(rule)
    ? [{ index, text, cell: null, status: 'not checked' as const, measured: null, limit: null, detail: 'a compare rule: checked by `npx zx run.mjs compare <baseline> <run> --thresholds <file>`' }]
    : checkRunRule(index, text, rule, summary)));
}

/** Check the compare rules against a comparison and the run rules against its run B (the candidate). */
export function checkCompare(t: Thresholds, c: Comparison, summaryB: RunSummary): RuleOutcome[] {
  return t.rules.flatMap(({ index, text, rule }) => (isCompareRule(rule) ? checkCompareRule(index, text, rule, c) : checkRunRule(index, text, rule, summaryB)));
}

/** The outcome as text lines: every broken rule (measured, limit, cell), then a count. */
export function formatOutcome(t: Thresholds, outcomes: readonly RuleOutcome[]): string {
  const broken = outcomes.filter((o) => o.status === 'broken');
  const skipped = outcomes.filter((o) => o.status === 'not checked');
  const lines = broken.map((o) => `threshold broken: rules/${o.index} "${o.text}": ${o.detail}`);
  for (const o of skipped) lines.push(`threshold not checked: rules/${o.index} "${o.text}": ${o.detail}`);
  const checked = outcomes.length - skipped.length;
  lines.push(`thresholds ${t.file}: ${checked - broken.length} of ${checked} check(s) held${broken.length ? `, ${broken.length} broken` : ''}${skipped.length ? `, ${skipped.length} rule(s) not checked here` : ''}`);
  return lines.join('\n') + '\n';
}

/**
 * Print the outcome to `out` and throw when a rule is broken.
 * @throws VtbenchError(EXIT.thresholds) naming how many checks broke
 */
export function enforce(t: Thresholds, outcomes: readonly RuleOutcome[], out: { write(s: string): unknown }, after: string): void {
  out.write(formatOutcome(t, outcomes));
  const broken = outcomes.filter((o) => o.status === 'broken');
  if (broken.length > 0) {
    throw new VtbenchError(
      `${broken.length} threshold check(s) of ${t.file} broken (listed above)`,
      `${after}; fix the regression, or change the rule in ${t.file} if the limit was wrong`,
      EXIT.thresholds);
  }
}
