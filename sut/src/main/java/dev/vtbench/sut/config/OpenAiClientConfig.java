package dev.vtbench.sut.config;

import org.springframework.ai.openai.http.okhttp.OpenAiHttpClientBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Spring AI 2 calls OpenAI through the openai-java SDK on OkHttp (not RestClient), whose pool keeps
 * only 5 idle connections by default: every wide wave would reconnect. Size it from
 * {@code bench.okhttp.*}; optionally lift the dispatcher's cap on streaming calls (and set a read
 * timeout). The measuring executor bean is {@link dev.vtbench.sut.executors.ExecutorConfig}'s.
 */
@Configuration(proxyBeanMethods = false)
public class OpenAiClientConfig {

    /**
     * The pool size, and with {@code bench.okhttp.dispatcher-max-requests} = N > 0 the dispatcher's limits
     * ({@link OkHttpDispatcherLimits}), with {@code bench.okhttp.read-timeout} > 0 the read timeout of every call
     * ({@link OkHttpReadTimeout}); Spring AI calls this customizer for the sync and the async client.
     */
    @Bean
    OpenAiHttpClientBuilderCustomizer okHttpPoolCustomizer(BenchProperties props) {
        int dispatcherMax = props.okhttp().dispatcherMaxRequests();
        return builder -> {
            builder.maxIdleConnections(props.okhttp().maxIdleConnections())
                    .keepAliveDuration(props.okhttp().keepAlive());
            if (dispatcherMax > 0) {
                builder.interceptor(new OkHttpDispatcherLimits(dispatcherMax));
            }
            if (!props.okhttp().readTimeout().isZero()) {
                builder.interceptor(new OkHttpReadTimeout(props.okhttp().readTimeout()));
            }
        };
    }
}
