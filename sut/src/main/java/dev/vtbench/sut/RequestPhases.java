package dev.vtbench.sut;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Phases of one request measured inside its task (the wait for a bulkhead permit; a stream's time to
 * first token and inter-token gaps, {@link LlmStreamService}), handed
 * from the code that runs on the executor's thread to the controller that writes {@code Server-Timing}.
 * The controller creates one per request and runs the task inside {@link #run}; code on that thread
 * reads it with {@link #current()} (a thread-local bound for the task's duration only, so it works on
 * pool threads and virtual threads alike and never leaks into the next task of a pooled thread).
 */
public final class RequestPhases {

    private static final ThreadLocal<RequestPhases> CURRENT = new ThreadLocal<>();

    /** nanoseconds waited for a bulkhead permit; -1 = no bulkhead on this request's path */
    private volatile long permitNanos = -1;

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

    /** more {@code Server-Timing} entries (name -> nanoseconds), in the order recorded */
    private final Map<String, Long> timings = new LinkedHashMap<>();

    /**
     * Records one more {@code Server-Timing} entry of this request, sent after queue, exec and permit.
     *
     * @param name a token of lower-case letters, unique per request (a second record replaces the first)
     */
    public synchronized void timing(String name, long nanos) {
        timings.put(name, nanos);
    }

    /** The entries recorded with {@link #timing}, in order (a copy). */
    public synchronized Map<String, Long> timings() {
        return new LinkedHashMap<>(timings);
    }

    void permitWaited(long nanos) {
        this.permitNanos = nanos;
    }

    /** Nanoseconds waited for a bulkhead permit, or -1 when the request passed no bulkhead. */
    public long permitNanos() {
        return permitNanos;
    }
}
