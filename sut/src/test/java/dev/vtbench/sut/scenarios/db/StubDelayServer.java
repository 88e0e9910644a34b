package dev.vtbench.sut.scenarios.db;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The mock's plain delay route for tests: {@code GET /delay?ms=<ms>} answers {@code {"delayedMs":<ms>}}
 * after ms milliseconds (what the harness's mock serves for study 002). On 127.0.0.1, port 0; one
 * platform thread per request, so it never competes with the SUT for virtual-thread carriers. Records
 * the {@value OrderDetails#USER_ID_HEADER} header values it saw.
 */
final class StubDelayServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "stub-delay");
        t.setDaemon(true);
        return t;
    });
    private final AtomicInteger requests = new AtomicInteger();
    final List<String> userIds = new CopyOnWriteArrayList<>();

    StubDelayServer() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/delay", this::delay);
        server.setExecutor(threads);
        server.start();
    }

    /** {@code http://127.0.0.1:<port>}, what {@code bench.http.base-url} takes. */
    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    int requestsSeen() {
        return requests.get();
    }

    private void delay(HttpExchange ex) throws IOException {
        try (ex) {
            requests.incrementAndGet();
            String user = ex.getRequestHeaders().getFirst(OrderDetails.USER_ID_HEADER);
            if (user != null) {
                userIds.add(user);
            }
            String q = ex.getRequestURI().getQuery();
            if (q == null || !q.matches("ms=\\d{1,9}")) {
                ex.sendResponseHeaders(400, -1);
                return;
            }
            long ms = Long.parseLong(q.substring(3));
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            byte[] body = ("{\"delayedMs\":" + ms + "}").getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
