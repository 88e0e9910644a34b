/** Study 002's fixed work per request and setup values (shared by its definition and its theory). */

/** The study's work per request, ms (its text: §2.1, §4.1, §5.1). */
export const IO_MS = 100;
export const MIXED_DB_MS = 50;
export const MIXED_USER_MS = 100;
export const MIXED_LOGISTICS_MS = 80;
export const SMALL_DB_MS = 5;
/** CPU time one fib call is calibrated to on this host, ms (`bench.fib.target-cpu-ms`, the SUT's default). */
export const FIB_TARGET_CPU_MS = 100;
/** The study's queue capacity of both pools. */
export const STUDY_QUEUE = 10_000;
/** Hikari pool sizes of scenario 4: Hikari's default and the study's enlarged pool. */
export const HIKARI_DEFAULT = 10;
export const HIKARI_LARGE = 200;

