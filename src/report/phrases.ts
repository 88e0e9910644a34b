/**
 * The report's phrases: lookup and fill, the open-loop wording of a run, the chart labels of a
 * language. Pure.
 */
import type { ChartLabels, ReportModel, Templates } from './types.ts';
import { Raw, fill, raw } from './format.ts';

/** suffix of a phrase key that replaces the key's phrase in a run whose levels are arrival rates */
export const OPEN_LOOP_SUFFIX = '@openLoop';

/** Whether a run's levels are arrival rates λ (its rows come from `open-loop-http` cells, RowModel.openLoop). */
export function isOpenLoopRun(model: Pick<ReportModel, 'rows' | 'openLoop'>): boolean {
  return model.openLoop !== null || model.rows.some((r) => r.openLoop);
}

/**
 * The templates for this run's load model: in an open-loop run (isOpenLoopRun) every phrase
 * `<key>@openLoop` (engine or study phrase file) replaces `<key>`, so that a level is called an
 * arrival rate λ and no closed-loop wording or theory is printed; a closed-loop run gets `t`
 * unchanged (the same object). Pure.
 */
export function templatesForRun(t: Templates, model: Pick<ReportModel, 'rows' | 'openLoop'>): Templates {
  if (!isOpenLoopRun(model)) return t;
  const phrases = { ...t.phrases };
  for (const [k, v] of Object.entries(t.phrases)) if (k.endsWith(OPEN_LOOP_SUFFIX)) phrases[k.slice(0, -OPEN_LOOP_SUFFIX.length)] = v;
  return { ...t, phrases };
}

/** Phrase lookup and fill; a missing phrase is a programming error. */
export function phraser(t: Templates) {
  return (key: string, values: Record<string, string | Raw> = {}): Raw => {
    const p = t.phrases[key];
    if (p === undefined) throw new Error(`phrases.${t.lang}.json: missing "${key}"`);
    return raw(fill(p, values, `phrases.${t.lang}.json:${key}`));
  };
}

/**
 * The chart labels of a language: each ChartLabels key `k` from the phrase `chart.<k>` of
 * templates/engine/phrases.<lang>.json (taken as is; `droppedLog` keeps its `{{n}}`).
 * @throws Error when a `chart.*` phrase is missing (a template bug, caught by the report tests)
 */
export function chartLabels(t: Templates): ChartLabels {
  const keys: (keyof ChartLabels)[] = ['throughput', 'e2e', 'phases', 'timeseries', 'distribution', 'concurrency', 'rps', 'latencyMs', 'ms', 'timeS', 'percentile', 'mode',
    'series', 'measured', 'bound', 'wavesBound', 'theoryP95', 'phase', 'queue', 'exec', 'overhead', 'metric', 'value',
    'inFlight', 'queueSize', 'platformThreads', 'heapMiB', 'rssMiB', 'cpuPct', 'droppedLog', 'openLoopQueue', 'queueTasks', 'arrivalRate', 'queueTheory',
    'scatter', 'sendTimeS', 'scatterNote', 'scatterWhole', 'scatterEarly', 'spectrum', 'percentileLog', 'phasesNote', 'p95'];
  const out = {} as ChartLabels;
  for (const k of keys) {
    const v = t.phrases[`chart.${k}`];
    if (v === undefined) throw new Error(`phrases.${t.lang}.json: missing "chart.${k}"`);
    out[k] = v;
  }
  return out;
}
