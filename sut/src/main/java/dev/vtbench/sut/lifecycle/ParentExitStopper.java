package dev.vtbench.sut.lifecycle;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.stereotype.Component;

import dev.vtbench.sut.config.BenchProperties;

/**
 * Stops the SUT when the process named by {@code bench.parent-pid} (the harness that started it) is
 * gone: a {@link ParentWatch} checks once a second; when it fires, one WARN line names the reason,
 * then the application context is closed ({@link SpringApplication#exit}) and the JVM exits with its
 * exit code (0). The watch starts while the context is being created, so a harness that dies during
 * the SUT's start-up is seen too (the stop then waits until the start-up is done).
 * Without {@code bench.parent-pid} nothing is watched.
 */
@Component
public class ParentExitStopper implements DisposableBean {

    /** Time between two checks of the parent. */
    static final Duration INTERVAL = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(ParentExitStopper.class);

    private final ParentWatch watch;

    public ParentExitStopper(BenchProperties props, ConfigurableApplicationContext context) {
        Long pid = props.parentPid();
        if (pid == null) {
            watch = null;
            return;
        }
        log.info("vtbench-sut: stopping when parent process {} is gone (bench.parent-pid, checked every {} ms)", pid, INTERVAL.toMillis());
        watch = ParentWatch.start(pid, INTERVAL, reason -> {
            log.warn("vtbench-sut: {}; stopping", reason);
            System.exit(SpringApplication.exit(context));
        }, ParentWatch::look);
    }

    @Override
    public void destroy() {
        if (watch != null) {
            watch.close();
        }
    }
}
