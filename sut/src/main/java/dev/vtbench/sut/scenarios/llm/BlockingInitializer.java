package dev.vtbench.sut.scenarios.llm;

/**
 * Template of the hidden classes {@link ClassInitPinning} defines: its static initialiser runs the
 * current thread's pending call. Never used directly.
 */
final class BlockingInitializer {

    static {
        ClassInitPinning.runFromInitializer();
    }

    private BlockingInitializer() {
    }
}
