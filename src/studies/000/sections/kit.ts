/**
 * The helpers study 000's sections share (src/studies/000/sections/*.ts): its arms, N and L with
 * their provenance, the fixed-vs-virtual comparison at its highest and lowest level, and the
 * headline sentence. Built once per render from the model and the engine's RenderContext. Pure
 * except for the provenance book behind `ctx.pv` (footnotes numbered in first-use order: the order
 * in which src/studies/000/report.ts calls the sections is part of the report's bytes).
 */
import type { LevelComparison, ReportModel, RowModel } from '../../../report/model.ts';
import type { RenderContext } from '../../../report/types.ts';
import { aggText, int, ms, num, rps, type Raw } from '../../../report/format.ts';
import { medianOf } from '../../../report/stats.ts';
import { derivedProv, optionProv, type Provenance } from '../../../report/provenance.ts';
import { FIXED, VIRTUAL, highestOf, openLoopRun, pair000, poolSize } from './common.ts';

/** The row metrics study 000's sections print with their provenance. */
export type AggKey000 = 'wholeRunRps' | 'steadyRps' | 'e2eP95Ms' | 'e2eP99Ms' | 'queueP95Ms' | 'execP95Ms' | 'execP99Ms';

/** What study 000's sections share; `ctx` is the engine's RenderContext. */
export interface Kit000 {
  ctx: RenderContext;
  name: (v: string) => string;
  /** L, ms; N, the fixed pool's threads */
  L: number;
  N: number;
  /** the run is open loop (levels are arrival rates) */
  ol: boolean;
  /** fixed vs virtual at the highest and the lowest common level */
  h: LevelComparison | null;
  lo0: LevelComparison | null;
  pubOf: (id: string) => ReportModel['published'][number] | null;
  /** a published figure with its provenance (the study's published row) */
  pubV: (id: string, f: (x: number | null) => string) => Raw | string;
  lv: (r: RowModel) => Raw;
  med: (r: RowModel, k: AggKey000, f: (x: number | null) => string) => Raw;
  spread: (r: RowModel, k: AggKey000, f: (x: number | null) => string) => Raw;
  Nv: () => Raw;
  Lv: () => Raw;
  /** N / L with its formula */
  capV: () => Raw;
  ratioV: (cmp: LevelComparison) => Raw;
  /** a range of one value over rows ("a–b" or one value when equal), with the rows' provenance */
  rangeV: (rows: readonly RowModel[], xs: readonly number[], f: (x: number) => string, what: string, inputs: readonly Provenance[]) => Raw;
  /** the headline sentence at one comparison (closed or open loop) */
  headline: (cmp: LevelComparison | null) => Raw;
  /** the likely cause when virtual threads queued or executed slower: busy carrier threads (host CPU) */
  carrierCause: (cmp: LevelComparison) => Raw | null;
}

/** N's provenance: the run's fixed arm's pool size, else the study's definition. */
function poolProv(model: ReportModel): Provenance {
  const fixedIndex = model.manifest.options.variantSpecs.findIndex((v) => v.id === FIXED);
  return { def: 'option', v: { option: 'variantSpecs/executor/threads' }, formula: null, sources: fixedIndex >= 0 ? [{ file: 'manifest.json', pointer: `/options/variantSpecs/${fixedIndex}/executor/threads` }] : [{ file: `src/studies/${model.study.id}/index.ts`, pointer: FIXED }] };
}

/**
 * The open-loop headline at rate λ = cmp.concurrency: achieved arrival rate, completions against
 * min(λ, N/L) / λ, E2E P95 from the intended send (no coordinated omission) and the pool's queue
 * slope against λ − N/L (src/report/open-loop.ts); each the median over the repeats.
 */
function olHeadline(model: ReportModel, ctx: RenderContext, cmp: LevelComparison): Raw {
  const at = (v: string) => (model.openLoop ?? []).filter((x) => x.variant === v && x.targetRatePerS === cmp.concurrency);
  const med = (v: string, f: (x: NonNullable<ReportModel['openLoop']>[number]) => number | null) => medianOf(at(v).map(f));
  return ctx.P('summary.openLoop', {
    c: int(cmp.concurrency), fxAch: rps(med(FIXED, (x) => x.achievedRatePerS)), vtAch: rps(med(VIRTUAL, (x) => x.achievedRatePerS)),
    fx: rps(cmp.baseline.wholeRunRps.median), fxB: rps(cmp.baseline.boundRps), vt: rps(cmp.candidate.wholeRunRps.median), vtB: rps(cmp.candidate.boundRps),
    fxP95: ms(med(FIXED, (x) => x.e2eFromIntendedMs?.p95 ?? null)), vtP95: ms(med(VIRTUAL, (x) => x.e2eFromIntendedMs?.p95 ?? null)),
    slope: num(med(FIXED, (x) => x.fit.slopePerS), 2), theory: num(med(FIXED, (x) => x.theorySlopePerS), 2),
  });
}

/** Study 000's section kit for one render. */
export function makeKit000(model: ReportModel, ctx: RenderContext): Kit000 {
  const { P, pv } = ctx;
  const L = model.latencyMs;
  const N = poolSize(model);
  const ol = openLoopRun(model);
  const sat = model.saturation;
  const pubOf = (id: string) => model.published.find((p) => p.id === id) ?? null;
  const nProv = poolProv(model);
  const capText = num(N / (L / 1000), 2);
  const lv = (r: RowModel): Raw => pv(int(r.concurrency), r.prov.concurrency);
  const med = (r: RowModel, k: AggKey000, f: (x: number | null) => string): Raw => pv(f(r[k].median), r.prov[k]);
  const ratioV = (cmp: LevelComparison): Raw => {
    const text = num(cmp.throughputRatio, 2);
    return pv(text, derivedProv('ratio', cmp.throughputRatio === null ? null : `${rps(cmp.candidate.wholeRunRps.median)} / ${rps(cmp.baseline.wholeRunRps.median)} = ${text}`, [cmp.baseline.prov.wholeRunRps, cmp.candidate.prov.wholeRunRps]));
  };
  return {
    ctx, L, N, ol, pubOf, lv, med, ratioV,
    name: (v) => ctx.variantName(v),
    h: highestOf(model),
    lo0: pair000(model)?.lowest ?? null,
    pubV: (id, f) => { const p = pubOf(id); return p ? pv(f(p.published), p.prov.published) : '—'; },
    spread: (r, k, f) => pv(aggText(r[k], f), r.prov[k]),
    Nv: () => pv(int(N), nProv),
    Lv: () => pv(int(L), optionProv('latencyMs')),
    capV: () => pv(capText, derivedProv('bound', `N / L = ${int(N)} / ${num(L / 1000, 3)} s = ${capText} req/s`, [nProv, optionProv('latencyMs')])),
    rangeV: (rows, xs, f, what, inputs) => {
      const text = ctx.span(Math.min(...xs), Math.max(...xs), f);
      return pv(text, derivedProv('range', `min(${xs.map(f).join(', ')}) = ${f(Math.min(...xs))}; max(…) = ${f(Math.max(...xs))}`, inputs, { what, levels: rows.map((r) => int(r.concurrency)).join(', ') }));
    },
    headline: (cmp) => {
      if (!cmp || !cmp.throughput) return P('summary.noComparison');
      if (ol) return olHeadline(model, ctx, cmp);
      const v = {
        c: lv(cmp.baseline), fx: med(cmp.baseline, 'wholeRunRps', rps), vt: med(cmp.candidate, 'wholeRunRps', rps),
        ratio: ratioV(cmp), fxP95: med(cmp.baseline, 'e2eP95Ms', ms), vtP95: med(cmp.candidate, 'e2eP95Ms', ms),
      };
      return P(`summary.throughput.${cmp.throughput}`, v);
    },
    carrierCause: (cmp) => {
      const v = { carriers: int(sat.carriers), c: int(cmp.concurrency), vtQueue: ms(cmp.candidate.queueP95Ms.median), thr: ms(sat.queueThresholdMs) };
      if (cmp.candidateQueueDelayed) return P('cause.carriers.queue', v);
      if (cmp.execSlowerCandidate) return P('cause.carriers.exec', v);
      return null;
    },
  };
}
