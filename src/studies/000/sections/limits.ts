/** Study 000's `{{rateLimiting}}` (upstream concurrency) and `{{bottleneck}}` (tail latency, saturation evidence). Pure. */
import type { ReportModel, RowModel } from '../../../report/model.ts';
import { aggText, esc, int, ms, num, pct, raw, table, type Raw } from '../../../report/format.ts';
import { TOP, VIRTUAL } from './common.ts';
import type { Kit000 } from './kit.ts';

/** The first sentence: the mock's figures only when they describe the cell alone; else derived bounds (never the cumulative gauge). */
function upstreamSentence(model: ReportModel, k: Kit000): string {
  const { s } = k.ctx;
  const h = k.h;
  if (h && h.baseline.upstream.source === 'mock' && h.candidate.upstream.source === 'mock' && h.baseline.upstream.peak.median !== null && h.candidate.upstream.peak.median !== null) {
    const fx = h.baseline.upstream.peak.median;
    const vt = h.candidate.upstream.peak.median;
    return s(vt > fx ? 'rate.more' : 'rate.notMore', { c: int(h.concurrency), fx: int(fx), vt: int(vt), N: int(k.N) });
  }
  const up = model.conclusions.find((c) => c.id === 'needLimits');
  const vtLo = up?.evidence['virtualUpstream'];
  const fxHi = up?.evidence['fixedUpstream'];
  if (h && typeof vtLo === 'number' && typeof fxHi === 'number') {
    return s(vtLo > fxHi ? 'rate.derived.more' : 'rate.derived.notMore', {
      c: int(h.concurrency), vtLo: int(vtLo), fxHi: int(fxHi),
      fxLo: int(h.baseline.upstream.peak.median), N: int(k.N),
    });
  }
  return s('rate.noData');
}

/** `{{rateLimiting}}`: the upstream sentence, then the per-row table of upstream concurrency when any row has it. */
export function rateLimiting(model: ReportModel, k: Kit000): Raw {
  const { P, s } = k.ctx;
  const rateParts: string[] = [upstreamSentence(model, k)];
  if (model.rows.some((r) => r.upstream.source !== 'none')) {
    const upText = (u: RowModel['upstream']): string | Raw => {
      if (u.source === 'none' || u.peak.median === null) return '—';
      if (u.source === 'mock') return aggText(u.peak, int);
      return P('upstream.range', { lo: int(u.peak.median), hi: int(u.atMost?.median ?? null) });
    };
    rateParts.push(s('rate.tableIntro'));
    rateParts.push(table([s('h.mode'), s('h.concurrency'), s('h.allowed'), s('h.upstream'), s('h.source')],
      model.rows.map((r) => [raw(k.name(r.variant)), int(r.concurrency), int(r.upstream.allowed), upText(r.upstream), P(`src.${r.upstream.source}`)]), ['l', 'r', 'r', 'r', 'l']).md);
    if (model.rows.some((r) => r.upstream.source === 'derived')) rateParts.push(s('rate.derivedMethod'));
  }
  return raw(rateParts.join('\n\n'));
}

/** `{{bottleneck}}`: virtual threads' tail at their top level, then the saturation evidence (scheduler delay, SUT CPU, host flags) or its absence. */
export function bottleneck(model: ReportModel, k: Kit000): Raw {
  const { P, s } = k.ctx;
  const sat = model.saturation;
  const bnParts: Raw[] = [];
  const vtRows = model.rows.filter((r) => r.variant === VIRTUAL);
  const topV = vtRows[vtRows.length - 1];
  if (topV && topV.e2eP99Ms.median !== null) {
    bnParts.push(P('bn.tail', { c: int(topV.concurrency), p95: ms(topV.e2eP95Ms.median), p99: ms(topV.e2eP99Ms.median), x99: ms(topV.execP99Ms.median), pub: ms(k.pubOf(`${VIRTUAL}.e2eP99Ms.${TOP}`)?.published ?? null) }));
  }
  if (sat.schedulerDelay.length) {
    bnParts.push(P('bn.schedulerDelay', { cells: sat.schedulerDelay.map((x) => `${x.cellId} (${ms(x.queueP95Ms)})`).join(', '), thr: ms(sat.queueThresholdMs), carriers: int(sat.carriers) }));
  }
  if (sat.sutCpu.length) {
    bnParts.push(P('bn.sutCpu', { cells: raw(sat.sutCpu.map((x) => `${esc(x.cellId)} (${s('bn.peak', { v: pct(x.peakCpu * 100, 0) })}, ${s('unit.shareOfSamples', { v: num(x.share * 100, 0) })})`).join(', ')), thr: pct(sat.cpuThreshold * 100, 0), share: pct(sat.cpuShareThreshold * 100, 0) }));
  }
  if (sat.hostFlags.length) {
    bnParts.push(P('bn.flags', { n: int(sat.hostFlags.length), cells: [...new Set(sat.hostFlags.map((f) => f.cellId))].join(', ') }));
    // a stall of the generator inflates latencies by at most its length: say how long the longest was
    let lag: (typeof sat.hostFlags)[number] | null = null;
    for (const f of sat.hostFlags) if (f.flag.code === 'loadgen-lag' && (lag === null || f.flag.value > lag.flag.value)) lag = f;
    if (lag) bnParts.push(P('bn.lagMax', { ms: ms(lag.flag.value), cell: lag.cellId }));
  }
  if (!sat.saturated) bnParts.push(P('bn.noFlags', { thr: ms(sat.queueThresholdMs), cpu: pct(sat.cpuThreshold * 100, 0), share: pct(sat.cpuShareThreshold * 100, 0) }));
  bnParts.push(P('bn.notMeasured'));
  return k.ctx.join(bnParts);
}
