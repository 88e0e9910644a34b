export { runClosedLoop, firstIntendedStartMs } from './run.ts';
export { summarize, peakInFlight } from './summarize.ts';
export { parseServerTiming, parseServerTimingEntries, parseHtmlFloat } from './server-timing.ts';
export type { ServerTimingEntry } from './server-timing.ts';
export { classifyError, classifyStatus } from './errors.ts';
export type * from './types.ts';
export { DRIVERS, driverFor, driverBuilt, closedLoopHttpDriver, inProcessDriver } from './driver.ts';
export type { Driver, DriverCellPlan, OpenLoopHttpPlan, WebSocketPlan } from './driver.ts';
export type { InProcessJob } from '../study/types.ts';
