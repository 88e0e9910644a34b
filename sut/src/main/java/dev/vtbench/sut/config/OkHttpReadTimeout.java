package dev.vtbench.sut.config;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import okhttp3.Interceptor;
import okhttp3.Response;

import dev.vtbench.sut.scenarios.llm.LlmCallService;

/**
 * The LLM client's timeout as a variant ({@code bench.okhttp.read-timeout} = t > 0): every call of the
 * OpenAI client reads with OkHttp's read timeout t, so an upstream that never answers (the mock's
 * {@code hang}) ends the call after t with a {@link java.net.SocketTimeoutException}, answered 504
 * {@code upstream_timeout} ({@link LlmCallService#classify}).
 *
 * <p>Why not {@code spring.ai.openai.timeout}: in Spring AI 2.0.1 every chat call carries per-request
 * options whose timeout is {@code OpenAiChatOptions}' own default of 60 s ({@code AbstractOpenAiOptions
 * .DEFAULT_TIMEOUT}; the auto-configuration's {@code toOptions()} does not copy
 * {@code spring.ai.openai.chat.options.timeout}), and {@code SpringAiOpenAiHttpClient.newCall} rebuilds the
 * OkHttp client of each call with those timeouts, overriding the client-wide one (read from their bytecode;
 * sut/…/ClientTimeoutIT shows it). An application interceptor's {@code withReadTimeout} applies after that.
 */
public final class OkHttpReadTimeout implements Interceptor {

    private final int millis;

    /** @param timeout t > 0, whole milliseconds */
    public OkHttpReadTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero() || timeout.toMillis() > Integer.MAX_VALUE) {
            throw new InvalidBenchPropertyException("bench.okhttp.read-timeout", timeout, "must be > 0 here");
        }
        this.millis = (int) timeout.toMillis();
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        return chain.withReadTimeout(millis, TimeUnit.MILLISECONDS).proceed(chain.request());
    }
}
