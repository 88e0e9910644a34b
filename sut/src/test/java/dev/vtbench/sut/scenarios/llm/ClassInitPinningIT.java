package dev.vtbench.sut.scenarios.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;

import dev.vtbench.sut.StubOpenAiServer;
import dev.vtbench.sut.StubbedSutIT;
import dev.vtbench.sut.SutHttp;

/**
 * {@code bench.pinning=class-init}: every call runs inside the static initialiser of a fresh hidden
 * class, which still pins on JDK 25 (JEP 491 did not unpin class initialisation). Also proves that
 * {@code GET /bench/pinned} answers only after JFR delivered the pins of calls that already
 * returned: the read comes immediately after the calls, with no sleep, although JFR delivers
 * events up to about a second late.
 *
 * <p>Calls go one at a time: with as many pinned socket reads as carriers (2 on the reference
 * machine), JDK 25's default read poller, itself a virtual thread, finds no carrier and every call
 * stalls (seen here: two concurrent calls hung until the client gave up; see {@link PinningMode}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"bench.executor.kind=virtual-per-task", "bench.pinning=class-init", "bench.pinned.threshold-ms=20"})
@DirtiesContext
class ClassInitPinningIT extends StubbedSutIT {

    /** HotSpot's reason for a pin with a {@code <clinit>} frame on the stack; hidden classes carry a /0x… suffix. */
    static final Pattern CLINIT_REASON = Pattern.compile(
            "^VM call to dev\\.vtbench\\.sut\\.scenarios\\.llm\\.BlockingInitializer/0x[0-9a-f]+\\.<clinit> on stack$");

    SutHttp http;

    @BeforeEach
    void warmUp() {
        http = new SutHttp(port);
        for (int i = 0; i < 3; i++) {
            http.llm(); // first calls load and initialise the client's classes
        }
    }

    @Test
    void threeCallsInFreshClassInitialisers_eachPins_allSeenByAnImmediateReadAfterTheFlush_noneFromBefore() {
        JsonNode before = http.getJson("/bench/pinned");
        assertTrue(before.get("flushed").asBoolean(), before.toString());

        List<SutHttp.Result> rs = List.of(http.llm(), http.llm(), http.llm());
        for (SutHttp.Result r : rs) {
            assertEquals(200, r.status(), r.body());
            assertEquals(StubOpenAiServer.CONTENT, r.json().get("content").asText());
        }
        JsonNode after = http.getJson("/bench/pinned"); // no sleep: the endpoint waits for JFR's delivery

        assertTrue(after.get("flushed").asBoolean(), after.toString());
        assertTrue(after.get("flushWaitMs").asLong() <= 5_000, after.toString());
        // Each call defines its own hidden class, so each call's pins carry its own class name; a call
        // can pin more than once (every park of >= 20 ms inside the initialiser is an event), so count
        // the new class names: exactly the three calls, none missing (not yet delivered) and none
        // extra (an earlier call's pin delivered late).
        Set<String> newClasses = new TreeSet<>(clinitReasons(after));
        newClasses.removeAll(clinitReasons(before));
        if (Runtime.version().feature() >= 24) {
            assertEquals(3, newClasses.size(), "one new <clinit> class per call, each seen at once; before " + before + ", after " + after);
        }
        assertTrue(after.get("total").asLong() - before.get("total").asLong() >= newClasses.size(), after.toString());
    }

    @Test
    void infoNamesThePinningModeAndTheLoopbackBindAddress() {
        JsonNode info = http.getJson("/bench/info");
        assertEquals("class-init", info.at("/executor/pinning").asText());
        assertEquals("127.0.0.1", info.get("serverAddress").asText(), "application.yml binds loopback by default");
    }

    private static Set<String> clinitReasons(JsonNode pinned) {
        Set<String> out = new TreeSet<>();
        for (Map.Entry<String, JsonNode> e : pinned.get("byReason").properties()) {
            if (CLINIT_REASON.matcher(e.getKey()).matches() && e.getValue().asLong() > 0) {
                out.add(e.getKey());
            }
        }
        return out;
    }
}
