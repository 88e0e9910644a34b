package dev.vtbench.sut;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A minimal OpenAI-compatible Chat Completions server for tests, on a plain {@link ServerSocket} so
 * that it counts accepted connections exactly and keeps every connection alive until the client
 * closes it. Fixed latency; a switch for a malformed body. A request that says {@code "stream":true}
 * gets Server-Sent Events (chunked): the first token after the latency, then one every
 * {@link #interTokenMs}, {@link #streamTokens} in all, then {@code data: [DONE]}. One platform thread
 * per connection, so the stub does not compete with the SUT for virtual-thread carriers.
 */
public final class StubOpenAiServer implements AutoCloseable {

    public static final String CONTENT = "hello from stub";

    private final ServerSocket server;
    private final ExecutorService connections = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "stub-openai");
        t.setDaemon(true);
        return t;
    });
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peakInFlight = new AtomicInteger();
    public volatile long latencyMs;
    public volatile boolean malformed;
    /** stream answers: tokens sent, and the pause between two of them */
    public volatile int streamTokens = 5;
    public volatile long interTokenMs = 50;
    /** streaming requests received since start */
    private final AtomicInteger streamRequests = new AtomicInteger();
    /** When set, every request waits until this many requests are held at once, then all answer. */
    private volatile java.util.concurrent.CountDownLatch barrier;
    /** When set, every request waits (at most 60 s) until {@link #release()}. */
    private volatile java.util.concurrent.CountDownLatch gate;

    public StubOpenAiServer(long latencyMs) throws IOException {
        this.latencyMs = latencyMs;
        this.server = new ServerSocket(0, 4096, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "stub-openai-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/v1";
    }

    /** TCP connections accepted since start. */
    public int connectionsSeen() {
        return accepted.get();
    }

    public int requestsSeen() {
        return requests.get();
    }

    /** Requests that asked for a stream ({@code "stream":true}). */
    public int streamRequestsSeen() {
        return streamRequests.get();
    }

    /** The next {@code width} requests are answered together once all of them have arrived. */
    public void holdUntil(int width) {
        barrier = new java.util.concurrent.CountDownLatch(width);
    }

    /** Every request from now on is held until {@link #release()} (then its latency starts). */
    public void holdAll() {
        gate = new java.util.concurrent.CountDownLatch(1);
    }

    /** Ends {@link #holdUntil(int)} and {@link #holdAll()}, letting every held request go on. */
    public void release() {
        java.util.concurrent.CountDownLatch b = barrier;
        barrier = null;
        if (b != null) {
            while (b.getCount() > 0) {
                b.countDown();
            }
        }
        java.util.concurrent.CountDownLatch g = gate;
        gate = null;
        if (g != null) {
            g.countDown();
        }
    }

    /** Requests held in the stub right now (read, not yet answered). */
    public int inFlightNow() {
        return inFlight.get();
    }

    /** Highest number of requests in the stub at once since the last call; resets it. */
    public int takePeakInFlight() {
        return peakInFlight.getAndSet(inFlight.get());
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                accepted.incrementAndGet();
                connections.execute(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            while (true) {
                String head = readHead(in);
                if (head == null) {
                    return; // client closed the connection
                }
                int contentLength = 0;
                boolean close = false;
                for (String line : head.split("\r\n")) {
                    String lower = line.toLowerCase(Locale.ROOT);
                    if (lower.startsWith("content-length:")) {
                        contentLength = Integer.parseInt(lower.substring(15).trim());
                    } else if (lower.startsWith("connection:") && lower.contains("close")) {
                        close = true;
                    }
                }
                String requestBody = new String(in.readNBytes(contentLength), StandardCharsets.UTF_8);
                boolean stream = STREAM.matcher(requestBody).find();
                requests.incrementAndGet();
                if (stream) {
                    streamRequests.incrementAndGet();
                }
                peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                try {
                    java.util.concurrent.CountDownLatch gate = barrier;
                    if (gate != null) {
                        gate.countDown();
                        gate.await(30, java.util.concurrent.TimeUnit.SECONDS);
                    }
                    java.util.concurrent.CountDownLatch held = this.gate;
                    if (held != null) {
                        held.await(60, java.util.concurrent.TimeUnit.SECONDS);
                    }
                    Thread.sleep(latencyMs);
                } finally {
                    inFlight.decrementAndGet();
                }
                if (stream) {
                    writeStream(out);
                    if (close) {
                        return;
                    }
                    continue;
                }
                byte[] body = responseBody().getBytes(StandardCharsets.UTF_8);
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
                if (close) {
                    return;
                }
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            // connection ends
        }
    }

    private static final java.util.regex.Pattern STREAM = java.util.regex.Pattern.compile("\"stream\"\\s*:\\s*true");

    /** SSE in HTTP/1.1 chunks: role + first token now, then a token every interTokenMs, then finish and [DONE]. */
    private void writeStream(OutputStream out) throws IOException, InterruptedException {
        out.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
        int n = streamTokens;
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                Thread.sleep(interTokenMs);
            }
            String delta = i == 0 ? "{\"role\":\"assistant\",\"content\":\"t0\"}" : "{\"content\":\" t" + i + "\"}";
            writeChunk(out, event(delta, "null"));
        }
        writeChunk(out, event("{}", "\"stop\"") + "data: [DONE]\n\n");
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private static String event(String delta, String finish) {
        return "data: {\"id\":\"chatcmpl-stub\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
                + "\"model\":\"stub\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":" + finish + "}]}\n\n";
    }

    private static void writeChunk(OutputStream out, String text) throws IOException {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        out.write((Integer.toHexString(b.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(b);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private String responseBody() {
        if (malformed) {
            return "{\"id\":\"chatcmpl-stub\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,";
        }
        return """
                {"id":"chatcmpl-stub","object":"chat.completion","created":1700000000,"model":"stub",\
                "choices":[{"index":0,"message":{"role":"assistant","content":"%s"},"finish_reason":"stop"}],\
                "usage":{"prompt_tokens":3,"completion_tokens":3,"total_tokens":6}}""".formatted(CONTENT);
    }

    /** Request line and headers up to the blank line; null at end of stream. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(512);
        int state = 0; // counts \r\n\r\n progress
        while (true) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            buf.write(b);
            state = (b == '\r' && (state == 0 || state == 2)) ? state + 1
                    : (b == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
            if (state == 4) {
                return buf.toString(StandardCharsets.US_ASCII);
            }
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // ignore
        }
        connections.shutdownNow();
    }
}
