/**
 * The weighted request mix of a target run (issue 32): which request of the mix each send uses, and
 * the load drivers' mix made from a request file. Pure.
 */
import type { MixEntry } from '../../types/load.ts';
import type { TargetRequest } from '../../types/target.ts';
import { resolveHeaderValue } from './request-file.ts';

/**
 * The order in which a mix's requests are sent: one period of nginx's smooth weighted round-robin
 * (Maxim Dounin, nginx 1.3.1, 2012, src/http/ngx_http_upstream_round_robin.c
 * ngx_http_upstream_get_peer; commit "Upstream: smooth weighted round-robin balancing"). Each step
 * adds every entry's weight to its current value, picks the entry with the largest current value
 * (the lowest index on a tie) and subtracts the total weight from it. Deterministic, and it spreads
 * each entry evenly over the period (weights 5:1:1 give a a b a c a a, not a a a a a b c); after
 * Σ weights steps every current value is 0 again, so the sequence repeats with that period.
 * @param weights integers >= 1, one per mix entry
 * @returns entry indices, length Σ weights, entry i appearing weights[i] times
 * @throws RangeError for no weights or a weight that is not an integer >= 1
 */
export function mixOrder(weights: readonly number[]): number[] {
  if (weights.length === 0) throw new RangeError('mixOrder: no weights');
  let total = 0;
  for (const w of weights) {
    if (!Number.isSafeInteger(w) || w < 1) throw new RangeError(`mixOrder: every weight must be an integer >= 1 (got ${w})`);
    total += w;
  }
  const current = new Array<number>(weights.length).fill(0);
  const out = new Array<number>(total);
  for (let step = 0; step < total; step++) {
    let best = 0;
    for (let i = 0; i < weights.length; i++) {
      current[i] = (current[i] as number) + (weights[i] as number);
      if ((current[i] as number) > (current[best] as number)) best = i;
    }
    current[best] = (current[best] as number) - total;
    out[step] = best;
  }
  return out;
}

/**
 * The load drivers' mix (LoadOptions.mix, OpenLoopOptions.mix) from a request file's requests, same
 * order (so a record's `req` indexes `requests`), headers resolved from `env` (resolveHeaderValue):
 * the result holds secrets and is never stored.
 * @throws VtbenchError (EXIT.usage) from resolveHeaderValue: a referenced variable not set, or not
 *   fit for a header
 */
export function loadMixOf(requests: readonly TargetRequest[], env: NodeJS.ProcessEnv): MixEntry[] {
  return requests.map((r) => ({
    method: r.method,
    path: r.path,
    headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, resolveHeaderValue(v, env)])),
    ...(r.body !== undefined ? { body: r.body } : {}),
    weight: r.weight,
  }));
}
