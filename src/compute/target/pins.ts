/**
 * JFR's virtual-thread events of a target JVM, counted per cell (issue 32). Pure.
 * An event belongs to a cell when it started inside the cell's measured phase
 * [t0EpochMs, endEpochMs] (JFR stamps the start; DESIGN.md: streams deliver late, a dump does not).
 */
import { pinnedReasonKind } from '../analysis/pinned-kind.ts';
import type { PinEvents } from '../../types/target.ts';

/** One event as read from a recording (src/adapters/target/jfr.ts). */
export interface RawJfrEvent {
  type: 'pinned' | 'submit-failed';
  startEpochMs: number;
  /** null for an event without a duration */
  durationMs: number | null;
  /** `pinnedReason`, raw (JDK 25 puts class names in it); null for submit failures */
  reason: string | null;
  /** the stack, top first, as `package.Class.method` */
  frames: string[];
}

/**
 * Frames of the JDK, of the libraries every Spring Boot service shares and of vtbench's own agent, skipped when naming the
 * frame an event was pinned in: the first frame outside them is the one a team can act on.
 */
export const INFRA_FRAME = /^(java\.|javax\.|jdk\.|sun\.|com\.sun\.|org\.springframework\.|org\.apache\.(catalina|coyote|tomcat)\.|jakarta\.|dev\.vtbench\.agent\.|net\.bytebuddy\.)/;

/** The first frame of `frames` outside INFRA_FRAME; the top frame when all are infrastructure; `(no stack)` when empty. */
export function topAppFrame(frames: readonly string[]): string {
  if (frames.length === 0) return '(no stack)';
  return frames.find((f) => !INFRA_FRAME.test(f)) ?? frames[0]!;
}

/**
 * The events that started in [fromEpochMs, toEpochMs], counted as PinEvents.
 * @param thresholdMs the recording's jdk.VirtualThreadPinned threshold, recorded with the counts
 */
export function pinEventsIn(events: readonly RawJfrEvent[], fromEpochMs: number, toEpochMs: number, thresholdMs: number): PinEvents {
  const byReason: Record<string, number> = {};
  const byTopFrame: Record<string, number> = {};
  let total = 0;
  let submitFailed = 0;
  let maxMs: number | null = null;
  for (const e of events) {
    if (e.startEpochMs < fromEpochMs || e.startEpochMs > toEpochMs) continue;
    if (e.type === 'submit-failed') {
      submitFailed++;
      continue;
    }
    total++;
    const kind = e.reason === null ? 'unknown' : pinnedReasonKind(e.reason);
    byReason[kind] = (byReason[kind] ?? 0) + 1;
    const frame = topAppFrame(e.frames);
    byTopFrame[frame] = (byTopFrame[frame] ?? 0) + 1;
    if (e.durationMs !== null) maxMs = maxMs === null ? e.durationMs : Math.max(maxMs, e.durationMs);
  }
  return { thresholdMs, total, byReason, byTopFrame, maxMs, submitFailed };
}
