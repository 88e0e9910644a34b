package dev.vtbench.sut.web;

import java.util.Locale;
import java.util.Map;

import dev.vtbench.sut.scenarios.llm.LlmBulkhead;

/**
 * The {@code Server-Timing} header value: {@code queue;dur=X.XXX, exec;dur=Y.YYY} in ms, then
 * {@code , permit;dur=Z.ZZZ} when the request passed a bulkhead ({@link LlmBulkhead}; the permit wait
 * is part of exec, which runs from the task's start to its end), then the scenario's named phases
 * ({@link RequestPhases#phase}, e.g. {@code , db;dur=…, user;dur=…, logistics;dur=…}), also parts of exec.
 */
public final class ServerTiming {

    private ServerTiming() {
    }

    public static String header(long queueNanos, long execNanos) {
        return "queue;dur=" + ms3(queueNanos) + ", exec;dur=" + ms3(execNanos);
    }

    /** {@link #header(long, long)} plus {@code , permit;dur=} when {@code permitNanos} >= 0. */
    public static String header(long queueNanos, long execNanos, long permitNanos) {
        return permitNanos < 0 ? header(queueNanos, execNanos) : header(queueNanos, execNanos) + ", permit;dur=" + ms3(permitNanos);
    }

    /** {@link #header(long, long, long)} plus {@code , <name>;dur=<ms>} for each named phase, in the map's order. */
    public static String header(long queueNanos, long execNanos, long permitNanos, Map<String, Long> phases) {
        StringBuilder b = new StringBuilder(header(queueNanos, execNanos, permitNanos));
        phases.forEach((name, nanos) -> b.append(", ").append(name).append(";dur=").append(ms3(nanos)));
        return b.toString();
    }

    /** Nanoseconds to milliseconds with exactly three decimals (microsecond precision). */
    public static String ms3(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1_000_000.0);
    }

    /** Milliseconds rounded to microseconds, for the JSON body. */
    public static double ms(long nanos) {
        return Math.round(nanos / 1_000.0) / 1_000.0;
    }
}
