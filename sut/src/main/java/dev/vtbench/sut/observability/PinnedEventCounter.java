package dev.vtbench.sut.observability;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import jdk.jfr.Category;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

import dev.vtbench.sut.config.BenchProperties;

/**
 * Counts {@code jdk.VirtualThreadPinned} (by {@code pinnedReason}, at the configured threshold) and
 * {@code jdk.VirtualThreadSubmitFailed} from an in-process JFR stream. Counts are cumulative since
 * the stream started (JVM start, in practice). ({@code -Djdk.tracePinnedThreads} was removed in
 * JDK 24, so JFR is the only source.)
 *
 * <p>JFR delivers events to a stream at its next flush, about once a second (149–996 ms late seen
 * here), so a plain read misses pins that just happened. {@link #awaitDelivered(Duration)} commits
 * a {@link FlushMarker} event into the same stream and waits until the stream has delivered it.
 * Every event committed before the marker is delivered no later than the marker: a flush writes
 * every thread's buffer, and the stream is ordered (the default), so within one flush segment
 * events are dispatched in time order. A pin whose call has returned was committed before its
 * unpinning, hence before any marker committed afterwards.
 */
@Component
public class PinnedEventCounter implements DisposableBean {

    /** The marker committed by {@link #awaitDelivered(Duration)}; enabled only in this stream. */
    @Name("dev.vtbench.FlushMarker")
    @Label("vtbench flush marker")
    @Category("vtbench")
    @StackTrace(false)
    static final class FlushMarker extends Event {
        @Label("Sequence number")
        long id;
    }

    private static final Logger log = LoggerFactory.getLogger(PinnedEventCounter.class);

    private final long thresholdMs;
    private final Map<String, LongAdder> byReason = new ConcurrentHashMap<>();
    private final AtomicLong total = new AtomicLong();
    private final AtomicLong submitFailed = new AtomicLong();
    private final AtomicLong markersCommitted = new AtomicLong();
    private final Object delivery = new Object();
    private long markerDelivered; // guarded by delivery
    private final RecordingStream stream;

    public PinnedEventCounter(BenchProperties props) {
        this.thresholdMs = props.pinned().thresholdMs();
        RecordingStream rs = null;
        try {
            rs = new RecordingStream();
            rs.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ofMillis(thresholdMs));
            rs.enable("jdk.VirtualThreadSubmitFailed");
            rs.enable(FlushMarker.class);
            rs.onEvent("jdk.VirtualThreadPinned", this::onPinned);
            rs.onEvent("jdk.VirtualThreadSubmitFailed", e -> submitFailed.incrementAndGet());
            rs.onEvent("dev.vtbench.FlushMarker", this::onMarker);
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

    private void onMarker(RecordedEvent e) {
        long id = e.getLong("id");
        synchronized (delivery) {
            if (id > markerDelivered) {
                markerDelivered = id;
            }
            delivery.notifyAll();
        }
    }

    /**
     * Commits a flush marker and waits until the stream has delivered it, so that the counts read
     * afterwards include every event committed before this call.
     *
     * @param timeout longest wait; JFR flushes about once a second
     * @return true when the marker was delivered in time; false on timeout, interruption, or when
     *         no JFR stream is running (the counts may then lag by up to a flush interval)
     */
    public boolean awaitDelivered(Duration timeout) {
        if (stream == null) {
            return false;
        }
        long id = markersCommitted.incrementAndGet();
        FlushMarker marker = new FlushMarker();
        marker.id = id;
        marker.commit();
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (delivery) {
            while (markerDelivered < id) {
                long leftMs = (deadline - System.nanoTime()) / 1_000_000L;
                if (leftMs <= 0) {
                    return false;
                }
                try {
                    delivery.wait(leftMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
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
