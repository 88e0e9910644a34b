/** The open-loop HTTP driver (DriverKind `open-loop-http`), registered in src/load/driver.ts. */
import type { Driver } from '../driver-plan.ts';
import { openLoopPlanOf, requestHeaders, withHeaders } from '../driver-plan.ts';
import { runOpenLoop } from '../open-loop.ts';

declare module '../../types/study.ts' {
  interface DriverKinds {
    'open-loop-http': true;
  }
}

/** The open-loop HTTP driver: the scenario's request at λ = the cell's level for `durationS` (src/load/open-loop.ts). */
export const openLoopHttpDriver: Driver = {
  kind: 'open-loop-http',
  level: 'rate',
  aloneProbe: false,
  controlCalls: false,
  run(p, events) {
    const req = p.scenario.request(p.options);
    const o = p.options;
    const ol = openLoopPlanOf(p);
    return runOpenLoop({
      url: p.baseUrl,
      path: req.path,
      method: req.method,
      ...(req.body !== undefined ? { body: req.body } : {}),
      ...withHeaders(requestHeaders(req.path, req.body !== undefined, p.controlToken)),
      ...ol,
      connectTimeoutMs: o.connectTimeoutMs,
      headersTimeoutMs: o.headersTimeoutMs,
      bodyTimeoutMs: o.bodyTimeoutMs,
      lateSendThresholdMs: p.lateSendThresholdMs,
      signal: p.signal,
    }, events);
  },
};

