/** The closed-loop HTTP driver (DriverKind `closed-loop-http`), registered in src/load/driver.ts. */
import type { Driver } from '../driver-plan.ts';
import { closedLoopOptionsOf } from '../driver-plan.ts';
import { runClosedLoop } from '../run.ts';

declare module '../../types/study.ts' {
  interface DriverKinds {
    'closed-loop-http': true;
  }
}

/** The closed-loop HTTP driver: c workers, one connection each, n requests back to back (src/load/run.ts). */
export const closedLoopHttpDriver: Driver = {
  kind: 'closed-loop-http',
  level: 'workers',
  aloneProbe: true,
  controlCalls: false,
  run(p, events) {
    return runClosedLoop(closedLoopOptionsOf(p), events);
  },
};

