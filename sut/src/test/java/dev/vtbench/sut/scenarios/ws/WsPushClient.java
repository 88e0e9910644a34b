package dev.vtbench.sut.scenarios.ws;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.JsonNode;

import dev.vtbench.sut.SutHttp;

/** Test client of {@code /ws/push}: one connection, every message with its receive time (epoch ms). */
final class WsPushClient implements AutoCloseable {

    record Received(long receivedEpochMs, JsonNode json) {
        long seq() {
            return json.get("seq").asLong();
        }

        long scheduledEpochMs() {
            return json.get("scheduledEpochMs").asLong();
        }

        String thread() {
            return json.get("thread").asText();
        }
    }

    final List<Received> messages = new CopyOnWriteArrayList<>();
    private final WebSocket ws;

    WsPushClient(int port) {
        this.ws = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
                .buildAsync(URI.create("ws://127.0.0.1:" + port + "/ws/push"), new WebSocket.Listener() {
                    private final StringBuilder text = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                        text.append(data);
                        if (last) {
                            long now = System.currentTimeMillis();
                            try {
                                messages.add(new Received(now, SutHttp.JSON.readTree(text.toString())));
                            } catch (Exception e) {
                                throw new AssertionError("not JSON: " + text, e);
                            }
                            text.setLength(0);
                        }
                        w.request(1);
                        return null;
                    }
                }).join();
    }

    @Override
    public void close() {
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").join();
    }
}
