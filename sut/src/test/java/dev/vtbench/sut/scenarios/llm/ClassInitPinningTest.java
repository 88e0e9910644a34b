package dev.vtbench.sut.scenarios.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.vtbench.sut.scenarios.UpstreamException;

class ClassInitPinningTest {

    @Test
    void returnsTheCallsValueAndRunsItInsideAClinitEveryTime() {
        List<Boolean> inClinit = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int n = i;
            String v = ClassInitPinning.callInStaticInitializer(() -> {
                inClinit.add(StackWalker.getInstance(StackWalker.Option.SHOW_HIDDEN_FRAMES).walk(s -> s.anyMatch(f -> f.getMethodName().equals("<clinit>"))));
                return "v" + n;
            });
            assertEquals("v" + i, v);
        }
        assertEquals(List.of(true, true, true), inClinit, "a fresh initialiser runs for every call");
    }

    @Test
    void aRuntimeExceptionOfTheCallIsRethrownAsIs() {
        UpstreamException boom = new UpstreamException("upstream_unreachable", "boom");
        UpstreamException thrown = assertThrows(UpstreamException.class,
                () -> ClassInitPinning.callInStaticInitializer(() -> {
                    throw boom;
                }));
        assertSame(boom, thrown);
        assertEquals("after", ClassInitPinning.callInStaticInitializer(() -> "after"), "state is cleared after a failure");
    }
}
