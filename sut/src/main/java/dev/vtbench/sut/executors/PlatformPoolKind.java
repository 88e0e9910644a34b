package dev.vtbench.sut.executors;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import dev.vtbench.sut.config.BenchProperties;
import dev.vtbench.sut.config.InvalidBenchPropertyException;

/**
 * {@code platform-pool}: a {@link ThreadPoolExecutor} of platform threads, core = max =
 * {@code bench.executor.threads} (required), a bounded queue of {@code bench.executor.queue-capacity}
 * (0 = hand-off only) and {@link ThreadPoolExecutor.AbortPolicy}: a task that finds every thread
 * busy and the queue full is refused (HTTP 503 {@code rejected}).
 */
final class PlatformPoolKind extends NamedExecutorKind {

    static final String NAME = "platform-pool";

    /** Above this capacity the queue is a linked one, so a huge bound does not allocate its array up front. */
    private static final int ARRAY_QUEUE_MAX = 100_000;

    PlatformPoolKind(String defaultThreadNamePrefix) {
        super(NAME, defaultThreadNamePrefix);
    }

    @Override
    public void validate(BenchProperties.Executor s) {
        if (s.threads() == null || s.threads() <= 0) {
            throw new InvalidBenchPropertyException("bench.executor.threads", s.threads(),
                    "must be > 0 for bench.executor.kind=" + NAME + " (it has no default)");
        }
    }

    @Override
    public Built build(BenchProperties.Executor s, IntSupplier runningTasks) {
        validate(s);
        int threads = s.threads();
        int capacity = s.queueCapacity();
        String prefix = s.threadNamePrefix();
        AtomicInteger n = new AtomicInteger();
        ThreadFactory tf = r -> {
            Thread t = new Thread(r, prefix + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
        BlockingQueue<Runnable> queue = capacity == 0 ? new SynchronousQueue<>()
                : capacity <= ARRAY_QUEUE_MAX ? new ArrayBlockingQueue<>(capacity)
                : new LinkedBlockingQueue<>(capacity);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 0L, TimeUnit.MILLISECONDS, queue, tf,
                new ThreadPoolExecutor.AbortPolicy());
        return new Built(pool, pool::getActiveCount, () -> pool.getQueue().size(), threads, capacity);
    }
}
