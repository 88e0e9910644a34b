package dev.vtbench.sut.scenarios.ws;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.handler.SessionLimitExceededException;

/** The close causes of the decorator's two limits, told apart by the decorator's own messages. */
class WsPushServiceTest {

    @Test
    void limitCause_sendTimeVsBufferSize() {
        // the texts ConcurrentWebSocketSessionDecorator.checkSessionLimits() builds (Spring Framework 7)
        assertEquals(WsPushService.SEND_TIME_LIMIT, WsPushService.limitCause(new SessionLimitExceededException(
                "Send time 10012 (ms) for session '1' exceeded the allowed limit 10000", CloseStatus.SESSION_NOT_RELIABLE)));
        assertEquals(WsPushService.BUFFER_SIZE_LIMIT, WsPushService.limitCause(new SessionLimitExceededException(
                "Buffer size 600000 bytes for session '1' exceeds the allowed limit 524288", CloseStatus.SESSION_NOT_RELIABLE)));
    }
}
