/** Report section `{{pinning}}`: the pinning rule's reading, how the counts were read, and the per-cell and per-reason tables. Pure. */
import type { ReportModel } from '../types.ts';
import { int, num, raw, table, type Raw } from '../format.ts';
import type { SectionKit } from './kit.ts';

/** `{{pinning}}` */
export function pinning(model: ReportModel, k: SectionKit): Raw {
  const { s, variantName } = k;
  const pinParts: string[] = [];
  const pr = model.pinRule;
  const thr = pr.thresholdMs ?? model.manifest.options.pinnedThresholdMs;
  pinParts.push(s(pr.events === null ? 'pin.noData' : pr.events === 0 ? 'pin.zero' : 'pin.some', { n: int(pr.events), thr: int(thr), req: int(pr.requests), per1000: num(pr.requests ? ((pr.events ?? 0) / pr.requests) * 1000 : null, 2) }));
  if (pr.notable !== null) pinParts.push(s(pr.notable ? 'pin.notable' : 'pin.notNotable', { allowed: num(pr.allowed, 1), req: int(pr.requests) }));
  pinParts.push(s('pin.window', { thr: int(thr) }));
  const reads = model.pinReads;
  if (reads.cellsWithData > 0) {
    pinParts.push(reads.flushed === reads.cellsWithData ? s('pin.flushed') : s('pin.notFlushed', { n: int(reads.cellsWithData - reads.flushed), m: int(reads.cellsWithData) }));
  }
  pinParts.push(table([s('h.mode'), s('h.concurrency'), s('h.threshold'), s('h.events'), s('h.cellsWithData')],
    model.pinning.map((p) => [raw(variantName(p.variant)), int(p.concurrency), p.thresholdMs === null ? '—' : `${int(p.thresholdMs)} ms`, int(p.total), `${p.cellsWithData} / ${p.cells}`]), ['l', 'r', 'r', 'r', 'r']).md);
  if (model.pinningReasons.length) pinParts.push(table([s('h.mode'), s('h.pinReason'), s('h.events')], model.pinningReasons.map((r) => [raw(variantName(r.variant)), r.kind, int(r.count)]), ['l', 'l', 'r']).md);
  return raw(pinParts.join('\n\n'));
}
