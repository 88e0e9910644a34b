package dev.vtbench.sut;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * Counts {@code jdk.VirtualThreadPinned} (by {@code pinnedReason}, at the configured threshold) and
 * {@code jdk.VirtualThreadSubmitFailed} from an in-process JFR stream. Counts are cumulative since
 * the stream started (JVM start, in practice); JFR delivers events about once a second.
 * ({@code -Djdk.tracePinnedThreads} was removed in JDK 24, so JFR is the only source.)
 */
@Component
public class PinnedEventCounter implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(PinnedEventCounter.class);

    private final long thresholdMs;
    private final Map<String, LongAdder> byReason = new ConcurrentHashMap<>();
    private final AtomicLong total = new AtomicLong();
    private final AtomicLong submitFailed = new AtomicLong();
    private final RecordingStream stream;

    public PinnedEventCounter(BenchProperties props) {
        this.thresholdMs = props.pinned().thresholdMs();
        RecordingStream rs = null;
        try {
            rs = new RecordingStream();
            rs.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ofMillis(thresholdMs));
            rs.enable("jdk.VirtualThreadSubmitFailed");
            rs.onEvent("jdk.VirtualThreadPinned", this::onPinned);
            rs.onEvent("jdk.VirtualThreadSubmitFailed", e -> submitFailed.incrementAndGet());
            rs.startAsync();
        } catch (RuntimeException | Error e) {
            log.warn("JFR stream unavailable, pinned counts stay 0: {}", e.toString());
            if (rs != null) {
                rs.close();
            }
            rs = null;
        }
        this.stream = rs;
    }

    private void onPinned(RecordedEvent e) {
        String reason = e.hasField("pinnedReason") ? e.getString("pinnedReason") : null;
        byReason.computeIfAbsent(reason == null ? "unknown" : reason, k -> new LongAdder()).increment();
        total.incrementAndGet();
    }

    public long thresholdMs() {
        return thresholdMs;
    }

    public long total() {
        return total.get();
    }

    public long submitFailedTotal() {
        return submitFailed.get();
    }

    public Map<String, Long> byReason() {
        Map<String, Long> m = new TreeMap<>();
        byReason.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }

    public boolean active() {
        return stream != null;
    }

    @Override
    public void destroy() {
        if (stream != null) {
            stream.close();
        }
    }
}
