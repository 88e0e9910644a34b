package dev.vtbench.sut.web;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/**
 * Phases of one request measured inside its task (the wait for a bulkhead permit; named phases of a
 * scenario such as {@code db}, {@code user}, {@code logistics}), handed
 * from the code that runs on the executor's thread to the controller that writes {@code Server-Timing}.
 * The controller creates one per request and runs the task inside {@link #run}; code on that thread
 * reads it with {@link #current()} (a thread-local bound for the task's duration only, so it works on
 * pool threads and virtual threads alike and never leaks into the next task of a pooled thread).
 */
public final class RequestPhases {

    private static final ThreadLocal<RequestPhases> CURRENT = new ThreadLocal<>();

    /** nanoseconds waited for a bulkhead permit; -1 = no bulkhead on this request's path */
    private volatile long permitNanos = -1;

    /** A phase name: a {@code Server-Timing} metric name (an RFC 7230 token; here lower-case letters and digits). */
    static final Pattern PHASE_NAME = Pattern.compile("[a-z][a-z0-9]*");

    /** Names that {@link ServerTiming} writes itself. */
    private static final java.util.Set<String> RESERVED = java.util.Set.of("queue", "exec", "permit");

    /** named phases in the order they were first recorded; guarded by itself */
    private final Map<String, Long> phases = new LinkedHashMap<>();

    /** Runs {@code task} with this object as {@link #current()} on the calling thread; rethrows what it throws. */
    public <T> T run(Callable<T> task) throws Exception {
        RequestPhases previous = CURRENT.get();
        CURRENT.set(this);
        try {
            return task.call();
        } finally {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        }
    }

    /** The phases of the request the calling thread runs, or null outside {@link #run}. */
    public static RequestPhases current() {
        return CURRENT.get();
    }

    public void permitWaited(long nanos) {
        this.permitNanos = nanos;
    }

    /**
     * Records a named phase of this request (sent as {@code Server-Timing: <name>;dur=<ms>} after queue,
     * exec and permit, in the order first recorded; recording a name again replaces its value in place).
     * Thread-safe: forks of a structured scope may record into the request's object.
     *
     * @throws IllegalArgumentException when the name is not {@link #PHASE_NAME} or is queue/exec/permit, or nanos < 0
     */
    public void phase(String name, long nanos) {
        if (name == null || !PHASE_NAME.matcher(name).matches() || RESERVED.contains(name)) {
            throw new IllegalArgumentException("phase name '" + name + "' must match " + PHASE_NAME.pattern()
                    + " and not be one of " + RESERVED);
        }
        if (nanos < 0) {
            throw new IllegalArgumentException("phase " + name + ": nanos must be >= 0, got " + nanos);
        }
        synchronized (phases) {
            phases.put(name, nanos);
        }
    }

    /** The named phases recorded so far (name -> nanoseconds), in recording order; a copy. */
    public Map<String, Long> phases() {
        synchronized (phases) {
            return new LinkedHashMap<>(phases);
        }
    }

    /** Nanoseconds waited for a bulkhead permit, or -1 when the request passed no bulkhead. */
    public long permitNanos() {
        return permitNanos;
    }
}
