/**
 * Preloaded (`node --require`) into bench:mock's server children, which run with `--trace-gc`.
 * Forces one full garbage collection on the main thread before anything else runs, so V8 prints a
 * GC line with the reason `testing` from the main thread's isolate, then prints
 * `vtbench-gc-probe epochMs=<Date.now()>` on stdout. bench:mock (bench/mock.ts gcProbe) takes
 * that GC line's isolate (`[pid:0x…]`) as the main thread's — the process also prints the GCs of
 * other isolates (tsx's module-loader worker thread), which do not stop the main thread — and the
 * pair (the line's "N ms" since the isolate started, the epoch) to place every later GC line of
 * that isolate on the wall clock. Nothing else in the children calls gc(). CommonJS, so
 * `--require` runs it before `--import tsx` starts the loader thread.
 */
'use strict';
require('v8').setFlagsFromString('--expose-gc');
require('vm').runInNewContext('gc')();
process.stdout.write(`vtbench-gc-probe epochMs=${Date.now()}\n`);
