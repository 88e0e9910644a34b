package dev.vtbench.sut.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;

import tools.jackson.databind.json.JsonMapper;

import org.junit.jupiter.api.Test;

class ScenarioRequestTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static ScenarioRequest query(String name, String value) {
        return new ScenarioRequest(Map.of(name, value), null);
    }

    @Test
    void wholeNumberInRange() {
        assertEquals(0, query("ms", "0").wholeNumber("ms", 0, 600_000));
        assertEquals(600_000, query("ms", "600000").wholeNumber("ms", 0, 600_000));
        assertEquals(42, query("ms", " 42 ").wholeNumber("ms", 0, 600_000));
    }

    @Test
    void wholeNumberRefusedNamingTheParameter() {
        for (String v : new String[] {"", "-1", "+1", "1.5", "1e3", "abc", "600001", "99999999999999999999"}) {
            BadScenarioParameterException e = assertThrows(BadScenarioParameterException.class,
                    () -> query("ms", v).wholeNumber("ms", 0, 600_000), v);
            assertEquals("ms", e.parameter());
            assertTrue(e.getMessage().contains("'ms'") && e.getMessage().contains("0..600000"), e.getMessage());
        }
        BadScenarioParameterException missing = assertThrows(BadScenarioParameterException.class,
                () -> new ScenarioRequest(Map.of(), null).wholeNumber("ms", 0, 10));
        assertEquals("query parameter 'ms' is required: it must be a whole number in 0..10", missing.getMessage());
    }

    @Test
    void bodyParsedOnce_stringFieldRead_blankBodyIsNoBody() {
        ScenarioRequest r = ScenarioRequest.of(Map.of(), "{\"prompt\":\"hi\",\"n\":null}", JSON);
        assertEquals(Optional.of("hi"), r.bodyString("prompt"));
        assertEquals(Optional.empty(), r.bodyString("n"));
        assertEquals(Optional.empty(), r.bodyString("absent"));
        assertNull(ScenarioRequest.of(Map.of(), "  ", JSON).body());
        assertEquals(Optional.empty(), ScenarioRequest.of(Map.of(), null, JSON).bodyString("prompt"));
    }

    @Test
    void badBodiesAreRefusedNamingBodyOrTheField() {
        assertEquals("body", assertThrows(BadScenarioParameterException.class,
                () -> ScenarioRequest.of(Map.of(), "{\"prompt\":", JSON)).parameter());
        assertEquals("body", assertThrows(BadScenarioParameterException.class,
                () -> ScenarioRequest.of(Map.of(), "[1]", JSON).bodyString("prompt")).parameter());
        assertEquals("prompt", assertThrows(BadScenarioParameterException.class,
                () -> ScenarioRequest.of(Map.of(), "{\"prompt\":5}", JSON).bodyString("prompt")).parameter());
    }

    @Test
    void sleepScenarioSleepsAndReturnsSleptMs() throws Exception {
        long t0 = System.nanoTime();
        assertEquals(new SleepScenario.Result(20), new SleepScenario().call(query("ms", "20")));
        assertTrue(System.nanoTime() - t0 >= 19_000_000L);
        assertThrows(BadScenarioParameterException.class, () -> new SleepScenario().call(query("ms", "600001")));
    }
}
