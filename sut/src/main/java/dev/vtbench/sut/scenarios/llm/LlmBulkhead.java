package dev.vtbench.sut.scenarios.llm;

import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

import org.springframework.stereotype.Component;

import dev.vtbench.sut.config.BenchProperties;
import dev.vtbench.sut.scenarios.UpstreamException;
import dev.vtbench.sut.web.RequestPhases;

/**
 * A bulkhead in front of the LLM call ({@code bench.bulkhead.permits} = K > 0): a fair
 * {@link Semaphore} of K permits, so at most K calls are inside the upstream at once whatever the
 * executor (study 000 §13: limit the dependency, not the threads). A call waits for a permit on its own
 * thread (a virtual thread unmounts while it waits); the wait is recorded in the request's
 * {@link RequestPhases} and sent as {@code Server-Timing: permit;dur=<ms>}. With K = 0 calls pass
 * straight through and nothing is recorded.
 */
@Component
public class LlmBulkhead {

    private final int permits;
    private final Semaphore semaphore;

    public LlmBulkhead(BenchProperties props) {
        this.permits = props.bulkhead().permits();
        this.semaphore = permits > 0 ? new Semaphore(permits, true) : null;
    }

    /**
     * Runs {@code call} holding one permit (waiting for it first), or at once without a bulkhead.
     *
     * @throws UpstreamException when interrupted while waiting for a permit (code {@code bulkhead_interrupted})
     */
    public <T> T call(Supplier<T> call) {
        if (semaphore == null) {
            return call.get();
        }
        long t0 = System.nanoTime();
        try {
            semaphore.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UpstreamException("bulkhead_interrupted", "interrupted while waiting for a bulkhead permit");
        }
        RequestPhases phases = RequestPhases.current();
        if (phases != null) {
            phases.permitWaited(System.nanoTime() - t0);
        }
        try {
            return call.get();
        } finally {
            semaphore.release();
        }
    }

    /** K, the permits (0 = no bulkhead). */
    public int permits() {
        return permits;
    }

    /** Calls waiting for a permit now (an estimate, {@link Semaphore#getQueueLength()}); 0 without a bulkhead. */
    public int waiting() {
        return semaphore == null ? 0 : semaphore.getQueueLength();
    }
}
