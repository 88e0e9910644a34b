package dev.vtbench.sut.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class ScenarioRegistryTest {

    private record Fixed(String id) implements Scenario {
        @Override
        public Object call(ScenarioRequest request) {
            return id;
        }
    }

    @Test
    void idsAreSorted_lookupById() {
        Scenario b = new Fixed("beta");
        Scenario a = new Fixed("alpha-2");
        ScenarioRegistry r = new ScenarioRegistry(List.of(b, a));
        assertEquals(List.of("alpha-2", "beta"), r.ids());
        assertSame(b, r.get("beta"));
    }

    @Test
    void unknownIdNamesTheKnownIds() {
        ScenarioRegistry r = new ScenarioRegistry(List.of(new Fixed("sleep"), new Fixed("llm")));
        ScenarioRegistry.UnknownScenarioException e = assertThrows(ScenarioRegistry.UnknownScenarioException.class,
                () -> r.get("db"));
        assertEquals("unknown scenario 'db'; known: llm, sleep", e.getMessage());
    }

    @Test
    void duplicateIdStopsTheStartup() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new ScenarioRegistry(List.of(new Fixed("sleep"), new SleepScenario())));
        assertTrue(e.getMessage().contains("two scenarios with id 'sleep'"), e.getMessage());
        assertTrue(e.getMessage().contains(SleepScenario.class.getName()), e.getMessage());
    }

    @Test
    void malformedIdStopsTheStartup() {
        for (String id : List.of("", "Sleep", "a/b", "1x", "a b")) {
            assertThrows(IllegalStateException.class, () -> new ScenarioRegistry(List.of(new Fixed(id))), id);
        }
    }
}
