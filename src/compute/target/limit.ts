/**
 * What limited an arm of a target run at one level (issue 32): in an open loop, the offered load λ
 * when the arm served at least OFFERED_LOAD_SHARE of it with no cap at its limit; else the host's
 * CPU when it was full; else the first saturated cap of the inventory, in LIMIT_ORDER (the others
 * saturated with it listed); else the offered load when the arm reached OFFERED_LOAD_SHARE of its
 * bound (c ÷ R(1) or λ); else "not determined". Pure.
 */
import type { Cap, CapKind, CapUse, Provenance } from '../../types/target.ts';

/**
 * The order in which saturated caps are named: the web server's threads first (a request needs one
 * before anything else), then the DB pool it waits for inside, then the connections (a full
 * connection count with free threads means the acceptor, not the work, waits), the carriers, the CPU.
 */
export const LIMIT_ORDER: readonly CapKind[] = ['tomcat-threads', 'hikari-pool', 'tomcat-connections', 'carriers', 'cpu'];
/**
 * share of its offered-load bound (level / R(1)) from which an arm is limited by the offered load;
 * the engine's OFFERED_LOAD_SHARE (src/report/answer.ts), stated again here because compute may not
 * import report (test/unit/target-limit.test.ts checks they agree)
 */
export const OFFERED_LOAD_SHARE = 0.95;

/** The host's CPU counts as the limit when at least this share of all its CPUs was busy over the level's cells (every process on it). */
export const HOST_CPU_FULL_SHARE = 0.95;

/** What limited one arm at one level. */
export interface TargetLimit {
  /** a cap's kind, `host-cpu` (the whole machine's CPU full), `offered-load`, or `not-determined` */
  kind: CapKind | 'host-cpu' | 'offered-load' | 'not-determined';
  /** the saturated cap (its limit, name, provenance); null otherwise */
  cap: Cap | null;
  /** its use in the level's cells; null otherwise */
  use: CapUse | null;
  /**
   * a cap: busyMean / limit (0..1, CPU: cores in use / cores); offered load: throughput / bound;
   * null when not computable
   */
  utilisation: number | null;
  /** measured: read from the samples; inferred: the black-box offered-load rule; unavailable: not determined */
  provenance: Provenance;
  /** the other caps saturated at this level, in LIMIT_ORDER (a reader should know the first was not alone) */
  alsoSaturated: Pick<Cap, 'kind' | 'name' | 'limit'>[];
  /**
   * a cap was named while the whole host's CPU was full too (≥ HOST_CPU_FULL_SHARE busy): its busy
   * share, 0..1, so the reader knows the cap may be full because everything ran slower; null otherwise
   */
  hostCpuFull?: number | null;
}

/**
 * @param caps the arm's inventory (capsInventory)
 * @param uses the caps' use at this level (capUse / mergeCapUses), matched by kind and name
 * @param throughputRps the level's throughput (steady state, mean over repeats), req/s
 * @param offeredBoundRps level / R(1) (closed loop) or λ (open loop), req/s; null when unknown
 * @param hostCpuBusyShare the share of the whole host's CPUs busy over the level's cells (0..1), null when unknown
 * @param mode an open loop's λ is fixed by the user: an arm that served it is limited by it even on a
 *   full host; a closed loop's c ÷ R(1) is not (R(1) is measured on the same busy host, and more
 *   clients cannot add throughput when the CPU is full), so there the host's CPU comes first
 */
export function limitOf(caps: readonly Cap[], uses: readonly CapUse[], throughputRps: number | null, offeredBoundRps: number | null, hostCpuBusyShare: number | null = null, mode: 'closed-loop' | 'open-loop' = 'closed-loop'): TargetLimit {
  const saturated: { cap: Cap; use: CapUse }[] = [];
  for (const kind of LIMIT_ORDER) {
    for (const cap of caps.filter((c) => c.kind === kind && c.limit !== null)) {
      const use = uses.find((u) => u.kind === kind && u.name === cap.name);
      if (use?.saturated) saturated.push({ cap, use });
    }
  }
  const hostFull = hostCpuBusyShare !== null && hostCpuBusyShare >= HOST_CPU_FULL_SHARE;
  const offered = throughputRps !== null && offeredBoundRps !== null && offeredBoundRps > 0 && throughputRps >= OFFERED_LOAD_SHARE * offeredBoundRps - 1e-9;
  // an open loop served what was offered with no cap at its limit: the offered load, even on a busy host (seen:
  // an arm serving 62.2 req/s of 60 offered while other processes filled the CPU was called limited by the host)
  if (mode === 'open-loop' && offered && saturated.length === 0) {
    return { kind: 'offered-load', cap: null, use: null, utilisation: throughputRps! / offeredBoundRps!, provenance: 'inferred', alsoSaturated: [] };
  }
  // the machine's CPU full: no pool, connection or carrier can add throughput then, so the host's CPU is named
  // first and the caps at their limit are listed beside it (they may be full because every request ran slower)
  if (hostFull) {
    return { kind: 'host-cpu', cap: null, use: null, utilisation: hostCpuBusyShare, provenance: 'measured', alsoSaturated: saturated.map((x) => ({ kind: x.cap.kind, name: x.cap.name, limit: x.cap.limit })), hostCpuFull: null };
  }
  const first = saturated[0];
  if (first) {
    const { cap, use } = first;
    const util = use.busyMean !== null && cap.limit ? use.busyMean / cap.limit : null;
    const hostCpuFull = null;
    return { kind: cap.kind, cap, use, utilisation: util, provenance: 'measured', alsoSaturated: saturated.slice(1).map((x) => ({ kind: x.cap.kind, name: x.cap.name, limit: x.cap.limit })), hostCpuFull };
  }
  if (offered) return { kind: 'offered-load', cap: null, use: null, utilisation: throughputRps! / offeredBoundRps!, provenance: 'inferred', alsoSaturated: [] };
  return { kind: 'not-determined', cap: null, use: null, utilisation: null, provenance: 'unavailable', alsoSaturated: [] };
}
