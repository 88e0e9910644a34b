export { runClosedLoop, firstIntendedStartMs } from './run.ts';
export { summarize, peakInFlight } from './summarize.ts';
export { parseServerTiming } from './server-timing.ts';
export { classifyError, classifyStatus } from './errors.ts';
export type * from './types.ts';
