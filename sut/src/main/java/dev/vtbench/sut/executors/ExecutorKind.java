package dev.vtbench.sut.executors;

import java.util.concurrent.ExecutorService;
import java.util.function.IntSupplier;

import dev.vtbench.sut.config.BenchProperties;
import dev.vtbench.sut.config.InvalidBenchPropertyException;

/**
 * One kind of executor the blocking scenario calls can run on ({@code bench.executor.kind}).
 * {@link MeasuringExecutor} wraps whatever a kind builds, so every kind is measured the same way.
 * Adding a kind: implement this interface and add one line to {@link ExecutorKinds}.
 */
public interface ExecutorKind {

    /** The value of {@code bench.executor.kind}, lower case (e.g. {@code platform-pool}). */
    String name();

    /**
     * Prefix of the thread names when {@code bench.executor.thread-name-prefix} is not set. The
     * value is given where the kind is registered ({@link ExecutorKinds}), the one place defaults live.
     */
    String defaultThreadNamePrefix();

    /**
     * Checks the {@code bench.executor.*} settings this kind reads; throws
     * {@link InvalidBenchPropertyException} naming the property. Settings the kind ignores are not checked.
     */
    default void validate(BenchProperties.Executor settings) {
    }

    /**
     * Builds the executor. Threads are named {@code <threadNamePrefix><n>}, n from 0.
     *
     * @param settings      validated by {@link #validate}; {@code settings.threadNamePrefix()} is resolved
     * @param runningTasks  tasks running right now as counted by the wrapper, for kinds with no
     *                      executor-side count of their own
     */
    Built build(BenchProperties.Executor settings, IntSupplier runningTasks);

    /**
     * What a kind built: the executor tasks are handed to, the sampler's gauges, and the sizes
     * reported in {@code /bench/info} (null where the kind has no such limit).
     *
     * @param activeCount tasks being executed by a thread (sampler's {@code executorActive})
     * @param queueSize   tasks waiting for a thread inside the executor (sampler's {@code queueSize})
     */
    record Built(ExecutorService delegate, IntSupplier activeCount, IntSupplier queueSize, Integer threads,
            Integer queueCapacity) {
    }
}
