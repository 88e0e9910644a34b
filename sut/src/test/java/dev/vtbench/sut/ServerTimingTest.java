package dev.vtbench.sut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;

class ServerTimingTest {

    @Test
    void headerHasQueueThenExecInMillisecondsWithThreeDecimals() {
        assertEquals("queue;dur=200.000, exec;dur=0.001", ServerTiming.header(200_000_000L, 1_000L));
        assertEquals("queue;dur=0.000, exec;dur=1500.123", ServerTiming.header(0L, 1_500_123_456L));
    }

    @Test
    void headerHasAPermitEntryOnlyWhenTheRequestPassedABulkhead() {
        assertEquals("queue;dur=0.000, exec;dur=1500.000", ServerTiming.header(0L, 1_500_000_000L, -1L));
        assertEquals("queue;dur=0.000, exec;dur=1500.000, permit;dur=0.000", ServerTiming.header(0L, 1_500_000_000L, 0L));
        assertEquals("queue;dur=0.010, exec;dur=3000.500, permit;dur=1500.250", ServerTiming.header(10_000L, 3_000_500_000L, 1_500_250_000L));
    }

    @Test
    void headerIgnoresTheDefaultLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY); // decimal comma
            assertEquals("queue;dur=1.500, exec;dur=2.250", ServerTiming.header(1_500_000L, 2_250_000L));
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void headerMatchesTheHarnessPattern() {
        assertTrue(SutHttp.SERVER_TIMING.matcher(ServerTiming.header(123_456_789L, 987_654_321L)).matches());
    }

    @Test
    void jsonMillisecondsAreRoundedToMicroseconds() {
        assertEquals(1.235, ServerTiming.ms(1_234_567L));
        assertEquals(0.0, ServerTiming.ms(0L));
    }
}
