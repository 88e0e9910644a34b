package dev.vtbench.sut.scenarios;

import org.springframework.stereotype.Component;

/**
 * {@code sleep}: {@code Thread.sleep(ms)} on the executor's thread, the purest blocking wait (no
 * I/O, no CPU). Query parameter {@code ms}: a whole number in 0..{@value #MAX_MS}, required.
 * Returns {@code {"sleptMs": ms}}.
 */
@Component
public class SleepScenario implements Scenario {

    static final String ID = "sleep";

    /** Ten minutes: the SUT's async request timeout in application.yml. */
    public static final long MAX_MS = 600_000;

    public record Result(long sleptMs) {
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Result call(ScenarioRequest request) throws InterruptedException {
        long ms = request.wholeNumber("ms", 0, MAX_MS);
        Thread.sleep(ms);
        return new Result(ms);
    }
}
