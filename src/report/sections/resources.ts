/** Report section `{{resources}}`: SUT resources per row, the first comparison's RSS and platform threads, and the JVM-block caveat. Pure. */
import type { ReportModel } from '../types.ts';
import { primaryPair, rssDeltaMiB } from '../model.ts';
import { aggText, int, mib, num, pct, raw, table, type Raw } from '../format.ts';
import type { SectionKit } from './kit.ts';

/** The study's first comparison at its highest common level: RSS and platform threads side by side (none without a comparison). */
function highestPairLines(model: ReportModel, k: SectionKit): string[] {
  const { s, variantName } = k;
  const h = primaryPair(model)?.highest ?? null;
  if (!h) return [];
  const out: string[] = [];
  const fr = h.baseline.resources.peakRssBytes.median;
  const vr = h.candidate.resources.peakRssBytes.median;
  const names = { baseline: raw(variantName(h.baseline.variant)), candidate: raw(variantName(h.candidate.variant)) };
  if (fr !== null && vr !== null) {
    const d = rssDeltaMiB(fr, vr) as number;
    out.push(s(Math.abs(d) < 1 ? 'res.rssSame' : d > 0 ? 'res.rssMore' : 'res.rssLess', { ...names, c: int(h.concurrency), fx: mib(fr), vt: mib(vr), delta: num(Math.abs(d), 1) }));
  }
  out.push(s('res.platform', { ...names, c: int(h.concurrency), fx: int(h.baseline.resources.peakPlatformThreads.median), vt: int(h.candidate.resources.peakPlatformThreads.median) }));
  return out;
}

/** `{{resources}}` */
export function resources(model: ReportModel, k: SectionKit): Raw {
  const { s, variantName } = k;
  const resParts: string[] = [];
  resParts.push(table([s('h.mode'), s('h.concurrency'), s('h.peakRss'), s('h.peakHeap'), s('h.meanCpu'), s('h.peakPlatform'), s('h.peakInFlight'), s('h.peakQueue'), s('h.samples')],
    model.rows.map((r) => [raw(variantName(r.variant)), int(r.concurrency), aggText(r.resources.peakRssBytes, mib), aggText(r.resources.peakHeapUsedBytes, mib), aggText(r.resources.meanCpuPct, (x) => pct(x, 2)), aggText(r.resources.peakPlatformThreads, int), aggText(r.resources.peakInFlight, int), aggText(r.resources.peakQueue, int), int(r.resources.samples)]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r']).md);
  resParts.push(...highestPairLines(model, k));
  const jb = model.jvmBlocks;
  if (jb && jb.split.length > 0) {
    resParts.push(s('res.caveatSplit', { blocks: jb.blocks.join(', '), split: jb.split.map((b) => `${b.blockId} (${b.jvms})`).join(', '), cpuNote: s('res.cpuNote') }));
  } else {
    resParts.push(s('res.caveat', { blocks: (jb ? jb.blocks : Object.keys(model.manifest.sut).sort()).join(', ') || '—', cpuNote: s('res.cpuNote') }));
  }
  resParts.push(s('res.seriesNote'));
  return raw(resParts.join('\n\n'));
}
