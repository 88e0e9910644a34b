/** Study 002's shared cell formats: a median with its spread in ms, a row's window rate. Pure. */
import type { Agg } from '../../../types/run.ts';
import type { RenderContext } from '../../../report/types.ts';
import { aggText, ms, rps } from '../../../report/format.ts';
import type { Row002 } from '../report.ts';

/** A median of the repeats with its spread, ms. */
export const aggMs = (a: Agg) => aggText(a, (x) => ms(x));

/** A row's window rate with the window it was measured in, e.g. `396.36 req/s (all workers)`. */
export function windowText(r: Row002, ctx: RenderContext): string {
  const rate = aggText(r.windowRps, (x) => rps(x));
  return r.windowKinds.length === 0 ? rate : `${rate} (${r.windowKinds.map((k) => ctx.s(`win.${k}`)).join(', ')})`;
}
