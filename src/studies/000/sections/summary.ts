/** Study 000's `{{summary}}`: the setup from the arms this run ran, the headline at the highest level, steady state, execution and its likely cause. Pure (adds footnotes). */
import type { ReportModel } from '../../../report/model.ts';
import { int, ms, num, raw, rps, signed, type Raw } from '../../../report/format.ts';
import { FIXED, VIRTUAL } from './common.ts';
import type { Kit000 } from './kit.ts';

/** The first sentence: both arms compared, or one arm described alone. */
function setupSentence(model: ReportModel, k: Kit000): Raw {
  const { P, join } = k.ctx;
  const o = model.manifest.options;
  const bothArms = o.variants.includes(FIXED) && o.variants.includes(VIRTUAL);
  const executorOf = (v: string): Raw => (v === FIXED || v === VIRTUAL ? P(`summary.executor.${v}`, { poolSize: int(k.N) }) : raw(k.name(v)));
  return P(bothArms ? 'summary.setup' : 'summary.setup.one', {
    ...(bothArms ? { poolSize: int(k.N) } : { executors: join(o.variants.map(executorOf)) }),
    profile: o.profile, latencyMs: int(k.L), levels: model.levels.join(', '),
    repeatsText: P(o.repeats === 1 ? 'summary.repeats.one' : 'summary.repeats.many', { n: int(o.repeats) }),
    count: int(model.totals.count), ok: int(model.totals.ok), failed: int(model.totals.failed),
  });
}

/** `{{summary}}` */
export function summary000(model: ReportModel, k: Kit000): Raw {
  const { P, join, latTol } = k.ctx;
  const o = model.manifest.options;
  const h = k.h;
  const summaryParts: Raw[] = [setupSentence(model, k)];
  summaryParts.push(k.headline(h));
  // steady state is a per-worker rate: an open-loop run has no workers
  if (h && h.throughput && !k.ol) {
    const pctOf = (x: number | null, b: number) => (x === null ? '—' : num((x / b) * 100, 1));
    summaryParts.push(P('summary.steady', {
      rampNote: o.start === 'ramp' ? P('summary.rampNote', { frac: num(model.rampFraction * 100, 1) }) : '',
      fxS: rps(h.baseline.steadyRps.median), fxPct: pctOf(h.baseline.steadyRps.median, h.baseline.boundRps), fxB: rps(h.baseline.boundRps),
      vtS: rps(h.candidate.steadyRps.median), vtPct: pctOf(h.candidate.steadyRps.median, h.candidate.boundRps), vtB: rps(h.candidate.boundRps),
    }));
  }
  if (h && h.execSame !== null) {
    const key = h.execSame ? (h.throughput === 'wins' ? 'summary.exec.sameWins' : 'summary.exec.same') : 'summary.exec.differs';
    summaryParts.push(P(key, { fxExec: ms(h.baseline.execP95Ms.median), vtExec: ms(h.candidate.execP95Ms.median), diffPct: signed((h.execP95RelDiff as number) * 100, 1), tol: latTol }));
    const cause = k.carrierCause(h);
    if (cause) summaryParts.push(cause);
  }
  if (model.isFixture) summaryParts.push(P('summary.fixture'));
  return join(summaryParts);
}
