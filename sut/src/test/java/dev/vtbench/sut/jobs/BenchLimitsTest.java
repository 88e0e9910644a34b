package dev.vtbench.sut.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.springframework.web.server.ResponseStatusException;

/** The job endpoints' ranges come from bench-limits.properties, the file the harness's plan check reads too. */
class BenchLimitsTest {

    @Test
    void rangesAreReadFromTheSharedFile() {
        assertEquals(new BenchLimits.Range(1, 2_000_000), BenchLimits.of("vt-sweep", "threads"));
        assertEquals(new BenchLimits.Range(1, 1_000_000), BenchLimits.of("async-burst", "tasks"));
    }

    @Test
    void aValueOutsideIsA400InTheHarnesssWords() {
        BenchLimits.check("vt-sweep", "threads", 2_000_000);
        ResponseStatusException e = assertThrows(ResponseStatusException.class, () -> BenchLimits.check("vt-sweep", "threads", 2_000_001));
        assertEquals(400, e.getStatusCode().value());
        assertEquals("threads must be in 1..2000000, got 2000001", e.getReason());
    }

    @Test
    void aMissingKeyIsNamed() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> BenchLimits.of("vt-sweep", "nope"));
        assertEquals("bench-limits.properties: vt-sweep.nope is missing", e.getMessage());
    }
}
