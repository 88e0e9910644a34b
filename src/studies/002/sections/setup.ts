/** Study 002's setup sections: `{{designTable}}`, `{{dbInfo}}`, `{{sutInfo002}}`, `{{aloneProbe}}`, `{{cpuBasis}}`, `{{hikariVersion}}`. Pure. */
import type { BaseModel } from '../../../report/types.ts';
import type { ReportModel } from '../../../report/model.ts';
import type { RenderContext } from '../../../report/types.ts';
import { code, int, ms, num, raw, table, type Raw } from '../../../report/format.ts';
import { holding, probesOf, REQUEST_SCENARIOS } from '../theory.ts';
import type { Row002 } from '../report.ts';

/** `{{designTable}}`: the run's request scenarios, their holding times, levels and variants. */
export function designTable(model: ReportModel, ctx: RenderContext): Raw {
  const { s, variantName } = ctx;
  const o = model.manifest.options;
  const scenarios = [...new Set(model.study.variants.filter((v) => o.variants.includes(v.id)).map((v) => v.scenario ?? o.scenario))].filter((id) => REQUEST_SCENARIOS.has(id));
  return table([s('h.scenario'), s('h.what'), s('h.holds'), s('h.levels'), s('h.reqPerWorker'), s('h.variants')],
    scenarios.map((id) => {
      const sc = model.study.scenarios.find((x) => x.id === id)!;
      const h = holding(id);
      const lv = o.scenarioLevels?.[id] ?? { levels: o.levels, requestsPerWorker: o.requestsPerWorker };
      const holds = [s('hold.thread', { ms: int(h.threadMs) }), ...(h.dbMs !== null ? [s('hold.db', { ms: int(h.dbMs) })] : []), ...(h.lockMs !== null ? [s('hold.lock', { ms: int(h.lockMs) })] : []), ...(h.cpuMs !== null ? [s('hold.cpu', { ms: int(h.cpuMs) })] : [])].join('; ');
      return [code(id), sc.label, holds, lv.levels.map(int).join(', '), int(lv.requestsPerWorker), o.variants.filter((v) => (model.variantSpecs.get(v)?.scenario ?? o.scenario) === id).map((v) => variantName(v)).join(', ')];
    }), ['l', 'l', 'l', 'r', 'r', 'l']);
}

/** `{{dbInfo}}`: the database the run used (its own or an external one), or none. */
export function dbInfo(model: ReportModel, ctx: RenderContext): string | Raw {
  const db = model.manifest.db;
  return db ? ctx.P(db.kind === 'own' ? 'db.own' : 'db.external', { version: db.serverVersion, url: db.url, maxConn: db.settings['max_connections'] ?? '—', buffers: db.settings['shared_buffers'] ?? '—', fsync: db.settings['fsync'] ?? '—', rows: int(db.ordersRows) }) : ctx.s('db.none');
}

/**
 * How D was measured, for the report's "Bounds" paragraph: the per-cell-totals text of every run
 * before the component samples when no cell has them (so those reports render as before), the
 * windowed text when every part of every cell is windowed, else the windowed text and the cells
 * whose parts (named) are per-cell totals.
 */
export function cpuBasisText(rows: readonly Row002[], ctx: RenderContext): Raw {
  if (rows.every((r) => r.cpuBases.every((b) => b === 'per-cell-totals'))) return ctx.P('cpuBasis.totals');
  const totals = rows.filter((r) => r.cpuTotalParts.length > 0);
  if (totals.length === 0) return ctx.P('cpuBasis.windowed');
  const cells = totals.map((r) => `${ctx.variantName(r.variant)}, c = ${int(r.concurrency)} (${r.cpuTotalParts.map((k) => ctx.s(`cpuPart.${k}`)).join(', ')})`).join('; ');
  return ctx.join([ctx.P('cpuBasis.windowed'), ctx.P('cpuBasis.except', { cells })]);
}

/**
 * The holding times measured alone (RunManifest.aloneProbes) beside the nominal ones, per probed
 * variant: requests ok, execution, R(1), the `db` step, and R(1) / nominal thread hold (how far this
 * host's fixed cost per request moves the executor bound). '' when the run has no probe (runs before it).
 */
export function aloneSection(model: Pick<BaseModel, 'manifest'>, rows: readonly Row002[], ctx: RenderContext): string | Raw {
  const probes = model.manifest.aloneProbes ?? {};
  const variants = [...new Set(rows.filter((r) => r.alone !== null).map((r) => r.variant))];
  if (variants.length === 0) return '';
  const { s, variantName } = ctx;
  const body = variants.map((v) => {
    const r = rows.find((x) => x.variant === v)!;
    const a = r.alone!;
    const h = holding(r.scenario);
    const ps = probesOf(probes, v);
    const ok = `${int(ps.reduce((t, p) => t + p.ok, 0))} / ${int(ps.reduce((t, p) => t + (p.sent ?? p.requests), 0))}`;
    return [variantName(v), code(r.scenario), ok, ms(h.threadMs), a.threadMs === null ? '—' : ms(a.threadMs), a.e2eMs === null ? '—' : ms(a.e2eMs),
      h.dbMs === null ? '—' : `${ms(h.dbMs)} → ${a.dbMs === null ? '—' : ms(a.dbMs)}`, a.e2eMs === null ? '—' : num(a.e2eMs / h.threadMs, 3)];
  });
  const n = [...new Set(Object.values(probes).map((p) => p.requests))].sort((x, y) => x - y).map(int).join(', ');
  return raw(`${ctx.P('alone.intro', { n }).md}\n\n${table([s('h.variant'), s('h.scenario'), s('alone.ok'), s('alone.nominal'), s('alone.exec'), s('alone.e2e'), s('alone.db'), s('alone.ratio')], body, ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r']).md}`);
}

/** What the SUT reported of its scenarios (`/bench/info`: fib calibration, HTTP client, DB pool), per JVM. */
export function sutInfo(model: ReportModel, ctx: RenderContext): string | Raw {
  const rowsOut: (string | Raw)[][] = [];
  for (const [block, info] of Object.entries(model.manifest.sut).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const x = info as unknown as { fib?: Record<string, unknown>; http?: Record<string, unknown>; db?: Record<string, unknown> };
    const show = (o: Record<string, unknown> | undefined) => (o ? Object.entries(o).filter(([, v]) => v !== null && typeof v !== 'object').map(([k, v]) => `${k} ${String(v)}`).join(', ') : '—');
    rowsOut.push([block, show(x.fib), show(x.http), show(x.db)]);
  }
  return rowsOut.length === 0 ? ctx.s('none') : table([ctx.s('h.block'), 'fib', ctx.s('h.httpClient'), ctx.s('h.dbPool')], rowsOut, ['l', 'l', 'l', 'l']);
}

/** The HikariCP version the SUT resolved, from `/bench/info` `db.hikariVersion` (issue 2398's `Thread.yield()` spin). */
export function hikariLine(model: ReportModel, ctx: RenderContext): string | Raw {
  const versions = [...new Set(Object.values(model.manifest.sut).map((i) => (i as unknown as { db?: { hikariVersion?: unknown } }).db?.hikariVersion).filter((x): x is string => typeof x === 'string'))];
  return versions.length === 0 ? ctx.s('hikari.unknown') : ctx.P('hikari.version', { versions: versions.join(', ') });
}
