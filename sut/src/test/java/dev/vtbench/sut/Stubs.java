package dev.vtbench.sut;

import java.io.IOException;
import java.io.UncheckedIOException;

final class Stubs {
    private Stubs() {
    }

    static StubOpenAiServer start(long latencyMs) {
        try {
            return new StubOpenAiServer(latencyMs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
