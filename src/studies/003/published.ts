/**
 * Study 003's published figures (shared/seeds/published.json '003'; seeds/003_*.txt chapter 1
 * table, HttpClient + CompletableFuture load, 16 cores, 32 GB, OpenJDK 21.0.1). They are shown beside
 * this run's levels with the host difference (src/studies/003/report.ts); none is counted as a
 * reproduction: the study's operation (an HTTP call to an unnamed server) is not the sweep's, so
 * the rows have no tolerance.
 */
import type { PublishedRow } from '../../types/study.ts';

const row = (metric: string, level: number, unit: string, value: number): PublishedRow => ({ id: `vt.${metric}.${level}`, metric, scenario: null, variant: 'virtual', level, unit, value, tolerance: null, setupIdentity: null });

export const PUBLISHED_003: readonly PublishedRow[] = [
  row('avgLatencyMs', 10_000, 'ms', 8.2), row('throughputRps', 10_000, 'req/s', 42_150), row('gcPausePct', 10_000, '%', 1.3),
  row('avgLatencyMs', 200_000, 'ms', 19.7), row('throughputRps', 200_000, 'req/s', 58_320), row('gcPausePct', 200_000, '%', 5.8),
  row('avgLatencyMs', 500_000, 'ms', 41.6), row('throughputRps', 500_000, 'req/s', 53_900), row('gcPausePct', 500_000, '%', 12.4),
];

/** The study's host (published.json '003' setup). */
export const PUBLISHED_HOST_003 = { cores: 16, memoryGB: 32, jdk: 'OpenJDK 21.0.1' } as const;
