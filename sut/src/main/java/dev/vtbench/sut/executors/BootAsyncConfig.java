package dev.vtbench.sut.executors;

import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableAsync;

import dev.vtbench.sut.jobs.AsyncSleeper;

/**
 * Turns on {@code @Async} (study 004's {@link AsyncSleeper}). Deliberately defines no
 * {@code Executor} bean: any {@code Executor} bean of our own makes Boot back off and not create its
 * {@code applicationTaskExecutor} (TaskExecutorConfigurations, {@code @ConditionalOnMissingBean(Executor.class)}),
 * which would change what {@code @Async} runs on. {@code BootExecutorsIT} proves the bean is Boot's.
 */
@Configuration(proxyBeanMethods = false)
@EnableAsync
public class BootAsyncConfig {

    /** The name of Boot's auto-configured executor bean (TaskExecutionAutoConfiguration.APPLICATION_TASK_EXECUTOR_BEAN_NAME). */
    public static final String APPLICATION_TASK_EXECUTOR = "applicationTaskExecutor";
}
