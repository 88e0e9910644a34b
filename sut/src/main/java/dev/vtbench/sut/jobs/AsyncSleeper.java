package dev.vtbench.sut.jobs;

import org.springframework.scheduling.annotation.Async;
import org.springframework.stereotype.Component;

import dev.vtbench.sut.executors.BootAsyncConfig;

/**
 * Study 004's {@code @Async} method: {@code Thread.sleep(ms)} on whatever thread Boot's
 * {@code applicationTaskExecutor} gives it, recorded in the burst (thread name, virtual or not,
 * start and end). The executor is named in {@code @Async} so it is Boot's bean whatever other
 * executors exist (the source study's {@code AsyncService.doSomething}, shared/seeds/004).
 */
@Component
public class AsyncSleeper {

    /** Runs asynchronously on {@code applicationTaskExecutor}; counts down the burst when done (also on interrupt). */
    @Async(BootAsyncConfig.APPLICATION_TASK_EXECUTOR)
    public void sleep(long ms, AsyncBurst burst) {
        burst.taskStarted(Thread.currentThread());
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            burst.taskEnded();
        }
    }
}
