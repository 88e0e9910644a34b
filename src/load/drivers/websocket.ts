/** The WebSocket driver (DriverKind `websocket`), registered in src/load/driver.ts. */
import type { Driver } from '../driver-plan.ts';
import { WEBSOCKET_DEFAULT_HOLD_S } from '../driver-plan.ts';
import { runWebSocketCell } from '../websocket.ts';

declare module '../../types/study.ts' {
  interface DriverKinds {
    'websocket': true;
  }
}

/**
 * The WebSocket driver (src/load/websocket.ts): the cell's level is N connections, opened over
 * `options.rampMs`, held `durationS` (the plan's, else `options.durationS`, else 60 s) on the
 * scenario's request path (the SUT's `/ws/push`); the SUT's push interval and work are read from its
 * `GET /bench/ws`. Requests per worker are not used (one handshake per connection).
 */
export const websocketDriver: Driver = {
  kind: 'websocket',
  level: 'connections',
  aloneProbe: false,
  controlCalls: false,
  run(p) {
    const o = p.options;
    return runWebSocketCell({
      baseUrl: p.baseUrl,
      path: p.scenario.request(o).path,
      connections: p.concurrency,
      rampMs: o.rampMs,
      holdS: p.durationS ?? o.durationS ?? WEBSOCKET_DEFAULT_HOLD_S,
      connectTimeoutMs: o.connectTimeoutMs,
      signal: p.signal,
    });
  },
};

