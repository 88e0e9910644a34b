package dev.vtbench.sut.executors;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

import dev.vtbench.sut.config.BenchProperties;

/**
 * The one executor wrapper every {@link ExecutorKind} goes through, so all are measured the same way: submit,
 * start and end are taken with {@link System#nanoTime()} around the task, and in-flight /
 * running / completed counters are kept here rather than read from the executor.
 */
public final class MeasuringExecutor implements AutoCloseable {

    /** Result of a task plus its two phases in nanoseconds. */
    public record Timed<T>(T value, long queueNanos, long execNanos) {
    }

    /** A task that failed, with the phases measured up to the failure. */
    public static final class TimedFailure extends RuntimeException {
        private final long queueNanos;
        private final long execNanos;

        TimedFailure(Throwable cause, long queueNanos, long execNanos) {
            super(cause.getMessage(), cause, false, false);
            this.queueNanos = queueNanos;
            this.execNanos = execNanos;
        }

        public long queueNanos() {
            return queueNanos;
        }

        public long execNanos() {
            return execNanos;
        }
    }

    /** The executor refused the task (e.g. a platform pool with every thread busy and the queue full). */
    public static final class Rejected extends RuntimeException {
        Rejected(String message) {
            super(message, null, false, false);
        }
    }

    private final ExecutorKind kind;
    private final String threadNamePrefix;
    private final ExecutorService delegate;
    private final IntSupplier activeGauge;
    private final IntSupplier queueGauge;
    private final Integer threads;
    private final Integer queueCapacity;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();

    private MeasuringExecutor(BenchProperties.Executor settings) {
        this.kind = settings.executorKind();
        this.threadNamePrefix = settings.threadNamePrefix();
        ExecutorKind.Built built = kind.build(settings, running::get);
        this.delegate = built.delegate();
        this.activeGauge = built.activeCount();
        this.queueGauge = built.queueSize();
        this.threads = built.threads();
        this.queueCapacity = built.queueCapacity();
    }

    /** Builds the executor of {@code settings.kind()} and wraps it. */
    public static MeasuringExecutor create(BenchProperties.Executor settings) {
        return new MeasuringExecutor(settings);
    }

    /**
     * Runs {@code task} on the executor. The future completes with the value and both phases, or
     * exceptionally with a {@link TimedFailure} wrapping the task's exception.
     *
     * @throws Rejected at once when the executor refuses the task
     */
    public <T> CompletableFuture<Timed<T>> submit(Callable<T> task) {
        CompletableFuture<Timed<T>> result = new CompletableFuture<>();
        long submitNanos = System.nanoTime();
        inFlight.incrementAndGet();
        try {
            delegate.execute(() -> {
                long startNanos = System.nanoTime();
                running.incrementAndGet();
                T value;
                try {
                    value = task.call();
                } catch (Throwable t) {
                    long endNanos = System.nanoTime();
                    finish();
                    result.completeExceptionally(new TimedFailure(t, startNanos - submitNanos, endNanos - startNanos));
                    return;
                }
                long endNanos = System.nanoTime();
                finish();
                result.complete(new Timed<>(value, startNanos - submitNanos, endNanos - startNanos));
            });
        } catch (RejectedExecutionException e) {
            inFlight.decrementAndGet();
            rejected.incrementAndGet();
            throw new Rejected(kind.name() + " rejected the task: "
                    + (threads == null ? "" : "threads=" + threads + ", ")
                    + (queueCapacity == null ? "" : "queue-capacity=" + queueCapacity + ", ")
                    + "queued=" + queueSize() + ", in-flight=" + inFlight.get());
        }
        return result;
    }

    private void finish() {
        running.decrementAndGet();
        inFlight.decrementAndGet();
        completed.incrementAndGet();
    }

    public ExecutorKind kind() {
        return kind;
    }

    public String threadNamePrefix() {
        return threadNamePrefix;
    }

    /** Thread limit of the kind; null where it has none (virtual-per-task). */
    public Integer threads() {
        return threads;
    }

    /** Queue bound of the kind; null where it has no queue (virtual-per-task). */
    public Integer queueCapacity() {
        return queueCapacity;
    }

    /** The kind's active gauge: e.g. ThreadPoolExecutor.getActiveCount(), or running tasks. */
    public int active() {
        return activeGauge.getAsInt();
    }

    /** The kind's queue gauge: tasks waiting inside the executor for a thread (0 where it has no queue). */
    public int queueSize() {
        return queueGauge.getAsInt();
    }

    public int inFlight() {
        return inFlight.get();
    }

    public long completed() {
        return completed.get();
    }

    public long rejectedTotal() {
        return rejected.get();
    }

    @Override
    public void close() {
        delegate.shutdownNow();
    }
}
