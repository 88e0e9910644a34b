/** Study 004's experiment 1 sections: `{{asyncTable}}`, `{{asyncEvidence}}`, `{{asyncBreakdown}}`. Pure. */
import type { ReportModel } from '../../../report/model.ts';
import type { ConclusionRow, RenderContext } from '../../../report/types.ts';
import type { Agg } from '../../../types/run.ts';
import { aggText, code, int, mib, ms, pct, raw, table, type Raw } from '../../../report/format.ts';
import { asyncThreads } from '../theory.ts';
import { MAKESPAN_THEORY_TOL, type Derived004 } from '../report.ts';

const aggMs = (a: Agg) => aggText(a, (x) => ms(x));
const aggInt = (a: Agg) => aggText(a, (x) => int(x));

/** The makespan against its own ⌈T/N⌉ × S: a setup identity, so "holds" / "does not hold", never "reproduced". */
function identityCheck(ctx: RenderContext, c: ConclusionRow | undefined): Raw {
  if (!c || c.verdict === 'not testable here') return ctx.verdict('not testable here');
  return ctx.P(c.verdict === 'reproduced' ? 'identity.holds' : 'identity.fails');
}

/** The three placeholders of experiment 1 from the derived rows. */
export function asyncSections(model: ReportModel<Derived004>, ctx: RenderContext): Record<string, string | Raw> {
  const { s, variantName } = ctx;
  const out: Record<string, string | Raw> = {};
  const rows = model.derived.async;
  out['asyncTable'] = rows.length === 0 ? s('none') : table(
    [s('h.variant'), s('h.tasks'), s('h.makespan'), s('h.theory'), s('h.vsTheory'), s('h.submit'), s('h.submitRate'), s('h.firstStart')],
    rows.map((r) => [variantName(r.variant), int(r.tasks), aggMs(r.makespanMs),
      r.theoryWithSubmitMs === null ? s('theory.pool', { n: int(asyncThreads(model.variantSpecs.get(r.variant)!.executor)), waves: int(Math.ceil(r.tasks / (asyncThreads(model.variantSpecs.get(r.variant)!.executor) ?? 1))), sleep: int(r.sleepMs), t: ms(r.theoryMs) }) : s('theory.vt', { sleep: int(r.sleepMs), submit: ms(r.submitMs.median), t: ms(r.theoryWithSubmitMs) }),
      r.theoryWithSubmitMs === null
        ? raw(`${pct(r.vsTheory === null ? null : r.vsTheory * 100)} (${identityCheck(ctx, model.conclusions.find((c) => c.id === `${r.variant}.makespanVsTheory`)).md} ±${int(MAKESPAN_THEORY_TOL * 100)} %)`)
        : pct(r.makespanMs.median === null ? null : (r.makespanMs.median / r.theoryWithSubmitMs - 1) * 100),
      aggMs(r.submitMs), aggText(r.submitRatePerS, (x) => (x === null ? '—' : `${int(x)}/s`)), aggMs(r.firstStartMs)]),
    ['l', 'r', 'r', 'l', 'r', 'r', 'r', 'r']);
  out['asyncEvidence'] = rows.length === 0 ? s('none') : table(
    [s('h.variant'), s('h.executorClass'), s('h.peakPool'), s('h.peakQueue'), s('h.peakRunning'), s('h.peakPlatform'), s('h.kinds'), s('h.rss')],
    rows.map((r) => [variantName(r.variant), code(r.executorClass.replace(/^.*\./, '')), aggInt(r.peakPoolThreads), aggInt(r.peakQueue), aggInt(r.peakRunningTasks), aggInt(r.peakPlatformThreads),
      s('kinds', { virtual: int(r.virtualTasks), platform: int(r.platformTasks), prefixes: r.prefixes.join(', ') }),
      `${aggText(r.rssBeforeBytes, (x) => mib(x))} → ${aggText(r.rssAfterBytes, (x) => mib(x))}`]),
    ['l', 'l', 'r', 'r', 'r', 'r', 'l', 'l']);
  const vt = rows.find((r) => r.variant === 'virtual');
  out['asyncBreakdown'] = vt && vt.makespanMs.median !== null && vt.submitMs.median !== null
    // which part dominates decides the sentence: the submission loop, or the time after the last submit
    ? s(vt.submitMs.median >= vt.makespanMs.median - vt.submitMs.median ? 'async.breakdown.submit' : 'async.breakdown.after', {
      makespan: ms(vt.makespanMs.median), submit: ms(vt.submitMs.median), rest: ms(vt.makespanMs.median - vt.submitMs.median),
      sleep: int(vt.sleepMs), rate: int(vt.submitRatePerS.median), tasks: int(vt.tasks), cores: int(model.manifest.host.cores) })
    : s('async.noVirtual');
  return out;
}
