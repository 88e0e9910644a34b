package dev.vtbench.sut;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The one executor wrapper both modes go through, so they are measured the same way: submit,
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

    /** The executor refused the task (fixed pool with a full queue). */
    public static final class Rejected extends RuntimeException {
        Rejected(String message) {
            super(message, null, false, false);
        }
    }

    private final ExecutorMode mode;
    private final int poolSize;
    private final int queueCapacity;
    private final ExecutorService delegate;
    private final ThreadPoolExecutor pool; // null in virtual mode
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();

    private MeasuringExecutor(ExecutorMode mode, int poolSize, int queueCapacity, ExecutorService delegate,
            ThreadPoolExecutor pool) {
        this.mode = mode;
        this.poolSize = poolSize;
        this.queueCapacity = queueCapacity;
        this.delegate = delegate;
        this.pool = pool;
    }

    /** fixed: core = max = poolSize, bounded queue, AbortPolicy, threads {@code llm-fixed-N}. */
    public static MeasuringExecutor fixed(int poolSize, int queueCapacity) {
        AtomicInteger n = new AtomicInteger();
        ThreadFactory tf = r -> {
            Thread t = new Thread(r, "llm-fixed-" + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
        BlockingQueue<Runnable> queue = queueCapacity == 0 ? new SynchronousQueue<>()
                : queueCapacity <= 100_000 ? new ArrayBlockingQueue<>(queueCapacity)
                : new LinkedBlockingQueue<>(queueCapacity);
        ThreadPoolExecutor tpe = new ThreadPoolExecutor(poolSize, poolSize, 0L, TimeUnit.MILLISECONDS, queue, tf,
                new ThreadPoolExecutor.AbortPolicy());
        return new MeasuringExecutor(ExecutorMode.FIXED, poolSize, queueCapacity, tpe, tpe);
    }

    /** virtual: one new virtual thread per task, named {@code llm-vt-N}. */
    public static MeasuringExecutor virtual() {
        ExecutorService es = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("llm-vt-", 0).factory());
        return new MeasuringExecutor(ExecutorMode.VIRTUAL, 0, 0, es, null);
    }

    public static MeasuringExecutor create(BenchProperties props) {
        return props.executorMode() == ExecutorMode.FIXED
                ? fixed(props.fixed().poolSize(), props.fixed().queueCapacity())
                : virtual();
    }

    /**
     * Runs {@code task} on the executor. The future completes with the value and both phases, or
     * exceptionally with a {@link TimedFailure} wrapping the task's exception.
     *
     * @throws Rejected at once when the executor refuses the task
     */
    public <T> CompletableFuture<Timed<T>> submit(Supplier<T> task) {
        CompletableFuture<Timed<T>> result = new CompletableFuture<>();
        long submitNanos = System.nanoTime();
        inFlight.incrementAndGet();
        try {
            delegate.execute(() -> {
                long startNanos = System.nanoTime();
                running.incrementAndGet();
                T value;
                try {
                    value = task.get();
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
            throw new Rejected("fixed pool rejected the task: pool-size=" + poolSize + ", queue-capacity="
                    + queueCapacity + ", queued=" + queueSize() + ", in-flight=" + inFlight.get());
        }
        return result;
    }

    private void finish() {
        running.decrementAndGet();
        inFlight.decrementAndGet();
        completed.incrementAndGet();
    }

    public ExecutorMode mode() {
        return mode;
    }

    public int poolSize() {
        return poolSize;
    }

    public int queueCapacity() {
        return queueCapacity;
    }

    /** ThreadPoolExecutor.getActiveCount() for fixed; running tasks for virtual. */
    public int active() {
        return pool != null ? pool.getActiveCount() : running.get();
    }

    public int queueSize() {
        return pool != null ? pool.getQueue().size() : 0;
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
