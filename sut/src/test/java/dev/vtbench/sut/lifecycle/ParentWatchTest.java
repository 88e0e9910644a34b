package dev.vtbench.sut.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class ParentWatchTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration FAST = Duration.ofMillis(50);

    private static ParentWatch.Seen seen(boolean running, Instant start, boolean zombie, long ownParent) {
        return new ParentWatch.Seen(running, Optional.ofNullable(start), zombie, ownParent);
    }

    @Test
    void aRealChildThatIsKilledIsSeenGoneWithinAFewSeconds() throws Exception {
        Process p = new ProcessBuilder("sleep", "60").start();
        BlockingQueue<String> reasons = new ArrayBlockingQueue<>(4);
        try (ParentWatch w = ParentWatch.start(p.pid(), Duration.ofMillis(100), reasons::add, ParentWatch::look)) {
            assertNull(reasons.poll(400, TimeUnit.MILLISECONDS), "a live process is not gone");
            p.destroyForcibly();
            String reason = reasons.poll(3, TimeUnit.SECONDS);
            assertNotNull(reason, "the killed process should be seen gone within 3 s");
            assertTrue(reason.startsWith("parent process " + p.pid() + " "), reason);
            assertTrue(w.fired());
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void theRealLookSeesThisJvmRunningWithAStartInstantAndItsOwnParent() {
        long self = ProcessHandle.current().pid();
        ParentWatch.Seen s = ParentWatch.look(self);
        assertTrue(s.running());
        assertTrue(s.start().isPresent());
        assertFalse(s.zombie());
        assertEquals(ProcessHandle.current().parent().orElseThrow().pid(), s.ownParentPid());
        assertTrue("RSD".indexOf(ParentWatch.procState(self)) >= 0, "a live state letter: " + ParentWatch.procState(self));
    }

    @Test
    void aProcessThatIsNotRunningAtTheStartIsGoneAtTheFirstCheck() throws Exception {
        BlockingQueue<String> reasons = new ArrayBlockingQueue<>(4);
        try (ParentWatch w = ParentWatch.start(77, FAST, reasons::add, pid -> seen(false, null, false, 1))) {
            assertEquals("parent process 77 was not running when the watch started", reasons.poll(2, TimeUnit.SECONDS));
        }
    }

    @Test
    void theCallbackRunsOnceAndNeverAfterClose() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger looks = new AtomicInteger();
        // running at the first two looks, gone afterwards
        ParentWatch.Looker looker = pid -> looks.incrementAndGet() <= 2 ? seen(true, T0, false, 9) : seen(false, null, false, 1);
        try (ParentWatch w = ParentWatch.start(42, FAST, r -> calls.incrementAndGet(), looker)) {
            Thread.sleep(500);
            assertEquals(1, calls.get());
        }
        AtomicInteger after = new AtomicInteger();
        ParentWatch closed = ParentWatch.start(43, FAST, r -> after.incrementAndGet(), pid -> seen(true, T0, false, 9));
        closed.close();
        Thread.sleep(200);
        assertEquals(0, after.get());
        assertFalse(closed.fired());
    }

    @Test
    void goneReason_namesExitPidReuseZombieAndReparenting_andNullWhileThere() {
        ParentWatch.Seen first = seen(true, T0, false, 42);
        assertNull(ParentWatch.goneReason(42, first, seen(true, T0, false, 42), true));
        assertNull(ParentWatch.goneReason(42, first, seen(true, null, false, 42), true), "an unknown start instant is not a change");
        assertEquals("parent process 42 exited", ParentWatch.goneReason(42, first, seen(false, null, false, 1), true));
        assertEquals("parent process 42 exited (its pid now belongs to another process)",
                ParentWatch.goneReason(42, first, seen(true, T0.plusSeconds(5), false, 42), true));
        assertEquals("parent process 42 exited (a zombie, not reaped yet)",
                ParentWatch.goneReason(42, first, seen(true, T0, true, 1), false));
        assertEquals("parent process 42 went away (this process was re-parented to 1)",
                ParentWatch.goneReason(42, first, seen(true, T0, false, 1), true));
        assertNull(ParentWatch.goneReason(42, first, seen(true, T0, false, 1), false),
                "a watched process that was not our parent: our own parent changing says nothing about it");
    }

    @Test
    void startRefusesABadPidOrInterval() {
        assertThrows(IllegalArgumentException.class, () -> ParentWatch.start(0, FAST, r -> {}, ParentWatch::look));
        assertThrows(IllegalArgumentException.class, () -> ParentWatch.start(5, Duration.ZERO, r -> {}, ParentWatch::look));
    }
}
