package dev.vtbench.sut;

import java.util.Locale;

/** {@code synchronized} wraps the LLM call in a monitor, to show what pins on the running JDK. */
public enum PinningMode {
    NONE, SYNCHRONIZED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    static PinningMode parse(String property, String value) {
        for (PinningMode m : values()) {
            if (m.wireName().equals(value == null ? null : value.trim().toLowerCase(Locale.ROOT))) {
                return m;
            }
        }
        throw new InvalidBenchPropertyException(property, value, "expected one of none|synchronized");
    }
}
