package dev.vtbench.sut.config;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;

import okhttp3.Dispatcher;
import okhttp3.Interceptor;
import okhttp3.Response;
import okhttp3.internal.connection.RealCall;

/**
 * Lifts the OkHttp dispatcher's limit on asynchronous calls of the OpenAI client to
 * {@code bench.okhttp.dispatcher-max-requests} = N (in flight, and per host).
 *
 * <p>Why an interceptor: Spring AI 2.0.1's {@code SpringAiOpenAiHttpClient.Builder} (what
 * {@code OpenAiHttpClientBuilderCustomizer} gets) builds its own {@code new Dispatcher(executor)} and then
 * sets {@code maxRequestsPerHost = maxRequests} = OkHttp's default 64 (read from its bytecode); the builder
 * has no setter for either. Its streaming calls go through the async client ({@code createStreaming} on
 * {@code OpenAIClientAsync}, i.e. {@code Call.enqueue}). OkHttp counts an async call as running until its
 * response headers arrive (its callback gets the response; the body is read afterwards, outside the
 * dispatcher), so at most 64 streams can be waiting for their headers, and the next ones wait in the
 * dispatcher's ready queue, a queue no executor metric shows. Against a server that sends headers at once
 * the slot is freed within milliseconds; against one that sends them with the first token it is held for the
 * whole time to first token (study 000's streaming profiles; sut/…/StreamingIT holds the headers back). The interceptor reaches the
 * dispatcher of the client that runs the call ({@link RealCall#getClient()}) and sets both limits on the
 * first call through it (the harness's warm-up), which also promotes calls already waiting.
 * Synchronous calls ({@code call()}) pass the dispatcher's limits by construction; for them it does nothing
 * but this check.
 */
public final class OkHttpDispatcherLimits implements Interceptor {

    private final int maxRequests;
    private final AtomicReference<Dispatcher> applied = new AtomicReference<>();

    /** @param maxRequests N > 0: the dispatcher's maxRequests and maxRequestsPerHost */
    public OkHttpDispatcherLimits(int maxRequests) {
        if (maxRequests <= 0) {
            throw new InvalidBenchPropertyException("bench.okhttp.dispatcher-max-requests", maxRequests, "must be > 0 here");
        }
        this.maxRequests = maxRequests;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        if (chain.call() instanceof RealCall call) {
            Dispatcher d = call.getClient().dispatcher();
            if (applied.get() != d && (d.getMaxRequests() != maxRequests || d.getMaxRequestsPerHost() != maxRequests)) {
                d.setMaxRequests(maxRequests);
                d.setMaxRequestsPerHost(maxRequests);
            }
            applied.compareAndSet(null, d);
        }
        return chain.proceed(chain.request());
    }

    /** N, the limits this interceptor sets. */
    public int maxRequests() {
        return maxRequests;
    }
}
