package dev.vtbench.sut;

import org.springframework.ai.openai.http.okhttp.OpenAiHttpClientBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Spring AI 2 calls OpenAI through the openai-java SDK on OkHttp (not RestClient), whose pool keeps
 * only 5 idle connections by default: every wide wave would reconnect. Size it from
 * {@code bench.okhttp.*}. Also provides the measuring executor bean.
 */
@Configuration(proxyBeanMethods = false)
public class OpenAiClientConfig {

    @Bean
    OpenAiHttpClientBuilderCustomizer okHttpPoolCustomizer(BenchProperties props) {
        return builder -> builder
                .maxIdleConnections(props.okhttp().maxIdleConnections())
                .keepAliveDuration(props.okhttp().keepAlive());
    }

    @Bean(destroyMethod = "close")
    MeasuringExecutor measuringExecutor(BenchProperties props, Environment env) {
        BenchProperties.refuseRemoved(env);
        return MeasuringExecutor.create(props.executor());
    }
}
