/**
 * Study 004's published figures as typed rows, from shared/seeds/published.json (`004`) and the
 * source text (shared/seeds/004_*.txt): Spring Boot 3.1.2 on Oracle JDK 20.0.2 (preview).
 * The HTTP statements that are bounds ("above 150 ms", "below 100 ms") have `tolerance: null`: the
 * generic published table (a symmetric tolerance) does not show them; the study's report hook judges
 * them as the bounds they are (src/studies/004/report.ts, `httpClaims`).
 */
import type { PublishedRow } from '../../types/study.ts';

export const PUBLISHED_004: readonly PublishedRow[] = [
  // experiment 1: 100,000 calls of an @Async method sleeping 50 ms, waited on with a latch: ≈ 678 s and ≈ 3.9 s
  { id: 'platform.asyncMakespanMs', metric: 'asyncMakespanMs', scenario: 'async-burst', variant: 'platform', level: 1, unit: 'ms', value: 678_000, tolerance: 0.05, setupIdentity: null },
  { id: 'virtual.asyncMakespanMs', metric: 'asyncMakespanMs', scenario: 'async-burst', variant: 'virtual', level: 1, unit: 'ms', value: 3_900, tolerance: 0.05, setupIdentity: null },
  // experiment 2: GET /get sleeping 50 ms, 500 JMeter threads, 10,000 requests in total
  // a request that sleeps 50 ms takes at least 50 ms: a setup identity, shown apart and never counted
  { id: 'platform.e2eMinMs.500', metric: 'e2eMinMs', scenario: 'servlet-sleep', variant: 'platform', level: 500, unit: 'ms', value: 50, tolerance: 0.05, setupIdentity: 'sleepMinimum' },
  { id: 'platform.e2eP50MsAbove.500', metric: 'e2eP50MsAbove', scenario: 'servlet-sleep', variant: 'platform', level: 500, unit: 'ms', value: 150, tolerance: null, setupIdentity: null },
  { id: 'virtual.e2eMaxMsBelow.500', metric: 'e2eMaxMsBelow', scenario: 'servlet-sleep', variant: 'virtual', level: 500, unit: 'ms', value: 100, tolerance: null, setupIdentity: null },
];
