/**
 * `compare` of two target runs (issue 32: compare keeps working for a service vtbench did not build).
 * The same Comparison as for study runs (model.ts), so the same rendering, verdicts and compare rules:
 * cells matched by arm and level (failed cells are never cells), per repeat the whole-run throughput
 * (cellThroughputRps, as the target report) and the E2E P50/P95/P99, Welch's interval and the three
 * verdicts (compareSides). Pure.
 *
 * The guard (what changes the bounds or the host, so a verdict across it would mislead), mapped to
 * the kinds `--allow-diff` names: `study` the tier (black box, jar, agent: what runs inside the
 * service differs), `scenario` the request mix (its SHA-256), `jdk` the target JVM's major version,
 * `cores` the host's CPUs, `pool` an arm's Spring properties, `latency` the mock LLM's latency,
 * `load` the load model (closed or open loop, requests per worker, duration, arrivals). The jar itself
 * is not guarded: a new build of the service is what a team compares; it is listed among the
 * differences.
 */
import type { TargetCell, TargetManifest } from '../../types/target.ts';
import type { GuardDifference, GuardKind } from './guard.ts';
import { jdkMajor } from './guard.ts';
import { cellThroughputRps } from '../../compute/target/inference.ts';
import { COMPARE_METRICS, CONFIDENCE, DEFAULT_MIN_EFFECT_PCT, compareMethod, compareSides, matchGroups, sideOf, type CellGroups, type CellKey, type CompareMetric, type CompareOptions, type Comparison, type RunRef } from './model.ts';
import type { TargetRunFiles } from '../target/load.ts';

/** The study name a target run's cells carry in a Comparison. */
export const TARGET_STUDY = 'target';

/** A metric of one target cell (one repeat); null when not computable. */
export function targetMetricOf(metric: CompareMetric, c: TargetCell): number | null {
  switch (metric) {
    case 'throughput': return cellThroughputRps(c.summary);
    case 'e2e_p50': return c.summary.e2eMs?.p50 ?? null;
    case 'e2e_p95': return c.summary.e2eMs?.p95 ?? null;
    case 'e2e_p99': return c.summary.e2eMs?.p99 ?? null;
  }
}

const show = (v: unknown): string => (v === undefined || v === null ? '(none)' : typeof v === 'string' ? v : JSON.stringify(v));

/** The target JVM's major version: the first arm's JVM the sampler saw; null for a black box. */
function jdkOf(m: TargetManifest): number | null {
  const jvm = Object.values(m.jvm)[0];
  return jvm ? jdkMajor(jvm.javaVersion) : null;
}

/**
 * The guarded differences of two target manifests (see the file comment), each marked allowed when
 * its kind is in `allow`.
 */
export function targetGuardDifferences(a: TargetManifest, b: TargetManifest, allow: readonly GuardKind[] = []): GuardDifference[] {
  const out: GuardDifference[] = [];
  const add = (kind: GuardKind, what: string, va: unknown, vb: unknown): void => {
    if (JSON.stringify(va ?? null) !== JSON.stringify(vb ?? null)) out.push({ kind, text: `${what}: A ${show(va)}, B ${show(vb)}`, allowed: allow.includes(kind) });
  };
  add('study', 'tier', a.tier, b.tier);
  add('scenario', 'request mix (SHA-256)', a.mix.sha256.slice(0, 12), b.mix.sha256.slice(0, 12));
  add('jdk', 'JDK major', jdkOf(a), jdkOf(b));
  add('cores', 'host CPUs', a.host.cpus, b.host.cpus);
  for (const arm of a.arms) {
    const other = b.arms.find((x) => x.id === arm.id);
    if (other) add('pool', `arm ${arm.id}'s properties`, arm.properties, other.properties);
  }
  add('latency', 'mock LLM latency, ms', a.mock?.latencyMs, b.mock?.latencyMs);
  add('load', 'load model', a.mode, b.mode);
  const length = (m: TargetManifest) => (m.mode === 'open-loop' ? { durationS: m.durationS } : { requestsPerWorker: m.requestsPerWorker });
  add('load', 'cell length', length(a), length(b));
  add('load', 'open-loop arrivals', a.openLoop, b.openLoop);
  return out;
}

/** Facts that differ but do not block a verdict: the jar (the change under test), its arguments, the host, the database. */
function targetSettingDifferences(a: TargetManifest, b: TargetManifest): string[] {
  const out: string[] = [];
  const add = (what: string, va: unknown, vb: unknown): void => {
    if (JSON.stringify(va ?? null) !== JSON.stringify(vb ?? null)) out.push(`${what}: A ${show(va)}, B ${show(vb)}`);
  };
  add('jar (SHA-256)', a.jar?.sha256.slice(0, 12), b.jar?.sha256.slice(0, 12));
  add('jar arguments', a.jar?.args, b.jar?.args);
  add('JVM flags', a.jar?.jvmArgs, b.jar?.jvmArgs);
  add('host CPU model', a.host.cpuModel, b.host.cpuModel);
  add('host kernel', a.host.kernel, b.host.kernel);
  add('node', a.host.node, b.host.node);
  add('PostgreSQL', a.db?.serverVersion, b.db?.serverVersion);
  add('warm-up requests per worker', a.warmupRequestsPerWorker, b.warmupRequestsPerWorker);
  add('JDK', Object.values(a.jvm)[0]?.vmVersion, Object.values(b.jvm)[0]?.vmVersion);
  return out;
}

function refOf(r: TargetRunFiles): RunRef {
  return { runDir: r.dir, runId: r.manifest.runId, study: TARGET_STUDY, profile: r.manifest.tier, status: r.manifest.finishedAt ? 'complete' : 'incomplete', gaps: r.manifest.failed.map((f) => `failed cell ${f.id}: ${f.reason}`) };
}

/** The measured cells of a run by (arm, level), repeats in order; failed cells left out. */
function groupsOf(r: TargetRunFiles): CellGroups<TargetCell> {
  const failed = new Set(r.manifest.failed.map((f) => f.id));
  const out: CellGroups<TargetCell> = new Map();
  const order = (c: TargetCell): number => r.manifest.arms.findIndex((a) => a.id === c.arm) * 1e9 + c.level;
  for (const c of [...r.cells].filter((x) => !failed.has(x.id)).sort((x, y) => order(x) - order(y) || x.repeat - y.repeat)) {
    const k = JSON.stringify([c.arm, c.level]);
    const g = out.get(k) ?? { key: { study: TARGET_STUDY, scenario: r.manifest.mix.file, variant: c.arm, level: c.level }, cells: [] };
    g.cells.push(c);
    out.set(k, g);
  }
  return out;
}

/**
 * Compare target run B against target run A (A is the baseline), cell by cell.
 * @returns a Comparison (model.ts): matched cells with four metrics, the unmatched cells, the guard
 */
export function compareTargetRuns(a: TargetRunFiles, b: TargetRunFiles, opts: CompareOptions = {}): Comparison {
  const allowDiff = [...(opts.allowDiff ?? [])];
  const minEffectPct = opts.minEffectPct ?? DEFAULT_MIN_EFFECT_PCT;
  const guard = targetGuardDifferences(a.manifest, b.manifest, allowDiff);
  const comparable = guard.every((d) => d.allowed);
  const metricsOf = (ca: TargetCell[], cb: TargetCell[]) => COMPARE_METRICS.map((m) => compareSides(m, sideOf(ca.map((c) => targetMetricOf(m, c))), sideOf(cb.map((c) => targetMetricOf(m, c))), minEffectPct));
  const { cells, onlyInA, onlyInB } = matchGroups(groupsOf(a), groupsOf(b), metricsOf, (c) => c.id, comparable);
  return {
    kind: 'vtbench-compare', version: 2, method: compareMethod(minEffectPct), confidence: CONFIDENCE, minEffectPct, comparable, guard, allowDiff,
    a: refOf(a), b: refOf(b), cells, onlyInA, onlyInB, differences: targetSettingDifferences(a.manifest, b.manifest),
  };
}
