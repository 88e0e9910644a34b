package dev.vtbench.sut.scenarios.llm;

import org.springframework.stereotype.Component;

import dev.vtbench.sut.scenarios.BadScenarioParameterException;
import dev.vtbench.sut.scenarios.Scenario;
import dev.vtbench.sut.scenarios.ScenarioRequest;

/**
 * {@code llm}: one blocking Spring AI chat call ({@link LlmCallService#call}) with the prompt from the
 * JSON body {@code {"prompt": "..."}}, or {@value #DEFAULT_PROMPT} when absent or blank. Returns
 * {@code {"content": "..."}}. {@code POST /api/benchmark/llm} runs this scenario too.
 */
@Component
public class LlmScenario implements Scenario {

    public static final String ID = "llm";
    static final String DEFAULT_PROMPT = "Say hello.";

    public record Result(String content) {
    }

    private final LlmCallService llm;

    public LlmScenario(LlmCallService llm) {
        this.llm = llm;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Result call(ScenarioRequest request) {
        return new Result(llm.call(prompt(request)));
    }

    /**
     * The body's {@code prompt}, or {@value #DEFAULT_PROMPT} when absent or blank (shared with {@link LlmStreamScenario}).
     *
     * @throws BadScenarioParameterException when the body is not an object or {@code prompt} is not a string
     */
    static String prompt(ScenarioRequest request) {
        return request.bodyString("prompt").filter(p -> !p.isBlank()).orElse(DEFAULT_PROMPT);
    }
}
