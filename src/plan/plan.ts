/**
 * The plan of a run: blocks (one SUT JVM per variant and repeat, or per cell for a scenario with
 * `freshJvmPerCell`), cells, request totals and the
 * theoretical duration of each, from the bounds in src/theory and each variant's executor. Pure.
 */
import { cellMinDurationS, throughputBoundRps, waves } from '../compute/theory/bounds.ts';
import { openLoopCellDurationS, openLoopThroughputBoundRps } from '../compute/theory/open-loop.ts';
import { OPEN_LOOP_DEFAULTS, driverOf } from '../load/driver.ts';
import type { ResolvedOptions, VariantId } from '../types/run.ts';
import { executorInfo, type ExecutorSpec, type Scenario, type Study, type Variant } from '../types/study.ts';
import { VtbenchError, EXIT } from '../types/errors.ts';

export interface PlannedCell {
  cellId: string;
  variant: VariantId;
  /** the variant's effective executor (bounds are computed from it) */
  executor: ExecutorSpec;
  /** the scenario the cell measures (the variant's own, or the run's) */
  scenario: string;
  /** L of the cell's scenario, ms */
  latencyMs: number;
  /** measured requests each worker sends in this cell */
  requestsPerWorker: number;
  /** the level: closed-loop workers c, or for an open-loop scenario the arrival rate λ (req/s) */
  concurrency: number;
  repeat: number;
  /** requests planned: c × n, or for the open loop the schedule's ⌈λ × durationS⌉ */
  requests: number;
  /** closed loop: min(c, N)/L or c/L; open loop: min(λ, N/L) or λ */
  boundRps: number;
  /** theoretical duration, s (closed loop: max(n·L, c·n / bound); open loop: durationS + backlog drain + L) */
  theoreticalS: number;
}

export interface PlannedBlock {
  /** `${variant}-r${repeat}` */
  blockId: string;
  /** the effective variant (overrides applied) the block's SUT JVM runs */
  variant: Variant;
  repeat: number;
  /**
   * warm-up: workers × requests per worker, and its theoretical duration; for an open-loop scenario
   * `workers` is the arrival rate (req/s) sent for `durationS` (requestsPerWorker is then 1)
   */
  warmup: { workers: number; requestsPerWorker: number; theoreticalS: number; durationS?: number } | null;
  /** one worker sending `requests` back to back after the warm-up (Scenario.aloneProbe), and its theoretical duration n·L, s; absent: none */
  aloneProbe?: { requests: number; theoreticalS: number };
  cells: PlannedCell[];
}

export interface Plan {
  blocks: PlannedBlock[];
  cells: PlannedCell[];
  totalRequests: number;
  /** Σ workers over levels (0 for an open-loop scenario: it has no workers) */
  workersPerRun: number;
  /** L: the scenario's service time per call, ms */
  latencyMs: number;
  /** theoretical load time + warm-ups, s (JVM start and build excluded) */
  theoreticalS: number;
}

/**
 * Cell id: `${variant}-c${concurrency}-r${repeat}` (repeat counts from 1); for an open-loop scenario
 * (`openLoop` true) `${variant}-rate${λ}-r${repeat}`, so the id says its level is a rate in req/s.
 */
export function cellId(variant: VariantId, concurrency: number, repeat: number, openLoop = false): string {
  return openLoop ? `${variant}-rate${concurrency}-r${repeat}` : `${variant}-c${concurrency}-r${repeat}`;
}

/** Whether a run's scenario is loaded at an arrival rate (its driver's `level` is `rate`, open loop): its levels are then rates. */
export function isOpenLoop(study: Pick<Study, 'id' | 'scenarios'>, o: Pick<ResolvedOptions, 'scenario'>): boolean {
  return driverOf(scenarioOf(study, o.scenario)).level === 'rate';
}

/** The open-loop schedule length of a run, s (the profile's, or the driver's default). */
export function openLoopDurationS(o: Pick<ResolvedOptions, 'durationS'>): number {
  return o.durationS ?? OPEN_LOOP_DEFAULTS.durationS;
}

/** Block id: `${variant}-r${repeat}` (one SUT JVM). */
export function blockId(variant: VariantId, repeat: number): string {
  return `${variant}-r${repeat}`;
}

/**
 * A study's scenario by id.
 * @throws VtbenchError(EXIT.usage) naming --scenario and the study's scenario ids
 */
export function scenarioOf(study: Pick<Study, 'id' | 'scenarios'>, id: string): Scenario {
  const s = study.scenarios.find((x) => x.id === id);
  if (!s) throw new VtbenchError(`--scenario: unknown scenario '${id}' of study ${study.id}`, `use one of: ${study.scenarios.map((x) => x.id).join(', ')}`, EXIT.usage);
  return s;
}

/** L of a run: its scenario's service time per call under its options, ms. */
export function serviceTimeMs(study: Pick<Study, 'id' | 'scenarios'>, o: ResolvedOptions): number {
  return scenarioOf(study, o.scenario).serviceTimeMs(o);
}

/**
 * The scenario a variant's cells measure: the variant's own (`Variant.scenario`) or the run's.
 * @throws VtbenchError(EXIT.usage) when the variant names a scenario the study does not have
 */
export function scenarioOfVariant(study: Pick<Study, 'id' | 'scenarios'>, o: Pick<ResolvedOptions, 'scenario'>, v: Pick<Variant, 'scenario'>): Scenario {
  return scenarioOf(study, v.scenario ?? o.scenario);
}

/**
 * Levels and requests per worker of one scenario's cells: its entry of `o.scenarioLevels`, else the
 * run's `levels` and `requestsPerWorker`.
 */
export function levelsOf(o: Pick<ResolvedOptions, 'levels' | 'requestsPerWorker' | 'scenarioLevels'>, scenarioId: string): { levels: number[]; requestsPerWorker: number } {
  const e = o.scenarioLevels?.[scenarioId];
  return e ?? { levels: o.levels, requestsPerWorker: o.requestsPerWorker };
}

/** Whether a scenario of the run queries PostgreSQL (Scenario.usesDb): the run then needs one. */
export function planNeedsDb(study: Pick<Study, 'id' | 'scenarios'>, o: ResolvedOptions): boolean {
  return runScenarios(study, o).some((x) => x.scenario.usesDb === true);
}

/** Every scenario the run's variants measure, with its levels (once each, in variant order). */
export function runScenarios(study: Pick<Study, 'id' | 'scenarios'>, o: ResolvedOptions): { scenario: Scenario; levels: number[]; requestsPerWorker: number }[] {
  const seen = new Map<string, { scenario: Scenario; levels: number[]; requestsPerWorker: number }>();
  for (const v of o.variantSpecs.length > 0 ? o.variantSpecs : [{ scenario: undefined }]) {
    const sc = scenarioOfVariant(study, o, v);
    if (!seen.has(sc.id)) seen.set(sc.id, { scenario: sc, ...levelsOf(o, sc.id) });
  }
  return [...seen.values()];
}

/**
 * Warm-up requests per worker so that the warm-up at concurrency c lasts about warmupS:
 * max(1, round(warmupS / (waves · L))). null when warmupS = 0.
 *
 * `plannedS(n)`, when the scenario plans its cells itself (Scenario.cellTheoreticalS: its smallest
 * bound, e.g. study 002's DB pool or CPU bound, not only the executor's), is the planned duration at
 * c workers × n requests: n is then also at most max(1, round(warmupS / plannedS(1))), so a warm-up
 * held to 2,000 req/s by a 10-connection pool lasts ≈ warmupS instead of the executor's
 * 2,000 workers × 1,000 requests (18 min, seen in a seed-002 run).
 * @param exec the variant's effective executor
 * @param latencyMs L, the scenario's service time (serviceTimeMs)
 */
export function warmupPlan(exec: ExecutorSpec, o: Pick<ResolvedOptions, 'warmupS' | 'levels'>, latencyMs: number, plannedS?: (requestsPerWorker: number) => number): PlannedBlock['warmup'] {
  // (a variant with its own scenario passes that scenario's levels as `o.levels`)
  if (o.warmupS <= 0) return null;
  const c = Math.max(...o.levels);
  const roundS = (waves(exec, c) * latencyMs) / 1000;
  let n = Math.max(1, Math.round(o.warmupS / roundS));
  if (plannedS) n = Math.min(n, Math.max(1, Math.round(o.warmupS / plannedS(1))));
  return { workers: c, requestsPerWorker: n, theoreticalS: plannedS ? plannedS(n) : cellMinDurationS(exec, c, latencyMs, n) };
}

/**
 * When a closed-loop warm-up stops sending, ms after its start: ramp + 2 × max(warmupS, planned s).
 * The warm-up is sized by the rate planned before the run (warmupPlan), which knows the executor's,
 * the pool's and the lock's bounds but not the host's CPU; where the CPU holds the rate far below
 * (seed-002 io-virtual: 5,000 workers × 50 planned at 50,000 req/s, about 1,500 req/s measured:
 * 167 s instead of 5 s) the warm-up stops sending at this time instead, having run twice its plan.
 * Not a measurement: a warm-up's requests are not recorded.
 */
export function warmupSendUntilMs(w: NonNullable<PlannedBlock['warmup']>, o: Pick<ResolvedOptions, 'warmupS' | 'rampMs' | 'start'>): number {
  const ramp = o.start === 'ramp' ? o.rampMs : 0;
  return ramp + 2 * Math.max(o.warmupS, w.theoreticalS) * 1000;
}

/**
 * A WebSocket scenario's warm-up: its smallest level held `warmupS` (a cell's hold), opened over the
 * ramp, not recorded. null when warmupS = 0.
 * @param rampS the ramp, s (0 unless the run starts with a ramp)
 */
export function wsWarmupPlan(scenario: Scenario, exec: ExecutorSpec, o: ResolvedOptions, rampS: number): PlannedBlock['warmup'] {
  if (o.warmupS <= 0) return null;
  const c = Math.min(...o.levels);
  return { workers: c, requestsPerWorker: 1, durationS: o.warmupS, theoreticalS: (scenario.cellTheoreticalS ? scenario.cellTheoreticalS(exec, { ...o, durationS: o.warmupS }, c) : o.warmupS) + rampS };
}

/**
 * Build the plan. Variant order alternates between repeats (repeat 1: variants as given; repeat 2:
 * reversed; ...) so no variant always runs on a cooler machine.
 * @param study the run's study (for its scenario's service time L)
 */
export function makePlan(o: ResolvedOptions, study: Pick<Study, 'id' | 'scenarios'>): Plan {
  const runL = serviceTimeMs(study, o);
  const blocks: PlannedBlock[] = [];
  const open = isOpenLoop(study, o);
  const D = openLoopDurationS(o);
  const ramp = o.start === 'ramp' ? o.rampMs / 1000 : 0;
  for (let r = 1; r <= o.repeats; r++) {
    const order = r % 2 === 1 ? o.variantSpecs : [...o.variantSpecs].reverse();
    for (const v of order) {
      const scenario = scenarioOfVariant(study, o, v);
      const L = scenario.id === o.scenario ? runL : scenario.serviceTimeMs(o);
      const lv = levelsOf(o, scenario.id);
      const ov = { ...o, levels: lv.levels, requestsPerWorker: lv.requestsPerWorker };
      const ws = driverOf(scenario).level === 'connections';
      if (open) {
        const cells = o.levels.map((rate) => ({
          cellId: cellId(v.id, rate, r, true),
          variant: v.id,
          executor: v.executor,
          scenario: scenario.id,
          latencyMs: L,
          requestsPerWorker: o.requestsPerWorker,
          concurrency: rate,
          repeat: r,
          requests: Math.ceil(rate * D),
          boundRps: openLoopThroughputBoundRps(v.executor, rate, L),
          theoreticalS: openLoopCellDurationS(v.executor, rate, L, D),
        }));
        const rateW = Math.min(...o.levels);
        const warmup = o.warmupS > 0 ? { workers: rateW, requestsPerWorker: 1, durationS: o.warmupS, theoreticalS: openLoopCellDurationS(v.executor, rateW, L, o.warmupS) } : null;
        blocks.push({ blockId: blockId(v.id, r), variant: v, repeat: r, warmup, cells });
        continue;
      }
      const cells = ov.levels.map((c) => ({
        cellId: cellId(v.id, c, r),
        variant: v.id,
        executor: v.executor,
        scenario: scenario.id,
        latencyMs: L,
        requestsPerWorker: ov.requestsPerWorker,
        concurrency: c,
        repeat: r,
        // a WebSocket cell's requests are its N opening handshakes (its messages are in the ws block)
        requests: ws ? c : c * ov.requestsPerWorker,
        boundRps: throughputBoundRps(v.executor, c, L),
        theoreticalS: (scenario.cellTheoreticalS ? scenario.cellTheoreticalS(v.executor, ov, c) : cellMinDurationS(v.executor, c, L, ov.requestsPerWorker)) + (o.start === 'ramp' ? o.rampMs / 1000 : 0),
      }));
      if (scenario.freshJvmPerCell) {
        // one JVM per cell: the block is the cell (Scenario.freshJvmPerCell)
        for (const c of cells) blocks.push({ blockId: `${v.id}-c${c.concurrency}-r${r}`, variant: v, repeat: r, warmup: warmupPlan(v.executor, { ...ov, levels: [c.concurrency] }, L), cells: [c] });
        continue;
      }
      const probe = aloneProbePlan(scenario, L);
      blocks.push({ blockId: blockId(v.id, r), variant: v, repeat: r, ...(probe ? { aloneProbe: probe } : {}), warmup: ws ? wsWarmupPlan(scenario, v.executor, ov, ramp) : warmupPlan(v.executor, ov, L, scenario.cellTheoreticalS ? (n) => scenario.cellTheoreticalS!(v.executor, { ...ov, requestsPerWorker: n }, Math.max(...ov.levels)) : undefined), cells });
    }
  }
  const cells = blocks.flatMap((b) => b.cells);
  return {
    blocks,
    cells,
    totalRequests: cells.reduce((s, c) => s + c.requests, 0),
    workersPerRun: open ? 0 : o.variantSpecs.length > 0 && o.scenarioLevels !== undefined ? runScenarios(study, o).reduce((t, x) => t + x.levels.reduce((s, c) => s + c, 0), 0) : o.levels.reduce((s, c) => s + c, 0),
    latencyMs: runL,
    theoreticalS: blocks.reduce((s, b) => s + (b.warmup?.theoreticalS ?? 0) + (b.aloneProbe?.theoreticalS ?? 0) + b.cells.reduce((t, c) => t + c.theoreticalS, 0), 0),
  };
}

/**
 * A block's alone probe (Scenario.aloneProbe): its requests and their theoretical time n·L, s; null
 * when the scenario has none or its driver runs none (Driver `aloneProbe`). Pure.
 * @param L the scenario's service time, ms
 */
export function aloneProbePlan(scenario: Pick<Scenario, 'aloneProbe' | 'driver'>, L: number): { requests: number; theoreticalS: number } | null {
  if (!scenario.aloneProbe || !driverOf(scenario).aloneProbe) return null;
  const n = scenario.aloneProbe.requests;
  return { requests: n, theoreticalS: (n * L) / 1000 };
}

/** "1 h 42 min", "3 min 5 s", "12 s" */
export function formatDuration(s: number): string {
  const t = Math.round(s);
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const sec = t % 60;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min ${sec} s`;
  return `${sec} s`;
}

/** An executor in words: `platform pool 8 threads, queue 10000` / `virtual thread per task`. */
export function formatExecutor(e: ExecutorSpec): string {
  return executorInfo(e).describe(e);
}

/** The plan as text, printed before anything starts. */
export function formatPlan(o: ResolvedOptions, plan: Plan, runDir: string): string {
  if (plan.workersPerRun === 0 && plan.cells.length > 0 && plan.cells[0]!.cellId.includes('-rate')) return formatOpenLoopPlan(o, plan, runDir);
  const lines: string[] = [];
  const perScenario = o.variantSpecs.some((v) => v.scenario !== undefined);
  // with per-variant scenarios (study 002) the run's own scenario is not what the cells measure: name them below
  lines.push(`vtbench plan — study ${o.study}, profile ${o.profile}, ${perScenario ? 'each variant its own scenario' : `scenario ${o.scenario}`}`);
  lines.push(`  variants: ${o.variantSpecs.map((v) => `${v.id} (${formatExecutor(v.executor)})`).join('; ')}`);
  lines.push(`  ${perScenario ? '' : `levels ${o.levels.join(', ')}; ${o.requestsPerWorker} req/worker; `}${o.repeats} repeat(s); start ${o.start}${o.start === 'ramp' ? ` over ${o.rampMs} ms` : ''}`);
  if (perScenario) {
    // variants with their own scenarios (study 002): each scenario's L, levels and requests per worker
    const seen = new Set<string>();
    for (const c of plan.cells) {
      if (seen.has(c.scenario)) continue;
      seen.add(c.scenario);
      const levels = [...new Set(plan.cells.filter((x) => x.scenario === c.scenario).map((x) => x.concurrency))].sort((a, b) => a - b);
      lines.push(`  scenario ${c.scenario}: L ${c.latencyMs} ms; levels ${levels.join(', ')}; ${c.requestsPerWorker} req/worker`);
    }
    lines.push(`  warm-up ≈${o.warmupS} s per JVM; SUT JVM flags: ${o.jvmFlags.join(' ') || '(none)'}`);
    lines.push(`  requests: ${plan.totalRequests.toLocaleString('en-US')} in ${plan.cells.length} cells`);
  } else {
    lines.push(`  service time L ${plan.latencyMs} ms (mock latency ${o.latencyMs} ms); warm-up ≈${o.warmupS} s per JVM; SUT JVM flags: ${o.jvmFlags.join(' ') || '(none)'}`);
    lines.push(`  requests: ${plan.workersPerRun} workers × ${o.requestsPerWorker} × ${o.repeats} repeat(s) × ${o.variants.length} variant(s) = ${plan.totalRequests.toLocaleString('en-US')}`);
  }
  lines.push(`  cell (per repeat)       requests   ${perScenario ? 'exec. bound' : 'bound req/s'}   min. duration`);
  const seen = new Set<string>();
  for (const c of plan.cells) {
    const key = `${c.variant}-c${c.concurrency}`;
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push(`  ${key.padEnd(22)} ${String(c.requests).padStart(9)}   ${c.boundRps.toFixed(2).padStart(11)}   ${formatDuration(c.theoreticalS)}`);
  }
  lines.push(`  theoretical duration: ${formatDuration(plan.theoreticalS)} of load and warm-up (+ JVM starts${o.repeats > 1 ? `, × ${o.repeats} repeats included` : ''})`);
  if (o.cpuIsolation) lines.push(isolationLine(o.cpuIsolation));
  lines.push(`  output: ${runDir}`);
  return lines.join('\n');
}

/** The plan's line for `--isolate-cpus`: which CPUs the SUT and the harness get. */
function isolationLine(iso: NonNullable<ResolvedOptions['cpuIsolation']>): string {
  return `  CPU isolation (taskset): SUT JVM on CPUs ${iso.sutCpus}; harness (load generator, mock, PostgreSQL) on CPUs ${iso.harnessCpus}; the bounds use the SUT's CPUs`;
}

/** The plan of an open-loop run as text: rates, the schedule's length, and each cell's duration with its backlog drain. */
function formatOpenLoopPlan(o: ResolvedOptions, plan: Plan, runDir: string): string {
  const D = openLoopDurationS(o);
  const lines: string[] = [];
  lines.push(`vtbench plan — study ${o.study}, profile ${o.profile}, scenario ${o.scenario} (open loop: arrivals do not wait for answers)`);
  lines.push(`  variants: ${o.variantSpecs.map((v) => `${v.id} (${formatExecutor(v.executor)})`).join('; ')}`);
  lines.push(`  arrival rates ${o.levels.join(', ')} req/s; ${o.arrival ?? OPEN_LOOP_DEFAULTS.arrival} arrivals${(o.arrival ?? OPEN_LOOP_DEFAULTS.arrival) === 'poisson' ? ` (seed ${o.arrivalSeed ?? OPEN_LOOP_DEFAULTS.arrivalSeed})` : ''} for ${D} s per cell; at most ${(o.maxInFlight ?? OPEN_LOOP_DEFAULTS.maxInFlight).toLocaleString('en-US')} in flight; ${o.repeats} repeat(s)`);
  lines.push(`  service time L ${plan.latencyMs} ms (mock latency ${o.latencyMs} ms); warm-up ${o.warmupS} s per JVM at ${Math.min(...o.levels)} req/s; SUT JVM flags: ${o.jvmFlags.join(' ') || '(none)'}`);
  lines.push(`  requests scheduled: ${plan.totalRequests.toLocaleString('en-US')}`);
  lines.push('  cell (per repeat)       scheduled   bound req/s   min. duration (schedule + backlog drain + L)');
  const seen = new Set<string>();
  for (const c of plan.cells) {
    const key = `${c.variant}-rate${c.concurrency}`;
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push(`  ${key.padEnd(22)} ${String(c.requests).padStart(9)}   ${c.boundRps.toFixed(2).padStart(11)}   ${formatDuration(c.theoreticalS)}`);
  }
  lines.push(`  theoretical duration: ${formatDuration(plan.theoreticalS)} of load and warm-up (+ JVM starts${o.repeats > 1 ? `, × ${o.repeats} repeats included` : ''})`);
  if (o.cpuIsolation) lines.push(isolationLine(o.cpuIsolation));
  lines.push(`  output: ${runDir}`);
  return lines.join('\n');
}
