/** Study 002's per-group sections `{{<group>Table}}`, `{{<group>Bounds}}`, `{{<group>Analysis}}` (io, cpu, mixed, db). Pure. */
import type { BaseModel } from '../../../report/types.ts';
import type { RenderContext } from '../../../report/types.ts';
import { aggText, int, mib, ms, num, pct, raw, rps, table, type Raw } from '../../../report/format.ts';
import { aggregate } from '../../../compute/stats/aggregate.ts';
import type { Bound } from '../../../compute/theory/cell-bounds.ts';
import { holding } from '../theory.ts';
import { GROUPS, arithmetic, fibCpuMsPerCall, type Row002 } from '../report.ts';
import { aggMs, windowText } from './format.ts';

const aggOf = (xs: readonly (number | null)[]) => aggregate(xs);

/** Measured vs theory per (variant, level): throughput, latency, errors, memory. */
function resultTable(rs: readonly Row002[], ctx: RenderContext): Raw {
  const { s, variantName } = ctx;
  return table([s('h.variant'), 'c', s('h.throughput'), 'P50', 'P95', 'P99', s('h.errors'), 'RSS', s('h.heap'), s('h.platformThreads')],
    rs.map((r) => [variantName(r.variant), int(r.concurrency), aggText(r.throughputRps, (x) => rps(x)), aggMs(r.p50Ms), aggMs(r.p95Ms), aggMs(r.p99Ms), errorsText(r, ctx),
      aggText(r.rssMaxBytes, (x) => mib(x)), aggText(r.heapMaxBytes, (x) => mib(x)), aggText(r.platformThreadsMax, (x) => int(x))]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'l', 'r', 'r', 'r']);
}

/** A row's errors: the rate and each kind or class with its count. */
function errorsText(r: Row002, ctx: RenderContext): string {
  const parts = [...Object.entries(r.errorKinds).map(([k, n]) => `${k} ${int(n)}`), ...Object.entries(r.errorClasses).filter(([k]) => k !== 'http' || Object.keys(r.errorKinds).length === 0).map(([k, n]) => `${k} ${int(n)}`)];
  return parts.length === 0 ? '0' : `${aggText(r.errorRate, (x) => pct(x === null ? null : x * 100, 2))} (${parts.join(', ')})`.replace(/^/, ctx.s('errors.prefix'));
}

/** Every bound of each (variant, level), the smallest in bold, and the acceptance verdict. */
function boundTable(rs: readonly Row002[], ctx: RenderContext): Raw {
  const { s, variantName } = ctx;
  const kinds: Bound['kind'][] = ['executor', 'dbPool', 'lock', 'cpuPerCall', 'cpu'];
  const used = kinds.filter((k) => rs.some((r) => r.bounds.some((b) => b.kind === k)));
  return table([s('h.variant'), 'c', s('h.windowRps'), ...used.map((k) => s(`bound.${k}`)), s('h.share'), s('h.acceptance')],
    rs.map((r) => [variantName(r.variant), int(r.concurrency), windowText(r, ctx),
      ...used.map((k) => {
        const b = r.bounds.find((x) => x.kind === k);
        if (!b) return '—';
        const t = `${rps(b.rps)} = ${arithmetic(b)}`;
        return r.smallest?.kind === k ? raw(`**${t}**`) : t;
      }),
      pct(r.share === null ? null : r.share * 100), s(`acc.${r.verdict}`)]),
    ['l', 'r', 'r', ...used.map(() => 'l' as const), 'r', 'l']);
}

/** One sentence per variant: what limited it, and the host flags when raised. */
function analysis(rs: readonly Row002[], ctx: RenderContext, cores: number, model: Pick<BaseModel, 'manifest'>): Raw {
  const { s, variantName } = ctx;
  const lines: string[] = [];
  // cpu-fib: the CPU per call the bound uses (the cells') beside the JVM's start-up calibration
  const fibRows = rs.filter((r) => r.scenario === 'cpu-fib' && r.sutCpuMsPerRequest !== null);
  if (fibRows.length > 0) {
    lines.push(s('an.fibIntro'), '');
    for (const v of [...new Set(fibRows.map((r) => r.variant))]) {
      const vr = fibRows.filter((r) => r.variant === v);
      const start = fibCpuMsPerCall(model, v);
      const ns = [...new Set(Object.entries(model.manifest.sut).filter(([b]) => b.startsWith(`${v}-`)).map(([, i]) => (i as unknown as { fib?: { n?: number } }).fib?.n).filter((n): n is number => typeof n === 'number'))];
      const cellMs = vr.map((r) => r.sutCpuMsPerRequest!);
      const ratio = start === null ? '—' : num(start / aggOf(cellMs).median!, 2);
      lines.push(`- ${s('an.fibVariant', { variant: variantName(v), n: ns.length > 0 ? ns.join(', ') : '—', cells: vr.map((r) => `${num(r.sutCpuMsPerRequest!, 1)} (c = ${int(r.concurrency)})`).join(', '), start: start === null ? '—' : num(start, 1), ratio })}`);
    }
    lines.push('');
  }
  for (const v of [...new Set(rs.map((r) => r.variant))]) {
    const vr = rs.filter((r) => r.variant === v);
    const parts = vr.map((r) => s('an.cell', { c: int(r.concurrency), bound: r.smallest ? s(`bound.${r.smallest.kind}`) : '—', share: pct(r.share === null ? null : r.share * 100), flags: r.hostFlags.length ? s('an.flags', { flags: r.hostFlags.join(', ') }) : '' }));
    lines.push(`- ${s('an.variant', { variant: variantName(v), cells: parts.join('; ') })}`);
  }
  if (rs.some((r) => r.smallest?.kind === 'cpu')) lines.push('', s('an.cpuHost', { cores: int(cores) }));
  // below 95 % of the executor bound with no host flag: the nominal holding time against the measured
  // execution and E2E (Little's law: a closed loop of c workers runs at c / E2E)
  for (const r of rs.filter((x) => x.verdict === 'below-95' && x.smallest?.kind === 'executor' && x.e2eMeanMs.median !== null)) {
    const e2e = r.e2eMeanMs.median!;
    if (r.alone?.e2eMs != null) {
      // the bound counted R(1): the rest is what concurrency added to each request on this host
      // which term of min(c / R(1), N / execution alone) bound the cell
      const i = r.smallest!.inputs; // the filter above kept executor-limited rows only
      const poolTerm = i['threads'] !== undefined && i['threads'] / i['holdMs']! < r.concurrency / r.alone.e2eMs;
      lines.push('', s('an.belowNoFlagAlone', {
        term: s(poolTerm ? 'alone.term.pool' : 'alone.term.population'),
        variant: variantName(r.variant), c: int(r.concurrency), alone: ms(r.alone.e2eMs), e2e: ms(e2e),
        exec: r.execMeanMs.median === null ? '—' : ms(r.execMeanMs.median), aloneExec: r.alone.threadMs === null ? '—' : ms(r.alone.threadMs),
        queue: r.queueP50Ms.median === null ? '—' : ms(r.queueP50Ms.median),
        little: rps((r.concurrency / e2e) * 1000), measured: r.windowRps.median === null ? '—' : rps(r.windowRps.median), host: pct(r.hostCpuPct),
      }));
      continue;
    }
    lines.push('', s('an.belowNoFlag', {
      variant: variantName(r.variant), c: int(r.concurrency), nominal: ms(holding(r.scenario).threadMs),
      exec: r.execMeanMs.median === null ? '—' : ms(r.execMeanMs.median), e2e: ms(e2e),
      queue: r.queueP50Ms.median === null ? '—' : ms(r.queueP50Ms.median),
      little: rps((r.concurrency / e2e) * 1000), measured: r.windowRps.median === null ? '—' : rps(r.windowRps.median),
      host: pct(r.hostCpuPct),
    }));
  }
  // above the measured CPU bound: X · D > cores is impossible, so D's per-cell parts are overstated in the window
  const above = rs.filter((r) => r.verdict === 'above-bound' && r.smallest?.kind === 'cpu' && r.windowRps.median !== null && r.cpuMsPerRequest !== null);
  if (above.length > 0) {
    const busy = above.map((r) => (r.windowRps.median! * r.cpuMsPerRequest!) / 1000);
    // every part of D in the window: the per-cell totals cannot explain it
    const windowed = above.every((r) => r.cpuTotalParts.length === 0 && r.cpuBases.includes('windowed'));
    lines.push('', s(windowed ? 'an.cpuAboveWindowed' : 'an.cpuAbove', { cells: above.map((r) => `${variantName(r.variant)}, c = ${int(r.concurrency)}`).join('; '), busy: busy.map((b) => num(b, 2)).join('; '), cores: int(cores) }));
  }
  // the phrases are escaped Markdown already; the list marks are ours
  return raw(lines.join('\n'));
}

/** Every group's table, bounds and analysis; a group without rows: `none` and empty. */
export function groupSections(model: Pick<BaseModel, 'manifest'>, rows: readonly Row002[], ctx: RenderContext): Record<string, string | Raw> {
  const out: Record<string, string | Raw> = {};
  for (const g of GROUPS) {
    const rs = rows.filter((r) => g.scenarios.includes(r.scenario));
    out[`${g.id}Table`] = rs.length === 0 ? ctx.s('none') : resultTable(rs, ctx);
    out[`${g.id}Bounds`] = rs.length === 0 ? '' : boundTable(rs, ctx);
    out[`${g.id}Analysis`] = rs.length === 0 ? '' : analysis(rs, ctx, model.manifest.host.cores, model);
  }
  return out;
}
