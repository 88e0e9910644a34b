/**
 * The environment guard of `compare` (issue 33 item 3): the settings and host facts that change a
 * cell's theoretical bound or the machine it ran on. Two runs that differ in one of them are "not
 * comparable" unless the user names that kind in `--allow-diff`; the other differences
 * (settingDifferences in model.ts: warm-up, timeouts, versions other than the JDK's major, the
 * commit) are listed but do not block. Pure: two manifests in, a list of differences out.
 *
 * What each kind reads from the manifest (RunManifest, src/types/run.ts):
 * - study: options.study; scenario: options.scenario (the cells' own scenarios are in the cell key)
 * - jdk: the major version of versions.jdk (`25.0.3+9-LTS` → 25; `1.8.0_x` → 8)
 * - cores: host.cores; quota: the cgroup CPU quota `host.cgroup.cpuQuotaCores` (null = no quota) — compared only when both
 *   runs recorded it (a run before it was recorded cannot be checked on it; its absence is listed by
 *   settingDifferences, not here)
 * - pool: the effective executor (and SUT properties) of each variant both runs define
 *   (options.variantSpecs: `--pool-size`, `--queue-capacity` already applied)
 * - latency: options.latencyMs, the mock's fixed latency L
 * - load: the load model: requestsPerWorker, start, rampMs (start = ramp only), durationS, arrival,
 *   maxInFlight and the per-scenario levels/requests (scenarioLevels' requestsPerWorker)
 * - isolation: options.cpuIsolation, the CPU sets of the SUT and the harness (`--isolate-cpus`); absent
 *   (off, or runs before the option existed) reads as `none`
 */
import type { RunManifest } from '../../types/run.ts';
import { EXIT, VtbenchError } from '../../types/errors.ts';

/** The kinds `--allow-diff` accepts, in the order differences are listed. */
export const GUARD_KINDS = ['study', 'scenario', 'jdk', 'cores', 'quota', 'pool', 'latency', 'load', 'isolation'] as const;
export type GuardKind = (typeof GUARD_KINDS)[number];

/** One difference that blocks a comparison (unless allowed). */
export interface GuardDifference {
  kind: GuardKind;
  /** one line, `<what>: A <value>, B <value>` */
  text: string;
  /** named in --allow-diff: listed, but the comparison is made */
  allowed: boolean;
}

/** What the guard reads of a manifest. */
type GuardManifest = Pick<RunManifest, 'options' | 'host' | 'versions'>;

/** The JDK's major version of a version string (`25.0.3+9-LTS` → 25, `1.8.0_392` → 8); null when unknown. */
export function jdkMajor(version: string | null | undefined): number | null {
  if (typeof version !== 'string') return null;
  const m = /^(\d+)(?:\.(\d+))?/.exec(version.trim());
  if (!m) return null;
  const first = Number(m[1]);
  return first === 1 && m[2] !== undefined ? Number(m[2]) : first;
}

const show = (v: unknown): string => (v === undefined ? '(not recorded)' : JSON.stringify(v));

/** The load model of a run's options (closed or open loop and how the load starts), one object. */
function loadModel(o: RunManifest['options']): Record<string, unknown> {
  const levels = o.scenarioLevels ? Object.fromEntries(Object.entries(o.scenarioLevels).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, v]) => [k, v.requestsPerWorker])) : undefined;
  return {
    requestsPerWorker: o.requestsPerWorker,
    start: o.start,
    rampMs: o.start === 'ramp' ? o.rampMs : undefined,
    durationS: o.durationS,
    arrival: o.arrival,
    maxInFlight: o.maxInFlight,
    scenarioRequestsPerWorker: levels,
  };
}

/** Pool differences: each variant both runs define, with a different executor or SUT properties. */
function poolDifferences(a: GuardManifest, b: GuardManifest): string[] {
  const out: string[] = [];
  for (const va of a.options.variantSpecs ?? []) {
    const vb = (b.options.variantSpecs ?? []).find((x) => x.id === va.id);
    if (!vb) continue;
    if (JSON.stringify(va.executor) !== JSON.stringify(vb.executor)) out.push(`pool of variant ${va.id}: A ${JSON.stringify(va.executor)}, B ${JSON.stringify(vb.executor)}`);
    else if (JSON.stringify(va.sutProperties ?? null) !== JSON.stringify(vb.sutProperties ?? null)) out.push(`SUT properties of variant ${va.id}: A ${show(va.sutProperties ?? null)}, B ${show(vb.sutProperties ?? null)}`);
  }
  return out;
}

/**
 * The differences between two runs that change the bounds or the host, one per kind and thing.
 * @param allow the kinds the user allowed to differ (`--allow-diff`)
 * @returns in GUARD_KINDS order; empty when the runs are comparable on every kind
 */
export function guardDifferences(a: GuardManifest, b: GuardManifest, allow: readonly GuardKind[] = []): GuardDifference[] {
  const found: [GuardKind, string][] = [];
  const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
  const add = (kind: GuardKind, what: string, x: unknown, y: unknown) => {
    if (!same(x, y)) found.push([kind, `${what}: A ${show(x)}, B ${show(y)}`]);
  };
  add('study', 'study', a.options.study, b.options.study);
  add('scenario', 'scenario', a.options.scenario, b.options.scenario);
  add('jdk', 'JDK major version', jdkMajor(a.versions.jdk), jdkMajor(b.versions.jdk));
  add('cores', 'host cores', a.host.cores, b.host.cores);
  // a run whose cgroup could not be read (version null) has no quota to compare
  const quota = (m: GuardManifest) => (m.host.cgroup && m.host.cgroup.version !== null ? m.host.cgroup.cpuQuotaCores : undefined);
  const qa = quota(a);
  const qb = quota(b);
  if (qa !== undefined && qb !== undefined) add('quota', 'cgroup CPU quota', qa, qb);
  for (const line of poolDifferences(a, b)) found.push(['pool', line]);
  add('latency', 'mock latency L (latencyMs)', a.options.latencyMs, b.options.latencyMs);
  const la = loadModel(a.options);
  const lb = loadModel(b.options);
  for (const k of Object.keys(la)) add('load', `load model ${k}`, la[k], lb[k]);
  const iso = (m: GuardManifest) => m.options.cpuIsolation ?? 'none';
  add('isolation', 'CPU isolation', iso(a), iso(b));
  return found.map(([kind, text]) => ({ kind, text, allowed: allow.includes(kind) }));
}

/**
 * Parse `--allow-diff` (kinds separated by commas, e.g. `jdk,cores`; `all` = every kind).
 * @returns the kinds, in GUARD_KINDS order, without repeats
 * @throws VtbenchError(EXIT.usage) naming the option, the unknown value and the valid values
 */
export function parseAllowDiff(text: string): GuardKind[] {
  const parts = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const valid = `valid: ${GUARD_KINDS.join(', ')}, or all`;
  const hint = 'name what may differ between the runs, separated by commas, e.g. --allow-diff jdk,cores';
  if (parts.length === 0) throw new VtbenchError(`--allow-diff: no kind given (${valid})`, hint, EXIT.usage);
  if (parts.includes('all')) return [...GUARD_KINDS];
  const unknown = parts.filter((p) => !(GUARD_KINDS as readonly string[]).includes(p));
  if (unknown.length > 0) throw new VtbenchError(`--allow-diff: unknown ${unknown.map((u) => `'${u}'`).join(', ')} (${valid})`, hint, EXIT.usage);
  return GUARD_KINDS.filter((k) => parts.includes(k));
}
