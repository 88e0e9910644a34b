/**
 * The report's data appendix: the per-cell numbers and the per-(variant, level) summary rows as CSV
 * (fenced code blocks, so the HTML shows them in a `<pre>` a reader can copy), and the exact
 * commands that reproduce the run and the report. Pure: model in, Markdown out. Numbers are the
 * run files' own values, unrounded (`String(x)`: the shortest text that reads back as the same
 * double), so a reviewer can recompute every median and percentage of the report from them.
 */
import type { CellResult } from '../types/run.ts';
import type { ReportModel } from './model.ts';
import { OPTION_SPECS, type OptionKey } from '../plan/options.ts';
import { resolveOptions } from '../plan/profiles.ts';
import type { Raw } from './format.ts';

/** A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. null → empty. */
export function csvField(x: string | number | null | undefined): string {
  if (x === null || x === undefined || (typeof x === 'number' && !Number.isFinite(x))) return '';
  const s = String(x);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV text: a header line and one line per row, "\n"-terminated. */
export function csv(header: readonly string[], rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\n') + '\n';
}

/** A fenced code block whose fence is longer than any backtick run inside (CommonMark), so no content can close it. */
export function fenced(info: string, body: string): string {
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${body.endsWith('\n') ? body : `${body}\n`}${fence}`;
}

/** One line per cell, in the run's cell order: the values the cell file holds (load summary, mock peak, pinned events). */
export function cellsCsv(cells: readonly CellResult[]): string {
  return csv(
    ['cell', 'variant', 'level', 'repeat', 'requests', 'ok', 'whole_run_rps', 'steady_state_rps', 'e2e_mean_ms', 'e2e_p50_ms', 'e2e_p95_ms', 'e2e_p99_ms', 'e2e_max_ms',
      'queue_mean_ms', 'queue_p95_ms', 'exec_mean_ms', 'exec_p95_ms', 'exec_p99_ms', 'pinned_events', 'file'],
    cells.map((x) => {
      const l = x.load;
      return [x.cellId, x.variant, x.concurrency, x.repeat, l.count, l.ok, l.wholeRunThroughputRps, l.steadyStateThroughputRps,
        l.e2eMs?.mean, l.e2eMs?.p50, l.e2eMs?.p95, l.e2eMs?.p99, l.e2eMs?.max, l.queueMs?.mean, l.queueMs?.p95, l.execMs?.mean, l.execMs?.p95, l.execMs?.p99,
        x.pinned?.total ?? null, `cells/${x.cellId}.json`];
    }),
  );
}

/** One line per (variant, level) row of the report: medians of the repeats, bounds, pooled means. */
export function rowsCsv(model: Pick<ReportModel, 'rows'>): string {
  return csv(
    ['variant', 'level', 'repeats', 'bound_rps', 'whole_run_rps_median', 'steady_state_rps_median', 'e2e_p50_ms_median', 'e2e_p95_ms_median', 'e2e_p99_ms_median',
      'queue_p95_ms_median', 'exec_p95_ms_median', 'errors_median', 'pooled_e2e_mean_ms', 'pooled_queue_mean_ms', 'pooled_exec_mean_ms', 'pooled_requests', 'summary_row'],
    model.rows.map((r) => [r.variant, r.concurrency, r.repeats, r.boundRps, r.wholeRunRps.median, r.steadyRps.median, r.e2eP50Ms.median, r.e2eP95Ms.median, r.e2eP99Ms.median,
      r.queueP95Ms.median, r.execP95Ms.median, r.errorCount.median, r.means?.e2eMs, r.means?.queueMs, r.means?.execMs, r.means?.n, r.source.summaryIndex === null ? 'recomputed' : `/rows/${r.source.summaryIndex}`]),
  );
}

/** Host limits that bound nothing: the recorded options are compared with the profile's, not checked against this host. */
const NO_LIMITS = { openFiles: Number.MAX_SAFE_INTEGER, ephemeralPorts: Number.MAX_SAFE_INTEGER, heapLimitBytes: Number.MAX_SAFE_INTEGER };

/**
 * The command that re-runs this run's plan: `npx zx run.mjs --study <id> --profile <name>` plus
 * `--<flag> <value>` for every option whose recorded value (manifest.json /options) differs from
 * the profile's, as `OptionSpec.show` prints it. `exact` is false when the profile can no longer
 * be resolved by this vtbench (renamed or removed): the command then names only study and profile.
 */
export function reproduceCommand(model: Pick<ReportModel, 'manifest' | 'study'>): { command: string; exact: boolean } {
  const o = model.manifest.options;
  const base = `npx zx run.mjs --study ${o.study} --profile ${o.profile}`;
  let profile: Readonly<Record<string, unknown>>;
  try {
    profile = resolveOptions(model.study, o.profile, {}, NO_LIMITS) as unknown as Record<string, unknown>;
  } catch {
    return { command: base, exact: false };
  }
  const flags: string[] = [];
  const rec = o as unknown as Record<string, unknown>;
  for (const spec of OPTION_SPECS) {
    const key = spec.key as OptionKey;
    const show = spec.show as (v: unknown) => string;
    if (rec[key] === undefined) continue;
    const mine = show(rec[key]);
    if (profile[key] !== undefined && show(profile[key]) === mine) continue;
    flags.push(`--${spec.flag} ${/^[A-Za-z0-9._,:/=+-]+$/.test(mine) ? mine : `'${mine.replace(/'/g, `'\\''`)}'`}`);
  }
  return { command: [base, ...flags].join(' '), exact: true };
}

/**
 * The data appendix as Markdown: heading (phrase `data.title`), the cells' CSV, the rows' CSV and
 * the commands (phrases `data.*`).
 */
export function dataAppendix(model: ReportModel, P: (key: string, v?: Record<string, string | Raw>) => Raw): string {
  const runDir = `runs/${model.runId}`;
  const rc = reproduceCommand(model);
  const commands = [
    '# run',
    rc.command,
    '# report (English, Chinese)',
    `npx zx run.mjs report ${runDir}`,
    `npx zx run.mjs report ${runDir} --lang zh`,
  ].join('\n');
  return [
    `## ${P('data.title').md}`,
    P('data.intro', { runDir }).md,
    `### ${P('data.cells').md}`,
    fenced('csv', cellsCsv(model.cells)),
    `### ${P('data.rows').md}`,
    fenced('csv', rowsCsv(model)),
    `### ${P('data.reproduce').md}`,
    P(rc.exact ? 'data.reproduce.exact' : 'data.reproduce.profileOnly', { profile: model.manifest.options.profile }).md,
    fenced('sh', commands),
  ].join('\n\n');
}
