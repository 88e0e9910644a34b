package dev.vtbench.sut.scenarios.llm;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import dev.vtbench.sut.config.InvalidBenchPropertyException;

/**
 * What the LLM call is wrapped in, to show what pins a virtual thread on the running JDK.
 * <ul>
 * <li>{@code none}: the plain call.</li>
 * <li>{@code synchronized}: the call holds a monitor (one per call, never contended). On JDK 21-23
 * this pins the carrier for the whole call; from JDK 24 it does not (JEP 491: a virtual thread
 * blocking inside {@code synchronized} unmounts), so on JDK 25 this mode yields 0 pinned events
 * and demonstrates nothing but that.</li>
 * <li>{@code class-init}: the call runs inside the static initialiser of a fresh hidden class (one
 * per call, {@link ClassInitPinning}). JDK 25 still cannot unmount a virtual thread with a
 * {@code <clinit>} frame on its stack, so every call pins its carrier for the whole call; JFR
 * reports it as "VM call to &lt;class&gt;.&lt;clinit&gt; on stack".</li>
 * </ul>
 * Pinning at its worst: once as many calls as there are carriers are pinned in a socket read, JDK
 * 25's default read poller (a virtual thread itself) gets no carrier, and no read is ever woken:
 * every call stalls until the upstream timeout. Seen here on Temurin 25.0.3 with 2 carriers: two
 * concurrent calls hung; with {@code -Djdk.pollerMode=1} (pollers on platform threads) three took
 * two latencies. So run {@code class-init} below the carrier count, or with that flag, and say so.
 */
public enum PinningMode {
    NONE, SYNCHRONIZED, CLASS_INIT;

    /** The property value: lower case, {@code _} as {@code -} (e.g. {@code class-init}). */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static PinningMode parse(String property, String value) {
        for (PinningMode m : values()) {
            if (m.wireName().equals(value == null ? null : value.trim().toLowerCase(Locale.ROOT))) {
                return m;
            }
        }
        throw new InvalidBenchPropertyException(property, value, "expected one of "
                + Arrays.stream(values()).map(PinningMode::wireName).collect(Collectors.joining("|")));
    }
}
