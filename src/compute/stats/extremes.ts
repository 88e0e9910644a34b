/**
 * Concatenation over arrays of any length — pure, no I/O. (The largest value without a spread is
 * `maxOf` in src/report/stats.ts.)
 *
 * Why: spreading an array into a call (`Math.max(...xs)`, `out.push(...xs)`) passes every element
 * as an argument, and Node 20 (V8) throws `RangeError: Maximum call stack size exceeded` above
 * roughly 125,000 of them; a cell holds one value per request, so a large cell would crash the
 * report. These loops have no such limit.
 */

/** Appends every element of `src` to `target` (in order) and returns `target`; `push(...src)` without the argument limit. */
export function pushAll<T>(target: T[], src: ArrayLike<T>): T[] {
  for (let i = 0; i < src.length; i++) target.push(src[i] as T);
  return target;
}
