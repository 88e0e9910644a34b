package dev.vtbench.sut.executors;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.vtbench.sut.config.InvalidBenchPropertyException;

/**
 * The registry of executor kinds: {@code bench.executor.kind} is looked up here. One line per kind,
 * giving the default thread-name prefix of that kind (used when
 * {@code bench.executor.thread-name-prefix} is not set) — the only place those defaults live.
 */
public final class ExecutorKinds {

    private static final List<ExecutorKind> KINDS = List.of(
            new PlatformPoolKind("pool-"),
            new VirtualPerTaskKind("vt-"),
            // Boot names the applicationTaskExecutor's threads task-N (spring.task.execution.thread-name-prefix)
            new SpringBootAutoKind("task-"));

    /** The kind used when {@code bench.executor.kind} is not set. */
    public static final String DEFAULT_KIND = VirtualPerTaskKind.NAME;

    private static final Map<String, ExecutorKind> BY_NAME = index(KINDS);

    private ExecutorKinds() {
    }

    private static Map<String, ExecutorKind> index(List<ExecutorKind> kinds) {
        Map<String, ExecutorKind> m = new LinkedHashMap<>();
        for (ExecutorKind k : kinds) {
            if (m.put(k.name(), k) != null) {
                throw new IllegalStateException("two executor kinds named " + k.name());
            }
        }
        return m;
    }

    /** Known kind names in registry order. */
    public static List<String> names() {
        return List.copyOf(BY_NAME.keySet());
    }

    /**
     * The kind for a {@code bench.executor.kind} value (trimmed, case-insensitive).
     *
     * @throws InvalidBenchPropertyException naming {@code bench.executor.kind} and listing the known kinds
     */
    public static ExecutorKind lookup(String value) {
        ExecutorKind k = value == null ? null : BY_NAME.get(value.trim().toLowerCase(Locale.ROOT));
        if (k == null) {
            throw new InvalidBenchPropertyException("bench.executor.kind", value,
                    "expected one of " + String.join("|", BY_NAME.keySet()));
        }
        return k;
    }
}
