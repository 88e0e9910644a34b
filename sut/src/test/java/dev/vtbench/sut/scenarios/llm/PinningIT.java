package dev.vtbench.sut.scenarios.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.vtbench.sut.StubbedSutIT;
import dev.vtbench.sut.SutHttp;

/**
 * {@code bench.pinning=synchronized}: the LLM call blocks on the socket while holding a monitor.
 * JEP 491 (JDK 24+): a virtual thread blocking inside {@code synchronized} unmounts, so it does not
 * pin; on JDK 21-23 every such call pins its carrier for the whole call. So on JDK 25 this mode
 * demonstrates nothing but JEP 491; {@link ClassInitPinningIT} shows a mode that still pins.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.executor.kind=virtual-per-task", "bench.pinning=synchronized", "bench.pinned.threshold-ms=20"})
@DirtiesContext
class PinningIT extends StubbedSutIT {

    @Test
    void blockingInsideSynchronized_noPinnedEventsOver20ms_onJdk24PlusPerJep491_pinsOnOlderJdks() {
        SutHttp http = new SutHttp(port);
        http.concurrent(20); // warm-up: class initialisation may legitimately pin once
        JsonNode before = http.getJson("/bench/pinned"); // read after JFR delivered everything so far
        assertTrue(before.get("flushed").asBoolean(), before.toString());

        List<SutHttp.Result> wave = http.concurrent(20);
        assertTrue(wave.stream().allMatch(r -> r.status() == 200));
        JsonNode pinned = http.getJson("/bench/pinned");
        assertTrue(pinned.get("flushed").asBoolean(), pinned.toString());
        long during = pinned.get("total").asLong() - before.get("total").asLong();
        assertEquals(20, pinned.get("thresholdMs").asLong());

        if (Runtime.version().feature() >= 24) {
            assertEquals(0, during, "JEP 491: synchronized no longer pins; saw " + pinned);
        } else {
            assertTrue(during >= 1, "JDK < 24 pins inside synchronized; saw " + pinned);
        }
    }
}
