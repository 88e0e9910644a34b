package dev.vtbench.sut.web;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.vtbench.sut.config.BenchProperties;
import dev.vtbench.sut.executors.MeasuringExecutor;
import dev.vtbench.sut.scenarios.BadScenarioParameterException;
import dev.vtbench.sut.scenarios.Scenario;
import dev.vtbench.sut.scenarios.ScenarioRegistry;
import dev.vtbench.sut.scenarios.ScenarioRequest;
import dev.vtbench.sut.scenarios.UpstreamException;
import dev.vtbench.sut.scenarios.db.DbUnavailableException;
import dev.vtbench.sut.scenarios.llm.LlmScenario;

/**
 * The workload routes: {@code GET|POST /api/scenario/{id}} runs any registered {@link Scenario};
 * {@code POST /api/benchmark/llm} runs the {@code llm} scenario with the response shape of study 000.
 * Handlers return a CompletableFuture so the servlet thread is released at once: the scenario runs on
 * the {@link MeasuringExecutor}, and only the executor differs between variants. Shapes are in
 * src/types/sut-api.ts.
 */
@RestController
public class BenchmarkController {

    public record PromptRequest(String prompt) {
    }

    /** {@code POST /api/benchmark/llm} -> 200. */
    public record LlmResponse(String content, String variant, double queueMs, double execMs) {
    }

    /** {@code /api/scenario/{id}} -> 200. */
    public record ScenarioResponse(String variant, String scenario, Object result, double queueMs, double execMs) {
    }

    public record SutError(String error, String message) {
    }

    private final MeasuringExecutor executor;
    private final ScenarioRegistry scenarios;
    private final JsonMapper json;
    private final String variant;

    public BenchmarkController(MeasuringExecutor executor, ScenarioRegistry scenarios, JsonMapper json,
            BenchProperties props) {
        this.executor = executor;
        this.scenarios = scenarios;
        this.json = json;
        this.variant = props.variant();
    }

    @RequestMapping(path = "/api/scenario/{id}", method = {RequestMethod.GET, RequestMethod.POST})
    public CompletableFuture<ResponseEntity<?>> scenario(@PathVariable("id") String id,
            @RequestParam Map<String, String> params, @RequestBody(required = false) String body) {
        Scenario scenario = scenarios.get(id);
        ScenarioRequest request = ScenarioRequest.of(params, body, json);
        return run(scenario, request, timed -> new ScenarioResponse(variant, scenario.id(), timed.value(),
                ServerTiming.ms(timed.queueNanos()), ServerTiming.ms(timed.execNanos())));
    }

    @PostMapping(path = "/api/benchmark/llm")
    public CompletableFuture<ResponseEntity<?>> llm(@RequestBody(required = false) PromptRequest body) {
        ScenarioRequest request = new ScenarioRequest(Map.of(), body == null ? null : json.valueToTree(body));
        return run(scenarios.get(LlmScenario.ID), request, timed -> new LlmResponse(
                ((LlmScenario.Result) timed.value()).content(), variant,
                ServerTiming.ms(timed.queueNanos()), ServerTiming.ms(timed.execNanos())));
    }

    /** @throws MeasuringExecutor.Rejected at once when the executor refuses the call (503) */
    private CompletableFuture<ResponseEntity<?>> run(Scenario scenario, ScenarioRequest request,
            Function<MeasuringExecutor.Timed<Object>, Object> okBody) {
        RequestPhases phases = new RequestPhases();
        return executor.submit(() -> phases.run(() -> scenario.call(request))).handle((timed, failure) -> {
            if (failure == null) {
                return ResponseEntity.ok()
                        .header("Server-Timing", ServerTiming.header(timed.queueNanos(), timed.execNanos(), phases.permitNanos(), phases.phases()))
                        .body(okBody.apply(timed));
            }
            return errorResponse(failure, phases);
        });
    }

    /** 400 bad parameter, 502 upstream failure (504 when the client's timeout ended it), 503 database unavailable (not configured, pool exhausted), 500 anything else; with Server-Timing when the call was timed. */
    private static ResponseEntity<?> errorResponse(Throwable failure, RequestPhases phases) {
        Throwable f = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        String serverTiming = null;
        if (f instanceof MeasuringExecutor.TimedFailure tf) {
            serverTiming = ServerTiming.header(tf.queueNanos(), tf.execNanos(), phases.permitNanos(), phases.phases());
            f = tf.getCause();
        }
        HttpStatus status;
        SutError error;
        if (f instanceof UpstreamException up) {
            status = HttpStatus.valueOf(up.httpStatus());
            error = new SutError(up.code(), up.getMessage());
        } else if (f instanceof DbUnavailableException db) {
            status = HttpStatus.SERVICE_UNAVAILABLE;
            error = new SutError(db.code(), db.getMessage());
        } else if (f instanceof BadScenarioParameterException bad) {
            status = HttpStatus.BAD_REQUEST;
            error = badParameter(bad);
        } else {
            status = HttpStatus.INTERNAL_SERVER_ERROR;
            error = new SutError("internal", f.getClass().getSimpleName() + ": " + f.getMessage());
        }
        ResponseEntity.BodyBuilder builder = ResponseEntity.status(status);
        if (serverTiming != null) {
            builder.header("Server-Timing", serverTiming);
        }
        return builder.body(error);
    }

    private static SutError badParameter(BadScenarioParameterException e) {
        return new SutError("bad_scenario_parameter", e.getMessage());
    }

    @ExceptionHandler(MeasuringExecutor.Rejected.class)
    public ResponseEntity<SutError> rejected(MeasuringExecutor.Rejected e) {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body(new SutError("rejected", e.getMessage()));
    }

    @ExceptionHandler(ScenarioRegistry.UnknownScenarioException.class)
    public ResponseEntity<SutError> unknownScenario(ScenarioRegistry.UnknownScenarioException e) {
        return ResponseEntity.status(HttpStatus.NOT_FOUND).body(new SutError("unknown_scenario", e.getMessage()));
    }

    /** A bad request body, found before the call was submitted (so not timed). */
    @ExceptionHandler(BadScenarioParameterException.class)
    public ResponseEntity<SutError> badScenarioParameter(BadScenarioParameterException e) {
        return ResponseEntity.status(HttpStatus.BAD_REQUEST).body(badParameter(e));
    }
}
