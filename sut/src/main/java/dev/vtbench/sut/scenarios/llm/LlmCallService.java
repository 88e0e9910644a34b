package dev.vtbench.sut.scenarios.llm;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.stereotype.Service;

import dev.vtbench.sut.config.BenchProperties;
import dev.vtbench.sut.scenarios.UpstreamException;

/**
 * The blocking Spring AI call, the chain users run: {@code chatClient.prompt().user(p).call().content()},
 * which blocks its thread on the socket; wrapped as {@code bench.pinning} says. The {@code llm}
 * scenario runs it on the executor's thread.
 */
@Service
public class LlmCallService {

    private final ChatClient chatClient;
    private final PinningMode pinning;
    private final AtomicLong upstreamErrors = new AtomicLong();
    private final LlmBulkhead bulkhead;

    public LlmCallService(ChatClient.Builder chatClientBuilder, BenchProperties props, LlmBulkhead bulkhead) {
        this.chatClient = chatClientBuilder.build();
        this.pinning = props.pinningMode();
        this.bulkhead = bulkhead;
    }

    /**
     * Calls the LLM on the current thread, through the bulkhead when {@code bench.bulkhead.permits} > 0,
     * and returns the content ("" when none).
     *
     * @throws UpstreamException when the call failed (counted in {@link #upstreamErrorsTotal()})
     */
    public String call(String prompt) {
        return bulkhead.call(() -> switch (pinning) {
            case NONE -> callLlm(prompt);
            case SYNCHRONIZED -> callInsideMonitor(prompt);
            case CLASS_INIT -> ClassInitPinning.callInStaticInitializer(() -> callLlm(prompt));
        });
    }

    /** Holds a monitor (one per call, never contended) across the blocking I/O; does not pin on JDK 24+ (JEP 491). */
    private String callInsideMonitor(String prompt) {
        Object monitor = new Object();
        synchronized (monitor) {
            return callLlm(prompt);
        }
    }

    private String callLlm(String prompt) {
        try {
            String content = chatClient.prompt().user(prompt).call().content();
            return content == null ? "" : content;
        } catch (RuntimeException e) {
            upstreamErrors.incrementAndGet();
            throw classify(e);
        }
    }

    /**
     * Timed out (the client's timeout, {@code spring.ai.openai.timeout}, ended the call: OkHttp's read
     * timeout throws {@link SocketTimeoutException}, its call timeout an {@link InterruptedIOException}
     * "timeout"; code {@value UpstreamException#TIMEOUT}, HTTP 504) vs unreachable (another I/O failure:
     * refused, reset) vs a bad response (unparseable or unexpected body). Jackson 2's parse exceptions
     * extend IOException, so they are checked first. The message carries the root cause, never a stack trace.
     */
    static UpstreamException classify(Throwable e) {
        Throwable root = e;
        boolean badData = false;
        boolean io = false;
        boolean timeout = false;
        for (Throwable c = e; c != null; c = c.getCause()) {
            root = c;
            String name = c.getClass().getName();
            if (name.startsWith("com.fasterxml.jackson.") || name.startsWith("tools.jackson.")
                    || name.equals("com.openai.errors.OpenAIInvalidDataException")) {
                badData = true;
            } else if (c instanceof SocketTimeoutException
                    || (c instanceof InterruptedIOException && "timeout".equals(c.getMessage()))) {
                timeout = true;
                io = true;
            } else if (c instanceof IOException) {
                io = true;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        String cause = root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + firstLine(root.getMessage()));
        if (timeout && !badData) {
            return new UpstreamException(UpstreamException.TIMEOUT, "LLM call timed out: " + cause);
        }
        if (io && !badData) {
            return new UpstreamException("upstream_unreachable", "LLM endpoint unreachable: " + cause);
        }
        return new UpstreamException("upstream_bad_response", "LLM endpoint returned an unusable response: " + cause);
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    public long upstreamErrorsTotal() {
        return upstreamErrors.get();
    }
}
