package dev.vtbench.sut.scenarios;

import org.springframework.stereotype.Component;

/**
 * {@code io-http}: the study's I/O scenario, one blocking HTTP GET of {@code ms} to the mock's plain
 * delay route ({@link DelayHttpClient}; not the LLM route). Query parameter {@code ms}: a whole number
 * in 0..{@value SleepScenario#MAX_MS}, required. Returns {@code {"delayedMs": ms}}.
 */
@Component
public class IoHttpScenario implements Scenario {

    static final String ID = "io-http";

    public record Result(long delayedMs) {
    }

    private final DelayHttpClient http;

    public IoHttpScenario(DelayHttpClient http) {
        this.http = http;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Result call(ScenarioRequest request) {
        long ms = request.wholeNumber("ms", 0, SleepScenario.MAX_MS);
        return new Result(http.delay(ms, null, null));
    }
}
