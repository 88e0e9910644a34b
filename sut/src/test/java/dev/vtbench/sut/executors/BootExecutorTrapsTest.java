package dev.vtbench.sut.executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * The two traps of study 004 (shared/DESIGN.md, "Facts for the next studies"), shown on Boot's real
 * auto-configuration and Spring's real executor: an {@code Executor} bean of one's own makes Boot
 * create no {@code applicationTaskExecutor}; a concurrency limit on {@code SimpleAsyncTaskExecutor}
 * blocks the submitting thread instead of queueing.
 */
class BootExecutorTrapsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class));

    @Test
    void bootDefaults_applicationTaskExecutorIsAPoolOf8WithAnUnboundedQueue() {
        runner.run(ctx -> {
            ThreadPoolTaskExecutor e = ctx.getBean(BootAsyncConfig.APPLICATION_TASK_EXECUTOR, ThreadPoolTaskExecutor.class);
            assertEquals(8, e.getCorePoolSize());
            assertEquals(Integer.MAX_VALUE, e.getMaxPoolSize());
            assertEquals(Integer.MAX_VALUE, e.getQueueCapacity());
        });
    }

    @Test
    void virtualThreadsEnabled_applicationTaskExecutorIsASimpleAsyncTaskExecutorWithoutLimit() {
        runner.withPropertyValues("spring.threads.virtual.enabled=true").run(ctx -> {
            Object e = ctx.getBean(BootAsyncConfig.APPLICATION_TASK_EXECUTOR);
            SimpleAsyncTaskExecutor s = assertInstanceOf(SimpleAsyncTaskExecutor.class, e);
            assertEquals(SimpleAsyncTaskExecutor.UNBOUNDED_CONCURRENCY, s.getConcurrencyLimit());
        });
    }

    @Test
    void anExecutorBeanOfOurOwn_bootCreatesNoApplicationTaskExecutor() {
        runner.withBean("mine", Executor.class, () -> Executors.newFixedThreadPool(1)).run(ctx -> {
            assertFalse(ctx.containsBean(BootAsyncConfig.APPLICATION_TASK_EXECUTOR),
                    "Boot backs off when any Executor bean exists, so @Async would not run on its pool of 8");
        });
    }

    @Test
    void concurrencyLimit_blocksTheSubmitterInsteadOfQueueing() throws Exception {
        try (SimpleAsyncTaskExecutor e = new SimpleAsyncTaskExecutor("limit-")) {
            e.setVirtualThreads(true);
            e.setConcurrencyLimit(1);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch secondRan = new CountDownLatch(1);
            e.execute(() -> {
                try {
                    release.await();
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            });
            Thread submitter = Thread.ofPlatform().start(() -> e.execute(secondRan::countDown));
            submitter.join(300);
            assertTrue(submitter.isAlive(), "the second execute() is still blocked in the caller (no queue)");
            release.countDown();
            submitter.join(5000);
            assertFalse(submitter.isAlive(), "the caller returns once the running task ended");
            assertTrue(secondRan.await(5, TimeUnit.SECONDS));
        }
    }
}
