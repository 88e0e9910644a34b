package dev.vtbench.sut.executors;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.vtbench.sut.config.BenchProperties;

/**
 * The benchmark executor: the bean {@code measuringExecutor}, a {@link MeasuringExecutor} around the
 * executor of {@code bench.executor.kind} ({@link ExecutorKinds}), closed with the context. Refuses the
 * removed scalar {@code bench.executor} first ({@link BenchProperties#refuseRemoved}). It is no
 * {@link java.util.concurrent.Executor}, so Boot still creates its {@code applicationTaskExecutor}
 * ({@link BootAsyncConfig}).
 */
@Configuration(proxyBeanMethods = false)
public class ExecutorConfig {

    @Bean(destroyMethod = "close")
    MeasuringExecutor measuringExecutor(BenchProperties props, Environment env) {
        BenchProperties.refuseRemoved(env);
        return MeasuringExecutor.create(props.executor());
    }
}
