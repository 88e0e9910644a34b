/**
 * Threshold rules (`--thresholds <file>`): reading, validating (schema/thresholds.schema.json, ajv)
 * and the short text form. A file is JSON only: no YAML parser is installed (json5 is, but only
 * for JSON), so a `.yaml`/`.yml` file is refused with the fix. Every error is a VtbenchError
 * (EXIT.usage) naming the file, the rule (`rules/<i>`) and the fix; the file is read before a run
 * measures anything, so a bad file never costs a run.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { SCHEMA_DIR } from '../../adapters/store/schema.ts';
import { EXIT, VtbenchError } from '../../types/errors.ts';
import { parseWindow } from '../../compute/analysis/windows.ts';

export type RunMetric = 'throughput' | 'e2e_p50' | 'e2e_p95' | 'e2e_p99' | 'error_rate';
export type CompareRuleMetric = 'throughput' | 'e2e_p50' | 'e2e_p95' | 'e2e_p99';
export type Op = '>=' | '<=' | '>' | '<';

/** A limit on a metric of a run's matching cells (the median of each cell's repeats). */
export interface RunRule {
  /** `<variant|*>@<level|*>` */
  cell: string;
  metric: RunMetric;
  op: Op;
  /** the limit (ms for e2e_pNN, req/s for throughput, 0..1 for error_rate), or a factor of the bound */
  value: number;
  /** `bound`: value × the cell's theoretical throughput bound (throughput only) */
  of?: 'bound';
  /**
   * the window the metric is measured over, from the per-request records (src/compute/analysis/windows.ts):
   * `steady`, `last:<N>s` or `every:<N>s` (the worst window counts); absent: the whole run (the summary's median of repeats)
   */
  window?: string;
}

/** In `compare A B`: B not significantly slower than A in `metric` for the matching cells. */
export interface CompareRule {
  compare: 'not-slower';
  metric: CompareRuleMetric;
  /** `<variant|*>@<level|*>`, default every cell */
  cell?: string;
}

export type Rule = RunRule | CompareRule;

/** A rule as read: the structured rule, its index in the file and how to show it. */
export interface ReadRule {
  index: number;
  text: string;
  rule: Rule;
}

export interface Thresholds {
  file: string;
  rules: ReadRule[];
}

export const THRESHOLDS_SCHEMA_FILE = 'thresholds.schema.json';
const HINT = 'see thresholds.example.json and docs/compare-and-thresholds.md, section "Thresholds", for the rule forms';

const SCHEMA_ID = 'https://vtbench.local/schema/thresholds.schema.json';
let ajv: Ajv | null = null;
/** The validator of the whole file, or of one form of rule (`runRule`, `compareRule`). */
function validator(part?: 'runRule' | 'compareRule'): ValidateFunction {
  if (!ajv) {
    ajv = new Ajv({ allErrors: true, strict: false });
    ajv.addSchema(JSON.parse(readFileSync(join(SCHEMA_DIR, THRESHOLDS_SCHEMA_FILE), 'utf8')) as object);
  }
  const v = ajv.getSchema(part ? `${SCHEMA_ID}#/definitions/${part}` : SCHEMA_ID);
  if (!v) throw new Error(`schema/${THRESHOLDS_SCHEMA_FILE}: no ${part ?? 'root'} schema (its $id must be ${SCHEMA_ID})`);
  return v;
}

export const isCompareRule = (r: Rule): r is CompareRule => 'compare' in r;

const UNIT: Record<RunMetric, string> = { throughput: 'req/s', e2e_p50: 'ms', e2e_p95: 'ms', e2e_p99: 'ms', error_rate: '' };

/** The unit of a run metric's values ('' for error_rate, a fraction 0..1). */
export function unitOf(metric: RunMetric): string {
  return UNIT[metric];
}

/** Whether `x` holds `op limit`. */
export function holds(x: number, op: Op, limit: number): boolean {
  switch (op) {
    case '>=': return x >= limit;
    case '<=': return x <= limit;
    case '>': return x > limit;
    case '<': return x < limit;
  }
}

/** A value of a metric with its unit (4 decimals for an error rate, 2 for the rest). */
export function show(x: number, metric: RunMetric): string {
  const unit = UNIT[metric];
  const digits = metric === 'error_rate' ? 4 : 2;
  return `${Number(x.toFixed(digits))}${unit === 'ms' ? ' ms' : unit ? ` ${unit}` : ''}`;
}

/** A rule in its short text form (what is printed when it is broken). */
export function ruleText(r: Rule): string {
  if (isCompareRule(r)) return `compare${r.cell && r.cell !== '*@*' ? ` ${r.cell}` : ''}: ${r.metric} not slower than baseline`;
  const unit = r.of === 'bound' ? ' * bound' : UNIT[r.metric] === 'req/s' ? ' req/s' : UNIT[r.metric];
  return `${r.cell}: ${r.metric} ${r.op} ${r.value}${unit}${r.window ? ` over ${r.window}` : ''}`;
}

const CELL = String.raw`(?<cell>(?:[A-Za-z0-9._-]+|\*)@(?:[1-9][0-9]*|\*))`;
const NUMBER = String.raw`(?<value>[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)`;
const RUN_TEXT = new RegExp(String.raw`^\s*${CELL}\s*:\s*(?<metric>[a-z0-9_]+)\s*(?<op>>=|<=|>|<)\s*${NUMBER}\s*(?:(?<bound>\*\s*bound)|(?<unit>ms|req/s))?(?:\s+over\s+(?<window>\S+))?\s*$`);
const COMPARE_TEXT = new RegExp(String.raw`^\s*compare(?:\s+${CELL})?\s*:\s*(?<metric>[a-z0-9_]+)\s+not\s+slower\s+than\s+baseline\s*$`);

/**
 * Parse the short text form into a structured rule (the caller validates it against the schema).
 * @returns the rule, or what is wrong: neither form, or a unit that is not the metric's (a unit is
 *   checked, never converted)
 */
export function parseRuleText(text: string): { rule: Rule } | { problem: string } {
  const c = COMPARE_TEXT.exec(text);
  if (c?.groups) {
    const rule: CompareRule = { compare: 'not-slower', metric: c.groups['metric'] as CompareRuleMetric };
    if (c.groups['cell']) rule.cell = c.groups['cell'];
    return { rule };
  }
  const m = RUN_TEXT.exec(text);
  if (!m?.groups) {
    return { problem: "has neither form '<variant>@<level>: <metric> <op> <number>[ms|req/s| * bound][ over <window>]' nor 'compare[ <variant>@<level>]: <metric> not slower than baseline'" };
  }
  const rule: RunRule = { cell: m.groups['cell']!, metric: m.groups['metric'] as RunMetric, op: m.groups['op'] as Op, value: Number(m.groups['value']) };
  if (m.groups['bound']) rule.of = 'bound';
  if (m.groups['window'] !== undefined) rule.window = m.groups['window'];
  const unit = m.groups['unit'];
  if (unit !== undefined && rule.metric in UNIT && unit !== UNIT[rule.metric]) {
    return { problem: `${rule.metric} is in ${UNIT[rule.metric] || 'no unit (a fraction 0..1)'}, not ${unit}` };
  }
  return { rule };
}

function bad(file: string, what: string): VtbenchError {
  return new VtbenchError(`--thresholds ${file}: ${what}`, HINT, EXIT.usage);
}

/**
 * Check a parsed thresholds document: the schema, then each text rule parsed and checked as its
 * structured form, then what the schema cannot say (`of: bound` only with throughput).
 * @param file the name to put in messages
 * @throws VtbenchError(EXIT.usage) naming the file, the rule (rules/<i>) and what is wrong
 */
export function readThresholds(doc: unknown, file: string): Thresholds {
  const v = validator();
  if (!v(doc)) {
    // a rule's oneOf yields errors for every form; check each rule again against the form it was
    // meant to be (an object with `compare` is a compare rule, any other object a run rule)
    const problems: string[] = [];
    for (const e of v.errors ?? []) {
      if (/^\/rules\/\d+/.test(e.instancePath)) continue;
      const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty)})` : '';
      problems.push(`${e.instancePath || '/'} ${e.message ?? 'invalid'}${extra}`);
    }
    const rules = (doc as { rules?: unknown }).rules;
    if (Array.isArray(rules)) {
      rules.forEach((rule, i) => {
        if (typeof rule === 'string' && rule.length > 0) return;
        if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) {
          problems.push(`rules/${i} ${JSON.stringify(rule)} is not a rule: a text rule, a run rule {cell, metric, op, value[, of]} or a compare rule {compare: "not-slower", metric[, cell]}`);
          return;
        }
        const form = 'compare' in rule ? 'compareRule' : 'runRule';
        const fv = validator(form);
        if (fv(rule)) return;
        const first = fv.errors![0]!;
        const params = first.params as { allowedValues?: unknown[]; additionalProperty?: string; allowedValue?: unknown };
        const extra = params.allowedValues ? ` (${params.allowedValues.join(', ')})`
          : params.additionalProperty ? ` (${params.additionalProperty})`
            : params.allowedValue !== undefined ? ` (${JSON.stringify(params.allowedValue)})` : '';
        problems.push(`rules/${i}${first.instancePath} ${first.message ?? 'invalid'}${extra} in the ${form === 'runRule' ? 'run rule' : 'compare rule'} ${JSON.stringify(rule)}`);
      });
    }
    throw bad(file, problems.join('; '));
  }
  const rules: ReadRule[] = [];
  (doc as { rules: unknown[] }).rules.forEach((raw, index) => {
    let rule: Rule;
    if (typeof raw === 'string') {
      const parsed = parseRuleText(raw);
      if ('problem' in parsed) throw bad(file, `rules/${index} ${JSON.stringify(raw)} ${parsed.problem}`);
      const metric: string = parsed.rule.metric;
      if (!validator(isCompareRule(parsed.rule) ? 'compareRule' : 'runRule')(parsed.rule)) {
        throw bad(file, `rules/${index} ${JSON.stringify(raw)}: unknown metric '${metric}' (run rules: throughput, e2e_p50, e2e_p95, e2e_p99, error_rate; compare rules: throughput, e2e_p50, e2e_p95, e2e_p99)`);
      }
      rule = parsed.rule;
    } else {
      rule = raw as Rule;
    }
    // a limit beyond the doubles (1e400 reads as Infinity) could never be broken: refused, as NaN would be
    if (!isCompareRule(rule) && !Number.isFinite(rule.value)) {
      throw bad(file, `rules/${index} ${JSON.stringify(typeof raw === 'string' ? raw : rule)}: the limit is not a finite number (it reads as ${String(rule.value)}, which no value can break): give a limit within ±1.8e308`);
    }
    if (!isCompareRule(rule) && rule.window !== undefined && parseWindow(rule.window) === null) {
      throw bad(file, `rules/${index} ${JSON.stringify(typeof raw === 'string' ? raw : rule)}: unknown window '${rule.window}' (windows: steady, last:<N>s, every:<N>s with N > 0, e.g. last:10s; without a window the rule holds over the whole run)`);
    }
    if (!isCompareRule(rule) && rule.of === 'bound' && rule.metric !== 'throughput') {
      throw bad(file, `rules/${index}: '* bound' (of: "bound") applies to throughput only, not ${rule.metric}`);
    }
    rules.push({ index, text: typeof raw === 'string' ? raw.trim() : ruleText(rule), rule });
  });
  return { file, rules };
}

/**
 * Read and check a thresholds file.
 * @throws VtbenchError(EXIT.usage) when it is missing, unreadable, YAML, not JSON, or not valid
 */
export function loadThresholds(file: string): Thresholds {
  if (/\.ya?ml$/i.test(file)) throw new VtbenchError(`--thresholds ${file}: YAML is not read (no YAML parser is installed)`, 'write the rules as JSON (the same structure; see thresholds.example.json)', EXIT.usage);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new VtbenchError(`--thresholds ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, 'give the path of a thresholds JSON file, e.g. --thresholds thresholds.example.json', EXIT.usage);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw bad(file, `not valid JSON (${(e as Error).message.split('\n')[0]})`);
  }
  return readThresholds(doc, file);
}
