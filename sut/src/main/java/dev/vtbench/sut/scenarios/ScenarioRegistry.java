package dev.vtbench.sut.scenarios;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

/** Every {@link Scenario} bean by id. Two scenarios with one id, or a malformed id, stop the startup. */
@Component
public class ScenarioRegistry {

    static final Pattern ID = Pattern.compile("[a-z][a-z0-9-]*");

    /** No scenario has this id: HTTP 404 {@code unknown_scenario}, listing the known ids. */
    public static final class UnknownScenarioException extends RuntimeException {
        UnknownScenarioException(String id, List<String> known) {
            super("unknown scenario '" + id + "'; known: " + String.join(", ", known), null, false, false);
        }
    }

    private final Map<String, Scenario> byId = new TreeMap<>();

    public ScenarioRegistry(List<Scenario> scenarios) {
        for (Scenario s : scenarios) {
            String id = s.id();
            if (id == null || !ID.matcher(id).matches()) {
                throw new IllegalStateException("scenario " + s.getClass().getName() + " has id '" + id
                        + "'; ids match " + ID.pattern());
            }
            Scenario before = byId.putIfAbsent(id, s);
            if (before != null) {
                throw new IllegalStateException("two scenarios with id '" + id + "': " + before.getClass().getName()
                        + " and " + s.getClass().getName());
            }
        }
    }

    /** Known ids, sorted. */
    public List<String> ids() {
        return List.copyOf(byId.keySet());
    }

    /** @throws UnknownScenarioException when no scenario has this id */
    public Scenario get(String id) {
        Scenario s = byId.get(id);
        if (s == null) {
            throw new UnknownScenarioException(id, ids());
        }
        return s;
    }
}
