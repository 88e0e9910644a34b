export { runClosedLoop, firstIntendedStartMs } from './run.ts';
export { summarize, peakInFlight } from './summarize.ts';
export { parseServerTiming, parseServerTimingEntries, parseHtmlFloat } from './server-timing.ts';
export type { ServerTimingEntry } from './server-timing.ts';
export { classifyError, classifyStatus } from './errors.ts';
export type * from './types.ts';
export { DRIVERS, driverFor, driverBuilt, closedLoopHttpDriver, openLoopHttpDriver, openLoopPlanOf } from './driver.ts';
export { runOpenLoop, arrivalSchedule } from './open-loop.ts';
export type { Driver, DriverCellPlan, OpenLoopHttpPlan, WebSocketPlan, InProcessPlan } from './driver.ts';
