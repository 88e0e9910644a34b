package dev.vtbench.sut.executors;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import dev.vtbench.sut.config.BenchProperties;
import dev.vtbench.sut.jobs.AsyncBurstJob;
import dev.vtbench.sut.web.ServletSleepController;

/**
 * {@code spring-boot-auto}: the variant runs on Spring Boot's own auto-configured executors (study
 * 004): {@code @Async} on the {@code applicationTaskExecutor} bean ({@link AsyncBurstJob}) and
 * requests on Tomcat's own threads ({@link ServletSleepController}), switched by
 * {@code spring.threads.virtual.enabled}. What those executors actually are is read back by
 * {@link BootExecutorsInfo}. The benchmark executor this kind builds refuses every task, so a
 * {@code /api/scenario/*} call under this kind answers 503 instead of silently running on an
 * executor the variant did not ask for. {@code threads} and {@code queueCapacity} are null.
 */
final class SpringBootAutoKind extends NamedExecutorKind {

    static final String NAME = "spring-boot-auto";

    SpringBootAutoKind(String defaultThreadNamePrefix) {
        super(NAME, defaultThreadNamePrefix);
    }

    @Override
    public Built build(BenchProperties.Executor s, IntSupplier runningTasks) {
        return new Built(new Refusing(), () -> 0, () -> 0, null, null);
    }

    /** An executor that refuses every task (RejectedExecutionException, answered as 503). */
    private static final class Refusing extends AbstractExecutorService {
        private volatile boolean shutdown;

        @Override
        public void execute(Runnable command) {
            throw new RejectedExecutionException("bench.executor.kind=spring-boot-auto runs no /api/scenario/* call: "
                    + "use /bench/job/async-burst (Boot's applicationTaskExecutor) or /api/servlet/sleep (Tomcat's threads)");
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return shutdown;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }
    }
}
