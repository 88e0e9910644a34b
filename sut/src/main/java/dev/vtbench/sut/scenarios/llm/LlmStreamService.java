package dev.vtbench.sut.scenarios.llm;

import java.util.concurrent.atomic.AtomicLong;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.stereotype.Service;

import dev.vtbench.sut.config.OkHttpDispatcherLimits;
import dev.vtbench.sut.scenarios.UpstreamException;
import dev.vtbench.sut.web.RequestPhases;

/**
 * The streaming Spring AI call: {@code chatClient.prompt().user(p).stream().content()}, consumed blocking
 * on the calling (executor) thread, so the executor holds one thread per stream as with {@code call()}.
 * The HTTP call itself runs on OkHttp's dispatcher (Spring AI 2 streams through the async OpenAI client),
 * which caps the calls waiting for their response headers ({@link OkHttpDispatcherLimits}).
 *
 * <p>Timings per stream, in nanoseconds from the call (before the subscription) to the moment a token
 * reached the subscriber (on OkHttp's thread): time to first token, the gaps between consecutive tokens
 * (mean, max) and the whole stream. Empty content chunks (the role chunk) are not tokens. They are recorded
 * in the request's {@link RequestPhases} as {@code Server-Timing} {@code ttft}, {@code gapmean},
 * {@code gapmax} (gaps only with at least two tokens); the total is the task's {@code exec}.
 */
@Service
public class LlmStreamService {

    /**
     * One stream's text and timings.
     *
     * @param tokens non-empty content chunks received
     * @param ttftNanos call → first token; -1 when none arrived
     * @param gapMeanNanos mean gap between consecutive tokens; -1 with fewer than two
     * @param gapMaxNanos largest gap; -1 with fewer than two
     * @param totalNanos call → completion
     */
    public record Stream(String content, int tokens, long ttftNanos, long gapMeanNanos, long gapMaxNanos, long totalNanos) {
    }

    private final ChatClient chatClient;
    private final LlmBulkhead bulkhead;
    private final AtomicLong upstreamErrors = new AtomicLong();

    public LlmStreamService(ChatClient.Builder chatClientBuilder, LlmBulkhead bulkhead) {
        this.chatClient = chatClientBuilder.build();
        this.bulkhead = bulkhead;
    }

    /**
     * Streams the answer to {@code prompt} (through the bulkhead when {@code bench.bulkhead.permits} > 0),
     * blocking until it completes, and records its timings in the current {@link RequestPhases}.
     *
     * @throws UpstreamException when the stream failed (classified as {@link LlmCallService#classify})
     */
    public Stream stream(String prompt) {
        return bulkhead.call(() -> {
            Stream s = timed(prompt);
            RequestPhases phases = RequestPhases.current();
            if (phases != null) {
                if (s.ttftNanos() >= 0) {
                    phases.phase("ttft", s.ttftNanos());
                }
                if (s.gapMeanNanos() >= 0) {
                    phases.phase("gapmean", s.gapMeanNanos());
                    phases.phase("gapmax", s.gapMaxNanos());
                }
            }
            return s;
        });
    }

    private Stream timed(String prompt) {
        StringBuilder content = new StringBuilder();
        // written on OkHttp's thread (doOnNext), read here after blockLast() (happens-before via Reactor's completion)
        long[] t = {-1L, -1L, 0L, 0L, 0L}; // first, last, gap sum, gap max, tokens
        long t0 = System.nanoTime();
        try {
            chatClient.prompt().user(prompt).stream().content().doOnNext(text -> {
                if (text == null || text.isEmpty()) {
                    return;
                }
                long now = System.nanoTime();
                if (t[0] < 0) {
                    t[0] = now;
                } else {
                    long gap = now - t[1];
                    t[2] += gap;
                    t[3] = Math.max(t[3], gap);
                }
                t[1] = now;
                t[4]++;
                content.append(text);
            }).blockLast();
        } catch (RuntimeException e) {
            upstreamErrors.incrementAndGet();
            throw LlmCallService.classify(e);
        }
        long total = System.nanoTime() - t0;
        int tokens = (int) t[4];
        return new Stream(content.toString(), tokens, t[0] < 0 ? -1 : t[0] - t0,
                tokens < 2 ? -1 : t[2] / (tokens - 1), tokens < 2 ? -1 : t[3], total);
    }

    /** Streams that failed since start. */
    public long upstreamErrorsTotal() {
        return upstreamErrors.get();
    }
}
