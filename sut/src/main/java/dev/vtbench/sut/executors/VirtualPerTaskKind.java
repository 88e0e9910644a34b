package dev.vtbench.sut.executors;

import java.util.concurrent.Executors;
import java.util.function.IntSupplier;

import dev.vtbench.sut.config.BenchProperties;

/**
 * {@code virtual-per-task}: one new virtual thread per task
 * ({@link Executors#newThreadPerTaskExecutor}). No thread limit and no queue of its own: a task
 * waits only for a carrier thread, so {@code threads} and {@code queueCapacity} are reported as
 * null, the queue gauge is 0 and the active gauge is the wrapper's count of running tasks.
 * {@code bench.executor.threads} and {@code bench.executor.queue-capacity} are ignored.
 */
final class VirtualPerTaskKind extends NamedExecutorKind {

    static final String NAME = "virtual-per-task";

    VirtualPerTaskKind(String defaultThreadNamePrefix) {
        super(NAME, defaultThreadNamePrefix);
    }

    @Override
    public Built build(BenchProperties.Executor s, IntSupplier runningTasks) {
        return new Built(Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(s.threadNamePrefix(), 0).factory()),
                runningTasks, () -> 0, null, null);
    }
}
