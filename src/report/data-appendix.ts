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
import { driverLevel } from './model.ts';
import type { DriverLevel } from '../load/driver.ts';

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

/** A CSV column: its header and the value it reads off one item (a cell or a report row). */
interface Column<T> { header: string; get: (x: T) => string | number | null | undefined }

/**
 * What the columns of a driver's cells mean (src/load/driver-plan.ts DriverLevel): closed-loop
 * `workers` and open-loop `rate` cells have requests, request rates, bounds and SUT-side phases;
 * a `connections` cell's requests are its opening handshakes (their rate is not a throughput and no
 * executor bound applies to it); a `job` cell is one timed job the SUT runs itself (its one HTTP call
 * makes a request rate and a bound meaningless; its time is the job's). `null`: every column.
 */
const DRIVER_COLUMNS: Readonly<Record<DriverLevel, { cells: readonly string[]; rows: readonly string[]; rename: Readonly<Record<string, string>> } | null>> = {
  workers: null,
  rate: null,
  connections: {
    cells: ['cell', 'variant', 'level', 'repeat', 'requests', 'ok', 'e2e_mean_ms', 'e2e_p50_ms', 'e2e_p95_ms', 'e2e_p99_ms', 'e2e_max_ms', 'pinned_events', 'file'],
    rows: ['variant', 'level', 'repeats', 'e2e_p50_ms_median', 'e2e_p95_ms_median', 'e2e_p99_ms_median', 'errors_median', 'pooled_e2e_mean_ms', 'pooled_requests', 'summary_row'],
    rename: { requests: 'handshakes', ok: 'handshakes_ok', pooled_requests: 'pooled_handshakes', pooled_e2e_mean_ms: 'pooled_handshake_mean_ms' },
  },
  job: {
    cells: ['cell', 'variant', 'level', 'repeat', 'ok', 'e2e_mean_ms', 'pinned_events', 'file'],
    rows: ['variant', 'level', 'repeats', 'e2e_p50_ms_median', 'errors_median', 'summary_row'],
    rename: { e2e_mean_ms: 'job_ms', e2e_p50_ms_median: 'job_ms_median' },
  },
};

/** Column headers for a driver level: every column, or the level's own in their order, renamed (`e2e_…` → `handshake_…` for connections). */
function columnsFor<T>(all: readonly Column<T>[], level: DriverLevel | null, which: 'cells' | 'rows'): Column<T>[] {
  const spec = level === null ? null : DRIVER_COLUMNS[level];
  if (!spec) return [...all];
  const byHeader = new Map(all.map((c) => [c.header, c]));
  return spec[which].map((h) => {
    const c = byHeader.get(h) as Column<T>;
    const renamed = spec.rename[h] ?? (level === 'connections' ? h.replace(/^e2e_/, 'handshake_') : h);
    return { header: renamed, get: c.get };
  });
}

const CELL_COLUMNS: readonly Column<CellResult>[] = [
  { header: 'cell', get: (x) => x.cellId }, { header: 'variant', get: (x) => x.variant }, { header: 'level', get: (x) => x.concurrency }, { header: 'repeat', get: (x) => x.repeat },
  { header: 'requests', get: (x) => x.load.count }, { header: 'ok', get: (x) => x.load.ok },
  { header: 'whole_run_rps', get: (x) => x.load.wholeRunThroughputRps }, { header: 'steady_state_rps', get: (x) => x.load.steadyStateThroughputRps },
  { header: 'e2e_mean_ms', get: (x) => x.load.e2eMs?.mean }, { header: 'e2e_p50_ms', get: (x) => x.load.e2eMs?.p50 }, { header: 'e2e_p95_ms', get: (x) => x.load.e2eMs?.p95 },
  { header: 'e2e_p99_ms', get: (x) => x.load.e2eMs?.p99 }, { header: 'e2e_max_ms', get: (x) => x.load.e2eMs?.max },
  { header: 'queue_mean_ms', get: (x) => x.load.queueMs?.mean }, { header: 'queue_p95_ms', get: (x) => x.load.queueMs?.p95 },
  { header: 'exec_mean_ms', get: (x) => x.load.execMs?.mean }, { header: 'exec_p95_ms', get: (x) => x.load.execMs?.p95 }, { header: 'exec_p99_ms', get: (x) => x.load.execMs?.p99 },
  { header: 'pinned_events', get: (x) => x.pinned?.total ?? null }, { header: 'file', get: (x) => `cells/${x.cellId}.json` },
];

type Row = ReportModel['rows'][number];
const ROW_COLUMNS: readonly Column<Row>[] = [
  { header: 'variant', get: (r) => r.variant }, { header: 'level', get: (r) => r.concurrency }, { header: 'repeats', get: (r) => r.repeats }, { header: 'bound_rps', get: (r) => r.boundRps },
  { header: 'whole_run_rps_median', get: (r) => r.wholeRunRps.median }, { header: 'steady_state_rps_median', get: (r) => r.steadyRps.median },
  { header: 'e2e_p50_ms_median', get: (r) => r.e2eP50Ms.median }, { header: 'e2e_p95_ms_median', get: (r) => r.e2eP95Ms.median }, { header: 'e2e_p99_ms_median', get: (r) => r.e2eP99Ms.median },
  { header: 'queue_p95_ms_median', get: (r) => r.queueP95Ms.median }, { header: 'exec_p95_ms_median', get: (r) => r.execP95Ms.median }, { header: 'errors_median', get: (r) => r.errorCount.median },
  { header: 'pooled_e2e_mean_ms', get: (r) => r.means?.e2eMs }, { header: 'pooled_queue_mean_ms', get: (r) => r.means?.queueMs }, { header: 'pooled_exec_mean_ms', get: (r) => r.means?.execMs },
  { header: 'pooled_requests', get: (r) => r.means?.n }, { header: 'summary_row', get: (r) => (r.source.summaryIndex === null ? 'recomputed' : `/rows/${r.source.summaryIndex}`) },
];

/**
 * One line per cell, in the run's cell order: the values the cell file holds (load summary, mock
 * peak, pinned events), in the columns that mean something for the cells' driver level
 * (DRIVER_COLUMNS; every column when `level` is null or closed/open-loop HTTP).
 */
export function cellsCsv(cells: readonly CellResult[], level: DriverLevel | null = null): string {
  const cols = columnsFor(CELL_COLUMNS, level, 'cells');
  return csv(cols.map((c) => c.header), cells.map((x) => cols.map((c) => c.get(x))));
}

/** One line per (variant, level) row of the report: medians of the repeats, bounds, pooled means (columns as for cellsCsv). */
export function rowsCsv(model: Pick<ReportModel, 'rows'>, level: DriverLevel | null = null): string {
  const cols = columnsFor(ROW_COLUMNS, level, 'rows');
  return csv(cols.map((c) => c.header), model.rows.map((r) => cols.map((c) => c.get(r))));
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
 * The cells and the report rows split by the driver level of their scenario (model.driverLevel), in
 * the run's order of first appearance; a cell of a scenario the study no longer defines is `null`
 * (every column). A row goes with its first cell.
 */
export function byDriverLevel(model: Pick<ReportModel, 'cells' | 'rows' | 'study'>): { level: DriverLevel | null; cells: CellResult[]; rows: ReportModel['rows'] }[] {
  const levelOf = new Map(model.cells.map((c) => [c.cellId, driverLevel(model.study, c.scenario)]));
  const groups = new Map<DriverLevel | null, { level: DriverLevel | null; cells: CellResult[]; rows: ReportModel['rows'] }>();
  const group = (l: DriverLevel | null) => groups.get(l) ?? (groups.set(l, { level: l, cells: [], rows: [] }).get(l) as { level: DriverLevel | null; cells: CellResult[]; rows: ReportModel['rows'] });
  for (const c of model.cells) group(levelOf.get(c.cellId) ?? null).cells.push(c);
  for (const r of model.rows) group(r.source.cellIds.map((id) => levelOf.get(id)).find((l) => l !== undefined) ?? null).rows.push(r);
  return [...groups.values()];
}

/**
 * The data appendix as Markdown: heading (phrase `data.title`), the cells' CSV, the rows' CSV and
 * the commands (phrases `data.*`). Cells of different driver levels (a run of 002 holds HTTP and
 * WebSocket cells) get one CSV each, under the level's phrase `data.driver.<level>`, each with the
 * columns that mean something for it (DRIVER_COLUMNS); a level other than HTTP adds its note
 * `data.columns.<level>`.
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
  const groups = byDriverLevel(model);
  const several = groups.length > 1;
  const block = (which: 'cells' | 'rows') => groups.filter((g) => g[which].length > 0).flatMap((g) => {
    const key = g.level ?? 'unknown';
    const note = g.level !== null && DRIVER_COLUMNS[g.level] !== null ? [P(`data.columns.${key}`).md] : [];
    const body = which === 'cells' ? cellsCsv(g.cells, g.level) : rowsCsv({ rows: g.rows }, g.level);
    return [...(several ? [`#### ${P(`data.driver.${key}`).md}`] : []), ...(several || which === 'cells' ? note : []), fenced('csv', body)];
  });
  return [
    `## ${P('data.title').md}`,
    P('data.intro', { runDir }).md,
    `### ${P('data.cells').md}`,
    ...block('cells'),
    `### ${P('data.rows').md}`,
    ...block('rows'),
    `### ${P('data.reproduce').md}`,
    P(rc.exact ? 'data.reproduce.exact' : 'data.reproduce.profileOnly', { profile: model.manifest.options.profile }).md,
    fenced('sh', commands),
  ].join('\n\n');
}
