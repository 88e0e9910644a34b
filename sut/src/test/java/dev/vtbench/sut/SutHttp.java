package dev.vtbench.sut;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Test client for the running SUT (HTTP/1.1, as the harness uses). */
public final class SutHttp {

    /** queue and exec; then a permit entry only behind a bulkhead ({@code bench.bulkhead.permits} > 0) */
    public static final Pattern SERVER_TIMING = Pattern.compile("^queue;dur=(\\d+\\.\\d{3}), exec;dur=(\\d+\\.\\d{3})(?:, permit;dur=\\d+\\.\\d{3})?$");
    /** Any Server-Timing of the SUT: queue and exec, then named entries (permit; a scenario's phases such as db, user). */
    public static final Pattern SERVER_TIMING_ANY = Pattern.compile("^queue;dur=(\\d+\\.\\d{3}), exec;dur=(\\d+\\.\\d{3})(?:, [a-z][a-z0-9]*;dur=\\d+\\.\\d{3})*$");
    public static final ObjectMapper JSON = new ObjectMapper();

    public record Result(int status, String body, String serverTiming, double queueMs, double execMs) {
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (Exception e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }
    }

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    public SutHttp(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    public CompletableFuture<Result> llmAsync() {
        return sendAsync("POST", "/api/benchmark/llm", "{\"prompt\":\"hi\"}");
    }

    /** {@code method path} with an optional JSON body; Server-Timing parsed into queueMs / execMs (NaN when absent). */
    public CompletableFuture<Result> sendAsync(String method, String path, String jsonBody) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        if (jsonBody == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(jsonBody));
        }
        return client.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString()).thenApply(r -> {
            String st = r.headers().firstValue("Server-Timing").orElse(null);
            double q = Double.NaN;
            double e = Double.NaN;
            if (st != null) {
                Matcher m = SERVER_TIMING_ANY.matcher(st);
                if (m.matches()) {
                    q = Double.parseDouble(m.group(1));
                    e = Double.parseDouble(m.group(2));
                }
            }
            return new Result(r.statusCode(), r.body(), st, q, e);
        });
    }

    /** {@code POST /api/scenario/<idAndQuery>} without a body, e.g. {@code sleep?ms=300}. */
    public CompletableFuture<Result> scenarioAsync(String idAndQuery) {
        return sendAsync("POST", "/api/scenario/" + idAndQuery, null);
    }

    public Result scenario(String idAndQuery) {
        return scenarioAsync(idAndQuery).join();
    }

    public Result llm() {
        return llmAsync().join();
    }

    public List<Result> concurrent(int n) {
        List<CompletableFuture<Result>> fs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            fs.add(llmAsync());
        }
        return fs.stream().map(CompletableFuture::join).toList();
    }

    public HttpResponse<String> get(String path) {
        try {
            return client.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError("GET " + path + " failed", e);
        }
    }

    public JsonNode getJson(String path) {
        HttpResponse<String> r = get(path);
        if (r.statusCode() != 200) {
            throw new AssertionError("GET " + path + " -> " + r.statusCode() + ": " + r.body());
        }
        try {
            return JSON.readTree(r.body());
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + r.body(), e);
        }
    }
}
