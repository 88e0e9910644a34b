package dev.vtbench.sut.scenarios.llm;

import org.springframework.stereotype.Component;

import dev.vtbench.sut.scenarios.Scenario;
import dev.vtbench.sut.scenarios.ScenarioRequest;
import dev.vtbench.sut.web.ServerTiming;

/**
 * {@code llm-stream}: one streaming Spring AI chat call ({@link LlmStreamService#stream}) with the prompt
 * from the JSON body {@code {"prompt": "..."}} (or {@value LlmScenario#DEFAULT_PROMPT}), consumed on the
 * executor's thread. Returns {@code {"content", "tokens", "ttftMs", "gapMeanMs", "gapMaxMs", "totalMs"}}
 * (ms, null when not measured); the same timings go out as {@code Server-Timing} entries.
 */
@Component
public class LlmStreamScenario implements Scenario {

    static final String ID = "llm-stream";

    /** A stream's answer; times in ms rounded to microseconds, null when not measured. */
    public record Result(String content, int tokens, Double ttftMs, Double gapMeanMs, Double gapMaxMs, double totalMs) {
    }

    private final LlmStreamService llm;

    public LlmStreamScenario(LlmStreamService llm) {
        this.llm = llm;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Result call(ScenarioRequest request) {
        LlmStreamService.Stream s = llm.stream(LlmScenario.prompt(request));
        return new Result(s.content(), s.tokens(), msOrNull(s.ttftNanos()), msOrNull(s.gapMeanNanos()),
                msOrNull(s.gapMaxNanos()), ServerTiming.ms(s.totalNanos()));
    }

    private static Double msOrNull(long nanos) {
        return nanos < 0 ? null : ServerTiming.ms(nanos);
    }
}
