package dev.vtbench.sut.scenarios.ws;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.handler.TextWebSocketHandler;

/**
 * Maps {@link WsPushService#PATH} ({@code /ws/push}) to a plain WebSocket handler (no STOMP): the
 * handler only registers and unregisters sessions with {@link WsPushService}; what a client sends is
 * ignored. Runs on Tomcat's threads (handshake, control frames); the pushes do not.
 */
@Configuration
@EnableWebSocket
public class WsPushConfig implements WebSocketConfigurer {

    private final WsPushService service;

    public WsPushConfig(WsPushService service) {
        this.service = service;
    }

    @Override
    public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
        // any Origin: the load generator (undici's WebSocket) is no browser page of this host
        registry.addHandler(new Handler(service), WsPushService.PATH).setAllowedOrigins("*");
    }

    /** Session lifecycle to the service. */
    static final class Handler extends TextWebSocketHandler {
        private final WsPushService service;

        Handler(WsPushService service) {
            this.service = service;
        }

        @Override
        public void afterConnectionEstablished(WebSocketSession session) {
            service.open(session);
        }

        @Override
        public void handleTransportError(WebSocketSession session, Throwable exception) {
            service.transportError(session);
        }

        @Override
        public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
            service.closed(session, status);
        }
    }
}
