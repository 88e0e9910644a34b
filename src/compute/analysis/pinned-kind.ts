/**
 * Kinds of JFR `jdk.VirtualThreadPinned` reasons. JDK 25 writes class names into `pinnedReason`
 * (HotSpot `JavaThread::post_vthread_pinned_event`), so the raw texts of one cause differ per
 * class; the report groups them by kind, with the class name replaced by `<class>`. Pure: works on
 * the reason texts of any run, old ones included. The raw reasons stay in the run data.
 *
 * Reason texts (HotSpot, JDK 24+), all seen or quoted from its source:
 * - `Waited for initialization of <class> by another thread`
 * - `VM call to <class>.<clinit> on stack` (a hidden class's name ends in `/0x<hex>`)
 * - `Native or VM frame on stack`
 * - `Freeze or preempt failed (<code>)` (code = HotSpot's freeze_result; kept: it names the cause)
 * Anything else (older JDKs' `Monitor held`, `Native frame or <clinit> on stack`, `unknown`) is its
 * own kind, unchanged.
 */

/** Placeholder that replaces a class name in a kind. */
export const CLASS_PLACEHOLDER = '<class>';

const RULES: readonly { re: RegExp; kind: string }[] = [
  { re: /^Waited for initialization of \S+ by another thread$/, kind: `Waited for initialization of ${CLASS_PLACEHOLDER} by another thread` },
  { re: /^VM call to \S+\.<clinit> on stack$/, kind: `VM call to ${CLASS_PLACEHOLDER}.<clinit> on stack` },
];

/**
 * The kind of one `pinnedReason` text: the text with its class name replaced by `<class>`, or the
 * text itself (trimmed) when it names no class. An empty text is `unknown`, as the SUT records a
 * missing reason.
 */
export function pinnedReasonKind(reason: string): string {
  const text = reason.trim();
  if (text === '') return 'unknown';
  for (const r of RULES) if (r.re.test(text)) return r.kind;
  return text;
}

/** One kind with its event count and the raw reasons it covers (sorted). */
export interface PinnedKindCount {
  kind: string;
  count: number;
  reasons: string[];
}

/**
 * Groups counts by raw reason (`PinnedDelta.byReason`) into kinds; most events first, then by kind
 * text. Reasons with a count of 0 are left out.
 */
export function groupPinnedReasons(byReason: Readonly<Record<string, number>>): PinnedKindCount[] {
  const kinds = new Map<string, PinnedKindCount>();
  for (const [reason, count] of Object.entries(byReason)) {
    if (!(count > 0)) continue;
    const kind = pinnedReasonKind(reason);
    const k = kinds.get(kind) ?? { kind, count: 0, reasons: [] };
    k.count += count;
    k.reasons.push(reason);
    kinds.set(kind, k);
  }
  return [...kinds.values()]
    .map((k) => ({ ...k, reasons: [...k.reasons].sort() }))
    .sort((a, b) => b.count - a.count || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}
