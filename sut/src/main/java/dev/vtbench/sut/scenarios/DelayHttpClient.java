package dev.vtbench.sut.scenarios;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

import dev.vtbench.sut.config.BenchProperties;

/**
 * The blocking HTTP client of the study-002 scenarios: {@code GET <baseUrl>/delay?ms=<ms>} on the mock,
 * which answers {@code {"delayedMs": ms}} after ms milliseconds. OkHttp's synchronous {@code execute()}
 * reads the socket on the calling thread, so a pool thread blocks for the whole call and a virtual
 * thread unmounts while it waits: the study's "blocking remote call". Synchronous OkHttp calls do not
 * pass its dispatcher (whose 64-request cap applies to asynchronous calls only) and open as many
 * connections as there are concurrent calls; the {@link ConnectionPool} keeps up to
 * {@code bench.http.max-connections} of them for reuse, so the client is never the limit. Settings in
 * {@code /bench/info} {@code http}.
 */
@Component
public class DelayHttpClient {

    /**
     * {@code /bench/info} {@code http}.
     *
     * @param maxOpenConnections null: synchronous OkHttp calls have no cap on open connections
     * @param retryOnConnectionFailure OkHttp's default (true): a request on a pooled connection the server had
     *                                 already closed is retried once on a new connection
     */
    public record Info(String client, String clientVersion, String baseUrl, String baseUrlFrom, int maxIdleConnections,
            long keepAliveMs, long timeoutMs, Integer maxOpenConnections, boolean retryOnConnectionFailure) {
    }

    private final OkHttpClient client;
    private final String baseUrl;
    private final JsonMapper json;
    private final Info info;

    public DelayHttpClient(BenchProperties props, Environment env, JsonMapper json) {
        BenchProperties.Http h = props.http();
        this.json = json;
        String from = "bench.http.base-url";
        String base = h.baseUrl();
        if (base == null) {
            from = "spring.ai.openai.base-url";
            base = env.getProperty("spring.ai.openai.base-url", "http://127.0.0.1:9000/v1").replaceAll("/v1/?$", "");
        }
        this.baseUrl = base.replaceAll("/+$", "");
        this.client = new OkHttpClient.Builder()
                .connectionPool(new ConnectionPool(h.maxConnections(), h.keepAlive().toMillis(), TimeUnit.MILLISECONDS))
                .connectTimeout(h.timeout())
                .readTimeout(h.timeout())
                .writeTimeout(h.timeout())
                .build();
        this.info = new Info("okhttp (synchronous execute)", okhttp3.OkHttp.VERSION, baseUrl, from, h.maxConnections(),
                h.keepAlive().toMillis(), h.timeout().toMillis(), null, client.retryOnConnectionFailure());
    }

    /**
     * One blocking {@code GET <baseUrl>/delay?ms=<ms>}.
     *
     * @param header optional request header name (null = none), e.g. the user id the user service call
     *               carries; the mock ignores it
     * @return the {@code delayedMs} the mock answered (equal to ms)
     * @throws UpstreamException {@code upstream_unreachable} (502) when the call failed,
     *                           {@code upstream_bad_response} when the answer is not 200 with {@code delayedMs = ms}
     */
    public long delay(long ms, String header, String headerValue) {
        Request.Builder b = new Request.Builder().url(baseUrl + "/delay?ms=" + ms).get();
        if (header != null) {
            b.header(header, headerValue);
        }
        String body;
        int status;
        try (Response r = client.newCall(b.build()).execute()) {
            status = r.code();
            ResponseBody rb = r.body();
            body = rb == null ? "" : rb.string();
        } catch (IOException e) {
            throw new UpstreamException("upstream_unreachable", "GET " + baseUrl + "/delay?ms=" + ms + " failed: " + e);
        }
        if (status != 200) {
            throw new UpstreamException("upstream_bad_response", "GET " + baseUrl + "/delay?ms=" + ms + " -> HTTP " + status
                    + ": " + abbreviate(body));
        }
        try {
            JsonNode d = json.readTree(body).get("delayedMs");
            if (d == null || !d.canConvertToLong() || d.asLong() != ms) {
                throw new UpstreamException("upstream_bad_response", "GET " + baseUrl + "/delay?ms=" + ms
                        + " answered without delayedMs=" + ms + ": " + abbreviate(body));
            }
            return d.asLong();
        } catch (JacksonException e) {
            throw new UpstreamException("upstream_bad_response", "GET " + baseUrl + "/delay?ms=" + ms + " answered non-JSON: "
                    + abbreviate(body));
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "…";
    }

    public Info info() {
        return info;
    }
}
