/**
 * The built-in arms of `run.mjs target` (issue 32): the one switch a Spring Boot user flips,
 * `spring.threads.virtual.enabled` (DESIGN.md: it moves Tomcat's request threads, `@Async` and
 * scheduling onto virtual threads). Kept here, with the studies, because these ids name arms the
 * way a study's variants do; the engine never tests for them.
 */
import type { TargetArm } from '../../types/target.ts';

/** `platform` (the property false) and `virtual` (true), in that order: the first is the baseline. */
export const BUILT_IN_ARMS: readonly TargetArm[] = [
  { id: 'platform', label: 'platform threads', url: null, properties: { 'spring.threads.virtual.enabled': 'false' }, virtualThreads: false },
  { id: 'virtual', label: 'virtual threads', url: null, properties: { 'spring.threads.virtual.enabled': 'true' }, virtualThreads: true },
];

/** What a black-box arm named by the user runs on, read from its name: a built-in arm's id says it; any other name: unknown (null). */
export function virtualThreadsOfArmId(id: string): boolean | null {
  return BUILT_IN_ARMS.find((a) => a.id === id)?.virtualThreads ?? null;
}
