package dev.vtbench.sut;

import java.io.IOException;
import java.io.UncheckedIOException;

public final class Stubs {
    private Stubs() {
    }

    public static StubOpenAiServer start(long latencyMs) {
        try {
            return new StubOpenAiServer(latencyMs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
