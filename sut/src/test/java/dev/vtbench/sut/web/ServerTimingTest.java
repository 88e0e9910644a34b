package dev.vtbench.sut.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;

import dev.vtbench.sut.SutHttp;

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

    @Test
    void namedPhasesFollowQueueExecAndPermitInRecordingOrder() {
        RequestPhases phases = new RequestPhases();
        phases.phase("db", 50_100_000L);
        phases.phase("user", 100_000_000L);
        phases.phase("logistics", 80_000_000L);
        phases.phase("db", 50_200_000L); // replaced in place
        assertEquals("queue;dur=0.000, exec;dur=230.000, db;dur=50.200, user;dur=100.000, logistics;dur=80.000",
                ServerTiming.header(0L, 230_000_000L, -1L, phases.phases()));
        assertEquals("queue;dur=0.000, exec;dur=1.000, permit;dur=0.500, db;dur=50.200, user;dur=100.000, logistics;dur=80.000",
                ServerTiming.header(0L, 1_000_000L, 500_000L, phases.phases()));
        assertEquals("queue;dur=0.000, exec;dur=1.000", ServerTiming.header(0L, 1_000_000L, -1L, new RequestPhases().phases()));
    }

    @Test
    void phaseNamesAreTokensOtherThanTheBuiltInOnes() {
        RequestPhases phases = new RequestPhases();
        for (String bad : new String[] {"queue", "exec", "permit", "Db", "db;dur=1", "", "1db"}) {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> phases.phase(bad, 1L), bad);
        }
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> phases.phase("db", -1L));
    }
}
