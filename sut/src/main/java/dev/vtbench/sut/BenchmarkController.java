package dev.vtbench.sut;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/benchmark/llm}. Returns a CompletableFuture so the servlet thread is released at
 * once; only the executor behind {@link LlmCallService} differs between modes.
 */
@RestController
public class BenchmarkController {

    static final String DEFAULT_PROMPT = "Say hello.";

    public record PromptRequest(String prompt) {
    }

    public record LlmResponse(String content, String mode, double queueMs, double execMs) {
    }

    public record SutError(String error, String message) {
    }

    private final LlmCallService service;
    private final String mode;

    public BenchmarkController(LlmCallService service, MeasuringExecutor executor) {
        this.service = service;
        this.mode = executor.mode().wireName();
    }

    @PostMapping(path = "/api/benchmark/llm")
    public CompletableFuture<ResponseEntity<?>> llm(@RequestBody(required = false) PromptRequest body) {
        String prompt = body == null || body.prompt() == null || body.prompt().isBlank() ? DEFAULT_PROMPT : body.prompt();
        return service.call(prompt).handle((timed, failure) -> {
            if (failure == null) {
                return ResponseEntity.ok()
                        .header("Server-Timing", ServerTiming.header(timed.queueNanos(), timed.execNanos()))
                        .body(new LlmResponse(timed.value(), mode, ServerTiming.ms(timed.queueNanos()),
                                ServerTiming.ms(timed.execNanos())));
            }
            return errorResponse(failure);
        });
    }

    private static ResponseEntity<?> errorResponse(Throwable failure) {
        Throwable f = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        ResponseEntity.BodyBuilder builder = ResponseEntity.status(HttpStatus.BAD_GATEWAY);
        if (f instanceof MeasuringExecutor.TimedFailure tf) {
            builder.header("Server-Timing", ServerTiming.header(tf.queueNanos(), tf.execNanos()));
            f = tf.getCause();
        }
        if (f instanceof UpstreamException up) {
            return builder.body(new SutError(up.code(), up.getMessage()));
        }
        return ResponseEntity.status(HttpStatus.INTERNAL_SERVER_ERROR)
                .body(new SutError("internal", f.getClass().getSimpleName() + ": " + f.getMessage()));
    }

    @ExceptionHandler(MeasuringExecutor.Rejected.class)
    public ResponseEntity<SutError> rejected(MeasuringExecutor.Rejected e) {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body(new SutError("rejected", e.getMessage()));
    }
}
