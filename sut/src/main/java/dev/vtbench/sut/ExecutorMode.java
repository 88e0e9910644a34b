package dev.vtbench.sut;

import java.util.Locale;

/** Which executor runs the blocking LLM call: a fixed platform-thread pool or virtual threads. */
public enum ExecutorMode {
    FIXED, VIRTUAL;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    static ExecutorMode parse(String property, String value) {
        for (ExecutorMode m : values()) {
            if (m.wireName().equals(value == null ? null : value.trim().toLowerCase(Locale.ROOT))) {
                return m;
            }
        }
        throw new InvalidBenchPropertyException(property, value, "expected one of fixed|virtual");
    }
}
