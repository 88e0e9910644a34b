/**
 * Load drivers: how a cell's load is generated. A driver turns one cell's plan into raw records and
 * their summary (plan -> run -> raw records -> summary); the pipeline picks it by the scenario's
 * `driver` (src/types/study.ts DriverKind) and stores what it returns.
 *
 * The registry: one module per driver kind in src/load/drivers/ (it declares its kind, so the
 * DriverKind union grows with it) and one line in DRIVERS below. Built: closed-loop HTTP
 * (src/load/run.ts), open-loop HTTP (arrival rate without coordinated omission,
 * src/load/open-loop.ts), in-process (a timed job the SUT runs itself and reports on,
 * src/load/in-process.ts) and WebSocket (N held connections, one server push per interval on each,
 * src/load/websocket.ts). A kind listed in NOT_BUILT is a typed slot whose registry entry throws a
 * clear VtbenchError until a later issue builds it (none today).
 */
import type { DriverKind, Scenario } from '../types/study.ts';
import { VtbenchError, EXIT } from '../types/errors.ts';
import { runClosedLoopSharded } from './shards.ts';
import { closedLoopOptionsOf, type Driver } from './driver-plan.ts';
import { closedLoopHttpDriver } from './drivers/closed-loop-http.ts';
import { openLoopHttpDriver } from './drivers/open-loop-http.ts';
import { inProcessDriver } from './drivers/in-process.ts';
import { websocketDriver } from './drivers/websocket.ts';

export * from './driver-plan.ts';
export { closedLoopHttpDriver, openLoopHttpDriver, inProcessDriver, websocketDriver };

/**
 * `driver` with its load split over `shards` generator processes (src/load/shards.ts); `driver`
 * itself for one shard. Only the closed-loop HTTP driver shards.
 * @throws VtbenchError(EXIT.usage) for `shards` > 1 with another driver
 */
export function withShards(driver: Driver, shards: number): Driver {
  if (shards <= 1) return driver;
  if (driver.kind !== 'closed-loop-http') {
    throw new VtbenchError(`--shards ${shards}: the ${driver.kind} driver does not shard yet`, 'drop --shards (only closed-loop-http scenarios run over several generator processes)', EXIT.usage);
  }
  return {
    ...driver,
    run: (p, events) => runClosedLoopSharded(closedLoopOptionsOf(p), shards, events),
  };
}

// ---- typed slots for later issues ----------------------------------------------------------------

/** Issues that build the drivers not built yet (none today; a new DriverKind starts here). */
const NOT_BUILT: Readonly<Partial<Record<DriverKind, string>>> = {};

/** The one error of a driver slot not built yet, naming the scenario that chose it and the issue that builds it. */
function notBuiltError(kind: DriverKind, scenarioId: string): VtbenchError {
  return new VtbenchError(
    `--scenario: scenario ${scenarioId}: load driver '${kind}' is not built yet (see ${NOT_BUILT[kind] ?? 'src/load/driver.ts'}; the slot is typed in src/load/driver.ts)`,
    `choose with --scenario a scenario whose driver is one of: ${(Object.keys(DRIVERS) as DriverKind[]).filter(driverBuilt).join(', ')}`,
    EXIT.usage,
  );
}

/** A slot's registry entry: what the kind will be (`traits`), and a run that throws notBuiltError. */
function notBuilt(kind: DriverKind, traits: Pick<Driver, 'level' | 'aloneProbe' | 'controlCalls'>): Driver {
  return { kind, ...traits, run: (p) => Promise.reject(notBuiltError(kind, p.scenario.id)) };
}

/** Every driver kind, built or not: one line per module of src/load/drivers/ (a kind declared there and missing here does not compile). */
export const DRIVERS: Readonly<Record<DriverKind, Driver>> = {
  'closed-loop-http': closedLoopHttpDriver,
  'open-loop-http': openLoopHttpDriver,
  websocket: websocketDriver,
  'in-process': inProcessDriver,
};

/** Whether a driver kind can run today. */
export function driverBuilt(kind: DriverKind): boolean {
  return !(kind in NOT_BUILT);
}

/**
 * The driver registered for a scenario's kind, built or not: to ask what it is (Driver `level`,
 * `aloneProbe`, `controlCalls`) without running it. Pure.
 */
export function driverOf(scenario: Pick<Scenario, 'driver'>): Driver {
  return DRIVERS[scenario.driver];
}

/**
 * The driver of a scenario.
 * @throws VtbenchError(EXIT.usage) when the scenario's driver is a slot not built yet (checked when
 *   the options are resolved, so a run never starts with a driver that cannot run)
 */
export function driverFor(scenario: Pick<Scenario, 'id' | 'driver'>): Driver {
  if (!driverBuilt(scenario.driver)) throw notBuiltError(scenario.driver, scenario.id);
  return DRIVERS[scenario.driver];
}
